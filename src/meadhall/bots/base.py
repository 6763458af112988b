"""What every bot is, and the honest way for a bot to look ahead.

A bot answers any decision of any game through the protocol: ``choose(state) -> Action``. The
party is cooperative, so one bot may answer every hero's decision and the players' choices too.
Bots that search never touch the state they are given: they look ahead on
:func:`search_copy`, a determinized copy whose hidden information and future dice are resampled
from the bot's own generator, so that nothing the players cannot see can steer a choice.
"""

from __future__ import annotations

import hashlib
from typing import Protocol, runtime_checkable

from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Action, Game, GameState
from meadhall.core.rng import Rng

FOLLOW_DEFAULTS = 64
"""How many players'-choice defaults a look-ahead follows before it evaluates."""


class BotError(MeadhallError):
    """A bot that cannot be built or cannot answer (a bad spec, a finished game)."""


@runtime_checkable
class Bot(Protocol):
    """A player for any seat: picks one of ``state.legal_actions()``.

    ``spec`` is the text that builds it again (``heuristic``, ``mcts:200``); a bot built from
    the same spec and seed makes the same choices in the same positions (except bots with a
    budget in seconds, whose search depends on the machine's speed).
    """

    spec: str

    def choose(self, state: GameState) -> Action: ...


def legal_or_fail(state: GameState) -> list[Action]:
    """The legal actions, or a clear error when there is nothing to decide."""
    actions = state.legal_actions()
    if not actions:
        raise BotError(f"{state.game}: no legal action, the game is over "
                       f"({state.outcome().reason})")
    return actions


def search_copy(state: GameState, rng: Rng) -> GameState:
    """A copy to look ahead on: hidden information resampled, the generator reseeded from
    ``rng``, and chance always seeded (a table-mode game is searched with imagined dice).

    The copy is scratch paper: its steps keep no undo checkpoint and it starts an empty log
    (no rule reads the log), so that looking ahead costs no more than playing; an error
    leaves it broken, and the bot raises it."""
    copy = state.determinize(rng)
    copy.chance.mode = "seeded"
    copy.chance.queue.clear()
    copy._scratch = True
    copy.log = []
    return copy


def follow_defaults(state: GameState, limit: int = FOLLOW_DEFAULTS) -> None:
    """Take the automatic default of players' choices (as ``auto_choices`` would) until a
    hero decides or the game ends, so a look-ahead is evaluated at a settled position."""
    for _ in range(limit):
        if state.take_default() is None:
            return


def game_of(state: GameState) -> Game:
    """The registered game a state belongs to (its ``evaluate`` and ``order_actions``)."""
    from meadhall import games

    return games.get(state.game)


class Repetition:
    """What a bot chose in each position it decided in, so that coming back to the same
    position (as everyone sees it, with the same decision) it tries something else: free
    actions that undo each other, such as giving an item back and forth, cannot loop forever.
    When every action has been tried there, all are allowed again."""

    def __init__(self) -> None:
        self.tried: dict[bytes, set[str]] = {}

    @staticmethod
    def key(state: GameState) -> bytes:
        return hashlib.blake2b(state.repetition_text().encode(), digest_size=16).digest()

    def allowed(self, state: GameState, actions: list[Action], key: bytes | None = None
                ) -> list[Action]:
        """The actions not yet chosen in this position (all of them if none is left);
        ``key`` is the position's :meth:`key` when the caller has it already."""
        tried = self.tried.get(key or self.key(state))
        if not tried:
            return actions
        fresh = [a for a in actions if a.text not in tried]
        return fresh or actions

    def record(self, state: GameState, action: Action, key: bytes | None = None) -> None:
        self.tried.setdefault(key or self.key(state), set()).add(action.text)
