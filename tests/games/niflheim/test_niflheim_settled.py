"""Search copies share what their steps come to (``NiflheimState._forked``): copies of one
position that differ only in their generator record each step in its chance tree and later
copies take the remembered position instead of running the rules again. At the decisions of
random games in every scenario, a step (and the defaults after it, and the end of the
activation an evaluation looks past) run that way on several sampled futures gives exactly
the position, generator and draw count a full run of a game's own state gives (which words
its events, a search copy's quiet steps do not); so does the score ``settled_value`` reads
from the trees."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.bots.base import follow_defaults, search_copy
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.evaluation import SETTLE_STEPS, _settled_value, _under_way
from meadhall.games.niflheim.state import NiflheimState

SETUPS: list[dict[str, Any]] = [
    {"scenario": "1"},
    {"scenario": "1", "heroes": ["frida", "killian"]},
    {"scenario": "2", "heroes": ["frida", "killian"]},
    {"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]},
    {"scenario": "4"},
    {"scenario": "33"},
    {"scenario": "5", "heroes": ["frida", "killian"]},
]


def _plain(s: NiflheimState) -> NiflheimState:
    """A copy that remembers nothing and shares nothing, and words every event (no search
    copy): its steps run the rules as a game's do."""
    c = s.clone()
    c.__dict__.pop("_forks", None)
    c._scratch = False
    return c


def _run(s: NiflheimState, action: str) -> int:
    """Apply ``action`` and the defaults after it, as the heuristic bot's look-ahead does;
    returns the numbers drawn."""
    mark = Rng.draws
    s.apply(action)
    follow_defaults(s)
    return Rng.draws - mark


def _settled(s: NiflheimState) -> tuple[NiflheimState, int]:
    mark = Rng.draws
    got = s.settled_after("end activation", SETTLE_STEPS)
    return got, Rng.draws - mark


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_shared_steps_equal_full_runs(setup: dict[str, Any]) -> None:
    hits = 0
    for seed in range(2):
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(90):
            actions = s.legal_actions()
            if not actions:
                break
            base = search_copy(s, rng)
            base.coin_used = True  # the steps are shared once the Coin of Fate is used
            base._forks = {}  # (a position of its own, then)
            for a in actions[:2]:
                first: NiflheimState | None = None
                for k in range(8):
                    look = base.clone()
                    look.chance.rng = Rng(1000 * seed + k % 7)  # a future seen twice too
                    full = _plain(look)
                    want = _run(full, a.text)
                    memo = look.__dict__["_forks"]
                    hits += a.text in memo
                    got = _run(look, a.text)
                    assert got == want
                    assert look.to_json() == full.to_json()
                    if first is None:
                        first = look
                    if not _under_way(look):
                        continue
                    # the evaluation's end of the activation, from a copy of the first look
                    # (as the heuristic bot scores its later samples)
                    again = first.clone()
                    again.chance.rng = Rng(77 * k + seed)
                    plain = _plain(again)
                    want_s, drawn = _settled(plain)
                    mark = Rng.draws
                    score = again.settled_value("end activation", SETTLE_STEPS, _settled_value)
                    assert Rng.draws - mark == drawn
                    assert score == _settled_value(want_s)
                    got_s, drawn_s = _settled(again)
                    assert drawn_s == drawn
                    assert got_s.to_json() == want_s.to_json()
            s.apply(actions[rng.below(len(actions))])
    assert hits > 10


@pytest.mark.parametrize("setup", SETUPS[:5], ids=str)
def test_a_game_that_keeps_what_its_copies_remembered_plays_the_same(
        setup: dict[str, Any]) -> None:
    """After a step its search copies found to draw nothing, a game's state shares the memo
    of the position they reached; the heuristic bot then chooses exactly as it does when the
    state forgets everything its copies remembered."""
    from meadhall.bots import make_bot

    for seed in range(2):
        logs = []
        for forget in (False, True):
            s = GAME.new_game(setup, seed)
            s.coin_used = True  # the copies share their steps from the start
            bot = make_bot("heuristic", seed)
            for _ in range(60):
                if s.decision() is None:
                    break
                if forget:
                    s.__dict__.pop("_forks", None)
                s.apply(bot.choose(s))
            logs.append(s.log)
        assert logs[0] == logs[1]
