"""Which chunks get the boilerplate and hub marks: the Obsidian help vault (both languages) and the dev sets.

Run: python benchmarks/chunk_marks.py [--show 40] [--sets obsidian-help/en obsidian-help/pt-br faquad-pt xquad-en]
  - indexes each vault's text (no embedder: the marks are made in the text phase) into a temporary index;
  - prints how many chunks carry each mark (> 0, ≥ 0.5), the marked chunks with their text, for reading, and the
    time the vault-wide recount took after a one-note edit.
Reads ../shared/eval/data; copies nothing into the repository.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL


def main() -> None:
    from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
    from vaultrag.core.store.index_store import IndexStore

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=["obsidian-help/en", "obsidian-help/pt-br", "faquad-pt/vault",
                                                  "xquad-en/vault"])
    ap.add_argument("--show", type=int, default=40, help="marked chunks printed per vault")
    args = ap.parse_args()
    print("| vault | chunks | boilerplate > 0 | boilerplate ≥ 0.5 | hub > 0 | hub ≥ 0.5 | text phase s |")
    print("|---|---|---|---|---|---|---|")
    shown: list[str] = []
    for name in args.sets:
        with tempfile.TemporaryDirectory() as tmp:
            store = IndexStore.open(Path(tmp) / "index.sqlite")
            t = time.perf_counter()
            run_to_end(Indexer(EVAL / name, store, IndexOptions(workers=1), None).run())
            seconds = time.perf_counter() - t
            rows = store.db.execute("select c.boilerplate, c.hub, n.path, c.heading_path, c.lead || c.body "
                                    "from chunks c join notes n on n.id = c.note_id order by n.path, c.ordinal"
                                    ).fetchall()
            n = len(rows)
            b0, b5 = sum(r[0] > 0 for r in rows), sum(r[0] >= 0.5 for r in rows)
            h0, h5 = sum(r[1] > 0 for r in rows), sum(r[1] >= 0.5 for r in rows)
            print(f"| {name} | {n} | {b0} | {b5} | {h0} | {h5} | {seconds:.1f} |")
            marked = sorted((r for r in rows if r[0] >= 0.2 or r[1] >= 0.5), key=lambda r: -(r[0] + r[1]))
            shown.append(f"\n### {name}: {len(marked)} chunks with boilerplate ≥ 0.2 or hub ≥ 0.5\n")
            for b, h, path, heading, text in marked[: args.show]:
                snippet = " ⏎ ".join(line for line in text.splitlines() if line.strip())[:160]
                shown.append(f"- b={b:.2f} h={h:.2f} {path} {heading}: {snippet}")
            store.close()
    print("\n".join(shown))


if __name__ == "__main__":
    main()
