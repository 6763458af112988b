"""The Champions Phase: moving, crossing enemies, attacks, Thor's faces, reactions, ritual,
offerings, healing, strategic actions and special skills."""

from __future__ import annotations

import pytest
from bf_helpers import board_only, fresh, legal, restart_turn, settle

from meadhall.core.errors import IllegalAction

G = "battleforge"
EMPTY = [[], [], [], [], [], []]


def rondel(**spaces: int) -> list[list[str]]:
    r = [[] for _ in range(6)]
    for k, n in spaces.items():
        r[int(k[1:]) - 1] = ["c"] * n
    return r


def thor_at(s, area: str, red_toward: int | None = None) -> None:
    s.thor["area"] = area
    s.thor["activated"] = True
    if red_toward is not None:
        s.set_face("red", red_toward)


@pytest.mark.rule(G, "Crossing Areas with Enemies")
@pytest.mark.rule(G, "Moving")
def test_lagertha_cornered_by_thor_and_two_iron_trolls() -> None:
    """The printed example: crossing the trolls needs 4 points, crossing Thor 3."""
    s = fresh("last_flame", ("lagertha", "ragnar"))
    board_only(s, {"lagertha": rondel(s1=3, s2=1)})
    s.champs["lagertha"].area = "D3"
    s.minions["T1"].area = s.minions["T2"].area = "C3"
    thor_at(s, "D2")
    restart_turn(s)
    s.apply("move space 1")
    assert s.turn["move"] == 3
    s.apply("step to C3")  # 1 point to enter the trolls' area
    assert legal(s) == ["stop moving"]  # leaving needs 1 + 2 with only 2 left
    # Back to the start: crossing Thor instead.
    s = fresh("last_flame", ("lagertha", "ragnar"))
    board_only(s, {"lagertha": rondel(s1=3, s2=1)})
    s.champs["lagertha"].area = "D3"
    s.minions["T1"].area = s.minions["T2"].area = "C3"
    thor_at(s, "D2")
    restart_turn(s)
    s.apply("move space 1")
    s.apply("step to D2")
    opts = legal(s)
    assert "stop moving" not in opts  # cannot end the move in Thor's area
    assert set(opts) == {"step to E2", "step to E3", "step to D3", "step to C2"}
    s.apply("step to E2")
    assert s.champs["lagertha"].area == "E2" and s.turn["move"] == 0
    assert s.ask["h"] == "turn"


@pytest.mark.rule(G, "Crossing Areas with Enemies")
def test_thor_area_cannot_be_entered_without_points_to_leave() -> None:
    s = fresh("last_flame", ("lagertha", "ragnar"))
    board_only(s, {"lagertha": rondel(s1=2)})
    s.champs["lagertha"].area = "D3"
    thor_at(s, "D2")
    restart_turn(s)
    s.apply("move space 1")
    assert "step to D2" not in legal(s)


@pytest.mark.rule(G, "Moving")
def test_movement_attribute_and_walls() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=1)})
    s.champs["ragnar"].attrs["movement"] = 2
    s.champs["ragnar"].area = "D4"
    restart_turn(s)
    s.apply("move space 1")
    assert s.turn["move"] == 3
    assert "step to E4" not in legal(s)  # wall D4|E4
    assert {"step to E3", "step to D5", "step to D3"} <= set(legal(s))


@pytest.mark.rule(G, "Melee Attack")
@pytest.mark.rule(G, "Ranged Attack")
def test_attack_targets_minions() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=1, s2=1)})
    s.champs["ragnar"].area = "D4"
    s.minions["A1"].area = "D4"
    s.minions["A2"].area = "E4"  # behind the wall
    s.minions["D1"].area = "E3"  # adjacent
    restart_turn(s)
    opts = legal(s)
    assert "melee space 1 at AshFolk A" in opts and "melee space 1 at DraugMech A" not in opts
    assert "ranged space 2 at AshFolk A" in opts and "ranged space 2 at DraugMech A" in opts and "ranged space 2 at AshFolk B" not in opts


