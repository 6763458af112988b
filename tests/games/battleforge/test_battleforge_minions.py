"""Minions: activation, movement tie-breaks, attacks (the troll example), destruction and
standing, and the two Minion Activation Resolution examples (Forge of Doom)."""

from __future__ import annotations

import pytest
from bf_helpers import board_only, fresh, legal, settle, texts

G = "battleforge"
NO_DEFENSE = [[], ["c"], [], ["c"], [], ["c"]]  # red/blue/green boards: no defense on 2, 4, 6


def activate(s, *types: int) -> list:
    s.tasks = [*({"t": "activate", "type": k} for k in types), {"t": "turn"}]
    s.ask = None
    events: list = []
    s.run(events)
    return events


@pytest.mark.rule(G, "Minion Attacks")
@pytest.mark.rule(G, "1. Minion Activation")
def test_troll_attack_example_gunnar_and_ragnar() -> None:
    """Trolls activated: Gunnar (First Champion) resolves Troll A's attack first without defense
    and loses 4; Ragnar chooses the order of B's and C's attacks, defends 4 then 1."""
    s = fresh("forge_of_doom", ("gunnar", "ragnar", "lagertha"))
    board_only(s, {"gunnar": NO_DEFENSE, "ragnar": [["c"] * 4, [], [], [], [], []]})
    s.champs["lagertha"].charges["human"] = 0
    s.champs["gunnar"].area = "D3"
    s.champs["ragnar"].area = "B3"
    s.minions["T1"].area = "D3"
    s.minions["T2"].area = s.minions["T3"].area = "B3"
    events = activate(s, 3)
    assert s.champs["gunnar"].health == 8  # resolved first, no defense possible
    assert s.decision().seat == "ragnar"
    assert legal(s) == ["resolve attack of IronTroll B", "resolve attack of IronTroll C"]
    s.apply("resolve attack of IronTroll B")
    assert legal(s) == ["defend with space 1", "take 4 damage"]
    s.apply("defend with space 1")  # 4 cubes: the whole 4 Damage
    assert s.champs["ragnar"].health == 12
    assert legal(s) == ["defend with space 3", "defend with space 5", "take 4 damage"]
    s.apply("defend with space 5")  # 1 cube: 1 Damage defended, 3 lost
    assert s.champs["ragnar"].health == 9
    assert "IronTroll A Attacks Gunnar" in texts(events)


@pytest.mark.rule(G, "Minion Movement")
def test_paths_through_a_champion_area_are_preferred() -> None:
    s = fresh()
    board_only(s)
    s.tokens = {"F3": "flame", "B7": "flame"}
    s.minions["A1"].area = "D2"  # the Sacred Flame in F3 is 2 areas away, via E2 or E3
    s.champs["ragnar"].area = "E3"
    activate(s, 1)
    assert s.minions["A1"].area == "F3"  # went through E3, then removed the flame on entering
    assert "F3" not in s.tokens


@pytest.mark.rule(G, "Minion Movement")
def test_equal_paths_with_champions_go_by_turn_order_otherwise_players_choose() -> None:
    s = fresh()
    board_only(s)
    s.tokens = {"F3": "flame", "B7": "flame"}
    s.minions["A1"].area = "D2"
    s.champs["lagertha"].area = "E2"
    s.champs["ragnar"].area = "E3"
    s.first = 1  # Lagertha has the First Champion marker
    ev = activate(s, 1)
    assert "from D2 to E2" in texts(ev)
    s = fresh()
    board_only(s)
    s.tokens = {"F3": "flame", "B7": "flame"}
    s.minions["A1"].area = "D2"
    s.tasks = [{"t": "activate", "type": 1}, {"t": "turn"}]
    s.ask = None
    s.run([])
    d = s.decision()
    assert d.seat == "players" and legal(s) == ["AshFolk A to E2", "AshFolk A to E3"] and d.default == "AshFolk A to E2"


@pytest.mark.rule(G, "Minion Movement")
def test_minion_crosses_a_god_area_only_with_actions_to_leave_it() -> None:
    s = fresh()
    board_only(s)
    s.thor["area"] = "E2"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "F2"
    s.champs["lagertha"].area = "F8"
    s.minions["D1"].area = "D2"  # 2 actions cross Thor in E2 to reach F2
    s.tasks = [{"t": "minion", "id": "D1", "left": 2, "side": "standard", "attacked": []}]
    s.ask = None
    ev = []
    s.run(ev)
    assert "from D2 to E2" in texts(ev) and "from E2 to F2" in texts(ev)
    # With a single action left it cannot end in Thor's area: the shortest alternative path.
    s.minions["D1"].area = "D2"
    s.tasks = [{"t": "minion", "id": "D1", "left": 1, "side": "standard", "attacked": []}]
    s.ask = None
    ev = []
    s.run(ev)
    assert "from D2 to E3" in texts(ev)


@pytest.mark.rule(G, "Destroying a Minion")
@pytest.mark.rule(G, "Minion Activation")
def test_inactive_minion_stands_as_its_first_action() -> None:
    s = fresh()
    board_only(s)  # every minion lies by the triangle Spawning Area (A2)
    s.champs["ragnar"].area = "A3"
    s.champs["lagertha"].area = "E8"
    s.minions["D1"].lying = "square"
    ev = activate(s, 2)
    assert "DraugMech A Stands in the Spawning Area G2" in texts(ev)
    assert s.minions["D2"].area in ("A2", "A3")


