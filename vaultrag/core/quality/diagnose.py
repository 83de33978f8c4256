""""Why not this note?": the first stage that dropped an expected note, with evidence and a suggestion."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from vaultrag.core.index import vault as vaultmod
from vaultrag.core.model import QueryTrace, StoredChunk
from vaultrag.core.query.scope import Scope
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.terms import match_expression, query_terms
from vaultrag.core.vocab import ContextStatus, NoteStatus, Reason, StageName, StageStatus


class Verdict(StrEnum):
    """The stable code of a diagnosis (what the GUI and the JSON branch on)."""

    EXCLUDED = "excluded"
    NOT_IN_VAULT = "not in the vault"
    NOT_INDEXED = "not indexed"
    FAILED = "failed to read"
    STALE = "stale"
    NO_CHUNKS = "no chunks"
    NOT_IN_CANDIDATES = "not in candidates"
    FUSED_OUT = "fused out"
    BELOW_THRESHOLD = "below threshold"
    REACHED_PROMPT = "reached the prompt"
    CUT_BY_BUDGET = "cut by budget"
    BELOW_K = "reranked below k"


@dataclass
class Diagnosis:
    """The verdict for one (question, note): which layer and stage lost it, why, and what to do."""

    note: str
    verdict: Verdict
    layer: int  # 0 = the vault/index, 1 = retrieval and refusal, 3 = it reached the model
    stage: str  # vault | index | bm25+vector | fusion | rerank | threshold | budget | prompt
    message: str
    suggestion: str
    evidence: dict[str, Any] = field(default_factory=dict)


def _closest(path: str, candidates: list[str]) -> list[str]:
    by_name = {Path(c).name: c for c in candidates}
    names = difflib.get_close_matches(Path(path).name, list(by_name), n=3, cutoff=0.4)
    return [by_name[n] for n in names]


def diagnose(searcher: Searcher, vault: str | os.PathLike[str], question: str, note: str,
             heading: str | None = None, scope: Scope | None = None, k: int | None = None,
             threshold: float | None = None) -> Diagnosis:
    """Name the first stage that dropped `note` (optionally one `heading` of it) for `question`, asked with
    the searcher's settings (or this question's own `k` and `threshold`, as the window passes them)."""
    store, settings = searcher.store, searcher.settings
    note = note.replace("\\", "/").lstrip("/")
    root = Path(vault)
    row = store.note_record(note)
    disk = root / note
    # -- layer 0: the vault and the index --------------------------------------------------------
    if row is None or row.status == NoteStatus.EXCLUDED:
        scanned = vaultmod.scan(root, settings.ignore_globs)
        skip = next((s for s in scanned.skipped if s.path == note or (s.path.endswith("/")
                                                                      and note.startswith(s.path))), None)
        if row is not None or skip is not None:
            code = Reason(row.reason_code) if row is not None else skip.code  # type: ignore[union-attr]
            rule = row.reason if row is not None else skip.detail  # type: ignore[union-attr]
            where = "" if row is not None else f" (folder {skip.path})"  # type: ignore[union-attr]
            return Diagnosis(note, Verdict.EXCLUDED, 0, "vault", f"The note is excluded by rule: {rule}{where}.",
                             EXCLUSION_FIX.get(code, DEFAULT_EXCLUSION_FIX), {"rule": rule, "code": str(code)})
        if not disk.is_file():
            close = _closest(note, [f.path for f in scanned.notes])
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            return Diagnosis(note, Verdict.NOT_IN_VAULT, 0, "vault", f"There is no note {note!r} in the vault.{hint}",
                             "Check the path (it is relative to the vault folder).", {"closest": close})
        return Diagnosis(note, Verdict.NOT_INDEXED, 0, "index", "The note is in the vault but not in the index yet.",
                         "Index the vault (or wait for the watcher to pick the file up).", {})
    if row.status == NoteStatus.FAILED:
        code = Reason(row.reason_code)
        return Diagnosis(note, Verdict.FAILED, 0, "index", f"The note could not be indexed: {row.reason}.",
                         FAILURE_FIX.get(code, DEFAULT_FAILURE_FIX), {"reason": row.reason, "code": str(code)})
    try:
        st = disk.stat()
        if (st.st_mtime_ns, st.st_size) != (row.mtime_ns, row.size):
            return Diagnosis(note, Verdict.STALE, 0, "index", "The note changed since it was indexed.",
                             "The index is stale for this note: re-index (the watcher does it on save).",
                             {"indexed_size": row.size, "disk_size": st.st_size})
    except OSError:
        return Diagnosis(note, Verdict.STALE, 0, "index", "The note was deleted or moved since it was indexed.",
                         "Re-index the vault.", {})
    chunks = store.note_chunks(row.id)
    if heading:
        chunks = [c for c in chunks if heading in c.heading_path]
    if not chunks:
        what = f"heading {heading!r} of the note" if heading else "the note"
        return Diagnosis(note, Verdict.NO_CHUNKS, 0, "index", f"{what[0].upper() + what[1:]} produced no chunks"
                         f"{': ' + row.reason if row.reason else ''}.",
                         "Add text under it: headings alone are not indexed." if heading else
                         "The note has no text to index.", {})
    # -- layer 1: retrieval and refusal -----------------------------------------------------------
    trace = searcher.ask(question, scope, k=k, threshold=threshold)
    ids = [c.id for c in chunks]
    evidence = _evidence(searcher, trace, question, ids)
    return _verdict(trace, note, ids, evidence, chunks)


def _evidence(searcher: Searcher, trace: QueryTrace, question: str, ids: list[int]) -> dict[str, Any]:
    """Best rank and score of the note's chunks in each list, over the whole index, and missing words."""
    store = searcher.store
    ev: dict[str, Any] = {}
    terms, _ = query_terms(store, question, trace.language)
    if terms:
        best = store.bm25_best_among(match_expression(terms), ids)
        if best:
            ev["bm25"] = {"chunk_id": best[0], "rank": best[1], "score": best[2]}
        ev["missing_words"] = [t for t in terms if not store.any_match_among(match_expression([t]), ids)]
    vector = trace.stages[StageName.VECTOR]
    if searcher.embedder is not None and vector.status in (StageStatus.OK, StageStatus.PARTIAL):
        q = searcher.query_vector(question)  # embedded once, by the ask above
        cos = store.cosines(q, ids, searcher.embedder.model_id)
        if cos:
            cid, c = max(cos.items(), key=lambda x: x[1])
            ev["vector"] = {"chunk_id": cid, "rank": store.vector_rank(q, c), "cosine": c}
    for name, stage in trace.stages.items():
        hits = [cand for cand in stage.candidates if cand.chunk_id in ids]
        if hits:
            ev.setdefault("in_lists", {})[str(name)] = {"rank": hits[0].rank, "score": hits[0].score,
                                                        "chunk_id": hits[0].chunk_id}
    change = rank_change(trace, ids)
    if change:
        ev["rank_change"] = change
    return ev


