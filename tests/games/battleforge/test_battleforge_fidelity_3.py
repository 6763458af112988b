"""Rule fidelity, third pass (issue 20): multi-target effects resolved as one effect (Frozen
Breath and Frostbite), printed component counts, and Champion Preparation step 6 in full. Each
situation starts from a hand-written position loaded through ``GameState.from_json``."""

from __future__ import annotations

import pytest
from bf_helpers import GAME, ironborn, legal, minions_at, position, texts

G = "battleforge"


def card_steps(card: str) -> list[dict]:
    return [dict(st) for st in GAME.content.thor_cards[card].steps]


def frost(s, cid: str) -> int:
    c = s.champs[cid]
    return sum(sp.count("f") for sp in c.rondel) + c.centre.count("f")


def breath(ragnar: str, lagertha: str, reserve: int):
    """Thor in G2 with Ragnar (F2) and Lagertha (G3) in adjacent Areas, their cubes in space 2
    (no Defense), and ``reserve`` Frost Cubes left: the Frozen Breath's attack step."""
    s = position(minions=minions_at(), thor={"area": "G2", "activated": True},
                 reserves={"frost": reserve},
                 champions={"ragnar": {"area": "F2", "rondel": ["", ragnar, "", "", "", ""]},
                            "lagertha": {"area": "G3", "rondel": ["", lagertha, "", "", "", ""],
                                         "charges": {"human": 0}}})
    s.champs["ragnar"].charges["human"] = 0
    return s, ironborn(s, [{"t": "steps", "steps": card_steps("frozen_breath")[1:],
                            "sec": "2. God Activation"}])


@pytest.mark.rule(G, "1. Minion Activation")
@pytest.mark.rule(G, "Frostbite")
def test_frozen_breath_on_two_champions_with_an_empty_reserve_is_one_effect() -> None:
    """"Attacks or effects that target more than 1 Champion at a time are resolved the same
    way"; Frostbite: "When a Champion is about to receive 1 or more Frost Cubes and the Reserve
    is empty, no additional Frost Cubes are given to the Champions. Instead, each Champion
    returns their Frost Cubes": one Frostbite, and Lagertha gets no Frost Cube from the
    Reserve it refilled (ruling 46)."""
    s, ev = breath("ccff", "ccff", 0)
    t = texts(ev)
    assert t.count("Frostbite!") == 1
    assert "Lagertha receives no Frost Cube: the Reserve was empty (Frostbite)" in t
    assert "receives 1 Frost Cube" not in t
    assert (frost(s, "ragnar"), frost(s, "lagertha"), s.reserve_frost) == (0, 0, 4)
    # 2 Damage each (no Defense in space 2), then 2 Health per returned Frost Cube.
    assert (s.champs["ragnar"].health, s.champs["lagertha"].health) == (6, 6)


@pytest.mark.rule(G, "1. Minion Activation")
@pytest.mark.rule(G, "Frostbite")
def test_frozen_breath_empties_the_reserve_on_the_second_champion() -> None:
    """With 1 Frost Cube left, Ragnar (the First Champion) takes it; Lagertha is about to
    receive one from an empty Reserve: Frostbite (Ragnar returns 3, Lagertha 1), and she
    receives none."""
    s, ev = breath("ccff", "ccf", 1)
    t = texts(ev)
    assert "Ragnar receives 1 Frost Cube" in t and t.count("Frostbite!") == 1
    assert "Lagertha is about to receive a Frost Cube and the Reserve is empty" in t
    assert "Lagertha receives 1 Frost Cube" not in t
    assert (frost(s, "ragnar"), frost(s, "lagertha"), s.reserve_frost) == (0, 0, 4)
    assert (s.champs["ragnar"].health, s.champs["lagertha"].health) == (4, 8)


@pytest.mark.rule(G, "1. Minion Activation")
@pytest.mark.rule(G, "Frostbite")
def test_frozen_breath_with_enough_cubes_gives_each_champion_one() -> None:
    s, ev = breath("cc", "cc", 4)
    assert (frost(s, "ragnar"), frost(s, "lagertha"), s.reserve_frost) == (1, 1, 2)
    assert "Frostbite" not in texts(ev)


@pytest.mark.rule(G, "Minion Attacks")
@pytest.mark.rule(G, "Frostbite")
def test_simultaneous_frost_attacks_of_one_minion_type_frostbite_once() -> None:
    """"Attacks made by different Minions of the same Type deal Damage simultaneously": the
    two DraugMechs 2-B (Frozen claws, authored) attack Ragnar and Lagertha with the Reserve
    empty; the first Attack's Frost Cube brings Frostbite, the second gives none (ruling 46)."""
    s = position(minions=minions_at(D1="F2", D2="G3"), thor={"area": "B2", "activated": True},
                 reserves={"frost": 0},
                 champions={"ragnar": {"area": "F2", "rondel": ["", "ccff", "", "", "", ""]},
                            "lagertha": {"area": "G3", "rondel": ["", "ccff", "", "", "", ""],
                                         "charges": {"human": 0}}})
    s.champs["ragnar"].charges["human"] = 0
    ev = ironborn(s, [{"t": "activate", "type": 2}])
    t = texts(ev)
    assert t.count("Frostbite!") == 1
    assert "Lagertha receives no Frost Cube" in t
    assert (frost(s, "ragnar"), frost(s, "lagertha"), s.reserve_frost) == (0, 0, 4)


@pytest.mark.rule(G, "Components")
@pytest.mark.rule(G, "Attack Resolution")
@pytest.mark.rule(G, "Heat Tokens")
@pytest.mark.rule(G, "Freeze Tokens")
def test_printed_component_counts_are_the_box_not_a_limit() -> None:
    """Components lists "6 White Dice", "2 Red Dice", "13 Heat Tokens", "6 Freeze Tokens";
    Attack Resolution: "Champions take a number of White Dice equal to the number of Action
    Cubes repositioned ... plus the Attack Boon bonus". No printed rule runs out of dice or
    tokens, so neither is capped; the limits the rules do print (the Temporary and Frost
    Reserves, a champion's 22 cubes and 7 Boons) stay (ruling 33)."""
    s = position(minions=minions_at(A1="D3"),
                 champions={"ragnar": {"area": "D3", "rondel": ["c" * 8, "", "", "", "", ""],
                                       "boons": [{"symbol": "melee", "level": 2}, None, None,
                                                 None, None, None]}})
    s.apply("melee space 1 at AshFolk A")
    assert legal(s) == [f"roll {n} white 0 red 0 green" for n in range(10, 0, -1)]
    areas = [a for a in GAME.board("last_flame").areas()]
    s = position(minions=minions_at(), champions={"ragnar": {"area": "B8"},
                                                  "lagertha": {"area": "F8"}},
                 replace={"tokens": {**{a: "heat" for a in areas[:14]},
                                     **{a: "freeze" for a in areas[14:20]}}})
    assert sum(1 for k in s.tokens.values() if k == "heat") == 14  # loads: no cap of 13
    ev: list = []
    assert s.place_token("heat", areas[21], "Heat Tokens", ev)
    assert s.place_token("freeze", areas[22], "Freeze Tokens", ev)
    assert "A Heat token is placed in" in texts(ev) and "A Freeze token is placed in" in texts(ev)
    assert not s.place_token("heat", areas[21], "Heat Tokens", ev)  # still not stackable
