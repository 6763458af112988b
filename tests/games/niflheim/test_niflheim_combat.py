"""Combat (scenario 2): weapons, the attack action, range, DRMs, attack dice, effects, covering,
and the rulebook's attack, range-modifier and covering examples."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.games.niflheim import combat
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {}, "done": ["O2"],
                         "pool": {"draugr": 2}, "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario="2")


def plan(s: Any, hero: str, uid: int) -> combat.AttackPlan:
    return next(p for p in combat.plans(s, s.heroes[hero]) if p.undead == uid)


def drm(s: Any, hero: str, uid: int, cover: str | None = None) -> int:
    h = s.heroes[hero]
    return sum(m for m, _ in combat.modifiers(s, h, s.undead[uid], plan(s, hero, uid), cover))


# Attack example: Frida on D5 with the sling, walking. #1 on G5 behind hindering E5 (adjacent
# to her); #2 on D2 behind hindering D4 (adjacent) and D3; #3 on G8 on a diagonal touching the
# corner of obstructive E7; #4 on B3 behind obstructive C4.
EXAMPLE = open_map(10, 10, {"E5": "%", "D4": "%", "D3": "%", "E7": "#", "C4": "#"})
EXAMPLE_UNDEAD = [{"id": 1, "kind": "draugr", "at": "G5"}, {"id": 2, "kind": "draugr", "at": "D2"},
                  {"id": 3, "kind": "draugr", "at": "G8"}, {"id": 4, "kind": "draugr", "at": "B3"}]


def example() -> Any:
    return pos(EXAMPLE, {"frida": {"at": "D5", "ready": "sling"}, "killian": {"at": "A10"}},
               EXAMPLE_UNDEAD)


@pytest.mark.rule("niflheim", "Determine the Target")
def test_attack_example_part_1_targets() -> None:
    s = example()
    attacks = {a for a in legal(s) if a.startswith("attack")}
    assert attacks == {"attack undead 1 with sling", "attack undead 2 with sling",
                       "attack undead 3 with sling"}  # #4: LOS blocked by obstructive terrain


@pytest.mark.rule("niflheim", "Determine the Range")
def test_attack_example_ranges() -> None:
    assert combat.attack_range((3, 4), (6, 4)) == 3  # #1
    assert combat.attack_range((3, 4), (3, 1)) == 3  # #2
    assert combat.attack_range((3, 4), (6, 7)) == 6  # #3: each diagonal square counts as 2


@pytest.mark.rule("niflheim", "Die Roll Modifiers (DRM)")
def test_attack_example_part_2_stun_and_wound_numbers() -> None:
    """#1: 7+ stun, 10+ wound; #2: -2, so 9+ and 12; #3: range 6, -1, so 8+ and 11+."""
    s = example()
    assert drm(s, "frida", 1) == 0
    assert drm(s, "frida", 2) == -2
    assert drm(s, "frida", 3) == -1
    need = {u: (7 - drm(s, "frida", u), 10 - drm(s, "frida", u)) for u in (1, 2, 3)}
    assert need == {1: (7, 10), 2: (9, 12), 3: (8, 11)}


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_attack_example_rolls() -> None:
    s = example()
    s.force(7)
    s.apply("attack undead 1 with sling")
    assert s.undead[1].stunned and s.heroes["frida"].marker == "attacked"
    s = example()
    s.force(10)
    s.apply("attack undead 1 with sling")
    assert 1 not in s.undead and s.discard == ["draugr"] and s.heroes["frida"].xp == 1
    s = example()
    s.force(8)
    s.apply("attack undead 2 with sling")  # 8 - 2 = 6: a miss (a natural 9+ stuns)
    assert not s.undead[2].stunned
    s = example()
    s.force(11)
    s.apply("attack undead 2 with sling")  # 11 - 2 = 9: a stun, not a wound (needs 12)
    assert s.undead[2].stunned and s.undead[2].wounds == 0


@pytest.mark.rule("niflheim", "Die Roll Modifiers (DRM)")
def test_range_modifier_sling_and_throwing_knives() -> None:
    """Sling PBR 4 RM 3: -1 at range 5-7, -2 at 8-10 (see rulings: the printed '8-11').
    Throwing knives PBR 4 RM 2: stun 8 up to 4, 9 at 5-6, 10 at 7-8."""
    assert [combat.range_modifier(r, 4, 3) for r in range(1, 12)] == \
        [0, 0, 0, 0, -1, -1, -1, -2, -2, -2, -3]
    stun = {r: 8 - combat.range_modifier(r, 4, 2) for r in range(1, 9)}
    assert stun == {1: 8, 2: 8, 3: 8, 4: 8, 5: 9, 6: 9, 7: 10, 8: 10}
    wound = {r: 10 - combat.range_modifier(r, 4, 2) for r in range(1, 9)}
    assert wound == {1: 10, 2: 10, 3: 10, 4: 10, 5: 11, 6: 11, 7: 12, 8: 12}


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_attack_modifier_table() -> None:
    rows = open_map(8, 8)
    for intent, am in (("stationary", 2), ("walking", 0), ("running", -2)):
        s = pos(rows, {"frida": {"at": "A1", "ready": "sling", "intent": intent}},
                [{"id": 1, "kind": "draugr", "at": "A3"}])
        assert drm(s, "frida", 1) == am
    s = pos(rows, {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "draugr", "at": "A3", "stunned": True}])
    assert drm(s, "frida", 1) == 3
    for cover, am in (("stationary", 0), ("walking", -2), ("running", -4)):
        assert drm(s, "frida", 1, cover) == 3 + am