RANK_CHANGE_FEATURES = 3  # the features named as the cause of a move


def rank_change(trace: QueryTrace, ids: list[int]) -> dict[str, Any] | None:
    """How the reranker moved the best of the chunks `ids` from its fused rank, and the features that moved it
    most: those whose contribution to its score stands furthest above (moved up) or below (moved down) their mean
    over the reranked candidates."""
    reranked = trace.stages.get(StageName.RERANKED)
    fused = trace.stages.get(StageName.FUSED)
    if reranked is None or fused is None or not reranked.candidates:
        return None
    mine = next((c for c in reranked.candidates if c.chunk_id in ids), None)
    before = next((c.rank for c in fused.candidates if mine is not None and c.chunk_id == mine.chunk_id), None)
    if mine is None or before is None or before == mine.rank:
        return None
    out: dict[str, Any] = {"chunk_id": mine.chunk_id, "fused_rank": before, "reranked_rank": mine.rank, "features": {}}
    if mine.contributions:
        parts = [c.contributions for c in reranked.candidates if c.contributions]
        mean = {f: sum(p.get(f, 0.0) for p in parts) / len(parts) for f in mine.contributions}
        delta = {f: v - mean[f] for f, v in mine.contributions.items()}
        up = mine.rank < before
        causes = sorted(delta.items(), key=lambda fd: -fd[1] if up else fd[1])[:RANK_CHANGE_FEATURES]
        out["features"] = {f: round(d, 4) for f, d in causes if (d > 0) == up and d != 0}
    return out


def _rank_change_sentence(ev: dict[str, Any]) -> str:
    change = ev.get("rank_change")
    if not change:
        return ""
    way = "up" if change["reranked_rank"] < change["fused_rank"] else "down"
    why = ", ".join(f"{f} {d:+.2f}" for f, d in change["features"].items())
    return (f" The reranker moved it {way} from fused rank {change['fused_rank']} to {change['reranked_rank']}"
            + (f" (features that moved it, against the candidates' mean: {why})." if why else "."))


