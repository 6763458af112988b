"""Attacks, the dice, damage, falling, recovering, glory (Attack; The Dice; Damage, Wounds and
Life Points; Keywords)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, sq, texts

from meadhall.games.runaljod.dice_rules import damage_of


@pytest.mark.rule("runaljod", "The Dice")
@pytest.mark.rule("runaljod", "Basic Rules")
def test_dagger_axe_double_axe_deal_one_two_three() -> None:
    assert damage_of(["dagger"]) == 1 and damage_of(["axe"]) == 2
    assert damage_of(["double_axe"]) == 3 and damage_of(["upgrade", "blank"]) == 0
    assert damage_of(["dagger", "axe"], {"dagger"}) == 2


def duel(enemy: str = "clan_warrior"):
    st = make(["....", "....", "...."])
    put(st, "berserk", "A1")
    put(st, "volva", "D3")
    e = foe(st, enemy, "B1")
    return st, st.heroes["berserk"], e


@pytest.mark.rule("runaljod", "Attack")
def test_attack_damage_minus_defence_icons() -> None:
    st, h, e = duel()
    st.force("double_axe", "dagger", "blank")  # bearded axe 2 black + Fury black
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert e.damage == 3  # 4 damage - 1 defence (clan warrior)


@pytest.mark.rule("runaljod", "Attack")
def test_upgrades_each_skill_once_and_the_hero_chooses_when_short() -> None:
    st, h, e = duel("jotun")
    e.damage = 0
    # one upgrade, two upgrade skills on the axe (+1 damage, wound): a real choice
    st.force("upgrade", "axe", "axe")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    opts = texts(st)
    assert opts == ["spend upgrades on +1 damage (bearded axe)",
                    "spend upgrades on wound (bearded axe)"]
    st.apply("spend upgrades on +1 damage (bearded axe)")
    assert e.damage == 3  # 2+2+1 - 2 defence
    assert "wound" not in e.conditions


@pytest.mark.rule("runaljod", "Attack")
def test_two_upgrades_buy_both_skills_only_once_each() -> None:
    st, h, e = duel("jotun")
    st.force("upgrade", "upgrade", "upgrade")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    # three upgrades, two skills: both used, the third is ignored; no damage: no wound
    assert e.damage == 0 and "wound" not in e.conditions


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Wound")
def test_wound_only_when_the_attack_dealt_damage() -> None:
    st, h, e = duel("jotun")
    st.force("upgrade", "upgrade", "double_axe")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert e.damage == 2 and "wound" in e.conditions  # 3 + 1 - 2


@pytest.mark.rule("runaljod", "Attack")
def test_enemy_cancel_icons_ignore_specific_results() -> None:
    st, h, e = duel("jotun")  # the jotun cancels daggers
    st.force("dagger", "axe", "double_axe")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert e.damage == 3  # the dagger is ignored: 2 + 3 - 2 defence


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_defeated_enemy_is_removed_and_gives_glory() -> None:
    st, h, e = duel()
    st.force("double_axe", "double_axe", "blank")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert e not in st.enemies and h.glory == 1


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_five_glory_make_a_skill_point_and_three_points_at_most() -> None:
    st = make()
    h = st.heroes["berserk"]
    h.skill_points = 1
    st.gain_glory(h, 6, [], "test")
    assert h.skill_points == 2 and h.glory == 1
    h.skill_points = 3
    h.glory = 4
    st.gain_glory(h, 3, [], "test")
    assert h.skill_points == 3 and h.glory == 5


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Area")
def test_area_hits_the_target_and_every_adjacent_enemy_with_its_own_defence() -> None:
    st2 = make(["....", "....", "...."])
    put(st2, "berserk", "A1")
    put(st2, "volva", "D3")
    h2 = st2.heroes["berserk"]
    a2 = foe(st2, "clan_warrior", "B1")
    b2 = foe(st2, "northern_wolf", "C1")
    far = foe(st2, "northern_wolf", "D3")
    st2.force("axe", "blank", "blank")
    st2.start_hero_attack(h2, a2.at, "bearded_axe", False, [], ["area"], [])
    assert a2.damage == 1 and b2.damage == 2  # 2 damage: warrior defence 1, wolf 0
    assert far.damage == 0  # not adjacent to the target space


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Range")
@pytest.mark.rule("runaljod", "Large")
def test_range_targets_anything_in_sight_and_large_reaches_two_spaces() -> None:
    st = make([".....", ".....", "....."])
    put(st, "volva", "A1")
    put(st, "berserk", "A3")
    foe(st, "clan_warrior", "E1")
    assert st.attack_targets(st.heroes["volva"], "staff", []) == [sq("E1")]
    assert st.attack_targets(st.heroes["berserk"], "bearded_axe", []) == []
    foe(st, "clan_hunter", "C3")
    assert st.attack_targets(st.heroes["berserk"], "bearded_axe", ["large"]) == [sq("C3")]


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Mark")
def test_mark_returns_to_reroll_every_die_and_the_second_roll_stands() -> None:
    st, h, e = duel()
    h.mark = "ready"
    st.force("blank", "blank", "blank")
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert texts(st) == ["keep the roll", "re-roll with the mark token"]
    st.force("double_axe", "blank", "blank")
    st.apply("re-roll with the mark token")
    assert e.damage == 2 and h.mark == "none"  # returned: a skill must place it again


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Stun")
def test_freeze_and_stun_keywords_place_their_tokens() -> None:
    st, h, e = duel("jotun")
    st.force("blank", "blank", "blank")
    st.start_hero_attack(h, e.at, "bearded_axe", False, [], ["stun"], [])
    assert "stun" in e.conditions


@pytest.mark.rule("runaljod", "Attack")
def test_enemy_attack_spends_upgrades_left_to_right_and_heroes_defend() -> None:
    st2 = make(heroes=("warrior", "volva"))
    put(st2, "warrior", "A1")
    e = foe(st2, "clan_warrior", "B1")
    h = st2.heroes["warrior"]
    # two upgrades: +1 damage then wound; warrior defence 1 + kite shield 1 + armour 1 +
    # Shield Wall 1 = 4, and the kite shield cancels daggers
    st2.force("upgrade", "upgrade")
    st2.enemy_attack(e, h, [], "Attack")
    assert h.damage == 0 and "wound" not in h.conditions
    st2.force("double_axe", "double_axe")
    st2.enemy_attack(e, h, [], "Attack")
    assert h.damage == 2


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_coloured_life_spaces_lose_the_left_skill_when_covered() -> None:
    st = make()
    h = st.heroes["berserk"]
    assert st.coloured_available(h)
    h.damage = 3
    assert not st.coloured_available(h)
    assert st.attack_pool(h, "bearded_axe", False, [], []) == ["black", "black"]


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_fallen_hero_is_knocked_down_immune_and_loses_tokens_and_unused_runes() -> None:
    st = make()
    put(st, "berserk", "A1")
    h = st.heroes["berserk"]
    h.conditions = ["wound"]
    st.lose_life(h, 20, "test", "test", [])
    assert h.fallen and h.damage == 10 and h.conditions == []
    assert all(r.place != "pool" for r in h.runes)
    st.give_condition(h, "frozen", [], "test")
    assert h.conditions == []
    e = foe(st, "clan_warrior", "B1")
    assert not st.can_attack(e, h)


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_recovering_alone_heals_by_orientation_then_flips_face_down_and_moves_end() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    h = st.heroes["berserk"]
    st.lose_life(h, 20, "test", "test", [])
    h.fell_this_turn = False
    h.recover_choice = "yes"
    end = st.end
    st.force("up", "side", "down", "down")
    st.destiny_phase([])
    assert not h.fallen and st.life_left(h) == 5  # 2 + 3
    assert all(r.side == "down" and r.place == "pool" for r in h.runes)
    assert st.end == end - 1


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_helping_a_hero_adds_one_life_per_upgrade_and_keeps_orientations() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    v = st.heroes["volva"]
    st.lose_life(v, 20, "test", "test", [])
    assert not any(a.startswith("assist") for a in texts(st))  # not the turn it fell
    v.fell_this_turn = False
    assert "assist volva using uruz" in texts(st)
    st.force("upgrade", "upgrade", "up", "down", "side", "down")
    st.apply("assist volva using uruz")
    assert not v.fallen and st.life_left(v) == 2 + 3 + 2
    assert [r.side for r in v.runes] == ["up", "down", "side", "down"]
    assert all(r.place == "pool" for r in v.runes)


@pytest.mark.rule("runaljod", "Freeze")
def test_freeze_upgrade_gives_the_target_a_frozen_token() -> None:
    st = make(heroes=("volva", "berserk"))
    put(st, "volva", "A1")
    wolf = foe(st, "northern_wolf", "B1")  # upgrades: +1 damage, then freeze
    st.force("upgrade")
    st.enemy_attack(wolf, st.heroes["volva"], [], "Attack")
    assert "frozen" not in st.heroes["volva"].conditions  # one upgrade: +1 damage first
    st.heroes["volva"].damage = 0
    wolf2 = foe(st, "jotun", "A2")  # +2 damage, hold (2: unaffordable), freeze, stun
    st.force("upgrade", "upgrade", "blank")
    st.enemy_attack(wolf2, st.heroes["volva"], [], "Attack")
    assert st.heroes["volva"].conditions == ["frozen"]
    assert st.heroes["volva"].damage == 2


def held():
    st = make(["......", "......", "......"])
    put(st, "berserk", "B2")
    put(st, "volva", "F3")
    jotun = foe(st, "jotun", "C2")
    h = st.heroes["berserk"]
    # three upgrades: +2 damage (one), then hold (two)
    st.force("upgrade", "upgrade", "upgrade")
    st.enemy_attack(jotun, h, [], "Attack")
    return st, h, jotun


@pytest.mark.rule("runaljod", "Hold")
def test_hold_takes_the_hero_into_the_captors_space_and_drains_destiny() -> None:
    st, h, jotun = held()
    assert h.held_by == jotun.uid and h.at == jotun.at and jotun.holding == "berserk"
    assert all(not r.face_up for r in h.pool())
    foe(st, "clan_warrior", "A2")
    assert st.attack_targets(h, "bearded_axe", []) == [jotun.at]  # only its captor
    assert not any(a.startswith("move ") for a in texts(st))
    other = st.enemies[-1]
    assert not st.can_attack(other, h) and st.can_attack(jotun, h)


@pytest.mark.rule("runaljod", "Hold")
def test_held_hero_pays_before_each_action_or_takes_a_physical_check() -> None:
    st, h, jotun = held()
    h.conditions.clear()
    h.damage = 0
    for r in h.pool():
        r.side = "up"
    st.apply("attack using uruz")
    assert st.ask["kind"] == "hold"
    opts = texts(st)
    assert opts[0] == "suffer the hold"
    assert "physical check using uruz" not in opts  # that rune pays for the attack
    # the check fails (2 life and 1 destiny), then the attack goes on
    st.force("blank", "blank", "blank", "blank", "blank")
    st.apply("physical check using tiwaz")
    assert h.damage == 2 and h.rune("tiwaz").place == "physical"
    # which face up rune pays the destiny is the hero's choice (ruling 9)
    assert texts(st) == ["flip thurisaz face down", "flip uruz face down",
                         "flip hagalaz face down"]
    st.apply("flip hagalaz face down")
    assert h.rune("hagalaz").side == "down" and h.rune("thurisaz").side == "up"
    assert h.rune("uruz").place == "attack1" and texts(st) == ["attack C2 with bearded axe"]
    st.apply("attack C2 with bearded axe")
    assert st.ask is None


@pytest.mark.rule("runaljod", "Hold")
def test_defeating_the_captor_frees_the_hero_next_to_it() -> None:
    st, h, jotun = held()
    st.hurt_enemy(jotun, 99, st.heroes["volva"], "test", "test", [])
    assert h.held_by == 0 and h.at != sq("C2") and st.adjacent(h.at, sq("C2"))


@pytest.mark.rule("runaljod", "2. Destiny Phase")
def test_a_fallen_hero_chooses_to_recover_at_the_destiny_phase_or_stays_down() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    h = st.heroes["berserk"]
    st.lose_life(h, 99, "test", "test", [])
    st.start_preparation([])  # a new round: it fell on an earlier turn
    st.phase = "destiny"
    st._advance([])
    assert st.decision().seat == "berserk"
    assert texts(st) == ["recover on my own", "stay down"]
    st.apply("stay down")
    assert h.fallen and not st.can_act(h)
    assert st.decision() is None or st.decision().seat != "berserk"


@pytest.mark.rule("runaljod", "Hold")
def test_a_hero_with_hold_keeps_the_enemy_in_its_space_and_drags_it_along() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    h = st.heroes["berserk"]
    h.equipment = ["troll_chain"]
    w = foe(st, "clan_warrior", "B1")
    # Troll Chain: black, black (+ Fury black); two upgrades: hold, then +1 damage
    st.force("upgrade", "upgrade", "blank")
    st.apply("attack using uruz")
    st.apply("attack B1 with troll chain")
    assert texts(st) == ["spend upgrades on hold (troll chain)",
                         "spend upgrades on +1 damage (troll chain)"]
    st.apply("spend upgrades on hold (troll chain)")
    assert w.captor == "berserk" and h.captive == w.uid and w.at == sq("A1")
    assert st.attack_targets(h, "troll_chain", []) == [sq("A1")]  # it can still hit it
    assert st.can_attack(w, h)
    st.apply("move 3 using tiwaz")
    st.apply("step B2")
    assert w.at == sq("B2")  # dragged along
    st.apply("end move")
    st.fall(h, [])
    assert w.captor == "" and w.at != h.at and st.adjacent(w.at, h.at)


@pytest.mark.rule("runaljod", "Hold")
def test_a_held_enemy_only_attacks_its_captor_and_does_not_move() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "B2")
    w = foe(st, "clan_warrior", "A1")
    w.captor = "berserk"
    st.heroes["berserk"].captive = w.uid
    assert not st.can_attack(w, st.heroes["volva"]) and st.can_attack(w, st.heroes["berserk"])
    ev: list = []
    act = st.content.ai_decks["common"]["ai1"].groups[1].actions[0]  # a move line
    assert st.enemy_action(w, act, ev) and "cannot move" in ev[-1].text


@pytest.mark.rule("runaljod", "Attack")
def test_a_hero_with_two_weapons_uses_both_weapons_upgrade_skills() -> None:
    st, h, e = duel("jotun")
    h.equipment = ["bearded_axe", "hand_axe"]
    st.force("upgrade", "upgrade", "upgrade")  # axe +1, axe wound, hand axe stun
    st.apply("attack using uruz")
    st.apply("attack B1 with bearded axe")
    assert "stun" in e.conditions  # the hand axe's skill, though the axe attacks
    assert st.attack_pool(h, "bearded_axe", False, [], []) == ["black"] * 3  # axe's dice only
