"""How often the extractive answer's marked sentence holds the answer, on the dev sets' gold passages.

Run: python benchmarks/extractive_sentence.py
For every answerable question with a gold passage and an answer offset (faquad-pt, xquad-en, and xquad-xl's Spanish
and German questions on the English notes), the answer stage's `best_sentence` is asked for the gold passage
alone; a hit is a sentence that holds the answer's first character. Retrieval plays no part: this measures the
sentence choice only. Reads ../shared/eval/data; copies nothing into the repository.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL


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


if __name__ == "__main__":
    main()
