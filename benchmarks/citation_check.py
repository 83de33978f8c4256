"""How well the citation check's support test separates supported from unsupported cited sentences.

A labelled set is built from the dev data in ../shared/eval (faquad-pt, xquad-en; nothing is copied into the
repo). For each sampled answerable question, two claims are written as a model would write them:
  copied      — the gold passage's sentence that holds the answer;
  paraphrase  — the question's words with the answer ("Onde é sediada a UFMS: Campo Grande.").
Each claim is labelled SUPPORTED when cited to its gold passage, and UNSUPPORTED when cited to
  other-note  — a paragraph of another note;
  same-note   — another paragraph of the same note without the answer (the model cites the wrong document);
  wrong-fact  — (paraphrase only) its gold passage, but with another question's answer (a hallucinated fact).
Prints precision/recall of "supported" (and the share of each unsupported kind caught) per threshold.
Then the attachment of a forgotten citation: each claim with its [n] removed, among the documents it was labelled
against (gold + other-note + same-note, in a seeded random order; a wrong fact among its paraphrase's documents);
precision = attached to the gold passage / attached at all (an attached wrong fact is always wrong).
With --embedder it also measures whether the embedder's cosine (the sentence as a question, the cited document
as a passage) adds to the lexical test: thresholds picked on one set, judged on the other (both ways).

    .venv/bin/python benchmarks/citation_check.py [--per-set 150] [--embedder]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import EVAL
from vaultrag.core.query import citations

SENT = re.compile(r"[^.!?\n]+[.!?]*")


def paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each paragraph after the frontmatter and the title."""
    body_at = text.find("\n# ")
    body_at = text.find("\n", body_at + 1) if body_at >= 0 else 0
    out = []
    for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", text[body_at:]):
        out.append((body_at + m.start(), body_at + m.end()))
    return out


def labelled(set_name: str, n: int, rng: random.Random) -> list[tuple[str, str, str, bool]]:
    """(kind, claim with its [1], the cited document's text, supported?) rows."""
    root = EVAL / set_name
    golden = [json.loads(line) for line in (root / "golden.jsonl").read_text(encoding="utf-8").splitlines()]
    golden = [g for g in golden if g["answerable"]]
    rng.shuffle(golden)
    notes = {p.name: p.read_text(encoding="utf-8") for p in (root / "vault").glob("*.md")}
    answers = [g["answer_text"] for g in golden]
    rows = []
    for g in golden[:n]:
        text = notes[g["gold_note"]]
        gold = text[g["passage_char_start"]:g["passage_char_end"]]
        at = g["answer_char_start"] - g["passage_char_start"]
        sentence = next((m.group(0).strip() for m in SENT.finditer(gold) if m.start() <= at < m.end()), "")
        if not sentence:
            continue
        claims = {"copied": sentence.rstrip(".") + " [1].",
                  "paraphrase": f"{g['question'].rstrip(' ?')}: {g['answer_text']} [1]."}
        same = [text[s:e] for s, e in paragraphs(text)
                if g["answer_text"].lower() not in text[s:e].lower() and e - s > 200]
        other_note = rng.choice([k for k in notes if k != g["gold_note"] and k not in g.get("alt_gold_notes", [])])
        other = [text2 for s, e in paragraphs(notes[other_note]) if e - s > 200
                 for text2 in [notes[other_note][s:e]]]
        for kind, claim in claims.items():
            rows.append((f"{kind}/gold", claim, gold, True))
            if other:
                rows.append((f"{kind}/other-note", claim, rng.choice(other), False))
            if same:
                rows.append((f"{kind}/same-note", claim, rng.choice(same), False))
        wrong = rng.choice([a for a in answers if a.lower() != g["answer_text"].lower()
                            and a.lower() not in gold.lower()])
        rows.append(("paraphrase/wrong-fact", f"{g['question'].rstrip(' ?')}: {wrong} [1].", gold, False))
    return rows


def prf(pred: list[bool], gold: list[bool]) -> tuple[float, float, float]:
    """Precision, recall and F1 of "supported"."""
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    p, r = tp / max(sum(pred), 1), tp / max(sum(gold), 1)
    return p, r, 2 * p * r / max(p + r, 1e-9)


