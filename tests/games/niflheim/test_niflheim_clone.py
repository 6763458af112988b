"""``NiflheimState.clone`` (copied by hand for speed): at every step of random games in every
scenario, the copy equals the state, shares no mutable part with it but the immutable ones
the kernel shares too, and playing on the copy leaves the state as it was."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.state import NiflheimState

SETUPS: list[dict[str, Any]] = [
    {"scenario": "1", "heroes": ["frida", "killian"]},
    {"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]},
    {"scenario": "5", "heroes": ["frida", "killian"]},
    {"campaign": True},
]


def _mutable_ids(x: Any, out: set[int]) -> None:
    """Ids of every list, dict, set and figure reachable from ``x``."""
    if isinstance(x, dict):
        out.add(id(x))
        for v in x.values():
            _mutable_ids(v, out)
    elif isinstance(x, list | set):
        out.add(id(x))
        for v in x:
            _mutable_ids(v, out)
    elif isinstance(x, tuple):
        for v in x:
            _mutable_ids(v, out)
    elif hasattr(x, "__slots__") and hasattr(x, "__dataclass_fields__"):
        out.add(id(x))
        for name in x.__dataclass_fields__:
            _mutable_ids(getattr(x, name), out)


def _parts(s: NiflheimState) -> set[int]:
    out: set[int] = set()
    for k, v in s.__dict__.items():
        if k not in s._shared and k not in ("_checkpoint", "board"):
            _mutable_ids(v, out)
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_clone_is_equal_and_independent(setup: dict[str, Any]) -> None:
    for seed in range(2):
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(120):
            actions = s.legal_actions()
            if not actions:
                break
            c = s.clone()
            kernel = GameState.clone(s)  # the kernel's generic copy
            before = s.to_json()
            assert c.to_json() == before == kernel.to_json()
            assert set(c.__dict__) - {"_legal_memo"} == set(kernel.__dict__) - {"_legal_memo"}
            assert not _parts(c) & _parts(s)
            for a in c.legal_actions()[:2]:
                c.clone().apply(a.text)
                c.clone().apply(a)  # the copy keeps the legal list: not checked again
            c.apply(actions[rng.below(len(actions))].text)
            assert s.to_json() == before
            s.apply(actions[rng.below(len(actions))])
