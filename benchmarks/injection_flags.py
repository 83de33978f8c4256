"""How well the hostile-note flag catches disguised orders, and how often it flags ordinary notes.

Recall: every order of tests/injection_variants.py (English, Portuguese, Spanish, German) under every disguise
(a line break inside the phrase, zero-width spaces, Cyrillic look-alike letters, full-width letters, bold or quoted
role markers…), each inside an ordinary note. False flags: every note of the demo vault, the Obsidian help vault and
the faquad-pt and xquad-en vaults of ../shared/eval (none of them gives orders).

    .venv/bin/python benchmarks/injection_flags.py
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import EVAL
from tests.injection_variants import clean_vaults, variants
from vaultrag.core.index.hostile import flags


def main() -> None:
    by_disguise: dict[str, list[bool]] = defaultdict(list)
    by_flag: dict[str, list[bool]] = defaultdict(list)
    missed = []
    for flag, order, disguise, text in variants():
        caught = str(flag) in flags(text)
        by_disguise[disguise].append(caught)
        by_flag[str(flag)].append(caught)
        if not caught:
            missed.append((disguise, order))
    total = [c for cs in by_disguise.values() for c in cs]
    print(f"recall: {sum(total)}/{len(total)} = {sum(total) / len(total):.3f}")
    for name, cs in by_disguise.items():
        print(f"  {name:22s} {sum(cs):3d}/{len(cs)}")
    for name, cs in by_flag.items():
        print(f"  {name:22s} {sum(cs):3d}/{len(cs)}")
    for disguise, order in missed[:40]:
        print(f"  missed [{disguise}] {order!r}")
    print("false flags:")
    for vault, notes in clean_vaults(EVAL).items():
        flagged = [(p, flags(p.read_text(encoding="utf-8", errors="replace"))) for p in notes]
        flagged = [(p, f) for p, f in flagged if f]
        print(f"  {vault}: {len(flagged)} of {len(notes)} notes")
        for p, f in flagged:
            print(f"    {p.name}: {', '.join(f)}")


if __name__ == "__main__":
    main()
