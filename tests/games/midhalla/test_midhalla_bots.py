"""What bots and the simulation lab read: evaluate, order_actions, measures and the statistics
events (``knockout``, ``kill``)."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Action
from meadhall.core.rng import Rng
from meadhall.games.midhalla.testkit import combat, line, paused

G = games.get("midhalla")


def greedy_action(st, rng: Rng) -> Action:
    """One-ply greedy: each legal action on a determinized clone, the best evaluation wins
    (the first of equals, in ``order_actions`` order)."""
    best, pick = -1.0, None
    for a in G.order_actions(st, st.legal_actions()):
        c = st.determinize(rng)
        c.apply(a)
        v = G.evaluate(c)
        if v > best + 1e-12:
            best, pick = v, a
    assert pick is not None
    return pick


def play(seed: int, greedy: bool, setup=None):
    st = G.new_game(setup, seed)
    rng, bot = Rng(seed + 99), RandomBot(seed)
    for _ in range(3000):
        if st.decision() is None:
            break
        st.apply(greedy_action(st, rng) if greedy else bot.choose(st))
    return st


def test_a_greedy_policy_on_evaluate_wins_clearly_more_than_random_play() -> None:
    # The side chapter: chapter 1's authored exploration counts are tuned for the heuristic
    # bot (3 samples) to win about half its games (docs/balance.md), too hard a test for
    # this one-sample greedy policy on four seeds.
    seeds, setup = range(4), {"scenario": "side_loot_den"}
    greedy = [play(s, True, setup) for s in seeds]
    rand = [play(s, False, setup) for s in seeds]
    assert all(st.outcome().over for st in greedy)
    g = sum(st.outcome().result == "win" for st in greedy)
    r = sum(st.outcome().result == "win" for st in rand)
    assert g >= 3 and g > r + 1


def test_evaluate_is_one_for_a_win_zero_for_a_loss_and_rewards_progress() -> None:
    st = paused(phase="combat", tiles=line(2, 2),
                              heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "t1"}},
                              enemies={"e1": {"card": "kobold_slinger", "tile": "t2"}})
    combat(st, "heroes")
    before = G.evaluate(st)
    assert 0 < before < 1
    hurt = st.clone()
    hurt.gate_hp -= 5
    assert G.evaluate(hurt) < before
    hit = st.clone()
    hit.enemies["e1"].hp -= 1
    assert G.evaluate(hit) > before
    lost = st.clone()
    lost._damage_gate(20, ("e1", "kobold_slinger"), [])
    lost._advance([])
    assert lost.outcome().result == "loss" and G.evaluate(lost) == 0.0


def test_order_actions_puts_spending_before_done_and_replay_last() -> None:
    st = G.new_game(None, 0)
    while st.choice.kind != "prep":
        st.apply(st.legal_actions()[0])
    ordered = [a.text for a in G.order_actions(st, st.legal_actions())]
    assert ordered[-1] == "done preparing"


@pytest.mark.rule("midhalla", "Hitpoints (HP), KO, destroyed & defeated")
def test_knockout_and_kill_events_name_who_did_it() -> None:
    st = paused(phase="combat", tiles=line(2, 2),
                              heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "t1", "hp": 1}},
                              enemies={"e1": {"card": "kobold_slinger", "tile": "t1"}})
    combat(st)
    ev = st.apply("e1 attacks Enyk")
    ko = [e for e in ev if e.kind == "knockout"]
    assert ko and ko[0].data == {"hero": "enyk", "by": "e1", "by_type": "kobold_slinger"}
    assert "Enyk the Herbalist is KO" in ko[0].text
    st.apply("skill top 2 Strike")
    ev = st.apply("attack e1")
    kill = [e for e in ev if e.kind == "kill"]
    assert kill and kill[0].data == {"by": "harkon", "enemy": "e1",
                                     "enemy_type": "kobold_slinger"}


def test_measures_of_a_lost_chapter_name_trigger_final_blow_and_margins() -> None:
    st = paused(phase="combat", tiles=line(2, 2), gate_hp=1,
                              heroes={"harkon": {"tile": "t2"}, "enyk": {"tile": "t2"}},
                              enemies={"e1": {"card": "draugr", "tile": "G"},
                                       "e2": {"card": "draugr", "tile": "t2"}})
    combat(st)
    assert st.outcome().result == "loss"
    m = st.measures()
    assert m["trigger"] == "gate_destroyed" and m["final_blow"] == "draugr"
    assert m["margin_enemies_left"] == 2 and m["margin_heroes_standing"] == 2
    assert m["rounds"] == 1 and m["gate_hp"] == 0 and m["margin_cycles_short"] == 1
