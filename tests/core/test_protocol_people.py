"""Protocol features for people and tools: labels and targets, conceding, chance odds, drawing."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.core.chance import Chance, NeedChance
from meadhall.core.errors import IllegalAction
from meadhall.core.protocol import Action, GameState, Target
from meadhall.core.rng import Rng


def _toy(seed: int = 7) -> GameState:
    return games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=seed)


def test_described_actions_keep_text_and_add_label_and_targets() -> None:
    s = _toy()
    described = s.described_actions()
    assert [a.text for a in described] == [a.text for a in s.legal_actions()]
    move = next(a for a in described if a.text.startswith("move "))
    assert move.label.startswith("Ada moves to")
    assert move.targets == (Target("square", move.text[5:]),)
    assert move.to_json()["targets"][0]["ref"] == f"square:{move.text[5:]}"
    assert Action(move.text) == move  # actions compare by text only


def test_concede_ends_the_game_as_a_loss_and_replays() -> None:
    s = _toy()
    s.apply(s.legal_actions()[0])
    s.concede("the troll is too fast")
    assert s.outcome().result == "loss" and "conceded" in s.outcome().reason
    assert s.decision() is None and s.legal_actions() == []
    again = games.get("toy").replay(s.setup, s.seed, s.log)
    assert again == s
    loaded = GameState.from_json(json.loads(json.dumps(s.to_json())))
    assert loaded.outcome() == s.outcome()
    with pytest.raises(IllegalAction, match="over"):
        s.concede()


def test_table_mode_questions_carry_each_results_probability() -> None:
    c = Chance("toy", Rng(1), "table")
    with pytest.raises(NeedChance) as need:
        c.pick("wind card", ["calm", "calm", "gust", "fog"])
    odds = dict(need.value.request.odds())
    assert odds == {"calm": 0.5, "gust": 0.25, "fog": 0.25}
    with pytest.raises(NeedChance) as need:
        c.pick("weighted", ["a", "b", "c"], weights=[0, 1, 3])
    assert dict(need.value.request.odds()) == {"b": 0.25, "c": 0.75}


def test_toy_scene_draws_every_target_of_its_legal_actions() -> None:
    s = _toy()
    g = games.get("toy")
    drawn = g.draw(s.view("ada")).targets()
    for a in s.described_actions():
        assert {str(t) for t in a.targets} <= drawn
    json.dumps(g.draw(s.view(None)).to_json())


def test_start_gives_the_setup_events_and_the_same_state_as_new_game() -> None:
    g = games.get("niflheim")
    state, events = g.start(None, 4)
    assert state == g.new_game(None, 4)
    assert events and all(e.text for e in events)


def test_at_question_shows_the_table_as_the_automated_steps_left_it() -> None:
    s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, seed=3,
                                  chance="table")
    assert s.at_question() is None
    s.apply("wait")
    s.apply("wait")  # the troll's turn asks for the wind card
    assert s.pending is not None
    saved = s.to_json()
    board = s.at_question()
    assert board is not None and board.turn == 2 and s.turn == 1  # the heroes' turns are done
    assert s.to_json() == saved
