"""Troll Chase rules, and the protocol machinery exercised through them."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.protocol import CHANCE, PLAYERS
from meadhall.core.rng import Rng

GAME = games.get("toy")


def position(**over: object) -> dict:
    """A hand-written Troll Chase position: Ada at A1, the troll at C3."""
    pos = {
        "map": [".....", ".#.#.", "...#.", ".#...", "...#X"],
        "heroes": {"ada": "A1"},
        "troll": {"at": "C3"},
        "round": 1,
    }
    pos.update(over)
    return {"game": "toy", "setup": {"scenario": "chase", "heroes": ["ada"]}, "seed": 1,
            "position": pos}


@pytest.mark.rule("toy", "Hero Turn")
def test_hero_moves_orthogonally_into_open_squares() -> None:
    s = GAME.from_json(position())
    assert [a.text for a in s.legal_actions()] == ["move B1", "move A2", "wait"]


@pytest.mark.rule("toy", "Hero Turn")
def test_illegal_move_names_the_rule_and_changes_nothing() -> None:
    s = GAME.from_json(position())
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply("move B2")
    assert info.value.section == "Hero Turn" and "B2" in str(info.value)
    assert s.to_json() == before


@pytest.mark.rule("toy", "Attacking the Troll")
def test_attack_hits_on_five_or_six_and_stuns() -> None:
    s = GAME.from_json(position(heroes={"ada": "C2"}))
    s.force(5, "calm")
    events = s.apply("attack troll")
    assert events[0].data["hit"] and "stunned" in events[0].text
    assert any(e.kind == "stun" for e in events)  # the stunned troll recovers instead of moving
    assert s.troll == (2, 2)


@pytest.mark.rule("toy", "Attacking the Troll")
def test_attack_misses_below_five() -> None:
    s = GAME.from_json(position(heroes={"ada": "C2"}))
    s.force(4, "fog")
    events = s.apply("attack troll")
    assert not events[0].data["hit"]


@pytest.mark.rule("toy", "The Wind")
def test_wind_card_sets_how_far_the_troll_moves() -> None:
    s = GAME.from_json(position(heroes={"ada": "A5"}, troll={"at": "C5"}))
    s.force("gust")
    s.apply("wait")
    assert s.troll == (0, 4) and s.caught == ["ada"]  # two steps along row 5 reach Ada


@pytest.mark.rule("toy", "Troll Movement")
def test_troll_tie_is_a_players_choice_with_a_default() -> None:
    # Troll at C3, Ada at A1: C3→B3→A3→A2→A1 and C3→C2→C1→B1→A1 are both 4 steps.
    s = GAME.from_json(position())
    s.force("calm")
    s.apply("wait")
    d = s.decision()
    assert d is not None and d.seat == PLAYERS and d.kind == "choice"
    assert {a.text for a in s.legal_actions()} == {"troll to C2", "troll to B3"}
    assert d.default in {a.text for a in s.legal_actions()}
    s.apply("troll to B3")
    assert s.troll == (1, 2) and s.decision().seat == "ada"


@pytest.mark.rule("toy", "Troll Movement")
def test_auto_choices_take_the_default_without_asking() -> None:
    data = position()
    data["auto_choices"] = True
    s = GAME.from_json(data)
    s.force("calm")
    events = s.apply("wait")
    assert s.decision().seat == "ada"
    assert any(e.kind == "troll" for e in events)


@pytest.mark.rule("toy", "Winning and Losing")
def test_reaching_the_exit_wins_and_being_caught_loses() -> None:
    s = GAME.from_json(position(heroes={"ada": "E4"}, troll={"at": "A1"}))
    s.apply("move E5")
    assert s.outcome().result == "win" and s.decision() is None
    s = GAME.from_json(position(heroes={"ada": "A1"}, troll={"at": "A3"}))
    s.force("gust")
    s.apply("wait")
    assert s.outcome().result == "loss" and "caught" in s.outcome().reason


@pytest.mark.rule("toy", "Winning and Losing")
def test_running_out_of_rounds_loses() -> None:
    s = GAME.from_json(position(round=12, heroes={"ada": "A1"}, troll={"at": "E1"}))
    s.force("fog")
    s.apply("wait")
    assert s.outcome().result == "loss" and "round" in s.outcome().reason


def test_table_mode_asks_for_rolls_and_draws_and_replays() -> None:
    data = position(heroes={"ada": "C2"})
    data["chance"] = {"mode": "table", "rng": 1}
    s = GAME.from_json(data)
    events = s.apply("attack troll")
    assert events == []
    d = s.decision()
    assert d.seat == CHANCE and "attack" in d.prompt
    assert [a.text for a in s.legal_actions()] == [f"result {i}" for i in range(1, 7)]
    with pytest.raises(IllegalAction):
        s.apply("result 7")
    events = s.apply("result 6")
    assert events[0].data["roll"] == 6 and s.decision().seat == CHANCE  # now the wind card
    assert {a.text for a in s.legal_actions()} == {"result calm", "result gust", "result fog"}
    events = s.apply("result fog")
    assert [e.kind for e in events] == ["wind", "stun", "round"]
    assert s.log == ["attack troll", "result 6", "result fog"]


def test_replay_of_setup_seed_and_log_gives_the_same_state() -> None:
    s = GAME.new_game({"scenario": "open", "heroes": ["ada", "bo"]}, seed=5)
    for _ in range(6):
        if s.decision() is None:
            break
        s.apply(s.legal_actions()[0])
    assert GAME.replay(s.setup, s.seed, s.log) == s


def test_clone_is_independent() -> None:
    s = GAME.new_game(seed=2)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert c != s and s.log == []
    assert c.content is s.content


def test_determinize_reseeds_hidden_draws_only() -> None:
    s = GAME.new_game(seed=2)
    a, b = s.determinize(Rng(1)), s.determinize(Rng(2))
    assert a.view("ada") == b.view("ada")
    assert a.chance.rng != b.chance.rng


def test_view_hides_the_wind_deck_order() -> None:
    s = GAME.new_game(seed=2)
    text = json.dumps(s.view("ada"))
    assert "pile" not in text and '"size": 4' in text


def test_bad_positions_name_the_field() -> None:
    bad = position()
    bad["position"]["map"] = ["...", "...."]
    with pytest.raises(ContentError, match="position.map"):
        GAME.from_json(bad)
    with pytest.raises(ContentError, match="scenario"):
        GAME.new_game({"scenario": "moon"})
    with pytest.raises(ContentError, match="heroes"):
        GAME.new_game({"heroes": ["zed"]})
    with pytest.raises(ContentError, match="version"):
        GAME.from_json({**position(), "version": 99})


def test_setup_only_position_starts_a_new_game() -> None:
    # An empty log says "not begun"; a save holding neither position nor log is refused
    # (issue 19: a gutted save must not silently start a fresh game).
    s = GAME.from_json({"game": "toy", "setup": {"scenario": "open"}, "seed": 4, "log": []})
    assert s == GAME.new_game({"scenario": "open"}, 4)
    with pytest.raises(ContentError, match="position"):
        GAME.from_json({"game": "toy", "setup": {"scenario": "open"}, "seed": 4})


def test_position_file_in_docs_loads() -> None:
    from pathlib import Path

    from meadhall.core import saves

    root = Path(__file__).resolve().parents[3]
    state, _ = saves.load(root / "docs" / "formats" / "toy-example.json")
    assert state.heroes == {"ada": (1, 0), "bo": (0, 2)}


def test_forced_results_replay_and_cannot_be_applied_as_actions() -> None:
    s = GAME.new_game(seed=1)
    s.force("gust")
    events = s.apply("wait")
    assert events[1].data == {"card": "gust"}
    assert s.log == ["!force gust", "wait"]
    assert GAME.replay(s.setup, s.seed, s.log) == s
    with pytest.raises(IllegalAction, match="forced results"):
        s.apply("!force calm")


def test_any_state_loads_through_gamestate_from_json() -> None:
    from meadhall.core.protocol import GameState

    s = GAME.new_game(seed=3)
    assert GameState.from_json(s.to_json()) == s
    with pytest.raises(ContentError, match="game: unknown game"):
        GameState.from_json({"game": "chess"}, "x.json")
