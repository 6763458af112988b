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


_ONE: dict[str, Game] = {}
"""Games imported one at a time by :func:`get` before any full scan (a process that uses one
game, such as a spawned vector-environment worker, imports only that one)."""


def packages() -> list[str]:
    """Names of the game packages, without importing them (a game's id is its package's name
    by convention; :func:`ids` imports every package to be sure)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def _one(game_id: str) -> Game | None:
    """The game ``game_id`` from its own package alone, or ``None`` (no such package, or its
    ``GAME`` has another id, or it fails to import: the full scan then decides and reports)."""
    if game_id in _ONE:
        return _ONE[game_id]
    if _scan.cache_info().currsize or not game_id.isidentifier() \
            or game_id not in packages():
        return None
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except Exception:  # noqa: BLE001 - the full scan records and reports it
        return None
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game) or game.id != game_id:
        return None
    _ONE[game_id] = game
    return game


def import_errors() -> dict[str, str]:
    """Game packages that failed to import, with the error."""
    return dict(_scan()[1])


def ids() -> list[str]:
    """Ids of every registered game."""
    return list(_registry())


def all_games() -> list[Game]:
    return list(_registry().values())


def get(game_id: str) -> Game:
    """The game with this id; the error lists the known ones. Only that game's package is
    imported, unless another call already imported them all."""
    game = _one(game_id)
    if game is not None:
        return game
    try:
        return _registry()[game_id]
    except KeyError:
        if game_id in import_errors():
            raise UnknownGame(f"game {game_id!r} failed to load: "
                              f"{import_errors()[game_id]}") from None
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(ids())}") from None
