""""Why not this note?": the first stage that dropped an expected note, with typed evidence (worded by
`core/wording.py`, the same words for `vaultrag why` and the window)."""

from __future__ import annotations

import difflib
import os
from dataclasses import replace
from pathlib import Path

from vaultrag.core.index import vault as vaultmod
from vaultrag.core.model import Decision, Diagnosis, Evidence, Hit, ListHit, QueryTrace, RankChange, StoredChunk
from vaultrag.core.quality.dropped import dropped_at
from vaultrag.core.query.conversation import QUESTION_WORDS
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.stages.bm25 import match_for
from vaultrag.core.query.stages.decide import BACKGROUND_WEIGHT, rule_threshold
from vaultrag.core.query.stems import inflected_match
from vaultrag.core.query.terms import query_terms
from vaultrag.core.scope import Scope
from vaultrag.core.vocab import (
    AnswerKind,
    NoteStatus,
    Reason,
    StageName,
    StageStatus,
    Verdict,
)

__all__ = ["Diagnosis", "Evidence", "Hit", "ListHit", "RankChange", "Verdict", "diagnose", "rank_change"]


def _closest(path: str, candidates: list[str]) -> list[str]:
    by_name = {Path(c).name: c for c in candidates}
    names = difflib.get_close_matches(Path(path).name, list(by_name), n=3, cutoff=0.4)
    return [by_name[n] for n in names]


def _inside(root: Path, path: Path) -> bool:
    """Whether `path` (symlinks resolved) lies inside the vault folder `root`."""
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


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
    if row is None and not _inside(root, disk):  # "../../etc/passwd": no path outside the vault is one of its notes
        return Diagnosis(note, Verdict.NOT_IN_VAULT, 0, evidence=Evidence())
    if row is None or row.status == NoteStatus.EXCLUDED:
        scanned = vaultmod.scan(root, settings.ignore_globs)
        skip = next((s for s in scanned.skipped if s.path == note or (s.path.endswith("/")
                                                                      and note.startswith(s.path))), None)
        if row is not None:
            return Diagnosis(note, Verdict.EXCLUDED, 0, evidence=Evidence(Reason(row.reason_code), row.reason))
        if skip is not None:
            return Diagnosis(note, Verdict.EXCLUDED, 0, evidence=Evidence(skip.code, skip.detail, folder=skip.path))
        if not disk.is_file():
            close = tuple(_closest(note, [f.path for f in scanned.notes]))
            return Diagnosis(note, Verdict.NOT_IN_VAULT, 0, evidence=Evidence(closest=close))
        return Diagnosis(note, Verdict.NOT_INDEXED, 0)
    if row.status == NoteStatus.FAILED:
        return Diagnosis(note, Verdict.FAILED, 0, evidence=Evidence(Reason(row.reason_code), row.reason))
    try:
        st = disk.stat()
        if (st.st_mtime_ns, st.st_size) != (row.mtime_ns, row.size):
            return Diagnosis(note, Verdict.STALE, 0, evidence=Evidence(indexed_size=row.size, disk_size=st.st_size))
    except OSError:
        return Diagnosis(note, Verdict.STALE, 0, evidence=Evidence(indexed_size=row.size))
    chunks = store.note_chunks(row.id)
    if heading:
        chunks = [c for c in chunks if heading in c.heading_path]
    if not chunks:
        return Diagnosis(note, Verdict.NO_CHUNKS, 0,
                         evidence=Evidence(Reason(row.reason_code) if row.reason_code else None, row.reason,
                                           heading=heading or ""))
    # -- layer 1: retrieval and refusal -----------------------------------------------------------
    trace = searcher.ask(question, scope, k=k, threshold=threshold)
    ids = [c.id for c in chunks]
    return _verdict(trace, note, ids, _evidence(searcher, trace, question, ids, chunks),
                    rule_threshold(store, searcher.reranker_id))


def _evidence(searcher: Searcher, trace: QueryTrace, question: str, ids: list[int],
              chunks: list[StoredChunk]) -> Evidence:
    """Best rank and score of the note's chunks in each list, over the whole index, and missing words."""
    store = searcher.store
    bm25 = vector = None
    missing: list[str] = []
    # a note in a language the question was translated into is judged by the translation's words
    note_language = store.note_languages([chunks[0].note]).get(chunks[0].note, "") if chunks else ""
    translation = next((t for t in trace.translations if t.text and t.target == note_language), None)
    language = translation.target if translation is not None else trace.language
    terms, _ = query_terms(store, translation.text if translation is not None else question, language)
    if terms:
        found = store.bm25_best_among(match_for(store, terms, language), ids)
        if found:
            bm25 = Hit(*found)
        # a question's own words ("how much", "quantos") are no words to add to a note; a word the note holds in
        # another form ("apagar" for "apaguei") is not missing
        missing = [t for t in terms if t.lower() not in QUESTION_WORDS
                   and not store.any_match_among(inflected_match([t], language, {t}), ids)]
    stage = trace.stages[StageName.VECTOR]
    if searcher.embedder is not None and stage.status in (StageStatus.OK, StageStatus.PARTIAL):
        # embedded once, by the ask above; the translation's embedding when the note is in its language
        q = searcher.query_vector(translation.text if translation is not None else question)
        cos = store.cosines(q, ids, searcher.embedder.model_id)
        if cos:
            cid, c = max(cos.items(), key=lambda x: x[1])
            vector = Hit(cid, store.vector_rank(q, c), c)
    in_lists = []
    via: dict[StageName, str] = {}  # a retrieval list that found the note only through a translation → its language
    for name, st in trace.stages.items():
        hits = [cand for cand in st.candidates if cand.chunk_id in ids]
        if hits:
            in_lists.append(ListHit(hits[0].chunk_id, hits[0].rank, hits[0].score, StageName(name)))
            if not st.inputs and all(h.via for h in hits):
                via[StageName(name)] = hits[0].via
    best = vector or bm25
    best_id = best.chunk_id if best is not None else None
    table = any(c.id == best_id and bool(c.lead or c.body.lstrip().startswith("|")) for c in chunks)
    return Evidence(bm25=bm25, vector=vector, missing_words=tuple(missing), in_lists=tuple(in_lists),
                    rank_change=rank_change(trace, ids), table_row=table,
                    translation=translation.text if translation is not None else "",
                    via=next(iter(via.values()), ""), via_lists=tuple(via))


