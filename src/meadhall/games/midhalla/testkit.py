"""Helpers to write Midhalla positions by hand (tests, docs): a board from a layout."""

from __future__ import annotations

from typing import Any

from meadhall.games.midhalla.board import DELTA

ID = "midhalla"


def layout(at: dict[str, tuple[int, int]], links: list[tuple[str, str]],
           fortified: set[str] | frozenset[str] = frozenset(),
           **extra: dict[str, Any]) -> dict[str, Any]:
    """Tiles for a position: ``at`` positions, ``links`` between orthogonal neighbours (sides
    are worked out from the positions), ``extra[tile]`` merged into a tile (token, curses)."""
    tiles: dict[str, Any] = {t: {"at": list(xy), "links": {}} for t, xy in at.items()}
    for a, b in links:
        (ax, ay), (bx, by) = at[a], at[b]
        side = next(s for s, d in DELTA.items() if d == (bx - ax, by - ay))
        back = next(s for s, d in DELTA.items() if d == (ax - bx, ay - by))
        tiles[a]["links"][side] = b
        tiles[b]["links"][back] = a
    for t in fortified:
        tiles[t]["fortified"] = True
    for t, more in extra.items():
        tiles[t].update(more)
    return tiles


def paused(setup: dict[str, Any] | None = None, seed: int = 0, **pos: Any) -> Any:
    """A state built from a hand-written position *between* decisions, without the load-time
    checks and without running to a decision: the test then starts the step it examines
    (:func:`combat`, :func:`run`). Positions a player loads go through ``from_json``."""
    from meadhall import games

    g = games.get(ID)
    pos.setdefault("gifts", [])
    pos.setdefault("choice", None)
    st = g.blank_state(g.normalise_setup(setup or {"scenario": "chapter1",
                                                   "heroes": ["harkon", "enyk"]}), seed)
    st._load(pos, checked=False)
    return st


def position(setup: dict[str, Any] | None = None, seed: int = 0,
             **pos: Any) -> dict[str, Any]:
    """A loadable save: ``game.from_json(position(phase="preparation", tiles=...))``."""
    pos.setdefault("gifts", [])
    return {"game": ID, "setup": setup or {"scenario": "chapter1", "heroes": ["harkon", "enyk"]},
            "seed": seed, "position": pos}


# The nine map tiles of the rulebook's TAO example (the gate is tile "1" -> "G").
TAO_EXAMPLE_AT = {"G": (0, 0), "2": (1, 0), "3": (2, 0), "4": (2, 1), "5": (3, 1),
                  "6": (2, 2), "7": (2, 3), "8": (-1, 0), "9": (-2, 0)}
TAO_EXAMPLE_LINKS = [("9", "8"), ("8", "G"), ("G", "2"), ("2", "3"), ("3", "4"), ("4", "5"),
                     ("4", "6"), ("6", "7")]


def line(n: int, fortified: int = 1) -> dict[str, Any]:
    """A straight corridor G - t1 - t2 - ... - t<n> to the east; G and the first
    ``fortified - 1`` tiles are fortified."""
    at = {"G": (0, 0), **{f"t{i}": (i, 0) for i in range(1, n + 1)}}
    names = list(at)
    links = list(zip(names, names[1:], strict=False))
    return layout(at, links, set(names[:fortified]))


def run(st: Any, events: list[Any] | None = None) -> list[Any]:
    """Run the automated steps of a hand-built state up to its next decision."""
    ev: list[Any] = [] if events is None else events
    st.choice = None
    st._advance(ev)
    return ev


def combat(st: Any, step: str = "enemies") -> list[Any]:
    """Start combat step ``enemies``/``traps``/``heroes`` of a hand-built state."""
    ev: list[Any] = []
    st.phase = "combat"
    st.choice = None
    st._begin_step(step, ev)
    st._advance(ev)
    return ev


def legal(st: Any) -> list[str]:
    return [a.text for a in st.legal_actions()]
