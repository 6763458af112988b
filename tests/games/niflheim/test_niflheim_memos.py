"""The position memos (occupancy, zones of control, the undead's distances to heroes, a hero's
steps, the scenario's outcome read from the heroes on the map) answer exactly what a fresh
computation answers, at every step of random games in every scenario: the rules forget them
wherever a figure changes (``NiflheimState.moved``)."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.games.niflheim import GAME, undead
from meadhall.games.niflheim.heroes import steps
from meadhall.games.niflheim.state import NiflheimState
from meadhall.testing import check_memos

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "1", "heroes": ["frida", "killian"]}, range(8)),
    ({"scenario": "2", "heroes": ["frida", "killian"]}, range(6)),
    ({"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]}, range(4)),
    ({"scenario": "4"}, range(4)),
    ({"scenario": "5", "heroes": ["frida", "killian"]}, range(4)),
    ({"campaign": True}, range(2)),
]


def answers(s: NiflheimState) -> dict[str, Any]:
    """What the memos serve, asked of ``s`` as it stands."""
    out: dict[str, Any] = {
        "occupancy": dict(s.occupancy()),
        "zoc": {q: set(v) for q, v in undead.zoc(s).items()},
        "distances": {u.id: dict(undead.distances_from(s, u.at)) for u in s.undead.values()},
        "candidates": undead.activation_candidates(s),
        "outcome": s.scenario_outcome(),
        "legal": s._legal() if s.decision() is not None else [],
    }
    h = s.heroes.get(s.active or "")
    if h is not None and h.on_map:
        out["steps"] = list(steps(s, h))
    return out


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_memos_answer_as_fresh_computations_at_every_step(setup: dict[str, Any],
                                                         seeds: range) -> None:
    check_memos(GAME, setup, seeds, answers, NiflheimState.moved)


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_view_parts_built_at_once_equal_the_plain_builds(setup: dict[str, Any],
                                                         seeds: range) -> None:
    """The view's undead (Leader of the Pack looked up once), red lines (kept with the
    board) and choice labels are what the per-figure JSON, a fresh sort and ``describe``
    give."""
    from meadhall.core import grid
    from meadhall.core.rng import Rng

    for seed in seeds[:2]:
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(200):
            assert s._undead_view() == [s._undead_json(u, public=True)
                                        for u in s.undead.values()]
            assert s._walls_json() == [sorted(grid.name(q) for q in e) for e in sorted(
                s.board.walls, key=lambda e: sorted(e))]
            choice = s.view(None)["choice"]
            if choice is not None:
                assert choice["labels"] == {o: s.describe(o).label for o in choice["options"]}
            actions = s.legal_actions()
            if not actions:
                break
            s.apply(actions[rng.below(len(actions))])
