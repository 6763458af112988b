"""The remembered pieces of a drawn scene: at every step of random games in every scenario
(co-op seats, huskarls and a campaign included), the scene drawn with the memo is exactly the
scene built from scratch, for every seat and for a spectator."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME, drawing

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "1", "heroes": ["frida", "killian"]}, range(2)),
    ({"scenario": "2", "heroes": ["frida", "killian"],
      "players": {"ann": ["frida"], "bo": ["killian"]}}, range(2)),
    ({"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]}, range(2)),
    ({"scenario": "4"}, range(2)),
    ({"scenario": "5", "heroes": ["frida", "killian"]}, range(2)),
    ({"campaign": True}, range(2)),
]


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_remembered_scene_is_the_fresh_scene(setup: dict[str, Any], seeds: range) -> None:
    steps = 0
    for seed in seeds:
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(150):
            for seat in [*s.seats(), None]:
                view = s.view(seat)
                fast = drawing.scene(GAME.content, GAME.title, view)
                # dataclass equality compares every field of every piece, as to_json would
                assert fast == drawing.scene(GAME.content, GAME.title, view, fresh=True)
                assert GAME.draw(view) == fast  # drawn twice: the same
            actions = s.legal_actions()
            if not actions:
                break
            s.apply(actions[rng.below(len(actions))])
            steps += 1
    assert steps > 30
