"""The refusal dev data: answerable questions and three kinds that must be refused, built at run time from the
shared dev sets, and today's cosine rule measured on each kind.

Run: python benchmarks/decoys.py [--sample 50] [--work DIR]
Kinds, for faquad-pt, xquad-en and xquad-xl (Spanish and German questions on the English xquad-en vault):
  - answerable: the golden answerable questions, on the vault as shipped;
  - held-out: the golden unanswerable questions (about an article left out of the vault);
  - same-note: a copy of the vault with the gold passages of a seeded sample of questions removed (the note and
    its topic stay, the answer goes); the questions whose answer no longer appears anywhere in the copy;
  - edited: an answerable question with its key number, year or name swapped for another of the same kind from
    the same note, or negated, so the note still matches and no passage answers (`--sample` prints some to read).
Reads ../shared/eval/data; copies nothing into the repository (the vault copies and indexes go to --work, by
default ~/.cache/vaultrag-bench/decoys). Each question's candidates and answerability features are cached there,
keyed by the query code: a re-run after a change to vaultrag/core/query or the ranker asks the questions again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT

WORK = Path.home() / ".cache" / "vaultrag-bench" / "decoys"
SETS = {"faquad-pt": "faquad-pt", "xquad-en": "xquad-en", "xquad-xl": "xquad-en"}  # set → its vault's set
KINDS = ("answerable", "held-out", "same-note", "edited")
REFUSE_KINDS = KINDS[1:]
SEED = 13
REMOVED_SHARE = 0.25  # of each vault's gold passages, removed in the same-note copy
EDITED_MAX = 400  # edited questions per set (seeded sample of the answerable ones that can be edited)
K = 5  # the candidates that reach the prompt (the default k)
SHIPPED_COSINE = 0.2614  # today's shipped threshold (e5 + builtin-lr1), the baseline's

YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
NAME = re.compile(r"[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+(?:of|the|de|da|do|dos|das|von|van|der|del|y)?\s*[A-ZÀ-ÖØ-Þ][\w'’-]*)*")
WORD = re.compile(r"\w+")
AUX_EN = re.compile(r"\b(is|are|was|were|did|does|do|can|could|has|have|had|will|would|should)\b")
VERB_PT = re.compile(r"\b(é|foi|são|eram|era|pode|podem|deve|devem|tem|têm|teve|possui|precisa|existe)\b")
VERB_ES = re.compile(r"\b(es|fue|son|eran|era|puede|pueden|tiene|tienen|tuvo|hay)\b")


def folded_words(text: str) -> set[str]:
    from vaultrag.core.query.features import stem

    return {stem(w) for w in WORD.findall(text)}


# -- building the kinds -------------------------------------------------------------------------------------------
def golden(name: str) -> list[dict]:
    return [json.loads(x) for x in (EVAL / name / "golden.jsonl").read_text(encoding="utf-8").splitlines() if x]


def vaultrag(home: Path, *args: str) -> None:
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                       text=True, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(r.stderr)


def write_if_changed(path: Path, text: str) -> None:
    """Write `text` unless the file holds it already (an unchanged vault copy needs no re-indexing)."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def decoy_vault(work: Path, vault_set: str) -> tuple[Path, set[tuple[str, int, int]]]:
    """A copy of the vault with a seeded REMOVED_SHARE of its gold passages cut out; the passages cut."""
    src = EVAL / vault_set / "vault"
    passages = sorted({(r["gold_note"], r["passage_char_start"], r["passage_char_end"]) for r in golden(vault_set)
                       if r["answerable"] and r.get("passage_char_start") is not None})
    removed = set(random.Random(SEED).sample(passages, round(REMOVED_SHARE * len(passages))))
    out = work / f"{vault_set}-same-note-vault"
    for p in sorted(src.rglob("*.md")):
        rel = p.relative_to(src).as_posix()
        text = p.read_text(encoding="utf-8")
        for _, a, b in sorted((x for x in removed if x[0] == rel), key=lambda x: -x[1]):
            text = text[:a] + text[b:]
        write_if_changed(out / rel, text)
    return out, removed


def same_note(records: list[dict], removed: set[tuple[str, int, int]], vault: Path) -> list[dict]:
    """The answerable questions whose gold passage was cut and whose answers appear nowhere in the copy."""
    whole = "\n".join(p.read_text(encoding="utf-8") for p in vault.rglob("*.md")).casefold()
    out = []
    for r in records:
        if not r["answerable"] or (r["gold_note"], r.get("passage_char_start"), r.get("passage_char_end")) \
                not in removed:
            continue
        if any(a and a.casefold() in whole for a in r.get("answers") or [r.get("answer_text")]):
            continue
        out.append({**r, "answerable": False, "gold_note": None, "alt_gold_notes": [], "decoy_of": r["id"],
                    "unanswerable_kind": "same_note_decoy"})
    return out


