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


# ----------------------------------------------------------------------------- preparation
def prepared_to_step_6(ragnar_cube: str = "place in space 4"):
    """Ragnar and Lagertha through Champion Preparation up to Lagertha's step 6: Ragnar's 7th
    cube in space 4, his Starting Boon (melee) in space 1, his +1 Action Cube as given;
    Lagertha's 7th cube in space 2 and her Starting Boon (defense) in space 1."""
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, 0)
    s.apply("place in space 4")
    s.apply("melee boon in space 1")
    assert s.decision().seat == "ragnar" and s.decision().section == "Champion Preparation"
    s.apply(ragnar_cube)
    s.apply("place in space 2")
    assert legal(s) == ["defense boon in space 1", "defense boon in space 3",
                        "defense boon in space 5"]  # step 5: a space with a defense symbol
    s.apply("defense boon in space 1")
    return s


@pytest.mark.rule(G, "Champion Preparation")
@pytest.mark.parametrize("space", range(1, 7))
def test_preparation_step_6_ragnars_plus_1_action_cube_in_any_space(space: int) -> None:
    """"Ragnar has a Starting Attribute of +1 Action Cube that must be placed in any Rondel
    Space he wants, therefore, this Champion starts the game with 8 Action Cubes in the Rondel
    instead of 7": every space is offered, and the cube lands where he chose."""
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, 0)
    s.apply("place in space 4")
    s.apply("melee boon in space 1")
    assert legal(s) == [f"place in space {i}" for i in range(1, 7)]
    s.apply(f"place in space {space}")
    r = s.champs["ragnar"]
    want = [1, 1, 1, 2, 1, 1]
    want[space - 1] += 1
    assert [len(x) for x in r.rondel] == want and sum(want) == 8
    # 22 cubes: the Health and Fury markers, 3 Special Skill Charges and the 8 rondel cubes.
    assert r.supply == 22 - 2 - 3 - 8
    assert s.decision().seat == "lagertha"  # Ragnar is prepared


LAGERTHA_STEP_6 = {
    "melee boon in space 2": [{"symbol": "defense", "level": 1}, {"symbol": "melee", "level": 1},
                              None, None, None, None],
    "reroll boon in space 2": [{"symbol": "defense", "level": 1},
                               {"symbol": "reroll", "level": 1}, None, None, None, None],
    "ranged boon in space 6": [{"symbol": "defense", "level": 1}, None, None, None, None,
                               {"symbol": "ranged", "level": 1}],
    "heal boon in space 6": [{"symbol": "defense", "level": 1}, None, None, None, None,
                             {"symbol": "heal", "level": 1}],
    "greater boon in space 1": [{"symbol": "defense", "level": 2}, None, None, None, None, None],
}
"""Lagertha's board: space 2 shows melee and reroll, space 6 ranged and heal."""


@pytest.mark.rule(G, "Champion Preparation")
@pytest.mark.rule(G, "Boons")
@pytest.mark.parametrize("choice", sorted(LAGERTHA_STEP_6))
def test_preparation_step_6_lagerthas_extra_boon_or_the_flip(choice: str) -> None:
    """"Lagertha starts with 1 extra Boon that must be placed adjacent to the Starting Boon; or
    flip the Starting Boon": with the Starting Boon in space 1, exactly a Minor Boon in space 2
    or 6 with a symbol of that space, or the flip to a Greater Boon; the result of each."""
    s = prepared_to_step_6()
    la = s.champs["lagertha"]
    d = s.decision()
    assert d.seat == "lagertha" and d.section == "Champion Preparation"
    assert set(legal(s)) == set(LAGERTHA_STEP_6)
    tokens = list(la.tokens_left)
    s.apply(choice)
    assert la.boons == LAGERTHA_STEP_6[choice]
    # A new Minor Boon uses one of her tokens; the flip turns the Starting Boon over ("simply
    # flip a Minor Boon").
    if not choice.startswith("greater"):
        tokens.remove(choice.split()[0])
    assert la.tokens_left == tokens
    assert [len(x) for x in la.rondel] == [1, 2, 1, 1, 1, 1]  # 7 cubes, no extra cube
    assert s.decision().kind == "turn" and s.decision().seat == "ragnar"


@pytest.mark.rule(G, "1. Minion Activation")
def test_a_save_in_the_middle_of_a_multi_target_effect_loads_and_plays_on() -> None:
    """Saved while Ragnar decides his Defense against Frozen Breath, the queued effect on both
    Champions (``who``: their list) loads back and resolves the same."""
    from meadhall.core.protocol import GameState

    s = position(minions=minions_at(), thor={"area": "G2", "activated": True},
                 reserves={"frost": 4},
                 champions={"ragnar": {"area": "F2", "rondel": ["cc", "", "", "", "", ""]},
                            "lagertha": {"area": "G3", "rondel": ["", "cc", "", "", "", ""],
                                         "charges": {"human": 0}}})
    s.champs["ragnar"].charges["human"] = 0
    ironborn(s, [{"t": "steps", "steps": card_steps("frozen_breath")[1:],
                  "sec": "2. God Activation"}], wait=True)
    assert s.decision().seat == "ragnar" and "defend with space 1" in legal(s)
    assert any(t.get("t") == "steps" and t["steps"][0].get("who") == ["ragnar", "lagertha"]
               for t in s.tasks)
    back = GameState.from_json(s.to_json())
    assert back == s
    for x in (s, back):
        x.apply("defend with space 1")
        while x.decision() is not None and x.decision().kind != "turn":
            x.apply(x.decision().default)
    assert back == s and (frost(s, "ragnar"), frost(s, "lagertha")) == (1, 1)
