"""What-ifs: play a game whose content differs in a few values (``undead.draugr.mv=2``).

Content models are frozen and shared by every state, so an override never touches them: it
builds a new content object in which only the models on the path are rebuilt (and re-validated,
so a bad value is refused with the schema's reason), and a new :class:`Game` object that serves
this content. Everything else is shared with the original.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from meadhall.core.content import validate
from meadhall.core.errors import ContentError
from meadhall.core.protocol import Game

Override = tuple[str, Any]
"""A content path (dots between fields, keys and list indices) and the value it gets."""

SOURCE = "--content"


def parse_value(raw: str) -> Any:
    """A command-line value: JSON when it parses (``2``, ``1.5``, ``true``, ``[1,2]``), else
    the text itself."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_override(text: str, source: str = SOURCE) -> Override:
    """``PATH=VALUE`` as a path and a parsed value.

    >>> parse_override("undead.draugr.mv=2")
    ('undead.draugr.mv', 2)
    """
    path, sep, raw = text.partition("=")
    path = path.strip()
    if not sep or not path or any(not p for p in path.split(".")):
        raise ContentError(source, text, "expected PATH=VALUE, e.g. undead.draugr.mv=2")
    return path, parse_value(raw.strip())


def _describe_keys(keys: Iterable[Any], limit: int = 12) -> str:
    names = [str(k) for k in keys]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _child(obj: Any, seg: str, where: str, path: str) -> Any:
    if isinstance(obj, BaseModel):
        fields = type(obj).model_fields
        if seg not in fields:
            raise ContentError(SOURCE, path, f"{where or 'the content'} has no field {seg!r}; "
                               f"fields: {_describe_keys(fields)}")
        return getattr(obj, seg)
    if isinstance(obj, Mapping):
        for k in obj:
            if str(k) == seg:
                return obj[k]
        raise ContentError(SOURCE, path, f"{where or 'the content'} has no key {seg!r}; "
                           f"keys: {_describe_keys(obj)}")
    if isinstance(obj, Sequence) and not isinstance(obj, str):
        if not seg.lstrip("-").isdigit() or not -len(obj) <= int(seg) < len(obj):
            raise ContentError(SOURCE, path, f"{where} is a list of {len(obj)}; {seg!r} is not "
                               "an index in it")
        return obj[int(seg)]
    raise ContentError(SOURCE, path, f"{where} is a value ({obj!r}), not a table with {seg!r}")


def get_value(content: Any, path: str) -> Any:
    """The content value at ``path`` (for reports: the value before an override)."""
    obj = content
    done: list[str] = []
    for seg in path.split("."):
        obj = _child(obj, seg, ".".join(done), path)
        done.append(seg)
    return obj


def _coerce(old: Any, new: Any) -> Any:
    # A text field given a value that looks like JSON ("1", "true") keeps the text.
    if isinstance(old, str) and isinstance(new, (int, float, bool)):
        return json.dumps(new)
    return new


def _replace(obj: Any, segs: list[str], value: Any, done: list[str], path: str) -> Any:
    seg = segs[0]
    old = _child(obj, seg, ".".join(done), path)
    new = _coerce(old, value) if len(segs) == 1 else _replace(old, segs[1:], value,
                                                             [*done, seg], path)
    if isinstance(obj, BaseModel):
        fields = type(obj).model_fields
        data = {(f.alias or name): (new if name == seg else getattr(obj, name))
                for name, f in fields.items()}
        try:
            return validate(type(obj), data, SOURCE)
        except ContentError as e:
            inner = "" if e.field == seg else f"{e.field}: "
            raise ContentError(SOURCE, path, f"{inner}{e.reason}") from None
    if isinstance(obj, Mapping):
        key = next(k for k in obj if str(k) == seg)
        return {**obj, key: new}
    items = list(obj)
    items[int(seg)] = new
    return type(obj)(items) if isinstance(obj, tuple) else items


def apply_overrides(content: Any, overrides: Iterable[Override]) -> Any:
    """A copy of ``content`` with each ``(path, value)`` set, re-validated along each path;
    ``content`` itself is never changed."""
    out = content
    for path, value in overrides:
        out = _replace(out, path.split("."), value, [], path)
    return out


def authored(content: Any, path: str) -> bool | None:
    """Whether the value at ``path`` is authored stand-in content (not printed in the
    rulebook): the ``authored`` mark of the deepest model on the path that has one, or
    ``None`` when no model on the path says."""
    obj = content
    found: bool | None = None
    segs = path.split(".")
    for i, seg in enumerate(segs):
        if isinstance(obj, BaseModel) and "authored" in type(obj).model_fields:
            mark = obj.authored  # type: ignore[attr-defined]
            if isinstance(mark, bool):
                found = mark
            elif isinstance(mark, (list, tuple, set)):
                found = seg in mark or ".".join(segs[i:]) in mark
        obj = _child(obj, seg, ".".join(segs[:i]), path)
    return found


def with_content(game: Game, content: Any) -> Game:
    """A new object of ``game``'s class serving ``content`` (its own caches start empty).

    Registered games are built without arguments (``GAME = NiflheimGame()``), which is what
    this relies on; the original game object is left as it was.
    """
    fresh = type(game)()
    fresh.__dict__["_content"] = content
    return fresh


_CACHE: dict[tuple[str, str], Game] = {}


def game_for(game_id: str, overrides: Sequence[Override] = ()) -> Game:
    """The registered game, or a copy of it whose content has ``overrides`` (cached per
    process, so a worker builds each variant once)."""
    from meadhall import games

    game = games.get(game_id)
    if not overrides:
        return game
    key = (game_id, json.dumps(list(overrides), sort_keys=True))
    cached = _CACHE.get(key)
    if cached is None:
        cached = _CACHE[key] = with_content(game, apply_overrides(game.content, overrides))
    return cached
