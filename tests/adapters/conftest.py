"""Every adapter test runs for every registered game, in a short setup.

A game whose action vocabulary has not landed yet is marked ``xfail(strict=True)``: its tests
turn red the moment the game implements ``Game.action_vocabulary``, and the mark comes off.
"""

from __future__ import annotations

from typing import Any

import pytest
from adapter_cases import NO_DRAWING_YET, NO_VOCABULARY_YET, SETUPS, Case

from meadhall import games


def _param(game_id: str, pending: set[str], what: str) -> Any:
    marks = ([pytest.mark.xfail(strict=True, reason=f"{game_id}: no {what} yet")]
             if game_id in pending else [])
    return pytest.param(game_id, marks=marks, id=game_id)


def _case(game_id: str) -> Case:
    return Case(game_id, SETUPS.get(game_id), 60)


@pytest.fixture(params=[_param(g, NO_VOCABULARY_YET, "action vocabulary") for g in games.ids()])
def case(request: pytest.FixtureRequest) -> Case:
    """Each registered game in its short test setup (needs its action vocabulary)."""
    return _case(request.param)


@pytest.fixture(params=[_param(g, NO_DRAWING_YET, "drawing (Game.draw)") for g in games.ids()])
def drawn_case(request: pytest.FixtureRequest) -> Case:
    """Each registered game in its short test setup (needs its drawing)."""
    return _case(request.param)


@pytest.fixture(params=games.ids())
def any_case(request: pytest.FixtureRequest) -> Case:
    """Each registered game in its short test setup (needs nothing beyond the protocol)."""
    return _case(request.param)
