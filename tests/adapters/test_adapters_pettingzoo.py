"""The PettingZoo AEC environment: seats as agents, shared results, masks, events."""

from __future__ import annotations

import numpy as np
import pytest

from meadhall import games
from meadhall.adapters.pettingzoo import MeadhallAEC, env, raw_env
from meadhall.core.protocol import PLAYERS

OPEN = {"scenario": "open", "heroes": ["ada", "bo"]}


def test_agents_are_the_seats_and_only_the_acting_one_has_a_mask() -> None:
    e = raw_env("toy", OPEN)
    e.reset(seed=0)
    assert e.possible_agents == ["ada", "bo"] and e.agent_selection == "ada"
    assert e.observe("ada")["action_mask"].any() and not e.observe("bo")["action_mask"].any()
    assert e.observe("ada")["observation"].shape == (e.layout.size,)
    e.step(e.vocabulary.id("move B1"))
    assert e.agent_selection == "bo"
    assert e.infos["bo"]["events"] == ["Ada moves to B1 — Hero Turn"]


def test_players_choices_go_to_choices_by() -> None:
    e = raw_env("toy", OPEN, choices_by="bo")
    e.reset(seed=0)
    e.step(e.vocabulary.id("move B1"))
    e.step(e.vocabulary.id("move B2"))
    assert e.game_state is not None and e.game_state.decision().seat == PLAYERS
    assert e.agent_selection == "bo"


def test_every_seat_shares_the_result_and_leaves() -> None:
    e = raw_env("toy", OPEN)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert reward in (-1.0, 1.0) and "outcome" in info
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == []
    assert e.game_state is not None and e.game_state.outcome().over


def test_an_illegal_action_costs_the_actor_only_and_changes_nothing() -> None:
    e = raw_env("toy", OPEN, illegal_reward=-0.25)
    e.reset(seed=1)
    assert e.game_state is not None
    before = e.game_state.to_json()
    illegal = int(np.flatnonzero(e.observe("ada")["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.rewards == {"ada": -0.25, "bo": 0.0}
    assert e.infos["ada"]["illegal_action"] == e.vocabulary.text(illegal)
    assert e.game_state.to_json() == before and e.agent_selection == "ada"


def test_unflattened_observations_keep_the_layout() -> None:
    e = raw_env("toy", OPEN, flatten=False)
    e.reset(seed=0)
    obs = e.observe("bo")["observation"]
    assert set(obs) == set(e.layout.shapes()) and obs in e.layout.space()


def test_wrapped_environment_enforces_order_and_seeds_like_meadhall() -> None:
    e = env("toy", OPEN, max_steps=3)
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=9)
    assert isinstance(e.unwrapped, MeadhallAEC) and e.unwrapped.game_seed == 9
    assert e.unwrapped.game_state == games.get("toy").new_game(OPEN, 9)


def test_the_global_state_is_the_public_view() -> None:
    e = raw_env("toy", OPEN)
    e.reset(seed=0)
    state = e.state()
    assert state in e.state_space and state.shape == (e.layout.size,)
    vector = dict(zip(e.layout.vector, state[-len(e.layout.vector):], strict=True))
    assert vector["seat:ada"] == vector["seat:bo"] == 0 and vector["decider:ada"] == 1


def test_shaping_gives_every_seat_the_change_in_evaluation() -> None:
    e = raw_env("battleforge", None, shaping=True, max_steps=40)
    e.reset(seed=2)
    assert e.game_state is not None
    start = e.table.game.evaluate(e.game_state)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        e.step(None if terminated or truncated else
               int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    change = e.table.game.evaluate(e.game_state) - start
    result = e.table.returns(e.game_state) if e.game_state.outcome().over else 0.0
    assert all(t == pytest.approx(change + result) for t in total.values())
