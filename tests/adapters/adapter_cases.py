"""The games and short setups every adapter test runs with (see conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meadhall import games
from meadhall.core.protocol import Game

NO_VOCABULARY_YET: set[str] = {
    g.id for g in games.all_games() if type(g).action_vocabulary is Game.action_vocabulary}
"""Games still without their own ``Game.action_vocabulary`` (their tests are strict xfails)."""
NO_DRAWING_YET: set[str] = {g.id for g in games.all_games() if type(g).draw is Game.draw}
"""Games still without ``Game.draw`` (their observation would hold no board, track or panel)."""


@dataclass(frozen=True)
class Case:
    """A game with a short setup for the ecosystems' checkers."""

    game: str
    setup: dict[str, Any] | None
    max_steps: int
    """Decisions after which long games are cut, keeping the checkers' runs short."""


SETUPS: dict[str, dict[str, Any]] = {
    "niflheim": {"scenario": "1"},
    "toy": {"scenario": "chase", "heroes": ["ada", "bo"]},
}
