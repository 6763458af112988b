"""What the lobby and ``GET /api/games`` say about each game: scenarios, heroes, and the setup
keys a newcomer can set, with their defaults.

The setup keys are the game's default setup plus each of meadhall's optional setup keys
(:data:`OPTIONS`: ``campaign``, ``players``) that the game's setup accepts: the game is asked to
set up with the key, and the key is offered when it does. So a game whose setup model takes
``campaign`` offers it even when its default setup leaves it out, and no game id is named.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from meadhall import games
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Game


@dataclass(frozen=True, slots=True)
class Option:
    """An optional setup key the lobby offers when a game's setup accepts ``probe`` for it:
    shown with ``default`` (``None``: left out unless filled in) and a sentence of help."""

    probe: Any
    default: Any
    help: str


OPTIONS: dict[str, Option] = {
    "campaign": Option(True, False, "Campaign: one table plays the scenarios in order, with "
                                    "the party's sheet and the stages between them"),
    "players": Option(1, None, "Players (empty: the usual count; fewer players than heroes "
                               "share them)"),
}
"""meadhall's optional setup keys (``campaign``, ``players``)."""
FLAGS = {k: o.help for k, o in OPTIONS.items()}


def accepts(game: Game, key: str, value: Any) -> bool:
    """Whether ``game`` sets up with ``key`` = ``value`` added to its default setup (and
    keeps it): its setup model knows the key and the value suits it."""
    try:
        state = game.blank_state(game.normalise_setup({key: value}), 0)
    except (MeadhallError, KeyError, TypeError, ValueError):
        return False
    return bool(state.setup.get(key) == value)


@functools.cache
def setup_keys(game_id: str) -> tuple[tuple[str, Any], ...]:
    """The setup keys offered for a game, with their defaults, in the default setup's order
    and then the accepted flags (off)."""
    g = games.get(game_id)
    keys = dict(g.default_setup())
    for key, option in OPTIONS.items():
        if key not in keys and accepts(g, key, option.probe):
            keys[key] = option.default
    return tuple(keys.items())


def game_info(g: Game) -> dict[str, Any]:
    """One game as the lobby and ``GET /api/games`` describe it."""
    setup = dict(setup_keys(g.id))
    return {"id": g.id, "title": g.title,
            "scenarios": [{"id": s.id, "name": s.name, "note": s.note} for s in g.scenarios()],
            "heroes": [{"id": h.id, "name": h.name, "note": h.note} for h in g.heroes()],
            "setup": setup,
            "help": {k: v for k, v in FLAGS.items() if k in setup}}


def all_info() -> list[dict[str, Any]]:
    """Every registered game, as :func:`game_info` describes it."""
    return [game_info(g) for g in games.all_games()]