@pytest.mark.rule(G, "Attacking Thor")
@pytest.mark.rule(G, "Ranged Attack")
def test_thor_faces_by_adjacency_and_range() -> None:
    s = fresh("last_flame", ("gunnar", "ragnar"))
    board_only(s, {"gunnar": rondel(s1=1, s2=1)})
    s.champs["gunnar"].area = "D3"
    thor_at(s, "D2", red_toward=3)  # D3 lies south-west (direction 3) of D2
    restart_turn(s)
    opts = legal(s)
    melee = {o.split()[-2] for o in opts if o.startswith("melee space 1")}
    ranged = {o.split()[-2] for o in opts if o.startswith("ranged space 2")}
    assert melee == {"red"}
    assert ranged == {"orange", "red", "yellow"}
    s.apply("skill Eagle Eye")  # Gunnar: the following face on each side too
    ranged = {o.split()[-2] for o in legal(s) if o.startswith("ranged space 2")}
    assert ranged == {"purple", "orange", "red", "yellow", "green"}


@pytest.mark.rule(G, "Attacking Thor")
def test_thor_cannot_be_attacked_before_his_first_activation() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=1, s2=1)})
    s.champs["ragnar"].area = "D2"  # adjacent to the god's starting area D1
    restart_turn(s)
    assert not [o for o in legal(s) if "thor-" in o]
    assert "taunt" not in legal(s)


def attack(s, action: str, faces: list[str], answers: list[str] | None = None) -> list:
    events = s.apply(action)
    s.force(*faces)
    return events + settle(s, answers)


@pytest.mark.rule(G, "Attack Resolution")
@pytest.mark.rule(G, "Dice Sides")
def test_one_counterattack_however_many_and_effects_after_destruction() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=4)})
    s.champs["ragnar"].area = "D3"
    s.champs["ragnar"].health = 10
    s.minions["A1"].area = "D3"
    restart_turn(s)
    events = attack(s, "melee space 1 at AshFolk A", ["counter", "counter", "double", "damage"])
    r = s.champs["ragnar"]
    assert s.minions["A1"].area is None and s.minions["A1"].lying == "triangle"
    assert r.health == 9  # one AshFolk Counterattack (1) only, though destroyed
    assert r.fury == s.minion_side(1).fury == 2
    assert any("Destroys" in e.text for e in events)


@pytest.mark.rule(G, "Attack Resolution")
def test_heal_sides_heal_the_attacker() -> None:
    s = fresh("last_flame", ("siegfried", "ragnar"))
    board_only(s, {"siegfried": [["c"], [], [], [], [], []]})
    c = s.champs["siegfried"]
    c.area = "D3"
    c.health = 5
    s.minions["T1"].area = "D3"
    restart_turn(s)
    # Red board space 1: melee; 1 white + 1 green (Siegfried's starting attribute).
    attack(s, "melee space 1 at IronTroll A", ["miss", "double_heal"])
    assert c.health == 7 and s.minions["T1"].damage == 0


@pytest.mark.rule(G, "Attack Resolution")
def test_roll_any_subset_of_the_pool() -> None:
    s = fresh("last_flame", ("gunnar", "ragnar"))
    board_only(s, {"gunnar": rondel(s2=2)})
    s.champs["gunnar"].area = "D3"
    s.minions["A1"].area = "D3"
    restart_turn(s)
    s.apply("ranged space 2 at AshFolk A")
    assert legal(s) == ["roll 2 white 1 red 0 green", "roll 2 white 0 red 0 green",
                        "roll 1 white 1 red 0 green", "roll 1 white 0 red 0 green",
                        "roll 0 white 1 red 0 green"]


@pytest.mark.rule(G, "The Faces of Thor")
def test_orange_and_purple_faces_change_the_pool() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=2)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("orange", 3)
    restart_turn(s)
    s.apply("melee space 1 at Thor's orange face")
    assert len(s.atk["dice"]) == 1  # one of the 2 dice removed: the only choice is rolled
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=2)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("purple", 3)
    restart_turn(s)
    s.apply("melee space 1 at Thor's purple face")
    assert legal(s)[0] == "roll 3 white 0 red 0 green"  # may add a white die


