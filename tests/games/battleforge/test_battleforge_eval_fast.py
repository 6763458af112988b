"""The evaluation's fast paths give, bit for bit, what their plain computations give, at the
positions of random games of both scenarios and solo play and at the look-ahead copies a
heuristic search evaluates: the board memo of :func:`worth` (``worth_plain`` of bf_worth_reference.py), the best
roll taken over the pools one die smaller (:func:`best_roll_plain`), an attack's gain from its
remembered net Damages (:func:`attack_gain_plain`), the next-round worth of a rondel from each
pile's remembered worth (:meth:`Planner.next_round_plain`), and planners made from what is
kept per Thor, champion board, Boons and Health price (``Pricer.planners``)."""

from __future__ import annotations

from typing import Any

import pytest
from bf_helpers import GAME
from bf_worth_reference import worth_plain

from meadhall.bots.random import RandomBot
from meadhall.games.battleforge import evaluation as ev
from meadhall.games.battleforge.state import BattleForgeState

SETUPS: list[dict[str, Any] | None] = [
    None,
    {"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"]},
    {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"], "players": 1},
]


def positions(setup: dict[str, Any] | None, seed: int, steps: int) -> list[BattleForgeState]:
    """The positions of a random game, and every few steps the positions one action ahead
    (which share Thor and the minions with it, as a search's candidates do)."""
    s = GAME.new_game(setup, seed)
    bot = RandomBot(seed)
    out = []
    for step in range(steps):
        if s.decision() is None:
            break
        out.append(s.clone())
        if step % 4 == 0:
            for a in s.legal_actions()[:5]:
                c = s.clone()
                c.apply(a)
                out.append(c)
        s.apply(bot.choose(s))
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_worth_with_its_board_memo_is_worth_plain(setup: dict[str, Any] | None) -> None:
    checked = 0
    for seed in range(2):
        ps = positions(setup, seed, 300)
        ev.forget()
        fast = [(ev.worth(s, parts := {}), parts) for s in ps]
        ev.forget()
        for s, (v, parts) in zip(ps, fast, strict=True):
            plain_parts: dict[str, float] = {}
            assert worth_plain(s, plain_parts).hex() == v.hex(), s.log[-3:]
            assert {k: x.hex() for k, x in plain_parts.items()} == \
                {k: float(x).hex() for k, x in parts.items()}
            checked += 1
    assert checked > 300


def test_best_roll_is_the_best_of_every_sub_pool() -> None:
    """Every pool of up to 9 white, 3 red and 2 green dice, on each Face, at several Thor
    states and Counterattack prices, from cold memos and from warm ones."""
    s = GAME.new_game(None, 0)
    dice = ev.dice_faces(s)
    checked = 0
    for left, k in (((4, 4, 4, 4, 4, 4), 0), ((3, 1, 4, 0, 2, 1), 1), ((0, 2, 0, 1, 0, 0), 4)):
        for price in (0.0, 0.3, 1.7):
            ev.forget()
            for face in range(6):
                if left[face] <= 0:
                    continue
                for mode, yellow in (("", False), ("red", False), ("blue", False),
                                     ("green", False), ("", True)):
                    for w in range(10):
                        for r in range(4):
                            for g in range(3):
                                if w + r + g == 0:
                                    continue
                                fast = ev.best_roll(left, k, face, yellow, mode, dice, w, r, g,
                                                    price)
                                plain = ev.best_roll_plain(left, k, face, yellow, mode, dice,
                                                           w, r, g, price)
                                assert fast.hex() == plain.hex(), (left, k, face, mode, w, r, g)
                                gain = ev.attack_gain(left, k, face, yellow, mode, dice, w, r, g)
                                want = ev.attack_gain_plain(left, k, face, yellow, mode, dice,
                                                            w, r, g)
                                assert [x.hex() for x in gain] == [x.hex() for x in want]
                                checked += 1
    assert checked > 5000


