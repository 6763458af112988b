"""The random bot: picks uniformly among the legal actions (its own generator, never the game's)."""

from __future__ import annotations

from meadhall.core.protocol import Action, GameState
from meadhall.core.rng import Rng


class RandomBot:
    """Uniform choice among legal actions; deterministic for a given seed."""

    spec = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return self.rng.choice(actions)