@pytest.mark.rule("niflheim", "One-Handed Weapons")
def test_off_hand_minus_2_and_both_must_be_one_handed() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "axe", "gear": ["seax", "sling"]}},
            [{"id": 1, "kind": "draugr", "at": "A2"}])
    assert "ready seax off hand" in legal(s) and "ready sling off hand" not in legal(s)
    s.apply("ready seax off hand")
    assert s.heroes["frida"].off_hand == "seax" and s.heroes["frida"].mp == 2
    p = next(p for p in combat.plans(s, s.heroes["frida"]) if p.off_hand)
    mods = combat.modifiers(s, s.heroes["frida"], s.undead[1], p, None)
    assert (-2, "attacking off hand (AM)") in mods


@pytest.mark.rule("niflheim", "Ready Weapon")
def test_swap_ready_weapon_costs_1_mp() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling", "gear": ["seax"]}})
    s.apply("ready seax")
    h = s.heroes["frida"]
    assert h.ready == "seax" and h.gear == ["sling"] and h.mp == 2


@pytest.mark.rule("niflheim", "Gear Slots")
def test_four_gear_slots() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling",
                                       "gear": ["seax", "axe", "spear", "shield"]},
                             "killian": {"at": "H8"}}, items={"A2": ["torch"]})
    assert "pick up A2" not in legal(s)
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "gear": ["axe"]}, "killian": {"at": "H8"}},
            items={"A2": ["sling", "seax"]})
    s.apply("pick up A2")
    assert s.heroes["frida"].ready == "sling" and s.heroes["frida"].gear == ["axe", "seax"]


@pytest.mark.rule("niflheim", "Hand to Hand (H2H) Weapons")
def test_h2h_values_when_adjacent_unarmed_10_12() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "draugr", "at": "A2"}, {"id": 2, "kind": "draugr", "at": "A5"}])
    p1, p2 = plan(s, "frida", 1), plan(s, "frida", 2)
    assert (p1.ranged, p1.stun, p1.wound) == (False, 9, 11)
    assert (p2.ranged, p2.stun, p2.wound) == (True, 7, 10)
    s = pos(open_map(8, 8), {"frida": {"at": "A1"}},
            [{"id": 1, "kind": "draugr", "at": "A2"}, {"id": 2, "kind": "draugr", "at": "A5"}])
    assert [a for a in legal(s) if a.startswith("attack")] == ["attack undead 1 unarmed"]
    assert (plan(s, "frida", 1).stun, plan(s, "frida", 1).wound) == (10, 12)


@pytest.mark.rule("niflheim", "Weapon Characteristics")
def test_x_means_no_ranged_attack() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax"}},
            [{"id": 1, "kind": "draugr", "at": "A3"}])
    assert not [a for a in legal(s) if a.startswith("attack")]


@pytest.mark.rule("niflheim", "Dice Rolls")
def test_natural_1_always_misses() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling", "intent": "stationary",
                                       "mp": 0}},
            [{"id": 1, "kind": "draugr", "at": "A3", "stunned": True}])
    s.force(1)  # 1 + 2 + 3 = 6, but a natural 1 misses whatever the DRM
    events = s.apply("attack undead 1 with sling")
    assert 1 in s.undead and any("Natural 1" in e.text for e in events)


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_natural_2_wounds_the_first_intervening_figure() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}, "killian": {"at": "A2"}},
            [{"id": 1, "kind": "draugr", "at": "A3"}, {"id": 2, "kind": "draugr", "at": "A4"}])
    assert drm(s, "frida", 2) == -4  # through two figures, -2 each
    s.force(2)
    s.apply("attack undead 2 with sling")
    assert s.heroes["killian"].health == 3 and 2 in s.undead


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_wound_stuns_and_no_double_stun_and_armoured() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "mardrom", "at": "A4"}], pool={})
    s.force(10)
    s.apply("attack undead 1 with sling")
    assert s.undead[1].wounds == 1 and s.undead[1].stunned
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "troll", "at": "A4"}], pool={})
    s.force(8)
    events = s.apply("attack undead 1 with sling")
    assert not s.undead[1].stunned and any("armoured" in e.text for e in events)


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_no_xp_after_the_first_lap() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"}},
            [{"id": 1, "kind": "draugr", "at": "A3"}], lap=2)
    s.force(12)
    s.apply("attack undead 1 with sling")
    assert 1 not in s.undead and s.heroes["frida"].xp == 0


