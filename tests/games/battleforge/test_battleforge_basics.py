"""The Basics, Champion Preparation, Boons, Fury and Upgrades, Berserker Form."""

from __future__ import annotations

from collections import Counter

import pytest
from bf_helpers import GAME, board_only, fresh, legal, restart_turn

from meadhall.games.battleforge.basics import Board, rondel_take

G = "battleforge"


@pytest.mark.rule(G, "Dice")
@pytest.mark.rule(G, "Dice Sides")
def test_dice_have_exactly_the_printed_faces() -> None:
    d = GAME.content.dice
    assert Counter(d["white"].faces) == {"miss": 3, "counter": 1, "damage": 3, "double": 1}
    assert Counter(d["red"].faces) == {"damage": 4, "double": 2, "miss": 1, "counter": 1}
    assert Counter(d["green"].faces) == {"heal": 2, "double_heal": 1, "miss": 2, "damage": 2,
                                         "double": 1}
    assert "counter" not in d["green"].faces


@pytest.mark.rule(G, "Champion Preparation")
@pytest.mark.rule(G, "Reading the Champion Board")
def test_champion_preparation() -> None:
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, 0)
    # Step 2: the 7th cube in a space of the player's choice.
    assert s.decision().seat == "ragnar" and legal(s) == [f"place in space {i}" for i in range(1, 7)]
    s.apply("place in space 4")
    # Step 5: the starting boon on a space with a matching symbol (Ragnar: melee).
    opts = legal(s)
    board = GAME.content.boards[0]
    assert opts == [f"melee boon in space {i + 1}" for i in range(6) if "melee" in board.rondel[i]]
    s.apply(opts[-1])
    # Step 6: Ragnar's +1 Action Cube.
    s.apply("place in space 4")
    r = s.champs["ragnar"]
    assert r.health == 12 and r.fury == 0 and r.charges == {"human": 3, "berserker": 0}
    assert sum(len(x) for x in r.rondel) == 8 and len(r.rondel[3]) == 3
    # Lagertha: 7 cubes, starting boon, then an extra boon adjacent to it or flipping it.
    s.apply("place in space 1")
    s.apply(legal(s)[0])
    la = s.champs["lagertha"]
    start = next(i for i in range(6) if la.boons[i])
    extra = legal(s)
    assert f"greater boon in space {start + 1}" in extra
    for o in extra:
        if " boon in space " in o and not o.startswith("greater"):
            sp = int(o.split()[-1]) - 1
            assert (sp - start) % 6 in (1, 5)
    s.apply(extra[0])
    assert sum(len(x) for x in la.rondel) == 7
    assert s.decision().kind == "turn" and s.decision().seat == "ragnar"


@pytest.mark.rule(G, "Champion Preparation")
def test_starting_attribute_dice() -> None:
    s = fresh("last_flame", ("gunnar", "siegfried"))
    assert s.champs["gunnar"].attrs["red"] == 1
    assert s.champs["siegfried"].attrs["green"] == 1


@pytest.mark.rule(G, "The Three Steps of a Rondel Action")
@pytest.mark.rule(G, "Actions and Reactions")
def test_three_steps_take_all_and_replace_clockwise() -> None:
    r = [["c", "c", "c"], [], ["c"], [], [], ["c"]]
    n, discarded = rondel_take(r, 5)
    assert n == 1 and r == [["c", "c", "c", "c"], [], ["c"], [], [], []]
    n, discarded = rondel_take(r, 0)
    assert n == 4 and r == [[], ["c"], ["c", "c"], ["c"], ["c"], []]


@pytest.mark.rule(G, "Temporary Action Cubes")
@pytest.mark.rule(G, "Frost Cubes")
def test_temporary_and_frost_cubes_are_discarded_when_repositioned() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "t", "f"], ["c"], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.reserve_temp, s.reserve_frost = 3, 3
    restart_turn(s)
    s.apply("move space 1")  # strength 3 (temporary and frost count)
    assert s.turn["move"] == 3
    # The 3 cubes are re-placed in spaces 2, 3, 4 in the order the champion wants; the
    # temporary and frost cubes are then discarded: the Action Cube ends in 2, 3 or 4.
    assert s.decision().seat == "ragnar"
    assert legal(s) == ["Action Cube to space 2", "discarded cube to space 2"]
    assert s.decision().default == "Action Cube to space 2"
    s.apply("discarded cube to space 2")
    assert legal(s) == ["Action Cube to space 3", "discarded cube to space 3"]
    s.apply("Action Cube to space 3")  # the last place takes the frost cube without asking
    assert s.champs["ragnar"].rondel[:4] == [[], ["c"], ["c"], []]
    assert (s.reserve_temp, s.reserve_frost) == (4, 4)
    # Frost: 2 Health lost per frost cube, once the Move Action is performed.
    assert s.champs["ragnar"].health == 12
    s.apply("stop moving")
    assert s.champs["ragnar"].health == 10


