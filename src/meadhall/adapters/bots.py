"""The bots that play the seats an agent does not (Gymnasium's other seats).

``others`` is a bot spec (``"random"``, ``"heuristic"``, ``"mcts:200"``: whatever
:mod:`meadhall.bots` offers), a bot object with ``choose(state) -> Action``, or a callable
``state -> Action | str``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meadhall.bots import Bot
from meadhall.bots import make_bot as registered_bot
from meadhall.core.protocol import Action, Game, GameState


class _CallableBot:
    """A function of the state, as a bot."""

    spec = "function"

    def __init__(self, fn: Callable[[GameState], Action | str]) -> None:
        self.fn = fn

    def choose(self, state: GameState) -> Action:
        a = self.fn(state)
        return a if isinstance(a, Action) else Action(str(a))


Others = str | Bot | Callable[[GameState], Action | str]


def make_bot(others: Any, seed: int, game: Game | None = None) -> Bot:
    """A bot for ``others``: a spec built by :func:`meadhall.bots.make_bot` with ``seed`` (and
    ``game``'s evaluation), or ``others`` itself when it is a bot or a function."""
    if hasattr(others, "choose"):
        return others  # type: ignore[no-any-return]
    if callable(others):
        return _CallableBot(others)
    if not isinstance(others, str) or not others:
        raise ValueError(f"others must be a bot spec such as 'random' or 'heuristic', a bot "
                         f"with choose(state), or a function of the state, not {others!r}")
    return registered_bot(others, seed, game)
