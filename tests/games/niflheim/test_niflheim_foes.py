"""Scenario 3 and 4 rules, new foes, phials, scenario 5 rules, glory."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.games.niflheim import combat
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        scenario: str = "3", **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {},
                         "done": ["O1", "O2", "O3", "J"], "pool": {"draugr": 2},
                         "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


def mods(s: Any, hero: str, uid: int, off: bool = False) -> list[tuple[int, str]]:
    h = s.heroes[hero]
    p = next(p for p in combat.plans(s, h) if p.undead == uid and p.off_hand == off)
    return combat.modifiers(s, h, s.undead[uid], p, None)


D = [{"id": 1, "kind": "draugr", "at": "A3"}]


@pytest.mark.rule("niflheim", "Preferred Weapon")
def test_preferred_weapon_plus_1_comes_from_the_skill() -> None:
    """"the skill 'Preferred Weapon' usually grants a +1 DRM to all attacks with their
    preferred weapon": a preferred weapon without the skill gives nothing (ruling 33)."""
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}}, D)
    assert all("preferred" not in why.lower() for _, why in mods(s, "frida", 1))
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling",
                                       "skills": ["Preferred Weapon"]}}, D)
    assert (1, "skill Preferred Weapon") in mods(s, "frida", 1)
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax",
                                       "skills": ["Preferred Weapon"]}},
            [{"id": 1, "kind": "draugr", "at": "A2"}])
    assert (1, "skill Preferred Weapon") not in mods(s, "frida", 1)  # the seax is not hers
    # A huskarl's printed preferred weapons count once it has unlocked the skill.
    s = pos(open_map(8, 8), {"gunnar": {"at": "A1", "ready": "sling"}, "frida": {"at": "H8"}},
            D)
    assert all("preferred" not in why.lower() for _, why in mods(s, "gunnar", 1))
    s = pos(open_map(8, 8), {"gunnar": {"at": "A1", "ready": "sling",
                                        "skills": ["Preferred Weapon"]}, "frida": {"at": "H8"}},
            D)
    assert (1, "skill Preferred Weapon") in mods(s, "gunnar", 1)


@pytest.mark.rule("niflheim", "Dual Wielding Weapons")
def test_dual_wielding_the_same_weapon_plus_1() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax", "off_hand": "seax"}},
            [{"id": 1, "kind": "draugr", "at": "A2"}])
    assert (1, "dual wielding the same weapon") in mods(s, "frida", 1)
    assert (1, "dual wielding the same weapon") in mods(s, "frida", 1, off=True)


@pytest.mark.rule("niflheim", "Projectile Weapons")
def test_projectiles_lost_on_natural_1_and_needed_to_attack() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "throwing_knives",
                                       "supplies": {"projectiles": 1}}, "killian": {"at": "H8"}},
            D)
    s.force(1)
    s.apply("attack undead 1 with throwing knives")
    assert s.heroes["frida"].supplies["projectiles"] == 0
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "throwing_knives",
                                       "supplies": {"projectiles": 0}}}, D)
    assert not [a for a in legal(s) if a.startswith("attack")]
    # Huskarls have unlimited projectiles.
    s = pos(open_map(8, 8), {"archer": {"at": "A1", "ready": "short_bow", "gear": ["seax"]},
                             "frida": {"at": "H8"}}, D)
    assert s.heroes["archer"].ready == "short_bow"
    assert "attack undead 1 with short bow" in legal(s)


@pytest.mark.rule("niflheim", "Shields")
def test_shield_pushes_or_stuns_and_helps_break_locks() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "shield"}, "killian": {"at": "H8"}},
            [{"id": 1, "kind": "troll", "at": "A2"}], pool={})
    s.force(9)  # shield H2H 8/11: a stun (the troll is armoured) and a push
    s.apply("attack undead 1 with shield")
    assert grid.name(s.undead[1].at) == "A3"
    rows = open_map(8, 8, {"A3": "#"})
    s = pos(rows, {"frida": {"at": "A1", "ready": "shield"}, "killian": {"at": "H8"}},
            [{"id": 1, "kind": "mardrom", "at": "A2"}], pool={})
    s.force(8)
    s.apply("attack undead 1 with shield")
    assert grid.name(s.undead[1].at) == "A2" and s.undead[1].stunned
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "intent": None, "mp": 0, "locked_by": 1,
                                       "ready": "shield"}, "killian": {"at": "H8"}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.force(5)  # 5 + 2 (stationary) + 1 (shield) = 8, the shield's stun value
    s.apply("declare stationary")
    assert s.heroes["frida"].locked_by is None


