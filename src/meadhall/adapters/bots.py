"""The bots that play the seats an agent does not (Gymnasium's other seats).

``others`` is a bot spec (``"random"``, ``"heuristic"``, ``"mcts:200"``: whatever
:mod:`meadhall.bots` offers), a bot object with ``choose(state) -> Action``, or a callable
``state -> Action | str``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Protocol

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Action, GameState


class Bot(Protocol):
    """Anything that picks a legal action for the current decision."""

    def choose(self, state: GameState) -> Action: ...


class _CallableBot:
    def __init__(self, fn: Callable[[GameState], Action | str]) -> None:
        self.fn = fn

    def choose(self, state: GameState) -> Action:
        a = self.fn(state)
        return a if isinstance(a, Action) else Action(str(a))


Others = str | Bot | Callable[[GameState], Action | str]


def make_bot(others: Any, seed: int) -> Bot:
    """A bot for ``others`` seeded with ``seed`` (specs), or ``others`` itself (objects)."""
    if hasattr(others, "choose"):
        return others
    if callable(others):
        return _CallableBot(others)
    if not isinstance(others, str) or not others:
        raise ValueError(f"others must be a bot spec such as 'random' or 'heuristic', a bot "
                         f"with choose(state), or a function of the state, not {others!r}")
    if others == "random":
        return RandomBot(seed)
    if others.split(":", 1)[0] in ("heuristic", "mcts"):
        # meadhall.bots has only the random bot so far; the heuristic and MCTS bots are being
        # written. Until they land, say so loudly and play the other seats at random.
        warnings.warn(f"the {others!r} bot is not available yet in meadhall.bots: the other "
                      "seats play at random", stacklevel=3)
        return RandomBot(seed)
    raise ValueError(f"unknown bot {others!r}: use 'random', 'heuristic' or 'mcts:N'")
