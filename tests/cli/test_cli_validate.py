"""`meadhall validate`: nothing broken gets in, and every refusal is one clear line."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from clitools import ROOT, meadhall

from meadhall import games
from meadhall.core.errors import ContentError

TOY_CONTENT = ROOT / "src/meadhall/games/toy/content/toy.json"


def test_validate_runs_the_games_own_load_checks(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def check(path: str, model: Any) -> None:
        seen.append(type(model).__name__)
        raise ContentError(path, "scenarios.chase.troll", "C3 is a wall")

    monkeypatch.setattr(games.get("toy"), "check_content", check)
    folder = tmp_path / "toy"
    folder.mkdir()
    shutil.copy(TOY_CONTENT, folder / "toy.json")
    r = meadhall("validate", str(folder / "toy.json"))
    assert r.exit_code == 1
    assert seen == ["ToyContent"]
    assert f"{folder / 'toy.json'}: scenarios.chase.troll: C3 is a wall" in r.output


@pytest.mark.parametrize("game_id", games.ids())
def test_every_games_shipped_content_validates(game_id: str) -> None:
    folder = ROOT / "src/meadhall/games" / game_id / "content"
    r = meadhall("validate", str(folder))
    assert r.exit_code == 0, r.output


def test_a_file_named_like_no_content_says_which_names_are_expected(tmp_path: Path) -> None:
    f = tmp_path / "toy" / "monsters.json"
    f.parent.mkdir()
    f.write_text("{}")
    r = meadhall("validate", str(f))
    assert r.exit_code == 1
    assert "its name fits no content file; expected names: toy: toy.json" in r.output
    g = tmp_path / "stray.json"
    g.write_text("{}")
    r = meadhall("validate", str(g))
    assert r.exit_code == 1
    for game in games.all_games():
        for pattern in game.content_models():
            assert pattern in r.output


def test_an_empty_folder_says_there_was_nothing_to_check(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not content")
    r = meadhall("validate", str(tmp_path))
    assert r.exit_code == 1
    assert "nothing to check" in r.output


def test_a_missing_path_and_a_broken_file_are_one_line_each(tmp_path: Path) -> None:
    r = meadhall("validate", str(tmp_path / "nope.json"))
    assert r.exit_code == 1 and "nope.json: no such file or folder" in r.output
    bad = tmp_path / "g.json"
    bad.write_bytes(b"\xff\xfe not text")
    r = meadhall("validate", str(bad))
    assert r.exit_code == 1 and "Traceback" not in r.output
    bad.write_text("[" * 100_000)
    r = meadhall("show", str(bad))
    assert r.exit_code == 1 and "Traceback" not in r.output


def test_validate_and_show_refuse_a_position_the_game_refuses(tmp_path: Path) -> None:
    import json

    state = games.get("toy").new_game({"scenario": "open", "heroes": ["ada"]}, seed=1)
    data = state.to_json()
    data["position"]["heroes"]["ada"] = "Z99"
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(data))
    for command in ("validate", "show"):
        r = meadhall(command, str(f))
        assert r.exit_code == 1
        assert "position.heroes.ada: Z99 is off the map" in r.output