def with_embedder(scored: list[tuple[str, str, float, bool]], rows: list[tuple[str, str, str, str, bool]]) -> None:
    """Does the embedder's cosine improve the lexical test? Cross-set: tuned on one set, judged on the other."""
    import numpy as np

    from vaultrag.core import embed
    from vaultrag.settings import Settings

    model = embed.from_settings(Settings())
    docs = sorted({doc for _, _, _, doc, _ in rows})
    vecs = dict(zip(docs, model.embed_passages(docs), strict=True))
    cos = [float(np.dot(model.embed_query(citations.CITATION.sub(" ", claim)), vecs[doc]))
           for _, _, claim, doc, _ in rows]
    grid_lex = [round(0.3 + 0.05 * i, 2) for i in range(12)]
    grid_cos = [round(0.70 + 0.01 * i, 2) for i in range(21)]
    rules = {
        "lexical": lambda lx, c, t: lx >= t[0],
        "cosine": lambda lx, c, t: c >= t[1],
        "lexical AND cosine": lambda lx, c, t: lx >= t[0] and c >= t[1],
        "lexical OR cosine": lambda lx, c, t: lx >= t[0] or c >= t[1],
    }
    params = [(a, b) for a in grid_lex for b in grid_cos]
    print(f"\nwith the embedder ({describe(model)}): thresholds picked for F1 on one set, judged on the other")
    print("| rule | tuned on | judged on | thresholds (lexical, cosine) | precision | recall | F1 |")
    print("|---|---|---|---|---|---|---|")
    for name, rule in rules.items():
        for tune, test in (("faquad-pt", "xquad-en"), ("xquad-en", "faquad-pt")):
            def on(s: str, t: tuple[float, float], rule: object = rule) -> tuple[float, float, float]:
                idx = [i for i, r in enumerate(scored) if r[0] == s]
                return prf([rule(scored[i][2], cos[i], t) for i in idx], [scored[i][3] for i in idx])  # type: ignore[operator]
            best = max(params, key=lambda t: on(tune, t)[2])
            p, r, f = on(test, best)
            shown = f"{best[0]:.2f}, —" if name == "lexical" else f"—, {best[1]:.2f}" if name == "cosine" \
                else f"{best[0]:.2f}, {best[1]:.2f}"
            print(f"| {name} | {tune} | {test} | {shown} | {p:.3f} | {r:.3f} | {f:.3f} |")
    t = citations.SUPPORT_THRESHOLD
    gold = [ok for *_, ok in scored]
    print(f"\nthe shipped lexical threshold {t} alone, and rescued by a high cosine (both sets)")
    print("| rule | precision | recall | F1 | unsupported caught | wrong facts caught |")
    print("|---|---|---|---|---|---|")
    wrong = [i for i, r in enumerate(scored) if r[1] == "paraphrase/wrong-fact"]
    for c in (None, 0.88, 0.89, 0.90, 0.91, 0.92):
        pred = [sc >= t or (c is not None and cos[i] >= c) for i, (_, _, sc, _) in enumerate(scored)]
        p, r, f = prf(pred, gold)
        neg = [i for i, g in enumerate(gold) if not g]
        caught = sum(not pred[i] for i in neg) / len(neg)
        name = "lexical" if c is None else f"lexical OR cosine ≥ {c:.2f}"
        print(f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} | {caught:.3f} | "
              f"{sum(not pred[i] for i in wrong) / len(wrong):.3f} |")


def attach_cases(rows: list[tuple[str, str, str, str, bool]],
                 rng: random.Random) -> list[tuple[str, str, str, list[tuple[str, bool]]]]:
    """(set, kind, claim without [n], its documents as (text, backs it?) in a random order) from the labelled
    rows: a claim's rows are consecutive; a wrong fact is set among its paraphrase's documents, none backing it."""
    cases: list[tuple[str, str, str, list[tuple[str, bool]]]] = []
    last_paraphrase: list[tuple[str, bool]] = []
    for s, kind, claim, doc, ok in rows:
        bare = citations.CITATION.sub("", claim).replace(" .", ".").strip()
        if kind == "paraphrase/wrong-fact":
            docs = [(text, False) for text, _ in last_paraphrase]
            rng.shuffle(docs)
            cases.append((s, kind, bare, docs))
            continue
        base = kind.split("/")[0]
        if cases and cases[-1][2] == bare and cases[-1][0] == s:
            cases[-1][3].append((doc, ok))
        else:
            cases.append((s, base, bare, [(doc, ok)]))
        if base == "paraphrase":
            last_paraphrase = cases[-1][3]
    for _, kind, _, docs in cases:
        if kind != "paraphrase/wrong-fact":
            rng.shuffle(docs)
    return cases


