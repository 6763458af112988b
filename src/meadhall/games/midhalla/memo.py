"""What the rules work out again and again from immutable content, worked out once.

Content (``Content``, its catalogue and chapters) never changes while a program runs, so
the dicts its instructions dump to and the names action texts use can be remembered per
content object; each call hands out a fresh copy where the caller may change the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meadhall.core.fastcopy import fastcopy

_DUMPS: dict[int, tuple[Any, list[dict[str, Any]]]] = {}


def dumps(models: Sequence[Any]) -> list[dict[str, Any]]:
    """``[m.model_dump() for m in models]`` for a list of content models: a fresh copy of
    the dicts, dumped once per list (held here with the list, so its id is never reused)."""
    hit = _DUMPS.get(id(models))
    if hit is None or hit[0] is not models:
        hit = _DUMPS[id(models)] = (models, [m.model_dump() for m in models])
    return fastcopy(hit[1])  # type: ignore[no-any-return]


_ONE: dict[int, tuple[Any, dict[str, Any]]] = {}


def dump(model: Any) -> dict[str, Any]:
    """``model.model_dump()`` of one content model, dumped once (a fresh copy each call)."""
    hit = _ONE.get(id(model))
    if hit is None or hit[0] is not model:
        hit = _ONE[id(model)] = (model, model.model_dump())
    return fastcopy(hit[1])  # type: ignore[no-any-return]


_SHORT: dict[int, tuple[Any, dict[str, str]]] = {}


def short_names(cat: Any) -> dict[str, str]:
    """The names action texts use for heroes and followers of the catalogue ``cat``
    ("Harkon" for Harkon the Drengr), by id."""
    hit = _SHORT.get(id(cat))
    if hit is None or hit[0] is not cat:
        names = {k: v.name.split(" the ")[0] for k, v in cat.followers.items()}
        names.update({k: v.name.split(" the ")[0] for k, v in cat.heroes.items()})
        hit = _SHORT[id(cat)] = (cat, names)
    return hit[1]
