"""The rerank stage: the configured reranker re-scores the fused list (skipped without one); a reranker that explains
itself (the built-in ranker) leaves each feature's part on every candidate."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.rerank import RerankInput
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing

# A note in a language the question was translated into, in a vault that also has notes in the question's own
# language, is judged through the translation: its words were chosen by the translator, and they meet the note's
# more often than a user's words would. It gives up this much of its ranker score (logit units), so a note in the
# question's own language wins a close call (measured on both help vaults as one vault: docs/quality.md). In a
# vault without notes in the question's language every candidate is translated: nothing changes.
TRANSLATED_PENALTY = 4.0
TRANSLATED = "translated"  # its part in the candidate's contributions


def translated_penalty(q: QueryState, chunk_id: int) -> float:
    """What the candidate gives up for being judged through a translation (0 for the rest)."""
    if not q.translations or not TRANSLATED_PENALTY:
        return 0.0
    note = q.chunks[chunk_id].note
    languages = q.note_languages([note])
    if languages.get(note, "") not in q.translations or q.language not in q.store.vault_languages():
        return 0.0
    return TRANSLATED_PENALTY


class RerankStage:
    """Re-orders the fused candidates; when it runs, its list becomes the final one. Every reranker gets the same
    input: the question, the candidates' `prefix > text` (a cross-encoder reads these) and the question's state (the
    built-in ranker computes its features from it)."""

    name = StageName.RERANKED
    requires = needs(StageName.FUSED)
    provides = needs(StageName.RERANKED, Slot.FINAL)
    inputs = (StageName.FUSED,)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        fused = q.stages[StageName.FUSED].candidates
        if q.reranker is None or not fused:
            why = StageReason.NO_RERANKER if q.reranker is None else StageReason.NOTHING_TO_RERANK
            q.stages[self.name] = Stage(self.name, StageStatus.SKIPPED, [], 0.0, reason=why, inputs=list(self.inputs))
            q.timed(Timing.RERANK, t)
            return
        ids = tuple(c.chunk_id for c in fused)
        result = q.reranker.score(RerankInput(q.question, ids, tuple(q.chunks[i].search_text for i in ids), q))
        parts = ({cid: dict(row) for cid, row in zip(ids, result.contributions, strict=True)}
                 if result.contributions is not None else {})
        scores = list(result.scores)
        for at, cid in enumerate(ids):
            if (penalty := translated_penalty(q, cid)):
                scores[at] -= penalty
                parts.setdefault(cid, {})[TRANSLATED] = -penalty
        # equal scores keep the fused order (sorted is stable)
        order = sorted(zip(ids, scores, strict=True), key=lambda x: -x[1])
        q.stages[self.name] = Stage(self.name, StageStatus.OK, q.candidates(order, parts), q.timed(Timing.RERANK, t),
                                    result.note or q.reranker_id, inputs=list(self.inputs))
        q.final_stage = self.name