@pytest.mark.rule("niflheim", "Belt")
def test_belt_holds_three_one_handed_or_small_items() -> None:
    from meadhall.games.niflheim.heroes import fits
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling",
                                       "gear": ["spear", "short_bow", "spear"]}})
    h = s.heroes["frida"]
    # three gear slots are full of two-handed weapons: only the belt is left
    assert not fits(s, h, "short_bow") and fits(s, h, "torch") and fits(s, h, "seax")
    h.gear += ["torch", "seax", "throwing_knives"]
    assert not fits(s, h, "axe")  # the belt holds three one-handed or small items
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling",
                                       "gear": ["spear", "short_bow", "throwing_knives", "axe"]}},
            scenario="2")
    assert not fits(s, s.heroes["frida"], "torch")  # four gear slots before scenario 3


@pytest.mark.rule("niflheim", "Huskarl")
def test_huskarls_health_2_wounded_minus_2_no_running_two_items() -> None:
    from meadhall.games.niflheim.heroes import add_supplies, fits
    s = pos(open_map(8, 8), {"gunnar": {"at": "A1", "intent": None, "mp": 0, "health": 1,
                                        "ready": "axe", "gear": ["sling"]},
                             "frida": {"at": "H8"}}, [{"id": 1, "kind": "draugr", "at": "A2"}])
    h = s.heroes["gunnar"]
    assert h.max_health == 2 and "declare running" not in legal(s)
    s.apply("declare walking")
    assert (-2, "wounded huskarl") in mods(s, "gunnar", 1)
    assert h.ready == "axe" and h.gear == ["sling"] and not fits(s, h, "torch")
    for _ in range(5):
        add_supplies(h, "holy_water", 1)
    assert h.supplies["holy_water"] == 3
    assert s.preferred(h) == ["axe", "sling"]


@pytest.mark.rule("niflheim", "Locked Doors")
def test_locked_door_forced_open_by_special_action_stays_open() -> None:
    rows = open_map(8, 8, {"D3": "L"})
    s = pos(rows, {"frida": {"at": "C3", "intent": "stationary", "mp": 0},
                   "killian": {"at": "H8"}})
    assert "move D3" not in legal(s) and "force locked door D3" in legal(s)
    s.apply("force locked door D3")
    assert s.board.at((3, 2)) == "/" and s.heroes["frida"].activated
    s.apply("declare walking")
    s.apply("move H7")
    s.apply("end activation")
    assert "D3" in s.forced


@pytest.mark.rule("niflheim", "Rescue a Prisoner")
def test_rescued_prisoner_joins_and_activates_at_once() -> None:
    s = pos(open_map(14, 12), {"frida": {"at": "J7", "intent": "stationary", "mp": 0},
                               "killian": {"at": "A1"}}, scenario="4", done=["O2"])
    s.apply("rescue J")
    assert "gunnar" in s.heroes and grid.name(s.heroes["gunnar"].at) == "K7"
    # "After your activation, they may immediately activate": a players' choice, default at once.
    d = s.decision()
    assert d.seat == "players" and d.section == "Rescue a Prisoner"
    assert d.default == "activate gunnar"
    assert set(legal(s)) == {"activate gunnar", "activate killian"}
    s.apply("activate gunnar")
    assert s.decision().seat == "gunnar"
    # With nobody else left to activate, the freed prisoner activates at once.
    s = pos(open_map(14, 12), {"frida": {"at": "J7", "intent": "stationary", "mp": 0},
                               "killian": {"at": "A1", "activated": True}}, scenario="4",
            done=["O2"])
    s.apply("rescue J")
    assert s.decision().seat == "gunnar"


