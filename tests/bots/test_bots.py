"""The bots: specs, legality, determinism, honesty (no hidden information) and strength."""

from __future__ import annotations

import re

import pytest

from meadhall import games
from meadhall.bots import (
    BotError,
    DesignerBot,
    HeuristicBot,
    MCTSBot,
    RandomBot,
    check_spec,
    make_bot,
)
from meadhall.bots.base import search_copy
from meadhall.bots.registry import is_timed
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng

TOY = games.get("toy")
SEARCHERS = ["heuristic", "heuristic:2:width=3", "designer:per=4:low=8:high=16:top=3",
             "designer:low=6:high=6:depth=2:c=0.8", "mcts:40", "mcts:30:rollout=heuristic:depth=2",
             "mcts:40:depth=3:c=0.8"]


def play(spec: str, seed: int, setup: dict | None = None, game_id: str = "toy",
         limit: int = 400) -> GameState:
    state = games.get(game_id).new_game(setup, seed)
    bot = make_bot(spec, seed + 100)
    for _ in range(limit):
        if state.decision() is None:
            break
        state.apply(bot.choose(state))
    return state


@pytest.mark.parametrize(("spec", "kind"), [
    ("random", RandomBot), ("heuristic", HeuristicBot), ("heuristic:5", HeuristicBot),
    ("heuristic:width=4", HeuristicBot), ("mcts:200", MCTSBot), ("mcts:1s", MCTSBot),
    ("mcts:0.25s", MCTSBot), ("mcts:200:rollout=heuristic:depth=3:c=0.7", MCTSBot),
    ("designer", DesignerBot), ("designer:per=8:low=4:high=64:top=3:prior=2:c=0.5:depth=1",
                                 DesignerBot),
    (" mcts:10 ", MCTSBot)])
def test_specs_build_their_bot(spec: str, kind: type) -> None:
    bot = make_bot(spec, 3)
    assert isinstance(bot, kind)
    assert bot.spec == spec.strip()
    assert check_spec(spec) == spec.strip()


def test_budgets() -> None:
    iterations = make_bot("mcts:200")
    seconds = make_bot("mcts:1.5s")
    assert isinstance(iterations, MCTSBot) and isinstance(seconds, MCTSBot)
    assert (iterations.iterations, iterations.seconds) == (200, None)
    assert (seconds.iterations, seconds.seconds) == (None, 1.5)
    assert is_timed("mcts:1.5s") and not is_timed("mcts:200") and not is_timed("heuristic")


@pytest.mark.parametrize(("spec", "message"), [
    ("alphazero", "unknown bot 'alphazero'; choose from random, heuristic, designer, mcts"),
    ("designer:top=0", "top must be at least 1"),
    ("designer:prior=0", "prior must be at least 1"),
    ("designer:rollouts=2", "unknown option 'rollouts=2' (options: per=..., low=..., high=..., "
     "top=..., prior=..., depth=..., c=...)"),
    ("designer:40", "designer takes options KEY=VALUE"),
    ("mcts", "mcts needs a budget"),
    ("mcts:lots", "the budget must be a number of iterations (mcts:200) or of seconds "
     "(mcts:1s), not 'lots'"),
    ("mcts:0", "the iteration budget must be at least 1"),
    ("mcts:0s", "the time budget must be positive"),
    ("mcts:-1s", "not '-1s'"),
    ("mcts:10:rollout=smart", "rollout policy must be random or heuristic"),
    ("mcts:10:depth=-2", "depth must be at least 0"),
    ("mcts:10:speed=3", "unknown option 'speed=3' (options: rollout=..., depth=..., c=...)"),
    ("heuristic:0", "samples must be at least 1"),
    ("random:3", "the random bot takes no options"),
])
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=re.escape(message)) as e:
        make_bot(spec)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("spec", ["random", "heuristic:1", "mcts:8",
                                  "designer:low=8:high=8:depth=1"])
