"""Bots in people's seats (`meadhall play --bot SEAT=KIND`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meadhall import games
from meadhall.bots import BotError
from meadhall.bots.seats import bot_to_move, seat_bots
from meadhall.cli import app

TOY = games.get("toy")


def two_heroes(seed: int = 3):  # type: ignore[no-untyped-def]
    return TOY.new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, seed)


def test_seat_specs() -> None:
    state = two_heroes()
    bots = seat_bots(state, ["bo=heuristic"])
    assert list(bots) == ["bo"] and bots["bo"].spec == "heuristic"
    assert list(seat_bots(state, ["all=random"])) == ["ada", "bo"]
    with pytest.raises(BotError, match=r"no seat 'cy' at this table \(seats: ada, bo\)"):
        seat_bots(state, ["cy=random"])
    with pytest.raises(BotError, match="expected SEAT=KIND, e.g. ada=heuristic"):
        seat_bots(state, ["heuristic"])
    with pytest.raises(BotError, match="unknown bot 'clever'"):
        seat_bots(state, ["ada=clever"])


def test_who_answers_the_decision() -> None:
    state = two_heroes()
    assert state.decision().seat == "ada"
    bots = seat_bots(state, ["bo=random"])
    assert bot_to_move(state, bots) is None
    state.apply("wait")
    assert bot_to_move(state, bots) == ("bo", bots["bo"])
    # Players' choices go to the people while anyone sits at the table...
    while (d := state.decision()) is not None and d.seat != "players":
        state.apply(d.default or state.legal_actions()[-1])
    if d is not None:
        assert bot_to_move(state, bots) is None
        everyone = seat_bots(state, ["all=random"])
        assert bot_to_move(state, everyone) == ("ada", everyone["ada"])


def test_play_with_bots_in_every_seat(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    r = CliRunner().invoke(app, ["play", "toy", "--scenario", "chase", "--heroes", "ada,bo",
                                 "--seed", "5", "--bot", "all=heuristic:1", "--save",
                                 str(save)], input="q\n")
    assert r.exit_code == 0, r.output
    assert "Bots play ada (heuristic:1), bo (heuristic:1)" in r.output
    assert "ada (heuristic:1) >" in r.output and "bo (heuristic:1) >" in r.output
    data = json.loads(save.read_text())
    assert data["log"]
    state = TOY.replay(data["setup"], data["seed"], data["log"])
    assert state.outcome().over


def test_play_with_a_bad_bot_seat(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["play", "toy", "--scenario", "chase", "--heroes", "ada",
                                 "--seed", "5", "--bot", "bo=random", "--save",
                                 str(tmp_path / "g.json")], input="q\n")
    assert r.exit_code == 1
    assert "no seat 'bo' at this table (seats: ada)" in r.output
