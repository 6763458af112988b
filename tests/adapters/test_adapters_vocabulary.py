"""The dense action vocabulary, its mask and its file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adapter_cases import Case

from meadhall import games
from meadhall.adapters import vocabulary as vocab_module
from meadhall.adapters.table import Table
from meadhall.adapters.vocabulary import (
    NoVocabulary,
    Vocabulary,
    VocabularyError,
    content_hash,
)
from meadhall.bots.random import RandomBot
from meadhall.core.protocol import CHANCE

TOY = {"scenario": "chase", "heroes": ["ada", "bo"]}


def test_mask_marks_exactly_the_legal_actions(case: Case) -> None:
    table = Table.of(case.game, case.setup)
    v = Vocabulary.of(case.game, case.setup)
    for seed in range(2):
        state, bot = table.new_state(seed), RandomBot(seed)
        for _ in range(case.max_steps):
            if state.decision() is None:
                break
            mask = v.mask(state)
            legal = {a.text for a in state.legal_actions()}
            assert {v.actions[i] for i in mask.nonzero()[0]} == legal
            assert v.legal_ids(state) == sorted(v.id(t) for t in legal)
            state.apply(bot.choose(state))


def test_chance_decisions_have_no_player_actions() -> None:
    state = games.get("toy").new_game(TOY, 1, chance="table")
    v = Vocabulary.of("toy", TOY)
    while state.decision() is not None and state.decision().seat != CHANCE:
        state.apply(state.legal_actions()[0])
    assert state.decision() is not None
    assert v.legal_ids(state) == [] and not v.mask(state).any()


def test_numbering_follows_the_games_vocabulary_and_setup_defaults() -> None:
    v = Vocabulary.of("toy", {"scenario": "chase"})  # heroes from the default setup
    assert v.actions == tuple(games.get("toy").action_vocabulary(TOY))
    assert v.setup == {"scenario": "chase", "heroes": ["ada"]}
    assert v.text(v.id("wait")) == "wait"


def test_unknown_texts_and_indices_fail_with_the_reason() -> None:
    v = Vocabulary.of("toy", TOY)
    with pytest.raises(KeyError, match="not in the action vocabulary"):
        v.id("fly away")
    with pytest.raises(IndexError, match="outside the vocabulary"):
        v.text(len(v))


def test_a_game_without_vocabulary_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game = games.get("toy")

    def none(setup: object = None) -> list[str]:
        raise NotImplementedError("toy: no action vocabulary")

    monkeypatch.setattr(game, "action_vocabulary", none)
    vocab_module._vocabulary.cache_clear()
    try:
        with pytest.raises(NoVocabulary, match="toy: the game has no action vocabulary yet"):
            Vocabulary.of("toy", {"scenario": "open"})
    finally:
        vocab_module._vocabulary.cache_clear()


def test_file_round_trip(tmp_path: Path) -> None:
    v = Vocabulary.of("toy", TOY)
    path = v.save(tmp_path / "toy.json")
    data = json.loads(path.read_text())
    assert data["format"] == "meadhall/action-vocabulary" and data["size"] == len(v)
    assert data["content_hash"] == content_hash(games.get("toy"))
    assert Vocabulary.load(path) == v


def test_check_file_writes_then_accepts_an_extension_and_refuses_a_renumbering(
        tmp_path: Path) -> None:
    v = Vocabulary.of("toy", TOY)
    path = tmp_path / "pinned.json"
    v.check_file(path)  # first run: writes the file
    assert path.exists()
    v.check_file(path)  # same numbering: fine
    shorter = Vocabulary("toy", v.setup, v.actions[:-3], v.content_hash)
    shorter.save(path)
    v.check_file(path)  # the game appended actions: old indices still mean the same
    swapped = Vocabulary("toy", v.setup, (v.actions[1], v.actions[0], *v.actions[2:]),
                         v.content_hash)
    swapped.save(path)
    with pytest.raises(VocabularyError, match=r"actions\[0\].*numbers its actions differently"):
        v.check_file(path)


def test_check_file_warns_when_only_the_content_changed(tmp_path: Path) -> None:
    v = Vocabulary.of("toy", TOY)
    path = Vocabulary("toy", v.setup, v.actions, "sha256:old").save(tmp_path / "v.json")
    with pytest.warns(UserWarning, match="content changed"):
        v.check_file(path)


def test_check_file_refuses_another_setup(tmp_path: Path) -> None:
    path = Vocabulary.of("toy", {"scenario": "open"}).save(tmp_path / "v.json")
    with pytest.raises(VocabularyError, match="game/setup"):
        Vocabulary.of("toy", TOY).check_file(path)


def test_bad_files_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "meadhall/action-vocabulary", "version": 1,
                                "game": "toy", "setup": {}, "content_hash": "x",
                                "actions": "wait"}))
    with pytest.raises(VocabularyError, match="actions: must be a list"):
        Vocabulary.load(path)


def test_content_hash_covers_every_content_file() -> None:
    h = content_hash(games.get("toy"))
    assert h.startswith("sha256:") and len(h) == 7 + 64
    assert h == content_hash(games.get("toy"))
    assert len({content_hash(g) for g in games.all_games()}) == len(games.ids())


def test_the_file_pins_the_observation_layout_too(tmp_path: Path) -> None:
    v = Vocabulary.of("toy", TOY)
    path = tmp_path / "v.json"
    v.check_file(path, {"vector": {"shape": [3]}})
    assert json.loads(path.read_text())["observation"] == {"vector": {"shape": [3]}}
    v.check_file(path, {"vector": {"shape": [3]}})
    with pytest.raises(VocabularyError, match="observation: the observation layout changed"):
        v.check_file(path, {"vector": {"shape": [4]}})


def test_command_line_writes_the_file_and_prints_the_layout(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from meadhall.adapters.__main__ import app

    runner = CliRunner()
    out = tmp_path / "toy.json"
    r = runner.invoke(app, ["vocabulary", "toy", "--setup", json.dumps(TOY), "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["actions"] == list(Vocabulary.of("toy", TOY).actions)
    assert data["observation"]["grid:map"]["shape"][:2] == [5, 5]
    r = runner.invoke(app, ["layout", "toy"])
    assert r.exit_code == 0 and '"vector"' in r.output
    r = runner.invoke(app, ["layout", "chess"])
    assert r.exit_code == 1 and "unknown game 'chess'" in r.output
