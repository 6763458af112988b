"""The games and short setups every adapter test runs with (see conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NO_VOCABULARY_YET: set[str] = {"niflheim", "battleforge", "midhalla", "runaljod"}
"""Games still without ``Game.action_vocabulary`` (remove a game as soon as it lands)."""
NO_DRAWING_YET: set[str] = {"runaljod"}
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