def test_every_bot_answers_every_game_legally(game_id: str, spec: str) -> None:
    state = games.get(game_id).new_game(seed=2)
    bot = make_bot(spec, 1)
    for _ in range(6):
        if state.decision() is None:
            break
        before = state.to_json()
        action = bot.choose(state)
        assert state.to_json() == before, "choosing must not change the state"
        assert action in state.legal_actions()
        state.apply(action)


@pytest.mark.parametrize("game_id", games.ids())
def test_search_copies_have_the_positions_legal_actions(game_id: str) -> None:
    """A search copy remembers the position's legal actions (so that applying one is not
    checked again, GameState.determinize): over random games, a copy made without that memory
    computes the very same legal actions, whatever determinizing resampled."""
    state = games.get(game_id).new_game(seed=5)
    bot = make_bot("random", 5)
    for step in range(60):
        if state.decision() is None:
            break
        legal = [a.text for a in state.legal_actions()]
        copy = search_copy(state, Rng(step))
        assert copy.__dict__.get("_legal_memo") == set(legal)
        del copy.__dict__["_legal_memo"]
        assert [a.text for a in copy.legal_actions()] == legal, f"step {step}"
        state.apply(bot.choose(state))


@pytest.mark.parametrize("game_id", games.ids())
def test_a_games_repetition_text_is_the_kernels(game_id: str) -> None:
    """A game that writes its repetition text its own (faster) way writes the kernel's text,
    so that a bot's memory of positions, and its choices, stay the same."""
    state = games.get(game_id).new_game(seed=6)
    bot = make_bot("random", 6)
    for step in range(80):
        assert state.repetition_text() == GameState.repetition_text(state), f"step {step}"
        if state.decision() is None:
            break
        state.apply(bot.choose(state))


@pytest.mark.parametrize("spec", ["random", *SEARCHERS])
def test_same_seed_same_game(spec: str) -> None:
    a = play(spec, 4)
    b = play(spec, 4)
    assert a.log == b.log
    assert a.outcome().over


@pytest.mark.parametrize("spec", SEARCHERS)
def test_searchers_cannot_tell_two_determinizations_apart(spec: str) -> None:
    """Two copies that differ only in what the players cannot see (the wind deck's order and
    the dice to come) get the same choices from bots with the same seed."""
    state = TOY.new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, 9)
    for step in range(12):
        if state.decision() is None:
            break
        one, two = state.determinize(Rng(1)), state.determinize(Rng(2))
        assert one.view(None) == two.view(None)
        assert one.chance.rng != two.chance.rng
        assert make_bot(spec, step).choose(one) == make_bot(spec, step).choose(two)
        state.apply(make_bot(spec, step).choose(state))


@pytest.mark.parametrize("game_id", [g for g in games.ids() if g != "toy"])
def test_mcts_honest_in_every_game(game_id: str) -> None:
    state = games.get(game_id).new_game(seed=5)
    rnd = RandomBot(2)
    for _ in range(5):
        if state.decision() is None:
            break
        state.apply(rnd.choose(state))
    if state.decision() is None:
        pytest.skip("the random game ended during the opening")
    one, two = state.determinize(Rng(11)), state.determinize(Rng(12))
    assert make_bot("mcts:12", 3).choose(one) == make_bot("mcts:12", 3).choose(two)


def test_bots_answer_table_mode_positions_without_asking_for_dice() -> None:
    state = TOY.new_game(None, 3, chance="table")
    for spec in SEARCHERS:
        before = state.to_json()
        action = make_bot(spec, 1).choose(state)
        assert action in state.legal_actions()
        assert state.to_json() == before


def test_a_finished_game_has_nothing_to_choose() -> None:
    end = play("random", 1)
    for spec in ("heuristic", "mcts:5", "designer"):
        with pytest.raises(BotError, match="no legal action, the game is over"):
            make_bot(spec).choose(end)


