"""A copier for game states: far cheaper than :func:`copy.deepcopy`, sharing what is immutable.

Handles the building blocks states are made of: primitives, lists, dicts, sets, tuples,
slotted/plain dataclasses and objects with a ``clone()`` method. Objects whose class sets
``__shared__ = True`` (content: maps, cards, figures) are shared, never copied.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

_ATOMIC = (int, float, str, bool, type(None), bytes, frozenset)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _names(t: type) -> tuple[str, ...]:
    names = _FIELDS.get(t)
    if names is None:
        names = tuple(f.name for f in fields(t))  # type: ignore[arg-type]
        _FIELDS[t] = names
    return names


def fastcopy(obj: Any) -> Any:
    t = type(obj)
    if t in _ATOMIC or getattr(t, "__shared__", False):
        return obj
    if t is list:
        return [x if type(x) in _ATOMIC else fastcopy(x) for x in obj]
    if t is dict:
        return {k: (v if type(v) in _ATOMIC else fastcopy(v)) for k, v in obj.items()}
    if t is tuple:
        return tuple(fastcopy(x) for x in obj)
    if t is set:
        return set(obj) if all(type(x) in _ATOMIC or type(x) is tuple for x in obj) else {
            fastcopy(x) for x in obj}
    if is_dataclass(obj):
        new = object.__new__(t)
        for n in _names(t):
            v = getattr(obj, n)
            object.__setattr__(new, n, v if type(v) in _ATOMIC else fastcopy(v))
        return new
    clone = getattr(obj, "clone", None)
    if clone is not None:
        return clone()
    if isinstance(obj, tuple):  # named tuples
        return obj
    raise TypeError(f"fastcopy does not know how to copy {t.__name__}")
