"""Pointer sentences: the ones that send the reader to another note ("please see [[Sync]]") instead of saying it."""

from __future__ import annotations

import functools
import re

from vaultrag.core.query.terms import SENTENCE, WORD

LINK = r"(?:!?\[\[[^\[\]\n]{1,1000}\]\]|\[[^\[\]\n]{0,1000}\]\([^()\s]{1,2000}\))"
# a pointing phrase, then a link within a few words: "see [[X]]", "for more information, see the [Sync](…) page",
# "veja [[X]]", "para mais informações, consulte …" (English, Portuguese, Spanish, German, French)
PHRASE = (r"see|refer to|learn (?:more|how)|read (?:more|about)|more about|check out|head to|go to|"
          r"for (?:more|further|additional)? ?(?:information|info|details|instructions|help)|"
          r"veja|consulte|confira|saiba (?:mais|como)|leia (?:mais|sobre)|acesse|"
          r"para (?:mais |obter )?(?:informações|detalhes|saber mais)|"
          r"véase|vea|consulta|para más información|siehe|weitere informationen|voir|pour plus d'informations")
POINTING = re.compile(rf"(?i)\b(?:{PHRASE})\b\W+(?:[\w'’-]+\W+){{0,8}}?{LINK}")
ANY_LINK = re.compile(LINK)


def is_pointer(sentence: str) -> bool:
    """Whether a sentence sends the reader elsewhere: a pointing phrase before a link, or nothing but links (a
    list item "- [[Page preview]]"; "Open **[[Settings]]**." is a step, not a pointer)."""
    if not ANY_LINK.search(sentence):
        return False
    return bool(POINTING.search(sentence)) or not WORD.search(ANY_LINK.sub(" ", sentence))


@functools.lru_cache(maxsize=4096)
def pointer_sentences(text: str) -> tuple[bool, ...]:
    """For each sentence of `text` with a word in it (as features.snowball_sentences splits them), whether it is a
    pointer sentence (cached: the same chunks come back question after question)."""
    return tuple(is_pointer(s) for s in SENTENCE.split(text) if WORD.findall(s.lower()))
