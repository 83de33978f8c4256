"""How often the extractive answer's marked sentence holds the answer, on the dev sets' gold passages.

Run: python benchmarks/extractive_sentence.py
For every answerable question with a gold passage and an answer offset (faquad-pt, xquad-en, and xquad-xl's Spanish
and German questions on the English notes), the answer stage's `best_sentence` is asked for the gold passage
alone; a hit is a sentence that holds the answer's first character. The real-vault sets (eval/obsidian-help-*.jsonl,
on ../shared's Obsidian help vault) have no passage offsets: their passage is the section (heading to heading) of
the gold note that holds the first accepted answer, and a hit is a sentence holding an accepted answer's start.
Retrieval plays no part: this measures the sentence choice only. Reads ../shared/eval/data; copies nothing into the
repository.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT

HEADING = re.compile(r"^#{1,6} ", re.M)
HELP = {"help-en": "en", "help-pt": "pt-br"}


def help_rows(name: str) -> tuple[int, int]:
    """(questions, hits) on a real-vault set: the gold note's section holding the first answer is the passage."""
    from vaultrag.core.query.stages.answer import best_sentence

    vault = EVAL / "obsidian-help" / HELP[name]
    n = hit = 0
    for line in (ROOT / "eval" / f"obsidian-help-{name[5:]}.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if not r.get("answerable") or not r.get("answers"):
            continue
        text = (vault / r["gold_note"]).read_text(encoding="utf-8")
        first = next((text.find(a) for a in r["answers"] if a in text), -1)
        if first < 0:
            continue
        cuts = [0, *(m.start() for m in HEADING.finditer(text)), len(text)]
        start = max(c for c in cuts if c <= first)
        end = min(c for c in cuts if c > first)
        passage = text[start:end]
        sentence, at = best_sentence(r["question"], passage)
        spans = [(m.start(), m.start() + len(a)) for a in r["answers"] for m in re.finditer(re.escape(a), passage)]
        n += 1
        hit += any(at <= a < at + len(sentence) or a <= at < b for a, b in spans)
    return n, hit


def main() -> None:
    from vaultrag.core.query.stages.answer import best_sentence

    print("| set | questions | sentence holds the answer |\n|---|---|---|")
    for name in ("faquad-pt", "xquad-en", "xquad-xl"):
        vault = EVAL / ("xquad-en" if name == "xquad-xl" else name) / "vault"
        n = hit = 0
        for line in (EVAL / name / "golden.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            start, end, answer = r.get("passage_char_start"), r.get("passage_char_end"), r.get("answer_char_start")
            if not r.get("gold_note") or not isinstance(start, int) or not isinstance(answer, int):
                continue
            passage = (vault / r["gold_note"]).read_text(encoding="utf-8")[start:end]
            sentence, at = best_sentence(r["question"], passage)
            n += 1
            hit += start + at <= answer < start + at + len(sentence)
        print(f"| {name} | {n} | {hit / max(n, 1):.3f} |")
    for name in HELP:
        n, hit = help_rows(name)
        print(f"| {name} (real notes) | {n} | {hit / max(n, 1):.3f} |")


if __name__ == "__main__":
    main()
