"""Checked stage contracts: a pipeline is checked when it is built, so a missing step fails before any question."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from vaultrag.core.query.state import GIVEN, Need, Slot, StageUnit
from vaultrag.core.vocab import StageName

# what `QueryState.trace()` needs of every pipeline
FINISHED: frozenset[Need] = frozenset({Slot.DECISION, Slot.ANSWER})


class PipelineError(ValueError):
    """A pipeline that cannot run (a unit whose requirement no earlier unit provides, …): a programming error in
    whoever built it, raised when the pipeline is built (a Searcher, a conversation's pipeline), not mid-question."""


def _named(needs: Iterable[Need]) -> str:
    return ", ".join(sorted(f"the ranked list '{n}'" if isinstance(n, StageName) else f"'{n.value}'" for n in needs))


def check(units: Sequence[StageUnit], given: frozenset[Need] = GIVEN) -> tuple[StageUnit, ...]:
    """`units` as a tuple when their order can work; raises PipelineError naming each unit and what it lacks.

    In order, every unit's `requires` must be provided by a unit before it (or be `given`); no unit may change
    what an earlier unit already read (a rewrite after bm25 would leave bm25 searching the old question); no two
    units write the same ranked list; and the pipeline must end with a decision and an answer.
    """
    units = tuple(units)
    problems: list[str] = []
    for unit in units:
        for attribute in ("name", "requires", "provides"):
            if not hasattr(unit, attribute):
                problems.append(f"{type(unit).__name__} declares no `{attribute}`")
    if problems:
        raise PipelineError("the pipeline cannot run: " + "; ".join(problems))
    available: set[Need] = set(given)
    readers: dict[Need, list[StageUnit]] = {}
    for unit in units:
        missing = unit.requires - available
        if missing:
            problems.append(f"{unit.name} requires {_named(missing)}, which no unit before it provides")
        for need in unit.requires:
            readers.setdefault(need, []).append(unit)
        for need in sorted(unit.provides, key=repr):
            earlier = [r.name for r in readers.get(need, []) if r is not unit]
            if earlier:
                problems.append(f"{unit.name} changes {_named([need])} after {', '.join(earlier)} read it: put it "
                                "before them")
            elif isinstance(need, StageName) and need in available:
                problems.append(f"{unit.name} writes {_named([need])}, which an earlier unit already wrote")
        available |= unit.provides
    if missing := FINISHED - available:
        problems.append(f"no unit provides {_named(missing)}")
    if problems:
        raise PipelineError(f"the pipeline ({', '.join(u.name for u in units)}) cannot run: " + "; ".join(problems))
    return units


def ranked_lists(units: Sequence[StageUnit]) -> tuple[StageName, ...]:
    """The ranked lists `units` write, in order (a unit that provides its own name writes that list)."""
    return tuple(u.name for u in units if u.name in u.provides)


def retrieval_lists(units: Sequence[StageUnit]) -> frozenset[StageName]:
    """The lists of `units` that no other list feeds (bm25, vector, …)."""
    return frozenset(u.name for u in units if u.name in u.provides and Slot.RETRIEVED in u.provides)
