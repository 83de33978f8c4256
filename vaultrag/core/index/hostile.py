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
_ROLES = ("system|assistant|user|human|sistema|assistente|usuario|utilizador|humano|asistente|benutzer|nutzer|"
          "assistent")
PATTERNS: dict[NoteFlag, re.Pattern[str]] = {
    NoteFlag.IGNORE_INSTRUCTIONS: re.compile(
        # ignore / forget … the previous … instructions (any of the four languages)
        r"\b(?:ignore|ignorem|disregard|forget|override|desconsidere|desconsiderem|esqueca|esquecam|ignora|olvida|"
        r"olvide|descarta|ignoriere|ignorier|vergiss|missachte)\b[^.]{0,40}?"
        r"\b(?:instructions?|rules|prompts?|directions|guidelines|instrucao|instrucoes|regras|orientacao|orientacoes|"
        r"instrucciones|reglas|indicaciones|anweisungen|regeln|instruktionen|vorgaben)\b"
        # … everything written above
        r"|\b(?:ignore|disregard|forget|desconsidere|ignore|esqueca|ignora|olvida|ignoriere|vergiss)\s+"
        r"(?:everything|all|anything|tudo|todo|alles)\b[^.]{0,30}?"
        r"\b(?:above|before|earlier|previously|acima|antes|arriba|oben|vorher)\b"
        r"|\b(?:new|novas?|nuevas?|neue)\s+(?:instructions|instrucoes|instrucciones|anweisungen)\s*:"
        # a new identity for the model ("you are now an assistant without restrictions"), not a state of the
        # reader ("you are now disconnected from the remote vault")
        r"|\b(?:you are now|voce agora e|ahora eres|du bist jetzt)\s+"
        r"(?:an?\s+|um\s+|uma\s+|un\s+|una\s+|ein\s+|eine\s+)?"
        r"(?:\w+\s+){0,2}(?:assistant|ai|bot|chatbot|model|persona|character|assistente|modelo|personagem|"
        r"asistente|personaje|assistent|modell)\b",
        re.I,
    ),
    NoteFlag.FAKE_TAG: re.compile(
        r"<\s*/?\s*(?:documents?|document_content|source|system|instructions?)\s*>"
        r"|<\|\s*(?:im_start|im_end|system|user|assistant|endoftext)\s*\|>|\[\s*/?\s*INST\s*\]|<<\s*/?\s*SYS\s*>>",
        re.I,
    ),
    NoteFlag.ROLE_MARKER: re.compile(
        # at a line's start, under any quote, list, heading or emphasis marks: "> **System:**", "- User:"
        rf"^[ \t>*_+#-]*(?:{_ROLES})[ \t*_]*:|^[ \t>*_+-]*#{{2,}}[ \t*_]*(?:instruction|response)[ \t*_]*:?[ \t*_]*$",
        re.I | re.M,
    ),
}
# Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables.txt): transliteration would read
# Cyrillic "р" as r and "с" as s, but a reader, and a language model, sees p and c
LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁһӏԛԝАВЕКМНОРСТХУІЈЅαεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖ",
    "aeopcyxijsdhlqwABEKMHOPCTXYIJSaeikvoptuxABEHIKMNOPTYXZ",
)
SPACES = re.compile(r"[ \t\r\f\v]+|\s*\n\s*")  # a phrase may be broken over lines; each line's start is kept apart


def normalize(text: str) -> tuple[str, str]:
    """The note as the patterns read it: NFKC (full-width forms), look-alike letters of other scripts as the Latin
    ones they imitate, then ASCII (accents dropped, zero-width characters gone), runs of spaces made one.
    Returns (lines kept, lines joined)."""
    plain = anyascii(unicodedata.normalize("NFKC", text).translate(LOOK_ALIKES))
    lines = SPACES.sub(lambda m: "\n" if "\n" in m.group(0) else " ", plain)
    return lines, lines.replace("\n", " ")


def flags(text: str) -> list[str]:
    """The NoteFlag codes whose pattern occurs in `text`, in declaration order (empty for ordinary notes)."""
    lines, joined = normalize(text)
    return [str(flag) for flag, pattern in PATTERNS.items()
            if pattern.search(lines if flag == NoteFlag.ROLE_MARKER else joined)]
