"""Randomness held in the state, dice, decks that never store their hidden order."""

from __future__ import annotations

import pytest

from meadhall.core.chance import Chance, NeedChance
from meadhall.core.deck import Deck, Pool
from meadhall.core.dice import COIN, D6, D12, D20, Die
from meadhall.core.errors import IllegalAction
from meadhall.core.rng import Rng


def test_rng_is_deterministic_and_clonable() -> None:
    a = Rng(42)
    b = a.clone()
    assert [a.randint(1, 12) for _ in range(50)] == [b.randint(1, 12) for _ in range(50)]
    assert Rng.from_state(a.state) == a
    assert Rng(1).sample_ints(1, 6, 10) != Rng(2).sample_ints(1, 6, 10)


def test_rng_is_roughly_uniform() -> None:
    r = Rng(5)
    counts = [0] * 12
    for _ in range(12000):
        counts[r.randint(1, 12) - 1] += 1
    assert min(counts) > 850 and max(counts) < 1150


def test_numeric_and_custom_dice() -> None:
    c = Chance("t", Rng(0))
    assert all(1 <= D6.roll(c, "x") <= 6 for _ in range(100))
    assert D20.faces[-1] == 20 and D12.name == "d12"
    rune = Die.custom("rune", ["down", "up", "sideways"], [0.45, 0.45, 0.10])
    results = [rune.roll(c, "throw") for _ in range(2000)]
    assert 100 < results.count("sideways") < 320
    assert set(COIN.faces) == {"heads", "tails"}
    with pytest.raises(ValueError):
        Die.custom("bad", [1, 2], [1.0])


def test_forced_results_are_validated() -> None:
    c = Chance("t", Rng(0))
    c.force(13)
    with pytest.raises(IllegalAction, match="not a possible result"):
        D12.roll(c, "attack roll")


def test_table_mode_asks_instead_of_rolling() -> None:
    c = Chance("t", Rng(0), "table")
    with pytest.raises(NeedChance) as info:
        D12.roll(c, "Frida's attack")
    assert info.value.request.options == tuple(str(i) for i in range(1, 13))
    c.force(7)
    assert D12.roll(c, "Frida's attack") == 7


def test_deck_draw_discard_reshuffle() -> None:
    c = Chance("t", Rng(3))
    d = Deck("events", ["a", "b", "c"])
    drawn = d.draw_many(c, 3)
    assert sorted(drawn) == ["a", "b", "c"] and len(d) == 0
    for x in drawn:
        d.to_discard(x)
    assert d.draw(c) in {"a", "b", "c"} and len(d) == 2 and d.discard == []


def test_deck_without_reshuffle_runs_out() -> None:
    c = Chance("t", Rng(3))
    p = Pool("undead", ["draugr", "draugr"])
    assert p.draw_many(c, 5) == ["draugr", "draugr"]
    p.to_discard("draugr")
    assert p.draw(c) is None


def test_peek_fixes_the_order_and_top_bottom() -> None:
    c = Chance("t", Rng(9))
    d = Deck("d", ["a", "b", "c", "d"])
    seen = d.peek(c, 2)
    assert d.draw(c) == seen[0] and d.draw(c) == seen[1]
    d.put_bottom("z")
    d.put_top("y")
    assert d.draw(c) == "y"
    rest = d.draw_many(c, 10)
    assert rest[-1] == "z" and len(rest) == 3


def test_deck_json_round_trip_hides_nothing_it_should_not() -> None:
    d = Deck("d", ["b", "a", "a"], top=["x"], discard=["q"])
    back = Deck.from_json(d.to_json())
    assert back.to_json() == d.to_json()
    assert d.public() == {"name": "d", "size": 4, "discard": ["q"]}


def test_same_seed_same_draws_regardless_of_pile_order() -> None:
    a, b = Deck("d", ["a", "b", "c"]), Deck("d", ["c", "a", "b"])
    assert a.draw_many(Chance("t", Rng(1)), 3) == b.draw_many(Chance("t", Rng(1)), 3)


def test_a_single_option_is_not_a_chance_event() -> None:
    # A draw from a pile holding one kind of card must not consume a result queued for the
    # next real roll (table-mode replays depend on this).
    c = Chance("t", Rng(0), "table")
    c.force(5)
    d = Deck("d", ["only", "only"])
    assert d.draw(c) == "only"
    assert D6.roll(c, "next roll") == 5
