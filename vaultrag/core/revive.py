"""A value of core/model.py (a QueryTrace above all) back from its JSON form, by its fields' declared types.

`to_dict` writes dataclasses, enums as their values and dict keys as JSON makes them (strings); this reads them
back by the annotations: nested dataclasses, lists, tuples, dicts (keys converted too: a context status's chunk id
is an int again), optional values, StrEnums and unions of them (a timing's key is a Timing or a stage's name).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def revive(cls: type[T], data: Any) -> T:
    """`data` (from `to_dict` and JSON) as a `cls`."""
    return typing.cast(T, _value(cls, data))


def _value(kind: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(kind) if a is not type(None)]
        for option in options:  # the first that takes it: an enum's value, then a plain string
            try:
                return _value(option, data)
            except (ValueError, TypeError, KeyError):
                continue
        raise ValueError(f"{data!r} fits none of {kind}")
    if origin in (list, typing.List):  # noqa: UP006 (typing.List as an origin, for old annotations)
        (item,) = get_args(kind) or (Any,)
        return [_value(item, x) for x in data]
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], x) for x in data)
        return tuple(_value(a, x) for a, x in zip(args, data, strict=True)) if args else tuple(data)
    if origin is dict:
        key, val = get_args(kind) or (Any, Any)
        return {_key(key, k): _value(val, v) for k, v in data.items()}
    if kind is Any:
        return data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        fields = {f.name for f in dataclasses.fields(kind) if f.init}
        return kind(**{k: _value(hints[k], v) for k, v in data.items() if k in fields})
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(data)
    if kind is float and isinstance(data, int | float):
        return float(data)
    if isinstance(kind, type) and kind in (int, str, bool) and not isinstance(data, kind):
        raise TypeError(f"{data!r} is no {kind.__name__}")
    if isinstance(kind, type) and issubclass(kind, str) and kind is not str:
        return kind(data)  # a str subclass such as StageName
    return data


def _key(kind: Any, key: str) -> Any:
    """A dict key JSON wrote as a string, as its declared type."""
    if kind is int:
        return int(key)
    if kind is float:
        return float(key)
    return _value(kind, key)
