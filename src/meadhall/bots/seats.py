"""Bots in people's seats: which bot answers the decision at hand, for any front end.

A hero's decision goes to the seat that controls the hero (``state.seat_of``). A players'
choice goes to the people when any person sits at the table (they take or change the default),
and to the first bot when bots hold every seat. Table-mode dice are always the people's.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence

from meadhall.bots.base import Bot, BotError
from meadhall.bots.registry import make_bot
from meadhall.core.protocol import CHANCE, PLAYERS, GameState

ALL = "all"
"""``--bot all=heuristic``: a bot in every seat."""


def seat_bots(state: GameState, specs: Sequence[str]) -> dict[str, Bot]:
    """Bots for ``SEAT=KIND`` specs (``frida=heuristic``, ``all=mcts:200``), each seeded from
    the game's seed and its seat; a clear error names an unknown seat or bot."""
    seats = state.seats()
    out: dict[str, Bot] = {}
    for text in specs:
        seat, sep, kind = text.partition("=")
        seat, kind = seat.strip(), kind.strip()
        if not sep or not seat or not kind:
            example = seats[0] if seats else "ada"
            raise BotError(f"--bot {text!r}: expected SEAT=KIND, e.g. {example}=heuristic "
                           "(or all=heuristic)")
        targets = seats if seat == ALL else [seat]
        if seat != ALL and seat not in seats:
            raise BotError(f"--bot {text!r}: no seat {seat!r} at this table (seats: "
                           f"{', '.join(seats)})")
        for s in targets:
            out[s] = make_bot(kind, (state.seed * 1_000_003 + zlib.crc32(s.encode()))
                              & 0x7FFFFFFF)
    return out


def bot_to_move(state: GameState, bots: Mapping[str, Bot]) -> tuple[str, Bot] | None:
    """The seat and bot that answer the decision now, or ``None`` when a person does (or
    the game is over)."""
    d = state.decision()
    if d is None or not bots or d.seat == CHANCE:
        return None
    if d.seat == PLAYERS:
        if any(s not in bots for s in state.seats()):
            return None
        seat = next(iter(bots))
        return seat, bots[seat]
    seat = state.seat_of(d.seat)
    return (seat, bots[seat]) if seat in bots else None
