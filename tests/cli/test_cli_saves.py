"""Nothing is ever lost: saves are created without clobbering, written atomically under a
lock with a revision, and keep the undo history across a resume."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from clitools import meadhall, meadhall_process

from meadhall import games
from meadhall.core import saves


def log_of(f: Path) -> list[str]:
    return json.loads(f.read_text())["log"]


def test_new_refuses_an_existing_file_without_force(toy_save: Path) -> None:
    before = toy_save.read_text()
    r = meadhall("new", "toy", "--seed", "2", "-o", str(toy_save))
    assert r.exit_code == 1
    assert "already exists" in r.output and "--force" in r.output
    assert toy_save.read_text() == before
    r = meadhall("new", "toy", "--seed", "2", "-o", str(toy_save), "--force")
    assert r.exit_code == 0, r.output
    assert json.loads(toy_save.read_text())["seed"] == 2


def test_saves_carry_a_revision_raised_by_every_write(toy_save: Path) -> None:
    assert json.loads(toy_save.read_text())["revision"] == 1
    assert meadhall("act", str(toy_save), "1").exit_code == 0
    assert json.loads(toy_save.read_text())["revision"] == 2


def test_a_stale_write_is_refused_and_changes_nothing(toy_save: Path) -> None:
    mine = saves.open_save(toy_save)
    assert meadhall("act", str(toy_save), "wait").exit_code == 0  # another program writes
    on_disk = toy_save.read_text()
    mine.history.apply(mine.state, "move B1")
    with pytest.raises(saves.StaleSave, match="changed by another program"):
        saves.write(mine, toy_save)
    assert toy_save.read_text() == on_disk


def test_two_acts_at_the_same_moment_both_land(tmp_path: Path) -> None:
    f = tmp_path / "race.json"
    assert meadhall("new", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "4",
                    "--auto-choices", "-o", str(f)).exit_code == 0
    procs = [meadhall_process("act", str(f), "wait") for _ in range(6)]
    results = [(p.wait(60), *p.communicate()) for p in procs]
    succeeded = [r for r in results if r[0] == 0]
    for code, _, err in results:
        assert code in (0, 1), err
        assert "Traceback" not in err
    data = json.loads(f.read_text())
    # Every reported success is in the file: one log entry and one journal entry each.
    assert len(data["log"]) == len(succeeded) == len(data["journal"])
    assert data["revision"] == 1 + len(succeeded)
    assert len(succeeded) >= 2


def test_writes_are_atomic(toy_save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = toy_save.read_text()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    r = meadhall("act", str(toy_save), "wait")
    assert r.exit_code == 1 and "No space left on device" in r.output
    assert toy_save.read_text() == before
    assert [p.name for p in toy_save.parent.iterdir()] == [toy_save.name]  # no temp file left


def test_undo_works_after_a_resume(toy_save: Path) -> None:
    assert meadhall("act", str(toy_save), "move B1").exit_code == 0
    r = meadhall("play", str(toy_save), input="undo\nq\n")
    assert r.exit_code == 0, r.output
    assert "Undone." in r.output
    assert log_of(toy_save) == []
    assert meadhall("act", str(toy_save), "move B1").exit_code == 0
    r = meadhall("undo", str(toy_save))
    assert r.exit_code == 0 and "Undone" in r.output
    assert log_of(toy_save) == []


def test_undo_never_goes_back_past_a_random_step(toy_save: Path) -> None:
    meadhall("act", str(toy_save), "wait")
    meadhall("act", str(toy_save), "wait")  # the last hero's turn ends: the wind card is drawn
    before = toy_save.read_text()
    r = meadhall("undo", str(toy_save))
    assert r.exit_code == 1 and "random" in r.output
    assert toy_save.read_text() == before


def test_a_save_whose_history_does_not_fit_is_loaded_without_it(toy_save: Path) -> None:
    meadhall("act", str(toy_save), "move B1")
    data = json.loads(toy_save.read_text())
    data["history"]["steps"][0]["text"] = "move A2"  # hand-edited: no longer leads here
    toy_save.write_text(json.dumps(data))
    r = meadhall("undo", str(toy_save))
    assert r.exit_code == 1 and "nothing to undo" in r.output


def test_concede_ends_the_game_and_undo_takes_it_back(toy_save: Path) -> None:
    r = meadhall("concede", str(toy_save), "the troll is too fast")
    assert r.exit_code == 0 and "LOST" in r.output and "troll is too fast" in r.output
    r = meadhall("act", str(toy_save), "wait")
    assert r.exit_code == 1
    assert "the game is over: lost — the players conceded: the troll is too fast" in r.output
    assert meadhall("undo", str(toy_save)).exit_code == 0
    assert meadhall("act", str(toy_save), "wait").exit_code == 0


def test_act_after_the_game_is_over_says_how_it_ended(tmp_path: Path) -> None:
    state = games.get("toy").new_game({"scenario": "open", "heroes": ["ada"]}, seed=3)
    state.concede()
    saves.save(state, tmp_path / "over.json")
    r = meadhall("act", str(tmp_path / "over.json"), "1")
    assert r.exit_code == 1 and "the game is over: lost — the players conceded" in r.output
    assert "Traceback" not in r.output


def test_play_never_overwrites_the_autosave(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "1",
                 input="move B1\nq\n")
    assert r.exit_code == 0, r.output
    first = Path("meadhall-toy.json").read_text()
    # A second `meadhall play toy` offers the game in progress; "n" starts a new file.
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "2",
                 input="n\nq\n")
    assert r.exit_code == 0, r.output
    assert "meadhall-toy.json holds a Troll Chase" in r.output
    assert Path("meadhall-toy.json").read_text() == first
    assert json.loads(Path("meadhall-toy-2.json").read_text())["seed"] == 2
    # Resuming is the default answer.
    r = meadhall("play", "toy", input="\nq\n")
    assert r.exit_code == 0 and "Resumed meadhall-toy.json" in r.output
    assert log_of(Path("meadhall-toy.json")) == ["move B1"]
    # Or the new game gets a name of the player's choosing.
    r = meadhall("play", "toy", "--scenario", "open", "--heroes", "ada", "--seed", "3",
                 input="mine\nq\n")
    assert r.exit_code == 0, r.output
    assert json.loads(Path("mine.json").read_text())["seed"] == 3


def test_play_moves_to_a_fresh_file_when_another_program_wrote_the_save(
        toy_save: Path) -> None:
    from rich.console import Console

    from meadhall.play import TerminalSession

    session = TerminalSession(Console(file=io.StringIO()), read=lambda prompt: "q")
    session.save = saves.open_save(toy_save)
    session.path = toy_save
    assert meadhall("act", str(toy_save), "move B1").exit_code == 0  # another program
    session.act("wait")  # the session's own step, from the position it read
    assert log_of(toy_save) == ["move B1"]  # the other program's step is kept
    assert session.path == toy_save.with_name("g-2.json")
    assert log_of(session.path) == ["wait"]  # and so is the session's


def test_a_save_whose_history_base_no_longer_loads_keeps_the_game(toy_save: Path) -> None:
    meadhall("act", str(toy_save), "move B1")
    data = json.loads(toy_save.read_text())
    data["history"]["base"]["position"]["wind"]["pile"] = [2.5]  # breaks only the history
    toy_save.write_text(json.dumps(data))
    r = meadhall("show", str(toy_save))
    assert r.exit_code == 0, r.output
    r = meadhall("undo", str(toy_save))
    assert r.exit_code == 1 and "nothing to undo" in r.output
