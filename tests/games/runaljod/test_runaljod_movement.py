"""Movement, terrain and line of sight (Movement; Terrain; Attack - line of sight)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, runes, sq, texts

from meadhall.core.errors import IllegalAction


def moving(st, hero: str, points: int) -> None:
    st.begin_move(st.heroes[hero], points, [], [], "Basic Actions")


@pytest.mark.rule("runaljod", "Basic Actions")
def test_movement_spaces_give_their_printed_value_and_take_any_rune() -> None:
    st = make()
    put(st, "berserk", "B3")
    runes(st, "berserk", uruz="down")
    acts = texts(st)
    # Berserk board: movement spaces 3 and 2; any rune, any orientation
    assert "move 3 using uruz" in acts and "move 2 using uruz" in acts
    st.apply("move 3 using uruz")
    assert st.heroes["berserk"].rune("uruz").place == "move1"
    st.apply("end move")
    assert not any(a.startswith("move 3") for a in texts(st))
    assert any(a.startswith("move 2") for a in texts(st))


@pytest.mark.rule("runaljod", "Movement")
def test_move_through_an_ally_but_never_end_there() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "B1")
    moving(st, "berserk", 2)
    acts = texts(st)
    assert "step B1" in acts  # through the ally...
    st.apply("step B1")
    assert "end move" not in texts(st)  # ...but not ending on it
    st.apply("step C1")
    assert st.heroes["berserk"].at == sq("C1")


@pytest.mark.rule("runaljod", "Movement")
def test_cannot_step_onto_an_ally_without_points_to_leave_it() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "B1")
    moving(st, "berserk", 1)
    assert "step B1" not in texts(st)


def cost_to(st, hero: str, dest: str) -> float:
    from meadhall.core import grid
    from meadhall.core.graph import distances

    h = st.heroes[hero]

    def step(a):
        for n in grid.neighbours(a, diagonal=True):
            c = st.hero_step_cost(h, a, n)
            if c is not None:
                yield n, c
    return distances(h.at, step).get(sq(dest), float("inf"))


@pytest.mark.rule("runaljod", "Movement")
def test_example_berserk_cannot_take_the_shortest_path_between_terrain_and_enemy() -> None:
    """Rulebook example: the direct diagonal runs between a terrain space and an enemy (two
    blocked spaces), so the Berserk must take a longer way."""
    st = make(["#...", "....", "....", "...."])
    put(st, "berserk", "B1")
    put(st, "volva", "D4")
    foe(st, "clan_warrior", "B2")
    assert cost_to(st, "berserk", "A2") == 3  # B1 -> C2 -> B3 -> A2, not the diagonal
    moving(st, "berserk", 2)
    assert "step A2" not in texts(st)
    st.ask = None
    st.enemies.clear()
    assert cost_to(st, "berserk", "A2") == 1  # with one side open the diagonal is allowed


@pytest.mark.rule("runaljod", "Movement")
def test_diagonal_closed_only_when_both_side_squares_are_blocked() -> None:
    st = make(["...", "#..", "..."])
    put(st, "berserk", "A1")
    foe(st, "clan_warrior", "B1")
    moving(st, "berserk", 2)
    assert "step B2" not in texts(st)
    st.enemies.clear()
    st.ask = None
    moving(st, "berserk", 2)
    assert "step B2" in texts(st)


@pytest.mark.rule("runaljod", "Movement")
def test_interrupted_movement_loses_the_remaining_points() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    st.apply("move 3 using uruz")
    st.apply("step B1")
    st.apply("end move")
    assert not any(a.startswith("step") for a in texts(st))
    with pytest.raises(IllegalAction) as e:
        st.apply("step C1")
    assert e.value.section == "Movement"


@pytest.mark.rule("runaljod", "Terrain")
def test_difficult_terrain_costs_two_to_leave() -> None:
    st = make(["g...", "....", "...."])
    put(st, "berserk", "A1")
    moving(st, "berserk", 1)
    assert not any(a.startswith("step") for a in texts(st))
    st.ask = None
    moving(st, "berserk", 2)
    st.apply("step B1")
    assert st.ask is None  # 0 points left: movement over


@pytest.mark.rule("runaljod", "Terrain")
def test_obstacles_block_movement_and_sight() -> None:
    st = make(["..#..", ".....", "....."])
    put(st, "volva", "A1")
    foe(st, "clan_warrior", "E1")
    assert not st.sees(sq("A1"), sq("E1"))
    moving(st, "volva", 3)
    assert "step C1" not in texts(st)


@pytest.mark.rule("runaljod", "Terrain")
def test_bonfire_costs_a_life_point_cannot_end_and_thaws_neighbours() -> None:
    st = make(["......", "......", "......"])
    st.bonfires = [sq("C1")]
    put(st, "berserk", "A1")
    h = st.heroes["berserk"]
    h.conditions = ["frozen"]
    moving(st, "berserk", 3)
    st.apply("step B1")  # adjacent to the bonfire: frozen token removed
    assert h.conditions == []
    st.apply("step C1")  # through the bonfire: 1 life
    assert h.damage == 1
    assert "end move" not in texts(st)


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_a_hero_may_not_step_into_a_bonfire_on_its_last_life_point() -> None:
    st = make(["......", "......"])
    st.bonfires = [sq("B1")]
    put(st, "berserk", "A1")
    st.heroes["berserk"].damage = 9
    moving(st, "berserk", 3)
    assert "step B1" not in texts(st)


@pytest.mark.rule("runaljod", "Terrain")
def test_second_ice_space_needs_a_physical_check_and_failure_sends_back() -> None:
    st = make([".ii...", "......"])
    put(st, "berserk", "A1")
    h = st.heroes["berserk"]
    moving(st, "berserk", 3)
    st.apply("step B1")  # first ice space: nothing happens
    assert st.ask["kind"] == "move"
    st.apply("step C1")  # second: physical check
    assert st.ask["kind"] == "ice"
    st.force("blank", "dagger")  # Berserk physical: two black dice, no upgrade
    st.apply("physical check using uruz")
    assert h.at == sq("B1") and "frozen" in h.conditions and st.ask is None


@pytest.mark.rule("runaljod", "Terrain")
def test_passing_the_ice_check_continues_the_movement() -> None:
    st = make([".ii...", "......"])
    put(st, "berserk", "A1")
    moving(st, "berserk", 3)
    st.apply("step B1")
    st.apply("step C1")
    st.force("upgrade", "blank")
    st.apply("physical check using uruz")
    assert st.ask["kind"] == "move" and st.ask["points"] == 1


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Quick")
@pytest.mark.rule("runaljod", "Jump")
def test_jump_ignores_terrain_and_miniatures_and_quick_passes_enemies() -> None:
    st = make([".#..", "....", "...."])
    put(st, "berserk", "A1")
    st.begin_move(st.heroes["berserk"], 2, ["jump"], [], "Keywords")
    assert "step B1" in texts(st)  # over the obstacle (but it cannot end there)
    st.ask = None
    foe(st, "clan_warrior", "B2")
    st.begin_move(st.heroes["berserk"], 2, ["quick"], [], "Keywords")
    assert "step B2" in texts(st)


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Obstruction")
def test_obstruction_costs_one_more_point_to_leave_its_side() -> None:
    st = make(["....", "....", "...."])
    put(st, "berserk", "A1")
    foe(st, "jotun", "C3")  # obstruction
    put(st, "volva", "B2")
    moving(st, "volva", 1)
    assert not any(a.startswith("step") for a in texts(st))


@pytest.mark.rule("runaljod", "Attack")
def test_example_volva_three_lines_of_sight() -> None:
    """Rulebook example: the bottom enemy is in clear LoS; the top one is not, as the line
    crosses two blocked squares (another enemy and terrain); the middle one is behind rocks."""
    st = make(["......",
               "......",
               ".#....",
               "......",
               "......"])
    put(st, "volva", "A3")
    foe(st, "clan_warrior", "C1")   # top
    foe(st, "clan_hunter", "A2")    # the enemy whose square, with the rocks at B3, closes C1
    foe(st, "clan_warrior", "D3")   # middle, behind the rocks at B3
    foe(st, "northern_wolf", "C5")  # bottom
    assert st.sees(sq("A3"), sq("C5"))
    assert not st.sees(sq("A3"), sq("C1"))
    assert not st.sees(sq("A3"), sq("D3"))
    targets = st.attack_targets(st.heroes["volva"], "staff", [])
    assert set(targets) == {sq("A2"), sq("C5")}  # adjacent A2 is always visible
    st.enemies = [e for e in st.enemies if e.at != sq("A2")]
    assert st.sees(sq("A3"), sq("C1"))  # only one blocked square: visible


@pytest.mark.rule("runaljod", "Attack")
def test_adjacent_squares_are_visible_except_blocked_diagonals() -> None:
    st = make(["...", "...", "..."])
    put(st, "volva", "B2")
    foe(st, "clan_warrior", "B1")
    foe(st, "clan_warrior", "A2")
    foe(st, "clan_hunter", "A1")  # diagonal between two enemies
    assert st.sees(sq("B2"), sq("B1")) and st.sees(sq("B2"), sq("A2"))
    assert not st.sees(sq("B2"), sq("A1"))


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_fallen_heroes_do_not_block_sight_and_can_be_walked_through() -> None:
    st = make(["....", "....", "...."])
    put(st, "volva", "A1")
    put(st, "berserk", "B1")
    foe(st, "clan_warrior", "D1")
    assert not st.sees(sq("A1"), sq("D1"))
    st.heroes["berserk"].fallen = True
    assert st.sees(sq("A1"), sq("D1"))
    e = st.enemies[0]
    assert st.enemy_step_cost(e, sq("C1"), sq("B1")) == 1
    assert not st.enemy_can_end(e, sq("B1"))


@pytest.mark.rule("runaljod", "Attack")
def test_example_berserk_attacks_two_of_three_adjacent_enemies() -> None:
    """Rulebook example: the enemy on the right is adjacent but between two blocked squares
    (another enemy and terrain), so the Berserk can attack only the other two."""
    st = make(["....", "..#.", "....", "...."])
    put(st, "berserk", "B2")
    foe(st, "clan_warrior", "A3")   # diagonal, sides A2 (free) and B3 (enemy): visible
    foe(st, "clan_warrior", "B3")   # below
    foe(st, "clan_hunter", "C3")    # right: between C2 (terrain) and B3 (enemy)
    targets = st.attack_targets(st.heroes["berserk"], "bearded_axe", [])
    assert set(targets) == {sq("A3"), sq("B3")}
    st.apply("attack using uruz")
    assert texts(st) == ["attack A3 with bearded axe", "attack B3 with bearded axe"]


@pytest.mark.rule("runaljod", "Attack")
def test_counting_spaces_ignores_terrain_except_obstacles() -> None:
    st = make(["g.#.", "..#.", "...."])
    foe(st, "clan_warrior", "B1")
    assert st.spaces_within(sq("A1"), sq("B1"), 1)  # a miniature in the way is ignored
    assert st.spaces_within(sq("A1"), sq("C2"), 2)  # B1 or B2: difficult terrain ignored
    assert not st.spaces_within(sq("A1"), sq("D1"), 3)  # around the obstacles: 4 spaces
    assert st.spaces_within(sq("A1"), sq("D1"), 4)
    assert st.spaces_within(sq("D3"), sq("D1"), 2)  # D2, then D1
