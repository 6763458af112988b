"""The fast paths of apply keep the protocol's promises: same games, failed steps undone."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.core.errors import IllegalAction
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng

GAMES = games.ids()


class Boom(Exception):
    pass


def _random_game(game_id: str, seed: int, steps: int, by_text: bool) -> GameState:
    state = games.get(game_id).new_game(None, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.decision() is None:
            break
        acts = state.legal_actions()
        a = rng.choice(acts)
        state.apply(a.text if by_text else a)
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_trusted_actions_give_the_same_games_as_checked_texts(game_id: str) -> None:
    for seed in range(3):
        assert _random_game(game_id, seed, 300, False) == _random_game(game_id, seed, 300, True)


@pytest.mark.parametrize("loaded", [False, True], ids=["new_game", "loaded"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_step_that_fails_midway_leaves_the_state_exactly_as_it_was(game_id: str,
                                                                    loaded: bool) -> None:
    """An error after the game has already changed things (here: after the whole step ran)
    is undone: by replaying setup, seed and log for a new game, from the checkpoint copies
    (across their boundaries) for a loaded position."""
    state = games.get(game_id).new_game(None, 5)
    if loaded:
        state = GameState.from_json(json.loads(json.dumps(state.to_json())))
    rng = Rng(5)
    cls = type(state)
    real = cls._apply
    for step in range(120):
        if state.decision() is None:
            break
        action = rng.choice(state.legal_actions())
        if step % 7 == 3:
            before = json.dumps(state.to_json(), sort_keys=True)  # a copy, never live data

            calls = []

            def failing(self: GameState, text: str, events: list, _real=real,
                        calls: list = calls) -> None:
                _real(self, text, events)
                calls.append(text)
                if len(calls) == 1:  # only the step under test fails, not the replay
                    raise Boom(text)

            cls._apply = failing  # type: ignore[method-assign]
            try:
                with pytest.raises(Boom):
                    state.apply(action.text)
            finally:
                cls._apply = real  # type: ignore[method-assign]
            after = json.dumps(state.to_json(), sort_keys=True)
            assert after == before, f"step {step} was not undone"
        state.apply(state.legal_actions()[rng.below(len(state.legal_actions()))])


def test_a_stale_legal_list_never_lets_an_illegal_text_through() -> None:
    state = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=1)
    acts = state.legal_actions()
    state.apply(acts[0])
    with pytest.raises(IllegalAction):
        state.apply(acts[0])  # an object of the old list is checked again: Ada stands on B1
    assert state.log == [acts[0].text]


@pytest.mark.parametrize("game_id", GAMES)
def test_clones_and_determinizations_are_independent(game_id: str) -> None:
    state = _random_game(game_id, 2, 40, False)
    saved = json.dumps(state.to_json(), sort_keys=True)
    for copy in (state.clone(), state.determinize(Rng(9))):
        rng = Rng(4)
        for _ in range(30):
            if copy.decision() is None:
                break
            copy.apply(rng.choice(copy.legal_actions()))
    assert json.dumps(state.to_json(), sort_keys=True) == saved