@pytest.mark.rule(G, "The Faces of Thor")
@pytest.mark.rule(G, "The Faces of a God")
def test_yellow_caps_damage_and_passive_reduces_it() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=3)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("yellow", 3)
    s.thor["destroyed"] = ["blue"]
    restart_turn(s)
    attack(s, "melee space 1 at Thor's yellow face", ["double", "double", "damage"])
    # 5 Damage, minus 1 for the destroyed Blue Face, capped at 2 by the Yellow Face (ruling).
    assert s.thor["damage"]["yellow"] == 2
    assert s.face_health() == 4  # twice the number of champions


@pytest.mark.rule(G, "The Faces of Thor")
@pytest.mark.rule(G, "Reading God Status Cards")
def test_yellow_face_stays_destructible_with_other_faces_destroyed() -> None:
    """Passive first, then the Yellow cap: with 4 other Faces destroyed, 6 rolled Damage still
    deals 2 (capping first would deal 0 forever and Thor could never be Defeated)."""
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=3)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("yellow", 3)
    s.thor["destroyed"] = ["orange", "red", "green", "blue"]
    restart_turn(s)
    attack(s, "melee space 1 at Thor's yellow face", ["double", "double", "double"])
    assert s.thor["damage"]["yellow"] == 2
    s.thor["damage"]["yellow"] = 0
    s.champs["ragnar"].rondel = rondel(s1=3)
    restart_turn(s)
    attack(s, "melee space 1 at Thor's yellow face", ["double", "damage", "miss"])
    assert s.thor["damage"]["yellow"] == 0  # 3 Damage minus 4


@pytest.mark.rule(G, "Fury and Upgrades")
@pytest.mark.rule(G, "The Faces of a God")
def test_destroyed_faces_give_no_fury_and_excess_damage_is_ignored() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=3)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("purple", 3)
    s.thor["damage"]["purple"] = 3
    restart_turn(s)
    attack(s, "melee space 1 at Thor's purple face", ["double", "double", "damage", "miss"])
    assert "purple" in s.thor["destroyed"] and s.thor["damage"]["purple"] == 4
    assert s.champs["ragnar"].fury == 0
    assert "thor-purple" not in " ".join(legal(s))


@pytest.mark.rule(G, "The Faces of Thor")
def test_green_face_no_counterattack_blue_face_counter_becomes_damage() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=2)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("green", 3)
    restart_turn(s)
    attack(s, "melee space 1 at Thor's green face", ["counter", "damage"])
    assert s.champs["ragnar"].health == 12 and s.thor["damage"]["green"] == 1
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=2)})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("blue", 3)
    restart_turn(s)
    attack(s, "melee space 1 at Thor's blue face", ["counter", "damage"])
    assert s.champs["ragnar"].health == 12 and s.thor["damage"]["blue"] == 2


@pytest.mark.rule(G, "The Faces of Thor")
def test_red_face_turns_a_chosen_die_to_counterattack() -> None:
    s = fresh("last_flame", ("gunnar", "ragnar"))
    board_only(s, {"gunnar": rondel(s1=1)})
    s.champs["gunnar"].area = "D3"
    thor_at(s, "D2", red_toward=3)
    restart_turn(s)
    s.apply("melee space 1 at Thor's red face")
    s.force("damage", "double")
    settle(s, stop="redface")
    assert legal(s) == ["turn die 1 to counterattack", "turn die 2 to counterattack"]
    s.apply("turn die 2 to counterattack")
    settle(s)
    assert s.thor["damage"]["red"] == 1
    assert s.champs["gunnar"].health == 12 - s.content.god.counter  # Thor's Counterattack


@pytest.mark.rule(G, "Reroll")
@pytest.mark.rule(G, "Rondel Reactions")
def test_reroll_reaction_never_a_counterattack_nor_the_same_die_twice() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], ["c", "c"], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.minions["T1"].area = "D3"
    restart_turn(s)
    s.apply("melee space 1 at IronTroll A")
    s.force("counter", "miss")
    settle(s, stop="manage")
    assert legal(s) == ["reroll with space 2", "keep the dice"]
    s.apply("reroll with space 2")
    assert legal(s) == ["reroll die 2"]  # die 1 shows Counterattack; at least 1 die is rerolled
    s.force("miss")
    s.apply("reroll die 2")
    assert s.ask is None or s.ask["h"] != "pick" or "reroll die 2" not in legal(s)
    assert s.ask["h"] != "manage"  # only one Reroll Reaction per trigger


