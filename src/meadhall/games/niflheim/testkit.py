"""Helpers to set up positions for tests and examples (see docs/formats/niflheim.md)."""

from __future__ import annotations

from typing import Any

from meadhall.games.niflheim.game import GAME
from meadhall.games.niflheim.state import NiflheimState


def position(pos: dict[str, Any], scenario: str = "1", seed: int = 0,
             auto_choices: bool = False) -> NiflheimState:
    """A state from a hand-written position; the setup's heroes are the position's heroes."""
    ids = list(pos.get("heroes", {"frida": {}}))
    if "done" in pos:  # test helpers list every label; keep the scenario's own
        labels = GAME.content.scenarios[scenario].specials
        pos = {**pos, "done": [d for d in pos["done"] if d in labels]}
    if "map" in pos and "spawn" not in pos:
        pos = {**pos, "spawn": spawn_on(pos["map"], scenario)}
    heroes = [h for h in ids if h in GAME.content.characters]
    huskarls = [h for h in ids if h in GAME.content.huskarls]
    setup = {"scenario": scenario, "heroes": heroes, "huskarls": huskarls}
    return GAME.from_json({"game": "niflheim", "setup": setup,
                           "seed": seed, "auto_choices": auto_choices, "position": pos})


def spawn_on(rows: list[str], scenario: str) -> dict[str, list[str]]:
    """Spawn squares for a hand-drawn map: the scenario's where the map has them, else the
    map's closest square a figure can stand on (by range, then reading order). A position
    must name them: the engine refuses a map without its spawn squares (Spawning)."""
    from meadhall.core import grid
    from meadhall.games.niflheim.board import BLOCKS_MOVE

    ok = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch not in BLOCKS_MOVE]

    def on(name: str) -> str:
        q = grid.sq(name)
        if q in ok:
            return name
        best = min(ok, key=lambda o: (grid.manhattan(o, q), o[1], o[0]))
        return grid.name(best)

    sc = GAME.content.scenarios[scenario]
    return {lab: [on(q) for q in squares] for lab, squares in sc.spawn.items()}


def open_map(width: int, height: int, terrain: dict[str, str] | None = None) -> list[str]:
    """A walled-in-nothing clear map with some squares set: {"E5": "%"}."""
    from meadhall.core import grid

    rows = [["."] * width for _ in range(height)]
    for name, ch in (terrain or {}).items():
        x, y = grid.sq(name)
        rows[y][x] = ch
    return ["".join(r) for r in rows]


def legal(s: NiflheimState) -> list[str]:
    return [a.text for a in s.legal_actions()]
