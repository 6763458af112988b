"""``NiflheimState.settled_after`` (how an evaluation ends an activation): on search copies
that differ only in their generator, starting later copies from the position remembered
before the first random draw gives exactly the position a full run gives, at every hero
decision of random games."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.bots.base import search_copy
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.evaluation import SETTLE_STEPS
from meadhall.games.niflheim.state import NiflheimState

SETUPS: list[dict[str, Any]] = [
    {"scenario": "1"},
    {"scenario": "1", "heroes": ["frida", "killian"]},
    {"scenario": "2", "heroes": ["frida", "killian"]},
    {"scenario": "4"},
]


def _full(s: NiflheimState) -> NiflheimState:
    """The plain run: the action, then the defaults, nothing remembered."""
    c = s.clone()
    c.__dict__.pop("_ended", None)
    c._scratch = False  # a state that never forks
    c._run_atomic("end activation", [])
    for _ in range(SETTLE_STEPS):
        if c.take_default() is None:
            break
    c._scratch = True
    return c


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_forked_runs_equal_full_runs(setup: dict[str, Any]) -> None:
    forked = 0
    for seed in range(3):
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(150):
            actions = s.legal_actions()
            if not actions:
                break
            h = s.heroes.get(s.active or "")
            if s.choice is None and h is not None and h.intent is not None:
                base = search_copy(s, rng)
                base.coin_used = True  # forks need the Coin of Fate used (no questions)
                for k in range(6):
                    # as the heuristic bot does: later samples are copies of the first one
                    look = base if k == 0 else base.clone()
                    look.chance.rng = Rng(100 * seed + k)
                    memo = look.__dict__.get("_ended")
                    forked += bool(memo and "end activation" in memo)
                    got = look.settled_after("end activation", SETTLE_STEPS)
                    assert got.to_json() == _full(look).to_json()
            s.apply(actions[rng.below(len(actions))])
    assert forked > 10