@pytest.mark.rule(G, "Defense")
@pytest.mark.rule(G, "Actions and Reactions")
def test_defense_reaction_and_lose_cannot_be_defended() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=1, s3=3)})
    s.tasks = [{"t": "damage", "c": "ragnar", "n": 4, "src": "test"}]
    s.ask = None
    s.run([])
    s.apply("pass")  # Lagertha's Shield Maiden window comes first
    assert s.ask["h"] == "defend"
    assert legal(s) == ["defend with space 1", "defend with space 3", "take 4 damage"]
    s.apply("defend with space 3")
    assert s.champs["ragnar"].health == 11
    s.tasks = [{"t": "lose", "c": "ragnar", "n": 4, "src": "test"}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert s.champs["ragnar"].health == 7 and s.ask["h"] == "turn"


@pytest.mark.rule(G, "Ritual")
@pytest.mark.rule(G, "Making an Offering")
def test_ritual_charges_and_offering_once_per_altar() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=2, s3=2)})
    r = s.champs["ragnar"]
    r.area = "B3"  # an altar
    r.boons[0] = {"symbol": "melee", "level": 1}
    r.charges["human"] = 1
    restart_turn(s)
    assert "ritual space 3" not in legal(s)  # needs 3 cubes
    r.rondel[2] = ["c"] * 7
    restart_turn(s)
    s.apply("ritual space 3")
    assert r.charges["human"] == 3  # 7 cubes: 2 charges
    assert r.offerings == ["B3"] and s.ask["h"] == "boon"
    settle(s)
    r.rondel[2] = ["c"] * 3
    r.charges["human"] = 3
    restart_turn(s)
    s.apply("ritual space 3")
    assert r.charges["human"] == 3 and s.ask["h"] == "turn"  # no second offering, cap 3


@pytest.mark.rule(G, "Healing")
def test_healing_up_to_cubes_and_at_most_15() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s4=3)})
    r = s.champs["ragnar"]
    r.health = 14
    restart_turn(s)
    s.apply("heal space 4")
    assert r.health == 15


@pytest.mark.rule(G, "Healing")
def test_siegfried_heals_another_champion_with_his_skill() -> None:
    s = fresh("last_flame", ("siegfried", "ragnar"))
    board_only(s, {"siegfried": rondel(s4=2)})
    s.champs["siegfried"].area = "D3"
    s.champs["ragnar"].area = "D4"
    s.champs["ragnar"].health = 5
    restart_turn(s)
    assert "heal 3 ragnar" not in legal(s)
    s.apply("skill Healing Hands")
    s.apply("heal Ragnar with space 4")
    assert s.champs["ragnar"].health == 7


@pytest.mark.rule(G, "Relocate")
@pytest.mark.rule(G, "Strategic Actions")
def test_relocate_one_or_two_cubes_but_never_frost() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "f"], [], [], [], [], []]})
    restart_turn(s)
    s.apply("relocate")
    assert all("temporary" not in o for o in legal(s))
    assert "relocate cube from space 1 to space 2" in legal(s) and "done relocating" not in legal(s)
    s.apply("relocate cube from space 1 to space 4")
    assert not [o for o in legal(s) if o.startswith("relocate 1 ")]  # only frost left there
    s.apply("done relocating")
    assert s.champs["ragnar"].rondel[0] == ["f"] and s.turn["actions"] == 2


@pytest.mark.rule(G, "Taunt")
def test_taunt_turns_the_red_face_and_gives_a_temporary_cube() -> None:
    s = fresh()
    board_only(s, {"ragnar": rondel(s1=1)})
    s.champs["ragnar"].area = "E3"
    thor_at(s, "D2", red_toward=3)
    restart_turn(s)
    s.apply("taunt")
    assert s.face_dir("red") == s.board.direction("D2", "E3")
    s.apply("place in space 5")
    assert s.champs["ragnar"].rondel[4] == ["t"] and s.reserve_temp == 3


