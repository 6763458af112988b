"""`meadhall play`: legends once and on `?`, the board before each question, table-mode
questions naming the roll, conceding, and Ctrl-C saying where the game was saved."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
import pytest
from clitools import ROOT, meadhall

from meadhall.games.toy.game import ToyState

LEGEND = "LEGEND: T is the troll"


def test_the_legend_prints_once_and_on_question_mark(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ToyState, "render_help", lambda self: LEGEND)
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "1",
                 "--save", str(tmp_path / "p.json"), input="wait\nwait\n\n?\nq\n")
    assert r.exit_code == 0, r.output
    assert r.output.count(LEGEND) == 2  # at the start, and after `?`
    before_help = r.output.split("Type an action's number")[0]
    assert before_help.count(LEGEND) == 1


def test_the_board_is_drawn_after_each_step_before_the_next_question(tmp_path: Path) -> None:
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "--save", str(tmp_path / "p.json"), input="wait\nq\n")
    out = r.output
    # The wind card and the troll's step are printed, then the board, then the question.
    wind = out.index("The wind card is")
    board = out.index("ABCDEF", wind)
    question = out.index("decides:", board)
    assert wind < board < question


def test_a_table_mode_question_names_the_roll_and_draws_the_board_so_far(
        tmp_path: Path) -> None:
    save = tmp_path / "t.json"
    r = meadhall("play", "toy", "--table", "--scenario", "open", "--heroes", "ada,bo",
                 "--seed", "1", "--save", str(save), input="wait\nmove A3\ncalm\nq\n")
    assert r.exit_code == 0, r.output
    out = r.output
    question = out.index("Your roll or draw: card drawn from wind")
    # Bo's move came before the draw: it is printed, and the board shows Bo on A3 already
    # (the state itself waits before the move, to replay it with the card).
    assert out.rindex("Bo moves to A3", 0, question) < out.rindex(" 3 B", 0, question)
    assert "calm (50%) · fog (25%) · gust (25%)" in out
    assert json.loads(save.read_text())["log"] == ["wait", "move A3", "result calm"]


def test_concede_asks_first_and_ends_the_game_as_a_loss(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "--save", str(save), input="concede\nn\nconcede too fast\ny\nwait\nq\n")
    assert r.exit_code == 0, r.output
    assert "Play on." in r.output
    assert "Game over: LOST — the players conceded: too fast" in r.output
    assert "The game is over: undo, save a copy" in r.output
    assert json.loads(save.read_text())["conceded"] == "the players conceded: too fast"


def test_w_saves_a_copy_without_replacing_a_file(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text("{}")
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "--save", str(tmp_path / "p.json"),
                 input=f"w {other}\nw {tmp_path / 'copy.json'}\nq\n")
    assert "already exists" in r.output and other.read_text() == "{}"
    assert json.loads((tmp_path / "copy.json").read_text())["game"] == "toy"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_ctrl_c_says_the_game_was_saved_and_where(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    child = pexpect.spawn(sys.executable, ["-m", "meadhall.cli", "play", "toy", "--scenario",
                                           "open", "--heroes", "ada,bo", "--seed", "1",
                                           "--save", str(save)],
                          cwd=str(ROOT), encoding="utf-8", timeout=120,
                          dimensions=(40, 120))
    child.expect("decides")
    child.expect(">")
    child.sendline("move B1")
    child.expect("Bo's turn")
    child.expect(">")
    child.sendintr()
    child.expect(f"Interrupted: the game is saved in {save}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(save.read_text())["log"] == ["move B1"]


def test_a_rule_not_implemented_is_reported_and_play_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from meadhall.core.errors import RuleNotImplemented

    def not_yet(self: ToyState, action: str, events: list) -> None:  # type: ignore[type-arg]
        raise RuleNotImplemented("toy", "Hero Turn", "waiting is not written yet")

    monkeypatch.setattr(ToyState, "_apply", not_yet)
    save = tmp_path / "p.json"
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "--save", str(save), input="wait\n?\nq\n")
    assert r.exit_code == 0, r.output
    assert "not implemented: toy: Hero Turn (waiting is not written yet)" in r.output
    assert "Type an action's number" in r.output  # the session went on
    assert json.loads(save.read_text())["log"] == []


def test_equally_likely_results_are_listed_on_one_line() -> None:
    from meadhall.core.chance import ChanceRequest
    from meadhall.play import _chance_lines

    d12 = ChanceRequest("heroes' initiative roll (d12)", tuple(str(i) for i in range(1, 13)))
    assert _chance_lines(d12) == [
        "  one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, each as likely as the others (8%)"]


def test_enter_without_a_default_asks_again_quietly(tmp_path: Path) -> None:
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "1",
                 "--save", str(tmp_path / "p.json"), input="\n\n\nq\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("ada decides") == 1
