"""Evaluation for bots, action ordering, the lab's measures and the statistics events."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Action, GameState
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.evaluation import activation_ended
from meadhall.games.niflheim.figures import MP
from meadhall.games.niflheim.testkit import open_map, position


def greedy_game(setup: dict[str, Any], seed: int, max_steps: int = 1500) -> GameState:
    """One-ply greedy play: every legal action on a determinized copy, the best evaluation
    taken (what the generic heuristic bot does)."""
    s = GAME.new_game(setup, seed)
    rng = Rng(seed + 99)
    for _ in range(max_steps):
        if s.decision() is None:
            break
        acts = s.legal_actions()
        best, value = acts[0], -1.0
        if len(acts) > 1:
            for a in GAME.order_actions(s, acts):
                c = s.determinize(rng)
                c.apply(a.text)
                v = GAME.evaluate(c)
                if v > value:
                    best, value = a, v
        s.apply(best.text)
    return s


def random_game(setup: dict[str, Any], seed: int) -> GameState:
    s = GAME.new_game(setup, seed)
    bot = RandomBot(seed)
    for _ in range(3000):
        if s.decision() is None:
            break
        s.apply(bot.choose(s))
    return s


def test_one_ply_greedy_on_evaluate_beats_random_play() -> None:
    seeds = range(10)
    greedy = sum(greedy_game({"scenario": "1"}, s).outcome().result == "win" for s in seeds)
    rand = sum(random_game({"scenario": "1"}, s).outcome().result == "win" for s in seeds)
    assert greedy >= 4 and rand <= 1, (greedy, rand)


def pos(heroes: dict[str, Any], ud: list[dict] | None = None, scenario: str = "1",
        **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"heroes": hs, "undead": ud or [], "active": next(iter(heroes)),
                         "pool": {"draugr": 2}, "coin_used": True,
                         "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


def test_evaluate_rewards_progress_toward_the_objective() -> None:
    """Scenario 1: the torch, then the Jarl, then the exit; closer is better."""
    far = pos({"frida": {"at": "B2"}})
    near_torch = pos({"frida": {"at": "I2"}})
    torch = pos({"frida": {"at": "I2", "gear": ["torch"]}}, items={})
    jarl = pos({"frida": {"at": "K8", "gear": ["torch"]}}, items={}, done=["J"])
    at_exit = pos({"frida": {"at": "L7", "gear": ["torch"]}}, items={}, done=["J"])
    values = [GAME.evaluate(s) for s in (far, near_torch, torch, jarl, at_exit)]
    assert values == sorted(values) and len(set(values)) == 5
    at_exit.apply("exit E")
    assert at_exit.outcome().result == "win" and GAME.evaluate(at_exit) == 1.0


def test_order_actions_puts_objective_steps_first() -> None:
    s = pos({"frida": {"at": "L7", "gear": ["torch"]}}, items={}, done=["J"])
    ordered = [a.text for a in GAME.order_actions(s, s.legal_actions())]
    assert ordered[0] == "exit E" and ordered[-1] == "end activation"
    assert sorted(ordered) == sorted(a.text for a in s.legal_actions())
    assert isinstance(GAME.order_actions(s, s.legal_actions())[0], Action)


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_knockout_event_and_measures_of_a_loss() -> None:
    s = pos({"frida": {"at": "C3", "health": 1, "locked_by": 1, "intent": None, "mp": 0}},
            [{"id": 1, "kind": "draugr", "at": "C4"}], map=open_map(8, 8), scenario="2",
            done=["O2"], items={})
    s.force(3)  # fails to break the lock: 3 < 9 (sling-less fists, walking)
    events = s.apply("declare walking")
    ko = [e for e in events if e.kind == "knockout"]
    assert len(ko) == 1 and ko[0].data == {"hero": "frida", "by": "undead1",
                                            "by_type": "draugr"}
    assert ko[0].text.startswith("Frida is killed")
    m = s.measures()
    assert s.outcome().result == "loss"
    assert m["trigger"] == "heroes_killed" and m["final_blow"] == "draugr"
    assert m["margin_objectives"] == 0.0 and m["margin_undead_left"] == 1
    assert m["rounds"] == 1 and m["knockouts"] == 1 and m["heroes_standing"] == 0


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_kill_event_names_hero_and_enemy_type() -> None:
    s = pos({"frida": {"at": "C3", "ready": "seax"}}, [{"id": 1, "kind": "draugr", "at": "C4"}],
            map=open_map(8, 8), scenario="2", done=["O2"], items={})
    s.force(9)
    events = s.apply("attack undead 1 with seax")
    kill = next(e for e in events if e.kind == "kill")
    assert kill.data["by"] == "frida" and kill.data["enemy_type"] == "draugr"
    assert kill.data["enemy"] == "undead1"
    m = s.measures()
    assert m["undead_killed"] == 1 and m["undead_left"] == 0 and "trigger" not in m


def test_an_activation_under_way_is_scored_once_ended_and_the_undead_answered() -> None:
    """A one-ply bot must not see ending an activation as worse than putting it off: a
    position in the middle of one is scored after the undead turn it leads to."""
    fresh = pos({"frida": {"at": "B2", "mp": MP["walking"]}})
    assert activation_ended(fresh) is fresh  # a declaration's MP are still to be used
    s = pos({"frida": {"at": "B2", "mp": 1}}, [{"id": 1, "kind": "draugr", "at": "B5"}],
            map=open_map(8, 8), scenario="2", done=["O2"], items={})
    before = s.to_json()
    ended = activation_ended(s)
    assert s.to_json() == before and ended is not s
    assert [u.at for u in ended.undead.values()] != [u.at for u in s.undead.values()]
    assert ended.round > s.round or ended.active != "frida" or ended.heroes["frida"].mp != 1
    assert GAME.evaluate(s) == GAME.evaluate(ended)


def test_evaluate_at_a_table_mode_die_question_leaves_the_question_alone() -> None:
    """In table mode a die's result is the table's to enter (seat ``chance``): evaluating such
    a position (OpenSpiel's chance nodes, a bot at a table) scores it without answering the
    question with a hero's action, and changes nothing."""
    asked = 0
    for seed in range(6):
        s = GAME.new_game({"scenario": "2", "heroes": ["frida", "killian"]}, seed, chance="table")
        bot = RandomBot(seed)
        for _ in range(300):
            d = s.decision()
            if d is None:
                break
            if d.seat == "chance" and s.active is not None:
                asked += 1
                before = s.to_json()
                assert 0.0 <= GAME.evaluate(s) <= 1.0
                assert s.to_json() == before
            s.apply(bot.choose(s))
    assert asked > 0


@pytest.mark.parametrize("setup", [
    {"scenario": "1", "heroes": ["frida", "killian"]},
    {"scenario": "2", "heroes": ["frida", "killian"]},
    {"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]},
    {"scenario": "4"}, {"scenario": "33"},
    {"scenario": "5", "heroes": ["frida", "killian"]},
    {"campaign": True},
], ids=str)
def test_the_scores_equal_the_plain_computation(setup: dict[str, Any]) -> None:
    """Objective stages, progress, health, safety and the order of actions come out exactly
    as the plain computation (``niflheim_evaluation_reference``) gives them, at every step of
    random games in every scenario."""
    import niflheim_evaluation_reference as ref

    from meadhall.core.rng import Rng
    from meadhall.games.niflheim import evaluation

    for seed in range(3):
        s = GAME.new_game(setup, seed)
        rng = Rng(seed)
        for _ in range(150):
            if s.outcome().over:
                break
            done, total, open_ = evaluation.tasks(s)
            assert (done, total, [(list(q), w) for q, w in open_]) == ref.tasks(s)
            assert evaluation.scenario_value(s) == ref.scenario_value(s)
            actions = s.legal_actions()
            if not actions:
                break
            assert evaluation.order_actions(s, actions) == sorted(
                actions, key=lambda a: _plain_rank(s, a, ref))
            s.apply(actions[rng.below(len(actions))])


def _plain_rank(s: Any, a: Any, ref: Any) -> tuple[int, int]:
    """order_actions' key, with the plain walking fields."""
    from meadhall.core import grid
    from meadhall.games.niflheim.evaluation import FAR, ORDER

    fields = [ref.walk_field(s, squares) for squares, _ in ref.tasks(s)[2]]
    word = a.text.split(" ", 1)[0]
    kind = ORDER.index(word) if word in ORDER else len(ORDER)
    if word == "move" and fields:
        q = grid.sq(a.text.split()[1])
        return kind, min(f.get(q, FAR) for f in fields)
    return kind, 0