@pytest.mark.rule(G, "The Champions Phase")
@pytest.mark.rule(G, "Game Phases")
def test_three_actions_then_the_next_champion() -> None:
    s = fresh()
    for _ in range(3):
        s.apply([o for o in legal(s) if o.startswith("move")][0])
        settle(s, ["stop moving"])
        if s.ask["h"] == "step":
            s.apply("stop moving")
    assert s.turn["actions"] == 0
    assert not [o for o in legal(s) if o.split()[0] in ("move", "melee", "relocate")]
    s.apply("end turn")
    settle(s)
    assert s.decision().seat == "lagertha"


@pytest.mark.rule(G, "Special Skills")
@pytest.mark.rule(G, "Special Skill Requirements")
def test_when_another_champion_takes_damage_skill() -> None:
    s = fresh()
    board_only(s, {"ragnar": EMPTY})
    s.tasks = [{"t": "damage", "c": "ragnar", "n": 3, "src": "test"}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert s.decision().seat == "lagertha"
    assert legal(s) == ["use Shield Maiden for Ragnar", "pass"]
    s.apply("use Shield Maiden for Ragnar")
    # "Special Skills can be used one after the other or even cumulatively": offered again.
    assert s.decision().seat == "lagertha"
    assert legal(s) == ["use Shield Maiden for Ragnar", "pass"]
    s.apply("pass")
    assert s.champs["ragnar"].health == 11 and s.champs["lagertha"].charges["human"] == 2


@pytest.mark.rule(G, "Special Skills")
@pytest.mark.rule(G, "Berserker Form")
def test_a_berserker_is_offered_both_skills_of_the_same_timing() -> None:
    """"When turning into the Berserker Form, Champions receive the new Special Skill ... It
    works the same way as a Human Form Special Skill": Ragnar as a Bear keeps Battle Cry and
    gains Ursine Might, both "On Your Turn"; both are offered while they have charges (the
    engine used to offer only the first one with a charge)."""
    s = fresh()
    board_only(s, {"ragnar": [["c"], ["c"], [], [], [], []]})
    r = s.champs["ragnar"]
    r.form, r.charges = "berserker", {"human": 3, "berserker": 3}
    restart_turn(s)
    assert {"skill Battle Cry", "skill Ursine Might"} <= set(legal(s))
    s.apply("skill Ursine Might")
    assert "skill Ursine Might" not in legal(s)  # its effect is already pending this turn
    assert "skill Battle Cry" in legal(s)


@pytest.mark.rule(G, "Special Skill Requirements")
def test_damage_skills_can_be_used_cumulatively() -> None:
    """A champion with two "When another Champion takes Damage" skills (Lagertha as a Stag)
    is offered both, and again after each use while Damage is left."""
    s = fresh()
    board_only(s, {"ragnar": EMPTY})
    la = s.champs["lagertha"]
    la.berserker, la.form, la.charges = "stag", "berserker", {"human": 1, "berserker": 1}
    s.tasks = [{"t": "damage", "c": "ragnar", "n": 5, "src": "test"}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert legal(s) == ["use Shield Maiden for Ragnar", "use Antler Guard for Ragnar", "pass"]
    s.apply("use Shield Maiden for Ragnar")
    assert legal(s) == ["use Antler Guard for Ragnar", "pass"]
    s.apply("use Antler Guard for Ragnar")
    settle(s)
    assert s.champs["ragnar"].health == 11


@pytest.mark.rule(G, "Crossing Areas with Enemies")
def test_four_points_cross_the_two_iron_trolls() -> None:
    s = fresh("last_flame", ("lagertha", "ragnar"))
    board_only(s, {"lagertha": rondel(s1=4)})
    s.champs["lagertha"].area = "D3"
    s.minions["T1"].area = s.minions["T2"].area = "C3"
    restart_turn(s)
    s.apply("move space 1")
    s.apply("step to C3")
    assert {"step to B3", "step to B4", "step to C2", "step to B2", "step to D3"} == {
        o for o in legal(s) if o.startswith("step")}
    s.apply("step to B3")
    assert s.turn["move"] == 0 and s.champs["lagertha"].area == "B3"


@pytest.mark.rule(G, "Special Skill Requirements")
def test_anytime_skill_while_defending() -> None:
    s = fresh("last_flame", ("siegfried", "ragnar"))
    c = s.champs["siegfried"]
    c.form = "berserker"
    c.charges["berserker"] = 1
    board_only(s, {"siegfried": [[], [], ["c"], [], [], []]})
    s.champs["ragnar"].charges["human"] = 0
    s.tasks = [{"t": "damage", "c": "siegfried", "n": 3, "src": "test"}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert legal(s) == ["defend with space 3", "skill Tusk and Bristle", "take 3 damage"]
    s.apply("skill Tusk and Bristle")  # heal 1 and a Temporary Cube, then defend with it
    s.apply("place in space 1")
    assert legal(s) == ["defend with space 1", "defend with space 3", "take 3 damage"]
    s.apply("defend with space 1")
    assert c.health == 13 - 2 and c.charges["berserker"] == 0


@pytest.mark.rule(G, "Upgrade Icons")
def test_choose_one_of_the_three_attributes() -> None:
    s = fresh()
    r = s.champs["lagertha"]  # Lagertha's upgrade at 6 is "choose an Attribute"
    r.fury = 4
    r.attrs["red"] = 2
    s.tasks = [{"t": "fury", "c": "lagertha", "n": 2}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert legal(s) == ["upgrade green dice", "upgrade movement"]
    s.apply("upgrade movement")
    assert r.attrs["movement"] == 1 and r.fury == 6


@pytest.mark.rule(G, "The Faces of Thor")
@pytest.mark.rule(G, "Attack Resolution")
def test_blue_face_applies_after_the_rerolls() -> None:
    """Target effects on dice come after the Reroll Reactions (Managing the Dice, step 2;
    ruling): a die rerolled into a Counterattack is still turned to Damage by the Blue Face."""
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], ["c"], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    thor_at(s, "D2")
    s.set_face("blue", 3)
    restart_turn(s)
    s.apply("melee space 1 at Thor's blue face")
    s.force("miss", "damage")
    settle(s, stop="manage")
    assert "reroll with space 2" in legal(s)
    s.apply("reroll with space 2")
    s.force("counter")
    s.apply("reroll die 1")
    settle(s)
    assert s.thor["damage"]["blue"] == 2 and s.champs["ragnar"].health == 12


@pytest.mark.rule(G, "Reroll")
@pytest.mark.rule(G, "Attack Resolution")
def test_reroll_reaction_chooses_the_dice_then_rerolls_them_together() -> None:
    """"Each Action Cube used in this Reaction allows that Champion to Reroll 1 die of their
    choice ... any number of dice between 1 and the number of Action Cubes": the dice are
    chosen first and rerolled together, so no result is seen before the choice is complete."""
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], ["c", "c", "c"], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.minions["T1"].area = "D3"
    restart_turn(s)
    s.apply("melee space 1 at IronTroll A")
    s.force("miss", "miss")
    settle(s, stop="manage")
    s.apply("reroll with space 2")
    assert legal(s) == ["reroll die 1", "reroll die 2"]  # no way out before choosing at least 1 die
    s.apply("reroll die 1")
    assert s.atk["dice"][0] == ["white", "miss"]  # not rolled yet
    assert legal(s) == ["reroll die 2", "reroll the chosen dice"]
    s.force("damage", "double")
    ev = s.apply("reroll die 2")  # 3 cubes, 2 dice: the choice is complete, both rerolled together
    t = "\n".join(str(e) for e in ev)
    assert "Die 1 (white) is rerolled: miss -> damage" in t
    assert "Die 2 (white) is rerolled: miss -> double" in t
    assert "deals 3 Damage" in t


@pytest.mark.rule(G, "Reroll")
@pytest.mark.rule(G, "Special Skill Requirements")
def test_a_reroll_skill_cannot_reroll_a_die_twice_unless_it_says_so() -> None:
    """Raven's Sight rerolls dice "not showing Counterattack"; it does not say it may reroll a
    die already rerolled, so the general rule holds ("the same die cannot be Rerolled twice,
    unless otherwise stated (see Lynxshade's Special Skill)")."""
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], [], [], [], [], []]})  # the melee puts 1 cube in 2
    r = s.champs["ragnar"]
    r.berserker, r.form, r.charges = "raven", "berserker", {"human": 0, "berserker": 3}
    r.area = "D3"
    s.minions["T1"].area = "D3"
    restart_turn(s)
    s.apply("melee space 1 at IronTroll A")
    s.force("miss", "miss")
    settle(s, stop="manage")
    s.apply("reroll with space 2")
    s.force("miss")
    s.apply("reroll die 1")  # 1 cube: die 1 is rerolled at once
    assert s.atk["rerolled"] == [0]
    assert "skill Raven's Sight" in legal(s)
    s.apply("skill Raven's Sight")
    assert legal(s) == ["reroll die 2"]  # die 1 was already rerolled


