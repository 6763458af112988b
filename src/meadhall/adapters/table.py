"""A game and setup as the RL ecosystems see it: seats as agents, and who answers each decision.

The agents are the people's seats (``GameState.seats()``). A hero's decision goes to the seat
that plays the hero (``seat_of``). A players' choice (decision seat ``players``: a tie in an
enemy's move, a spawn square) is answered by one seat, ``choices_by`` — the first seat unless
another is named — or, with ``choices_by="default"``, the engine takes its automatic default
(players' choices without a default still go to the first seat). Table-mode chance decisions
belong to nobody: OpenSpiel's chance player answers them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meadhall import games
from meadhall.core.chance import ChanceMode
from meadhall.core.protocol import CHANCE, PLAYERS, Decision, Game, GameState

DEFAULT_CHOICES = "default"
"""``choices_by`` value: the engine takes each players' choice's automatic default."""


class TableError(ValueError):
    """A bad adapter argument (unknown seat, bad step limit); one line naming the problem."""


@dataclass(frozen=True)
class Table:
    """The seats of a game with a setup, and the rule for who answers players' choices."""

    game: Game
    setup: dict[str, Any]
    seats: tuple[str, ...]
    choices_seat: str
    auto_choices: bool
    heroes: Mapping[str, frozenset[str]]
    """Per seat, the ids of the heroes it plays (to mark its own figures in observations)."""

    @classmethod
    def of(cls, game: str | Game, setup: Mapping[str, Any] | None = None,
           choices_by: str | None = None) -> Table:
        """The table for ``game`` with ``setup`` (completed with the game's defaults)."""
        g = games.get(game) if isinstance(game, str) else game
        full = g.normalise_setup(setup)
        probe = g.new_game(full, 0)
        seats = tuple(probe.seats())
        if not seats:
            raise TableError(f"{g.id}: the setup {full} has no seat to play")
        if choices_by in (None, DEFAULT_CHOICES):
            choices_seat = seats[0]
        elif choices_by in seats:
            choices_seat = choices_by
        else:
            raise TableError(f"choices_by must be one of the seats ({', '.join(seats)}) or "
                             f"{DEFAULT_CHOICES!r}, not {choices_by!r}")
        ids = set(seats) | {str(h) for h in full.get("heroes", [])}
        heroes = {s: frozenset(h for h in ids if probe.seat_of(h) == s) for s in seats}
        return cls(g, full, seats, choices_seat, choices_by == DEFAULT_CHOICES, heroes)

    def new_state(self, seed: int, chance: ChanceMode = "seeded") -> GameState:
        """A new game of this setup (players' choices automatic when ``choices_by='default'``)."""
        return self.game.new_game(self.setup, seed, chance=chance, auto_choices=self.auto_choices)

    def decider(self, state: GameState) -> str | None:
        """The seat that answers the current decision, :data:`CHANCE` for a table-mode result,
        or ``None`` when the game is over."""
        return self.decider_of(state, state.decision())

    def decider_of(self, state: GameState, d: Decision | None) -> str | None:
        """:meth:`decider` when the caller has ``state.decision()`` already."""
        if d is None:
            return None
        if d.seat == CHANCE:
            return CHANCE
        if d.seat == PLAYERS:
            return self.choices_seat
        seat = state.seat_of(d.seat)
        if seat not in self.seats:
            raise TableError(f"{self.game.id}: decision seat {d.seat!r} maps to {seat!r}, "
                             f"which is not one of the seats {self.seats}")
        return seat

    def returns(self, state: GameState) -> float:
        """The party's shared result: +1 won, -1 lost, 0 while the game goes on (or was cut)."""
        result = state.outcome().result
        return 1.0 if result == "win" else -1.0 if result == "loss" else 0.0
