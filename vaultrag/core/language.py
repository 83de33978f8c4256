"""Which language a text is written in (it decides the prompt's language and the refusal sentence)."""

from __future__ import annotations

import re

_PT = frozenset(["o", "os", "as", "um", "uma", "de", "do", "da", "dos", "das", "que", "não", "é", "em", "no", "na", "qual", "quais", "quando", "como", "onde", "para", "por", "com", "são", "está", "pelo", "pela", "meu", "minha", "seu", "sua", "isso", "esse", "essa", "este", "esta", "foi", "há", "mais", "também"])
_EN = frozenset(["the", "of", "what", "which", "when", "how", "where", "is", "are", "do", "does", "did", "to", "in", "and", "an", "who", "why", "was", "were", "my", "your", "it", "this", "that", "for", "with", "from"])


def detect_language(text: str) -> str:
    """'pt' when the question reads as Portuguese, else 'en' (stop-word and diacritic votes)."""
    words = re.findall(r"\w+", text.lower())
    pt = sum(w in _PT for w in words) + 2 * len(re.findall(r"[ãõçâêôàáéíóú]", text.lower()))
    en = sum(w in _EN for w in words)
    return "pt" if pt > en else "en"
