"""Which stage of a trace dropped the expected chunks: one classifier for "why not this note?" and the evaluation."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from vaultrag.core.model import Candidate, QueryTrace, Stage
from vaultrag.core.vocab import ContextStatus, StageName, StageStatus, Verdict

__all__ = ["Dropped", "dropped_at", "first_level", "passed_on"]


@dataclass(frozen=True)
class Dropped:
    """The verdict and the stages that lost the chunks: every first-level list when none found them, the list
    that left them out, decide, the context (budget), the final list (ranked below k) or the prompt (reached)."""

    verdict: Verdict
    stages: tuple[StageName, ...]


def passed_on(trace: QueryTrace, stage: Stage) -> list[Candidate]:
    """A list's candidates; a skipped list fed by one other counts as that list (no reranker: the fused order)."""
    if stage.status == StageStatus.SKIPPED and len(stage.inputs) == 1 and stage.inputs[0] in trace.stages:
        return passed_on(trace, trace.stages[stage.inputs[0]])
    return stage.candidates


def first_level(trace: QueryTrace) -> tuple[StageName, ...]:
    """The retrieval lists of the trace (no list fed them: bm25, vector and any a pipeline adds), in order."""
    return tuple(name for name, stage in trace.stages.items() if not stage.inputs)


def _holds(trace: QueryTrace, name: StageName, ids: Collection[int]) -> bool:
    return any(c.chunk_id in ids for c in passed_on(trace, trace.stages[name]))


def _feeding(trace: QueryTrace, name: StageName) -> set[StageName]:
    """`name` and every list that fed it, following `inputs` back to the first level."""
    seen: set[StageName] = set()
    todo = [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in trace.stages:
            continue
        seen.add(n)
        todo += trace.stages[n].inputs
    return seen


def _left_out_by(trace: QueryTrace, ids: Collection[int]) -> StageName:
    """The first list on the way to the final one (pipeline order) that lacks the chunks one of its inputs held."""
    chain = _feeding(trace, trace.final_stage)
    for name, stage in trace.stages.items():
        if name in chain and not _holds(trace, name, ids) and any(
                i in trace.stages and _holds(trace, i, ids) for i in stage.inputs):
            return name
    return trace.final_stage


def dropped_at(trace: QueryTrace, ids: Collection[int]) -> Dropped:
    """The first stage that lost every one of the chunks `ids` (a note's, or the gold passage's)."""
    first = first_level(trace)
    if not any(_holds(trace, name, ids) for name in first):
        return Dropped(Verdict.NOT_IN_CANDIDATES, first)
    if not any(c.chunk_id in ids for c in trace.final):
        return Dropped(Verdict.FUSED_OUT, (_left_out_by(trace, ids),))
    if not trace.decision.answered:
        return Dropped(Verdict.BELOW_THRESHOLD, (StageName.DECIDE,))
    if any(set(doc.chunk_ids) & set(ids) for doc in trace.context):
        return Dropped(Verdict.REACHED_PROMPT, (StageName.PROMPT,))
    if ContextStatus.CUT_BY_BUDGET in {trace.context_status.get(i) for i in ids}:
        return Dropped(Verdict.CUT_BY_BUDGET, (StageName.CONTEXT,))
    return Dropped(Verdict.BELOW_K, (trace.final_stage,))
