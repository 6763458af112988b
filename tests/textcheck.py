"""What an identifier looks like in a text a player reads, and where those texts come from.

Every text a player reads (action labels, event sentences, decision prompts, the drawn scene's
titles, labels, notes and cards, outcomes, the lobby's scenario and hero names, error messages)
is for people: no ``snake_case``, no dotted ids (``harkon.item.throwing_axe``), no kebab ids
(``keep-the-roll``, ``frida-running``), no bare content codes (``chapter1``, ``ai3``) and no
lowercase content ids (``frida``). :func:`id_leaks` finds them; the protocol-level walk
(``tests/games/test_texts_for_people.py``) and the browser tests use it.

>>> id_leaks("Frida moves to E4 (2 MP)")
[]
>>> id_leaks("keep-the-roll 3 · frida-running 6 MP", known={"frida"})
['kebab id: keep-the-roll', 'kebab id: frida-running']
>>> id_leaks("harkon.item.throwing_axe, chapter1")
['dotted id: harkon.item.throwing_axe', 'snake_case: throwing_axe', 'content code: chapter1']
>>> id_leaks("Waiting for frida", known={"frida"})
['content id: frida']
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable, Iterator
from typing import Any

SNAKE = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
DOTTED = re.compile(r"\b[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+\b")
KEBAB = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
CODE = re.compile(r"\b[a-z]+\d+[a-z0-9]*\b")
KEYED = re.compile(r"\b[a-z][a-z_]*:[a-z0-9_]+\b")
"""``damage:1``, ``gain_runestones:2``: a key and its value as the data write them."""
WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?![\w-])")

DOTTED_OK = frozenset({"e.g", "i.e"})
CODE_OK = re.compile(r"^(d\d+|x\d+)$")
"""Dice (``d12``) and counts (``x2``) are how players write them."""
HYPHEN_PREFIXES = frozenset({
    "re", "non", "co", "pre", "self", "half", "one", "two", "three", "four", "five", "six",
    "face", "off", "zero", "well", "close", "full", "double", "single", "multi", "left",
    "right", "top", "bottom", "far", "near", "long", "short", "ever", "all", "first", "second",
    "third", "last", "next", "hand", "line", "area", "cross", "counter", "mid",
    "over", "under", "head", "slow", "stun", "fire", "frost", "ice", "war", "shield", "spawn",
    "end", "out", "up", "down", "in", "on", "semi", "sure", "hit", "free", "so", "life",
    "stand", "north", "south", "east", "west", "x",
})
"""First halves of hyphenated English words (``re-roll``, ``face-down``, ``one-handed``); any
other two-part kebab word, any with three parts or a digit is an id."""
COMMON_WORDS = frozenset({"archer", "warrior", "berserk", "hunter", "chase", "open",
                          "adventure", "volva"})
"""Content ids that are also ordinary lowercase words in a sentence (``the hunter``)."""


def id_leaks(text: str, known: Iterable[str] = ()) -> list[str]:
    """Each identifier-looking word in ``text``, named with what it looks like; ``known`` are
    the game's content ids (hero, scenario ids) that must never appear in lowercase."""
    out: list[str] = []
    for m in DOTTED.finditer(text):
        if m.group() not in DOTTED_OK:
            out.append(f"dotted id: {m.group()}")
    out += [f"snake_case: {m.group()}" for m in SNAKE.finditer(text)]
    known = {k for k in known if k and k.islower()}
    for m in KEBAB.finditer(text):
        parts = m.group().split("-")
        if (len(parts) > 2 or any(c.isdigit() for c in m.group())
                or any(p in known for p in parts) or parts[0] not in HYPHEN_PREFIXES):
            out.append(f"kebab id: {m.group()}")
    out += [f"keyed id: {m.group()}" for m in KEYED.finditer(text)]
    out += [f"content code: {m.group()}" for m in CODE.finditer(text)
            if not CODE_OK.match(m.group())]
    out += [f"content id: {m.group()}" for m in WORD.finditer(text)
            if m.group() in known and m.group() not in COMMON_WORDS]
    return out


def known_ids(game: Any) -> set[str]:
    """A game's hero and scenario ids (the setup's names for them)."""
    return {i.id for i in [*game.scenarios(), *game.heroes()]}


_SKIP_FIELDS = frozenset({
    "id", "target", "kind", "colour", "terrain", "at", "cells", "a", "b", "key", "seat",
    "pattern", "offset", "glyph", "face_down", "closed", "facing", "hp", "max_hp", "value",
    "cyclic", "x", "y", "slots", "modifier", "directed", "cols", "rows"})
"""Scene fields that are references or numbers, never shown as words."""


def scene_texts(obj: Any, where: str = "scene") -> Iterator[tuple[str, str]]:
    """Every text a drawn :class:`~meadhall.core.draw.Scene` shows: ``(where, text)``."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name not in _SKIP_FIELDS:
                yield from scene_texts(getattr(obj, f.name), f"{where}.{f.name}")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{where}[key]", str(k)
            yield from scene_texts(v, f"{where}[{k}]")
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from scene_texts(v, where)
    elif isinstance(obj, str):
        yield where, obj


def walk_texts(game: Any, setup: dict[str, Any], seed: int, steps: int,
               draw_every: int = 4) -> Iterator[tuple[str, str]]:
    """Play a random game and yield every text a player reads on the way: ``(where, text)``.

    The drawn scene is read every ``draw_every`` steps (for the deciding seat and for a
    spectator), and at the end."""
    state, events = game.start(setup, seed)
    rng = random.Random(seed)
    for e in events:
        yield "event", e.text
    for step in range(steps):
        d = state.decision()
        if d is None:
            break
        yield "prompt", d.prompt
        acts = state.described_actions()
        for a in acts:
            yield f"label of {a.text!r}", a.label or a.text
            for t in a.targets:
                if t.note:
                    yield f"note of {a.text!r}", t.note
        if step % draw_every == 0:
            for seat in (None, state.seat_of(d.seat)):
                yield from scene_texts(game.draw(state.view(seat)))
        for e in state.apply(rng.choice(acts)):
            yield "event", e.text
    o = state.outcome()
    if o.reason:
        yield "outcome", o.reason
    yield from scene_texts(game.draw(state.view(None)))
