"""Notes that try to give a language model orders: instruction overrides, fake prompt tags, role markers."""

from __future__ import annotations

import re

from vaultrag.core.vocab import NoteFlag

# Each pattern is one kind of order a note should never give; the words are English and Portuguese (the
# languages the prompt is written in). A note is only flagged: its text stays in the index and is escaped
# inside its <document> in the prompt, so the flag is a warning for the user, not a filter.
PATTERNS: dict[NoteFlag, re.Pattern[str]] = {
    NoteFlag.IGNORE_INSTRUCTIONS: re.compile(
        r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|all|any|your|the)\b"
        r"[^.\n]{0,30}?\b(?:instructions?|rules|prompts?|directions|guidelines)\b"
        r"|\b(?:ignore|ignorem?|desconsidere|esque[çc]a)\b[^.\n]{0,40}?\b(?:instru[çc](?:ão|ões|oes|ao)|regras|orienta[çc](?:ão|ões|oes))"
        r"|\b(?:new|novas?) (?:instructions|instru[çc][õo]es)\s*:"
        r"|\byou are now\b|\bvoc[êe] agora [ée]\b",
        re.I,
    ),
    NoteFlag.FAKE_TAG: re.compile(
        r"</?\s*(?:documents?|document_content|source|system|instructions?)\s*>"
        r"|<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<</?SYS>>",
        re.I,
    ),
    NoteFlag.ROLE_MARKER: re.compile(
        r"^\s*(?:#+\s*)?(?:system|assistant|sistema|assistente)\s*:|^\s*#{2,}\s*(?:instruction|response)\s*:?\s*$",
        re.I | re.M,
    ),
}


def flags(text: str) -> list[str]:
    """The NoteFlag codes whose pattern occurs in `text`, in declaration order (empty for ordinary notes)."""
    return [str(flag) for flag, pattern in PATTERNS.items() if pattern.search(text)]
