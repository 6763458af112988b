"""A terminal that forgives typing: any case, unique beginnings, "did you mean", re-asked setup
questions, and setup values refused before play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import meadhall

from meadhall import games
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.matching import match_choice, resolve_action


def log_of(f: Path) -> list[str]:
    return json.loads(f.read_text())["log"]


@pytest.fixture
def toy_save(tmp_path: Path) -> Path:
    """Ada alone in the open field: she may move to B1 or A2, or wait."""
    f = tmp_path / "solo.json"
    r = meadhall("new", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "-o", str(f))
    assert r.exit_code == 0, r.output
    return f


@pytest.mark.parametrize(("typed", "meant"), [
    ("move B1", "move B1"),
    ("MOVE b1", "move B1"),
    ("  move   b1 ", "move B1"),
    ("w", "wait"),
    ("WAI", "wait"),
    ("mo a", "move A2"),
    ("1", "move B1"),
])
def test_act_matches_any_case_and_unique_beginnings(toy_save: Path, typed: str,
                                                    meant: str) -> None:
    r = meadhall("act", str(toy_save), typed)
    assert r.exit_code == 0, r.output
    assert log_of(toy_save) == [meant]


def test_an_ambiguous_beginning_lists_what_it_fits(toy_save: Path) -> None:
    r = meadhall("act", str(toy_save), "move")
    assert r.exit_code == 1
    assert "'move' fits 2 actions: move B1, move A2; type more of it" in r.output
    assert log_of(toy_save) == []


def test_a_typo_gets_did_you_mean_with_the_closest_legal_actions(toy_save: Path) -> None:
    r = meadhall("act", str(toy_save), "mvoe b1")
    assert r.exit_code == 1
    assert "'mvoe b1' is not an action now; did you mean move B1" in r.output


def test_unrelated_text_names_the_kinds_of_action_instead_of_a_rule(toy_save: Path) -> None:
    r = meadhall("act", str(toy_save), "fly to the moon")
    assert r.exit_code == 1
    assert "the actions now begin with move, wait" in r.output


def test_the_right_kind_of_action_keeps_the_games_reason(toy_save: Path) -> None:
    r = meadhall("act", str(toy_save), "move F4")
    assert r.exit_code == 1
    assert "F4 is not orthogonally adjacent to the hero" in r.output
    assert "did you mean" in r.output


def test_empty_and_out_of_range_input_is_refused_in_one_line(toy_save: Path) -> None:
    for typed, says in [("", "nothing typed"), ("   ", "nothing typed"),
                        ("0", "no action number 0 (1 to 3)")]:
        r = meadhall("act", str(toy_save), typed)
        assert r.exit_code == 1 and says in r.output and "Traceback" not in r.output


def test_match_choice_by_id_title_case_and_beginning() -> None:
    options = [(g.id, g.title) for g in games.all_games()]
    ids = [o[0] for o in options]
    assert ids[match_choice("Niflheim", options, "game")] == "niflheim"
    assert ids[match_choice("gates", options, "game")] == "niflheim"
    assert ids[match_choice("RUN", options, "game")] == "runaljod"
    with pytest.raises(ContentError, match="did you mean niflheim"):
        match_choice("niflhiem", options, "game")
    places = [(f"place in space {i}",) for i in range(1, 7)]
    assert match_choice("pl 3", places, "action") == 2
    assert match_choice("PLACE IN SPACE 6", places, "action") == 5


def test_a_table_mode_roll_is_entered_as_its_value() -> None:
    state = games.get("toy").new_game({"scenario": "open", "heroes": ["ada"]}, seed=1,
                                      chance="table")
    state.apply("wait")  # the wind card is asked for
    assert state.pending is not None
    options = state.pending.request.options
    assert resolve_action(state, options[-1].upper()).text == f"result {options[-1]}"
    with pytest.raises(IllegalAction, match="did you mean"):
        resolve_action(state, options[-1] + "x")


def test_new_and_play_accept_a_game_by_title_or_beginning(tmp_path: Path) -> None:
    r = meadhall("new", "Troll", "-o", str(tmp_path / "t.json"))
    assert r.exit_code == 0 and "Troll Chase" in r.output
    r = meadhall("play", "TOY", "--scenario", "Open", "--heroes", "ADA", "--save",
                 str(tmp_path / "p.json"), input="q\n")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "p.json").read_text())["setup"] == {
        "scenario": "open", "heroes": ["ada"]}


def test_setup_questions_are_asked_again_after_a_wrong_answer(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    r = meadhall("play", "toy", "--save", str(save), "--seed", "2",
                 input="moon\nOpen Field\nzed\nada,bo,ada\nAda, BO\nq\n")
    assert r.exit_code == 0, r.output
    assert "unknown scenario 'moon'" in r.output
    assert "unknown hero 'zed'" in r.output
    assert "heroes" in r.output  # the game refused three heroes; the question came again
    assert json.loads(save.read_text())["setup"] == {"scenario": "open",
                                                     "heroes": ["ada", "bo"]}


def test_play_asks_for_the_game_again_after_a_wrong_answer(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    r = meadhall("play", "--save", str(save), "--seed", "2",
                 input="chess\ntoy\nopen\nada\nq\n")
    assert r.exit_code == 0, r.output
    assert "unknown game 'chess'" in r.output
    assert json.loads(save.read_text())["game"] == "toy"


def test_play_a_missing_file_says_it_does_not_exist(tmp_path: Path) -> None:
    r = meadhall("play", str(tmp_path / "missing.json"))
    assert r.exit_code == 1
    assert "missing.json: no such file" in r.output and "Traceback" not in r.output


def test_a_bad_set_value_is_refused_before_any_question(tmp_path: Path) -> None:
    r = meadhall("play", "toy", "--set", "bogus=1", "--save", str(tmp_path / "p.json"),
                 input="open\nada\nq\n")
    assert r.exit_code == 1
    assert "bogus" in r.output and "Scenario" not in r.output
    assert not (tmp_path / "p.json").exists()


# Games that accept an impossible number of players (issue 13); the game engineers fix them.
PLAYERS_ACCEPTED: dict[str, str] = {}


@pytest.mark.parametrize("game_id", [g for g in games.ids() if g != "toy"])
def test_zero_players_is_refused_at_setup(request: pytest.FixtureRequest, tmp_path: Path,
                                          game_id: str) -> None:
    if game_id in PLAYERS_ACCEPTED:
        request.applymarker(pytest.mark.xfail(reason=PLAYERS_ACCEPTED[game_id], strict=True))
    r = meadhall("new", game_id, "--set", "players=0", "-o", str(tmp_path / "g.json"))
    assert r.exit_code == 1 and "players" in r.output


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("value", ["[]", '["nobody"]'])
def test_impossible_heroes_are_refused_at_setup(tmp_path: Path, game_id: str,
                                                value: str) -> None:
    r = meadhall("new", game_id, "--set", f"heroes={value}", "-o", str(tmp_path / "g.json"))
    assert r.exit_code == 1 and "heroes" in r.output and "Traceback" not in r.output


def test_a_set_value_is_text_unless_the_game_wants_another_type(tmp_path: Path) -> None:
    """``--set scenario=1`` reads 1 as JSON, a number; Niflheim's scenario is a string, so the
    text is used (as ``--scenario 1``); values the setup wants as numbers or flags stay so."""
    f = tmp_path / "n.json"
    r = meadhall("new", "niflheim", "--set", "scenario=1", "--set", "campaign=true",
                 "--seed", "1", "-o", str(f))
    assert r.exit_code == 0, r.output
    setup = json.loads(f.read_text())["setup"]
    assert setup["scenario"] == "1" and setup["campaign"] is True
    g = tmp_path / "b.json"
    r = meadhall("new", "battleforge", "--set", "players=1", "--seed", "1", "-o", str(g))
    assert r.exit_code == 0, r.output
    assert json.loads(g.read_text())["setup"]["players"] == 1
    # a value the game refuses either way is refused with the game's message
    r = meadhall("new", "niflheim", "--set", "scenario=99", "-o", str(tmp_path / "x.json"))
    assert r.exit_code == 1 and "scenario" in r.output and "99" in r.output
    # the interactive terminal reads it the same way
    r = meadhall("play", "niflheim", "--set", "scenario=1", "--heroes", "frida",
                 "--save", str(tmp_path / "p.json"), input="q\n")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "p.json").read_text())["setup"]["scenario"] == "1"
