"""Every adapter test runs for every registered game, in a short setup.

A game whose action vocabulary has not landed yet is marked ``xfail(strict=True)``: its tests
turn red the moment the game implements ``Game.action_vocabulary``, and the mark comes off.
"""

from __future__ import annotations

from typing import Any

import pytest
from adapter_cases import NO_VOCABULARY_YET, SETUPS, Case

from meadhall import games


def _param(game_id: str) -> Any:
    marks = ([pytest.mark.xfail(strict=True, reason=f"{game_id}: no action vocabulary yet")]
             if game_id in NO_VOCABULARY_YET else [])
    return pytest.param(game_id, marks=marks, id=game_id)


@pytest.fixture(params=[_param(g) for g in games.ids()])
def case(request: pytest.FixtureRequest) -> Case:
    """Each registered game in its short test setup."""
    game_id = request.param
    return Case(game_id, SETUPS.get(game_id), 60)
