"""A copier for game states: far cheaper than :func:`copy.deepcopy`, sharing what is immutable.

Handles the building blocks states are made of: primitives, lists, dicts, sets, tuples,
slotted/plain dataclasses and objects with a ``clone()`` method. Objects whose class sets
``__shared__ = True`` (content: maps, cards, figures) are shared, never copied; a class may
give its own copy function as a static method ``__fastcopy__``.

Each type gets its own copy function the first time it is seen (dataclasses get one generated
from their fields), so a copy is one dictionary lookup per object plus the copy itself.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Hero:
...     name: str
...     wounds: list[int] = field(default_factory=list)
>>> a = Hero("Frida", [1]); b = fastcopy(a)
>>> b.wounds.append(2); a.wounds, b.wounds, b.name is a.name
([1], [1, 2], True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

_ATOMIC = frozenset({int, float, str, bool, type(None), bytes, frozenset, complex, range})
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def fastcopy(obj: Any) -> Any:
    """An independent copy of ``obj`` that shares every immutable part."""
    f = _COPIERS.get(obj.__class__)
    if f is None:
        f = _copier(obj.__class__, obj)
    return f(obj)


def _same(obj: Any) -> Any:
    return obj


def _list(obj: list[Any]) -> list[Any]:
    new = obj.copy()
    for i, x in enumerate(new):
        if x.__class__ not in _ATOMIC:
            # A copy made in C, with only its mutable items replaced: most lists hold
            # numbers and names.
            f = _COPIERS.get(x.__class__) or _copier(x.__class__, x)
            new[i] = f(x)
    return new


def _dict(obj: dict[Any, Any]) -> dict[Any, Any]:
    new = obj.copy()
    for k, v in new.items():
        if v.__class__ not in _ATOMIC:
            f = _COPIERS.get(v.__class__) or _copier(v.__class__, v)
            new[k] = f(v)  # replacing a value keeps the dict's size: iterating stays valid
    return new


def _tuple(obj: tuple[Any, ...]) -> tuple[Any, ...]:
    for x in obj:
        if x.__class__ not in _ATOMIC:
            return tuple(fastcopy(y) for y in obj)
    return obj  # a tuple of immutable values is itself immutable


def _set(obj: set[Any]) -> set[Any]:
    for x in obj:
        if x.__class__ not in _ATOMIC and x.__class__ is not tuple:
            return {fastcopy(y) for y in obj}
    return set(obj)


def _with_clone(obj: Any) -> Any:
    return obj.clone()


def _dataclass_copier(t: type) -> Callable[[Any], Any]:
    """Generate a copy function for one dataclass: one line per field, no reflection."""
    names = [f.name for f in fields(t)]  # type: ignore[arg-type]
    params = getattr(t, "__dataclass_params__", None)
    frozen = bool(params and params.frozen)
    slotted = "__slots__" in t.__dict__
    lines = ["def copy(o):", "    n = _new(T)"]
    for i, name in enumerate(names):
        lines.append(f"    v{i} = o.{name}")
        value = f"(v{i} if v{i}.__class__ in A else fc(v{i}))"
        if frozen:
            lines.append(f"    _setattr(n, {name!r}, {value})")
        elif slotted:
            lines.append(f"    n.{name} = {value}")
        else:
            lines.append(f"    n.__dict__[{name!r}] = {value}")
    if not slotted and not frozen:
        # attributes set outside the fields (caches, extras) are copied too
        lines.append("    extra = o.__dict__.keys() - FIELDS")
        lines.append("    for k in extra:")
        lines.append("        v = o.__dict__[k]")
        lines.append("        n.__dict__[k] = v if v.__class__ in A else fc(v)")
    lines.append("    return n")
    env: dict[str, Any] = {"_new": object.__new__, "T": t, "A": _ATOMIC, "fc": fastcopy,
                           "_setattr": object.__setattr__, "FIELDS": frozenset(names)}
    exec("\n".join(lines), env)  # noqa: S102 - generated from the class's own field names
    return env["copy"]  # type: ignore[no-any-return]


def _copier(t: type, sample: Any) -> Callable[[Any], Any]:
    f: Callable[[Any], Any]
    if t in _ATOMIC or getattr(t, "__shared__", False):
        f = _same
    elif "__fastcopy__" in t.__dict__:  # a class's own copier (it knows its fields' types)
        f = t.__dict__["__fastcopy__"]
    elif t is list:
        f = _list
    elif t is dict:
        f = _dict
    elif t is tuple:
        f = _tuple
    elif t is set:
        f = _set
    elif is_dataclass(sample):
        f = _dataclass_copier(t)
    elif callable(getattr(sample, "clone", None)):
        f = _with_clone
    elif isinstance(sample, tuple):  # named tuples of immutable values
        f = _same
    else:
        raise TypeError(f"fastcopy does not know how to copy {t.__name__}")
    _COPIERS[t] = f
    return f
