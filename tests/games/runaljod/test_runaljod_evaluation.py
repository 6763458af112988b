"""What the bots and the lab read: the evaluation, the action ordering, measures() and the
statistics events (knockout, kill)."""

from __future__ import annotations

import json

import pytest
from runaljod_kit import foe, greedy_play, make, put

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Action
from meadhall.games.runaljod import GAME


def test_evaluation_rewards_progress_toward_the_final_enemy() -> None:
    st = make(["........", "........", "........", "........"])
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    w = foe(st, "clan_warrior", "H4")
    st.active_card = "i_shore"
    base = GAME.evaluate(st)
    w.damage = 2
    assert GAME.evaluate(st) > base  # enemies' life removed
    closer = st.clone()
    closer.heroes["berserk"].at = (6, 3)
    assert GAME.evaluate(closer) > GAME.evaluate(st)  # next to the enemy
    later = st.clone()
    later.cards_played = ["i_shore", "s_ford"]
    assert GAME.evaluate(later) > GAME.evaluate(st) + 0.05  # a stage nearer the final enemy
    hurt = st.clone()
    hurt.heroes["volva"].damage = 5
    assert GAME.evaluate(hurt) < GAME.evaluate(st)
    late = st.clone()
    late.time = 10
    assert GAME.evaluate(late) < GAME.evaluate(st)
    won = st.clone()
    won.final_defeated = ["jotun"]
    won.cards_played = ["c_hall"]
    lost = st.clone()
    lost.lost = "the time token reached the end marker"
    assert GAME.evaluate(won) == 1.0 and GAME.evaluate(lost) == 0.0
    assert 0 < base < 1


def test_a_worse_weapon_is_not_worth_equipping() -> None:
    st = make()
    put(st, "volva", "A1")
    put(st, "berserk", "C3")
    st.active = "volva"
    v = st.heroes["volva"]
    v.misc = ["hand_axe"]
    better = st.clone()
    worse = st.clone()
    worse.apply("equip hand axe using ansuz")
    assert worse.heroes["volva"].equipment == ["hand_axe"]
    assert GAME.evaluate(worse) < GAME.evaluate(better)


def test_order_actions_puts_attacks_first_and_face_down_runes_before_face_up() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    foe(st, "clan_warrior", "B1")
    h = st.heroes["berserk"]
    h.rune("tiwaz").side = "down"
    ordered = [a.text for a in GAME.order_actions(st, st.legal_actions())]
    assert ordered[0] == "attack using tiwaz"
    assert ordered.index("pass") < ordered.index("hand over to volva")
    assert ordered.index("pass") > ordered.index("move 3 using uruz")
    assert sorted(ordered) == sorted(a.text for a in st.legal_actions())
    assert all(isinstance(a, Action) for a in GAME.order_actions(st, st.legal_actions()))


@pytest.mark.rule("runaljod", "Goal of the Game")
def test_a_one_ply_greedy_policy_on_the_evaluation_wins_where_random_play_loses() -> None:
    """Greedy play on the evaluation (one ply: every legal action tried on a determinized
    clone) explores the adventure's four tiles and defeats the Frost Jotun on seed 6, and the
    game is its setup, seed and log; random play loses without reaching the final tile.
    (Win rates over many seeds: docs/rulings/runaljod.md, Authored content balance.)"""
    setup = {"heroes": ["berserk", "volva"]}
    greedy = greedy_play(GAME, setup, 6)
    assert greedy.outcome().result == "win" and "Jotun" in greedy.outcome().reason
    assert GAME.replay(greedy.setup, 6, greedy.log) == greedy
    rnd = GAME.new_game(setup, 6)
    bot = RandomBot(6)
    while rnd.decision() is not None:
        rnd.apply(bot.choose(rnd))
    assert rnd.outcome().result == "loss" and len(rnd.cards_played) < 4


def test_measures_of_a_lost_game() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, 2)
    bot = RandomBot(2)
    while st.decision() is not None:
        st.apply(bot.choose(st))
    m = st.measures()
    json.dumps(m)
    assert m["rounds"] == st.round and m["stage"] == len(st.cards_played)
    assert m["trigger"] in ("time_out", "end_marker") and m["final_blow"] in ("time",
                                                                               "recovery")
    assert m["margin_stages_left"] == 4 - len(st.cards_played)
    assert m["margin_final_life"] == 27  # the Frost Jotun never met
    assert m["glory"] == sum(h.glory_won for h in st.heroes.values())
    st2 = GAME.new_game({"heroes": ["berserk", "volva"]}, 2)
    st2.concede("test")
    assert st2.measures()["trigger"] == "conceded"


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_knockout_and_kill_events_name_who_did_it() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    w = foe(st, "clan_warrior", "B1")
    w.damage = 3
    st.force("axe", "axe", "axe")
    st.apply("attack using uruz")
    ev = st.apply("attack B1 with bearded axe")
    kill = next(e for e in ev if e.kind == "kill")
    assert kill.data == {"by": "berserk", "enemy": f"enemy{w.uid}", "enemy_type": "clan_warrior"}
    assert "is defeated" in kill.text
    v = st.heroes["volva"]
    v.damage = st.hero_life(v) - 1
    wolf = foe(st, "northern_wolf", "C2")
    events: list = []
    st.force("double_axe")
    st.enemy_attack(wolf, v, events, "Attack")
    ko = next(e for e in events if e.kind == "knockout")
    assert ko.data == {"hero": "volva", "by": f"enemy{wolf.uid}", "by_type": "northern_wolf"}
    b = st.heroes["berserk"]
    b.damage = st.hero_life(b) - 1
    events = []
    b.conditions = ["wound"]
    st.give_condition(b, "wound", events, "test")
    ko = next(e for e in events if e.kind == "knockout")
    assert ko.data == {"hero": "berserk", "by": "wound token", "by_type": "condition"}
