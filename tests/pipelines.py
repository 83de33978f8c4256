"""Custom pipelines built from the shipped one by unit name: a stage added to `PIPELINE` changes no test's meaning."""

from __future__ import annotations

from collections.abc import Sequence

from vaultrag.core.query.state import StageUnit
from vaultrag.core.vocab import StageName


def _index(pipeline: Sequence[StageUnit], name: StageName) -> int:
    names = [u.name for u in pipeline]
    assert name in names, f"no unit {name!r} in {names}"  # a renamed stage fails loudly, not silently
    return names.index(name)


def with_unit(pipeline: Sequence[StageUnit], unit: StageUnit, *, after: StageName) -> tuple[StageUnit, ...]:
    """`pipeline` with `unit` placed right after the unit named `after`."""
    i = _index(pipeline, after) + 1
    return (*pipeline[:i], unit, *pipeline[i:])


def without(pipeline: Sequence[StageUnit], *names: StageName) -> tuple[StageUnit, ...]:
    """`pipeline` less the units named `names` (each must be there)."""
    for name in names:
        _index(pipeline, name)
    return tuple(u for u in pipeline if u.name not in names)


def up_to(pipeline: Sequence[StageUnit], last: StageName) -> tuple[StageUnit, ...]:
    """`pipeline`'s units up to and including the one named `last`."""
    return tuple(pipeline[: _index(pipeline, last) + 1])