def attached_precision(rows: list[tuple[str, str, str, str, bool]], seed: int) -> None:
    """How often the document attached to a claim the model left uncited is one that backs it."""
    from vaultrag.core.model import ContextDoc

    cases = attach_cases(rows, random.Random(seed))

    def ctx(docs: list[tuple[str, bool]]) -> list[ContextDoc]:
        return [ContextDoc(note=f"n{i}.md", heading_path=[], char_start=0, char_end=len(t), line_start=0,
                           line_end=1, index=i, chunk_ids=[i], source=f"n{i}.md", text=t, tokens=0)
                for i, (t, _) in enumerate(docs, 1)]

    print(f"\nattaching a forgotten citation: {len(cases)} claims without [n], each among its labelled documents "
          f"({sum(len(d) for *_, d in cases) / len(cases):.1f} per claim)")
    print("| threshold | attached | right document | precision | claims with a backing document that got it | "
          "wrong facts given a document |")
    print("|---|---|---|---|---|---|")
    for t in (0.5, 0.6, 0.7, 0.8):
        attached = right = wrong_facts = backed = 0
        for _, kind, claim, docs in cases:
            found, _ = citations.attach(claim, ctx(docs), t)
            backed += any(ok for _, ok in docs)
            if found is None:
                continue
            attached += 1
            good = docs[found - 1][1]
            right += good
            wrong_facts += kind == "paraphrase/wrong-fact"
        n_wrong = sum(kind == "paraphrase/wrong-fact" for _, kind, *_ in cases)
        mark = " (shipped)" if t == citations.ATTACH_THRESHOLD else ""
        print(f"| {t:.1f}{mark} | {attached} | {right} | {right / max(attached, 1):.3f} | "
              f"{right / max(backed, 1):.3f} | {wrong_facts / max(n_wrong, 1):.3f} |")
    t = citations.ATTACH_THRESHOLD
    print(f"\nat the shipped attach threshold {t}, per set and kind")
    print("| set | kind | claims | attached | precision |")
    print("|---|---|---|---|---|")
    for s in ("faquad-pt", "xquad-en"):
        for kind in ("copied", "paraphrase", "paraphrase/wrong-fact"):
            group = [docs for ss, k, _, docs in cases if ss == s and k == kind]
            got = [(found, docs) for docs, claim in zip(group, [c for ss, k, c, _ in cases if ss == s and k == kind],
                                                        strict=True)
                   for found, _ in [citations.attach(claim, ctx(docs), t)] if found is not None]
            right = sum(docs[found - 1][1] for found, docs in got)
            print(f"| {s} | {kind} | {len(group)} | {len(got)} | {right / max(len(got), 1):.3f} |")


def describe(model: object) -> str:
    return str(getattr(model, "model_id", type(model).__name__))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-set", type=int, default=150)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--embedder", action="store_true", help="also measure the embedder's cosine (loads e5)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = [(s, *r) for s in ("faquad-pt", "xquad-en") for r in labelled(s, args.per_set, rng)]
    scored = [(s, kind, citations.support(claim, doc), ok) for s, kind, claim, doc, ok in rows]
    pos = sum(ok for *_, ok in scored)
    print(f"labelled set: {len(scored)} cited sentences ({pos} supported, {len(scored) - pos} unsupported), "
          f"seed {args.seed}, {args.per_set} questions per set")
    print("\n| threshold | precision (supported) | recall (supported) | unsupported caught | F1 |")
    print("|---|---|---|---|---|")
    for t in (0.4, 0.5, 0.6, 0.7, 0.8):
        tp = sum(sc >= t and ok for *_, sc, ok in scored)
        fp = sum(sc >= t and not ok for *_, sc, ok in scored)
        fn = pos - tp
        tn = len(scored) - pos - fp
        p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        mark = " (shipped)" if t == citations.SUPPORT_THRESHOLD else ""
        f1 = 2 * p * r / max(p + r, 1e-9)
        print(f"| {t:.1f}{mark} | {p:.3f} | {r:.3f} | {tn / max(tn + fp, 1):.3f} | {f1:.3f} |")
    t = citations.SUPPORT_THRESHOLD
    print(f"\nat the shipped threshold {t}: share judged supported, per set and kind")
    print("| set | kind | n | judged supported | label |")
    print("|---|---|---|---|---|")
    for s in ("faquad-pt", "xquad-en"):
        for kind in sorted({k for _, k, *_ in scored}):
            group = [(sc, ok) for ss, k, sc, ok in scored if ss == s and k == kind]
            if group:
                share = sum(sc >= t for sc, _ in group) / len(group)
                label = "supported" if group[0][1] else "unsupported"
                print(f"| {s} | {kind} | {len(group)} | {share:.3f} | {label} |")
    attached_precision(rows, args.seed)
    if args.embedder:
        with_embedder(scored, rows)


if __name__ == "__main__":
    main()
