"""The engine a setting names, built: one lookup, one import and the same errors for every kind of engine (an
unknown name, a missing package), whether vaultrag ships the engine or an outside plugin adds it."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from vaultrag.engines import Engine, Registry
from vaultrag.errors import ModelUnavailable, Problem, engine_missing

if TYPE_CHECKING:
    from vaultrag.settings import Settings

E = TypeVar("E", bound=Engine)


def engine(registry: Registry[E], settings: Settings) -> E:
    """The engine of `registry` that the settings pick (its `setting` field); ModelUnavailable (ENGINE_UNKNOWN,
    with the choices) when none is meant by that value."""
    value = str(getattr(settings, registry.setting))
    found = registry.chosen(value)
    if found is None:
        raise ModelUnavailable(Problem.ENGINE_UNKNOWN, setting=registry.setting, name=value, choices=registry.names())
    return found


def backend(entry: Engine) -> ModuleType:
    """The engine's module, imported; a package it needs that is missing is said as such (engine_missing)."""
    try:
        return entry.load()
    except ImportError as e:
        raise engine_missing(entry, e) from e


def build(registry: Registry[E], settings: Settings, *args: Any) -> Any:
    """What the chosen engine's `build(settings, *args)` makes, or None for an engine with nothing to build (a
    "none" choice). A package missing when it builds (the heavy imports wait until then) is said like one missing
    at import."""
    entry = engine(registry, settings)
    if entry.module is None:
        return None
    module = backend(entry)
    try:
        return module.build(settings, *args)
    except ImportError as e:
        raise engine_missing(entry, e) from e