@dataclass
class Edit:
    question: str
    english: str
    how: str  # "number 2010 → 1987", "name Denver → Carolina", "negated"


FRONTMATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def body_of(note: str) -> str:
    """The note without its frontmatter (a source's licence is not a name to swap in)."""
    return FRONTMATTER.sub("", note)


def _others(note: str, kind: str, old: str) -> list[str]:
    """The note's numbers of the same kind (a year for a year, an integer of as many digits for an integer) or
    names of as many words, each once, in order."""
    note = body_of(note)
    if kind == "year":
        found = [m for m in WORD.findall(note) if YEAR.match(m)]
    elif kind == "number":
        found = [m for m in NUMBER.findall(note) if not YEAR.match(m) and m.isdigit() == old.isdigit()
                 and (not old.isdigit() or len(m) == len(old))]
    else:
        found = []
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", note):
            first = sentence.lstrip("#*-> ").split(" ", 1)[0]
            for m in NAME.findall(sentence):
                if (len(m.split()) == len(old.split()) and not sentence.lstrip("#*-> ").startswith(m) and m != first
                        and len(m) >= 3 and not m.endswith(("'s", "’s")) and m.isupper() == old.isupper()):
                    found.append(m)
    return list(dict.fromkeys(found))


def answerable_anyway(english: str, language: str, old: str, new: str, sentences: list[set[str]]) -> bool:
    """Whether some sentence of the vault holds the swapped-in word with most of the question's other words (the
    edited question could then be answered)."""
    from vaultrag.core.language import stop_words

    stops = stop_words(language)
    rest = folded_words(" ".join(w for w in WORD.findall(english.replace(old, " ")) if w.lower() not in stops))
    new_words = folded_words(new)
    return any(new_words <= s and rest and len(rest & s) / len(rest) >= 0.5 for s in sentences)


def edit(r: dict, note: str, sentences: list[set[str]], rng: random.Random) -> Edit | None:
    """Swap the question's key number, year or name for another of the note's, or negate it (None: no edit)."""
    q, en = r["question"], r.get("question_en") or r["question"]
    slots: list[tuple[str, str]] = []
    for m in NUMBER.findall(q):
        if m in body_of(note) and m in en:
            slots.append(("year" if YEAR.match(m) else "number", m))
    first = WORD.findall(q)[:1]
    for m in NAME.findall(q.lstrip("¿¡ ")):
        if m not in first and m in body_of(note) and m in en and len(m) > 2 and not m.endswith(("'s", "’s")):
            slots.append(("name", m))
    rng.shuffle(slots)
    for kind, old in sorted(slots, key=lambda s: s[0] == "name"):  # numbers first: an unambiguous swap
        choices = [o for o in _others(note, kind, old) if o != old and o not in q and old not in o
                   and o not in old]
        rng.shuffle(choices)
        for new in choices[:8]:
            if not answerable_anyway(en, "en" if r.get("question_en") else r.get("lang", ""), old, new, sentences):
                return Edit(q.replace(old, new, 1), en.replace(old, new, 1), f"{kind} {old} → {new}")
    lang = r.get("lang", "")
    pattern, neg = {"en": (AUX_EN, "not"), "pt": (VERB_PT, "não"), "es": (VERB_ES, "no")}.get(lang, (None, ""))
    if pattern is None:
        return None
    m = pattern.search(q)
    if not m:
        return None
    negated = q[: m.end()] + f" {neg}" + q[m.end():] if lang == "en" else q[: m.start()] + f"{neg} " + q[m.start():]
    return Edit(negated, en, "negated")