@pytest.mark.rule(G, "Boons")
def test_boon_bonus_counts_as_extra_cubes() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"], ["c"], [], [], [], []]})
    r = s.champs["ragnar"]
    r.boons = [{"symbol": "melee", "level": 2}, None, None, None, None, None]
    r.area = "D3"
    s.minions["A1"].area = "D3"
    restart_turn(s)
    s.apply("melee space 1 at AshFolk A")
    assert s.atk["white"] == 3  # 1 cube + greater boon (+2)


@pytest.mark.rule(G, "Boons")
def test_minor_boons_adjacent_and_matching_greater_only_from_minor() -> None:
    s = fresh()
    r = s.champs["ragnar"]
    r.boons = [None, None, {"symbol": "reroll", "level": 1}, None, None, None]
    r.tokens_left = ["melee", "heal", "defense"]
    opts = s.boon_options("ragnar", False)
    # Red board: space 2 ranged/reroll, 4 melee/heal; adjacent to space 3 are 2 and 4.
    assert opts == ["melee boon in space 4", "heal boon in space 4", "greater boon in space 3"]
    r.boons[2]["level"] = 2
    assert "greater boon in space 3" not in s.boon_options("ragnar", False)


@pytest.mark.rule(G, "Fury and Upgrades")
@pytest.mark.rule(G, "Upgrade Icons")
def test_fury_stops_at_the_next_upgrade_and_excess_is_lost() -> None:
    s = fresh()
    r = s.champs["ragnar"]
    r.fury = 1
    s.tasks = [{"t": "fury", "c": "ragnar", "n": 3}]
    s.ask = None
    events = []
    s.run(events)
    assert r.fury == 2  # Ragnar's first upgrade (a red die Attribute) is at 2
    assert any("disregarded" in e.text for e in events)
    assert r.attrs["red"] == 1


@pytest.mark.rule(G, "Berserker Form")
@pytest.mark.rule(G, "Reading the Champion Cards")
def test_transformation_at_8_fury() -> None:
    s = fresh()
    r = s.champs["ragnar"]
    r.fury = 6
    s.tasks = [{"t": "fury", "c": "ragnar", "n": 3}]
    s.ask = None
    s.run([])
    assert r.form == "berserker" and r.fury == 8
    assert r.charges == {"human": 3, "berserker": 3}
    assert r.attrs["red"] == 1  # Bearhide's transformation upgrade
    # New track beyond 8.
    assert min(s.upgrade_track("ragnar")) == 10


@pytest.mark.rule(G, "Definitions")
def test_map_walls_and_inaccessible_areas() -> None:
    b: Board = GAME.board("last_flame")
    assert "E4" not in b.adjacent("D4")  # wall D4|E4
    assert b.adjacent("C4") == []  # inaccessible to all
    assert "C4" not in b.adjacent("C3")
    assert "A3" not in b.god_adjacent("B3")  # inaccessible to the god only
    assert "A3" in b.adjacent("B3")


@pytest.mark.rule(G, "The Three Steps of a Rondel Action")
@pytest.mark.rule(G, "Temporary Action Cubes")
def test_temporary_cubes_take_places_in_the_clockwise_sequence() -> None:
    """"Reposition them together with all the other Action Cubes from the same Space ... Remove
    each repositioned Temporary Cube": a temporary cube uses up one place of the clockwise
    sequence, which one being the champion's choice; every distinct outcome is offered, and
    a space with only normal (or only temporary) cubes asks nothing."""
    r = [["c", "c", "t"], [], [], [], [], []]
    assert rondel_take(r, 0, (1, 3)) == (3, ["t"]) and r == [[], ["c"], [], ["c"], [], []]
    s = fresh()
    board_only(s, {"ragnar": [["c", "t", "c"], ["c"], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.reserve_temp = 3
    restart_turn(s)
    s.apply("move space 1")
    outcomes = set()
    for first in ("Action Cube to space 2", "discarded cube to space 2"):
        for second in ("Action Cube to space 3", "discarded cube to space 3"):
            t = s.clone()
            t.apply(first)
            if second in legal(t):
                t.apply(second)
            outcomes.add(tuple(len(x) for x in t.champs["ragnar"].rondel[1:4]))
    assert outcomes == {(2, 1, 0), (2, 0, 1), (1, 1, 1)}  # Action Cubes in 2+3, 2+4, 3+4
    s.apply("Action Cube to space 2")
    s.apply("discarded cube to space 3")
    assert s.champs["ragnar"].rondel[:4] == [[], ["c", "c"], [], ["c"]]
    assert s.reserve_temp == 4
    s.apply("step to C3")
    s.apply("stop moving")
    s.apply("move space 2")  # only normal cubes: nothing to choose
    assert s.decision().kind == "turn" or s.ask["h"] == "step"
    assert s.champs["ragnar"].rondel[2:4] == [["c"], ["c", "c"]]
