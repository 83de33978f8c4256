"""Golden question sets: the shared JSONL format and a minimal form, and what counts as a hit."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from vaultrag.errors import UserFacingError


@dataclass
class GoldenItem:
    """One golden question; unanswerable ones have no gold note."""

    line: int
    question: str
    answerable: bool
    gold_note: str | None = None
    alt_gold_notes: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    passage: tuple[int, int] | None = None
    answer_start: int | None = None
    id: str = ""
    lang: str = ""
    unanswerable_kind: str | None = None

    @property
    def notes(self) -> set[str]:
        return {n for n in [self.gold_note, *self.alt_gold_notes] if n}

    def is_hit(self, note: str, char_start: int, char_end: int, text: str) -> bool:
        """A chunk hits when it is in a gold note and overlaps the gold passage (or holds the answer's start),
        or contains an accepted answer; with neither given, any chunk of a gold note hits (note level)."""
        if not self.answerable or note not in self.notes:
            return False
        precise = self.passage is not None or self.answer_start is not None or bool(self.answers)
        if not precise:
            return True
        if note == self.gold_note:
            if self.passage and char_start < self.passage[1] and char_end > self.passage[0]:
                return True
            if self.answer_start is not None and char_start <= self.answer_start < char_end:
                return True
        folded = text.casefold()
        return any(a and a.casefold() in folded for a in self.answers)


def load(path: str | Path) -> tuple[list[GoldenItem], list[str]]:
    """Items of a golden JSONL file and one message per line that could not be used (the rest still count)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UserFacingError(f"Cannot read golden file {p}: {e}") from e
    items: list[GoldenItem] = []
    errors: list[str] = []
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError as e:
            errors.append(f"line {n}: not valid JSON ({e.msg})")
            continue
        if not isinstance(rec, dict):
            errors.append(f"line {n}: expected a JSON object")
            continue
        question = rec.get("question")
        if not isinstance(question, str) or not question.strip():
            errors.append(f"line {n}: missing field 'question'" if question is None else
                          f"line {n}: 'question' must be text (got {type(question).__name__})" if not
                          isinstance(question, str) else f"line {n}: 'question' is empty")
            continue
        note = rec.get("gold_note", rec.get("note", rec.get("expected_note")))
        answerable = rec.get("answerable", note is not None)
        if not isinstance(answerable, bool):
            errors.append(f"line {n}: 'answerable' must be true or false")
            continue
        if answerable and not isinstance(note, str):
            errors.append(f"line {n}: an answerable question needs 'gold_note' (or 'note')")
            continue
        answers = rec.get("answers") or ([rec["answer_text"]] if rec.get("answer_text") else [])
        passage = None
        if isinstance(rec.get("passage_char_start"), int) and isinstance(rec.get("passage_char_end"), int):
            passage = (rec["passage_char_start"], rec["passage_char_end"])
        items.append(GoldenItem(
            line=n, question=question, answerable=answerable, gold_note=note if answerable else None,
            alt_gold_notes=[a for a in rec.get("alt_gold_notes") or [] if isinstance(a, str)],
            answers=[a for a in answers if isinstance(a, str)], passage=passage,
            answer_start=rec.get("answer_char_start") if isinstance(rec.get("answer_char_start"), int) else None,
            id=str(rec.get("id", f"line-{n}")), lang=str(rec.get("lang", "")),
            unanswerable_kind=rec.get("unanswerable_kind"),
        ))
    return items, errors


def sample(items: list[GoldenItem], limit: int | None, seed: int) -> list[GoldenItem]:
    """A seeded sample of `limit` items that keeps the answerable/unanswerable mix (all items when smaller)."""
    if not limit or limit >= len(items):
        return items
    rng = random.Random(seed)
    ans = [i for i in items if i.answerable]
    una = [i for i in items if not i.answerable]
    n_una = round(limit * len(una) / len(items))
    return sorted(rng.sample(ans, limit - n_una) + rng.sample(una, n_una), key=lambda i: i.line)
