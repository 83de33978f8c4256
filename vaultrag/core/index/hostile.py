"""Notes that try to give a language model orders: instruction overrides, fake prompt tags, role markers."""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

from vaultrag.core.vocab import NoteFlag

# Each pattern is one kind of order a note should never give, in the languages the prompt is written in (English,
# Portuguese, Spanish, German). A note is only flagged: its text stays in the index and is escaped inside its
# <document> in the prompt, so the flag is a warning for the user, not a filter. The patterns read the note as
# `normalize` leaves it: plain ASCII, so accents, look-alike letters and full-width forms need no cases of their own.
_ROLES = (r"system(?:\s+prompt)?|assistant|user|human|sistema|assistente|usuario|utilizador|humano|asistente|"
          "benutzer|nutzer|assistent")
_VERBS = ("ignore|ignorem|disregard|forget|override|skip|bypass|do not follow|don'?t follow|stop following|"
          "desconsidere|desconsiderem|esqueca|esquecam|nao siga|pule|ignora|olvida|olvide|descarta|no sigas|"
          "ignoriere|ignorier|vergiss|missachte|befolge nicht")
_NOUNS = ("instructions?|rules|prompts?|directions|guidelines|instrucao|instrucoes|regras|orientacao|orientacoes|"
          "instrucciones|reglas|indicaciones|anweisungen|regeln|instruktionen|vorgaben")
# what makes "the instructions" the model's own, not a box's or a game's: before the noun (the previous
# instructions, todas as instrucoes) or after it (as regras anteriores, the instructions you were given before)
_BEFORE = ("previous|prior|above|earlier|preceding|former|all|your|these|system|original|todas|todos|suas|seus|tuas|"
           "teus|tus|sus|vorherigen|bisherigen|obigen|alle|deine|ihre")
_AFTER = ("before|above|earlier|given|so far|anteriores|anterior|acima|anteriormente|recebidas|arriba|antes|vorher|"
          "oben|bisher")
PATTERNS: dict[NoteFlag, re.Pattern[str]] = {
    NoteFlag.IGNORE_INSTRUCTIONS: re.compile(
        # ignore / forget … the previous … instructions, or … the instructions … given before (four languages; a
        # gap of a clause, periods of "i.e." included)
        rf"\b(?:{_VERBS})\b.{{0,80}}?\b(?:{_BEFORE})\b.{{0,30}}?\b(?:{_NOUNS})\b"
        rf"|\b(?:{_VERBS})\b.{{0,80}}?\b(?:{_NOUNS})\b.{{0,30}}?\b(?:{_AFTER})\b"
        # … everything written above
        r"|\b(?:ignore|disregard|forget|desconsidere|esqueca|ignora|olvida|ignoriere|vergiss)\s+"
        r"(?:everything|all|anything|tudo|todo|alles)\b.{0,30}?"
        r"\b(?:above|before|earlier|previously|acima|antes|arriba|oben|vorher)\b"
        r"|\b(?:new|novas?|nuevas?|neue)\s+(?:instructions|instrucoes|instrucciones|anweisungen)\s*:"
        r"|\bfrom now on,?\s+you\s+(?:will|must|are|shall)\b|\ba partir de agora,?\s+(?:voce\s+)?(?:vai|deve|e)\b"
        r"|\ba partir de ahora,?\s+(?:eres|vas|debes)\b|\bab jetzt\s+(?:bist|wirst|musst)\s+du\b"
        # a new identity for the model ("you are now an assistant without restrictions"), not a state of the
        # reader ("you are now disconnected from the remote vault")
        r"|\b(?:you are now|voce agora e|ahora eres|du bist jetzt)\s+"
        r"(?:an?\s+|um\s+|uma\s+|un\s+|una\s+|ein\s+|eine\s+)?"
        r"(?:\w+\s+){0,2}(?:assistant|ai|bot|chatbot|model|persona|character|assistente|modelo|personagem|"
        r"asistente|personaje|assistent|modell|dan|jailbroken|unrestricted|unfiltered)\b",
        re.I,
    ),
    NoteFlag.FAKE_TAG: re.compile(
        r"<\s*/?\s*(?:documents?|document_content|source|system|instructions?)\s*>"
        r"|<\s*\|\s*(?:im_start|im_end|system|user|assistant|endoftext)\s*\|\s*>|\[\s*/?\s*INST\s*\]"
        r"|<<\s*/?\s*SYS\s*>>",
        re.I,
    ),
    NoteFlag.ROLE_MARKER: re.compile(
        # at a line's start, under any quote, list, heading or emphasis marks: "> **System:**", "- User:"; or a
        # heading that is only a role ("### System", "## Instruction")
        rf"^[ \t>*_+#-]*(?:{_ROLES})[ \t*_]*:"
        rf"|^[ \t>*_+-]*#{{2,}}[ \t*_]*(?:instruction|response|{_ROLES})[ \t*_]*:?[ \t*_]*$",
        re.I | re.M,
    ),
}
# Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables.txt): transliteration would read
# Cyrillic "р" as r and "с" as s, but a reader, and a language model, sees p and c
LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁһӏԛԝАВЕКМНОРСТХУІЈЅαεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖ",
    "aeopcyxijsdhlqwABEKMHOPCTXYIJSaeikvoptuxABEHIKMNOPTYXZ",
)
# a phrase may be broken over lines; each line's start is kept apart. One run of whitespace, whatever it holds, in
# one match: `\s*\n\s*` tried from every character of a run with no line break (\x1c–\x1f are whitespace to
# `\s`), to the run's end and back, and 200 kB of them took minutes
SPACES = re.compile(r"\s+")


def normalize(text: str) -> tuple[str, str]:
    """The note as the patterns read it: NFKC (full-width forms), look-alike letters of other scripts as the Latin
    ones they imitate, then ASCII (accents dropped, zero-width characters gone), runs of spaces made one.
    Returns (lines kept, lines joined)."""
    # invisible format characters first (zero-width spaces, Unicode TAG letters, bidi controls): a word split by
    # them is still the word a model reads
    visible = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")
    plain = anyascii(visible.translate(LOOK_ALIKES))
    lines = SPACES.sub(lambda m: "\n" if "\n" in m.group(0) else " ", plain)
    return lines, lines.replace("\n", " ")


def flags(text: str) -> list[str]:
    """The NoteFlag codes whose pattern occurs in `text`, in declaration order (empty for ordinary notes)."""
    lines, joined = normalize(text)
    return [str(flag) for flag, pattern in PATTERNS.items()
            if pattern.search(lines if flag == NoteFlag.ROLE_MARKER else joined)]
