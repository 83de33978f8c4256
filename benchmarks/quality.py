"""Retrieval and refusal quality on the dev sets; writes docs/quality.md (the shipped threshold comes from here: it
goes on the reranker's line in vaultrag/engines.py, `thresholds`).

Run: python benchmarks/quality.py [--limit N]   (about 10 minutes on 2 cores: it indexes both vaults with e5;
with --work pointing at existing indexes it only asks the questions)
Sets: faquad-pt, xquad-en, and xquad-xl's Spanish and German questions asked of the xquad-en vault (split by
language into --work). Reads ../shared/eval/data; copies nothing into the repository.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, kept_sections

SETS = ("faquad-pt", "xquad-en")  # the monolingual sets: the shipped threshold is picked on their tune halves
CROSS = {"xquad-xl (es)": "es", "xquad-xl (de)": "de"}  # xquad-xl's questions per language, on xquad-en's vault
# real notes (the other genre): the Obsidian help vault with the questions written for it by reading its notes
NOTES = {"help-en": ("obsidian-help/en", ROOT / "eval" / "obsidian-help-en.jsonl"),
         "help-pt": ("obsidian-help/pt-br", ROOT / "eval" / "obsidian-help-pt.jsonl")}
ALL = (*SETS, *CROSS, *NOTES)
GENRE = {**dict.fromkeys((*SETS, *CROSS), "QA"), **dict.fromkeys(NOTES, "notes")}
MAX_PASS = 0.10


def golden_of(name: str, work: Path) -> tuple[str, Path]:
    """(vault set, golden file) of an evaluated set; xquad-xl is split by question language into `work`."""
    if name in NOTES:
        return NOTES[name]
    if name not in CROSS:
        return name, EVAL / name / "golden.jsonl"
    out = work / f"xquad-xl-{CROSS[name]}.jsonl"
    lines = (EVAL / "xquad-xl" / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(x + "\n" for x in lines if json.loads(x).get("lang") == CROSS[name]), encoding="utf-8")
    return "xquad-en", out


def golden_items(path: Path) -> list:
    from vaultrag.core.quality import golden

    return golden.load(path)[0]


def vault_path(vault_set: str) -> Path:
    return EVAL / vault_set if "/" in vault_set else EVAL / vault_set / "vault"


def home_of(work: Path, vault_set: str) -> Path:
    return work / vault_set.replace("/", "-")


def note_level(work: Path, limit: int = 0) -> list[str]:
    """Note-level hit@1 and hit@5 per stage on every set, by genre: the note of the first candidate is a gold
    note (or an alternative gold note), whichever chunk of it was found."""
    from vaultrag.core import embed, rerank
    from vaultrag.core.quality import golden, metrics
    from vaultrag.core.quality.evaluate import stage_lists
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    lines = ["## Note level, by genre (the first candidate's note is a gold note)", "",
             "| set | genre | answerable | bm25 | vector | fused | reranked | best single list | final − best single | "
             "final hit@5 |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name in ALL:
        vault_set, gold = golden_of(name, work)
        ws = Workspace.load(vault_path(vault_set), home_of(work, vault_set))
        store, _ = ws.open_store(readonly=True)
        items = [i for i in golden.load(gold)[0] if i.answerable][: limit or None]
        searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings), rerank.from_settings(ws.settings))
        ranks: dict[str, list[int | None]] = {}
        for item in items:
            lists = stage_lists(searcher.ask(item.question, threshold=float("-inf")))
            for stage, ranked in lists.items():
                ranks.setdefault(stage, []).append(metrics.first_hit([n in item.notes for n, *_ in ranked]))
        store.close()
        at1 = {st: metrics.hit_at(r, 1) for st, r in ranks.items()}
        best = max(at1.get("bm25", 0.0), at1.get("vector", 0.0))
        final = at1.get("reranked", at1.get("fused", 0.0))
        lines.append(f"| {name} | {GENRE[name]} | {len(items)} | {at1.get('bm25', 0):.3f} | {at1.get('vector', 0):.3f} "
                     f"| {at1.get('fused', 0):.3f} | {final:.3f} | {best:.3f} | {final - best:+.3f} | "
                     f"{metrics.hit_at(ranks.get('reranked', ranks.get('fused', [])), 5):.3f} |")
    return [*lines, ""]


def vaultrag(home: Path, *args: str) -> str:
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                       text=True)
    if r.returncode not in (0, 1):
        raise SystemExit(r.stderr)
    return r.stdout


def refusal_by_kind() -> list[str]:
    """The refusal tables per kind of question (benchmarks/decoys.py builds them; its cache is reused): today's
    cosine rule, then the answerability model left out of each set in turn, then the shipped one."""
    from benchmarks import decoys
    from benchmarks import train_answerability as ta

    kinds, data = decoys.collect_all()
    names = list(decoys.SETS)
    lines = ["## Refusal per kind of question", "",
             "Four kinds, built at run time by `benchmarks/decoys.py` from the dev sets: *answerable*; *held-out* "
             "(about an article left out of the vault); *same-note* (a copy of the vault with the gold passages of "
             f"{decoys.REMOVED_SHARE:.0%} of the passages removed: the note and its topic stay, the answer goes; "
             "questions whose answer still appears anywhere are dropped); *edited* (an answerable question with its "
             "key number, year or name swapped for another of the same kind from the same note, or negated; on a "
             "reading of 50, 3–5 could still be answered from the note).", "",
             "| set | " + " | ".join(decoys.KINDS) + " |", "|---|" + "---|" * len(decoys.KINDS)]
    lines += [f"| {n} | " + " | ".join(str(kinds[n, k].n) for k in decoys.KINDS) + " |" for n in names]
    rule = {n: {k: data[n, k]["conf"] for k in decoys.KINDS} for n in names}
    lines += ["", f"Today's cosine rule before issue 26 (top-1 cosine − 0.75 × background ≥ {decoys.SHIPPED_COSINE}):",
              "", ta.HEADER, *ta.table_rows(data, rule, dict.fromkeys(names, decoys.SHIPPED_COSINE), names)]
    loso, loso_t = {}, {}
    for n in names:
        rest = [x for x in names if x != n]
        m = ta.train(data, rest)
        loso_t[n] = ta.threshold_for(m, data, rest)
        cross = ta.train_cross(data, rest, loso_t[n])
        loso[n] = {k: ta.scores(m, data[n, k], cross) for k in decoys.KINDS}
    lines += ["", "The answerability model, leave-one-set-out (trained and thresholded without the row's set; goals: "
              "≥ 0.95 of correct top-1 answered, held-out ≤ 0.08, same-note ≤ 0.20, edited ≤ 0.40, ✗ a miss; a "
              "candidate in another language than the question meets the cross-language model, trained here "
              "without xquad-xl for its row):", "",
              ta.HEADER, *ta.table_rows(data, loso, loso_t, names)]
    from vaultrag.core.query.answerability import shipped as shipped_model

    model = shipped_model()
    if model is not None:
        full = {n: {k: ta.shipped_scores(model, data[n, k]) for k in decoys.KINDS} for n in names}
        lines += ["", f"The shipped model ({model.model_id}, trained on all three sets: in-sample) at its threshold "
                  f"{model.threshold}:", "", ta.HEADER,
                  *ta.table_rows(data, full, dict.fromkeys(names, model.threshold), names)]
    return [*lines, "", "Features, weights and why each sign: docs/answerability.md."]


def main() -> None:
    from vaultrag.core.quality import calibration, metrics
    from vaultrag.core.quality.evaluate import EvalResult, QuestionResult, split
    from vaultrag.core.quality.report import stage_table

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--work", default=str(ROOT / "benchmarks" / "out" / "quality"))
    ap.add_argument("--doc", default=str(ROOT / "docs" / "quality.md"))
    args = ap.parse_args()
    work = Path(args.work)
    results: dict[str, list[QuestionResult]] = {}
    evals: dict[str, dict] = {}
    evals_typed: dict[str, EvalResult] = {}
    for name in ALL:
        vault_set, gold = golden_of(name, work)
        home = home_of(work, vault_set)
        vault = vault_path(vault_set)
        vaultrag(home, "index", str(vault))
        extra = ["--limit", str(args.limit)] if args.limit else []
        out = vaultrag(home, "eval", str(vault), "--golden", str(gold), "--json",
                       "--out", str(work / f"{name.replace(' ', '-')}-report"), *extra)
        ev = json.loads(out)
        evals[name] = ev
        evals_typed[name] = EvalResult(**{**ev, "results": []})
        results[name] = [QuestionResult(**r) for r in ev["results"]]
        print(f"[{name}] {ev['n_answerable']} + {ev['n_unanswerable']} questions, {ev['questions_per_s']:.1f} q/s")

    reranker = evals[SETS[0]]["settings"].get("reranker", "none")
    lines = ["# Quality on the dev sets", "",
             f"Generated by `python benchmarks/quality.py` (default settings: e5 + BM25, RRF k=60 with BM25 hits in "
             f"notes of another language than the question weighted 0, reranker `{reranker}`, k=5, 1,500-token "
             "budget). Passage level: a chunk hits when it overlaps the gold passage or holds an accepted answer. "
             "Two genres: QA sets — `../shared/eval/data/{faquad-pt,xquad-en}` and xquad-xl (the xquad-en questions "
             "in Spanish and German, asked of the English xquad-en vault), questions written while looking at one "
             "paragraph — and real notes: the Obsidian help vault (`../shared/eval/data/obsidian-help/{en,pt-br}`) "
             "with the questions of `eval/obsidian-help-{en,pt}.jsonl`, written by reading the notes (how-to, "
             "what-is, keyword queries, some in the other language; on-topic and off-topic unanswerable ones). The "
             "built-in ranker was trained on all of them: its in-sample rows below are optimistic; "
             "`benchmarks/train_ranker.py` prints the leave-one-vault-out and leave-one-genre-out tables that decide "
             "(see docs/ranker.md).", ""]
    lines += note_level(work, args.limit)
    for name in ALL:
        ev = evals[name]
        lines += [f"## {name} ({GENRE[name]}): retrieval per stage ({ev['n_answerable']} answerable)", "",
                  *stage_table(evals_typed[name])]
        lines += ["", "| sign test (hit@1) | wins | losses | p |", "|---|---|---|---|"]
        for cmp_, s in ev["sign_tests"].items():
            lines.append(f"| {cmp_} | {s['wins']} | {s['losses']} | {s['p']:.3g} |")
        # the why-not verdict codes (core/vocab.py Verdict) of the stage that lost the gold, most frequent first
        lost = ", ".join(f"{code} {n}" for code, n in sorted(ev["failures"].items(), key=lambda cn: -cn[1]))
        lines += ["", f"Failures by stage: {lost or 'none'}. Speed: {ev['questions_per_s']:.1f} "
                  "questions/s after indexing.", ""]

    # confidence measures: AUROC per set, and how a threshold tuned on one set transfers
    signals = sorted({k for rs in results.values() for r in rs for k in r.signals})
    lines += ["## Refusal: which confidence separates answerable from unanswerable", "",
              "| confidence | " + " | ".join(f"AUROC {n}" for n in ALL) + " |", "|---|" + "---|" * len(ALL)]
    for sig in signals:
        cells = []
        for name in ALL:
            pos = [r.signals[sig] for r in results[name] if r.answerable and sig in r.signals]
            neg = [r.signals[sig] for r in results[name] if not r.answerable and sig in r.signals]
            cells.append(f"{metrics.auroc(pos, neg):.3f}")
        lines.append(f"| {sig} | " + " | ".join(cells) + " |")

    lines += ["", "A threshold must transfer to vaults it was not tuned on. Tuned to pass 10% of one set's "
              "unanswerable questions, here is what it does on the other set:", "",
              "| confidence | faquad → xquad: unanswerable passed | answerable kept | xquad → faquad: "
              "unanswerable passed | answerable kept |", "|---|---|---|---|---|"]
    for sig in signals:
        cells = []
        for a_name, b_name in (SETS, SETS[::-1]):
            t = metrics.pick_threshold([r.signals[sig] for r in results[a_name]
                                        if not r.answerable and sig in r.signals], MAX_PASS)
            pos = [r.signals[sig] for r in results[b_name] if r.answerable and sig in r.signals]
            neg = [r.signals[sig] for r in results[b_name] if not r.answerable and sig in r.signals]
            cells += [f"{sum(x >= t for x in neg) / len(neg):.3f}", f"{sum(x >= t for x in pos) / len(pos):.3f}"]
        lines.append(f"| {sig} | " + " | ".join(cells) + " |")
    lines += ["", "`answerability` is the answerability model's probability (the app's confidence since issue 26: "
              "`vaultrag/core/query/answerability.py`, trained by `benchmarks/train_answerability.py`); "
              "`cos_top1 - 0.75 background` is the cosine rule it replaced, still the fallback when the model cannot "
              "run (no vectors yet, another reranker).", ""]
    lines += refusal_by_kind()
    lines += ["", f"## Calibration (tune half picks the threshold on the probability passing ≤ {MAX_PASS:.0%} of "
              "held-out-article questions; validate half reported)", "",
              "| set | threshold | validate: kept, correct top-1 | top-1 without threshold | kept, wrong top-1 | "
              "unanswerable passed |", "|---|---|---|---|---|---|"]
    for name in SETS:
        cal = calibration.pick(results[name], MAX_PASS)
        assert cal.threshold is not None and cal.validate is not None, f"{name} has no unanswerable questions"
        v = cal.validate
        lines.append(f"| {name} | {cal.threshold:.4f} | {v.answerable_kept_correct:.3f} | "
                     f"{v.top1_without_threshold:.3f} | {v.answerable_kept_wrong:.3f} | "
                     f"{v.unanswerable_passed:.3f} |")
    # the shipped threshold is the model's own (benchmarks/train_answerability.py picks it on all four kinds);
    # each set's validate half, as `vaultrag eval` records it per question (`answered`), is the honest number
    from vaultrag.core.query.answerability import shipped as shipped_model

    model = shipped_model()
    shipped = model.threshold if model is not None else float("nan")
    halves = {name: split(results[name]) for name in SETS}
    lines += ["", f"At the shipped threshold **{shipped:.4f}** (the answerability model's, from its data file), as "
              "`vaultrag eval --json` records each question's decision (`answered`):", "",
              "| validate half | kept, correct top-1 | top-1 without threshold | kept, wrong top-1 | "
              "held-out passed |", "|---|---|---|---|---|"]
    pooled_a: list[tuple[float, bool]] = []
    pooled_u: list[float] = []
    for name in [*ALL, "pooled"]:
        if name == "pooled":
            a, u = pooled_a, pooled_u
        else:
            validate = halves[name][1] if name in halves else split(results[name])[1]
            a = [(1.0 if r.answered else 0.0, r.top1_correct) for r in validate if r.answerable]
            u = [1.0 if r.answered else 0.0 for r in validate if not r.answerable]
            if name in SETS:
                pooled_a += a
                pooled_u += u
        row = metrics.threshold_row(0.5, a, u)
        top1 = sum(1 for _, ok in a if ok) / (len(a) or 1)
        lines.append(f"| {name} | {row.answerable_kept_correct:.3f} | {top1:.3f} | "
                     f"{row.answerable_kept_wrong:.3f} | {row.unanswerable_passed:.3f} |")
    lines += ["", "Real notes at the shipped threshold, every question (the goal of issue 35: on-topic unanswerable "
              "passed ≤ 40 % while ≥ 90 % of the correct top-1 are answered):", "",
              "| set | correct top-1 answered | on-topic unanswerable passed | off-topic passed |", "|---|---|---|---|"]
    for name in NOTES:
        kinds = {i.line: i.unanswerable_kind for i in golden_items(NOTES[name][1])}
        right = [r.answered for r in results[name] if r.answerable and r.top1_correct]
        on = [r.answered for r in results[name] if not r.answerable and kinds.get(r.line) == "on_topic"]
        off = [r.answered for r in results[name] if not r.answerable and kinds.get(r.line) == "off_topic"]
        share = lambda xs: f"{sum(map(bool, xs)) / max(len(xs), 1):.3f} ({len(xs)})"  # noqa: E731
        lines.append(f"| {name} | {share(right)} | {share(on)} | {share(off)} |")
    lines += ["", "Per-vault calibration (`vaultrag calibrate VAULT --golden FILE`) replaces this default with "
              "a threshold stored in the vault's index for its (embedder, reranker, decider)."]
    Path(args.doc).parent.mkdir(parents=True, exist_ok=True)
    kept = kept_sections(Path(args.doc))  # other benchmarks' tables (bench_translate.py's) stay
    Path(args.doc).write_text("\n".join(lines) + "\n" + (f"\n{kept}\n" if kept else ""), encoding="utf-8")
    print("\n".join(lines))
    print(f"\nshipped threshold: {shipped:.4f}")


if __name__ == "__main__":
    main()
