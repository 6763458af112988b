"""Undo never goes back past a random event, survives a save, and rebuilds identical states."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.core.history import History, UndoRefused
from meadhall.core.protocol import GameState


def _toy(chance: str = "seeded") -> GameState:
    return games.get("toy").new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, seed=3,
                                     chance=chance)  # type: ignore[arg-type]


def test_undo_takes_back_steps_without_chance() -> None:
    s = _toy()
    h = History(s)
    before = s.clone()
    h.apply(s, s.legal_actions()[0])
    assert h.undoable() == 1
    back = h.undo()
    assert back == before
    with pytest.raises(UndoRefused, match="nothing to undo"):
        h.undo()


def test_undo_never_passes_a_random_event() -> None:
    s = _toy()
    h = History(s)
    h.apply(s, "wait")        # ada
    h.apply(s, "wait")        # bo: the wind card is drawn (random)
    assert h.undoable() == 0
    with pytest.raises(UndoRefused, match="random event"):
        h.undo()
    h.apply(s, s.legal_actions()[0])
    after_random = h.rebuild()
    assert after_random == s
    h.undo()
    assert h.rebuild() != s


def test_practice_history_rewinds_everything() -> None:
    s = _toy()
    start = s.clone()
    h = History(s, practice=True)
    for _ in range(4):
        h.apply(s, s.legal_actions()[0])
    assert h.undoable() == 4
    assert h.undo(4) == start


def test_table_mode_result_is_random_and_forced_results_go_with_their_action() -> None:
    s = _toy("table")
    h = History(s)
    h.apply(s, "wait")
    h.apply(s, "wait")            # asks for the wind card
    assert s.pending is not None and h.undoable() == 2
    h.apply(s, s.legal_actions()[0])   # the result: random
    assert h.undoable() == 0
    seeded = _toy()
    h2 = History(seeded)
    h2.apply(seeded, "wait")
    h2.force(seeded, "calm")
    h2.apply(seeded, "wait")      # consumes the forced card: random
    assert h2.undoable() == 0


def test_history_round_trips_through_json_and_checks_it_follows_the_state() -> None:
    s = _toy()
    h = History(s)
    h.apply(s, s.legal_actions()[0], seat="alice")
    back = History.from_json(json.loads(json.dumps(h.to_json())))
    assert back.follows(s) and back.seats_since(1) == {"alice"}
    other = _toy()
    assert not back.follows(other)
