"""The fast paths of the fourth speed round answer what the plain computations answer, at
every step of random games in every scenario: ``has_steps`` and ``only_end`` what the listed
steps and actions say, ``NiflheimState.take_default`` what the kernel's ``take_default``
does (on the game's own state and on search copies)."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.bots.base import search_copy
from meadhall.bots.random import RandomBot
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.heroes import _legal, has_steps, only_end, steps
from meadhall.games.niflheim.state import NiflheimState

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "1"}, range(6)),
    ({"scenario": "1", "heroes": ["frida", "killian"]}, range(6)),
    ({"scenario": "2", "heroes": ["frida", "killian"]}, range(4)),
    ({"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]}, range(3)),
    ({"scenario": "4"}, range(3)),
    ({"scenario": "33"}, range(2)),
    ({"scenario": "5", "heroes": ["frida", "killian"]}, range(3)),
    ({"campaign": True}, range(2)),
]


def _fresh(s: NiflheimState) -> NiflheimState:
    """A copy that remembers nothing of the position."""
    c = s.clone()
    NiflheimState.moved(c)
    c._legal_memo = None
    return c


def _same_default(a: NiflheimState, b: NiflheimState) -> bool:
    """Take the default on ``a`` with the kernel's method and on ``b`` with the game's; both
    must do the same. Returns whether a default was taken."""
    ea = GameState.take_default(a)
    eb = b.take_default()
    assert (ea is None) == (eb is None)
    if ea is None:
        return False
    assert [e.text for e in ea] == [e.text for e in eb]  # type: ignore[union-attr]
    assert a.to_json() == b.to_json()
    assert a.chance.rng.state == b.chance.rng.state
    return True


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_fast_paths_answer_as_plain_computations(setup: dict[str, Any], seeds: range) -> None:
    asked = taken = 0
    for seed in seeds:
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for step in range(300):
            if s.decision() is None:
                break
            h = s.heroes.get(s.active or "")
            if h is not None and h.on_map and s.choice is None:
                fresh = _fresh(s)
                fh = fresh.heroes[h.id]
                assert has_steps(s, h) == bool(steps(fresh, fh)), (seed, s.log)
                if h.intent is not None:
                    asked += 1
                    assert only_end(s, h) == (next(_legal(fresh, fh)) == "end activation"), \
                        (seed, s.log)
            taken += _same_default(s.clone(), s.clone())
            # search copies (quiet steps, shared chance trees) take the same defaults too
            rng = Rng(seed * 1000 + step)
            a, b = search_copy(s, rng.clone()), search_copy(s, rng.clone())
            _same_default(a, b)
            s.apply(bot.choose(s))
    assert asked and taken  # the paths were exercised