@pytest.mark.rule("niflheim", "Another Look at Range Modifiers")
def test_throwing_knives_stun_numbers_by_range() -> None:
    need = {}
    for r in range(1, 9):
        s = pos(open_map(12, 3), {"frida": {"at": "A1", "ready": "throwing_knives",
                                            "supplies": {"projectiles": 3}}},
                [{"id": 1, "kind": "draugr", "at": grid.name((r, 0))}], scenario="2")
        need[r] = 8 - sum(m for m, _ in mods(s, "frida", 1))
    assert need == {1: 9, 2: 8, 3: 8, 4: 8, 5: 9, 6: 9, 7: 10, 8: 10} or \
        {k: v for k, v in need.items() if k > 1} == {2: 8, 3: 8, 4: 8, 5: 9, 6: 9, 7: 10, 8: 10}


@pytest.mark.rule("niflheim", "New Foes")
def test_troll_armoured_hv2() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "troll", "at": "A3"}], pool={})
    s.force(10)
    s.apply("attack undead 1 with sling")
    assert s.undead[1].wounds == 1 and not s.undead[1].stunned


@pytest.mark.rule("niflheim", "New Foes")
def test_bogmadr_shoots_the_closest_hero_in_los_not_through_hindering() -> None:
    rows = open_map(10, 5, {"E1": "%"})
    s = pos(rows, {"frida": {"at": "A1"}, "killian": {"at": "H5", "activated": True}},
            [{"id": 1, "kind": "bogmadr", "at": "H1"}])
    bow = combat.bow_targets(s, s.undead[1])
    assert [h.id for h in bow] == ["killian"]  # Frida is behind hindering E1
    s.force(10, 12, 1)
    events = s.apply("end activation")
    assert s.heroes["killian"].health == 3 and any(e.kind == "bow" for e in events)
    assert grid.name(s.undead[1].at) == "H1"  # it shot, so it did not move


@pytest.mark.rule("niflheim", "New Foes")
def test_bogmadr_natural_2_hits_the_undead_shot_through() -> None:
    s = pos(open_map(10, 1), {"frida": {"at": "A1"}},
            [{"id": 1, "kind": "bogmadr", "at": "H1"}, {"id": 2, "kind": "draugr", "at": "D1",
                                                       "stunned": True}])
    s.force(2, 12, 1)
    s.apply("end activation")
    assert 2 not in s.undead and s.heroes["frida"].health == 4


@pytest.mark.rule("niflheim", "New Foes")
def test_bogmadr_prowler_moves_to_gain_los() -> None:
    rows = open_map(10, 5, {"F2": "#", "F3": "#", "F4": "#", "F1": "#"})
    s = pos(rows, {"frida": {"at": "A3"}}, [{"id": 1, "kind": "bogmadr", "at": "H5"}])
    s.force(12, 1)
    s.apply("end activation")
    u = s.undead[1]
    assert combat.bow_targets(s, u), grid.name(u.at)


@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_phial_example_burst_hits_four_draugr_not_killian() -> None:
    ud = [{"id": i, "kind": "draugr", "at": q} for i, q in
          enumerate(["E4", "F5", "D6", "E6"], start=1)]
    s = pos(open_map(10, 10), {"killian": {"at": "C5", "supplies": {"holy_water": 1}},
                               "frida": {"at": "A10"}}, ud)
    assert "throw holy water at E5" in legal(s)
    s.force(3, 9, 6, 1, 5)  # throw: 3 ≥ range 2; then the four burst attacks
    events = s.apply("throw holy water at E5")
    assert any("on target" in e.text for e in events)
    assert 1 not in s.undead and s.undead[2].stunned and 3 in s.undead
    assert not s.undead[3].stunned and not s.undead[4].stunned
    assert s.heroes["killian"].health == 4 and s.heroes["killian"].supplies["holy_water"] == 0


@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_phial_deviation_chart_two_squares_and_walls() -> None:
    s = pos(open_map(10, 10, {"E3": "#"}), {"killian": {"at": "A5", "supplies": {"holy_water": 3}}},
            [{"id": 1, "kind": "draugr", "at": "H5"}])
    s.force(3)  # direction 3: right
    assert combat.deviate(s, (4, 4)) == ((5, 4), [3])
    s.force(10, 11, 5)  # two squares, direction roll 11 re-rolled, then 5: down
    assert combat.deviate(s, (4, 4)) == ((4, 6), [10, 11, 5])
    s.force(1, 8)  # up into the wall: re-roll from scratch, then up-left
    assert combat.deviate(s, (4, 3)) == ((3, 2), [1, 8])
    # Eight is the maximum range.
    assert "throw holy water at H5" in legal(s) and "throw holy water at I4" not in legal(s)
    assert combat.PHIAL_MAX_RANGE == 8