@pytest.mark.rule("niflheim", "Attack Action")
def test_attack_in_zoc_that_stuns_lets_the_hero_move_on() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax"}, "killian": {"at": "H8"}},
            [{"id": 1, "kind": "draugr", "at": "C2"}])
    s.apply("move B1")
    s.apply("move B2")  # stops there: adjacent to the draugr
    assert s.heroes["frida"].zoc_stop and not [a for a in legal(s) if a.startswith("move")]
    s.force(5)  # seax H2H 4/7, walking: a stun
    s.apply("attack undead 1 with seax")
    assert s.undead[1].stunned and not s.heroes["frida"].zoc_stop
    assert "move A2" in legal(s)


@pytest.mark.rule("niflheim", "Attack Action")
def test_unused_attack_becomes_cover_marker() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "seax"}, "killian": {"at": "H8"}})
    s.apply("end activation")
    assert s.heroes["frida"].marker == "cover walking"


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_covering_example_seax_interrupts_the_undead_turn() -> None:
    """Frida walked with her seax and did not attack: a value 2 Cover marker. A draugr comes
    round the corner next to her; she interrupts: 4/7 with -2, so 6+ stuns and 9+ wounds."""
    rows = open_map(8, 8, {"D2": "#"})
    s = pos(rows, {"frida": {"at": "C3", "ready": "seax"}},
            [{"id": 1, "kind": "draugr", "at": "E2"}])
    assert not s.board.sees((2, 2), (4, 1))
    s.apply("end activation")
    d = s.decision()
    assert d.section == "Covering" and d.default == "no cover attack"
    assert legal(s) == ["no cover attack", "cover: frida attack undead 1 with seax"]
    h = s.heroes["frida"]
    p = next(p for p in combat.plans(s, h) if p.undead == 1)
    assert combat.modifiers(s, h, s.undead[1], p, "walking") == [(-2, "walking Cover marker (AM)")]
    s.force(6, 12, 1)
    s.apply("cover: frida attack undead 1 with seax")
    assert s.undead[1].stunned and s.heroes["frida"].locked_by is None
    assert s.heroes["frida"].marker is None or s.heroes["frida"].marker == "attacked"


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_lock_removes_cover() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "ready": "sling"}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.apply("end activation")  # she covers; the adjacent draugr activates
    assert legal(s) == ["no cover attack", "cover: frida attack undead 1 with sling"]
    s.force(12, 1)
    events = s.apply("no cover attack")
    assert s.heroes["frida"].locked_by == 1 and s.heroes["frida"].marker == "attacked"
    assert any("Cover marker becomes an Attacked marker" in e.text for e in events)


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_covering_attack_before_the_undead_attacks() -> None:
    """Heroes react before they are attacked: a covering stun stops the draugr's attack."""
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "ready": "sling"}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.apply("end activation")
    s.force(11, 12, 1)  # sling H2H 9/11, walking cover -2: 9 stuns
    s.apply("cover: frida attack undead 1 with sling")
    assert s.undead[1].stunned and s.heroes["frida"].locked_by is None


@pytest.mark.rule("niflheim", "Supplies")
def test_search_gives_supplies_and_projectile() -> None:
    s = pos(open_map(14, 10), {"frida": {"at": "M3", "intent": "stationary", "mp": 0},
                               "killian": {"at": "A10"}}, done=[])
    s.apply("search O2")
    assert s.heroes["frida"].supplies == {"projectiles": 1, "healing_salves": 1, "holy_water": 0}


@pytest.mark.rule("niflheim", "Scenario 2: In the Mist")
def test_scenario_2_setup_and_objective() -> None:
    from meadhall.games.niflheim import GAME
    s = GAME.new_game({"scenario": "2", "heroes": ["frida"]}, seed=1)
    assert s.items[(4, 3)] == ["sling", "seax"] and s.scenario.attacks
    s = pos(open_map(14, 10), {"frida": {"at": "N8", "ready": "sling"}})
    s.apply("exit E")
    assert s.outcome().result == "win"


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_covering_hero_may_attack_during_another_heros_activation() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "ready": "sling"},
                             "killian": {"at": "H8", "intent": None}},
            [{"id": 1, "kind": "draugr", "at": "A5"}])
    s.apply("end activation")
    s.apply("declare walking")
    assert "cover: frida attack undead 1 with sling" in legal(s)
    s.force(12)
    s.apply("cover: frida attack undead 1 with sling")  # 12 - 2 (walking cover) = 10: wound
    assert 1 not in s.undead and s.heroes["frida"].marker == "attacked"
    assert s.decision().seat == "killian"


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_covering_attack_offered_on_a_spawned_undead_in_los() -> None:
    s = pos(open_map(14, 10), {"frida": {"at": "J9", "ready": "sling"}}, track=2)
    s.apply("end activation")
    assert s.decision().section == "Covering"
    assert "cover: frida attack undead 1 with sling" in legal(s)
