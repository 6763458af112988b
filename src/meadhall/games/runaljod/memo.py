"""Caches shared by every state of one content object: values derived from immutable content
and a few fields of a position, remembered for the position's key (searching bots meet the
same few again and again, on copies that never live long)."""

from __future__ import annotations

from typing import Any

_BY_CONTENT: dict[tuple[int, str], tuple[object, dict[Any, Any]]] = {}


def content_cache(content: object, name: str) -> dict[Any, Any]:
    """The cache ``name`` of ``content`` (kept with the content itself, so that a content
    object created later at the same address, as tests build their own, never gets it)."""
    hit = _BY_CONTENT.get((id(content), name))
    if hit is None or hit[0] is not content:
        if len(_BY_CONTENT) > 256:
            _BY_CONTENT.clear()
        hit = _BY_CONTENT[(id(content), name)] = (content, {})
    return hit[1]