@pytest.mark.rule("niflheim", "Interim Scenarios")
def test_scenario_33_loot_pillage_setup() -> None:
    from meadhall.games.niflheim import GAME
    s = GAME.new_game({"scenario": "33", "heroes": ["frida"], "huskarls": ["gunnar"]}, seed=4,
                      auto_choices=True)
    assert s.scenario.name == "Loot (Pillage)" and s.heroes["gunnar"].huskarl
    assert {"O1", "O2", "O3"} == set(s.scenario.specials)


@pytest.mark.rule("niflheim", "New Foe")
@pytest.mark.rule("niflheim", "Scenario 5: Shield Brother")
def test_mardrom_coward_and_leader_of_the_pack() -> None:
    from meadhall.games.niflheim import undead
    s = pos(open_map(12, 1), {"frida": {"at": "A1"}},
            [{"id": 1, "kind": "mardrom", "at": "L1"}, {"id": 2, "kind": "draugr", "at": "H1"}],
            scenario="5")
    assert undead.move_value(s, s.undead[2]) == 2
    assert undead.move_value(s, s.undead[1]) == 2
    s.force(1, 12)  # heroes 1 vs undead 12 (no -4 while Mardröm is on the map): undead win
    events = s.apply("end activation")
    assert grid.name(s.undead[1].at) == "L1"  # coward: no hero within 2 squares
    assert any(e.kind == "coward" for e in events)
    assert s.order == ["undead", "heroes"]


@pytest.mark.rule("niflheim", "New Foe")
def test_mardrom_coward_boundary_within_2_squares() -> None:
    """"Only move towards a hero if it is within 2 squares of that hero": 2 squares away it
    moves (adjacent), 3 squares away it stays."""
    def after(at: str) -> str:
        s = pos(open_map(8, 1), {"frida": {"at": "A1"}},
                [{"id": 1, "kind": "mardrom", "at": at}], scenario="5")
        s.force(1, 12)
        s.apply("end activation")
        return grid.name(s.undead[1].at)

    assert after("C1") == "B1"  # 2 squares away: moves next to Frida
    assert after("D1") == "D1"  # 3 squares away: a coward, it stays


@pytest.mark.rule("niflheim", "Runestones")
def test_runestones_black_white_blue_red() -> None:
    base = {"at": "A1", "ready": "seax"}
    ud = [{"id": 1, "kind": "mardrom", "at": "A2"}, {"id": 2, "kind": "draugr", "at": "B2"}]
    s = pos(open_map(8, 8), {"frida": {**base, "runes": {"seax": "black"}},
                             "killian": {"at": "H8"}}, ud, scenario="5")
    s.force(5)
    s.apply("attack undead 1 with seax")
    assert grid.name(s.undead[1].at) == "A3"
    s = pos(open_map(8, 8), {"frida": {**base, "runes": {"seax": "white"}},
                             "killian": {"at": "H8"}}, ud, scenario="5")
    s.force(5)
    s.apply("attack undead 1 with seax")
    assert s.heroes["frida"].free_step and "rune step B1" in legal(s)
    ud3 = ud + [{"id": 3, "kind": "draugr", "at": "A3"}]
    s = pos(open_map(8, 8), {"frida": {**base, "runes": {"seax": "blue"}},
                             "killian": {"at": "H8"}}, ud3, scenario="5")
    s.force(5)
    s.apply("attack undead 1 with seax")
    assert set(legal(s)) == {"stun undead 2", "stun undead 3"}
    s.apply("stun undead 3")
    assert s.undead[3].stunned and not s.undead[2].stunned
    s = pos(open_map(8, 8), {"frida": {**base, "runes": {"seax": "red"}},
                             "killian": {"at": "H8"}}, ud, scenario="5")
    s.force(5)  # 5 ≥ 4 (stun) but < 7 (wound): the red runestone makes it a wound
    s.apply("attack undead 1 with seax")
    assert s.undead[1].wounds == 1


