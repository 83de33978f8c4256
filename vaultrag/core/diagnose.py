""""Why not this note?": the first stage that dropped an expected note, with evidence and a suggestion."""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vaultrag.core import retrieve
from vaultrag.core import vault as vaultmod
from vaultrag.core.model import QueryTrace
from vaultrag.core.retrieve import Scope
from vaultrag.core.search import Searcher
from vaultrag.settings import Settings


@dataclass
class Diagnosis:
    """The verdict for one (question, note): which layer and stage lost it, why, and what to do."""

    note: str
    verdict: str  # a stable code, e.g. "excluded", "not in candidates", "reached the prompt"
    layer: int  # 0 = the vault/index, 1 = retrieval and refusal, 3 = it reached the model
    stage: str  # vault | index | bm25+vector | fusion | rerank | threshold | budget | prompt
    message: str
    suggestion: str
    evidence: dict[str, Any] = field(default_factory=dict)


def _closest(path: str, candidates: list[str]) -> list[str]:
    by_name = {Path(c).name: c for c in candidates}
    names = difflib.get_close_matches(Path(path).name, list(by_name), n=3, cutoff=0.4)
    return [by_name[n] for n in names]


def diagnose(searcher: Searcher, vault: str | os.PathLike[str], settings: Settings, question: str, note: str,
             heading: str | None = None, scope: Scope | None = None) -> Diagnosis:
    """Name the first stage that dropped `note` (optionally one `heading` of it) for `question`."""
    db = searcher.db
    note = note.replace("\\", "/").lstrip("/")
    root = Path(vault)
    row = db.execute("select id, status, reason, mtime_ns, size from notes where path = ?", (note,)).fetchone()
    disk = root / note
    # -- layer 0: the vault and the index --------------------------------------------------------
    if row is None or row[1] == "excluded":
        scanned = vaultmod.scan(root, settings.ignore_globs)
        skip = next((s for s in scanned.skipped if s.path == note or (s.path.endswith("/")
                                                                      and note.startswith(s.path))), None)
        if row is not None or skip is not None:
            rule = row[2] if row is not None else skip.rule  # type: ignore[union-attr]
            where = "" if row is not None else f" (folder {skip.path})"  # type: ignore[union-attr]
            return Diagnosis(note, "excluded", 0, "vault", f"The note is excluded by rule: {rule}{where}.",
                             _exclusion_fix(rule), {"rule": rule})
        if not disk.is_file():
            close = _closest(note, [f.path for f in scanned.notes])
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            return Diagnosis(note, "not in the vault", 0, "vault", f"There is no note {note!r} in the vault.{hint}",
                             "Check the path (it is relative to the vault folder).", {"closest": close})
        return Diagnosis(note, "not indexed", 0, "index", "The note is in the vault but not in the index yet.",
                         "Index the vault (or wait for the watcher to pick the file up).", {})
    note_id, status, reason, mtime_ns, size = row
    if status == "failed":
        return Diagnosis(note, "failed to read", 0, "index", f"The note could not be indexed: {reason}.",
                         _failure_fix(reason), {"reason": reason})
    try:
        st = disk.stat()
        if (st.st_mtime_ns, st.st_size) != (mtime_ns, size):
            return Diagnosis(note, "stale", 0, "index", "The note changed since it was indexed.",
                             "The index is stale for this note: re-index (the watcher does it on save).",
                             {"indexed_size": size, "disk_size": st.st_size})
    except OSError:
        return Diagnosis(note, "stale", 0, "index", "The note was deleted or moved since it was indexed.",
                         "Re-index the vault.", {})
    chunk_rows = db.execute("select id, heading_path, body, lead from chunks where note_id = ? order by ordinal",
                            (note_id,)).fetchall()
    if heading:
        chunk_rows = [r for r in chunk_rows if heading in json.loads(r[1])]
    if not chunk_rows:
        what = f"heading {heading!r} of the note" if heading else "the note"
        return Diagnosis(note, "no chunks", 0, "index", f"{what[0].upper() + what[1:]} produced no chunks"
                         f"{': ' + reason if reason else ''}.",
                         "Add text under it: headings alone are not indexed." if heading else
                         "The note has no text to index.", {})
    # -- layer 1: retrieval and refusal -----------------------------------------------------------
    ids = [r[0] for r in chunk_rows]
    trace = searcher.ask(question, scope)
    evidence = _evidence(searcher, trace, question, ids)
    return _verdict(trace, note, ids, evidence, chunk_rows, searcher.settings.k)


def _evidence(searcher: Searcher, trace: QueryTrace, question: str, ids: list[int]) -> dict[str, Any]:
    """Best rank and score of the note's chunks in each list, over the whole index, and missing words."""
    db = searcher.db
    ev: dict[str, Any] = {}
    terms, _ = retrieve.query_terms(db, question)
    marks = ",".join("?" * len(ids))
    if terms:
        match = retrieve.match_expression(terms)
        best = db.execute(f"select rowid, bm25(chunks_fts) from chunks_fts where chunks_fts match ? and rowid in "
                          f"({marks}) order by bm25(chunks_fts) limit 1", (match, *ids)).fetchone()
        if best:
            better = db.execute("select count(*) from chunks_fts where chunks_fts match ? and bm25(chunks_fts) < ?",
                                (match, best[1])).fetchone()[0]
            ev["bm25"] = {"chunk_id": best[0], "rank": better + 1, "score": -best[1]}
        missing = [t for t in terms if not db.execute(
            f"select 1 from chunks_fts where chunks_fts match ? and rowid in ({marks}) limit 1",
            (retrieve.match_expression([t]), *ids)).fetchone()]
        ev["missing_words"] = missing
    if searcher.embedder is not None and trace.stages["vector"].status in ("ok", "partial"):
        q = searcher.query_vector(question)  # embedded once, by the ask above
        cos = retrieve.cosines(db, q, ids, searcher.embedder.model_id)
        if cos:
            cid, c = max(cos.items(), key=lambda x: x[1])
            blob = np.ascontiguousarray(q, dtype=np.float32).tobytes()
            # counted in SQL over the whole index (a full scan in C), not only the top-N
            rank = db.execute("select count(*) from chunks_vec where vec_distance_cosine(embedding, ?) < ?",
                              (blob, 1.0 - c - 1e-6)).fetchone()[0] + 1
            ev["vector"] = {"chunk_id": cid, "rank": rank, "cosine": c}
    for name in ("bm25", "vector", "fused", "reranked"):
        stage = trace.stages[name]
        hits = [cand for cand in stage.candidates if cand.chunk_id in ids]
        if hits:
            ev.setdefault("in_lists", {})[name] = {"rank": hits[0].rank, "score": hits[0].score,
                                                   "chunk_id": hits[0].chunk_id}
    return ev