def _verdict(trace: QueryTrace, note: str, ids: list[int], ev: dict[str, Any],
             chunks: list[StoredChunk]) -> Diagnosis:
    in_lists = ev.get("in_lists", {})
    d = trace.decision
    k = trace.settings["k"]
    if StageName.BM25 not in in_lists and StageName.VECTOR not in in_lists:
        parts = []
        if "bm25" in ev:
            parts.append(f"its best chunk is BM25 rank {ev['bm25']['rank']} (score {ev['bm25']['score']:.2f})")
        else:
            parts.append("no chunk of it contains any query word")
        if "vector" in ev:
            parts.append(f"vector rank {ev['vector']['rank']} (cosine {ev['vector']['cosine']:.3f})")
        n = len(trace.stages[StageName.BM25].candidates) or trace.settings["bm25_n"]
        missing = ev.get("missing_words") or []
        best_id = (ev.get("vector") or ev.get("bm25") or {}).get("chunk_id")
        table = any(c.id == best_id and (c.lead or c.body.lstrip().startswith("|")) for c in chunks)
        if missing:
            fix = (f"The note never uses the word(s) {', '.join(missing)}: add them to the text, or as an alias "
                   "or a heading, so BM25 can match the question.")
        else:
            fix = "Rephrase the question with the note's own words, or raise the candidate counts (bm25_n, vector_n)."
        if table:
            fix += (" Its best chunk is a table row: make sure the table has a header row that names its columns,"
                    " so each row carries its meaning.")
        return Diagnosis(note, Verdict.NOT_IN_CANDIDATES, 1, "bm25+vector",
                         f"Not in the BM25 top-{n} nor the vector top-{trace.settings['vector_n']}: "
                         + "; ".join(parts) + ".", fix, ev)
    final = str(trace.final_stage)
    if final not in in_lists:
        return Diagnosis(note, Verdict.FUSED_OUT, 1, "fusion",
                         "It was a candidate but fell outside the fused list (RRF rank beyond N).",
                         "Raise bm25_n and vector_n so the fused list keeps more candidates.", ev)
    rank = in_lists[final]["rank"]
    if not d.answered:
        need = d.confidence
        return Diagnosis(note, Verdict.BELOW_THRESHOLD, 1, "threshold",
                         f"The question was refused: confidence {d.confidence:.3f} < threshold {d.threshold:.3f}"
                         if d.confidence is not None and d.threshold is not None else d.reason,
                         f"The threshold would need to be at most {need:.3f} (now {d.threshold:.3f}); lower it in "
                         "settings, or recalibrate with a golden set." if need is not None and d.threshold is not None
                         else "Rephrase the question with the words of the note.",
                         {**ev, "confidence": d.confidence, "threshold": d.threshold})
    statuses = {trace.context_status.get(i) for i in ids}
    included = [doc for doc in trace.context if set(doc.chunk_ids) & set(ids)]
    if included:
        return Diagnosis(note, Verdict.REACHED_PROMPT, 3, "prompt",
                         f"It reached the prompt as document [{included[0].index}] (rank {rank} after {final})."
                         + _rank_change_sentence(ev),
                         "Retrieval worked: if the answer is still wrong, the model (or the note's wording) is the "
                         "suspect.", ev)
    if ContextStatus.CUT_BY_BUDGET in statuses:
        used = trace.prompt_tokens.get("documents", 0)
        return Diagnosis(note, Verdict.CUT_BY_BUDGET, 1, "budget",
                         f"Ranked {rank}, but the token budget ({trace.prompt_tokens.get('budget')}) was full "
                         f"({used} tokens of documents)." + _rank_change_sentence(ev),
                         "Raise the token budget (context_tokens) or lower k so fewer, better chunks fit.", ev)
    return Diagnosis(note, Verdict.BELOW_K, 1, "rerank",
                     f"Ranked {rank} after {final}, below the k={k} documents given to the answer."
                     + _rank_change_sentence(ev),
                     f"Raise k to {rank} to include it.", {**ev, "rank": rank, "k": k})


# what to do about each exclusion and failure, by its code
EXCLUSION_FIX: dict[Reason, str] = {
    Reason.PRIVATE_TAG: "Remove the private tag from the note (or change private_tag in settings) to index it.",
    Reason.FRONTMATTER_EXCLUDE: "Remove `vaultrag: exclude` from the note's frontmatter to index it.",
    Reason.IGNORE_FILE: "Remove or narrow the matching pattern in .vaultragignore.",
    Reason.IGNORE_SETTING: "Remove or narrow the matching pattern in the ignore_globs setting.",
    Reason.HIDDEN_FILE: "Rename the file so it does not start with a dot to index it.",
    Reason.SYMLINK_LOOP: "The folder is a link back into the vault; it is indexed where it really lives.",
    Reason.UNREADABLE_FOLDER: "Give your user read permission on the folder.",
    Reason.CANNOT_STAT: "Check that the file exists and is readable.",
    Reason.NOT_REGULAR: "Only regular files are indexed (not pipes or devices).",
    Reason.SYMLINK_OUTSIDE: "Links to places outside the vault are never followed: move the note into the vault.",
    Reason.SYMLINK_TO_IGNORED: "The link points at a note a rule leaves out: change that rule to index it.",
    Reason.BAD_FILENAME: "Rename the file: its name is not valid UTF-8.",
}
DEFAULT_EXCLUSION_FIX = "Move the note out of that folder to index it."
FAILURE_FIX: dict[Reason, str] = {
    Reason.NOT_UTF8: "Save the note as UTF-8 in your editor.",
    Reason.TOO_LARGE: "Split the note, or raise max_note_bytes in settings.",
    Reason.BINARY: "This is not a text note; rename it if it should not end in .md.",
    Reason.PERMISSION: "Give your user read permission on the file.",
}
DEFAULT_FAILURE_FIX = "Fix the file and save it again; the watcher re-indexes it."