def test_next_round_from_each_piles_worth_is_the_plain_one() -> None:
    """At every position of random games, each champion's planner answers every rondel of up
    to 3 cubes a space (and the champion's own) as the plain loop over the piles does."""
    from itertools import product

    checked = 0
    for setup in SETUPS:
        s = GAME.new_game(setup, 3)
        bot = RandomBot(3)
        ev.forget()
        for step in range(200):
            if s.decision() is None:
                break
            if step % 10 == 0:
                pricer = ev.pricer_of(s)
                for cid, c in s.champs.items():
                    price = ev.health_price(c.health, not s.marker_red)
                    p = ev.Planner(s, cid, pricer, price, {}, ev.NEXT / ev.NOW)
                    own = tuple(len(sp) for sp in c.rondel)
                    for cnt in [own, *product(range(4), repeat=6)][:300]:
                        assert p.next_round(cnt).hex() == p.next_round_plain(cnt).hex()
                        checked += 1
            s.apply(bot.choose(s))
    assert checked > 1000


def test_planners_from_kept_parts_plan_as_fresh_ones() -> None:
    """Each champion's turn plan with every number of Actions, from a planner made afresh and
    from one made of the parts kept per Thor (the second one asked), at positions of random
    games: the same worth bit for bit."""
    checked = 0
    for setup in SETUPS:
        s = GAME.new_game(setup, 5)
        bot = RandomBot(5)
        for step in range(300):
            if s.decision() is None:
                break
            if step % 7 == 0:
                for actions in (0, 1, 2, 3):
                    for cid in s.order:
                        values = []
                        for _ in range(3):  # afresh, then twice from kept parts
                            ev.forget()
                            pricer = ev.pricer_of(s)
                            grey = not s.marker_red
                            prices = {c: ev.health_price(s.champs[c].health, grey)
                                      for c in s.order}
                            kills = ev.kill_values(s)
                            plans = ev.plan_book(s, pricer, kills)
                            key = ev.plan_key(s, cid, tuple(len(sp) for sp in
                                                            s.champs[cid].rondel),
                                              actions, round(prices[cid], 1),
                                              s.phase == "champions" and s.current() == cid)
                            if values:
                                # the parts kept, a fresh book: only the planner is shared
                                ev.turn_plan(s, cid, pricer, prices, kills, actions, plans, key)
                                plans.clear()
                                plans[None] = {}
                            values.append(ev.turn_plan(s, cid, pricer, prices, kills, actions,
                                                       plans, key).hex())
                        assert len(set(values)) == 1, (setup, step, cid, actions, values)
                        checked += 1
            s.apply(bot.choose(s))
    assert checked > 100


def test_kept_rondel_steps_are_the_plain_ones() -> None:
    """The rondels one Action leads to, as RONDELS keeps them, are spread's and relocated's
    own answers for every rondel of up to 3 cubes a space, and relocating moves 2 cubes
    onto the space from the smallest others, as the rules' Relocate Action does."""
    from itertools import product

    ev.forget()
    for cnt in product(range(4), repeat=6):
        for i in range(6):
            after = ev.relocated(cnt, i)
            others = sum(cnt) - cnt[i]
            if others == 0:
                assert after == ()
            else:
                assert sum(after) == sum(cnt) and after[i] == cnt[i] + min(2, others)
    # the planner's kept steps, after plans at random positions, are the plain ones
    for s in positions(None, 1, 120):
        ev.worth(s)
    assert ev.RONDELS
    for cnt, steps in ev.RONDELS.items():
        for i in range(6):
            if steps[i] is not None:
                assert steps[i] == ev.spread(cnt, i)
            if steps[6 + i] is not None:
                assert steps[6 + i] == ev.relocated(cnt, i)


def test_roll_choices_kept_per_pool_are_the_plain_ones() -> None:
    """At every step of random games with an attack under way, the roll choices handed out
    (kept per pool) are the plain computation's, in the same order, and a list handed out is
    the caller's own (changing it changes nothing handed out later)."""
    from meadhall.games.battleforge.champions_phase import ROLL_OPTIONS, roll_options_plain

    ROLL_OPTIONS.clear()
    checked = 0
    for setup in SETUPS:
        for seed in range(2):
            s = GAME.new_game(setup, seed)
            bot = RandomBot(seed)
            for _ in range(600):
                if s.decision() is None:
                    break
                a = s.atk
                if a:
                    w = a["white"] + (1 if a["purple"] else 0)
                    want = roll_options_plain(w, a["red"], a["green"], w + a["red"] + a["green"]
                                              - (1 if a["orange"] else 0))
                    got = s.roll_options()
                    assert got == want
                    got.append("changed")
                    assert s.roll_options() == want
                    checked += 1
                s.apply(bot.choose(s))
    assert checked > 100