@pytest.mark.rule("niflheim", "Passing Gear")
def test_passing_gear_2_mp_weapon_readied_free() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "gear": ["seax"]}, "killian": {"at": "A2"}},
            scenario="5")
    s.apply("pass seax to killian")
    assert s.heroes["killian"].ready == "seax" and s.heroes["frida"].mp == 1


@pytest.mark.rule("niflheim", "Passing Gear")
def test_passed_weapon_may_be_readied_for_free_swapping_the_readied_one() -> None:
    """"Passed weapons can be readied immediately for free (potentially swapping out an already
    readied weapon)": the receiver chooses among every way (default: keep it in a gear slot)."""
    def passed(answer: str | None) -> Any:
        s = pos(open_map(8, 8), {"frida": {"at": "A1", "gear": ["seax"]},
                                 "killian": {"at": "A2", "ready": "axe"}}, scenario="5")
        s.apply("pass seax to killian")
        d = s.decision()
        assert d.seat == "players" and d.section == "Passing Gear"
        assert d.default == "killian keeps seax in a gear slot"
        assert set(legal(s)) == {"killian keeps seax in a gear slot", "killian readies seax",
                                 "killian readies seax off hand"}
        if answer:
            s.apply(answer)
        return s

    k = passed("killian readies seax").heroes["killian"]
    assert (k.ready, k.off_hand, k.gear, k.mp) == ("seax", None, ["axe"], 0)
    k = passed("killian readies seax off hand").heroes["killian"]
    assert (k.ready, k.off_hand, k.gear) == ("axe", "seax", [])
    s = passed("killian keeps seax in a gear slot")
    k = s.heroes["killian"]
    assert (k.ready, k.off_hand, k.gear) == ("axe", None, ["seax"])
    assert s.heroes["frida"].mp == 1 and s.active == "frida"


@pytest.mark.rule("niflheim", "Scenario 3: Salvage and Scenario 4: Break In")
def test_glory_for_completion_and_failed_secondary() -> None:
    s = pos(open_map(14, 12), {"frida": {"at": "N10"}, "gunnar": {"at": "A1"}}, done=["O1"])
    s.apply("exit E")
    assert s.outcome().result == "win"
    assert s.heroes["frida"].glory == 0  # +1 completion, -1 secondary (O2) not done
    assert s.heroes["gunnar"].glory == 0 and s.heroes["gunnar"].xp == 1


@pytest.mark.rule("niflheim", "New Rules for Scenarios 3 and 4")
def test_scenario_3_and_4_rules_in_force_from_scenario_3() -> None:
    from meadhall.games.niflheim import GAME
    for sc in ("3", "4", "33", "5"):
        s = GAME.new_game({"scenario": sc, "heroes": ["frida"]}, seed=1, auto_choices=True)
        assert s.setup_rules_34() and s.scenario.glory
    s = GAME.new_game({"scenario": "2", "heroes": ["frida"]}, seed=1, auto_choices=True)
    assert not s.setup_rules_34()


@pytest.mark.rule("niflheim", "New Rules for Scenario 5: Shield Brother")
def test_scenario_5_setup_mardrom_orange_and_kit_runestone() -> None:
    from meadhall.games.niflheim import GAME
    s = GAME.new_game({"scenario": "5", "heroes": ["frida", "killian"]}, seed=2,
                      auto_choices=True)
    assert [u.kind for u in s.undead.values() if u.orange] == ["mardrom"]
    assert s.heroes["killian"].runes == {"seax": "black"}
    assert s.scenario.objective.kill == ["mardrom"]


@pytest.mark.rule("niflheim", "Special Actions")
def test_search_bringing_an_undead_places_it_next_to_the_square() -> None:
    s = pos(open_map(14, 12), {"frida": {"at": "C10", "intent": "stationary", "mp": 0},
                               "killian": {"at": "A1"}}, done=["O1"])
    s.apply("search O2")
    d = s.decision()
    # C11 (O2's square) is free: the marker goes there, at once, face down or revealed.
    assert [grid.name(u.at) for u in s.undead.values()] == ["C11"] or d.section == "Spawning"


