"""The observation layouts of every game's default setup, shipped as package data.

``python -m meadhall.adapters.layouts`` probes each game's default setup afresh and writes
``<game>.json`` here; the first environment of a default setup then loads its layout instead
of playing probe games (tests/adapters check that each file equals a fresh probe). It also
writes ``openspiel.json``, what OpenSpiel's registration needs of each game, so that importing
:mod:`meadhall.adapters.openspiel` imports no game.
"""

from __future__ import annotations

import json
from pathlib import Path

from meadhall import games
from meadhall.adapters.observation import probed, shipped_json, shipped_path
from meadhall.adapters.table import Table


def write(game_id: str) -> Path:
    """Probe ``game_id``'s default setup and write its shipped layout; returns the path."""
    table = Table.of(game_id, None)
    path = shipped_path(game_id)
    path.write_text(json.dumps(shipped_json(table, probed(table)), separators=(",", ":"))
                    + "\n")
    return path


def write_openspiel() -> Path:
    """Write what OpenSpiel's registration needs of every registered game."""
    from meadhall.adapters.openspiel import SHIPPED_FACTS, type_facts

    facts = {g: type_facts(g) for g in games.ids()}
    SHIPPED_FACTS.write_text(json.dumps(facts, indent=1) + "\n")  # setups in their order
    return SHIPPED_FACTS


def write_all() -> list[Path]:
    """Write the shipped layout of every registered game, and OpenSpiel's facts."""
    return [*(write(g) for g in games.ids()), write_openspiel()]