@pytest.mark.rule(G, "Reading the Minion Cards")
def test_cannon_troll_attacks_the_closest_champion_up_to_two_areas() -> None:
    s = fresh()
    board_only(s, {"ragnar": NO_DEFENSE, "lagertha": NO_DEFENSE})
    s.champs["lagertha"].charges["human"] = 0
    s.minions["T1"].area = "D3"
    s.champs["ragnar"].area = "D4"   # 1 away
    s.champs["lagertha"].area = "E2"  # 2 away
    activate(s, 3)
    assert s.champs["ragnar"].health == 12 - s.minion_side(3).damage == 10
    assert s.champs["lagertha"].health == 12
    assert s.minions["T1"].area == "D3"


@pytest.mark.rule(G, "Reading the Minion Cards")
def test_draugmech_2b_attack_gives_a_frost_cube() -> None:
    s = fresh()
    board_only(s, {"ragnar": NO_DEFENSE})
    s.champs["lagertha"].charges["human"] = 0
    s.champs["lagertha"].area = "E8"
    s.champs["ragnar"].area = "D3"
    s.minions["D1"].area = "D3"
    activate(s, 2)
    settle(s)
    assert s.champs["ragnar"].health == 10  # one attack of 2
    assert sum(sp.count("f") for sp in s.champs["ragnar"].rondel) >= 1


@pytest.mark.rule(G, "Minion Activation Resolution")
@pytest.mark.rule(G, "Special Rules")
def test_first_example_simultaneous_furnaces() -> None:
    """Gnome A moves to a furnace and lights it; Gnome B lights its furnace first; even if B's
    furnace overheats Minions 1, A performs only its 2 actions."""
    s = fresh("forge_of_doom")
    board_only(s)
    s.furnaces = {"B4": 0, "F5": 0, "D7": 0}
    s.minions["A1"].area = "F4"
    s.minions["A2"].area = "B4"
    s.force("2", "1")  # furnace numbers revealed in lighting order: F5 then B4
    ev = activate(s, 1)
    t = texts(ev)
    assert "AshFolk A moves from F4 to F5" in t and "AshFolk A Lights the Furnace in F5" in t
    assert "AshFolk B Lights the Furnace in B4" in t
    assert s.furnaces == {"B4": 1, "F5": 2, "D7": 0}
    assert s.overheated["1"] and s.overheated["2"]
    assert s.minions["A1"].area == "F5"  # no third action


@pytest.mark.rule(G, "Minion Activation Resolution")
def test_second_example_overheated_draugr_rampage() -> None:
    """Gnome A lights a furnace that overheats Minions 2; Draugr B then moves twice to
    Lagertha, attacks her, moves on with its gained action to Gunnar, attacks him, and moves
    again until it reaches an area with no champion."""
    s = fresh("forge_of_doom", ("lagertha", "gunnar"))
    board_only(s, {"lagertha": NO_DEFENSE, "gunnar": NO_DEFENSE})
    s.champs["lagertha"].charges["human"] = 0
    s.furnaces = {"B4": 0, "F5": 0, "D7": 0}
    s.minions["A1"].area = "F4"
    s.minions["D1"].area = "G2"
    s.champs["lagertha"].area = "F3"
    s.champs["gunnar"].area = "E2"
    s.force("2")
    s.tasks = [{"t": "activate", "type": 1}, {"t": "activate", "type": 2}, {"t": "turn"}]
    s.ask = None
    ev: list = []
    s.run(ev)
    # The players choose between equally short paths twice: G2-F2-F3 or G2-G3-F3 to reach
    # Lagertha, and after Gunnar, D2 or E3 toward an Unlit Furnace. Every branch is played.
    assert s.decision().seat == "players" and legal(s) == ["DraugMech A to F2", "DraugMech A to G3"]
    ends = set()
    for first in legal(s):
        b = s.clone()
        bev = ev + b.apply(first)
        assert b.decision().seat == "players" and legal(b) == ["DraugMech A to D2", "DraugMech A to E3"]
        for last in legal(b):
            c = b.clone()
            t = texts(bev + c.apply(last) + settle(c))
            assert "Minions 2 (DraugMech 2-A, Overheated side) are Activated: 2 Actions" in t
            assert "DraugMech A Attacks Lagertha" in t and "DraugMech A Attacks Gunnar" in t
            assert t.count("DraugMech A gains 1 Action") == 2
            assert c.champs["lagertha"].health == 10 and c.champs["gunnar"].health == 10
            assert t.count("DraugMech A moves") == 4
            ends.add((first.split()[-1], c.minions["D1"].area))
    assert ends == {("F2", "D2"), ("F2", "E3"), ("G3", "D2"), ("G3", "E3")}


@pytest.mark.rule(G, "Minion Movement")
def test_the_path_through_a_champion_counts_the_areas_passed_not_the_destination() -> None:
    """"If there is more than one valid path and one of them passes through a Champion Area,
    the Minion will choose that path": the target's own area ends every path, so it cannot
    break the tie. A rampaging DraugMech heading for Ragnar past Lagertha (whom it already
    attacked) takes the path through her area."""
    s = fresh()
    board_only(s)
    s.champs["ragnar"].area = "F3"  # the target, who had their Turn first
    s.champs["lagertha"].area = "E3"  # on one of the two shortest paths D2-E2-F3 / D2-E3-F3
    assert s.minion_steps("D2", {"F3": 0}, 2) == ["E3"]
    s.champs["lagertha"].area = "A8"
    assert s.minion_steps("D2", {"F3": 0}, 2) == ["E2", "E3"]  # a real tie: players choose
