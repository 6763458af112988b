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
def _scan() -> tuple[dict[str, Game], dict[str, str]]:
    """Import every game package; a package that fails to import is recorded, not fatal, so
    one broken game never takes the others down (the test suite fails on any recorded error)."""
    found: dict[str, Game] = {}
    broken: dict[str, str] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not mod.ispkg:
            continue
        try:
            module = importlib.import_module(f"{__name__}.{mod.name}")
        except Exception as e:  # noqa: BLE001 - reported by get() and import_errors()
            broken[mod.name] = f"{type(e).__name__}: {e}"
            continue
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return found, broken


def _registry() -> dict[str, Game]:
    return _scan()[0]


def import_errors() -> dict[str, str]:
    """Game packages that failed to import, with the error."""
    return dict(_scan()[1])


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
        if game_id in import_errors():
            raise UnknownGame(f"game {game_id!r} failed to load: "
                              f"{import_errors()[game_id]}") from None
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(ids())}") from None
