"""The Gymnasium environment: seats, players' choices, the mask, illegal actions, truncation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from meadhall import games
from meadhall.adapters.gym import MeadhallEnv, env_id, make_env, register
from meadhall.adapters.table import Table, TableError
from meadhall.bots import BotError, HeuristicBot, MCTSBot, RandomBot
from meadhall.core.protocol import PLAYERS, Action, GameState

OPEN = {"scenario": "open", "heroes": ["ada", "bo"]}
"""Seed 0 with Ada "move B1" and Bo "move B2" reaches a players' choice (a troll tie)."""


def _tie_state() -> GameState:
    state = games.get("toy").new_game(OPEN, 0)
    for a in ("move B1", "move B2"):
        state.apply(a)
    assert state.decision() is not None and state.decision().seat == PLAYERS
    return state


def test_players_choices_go_to_the_designated_seat() -> None:
    state = _tie_state()
    assert Table.of("toy", OPEN).decider(state) == "ada"  # the first seat by default
    assert Table.of("toy", OPEN, "bo").decider(state) == "bo"
    assert Table.of("toy", OPEN, "default").auto_choices


def test_unknown_choices_seat_is_refused() -> None:
    with pytest.raises(TableError, match="choices_by must be one of the seats"):
        Table.of("toy", OPEN, "troll")


def test_the_learning_seat_answers_players_choices_unless_told_otherwise() -> None:
    env = make_env("toy", OPEN, seat="bo", others=lambda s: s.legal_actions()[0])
    assert env.table.choices_seat == "bo"
    env = make_env("toy", OPEN, seat="bo", others="random", choices_by="ada")
    assert env.table.choices_seat == "ada"


def test_default_choices_are_taken_by_the_engine() -> None:
    env = make_env("toy", OPEN, seat="ada", others="random", choices_by="default")
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert env.state is not None and env.state.decision().seat != PLAYERS
            obs, _, terminated, truncated, info = env.step(
                env.action_space.sample(info["action_mask"]))
            done = terminated or truncated


def test_reset_seed_is_the_games_seed_and_the_log_replays() -> None:
    env = make_env("toy", OPEN, seat="bo", others="random")
    _, info = env.reset(seed=41)
    assert info["seed"] == 41 and env.state is not None
    replay = games.get("toy").replay(OPEN, 41, env.state.log)
    assert replay == env.state
    assert info["events"] == [e for e in info["events"] if isinstance(e, str)]


def test_an_illegal_action_costs_and_changes_nothing() -> None:
    env = make_env("toy", OPEN, seat="ada", others="random", illegal_reward=-0.5)
    obs, info = env.reset(seed=2)
    assert env.state is not None
    before = env.state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -0.5 and not terminated and not truncated
    assert info2["illegal_action"] == env.vocabulary.text(illegal)
    assert env.state.to_json() == before
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)


def test_the_episode_is_cut_after_max_steps() -> None:
    env = make_env("toy", OPEN, others=lambda s: "wait", max_steps=2)
    env.reset(seed=3)
    wait = env.vocabulary.id("wait")
    assert env.step(wait)[1:4] == (0.0, False, False)
    assert env.step(wait)[1:4] == (0.0, False, True)  # cut: neither won nor lost


def test_stepping_a_finished_game_asks_for_reset() -> None:
    env = make_env("toy", {"scenario": "chase", "heroes": ["ada"]}, others="random")
    _, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_other_seats_play_with_the_given_bot() -> None:
    seen: list[str] = []

    def waiter(state: GameState) -> Action:
        d = state.decision()
        assert d is not None
        seen.append(d.seat)
        return Action("wait") if Action("wait") in state.legal_actions() \
            else state.legal_actions()[0]

    env = make_env("toy", OPEN, seat="bo", others=waiter)
    env.reset(seed=3)
    assert seen == ["ada"]


