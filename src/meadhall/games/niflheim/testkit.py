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
    heroes = [h for h in ids if h in GAME.content.characters]
    huskarls = [h for h in ids if h in GAME.content.huskarls]
    setup = {"scenario": scenario, "heroes": heroes, "huskarls": huskarls}
    return GAME.from_json({"game": "niflheim", "setup": setup,
                           "seed": seed, "auto_choices": auto_choices, "position": pos})


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