def test_timed_mcts_runs_at_least_one_iteration() -> None:
    bot = make_bot("mcts:0.05s", 1)
    assert isinstance(bot, MCTSBot)
    state = TOY.new_game(None, 1)
    assert bot.choose(state) in state.legal_actions()
    assert bot.last_iterations >= 1


def test_heuristic_scores_follow_the_evaluation() -> None:
    """Next to the exit, stepping onto it wins outright and scores 1."""
    state = TOY.from_json({**TOY.new_game(None, 1).to_json(), "position": {
        **TOY.new_game(None, 1).to_json()["position"], "heroes": {"ada": "E4"}}})
    scores = dict((a.text, s) for a, s in HeuristicBot(1).scores(state))
    assert scores["move E5"] == 1.0
    assert max(scores.values()) == scores["move E5"]
    assert make_bot("heuristic", 3).choose(state).text == "move E5"
    assert make_bot("mcts:30", 3).choose(state).text == "move E5"


def test_searchers_beat_random_in_the_toy() -> None:
    def wins(spec: str, n: int) -> int:
        return sum(play(spec, seed).outcome().result == "win" for seed in range(n))

    random_wins = wins("random", 30)
    assert wins("heuristic", 30) >= random_wins + 10
    assert wins("mcts:25", 12) >= 6


def test_a_position_seen_again_gets_a_different_choice() -> None:
    from meadhall.bots.base import Repetition

    state = TOY.new_game(None, 1)
    rep = Repetition()
    actions = state.legal_actions()
    assert rep.allowed(state, actions) == actions
    rep.record(state, actions[0])
    assert rep.allowed(state.clone(), actions) == actions[1:]
    for a in actions[1:]:
        rep.record(state, a)
    assert rep.allowed(state, actions) == actions, "all tried: all allowed again"
    other = state.clone()
    other.apply("wait")
    assert rep.allowed(other, other.legal_actions()) == other.legal_actions()


def test_free_actions_that_undo_each_other_do_not_loop() -> None:
    """Midhalla's preparation lets the party give an item back and forth for free; a weak
    search once chose that forever. Bots come back to a position and try something else."""
    game = games.get("midhalla")
    for spec in ("mcts:10", "heuristic:1"):
        state = game.new_game({"scenario": "chapter1"}, 1)
        bot = make_bot(spec, 5)
        for _ in range(1500):
            if state.decision() is None:
                break
            state.apply(bot.choose(state))
        assert state.outcome().over, spec


def test_designer_budget_grows_with_the_candidates_within_its_bounds() -> None:
    bot = make_bot("designer:per=20:low=30:high=70:top=2", 1)
    assert isinstance(bot, DesignerBot)
    assert [bot.budget(n) for n in (1, 2, 3, 8)] == [30, 40, 60, 70]
    state = TOY.new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, 2)
    assert len(state.legal_actions()) > 2
    bot.choose(state)
    assert bot.last_iterations == 40, "only the screen's top 2 are searched"


def test_designer_takes_the_screens_win_and_searches_otherwise() -> None:
    state = TOY.from_json({**TOY.new_game(None, 1).to_json(), "position": {
        **TOY.new_game(None, 1).to_json()["position"], "heroes": {"ada": "E4"}}})
    bot = make_bot("designer", 3)
    assert isinstance(bot, DesignerBot)
    assert bot.choose(state).text == "move E5"
    assert bot.last_iterations == 0, "a win on the screen needs no search"
    state = TOY.new_game(None, 1)
    bot.choose(state)
    assert bot.last_iterations >= bot.low


def test_designer_beats_the_heuristic_in_the_toy() -> None:
    def wins(spec: str, n: int) -> int:
        return sum(play(spec, seed).outcome().result == "win" for seed in range(n))

    assert wins("designer:per=6:low=12:high=24", 16) >= wins("heuristic", 16) + 4