def _verdict(trace: QueryTrace, note: str, ids: list[int], ev: dict[str, Any], chunk_rows: list[Any],
             k: int) -> Diagnosis:
    in_lists = ev.get("in_lists", {})
    d = trace.decision
    if "bm25" not in in_lists and "vector" not in in_lists:
        parts = []
        if "bm25" in ev:
            parts.append(f"its best chunk is BM25 rank {ev['bm25']['rank']} (score {ev['bm25']['score']:.2f})")
        else:
            parts.append("no chunk of it contains any query word")
        if "vector" in ev:
            parts.append(f"vector rank {ev['vector']['rank']} (cosine {ev['vector']['cosine']:.3f})")
        n = len(trace.stages["bm25"].candidates) or trace.settings["bm25_n"]
        missing = ev.get("missing_words") or []
        best_id = (ev.get("vector") or ev.get("bm25") or {}).get("chunk_id")
        table = any(r[0] == best_id and (r[3] or r[2].lstrip().startswith("|")) for r in chunk_rows)
        if missing:
            fix = (f"The note never uses the word(s) {', '.join(missing)}: add them to the text, or as an alias "
                   "or a heading, so BM25 can match the question.")
        else:
            fix = "Rephrase the question with the note's own words, or raise the candidate counts (bm25_n, vector_n)."
        if table:
            fix += (" Its best chunk is a table row: make sure the table has a header row that names its columns,"
                    " so each row carries its meaning.")
        return Diagnosis(note, "not in candidates", 1, "bm25+vector",
                         f"Not in the BM25 top-{n} nor the vector top-{trace.settings['vector_n']}: "
                         + "; ".join(parts) + ".", fix, ev)
    final = "reranked" if trace.stages["reranked"].status == "ok" else "fused"
    if final not in in_lists:
        return Diagnosis(note, "fused out", 1, "fusion",
                         "It was a candidate but fell outside the fused list (RRF rank beyond N).",
                         "Raise bm25_n and vector_n so the fused list keeps more candidates.", ev)
    rank = in_lists[final]["rank"]
    if not d.answered:
        need = d.confidence
        return Diagnosis(note, "below threshold", 1, "threshold",
                         f"The question was refused: confidence {d.confidence:.3f} < threshold {d.threshold:.3f}"
                         if d.confidence is not None and d.threshold is not None else d.reason,
                         f"The threshold would need to be at most {need:.3f} (now {d.threshold:.3f}); lower it in "
                         "settings, or recalibrate with a golden set." if need is not None and d.threshold is not None
                         else "Rephrase the question with the words of the note.",
                         {**ev, "confidence": d.confidence, "threshold": d.threshold})
    statuses = {trace.context_status.get(i, "") for i in ids}
    included = [doc for doc in trace.context if set(doc.chunk_ids) & set(ids)]
    if included:
        return Diagnosis(note, "reached the prompt", 3, "prompt",
                         f"It reached the prompt as document [{included[0].index}] (rank {rank} after {final}).",
                         "Retrieval worked: if the answer is still wrong, the model (or the note's wording) is the "
                         "suspect.", ev)
    if "cut by budget" in statuses:
        used = trace.prompt_tokens.get("documents", 0)
        return Diagnosis(note, "cut by budget", 1, "budget",
                         f"Ranked {rank}, but the token budget ({trace.prompt_tokens.get('budget')}) was full "
                         f"({used} tokens of documents).",
                         "Raise the token budget (context_tokens) or lower k so fewer, better chunks fit.", ev)
    return Diagnosis(note, "reranked below k", 1, "rerank",
                     f"Ranked {rank} after {final}, below the k={k} documents given to the answer.",
                     f"Raise k to {rank} to include it.", {**ev, "rank": rank, "k": k})


def _exclusion_fix(rule: str) -> str:
    if "private tag" in rule:
        return "Remove the private tag from the note (or change private_tag in settings) to index it."
    if "frontmatter" in rule:
        return "Remove `vaultrag: exclude` from the note's frontmatter to index it."
    if ".vaultragignore" in rule:
        return "Remove or narrow the matching pattern in .vaultragignore."
    if "ignore_globs" in rule:
        return "Remove or narrow the matching pattern in the ignore_globs setting."
    return "Move the note out of that folder to index it."


def _failure_fix(reason: str) -> str:
    if "UTF-8" in reason:
        return "Save the note as UTF-8 in your editor."
    if "size cap" in reason:
        return "Split the note, or raise max_note_bytes in settings."
    if "binary" in reason:
        return "This is not a text note; rename it if it should not end in .md."
    if "permission" in reason:
        return "Give your user read permission on the file."
    return "Fix the file and save it again; the watcher re-indexes it."