@pytest.mark.rule("niflheim", "New Foes")
def test_spectral_bow_blocked_by_heroes_passes_undead() -> None:
    s = pos(open_map(10, 1), {"frida": {"at": "A1"}, "killian": {"at": "D1"}},
            [{"id": 1, "kind": "bogmadr", "at": "H1"}])
    assert [h.id for h in combat.bow_targets(s, s.undead[1])] == ["killian"]


@pytest.mark.rule("niflheim", "Passing Gear")
def test_passing_supplies_and_huskarls_keep_their_projectiles() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "supplies": {"projectiles": 2,
                                                                 "healing_salves": 1}},
                             "gunnar": {"at": "A2"}}, scenario="5")
    assert "pass a healing salve to gunnar" in legal(s)
    assert "pass a projectile to gunnar" not in legal(s)
    s.apply("pass a healing salve to gunnar")
    assert s.heroes["gunnar"].supplies["healing_salves"] == 1 and s.heroes["frida"].mp == 1


@pytest.mark.rule("niflheim", "Huskarl")
def test_wounded_huskarl_minus_2_to_break_a_lock() -> None:
    s = pos(open_map(8, 8), {"gunnar": {"at": "C3", "intent": None, "mp": 0, "health": 1,
                                        "locked_by": 1, "ready": "axe"},
                             "frida": {"at": "H8"}}, [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.force(5)  # axe H2H stun 5: 5 + 2 (stationary) - 2 (wounded huskarl) = 5, broken
    s.apply("declare stationary")
    assert s.heroes["gunnar"].locked_by is None
    s = pos(open_map(8, 8), {"gunnar": {"at": "C3", "intent": None, "mp": 0, "health": 1,
                                        "locked_by": 1, "ready": "axe"},
                             "frida": {"at": "H8"}}, [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.force(4)
    s.apply("declare stationary")
    assert s.heroes["gunnar"].locked_by == 1


@pytest.mark.rule("niflheim", "New Foe")
def test_glory_for_killing_mardrom_also_after_the_first_lap() -> None:
    """Only XP from kills is limited to the first lap of the round track; the Glory for killing
    Mardröm goes to the hero dealing the killing blow on any lap."""
    for lap, xp in ((1, 2), (2, 0)):
        s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax"}, "killian": {"at": "H8"}},
                [{"id": 1, "kind": "mardrom", "at": "A2", "wounds": 1}], scenario="5", lap=lap)
        s.force(12)
        s.apply("attack undead 1 with seax")
        f = s.heroes["frida"]
        assert 1 not in s.undead and f.glory == 1 and f.xp == xp


@pytest.mark.rule("niflheim", "Special Actions")
def test_search_finds_only_what_fits_the_rest_stays_on_the_square() -> None:
    """"You may immediately pick up any found items": a hero may not carry more than their slots
    (Gear Slots), so found gear that does not fit stays on the searched square."""
    from meadhall.games.niflheim.testkit import position
    full = ["spear", "spear", "spear", "seax", "seax", "seax"]
    s = position({"heroes": {"frida": {"at": "K3", "intent": "stationary", "mp": 0,
                                       "ready": "sling", "gear": full}},
                  "undead": [], "active": "frida", "coin_used": True, "done": []},
                 scenario="3")
    assert "search O1" in legal(s)
    s.apply("search O1")
    f = s.heroes["frida"]
    assert f.gear == full and not f.carries("throwing_knives")
    assert s.items[grid.sq("K3")] == ["throwing_knives"]


@pytest.mark.rule("niflheim", "Shields")
def test_a_shield_carried_in_a_gear_slot_still_gives_minus_1_to_attackers() -> None:
    """"Any figure carrying a shield imposes a -1 DRM against any attack targeting the figure":
    carried, not only readied (the spectral bow's 10 becomes a 9: a miss)."""
    rows = open_map(10, 5, {"E1": "%"})
    s = pos(rows, {"frida": {"at": "A1"},
                   "killian": {"at": "H5", "activated": True, "gear": ["shield"]}},
            [{"id": 1, "kind": "bogmadr", "at": "H1"}])
    s.force(10, 12, 1)
    events = s.apply("end activation")
    assert s.heroes["killian"].health == 4
    assert any(e.kind == "bow" and "-1 for the shield" in e.text for e in events)
