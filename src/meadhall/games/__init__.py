"""The registry of games: ``meadhall.games.get("niflheim")``.

Each game is a subpackage of :mod:`meadhall.games` that exposes ``GAME``, an instance of
:class:`meadhall.core.protocol.Game`. Games never import each other.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Game


class UnknownGame(MeadhallError):  # noqa: N818
    pass


@cache
def _registry() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not mod.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.id] = game
    return games


def ids() -> list[str]:
    """Ids of every registered game."""
    return list(_registry())


def all_games() -> list[Game]:
    return list(_registry().values())


def get(game_id: str) -> Game:
    """The game with this id; the error lists the known ones."""
    try:
        return _registry()[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(ids())}") from None
