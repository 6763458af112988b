"""What bots and the lab read: evaluate (progress toward the objectives), order_actions, the
measures of a game and the statistics events (knockout, kill)."""

from __future__ import annotations

import pytest
from bf_helpers import GAME, board_only, fresh, restart_turn, settle

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Action
from meadhall.core.rng import Rng

G = "battleforge"


def greedy_game(seed: int, setup: dict) -> object:
    """One-ply greedy play: each legal action is applied to a determinized copy and the one
    whose result evaluates best is taken (what the generic heuristic bot does)."""
    s = GAME.new_game(setup, seed)
    rng = Rng(seed + 1)
    while s.decision() is not None:
        acts = s.legal_actions()
        best, value = acts[0], -1.0
        for a in acts if len(acts) > 1 else []:
            c = s.determinize(rng)
            c.apply(a)
            v = GAME.evaluate(c)
            if v > value:
                best, value = a, v
        s.apply(best)
    return s


def random_game(seed: int, setup: dict) -> object:
    s = GAME.new_game(setup, seed)
    bot = RandomBot(seed)
    while s.decision() is not None:
        s.apply(bot.choose(s))
    return s


def test_evaluate_is_one_for_a_win_zero_for_a_loss_and_between_otherwise() -> None:
    s = fresh()
    v = GAME.evaluate(s)
    assert 0 < v < 1
    won = s.clone()
    won.result = ["win", "test"]
    lost = s.clone()
    lost.result = ["loss", "test"]
    assert GAME.evaluate(won) == 1.0 and GAME.evaluate(lost) == 0.0


def test_evaluate_rewards_progress_toward_the_objectives() -> None:
    s = fresh()
    base = GAME.evaluate(s)
    hurt = s.clone()
    hurt.thor["damage"]["red"] = 3
    assert GAME.evaluate(hurt) > base  # Damage on Thor's Faces
    gone = s.clone()
    gone.tokens.pop(next(iter(gone.tokens)))
    assert GAME.evaluate(gone) < base  # a Point of Interest lost
    weak = s.clone()
    weak.champs["ragnar"].health = 3
    assert GAME.evaluate(weak) < base  # Health
    grey = s.clone()
    grey.marker_red = False
    assert GAME.evaluate(grey) < base  # one more Knockout loses
    late = s.clone()
    late.twilight = 8
    assert GAME.evaluate(late) < base  # time running out


def test_evaluate_counts_an_attack_in_progress_and_damage_about_to_be_taken() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"] * 5, [], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.thor.update(area="D2", activated=True)
    s.set_face("red", 3)
    restart_turn(s)
    before = GAME.evaluate(s)
    s.apply("melee space 1 at Thor's red face")
    assert GAME.evaluate(s) > before  # 5 white dice against a Face: expected Damage
    t = fresh()
    base = GAME.evaluate(t)
    t.tasks = [{"t": "lose", "c": "ragnar", "n": 6, "src": "test"}]
    assert GAME.evaluate(t) < base


def test_order_actions_puts_attacks_on_thor_first() -> None:
    s = fresh()
    acts = [Action("move space 1"), Action("heal space 4"),
            Action("melee space 1 at AshFolk A"), Action("ranged space 2 at Thor's red face")]
    assert [a.text for a in GAME.order_actions(s, acts)] == [
        "ranged space 2 at Thor's red face", "melee space 1 at AshFolk A", "heal space 4",
        "move space 1"]


def test_one_ply_greedy_play_makes_clearly_more_progress_than_random_play() -> None:
    """Measured (docs/rulings/battleforge.md, "Bots"): over 40 games of The Last Flame the
    greedy policy leaves Thor 8.6 of 24 Face Health on average, random play 20.4."""
    setup = {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}
    seeds = range(100, 103)
    greedy = [greedy_game(seed, setup).measures()["thor_health_left"] for seed in seeds]
    rand = [random_game(seed, setup).measures()["thor_health_left"] for seed in seeds]
    assert sum(greedy) + 15 <= sum(rand), (greedy, rand)


@pytest.mark.rule(G, "Knocked Out")
def test_knockout_events_and_the_measures_of_a_lost_game() -> None:
    s = fresh()
    board_only(s)
    s.marker_red = False
    s.champs["ragnar"].health = 2
    s.tasks = [{"t": "damage", "c": "ragnar", "n": 4, "src": "Attack of IronTroll A",
                "by": "T1", "by_type": "CannonTroll 3-B", "stage": 2}]
    s.ask = None
    ev: list = []
    s.run(ev)
    ko = [e for e in ev if e.kind == "knockout"]
    assert ko and ko[0].data["hero"] == "ragnar" and ko[0].data["by"] == "T1"
    assert ko[0].data["by_type"] == "CannonTroll 3-B"
    m = s.measures()
    assert m["trigger"] == "knockouts" and m["final_blow"] == "CannonTroll 3-B"
    assert m["margin_faces_left"] == 6 and m["margin_thor_health_left"] == 24
    assert m["rounds"] == 1 and m["knockouts"] == 1 and m["poi_left"] == 6


@pytest.mark.rule(G, "Destroying a Minion")
def test_kill_event_names_the_champion_and_the_minion_type() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"] * 3, [], [], [], [], []]})
    s.minions["A1"].area = s.champs["ragnar"].area
    restart_turn(s)
    s.apply("melee space 1 at AshFolk A")
    s.force("double", "double", "double", "double")
    ev = settle(s)
    kill = [e for e in ev if e.kind == "kill"]
    assert kill and kill[0].data == {"minion": "A1", "by": "ragnar", "enemy": "A1",
                                     "enemy_type": "AshFolk 1-A"}
    assert "Destroys AshFolk A" in kill[0].text


def test_measures_of_a_game_in_progress_and_of_a_time_out() -> None:
    s = fresh()
    m = s.measures()
    assert m == {"rounds": 1, "faces_destroyed": 0, "thor_health_left": 24, "minions_left": 6,
                 "rounds_short": 11, "knockouts": 0, "poi_left": 6}
    s.twilight = len(GAME.content.round_track) - 2
    s.phase = "ironborn"
    s.tasks = [{"t": "advance"}]
    s.ask = None
    s.run([])
    m = s.measures()
    assert m["trigger"] == "time_out" and m["final_blow"] == "time"


def test_authored_balance_values_are_marked_authored() -> None:
    """The values changed for balance are authored stand-ins, never printed ones."""
    c = GAME.content
    assert "counter" in c.god.authored and c.god.face_health_per_champion == 2
    for k in ("ashfolk_1a", "draugmech_2a", "irontroll_3a", "cannontroll_3b"):
        assert c.minion_cards[k].authored
    # Printed values kept: AshFolk 2/3 Actions, DraugMech 1/2 Actions and 2 Damage, IronTroll 4.
    a, d, t = (c.minion_cards[k] for k in ("ashfolk_1a", "draugmech_2a", "irontroll_3a"))
    assert (a.standard.actions, a.overheated.actions) == (2, 3)
    assert (d.standard.actions, d.overheated.actions, d.standard.damage) == (1, 2, 2)
    assert t.standard.damage == 4
    assert all(h.authored for h in c.human_forms.values())
    assert all(card.authored for card in c.thor_cards.values())
