"""The final stage against the large Frost Jotun plays out under random play with every
protocol check (Special Enemies; Victory or Defeat)."""

from __future__ import annotations

import pytest
from runaljod_kit import make, put

from meadhall.bots.random import RandomBot
from meadhall.games.runaljod import GAME
from meadhall.testing import check_step


def final_stage(seed: int):
    st = make(heroes=("warrior", "hunter"), seed=seed, card="c_hall")
    st.tiles[0] = type(st.tiles[0])("hall", "c_hall", 0)
    st.cards_played = ["c_hall"]
    st.active_card = "c_hall"
    st.exploration.pile, st.exploration.bottom = [], []
    st.place_elements("c_hall", 0, [])
    put(st, "warrior", "A3")
    put(st, "hunter", "A4")
    return st


@pytest.mark.rule("runaljod", "Special Enemies")
@pytest.mark.parametrize("seed", range(4))
def test_random_play_against_the_jotun_keeps_every_promise(seed: int) -> None:
    st = final_stage(seed)
    assert [e.kind for e in st.enemies] == ["jotun"] and st.enemies[0].also is not None
    bot = RandomBot(seed)
    for step in range(1500):
        if step % 5 == 0:
            check_step(GAME, st, seed, step)
        if st.decision() is None:
            break
        st.apply(bot.choose(st))
    assert st.outcome().over


@pytest.mark.rule("runaljod", "Victory or Defeat")
def test_the_heroes_can_win_against_the_jotun() -> None:
    st = final_stage(0)
    jotun = st.enemies[0]
    jotun.damage = st.enemy_data(jotun).life - 1
    put(st, "warrior", "E3")
    st.force("double_axe", "double_axe", "blank")
    st.apply("attack using fehu")
    st.apply(f"attack {st.sqname(jotun.at)} with sword")
    assert st.outcome().result == "win"