def test_unknown_seats_and_bots_are_refused() -> None:
    with pytest.raises(TableError, match="seat must be one of ada, bo"):
        make_env("toy", OPEN, seat="troll")
    with pytest.raises(BotError, match="unknown bot 'genius'"):
        make_env("toy", OPEN, others="genius").reset(seed=0)


@pytest.mark.parametrize(("spec", "kind"), [("random", RandomBot), ("heuristic", HeuristicBot),
                                            ("mcts:20", MCTSBot)])
def test_other_seats_are_played_by_meadhalls_bots(spec: str, kind: type) -> None:
    env = make_env("toy", OPEN, seat="bo", others=spec)
    _, info = env.reset(seed=0)
    assert isinstance(env._bot, kind)
    assert info["events"][0].startswith("Ada ")  # the bot played Ada's turn before Bo's


def test_games_are_registered_with_gymnasium() -> None:
    assert register() == [env_id(g) for g in games.ids()]
    env = gymnasium.make("meadhall/toy-v0", setup=OPEN, seat="bo", others="random")
    assert isinstance(env.unwrapped, MeadhallEnv) and env.unwrapped.seat == "bo"
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space and info["action_mask"].any()


def test_render_is_the_text_view() -> None:
    env = make_env("toy", OPEN, seat="ada", others="random", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and "you are seat ada" in text and "Legal actions" in text


def test_vocabulary_file_pins_the_numbering(tmp_path: Path) -> None:
    path = tmp_path / "toy.vocab.json"
    make_env("toy", OPEN, others="random", vocabulary_file=str(path))
    assert path.exists()
    make_env("toy", OPEN, others="random", vocabulary_file=str(path))  # checked, unchanged


def test_meadhall_imports_without_the_rl_libraries() -> None:
    # The RL libraries are an optional extra: hide them and import the rest of meadhall.
    code = (
        "import sys\n"
        "for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'):\n"
        "    sys.modules[m] = None\n"
        "import meadhall, meadhall.cli, meadhall.games, meadhall.bots.random\n"
        "import meadhall.adapters\n"
        "try:\n"
        "    import meadhall.adapters.gym\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert "pip install 'meadhall[rl]'" in out.stdout, out.stderr


def test_a_game_the_other_seats_finish_alone_ends_at_reset() -> None:
    # Bo has escaped already: Ada (a bot, answering the troll's ties too) plays on alone
    # until the game ends.
    start = games.get("toy").from_json({
        "game": "toy", "setup": OPEN, "seed": 4,
        "position": {"heroes": {"ada": "A1"}, "escaped": ["bo"], "troll": {"at": "C3"}}})
    env = make_env("toy", OPEN, seat="bo", others="random", choices_by="ada")
    _, info = env.reset(options={"state": start})
    assert "outcome" in info and not info["action_mask"].any()
    assert info["seed"] == 4 and info["events"]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_the_others_default_to_the_random_bot() -> None:
    env = make_env("toy", OPEN)
    assert env.others == "random" and gymnasium.make(env_id("toy")).unwrapped.others == "random"


def test_shaping_adds_the_change_in_the_games_own_evaluation() -> None:
    plain = make_env("niflheim", {"scenario": "1"}, max_steps=30)
    shaped = make_env("niflheim", {"scenario": "1"}, max_steps=30, shaping=0.5)
    game = shaped.table.game
    _, info = plain.reset(seed=3)
    _, shaped_info = shaped.reset(seed=3)
    assert shaped.state is not None
    start, total, done = game.evaluate(shaped.state), 0.0, False
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = plain.step(action)
        _, shaped_reward, *_, shaped_info = shaped.step(action)
        assert shaped_reward == pytest.approx(reward + shaped_info["shaping"])
        assert "shaping" not in info
        total += shaped_info["shaping"]
        done = terminated or truncated
    assert total == pytest.approx(0.5 * (game.evaluate(shaped.state) - start))


def test_human_render_mode_prints_the_text_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = make_env("toy", OPEN, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Decision for you" in capsys.readouterr().out
