"""Notes flagged at index time as trying to give the language model orders, in the window's language."""

from __future__ import annotations

from vaultrag.app.words import flag_word, wording_tr
from vaultrag.core import wording
from vaultrag.core.model import QueryTrace

WARNING_SIGN = "⚠"
WARNING_COLOUR = "#b45309"


def flag_words(codes: list[str]) -> str:
    """The flags of one note in words, from core/wording.py ('fake document tags, …')."""
    return ", ".join(flag_word(c) for c in codes)


def flag_warning(note: str, codes: list[str]) -> str:
    """What the user should know about a flagged note (a tooltip, a line above the answer)."""
    return wording.flagged_note(note, codes, wording_tr)


def flagged_documents(trace: QueryTrace) -> dict[int, list[str]]:
    """Prompt document index → the flags of its note, for the documents whose note is flagged."""
    return {d.index: trace.flagged[d.note] for d in trace.context if trace.flagged.get(d.note)}