RANK_CHANGE_FEATURES = 3  # the features named as the cause of a move


def rank_change(trace: QueryTrace, ids: list[int]) -> RankChange | None:
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
    features: tuple[tuple[str, float], ...] = ()
    if mine.contributions:
        parts = [c.contributions for c in reranked.candidates if c.contributions]
        mean = {f: sum(p.get(f, 0.0) for p in parts) / len(parts) for f in mine.contributions}
        delta = {f: v - mean[f] for f, v in mine.contributions.items()}
        up = mine.rank < before
        causes = sorted(delta.items(), key=lambda fd: -fd[1] if up else fd[1])[:RANK_CHANGE_FEATURES]
        features = tuple((f, round(d, 4)) for f, d in causes if (d > 0) == up and d != 0)
    return RankChange(mine.chunk_id, before, mine.rank, features)


# retrieval verdicts where a note that shares no content word with the question is simply not about it: tuning
# the candidate counts would be bad advice (a candidate ranked below k keeps its code, and `off_topic` words its
# advice: it was kept by meaning, so its cosine decides)
UNRELATED_WHEN = (Verdict.NOT_IN_CANDIDATES, Verdict.FUSED_OUT)


# verdicts where the note was a candidate, and an off-topic one is not the pipeline's fault: raising k or lowering
# the threshold would only hand the answer a passage that is not about the question
OFF_TOPIC_WHEN = (Verdict.BELOW_K, Verdict.BELOW_THRESHOLD)


def off_topic(ev: Evidence, decision: Decision, topic_threshold: float | None) -> Evidence:
    """The evidence with the cosines it is judged by, marked off topic when the note looks unrelated."""
    top, background = decision.top_cosine, decision.background
    if ev.vector is None or top is None or background is None or topic_threshold is None:
        return ev  # without vectors, a background or a calibrated or shipped threshold, nothing is claimed
    # Unrelated: none of the question's content words, and a closest chunk the cosine rule would not count as on
    # the question's topic (its cosine − weight × the vault background below the rule's calibrated or shipped
    # threshold: the boundary the decision's `topic_found` uses, fitted to tell answerable questions from
    # unanswerable ones). e5 puts any two texts between about 0.7 and 0.95, so no fixed cosine or gap to the top
    # means "unrelated" across vaults and questions; this boundary moves with the question's background and is
    # calibrated per vault, nothing is tuned here. The background alone (no closer than the vault's average
    # chunk) is too low a bar: on xquad-en none of 46 notes below k without a question word was under it. The
    # answerability model would judge better, but it reads only the passages that reach the prompt (its features
    # are measured against them): a note below k has no probability of its own.
    needed = topic_threshold + BACKGROUND_WEIGHT * background
    cos = ev.vector.score
    unrelated = ev.bm25 is None and bool(ev.missing_words) and cos < needed and cos < top
    return replace(ev, off_topic=unrelated, top_cosine=top, topic_cosine=needed)


def _verdict(trace: QueryTrace, note: str, ids: list[int], ev: Evidence,
             topic_threshold: float | None) -> Diagnosis:
    d = trace.decision
    k = trace.settings["k"]
    final = trace.final_stage
    dropped = dropped_at(trace, ids)
    verdict, stages = dropped.verdict, dropped.stages
    if verdict in OFF_TOPIC_WHEN:
        ev = off_topic(ev, d, topic_threshold)
    if verdict in UNRELATED_WHEN:
        if ev.bm25 is None:
            verdict = Verdict.UNRELATED
        n = len(trace.stages[StageName.BM25].candidates) or trace.settings["bm25_n"]
        return Diagnosis(note, verdict, 1, stages, replace(ev, bm25_n=n, vector_n=trace.settings["vector_n"]))
    if verdict == Verdict.BELOW_THRESHOLD:
        return Diagnosis(note, verdict, 1, stages,
                         replace(ev, decision=d.reason, confidence=d.confidence, threshold=d.threshold,
                                 model_decision=d if d.by_model else None))
    hit = ev.listed(final)
    assert hit is not None
    placed = replace(ev, final_stage=final, rank=hit.rank, k=k)
    if verdict == Verdict.REACHED_PROMPT:
        included = next(doc for doc in trace.context if set(doc.chunk_ids) & set(ids))
        # without a language model the answer is one document's passage: a note in another one is not read
        shown = (next((doc.index for doc in trace.context if doc.source == trace.answer.source), None)
                 if trace.answer.kind == AnswerKind.EXTRACTIVE else None)
        return Diagnosis(note, verdict, 3, stages, replace(placed, document=included.index, answer_document=shown))
    if verdict == Verdict.CUT_BY_BUDGET:
        return Diagnosis(note, verdict, 1, stages,
                         replace(placed, budget=trace.prompt_tokens.get("budget"),
                                 documents_tokens=trace.prompt_tokens.get("documents", 0)))
    return Diagnosis(note, verdict, 1, stages, placed)