def edited(records: list[dict], vault: Path) -> list[dict]:
    """Up to EDITED_MAX edited questions from a seeded sample of the answerable ones."""
    rng = random.Random(SEED)
    notes = {p.relative_to(vault).as_posix(): p.read_text(encoding="utf-8") for p in vault.rglob("*.md")}
    sentences = [folded_words(s) for text in notes.values() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s]
    pool = [r for r in records if r["answerable"]]
    rng.shuffle(pool)
    out = []
    for r in pool:
        e = edit(r, notes[r["gold_note"]], sentences, rng)
        if e is None:
            continue
        out.append({**r, "question": e.question, "question_en": e.english, "answerable": False, "gold_note": None,
                    "alt_gold_notes": [], "decoy_of": r["id"], "original_question": r["question"], "edit": e.how,
                    "unanswerable_kind": "edited_question"})
        if len(out) >= EDITED_MAX:
            break
    negated = [x for x in out if x["edit"] == "negated"]
    swapped = [x for x in out if x["edit"] != "negated"]
    # negation is the fallback: at most a quarter of the kind, so the kind stays mostly swaps
    return sorted(swapped + negated[: max(0, len(swapped) // 3)], key=lambda x: x["id"])


@dataclass
class Kind:
    """One kind of question of one set: the golden file written for it and the index to ask it of."""

    set: str
    kind: str
    golden: Path
    home: Path
    vault: Path
    n: int


def build(work: Path) -> dict[tuple[str, str], Kind]:
    """Write every kind's golden file and index every vault (the shipped one and its same-note copy)."""
    out: dict[tuple[str, str], Kind] = {}
    for vault_set in dict.fromkeys(SETS.values()):
        vault = EVAL / vault_set / "vault"
        home = work / f"{vault_set}-home"
        vaultrag(home, "index", str(vault))
        copy, removed = decoy_vault(work, vault_set)
        copy_home = work / f"{vault_set}-same-note-home"
        vaultrag(copy_home, "index", str(copy))
        for name in (n for n, v in SETS.items() if v == vault_set):
            records = golden(name)
            kinds = {"answerable": ([r for r in records if r["answerable"]], home, vault),
                     "held-out": ([r for r in records if not r["answerable"]], home, vault),
                     "same-note": (same_note(records, removed, copy), copy_home, copy),
                     "edited": (edited(records, vault), home, vault)}
            for kind, (rows, h, v) in kinds.items():
                path = work / "golden" / f"{name}-{kind}.jsonl"
                write_if_changed(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
                out[name, kind] = Kind(name, kind, path, h, v, len(rows))
    return out


# -- asking them --------------------------------------------------------------------------------------------------
def code_key() -> str:
    """A digest of the query code and the ranker's data: the cached features are stale when it changes."""
    h = hashlib.sha256()
    src = ROOT / "vaultrag"
    for p in sorted([*(src / "core" / "query").rglob("*.py"), src / "core" / "rerankers" / "ranker.json",
                     *(src / "core" / "store").rglob("*.py"), src / "core" / "model.py"]):
        h.update(p.relative_to(src).as_posix().encode() + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:12]


def collect(work: Path, k: Kind) -> dict[str, np.ndarray]:
    """Every question of a kind asked with the threshold off: the cosine rule's confidence, whether the top-1 and
    the top K hit, and each of the top K candidates' answerability features and hit label."""
    digest = hashlib.sha256(k.golden.read_bytes()).hexdigest()[:8]
    cache = work / "features" / f"{k.set}-{k.kind}-{code_key()}-{digest}.npz"
    if cache.exists():
        got = dict(np.load(cache))
        if "ids" in got:
            return got  # else cached before the candidates' chunk ids were kept: asked again
    from vaultrag.core import embed
    from vaultrag.core.quality import golden as golden_mod
    from vaultrag.core.query import answerability
    from vaultrag.core.query.search import PIPELINE, Searcher
    from vaultrag.core.query.stages.decide import DecideStage
    from vaultrag.core.query.state import QueryState, Slot, needs
    from vaultrag.core.rerank import from_settings as reranker_from
    from vaultrag.core.vocab import StageName
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(k.vault, k.home)
    store, _ = ws.open_store(readonly=True)
    items, _ = golden_mod.load(k.golden)
    nf = len(answerability.FEATURES)
    x = np.zeros((len(items), K, nf))
    mask = np.zeros((len(items), K), dtype=bool)
    hit = np.zeros((len(items), K), dtype=bool)
    same = np.ones((len(items), K), dtype=bool)  # the candidate's note is in the question's language
    ids = np.full((len(items), K), -1, dtype=np.int64)  # the candidates' chunk ids (features computed afterwards)
    conf = np.full(len(items), np.nan)
    top1 = np.zeros(len(items), dtype=bool)
    ms = np.zeros(len(items))
    lang = []
    at = [0]

    class Capture:
        name = StageName("capture")
        requires = needs(Slot.DECISION)
        provides = needs()

        def run(self, q: QueryState) -> None:
            i = at[0]
            item = items[i]
            cands = q.final[:K]
            hits = [item.is_hit(q.chunks[c.chunk_id].note, c.char_start, c.char_end, q.chunks[c.chunk_id].text)
                    for c in cands]
            background = q.background_of(q.qvec) if q.qvec is not None else None
            if cands and background is not None:
                t = time.perf_counter()
                rows, same_rows = answerability.feature_rows(q, cands, background)
                ms[i] = (time.perf_counter() - t) * 1000
                x[i, : len(cands)], mask[i, : len(cands)] = rows, True
                same[i, : len(cands)] = same_rows
            hit[i, : len(cands)] = hits
            ids[i, : len(cands)] = [c.chunk_id for c in cands]
            top1[i] = bool(hits and hits[0])
            assert q.decision is not None
            conf[i] = q.decision.confidence if q.decision.confidence is not None else np.nan
            lang.append(q.language)

    units = [u if u.name != StageName.DECIDE else DecideStage(model=None) for u in PIPELINE]
    units.insert(next(i for i, u in enumerate(units) if u.name == StageName.DECIDE) + 1, Capture())
    searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings), reranker_from(ws.settings), units)
    t0 = time.perf_counter()
    for i, item in enumerate(items):
        at[0] = i
        searcher.ask(item.question, threshold=float("-inf"))
        if i % 300 == 0:
            print(f"  [{k.set} {k.kind}] {i}/{len(items)} {time.perf_counter() - t0:.0f}s", flush=True)
    store.close()
    data = {"x": x, "mask": mask, "same": same, "hit": hit, "conf": conf, "top1": top1, "ms": ms,
            "lang": np.array(lang), "ids": ids}
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, **data)
    return data


def collect_all(work: Path = WORK) -> tuple[dict[tuple[str, str], Kind], dict[tuple[str, str], dict[str, np.ndarray]]]:
    kinds = build(work)
    return kinds, {key: collect(work, k) for key, k in kinds.items()}


# -- today's rule on each kind --------------------------------------------------------------------------------------
def auroc(pos: np.ndarray, neg: np.ndarray) -> float:
    from vaultrag.core.quality.metrics import auroc as au

    return au([float(v) for v in pos], [float(v) for v in neg])


def rows(data: dict[tuple[str, str], dict[str, np.ndarray]], score: str = "conf",
         threshold: float = SHIPPED_COSINE) -> Iterator[str]:
    """The baseline table: per set and pooled, answerable answered, then each refuse-kind's AUROC and pass rate."""
    names = [*SETS, "pooled"]
    for name in names:
        sets = list(SETS) if name == "pooled" else [name]
        a = [data[s, "answerable"] for s in sets]
        conf_a = np.concatenate([d[score] for d in a])
        ok = np.concatenate([d["top1"] for d in a])
        keep = ~np.isnan(conf_a)
        answered_ok = float(np.mean(conf_a[ok & keep] >= threshold))
        cells = [f"{np.mean(ok):.3f}", f"{answered_ok:.3f}"]
        for kind in REFUSE_KINDS:
            u = np.concatenate([data[s, kind][score] for s in sets])
            u = u[~np.isnan(u)]
            cells += [f"{auroc(conf_a[keep], u):.3f}", f"{np.mean(u >= threshold):.3f} ({len(u)})"]
        yield f"| {name} | " + " | ".join(cells) + " |"


HEADER = ("| set | top-1 correct | correct top-1 answered | AUROC held-out | held-out passed | AUROC same-note | "
          "same-note passed | AUROC edited | edited passed |\n|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default=str(WORK))
    ap.add_argument("--sample", type=int, default=50, help="edited questions to print for reading")
    args = ap.parse_args()
    work = Path(args.work)
    kinds, data = collect_all(work)
    print("\n| set | " + " | ".join(KINDS) + " |\n|---|" + "---|" * len(KINDS))
    for name in SETS:
        print(f"| {name} | " + " | ".join(str(kinds[name, k].n) for k in KINDS) + " |")
    rng = random.Random(SEED)
    sample = [json.loads(x) for name in SETS for x in kinds[name, "edited"].golden.read_text(encoding="utf-8")
              .splitlines()]
    print(f"\n{args.sample} edited questions (original → edited, what changed):")
    for r in rng.sample(sample, min(args.sample, len(sample))):
        print(f"- [{r['lang']}] {r['original_question']}\n    → {r['question']}   ({r['edit']})")
    print(f"\nToday's rule (cos_top1 − 0.75 background) at the shipped {SHIPPED_COSINE}:\n")
    print(HEADER)
    for line in rows(data):
        print(line)


if __name__ == "__main__":
    main()
