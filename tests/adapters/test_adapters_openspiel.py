"""The OpenSpiel games: parameters, explicit chance nodes, information, tensors, cutting."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from adapter_cases import NO_VOCABULARY_YET, Case
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from meadhall import games
from meadhall.adapters.openspiel import (
    HeuristicEvaluator,
    ISMCTSBot,
    MeadhallSpielState,
    _setup,
    game_type,
    load,
    register,
    short_name,
)
from meadhall.adapters.table import TableError


def _play(state: MeadhallSpielState, *texts: str, winds: tuple[str, ...] = ()) -> None:
    """Play the action texts; the wind cards drawn on the way are ``winds``, in order."""
    game = state.get_game()
    cards = list(winds)
    for t in texts:
        state.apply_action(game.vocabulary.id(t))
        while state.is_chance_node() and "wind" in state.meadhall_state.pending.request.what:
            state.apply_action(state.meadhall_state.pending.request.options.index(cards.pop(0)))


def test_every_game_is_registered_with_its_setup_as_parameters() -> None:
    names = register()
    assert "python_meadhall_toy" in names and set(names) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("python_meadhall_toy(heroes=ada+bo,max_steps=30,scenario=open)")
    assert game.table.setup == {"scenario": "open", "heroes": ["ada", "bo"]}
    assert game.num_players() == 2 and game.max_game_length() == 30
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.IDENTICAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_a_scenario_written_as_a_number_stays_a_scenario_name() -> None:
    # "python_meadhall_niflheim(scenario=1)" hands the parameter over as the integer 1.
    assert _setup(games.get("niflheim"), {"scenario": 1, "heroes": "frida",
                                          "campaign": False}) == \
        {"scenario": "1", "heroes": ["frida"], "campaign": False}
    assert game_type("niflheim").parameter_specification["scenario"] == 1


def test_a_game_that_hides_something_is_imperfect_information() -> None:
    register()
    # Runaljod resamples the unseen exploration cards (GameState._determinize).
    kind = pyspiel.load_game(short_name("toy")).get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type("runaljod").information == \
        pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_rolls_and_draws_are_chance_nodes_with_the_engines_odds() -> None:
    game = load("toy", heroes=["ada"], scenario="chase")
    state = game.new_initial_state()
    assert state.current_player() == 0
    _play(state, "move A2", "move A3", winds=("fog", "calm"))  # the troll steps to B3
    # Ada next to the troll: her attack is a d6 roll, a chance node of six results.
    state.apply_action(game.vocabulary.id("attack troll"))
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    with pytest.raises(ValueError, match="chance outcome 9 is not a result"):
        state.apply_action(9)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == \
        "Ada's attack on the troll (d6): 5"
    state.apply_action(4)  # a 5: the troll is stunned; then the wind deck is drawn
    assert state.is_chance_node()
    odds = dict(state.meadhall_state.pending.request.odds())
    assert [p for _, p in state.chance_outcomes()] == list(odds.values())
    assert odds["calm"] == pytest.approx(0.5)


def test_tensors_and_strings_come_from_the_seats_view() -> None:
    game = load("toy", heroes=["ada", "bo"])
    state = game.new_initial_state()
    obs = np.array(state.observation_tensor(1))
    assert obs.shape == (game.layout.size,) == tuple(game.observation_tensor_shape())
    assert np.array_equal(obs, game.encoder.flat(state.meadhall_state, "bo"))
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    _play(state, "move B1")
    info = state.information_state_string(1)
    assert info.startswith("Actions so far: move B1\n") and "you are seat bo" in info
    assert "Actions so far" not in state.observation_string(1)


def test_max_steps_cuts_the_game_with_no_winner() -> None:
    game = load("toy", heroes=["ada", "bo"], scenario="open", max_steps=2)
    state = game.new_initial_state()
    _play(state, "wait", "wait")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert "cut at max_steps" in str(state)


def test_clones_are_independent_and_serialisation_round_trips() -> None:
    game = load("toy", heroes=["ada", "bo"])
    state = game.new_initial_state()
    copy = state.clone()
    _play(copy, "move B1")
    assert state.meadhall_state.log == [] and copy.meadhall_state.log == ["move B1"]
    text = pyspiel.serialize_game_and_state(game, copy)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(copy) and back.history() == copy.history()


@pytest.mark.parametrize("evaluator", ["heuristic", "rollouts"])
def test_mcts_plays_the_toy_to_the_end(evaluator: str) -> None:
    game = load("toy", heroes=["ada"], max_steps=60)
    rng = np.random.RandomState(0)
    leaf = (HeuristicEvaluator(game) if evaluator == "heuristic"
            else mcts.RandomRolloutEvaluator(1, rng))
    bot = mcts.MCTSBot(game, 2.0, 30, leaf, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=odds)))
        else:
            state.apply_action(bot.step(state))
    assert state.returns()[0] in (-1.0, 1.0)


def test_the_heuristic_evaluator_maps_the_games_evaluation_to_returns() -> None:
    game = load("toy", heroes=["ada", "bo"])
    state = game.new_initial_state()
    value = game.table.game.evaluate(state.meadhall_state)
    assert list(HeuristicEvaluator(game).evaluate(state)) == [2 * value - 1] * 2
    prior = HeuristicEvaluator(game).prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(TableError, match="max_steps must be a positive"):
        load("toy", max_steps=0)
    with pytest.raises(TableError, match="choices_by must be one of the seats"):
        load("toy", choices_by="troll")


def test_resampling_keeps_what_the_seat_sees() -> None:
    game = load("toy", heroes=["ada", "bo"])
    state = game.new_initial_state()
    _play(state, "move B1")
    again = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.observation_tensor(1) == state.observation_tensor(1)
    assert again.history() == state.history() and again is not state


IMPERFECT = [g for g in games.ids()
             if game_type(g).information == pyspiel.GameType.Information.IMPERFECT_INFORMATION]


@pytest.mark.parametrize("game_id", [
    pytest.param(g, marks=[pytest.mark.xfail(strict=True, reason=f"{g}: no action vocabulary")]
                 if g in NO_VOCABULARY_YET else []) for g in IMPERFECT])
def test_ismcts_plays_the_games_that_hide_something(game_id: str) -> None:
    game = load(game_id, max_steps=40)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, HeuristicEvaluator(game), 2.0, 10, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=odds)))
        else:
            state.apply_action(bot.step(state))
    assert len(set(state.returns())) == 1


def _random_step(state: MeadhallSpielState, rng: np.random.Generator) -> int:
    if state.is_chance_node():
        outcomes, odds = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choice(outcomes, p=odds))
    return int(rng.choice(state.legal_actions()))


def test_undo_takes_whole_random_games_back_to_the_start(case: Case) -> None:
    game = load(case.game, **(case.setup or {}), max_steps=case.max_steps)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        # The strings and tensors of every 4th position (each is a drawing of the table).
        looks = ((state.information_state_string(0), state.observation_tensor(0))
                 if len(seen) % 4 == 0 else None)
        seen.append((state.meadhall_state.to_json(), state.history(), state.current_player(),
                     looks))
        state.apply_action(_random_step(state, rng))
    assert any(p == pyspiel.PlayerId.CHANCE for p, _ in state.full_history()) or \
        case.game == "toy"
    # A serialised copy keeps what undoing needs.
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    for s in (state, copy):
        for position, history, player, looks in reversed(seen):
            last = s.full_history()[-1]
            s.undo_action(last.player, last.action)
            assert s.meadhall_state.to_json() == position  # chance results as they fell
            assert (s.history(), s.current_player()) == (history, player)
            if looks is not None:
                assert s.information_state_string(0) == looks[0]
                assert np.array_equal(s.observation_tensor(0), looks[1])
        assert s.is_initial_state() and s.move_number() == 0
        with pytest.raises(ValueError, match="nothing to undo"):
            s.undo_action(0, 0)


def test_undo_names_the_step_it_would_take_back() -> None:
    game = load("toy", heroes=["ada", "bo"])
    state = game.new_initial_state()
    state.apply_action(game.vocabulary.id("move B1"))
    with pytest.raises(ValueError, match="not action 0 of player 1"):
        state.undo_action(1, 0)
    state.undo_action(0, game.vocabulary.id("move B1"))
    assert state.history() == [] and state.legal_actions() == game.new_initial_state(
    ).legal_actions()


SEARCH_SETUP: dict[str, dict[str, object]] = {"midhalla": {"replay_limit": 3}}
"""Setup keys a search needs to reach the end: Midhalla's players may replay step 3.3 as
often as they like, and a search facing a lost combat replays it forever (ruling 33a)."""


@pytest.mark.parametrize("game_id", games.ids())
def test_mcts_with_the_heuristic_plays_a_whole_game(game_id: str) -> None:
    """docs/adapters.md's example: MCTSBot, leaves scored by the game's own evaluation, plays
    each game (default setup, with ``SEARCH_SETUP``'s bounds) until the game itself ends (not
    cut)."""
    game = load(game_id, max_steps=600, **SEARCH_SETUP.get(game_id, {}))
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 4, HeuristicEvaluator(game), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=odds)))
        else:
            state.apply_action(bot.step(state))
    assert state.meadhall_state.outcome().over


def test_ismcts_plays_through_evaluate_bots() -> None:
    game = load("runaljod", max_steps=30)
    rng = np.random.RandomState(0)
    bot = ISMCTSBot(game, HeuristicEvaluator(game), 2.0, 5, random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot], rng)
    assert returns[0] in (-1.0, 0.0, 1.0)
    with pytest.raises(AssertionError):  # ISMCTS refuses perfect-information games
        ISMCTSBot(load("toy", heroes=["ada"]), HeuristicEvaluator(game), 2.0, 5).step(
            load("toy", heroes=["ada"]).new_initial_state())


def test_the_shipped_openspiel_facts_are_the_games_as_installed() -> None:
    """Registration reads each game's title, information, players and setup from a shipped
    file (importing the module imports no game): it must say what the games say."""
    from meadhall.adapters.openspiel import SHIPPED_FACTS, type_facts

    shipped = json.loads(SHIPPED_FACTS.read_text())
    assert list(shipped) == games.ids(), "python -m meadhall.adapters.layouts"
    for game_id, facts in shipped.items():
        fresh = json.loads(json.dumps(type_facts(game_id)))
        assert facts == fresh and list(facts["setup"]) == list(fresh["setup"]), (
            f"{game_id}: stale shipped OpenSpiel facts: python -m meadhall.adapters.layouts")