@pytest.mark.rule(G, "The Champions Phase")
@pytest.mark.rule(G, "Actions and Reactions")
def test_the_three_actions_must_be_performed() -> None:
    """"Rondel Reactions do not count as one of the 3 Actions a Champion must perform on their
    Turn": the turn cannot be ended with Actions left while one is possible (ruling 40); with
    no cube on the rondel, no Action is possible and the turn can end."""
    s = fresh()
    board_only(s, {"ragnar": [["c"], [], [], [], [], []]})
    restart_turn(s)
    assert "end turn" not in legal(s)
    with pytest.raises(IllegalAction) as e:
        s.apply("end turn")
    assert e.value.section == "The Champions Phase"
    s.champs["ragnar"].rondel = [[] for _ in range(6)]
    restart_turn(s)
    assert "end turn" in legal(s) and s.turn["actions"] == 3


@pytest.mark.rule(G, "Dice Sides")
@pytest.mark.rule(G, "Reroll")
def test_rolls_and_rerolls_carry_their_dice() -> None:
    """Every roll and reroll event carries the dice as docs/architecture.md's "Dice in events"
    says (kind = the die's colour, the side showing, no modifier), so every front end shows
    them; a reroll event keeps its ``die`` and ``face`` keys."""
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], ["c", "c", "c"], [], [], [], []]})
    r = s.champs["ragnar"]
    r.attrs = {"green": 1, "red": 1, "movement": 0}
    r.area = "D3"
    s.minions["T1"].area = "D3"
    restart_turn(s)
    s.apply("melee space 1 at IronTroll A")
    s.force("miss", "damage", "counter", "heal")
    ev = settle(s, ["roll 2 white 1 red 1 green"], stop="manage")
    rolls = [e for e in ev if e.kind == "roll"]
    assert len(rolls) == 1 and rolls[0].data["champion"] == "ragnar"
    assert rolls[0].data["dice"] == [
        {"kind": "white", "face": "miss", "modifier": 0},
        {"kind": "white", "face": "damage", "modifier": 0},
        {"kind": "red", "face": "counter", "modifier": 0},
        {"kind": "green", "face": "heal", "modifier": 0}]
    s.apply("reroll with space 2")
    s.apply("reroll die 1")
    s.force("double")
    ev = s.apply("reroll the chosen dice")
    rerolls = [e for e in ev if e.kind == "reroll"]
    assert [(e.data["die"], e.data["face"], e.data["dice"]) for e in rerolls] == [
        (1, "double", [{"kind": "white", "face": "double", "modifier": 0}])]


def test_every_roll_event_of_random_games_shows_real_dice() -> None:
    """In random games, each roll or reroll event's dice are dice of the game with a side they
    have: the convention holds wherever an attack is rolled."""
    import random

    from bf_helpers import GAME

    seen = 0
    for seed in range(3):
        s = GAME.new_game(None, seed)
        rng = random.Random(seed)
        while not s.outcome().over:
            for e in s.apply(rng.choice(s.legal_actions())):
                # (the "reroll" event announcing a Reroll Reaction rolls nothing yet)
                if e.kind == "roll" or e.kind == "reroll" and "is rerolled" in e.text:
                    seen += 1
                    assert e.data["dice"] and all(
                        set(d) == {"kind", "face", "modifier"} and d["modifier"] == 0
                        and d["face"] in GAME.content.dice[d["kind"]].faces
                        for d in e.data["dice"]), e
    assert seen > 10
