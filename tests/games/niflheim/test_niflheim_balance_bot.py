"""Smoke test of the balance bot (a measuring tool, not a rule): it only plays legal actions and
can win scenario 2 end to end."""

from __future__ import annotations

from meadhall.games.niflheim.balance_bot import NiflheimBot
from meadhall.games.niflheim.game import GAME


def test_balance_bot_plays_scenario_2_to_a_win() -> None:
    bot = NiflheimBot()
    results = []
    for seed in range(1000, 1006):
        s = GAME.new_game({"scenario": "2", "heroes": ["frida"]}, seed)
        for _ in range(3000):
            if s.outcome().over:
                break
            s.apply(bot.choose(s))
        results.append(s.outcome().result)
    assert "win" in results and set(results) <= {"win", "loss"}
