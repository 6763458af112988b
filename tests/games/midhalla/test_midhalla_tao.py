"""Tile Activation Order and spawning (2.2), with the rulebook's two worked examples."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.games.midhalla.board import Board, Tile
from meadhall.games.midhalla.testkit import TAO_EXAMPLE_AT, TAO_EXAMPLE_LINKS, layout, position

G = games.get("midhalla")


def example_board(fortified: set[str] = frozenset()) -> Board:
    tiles = layout(TAO_EXAMPLE_AT, TAO_EXAMPLE_LINKS, fortified)
    return Board({t: Tile.from_json(t, d) for t, d in tiles.items()})


@pytest.mark.rule("midhalla", "Tile Activation Order (TAO)")
def test_tao_example_activates_the_nine_tiles_in_printed_order() -> None:
    # The illustration: 9 8 1 2 3 in a row, 4 below 3, 5 right of 4, 6 and 7 below 4.
    assert example_board().tao() == ["G", "2", "3", "4", "5", "6", "7", "8", "9"]


@pytest.mark.rule("midhalla", "TAO Checks")
def test_junction_goes_clockwise_from_the_top_and_backtracks() -> None:
    # A gate with tiles on all four sides: top, right, bottom, left; the top branch is deep.
    at = {"G": (0, 0), "N": (0, -1), "N2": (1, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    links = [("G", "N"), ("N", "N2"), ("G", "E"), ("G", "S"), ("G", "W")]
    b = Board({t: Tile.from_json(t, d) for t, d in layout(at, links).items()})
    # N2 and E are neighbours on the grid but not linked: only connectors count.
    assert b.tao() == ["G", "N", "N2", "E", "S", "W"]


@pytest.mark.rule("midhalla", "TAO Checks")
def test_each_tile_activates_exactly_once_on_a_loop() -> None:
    at = {"G": (0, 0), "a": (1, 0), "b": (1, 1), "c": (0, 1)}
    links = [("G", "a"), ("a", "b"), ("b", "c"), ("c", "G")]
    b = Board({t: Tile.from_json(t, d) for t, d in layout(at, links).items()})
    assert b.tao() == ["G", "a", "b", "c"]


def spawn_state(fortified: set[str], **extra: dict) -> object:
    tiles = layout(TAO_EXAMPLE_AT, TAO_EXAMPLE_LINKS, fortified, **extra)
    return G.from_json(position(phase="preparation", tiles=tiles))


@pytest.mark.rule("midhalla", "2.2 Spawn Enemies")
def test_spawn_example_spawns_on_3_to_7_and_9() -> None:
    st = spawn_state({"G", "2", "8"})
    events = st.apply("done preparing")
    spawned = [e.data["tile"] for e in events if e.kind == "spawn"]
    assert spawned == ["3", "4", "5", "6", "7", "9"]
    assert st.decision().section == "2.3 Position Heroes"


@pytest.mark.rule("midhalla", "2.2 Spawn Enemies")
def test_spawn_reshuffles_the_enemy_discard_and_uses_player_count_hp() -> None:
    st = spawn_state({"G", "2", "3", "4", "5", "6", "7", "8"})
    st.decks["enemy"].pile.clear()
    st.decks["enemy"].discard[:] = ["kobold_warrior"]
    st.choice = None
    st._advance([])
    events = st.apply("done preparing")
    assert any(e.kind == "shuffle" for e in events)
    (e,) = st.enemies.values()
    assert e.tile == "9" and e.card == "kobold_warrior"
    assert e.hp == 3  # Kobold Warrior: 3 HP with two players
    assert e.evasion  # tokens for traits such as evasion are added on spawning


@pytest.mark.rule("midhalla", "2.2 Spawn Enemies")
def test_spawn_with_empty_deck_and_discard_does_nothing() -> None:
    st = spawn_state({"G", "2", "3", "4", "5", "6", "7", "8"})
    st.decks["enemy"].pile.clear()
    st.choice = None
    st._advance([])
    events = st.apply("done preparing")
    assert not st.enemies
    assert any("empty" in e.text for e in events)


@pytest.mark.rule("midhalla", "Spawn Tokens")
def test_spawn_tokens_apply_even_on_fortified_tiles() -> None:
    st = spawn_state({"G", "2", "3", "4", "5", "6", "7", "8"},
                     **{"2": {"token": "plus1"}, "3": {"token": "elite"}, "9": {"token": "none"},
                        "8": {"token": "elite"}})
    st.decks["elite"].pile[:] = ["kobold_chieftain", "troll_brute"]
    st.choice = None
    st._advance([])
    st.apply("done preparing")
    by_tile = sorted((e.tile, G.content.cat.enemies[e.card].kind) for e in st.enemies.values())
    # +1 on fortified 2: one enemy; elite on fortified 3 and 8: one elite each; none on 9.
    assert by_tile == [("2", "basic"), ("3", "elite"), ("8", "elite")]


@pytest.mark.rule("midhalla", "Spawn Tokens")
def test_plus_one_on_unfortified_spawns_two() -> None:
    st = spawn_state({"G", "2", "3", "4", "5", "6", "7", "8"}, **{"9": {"token": "plus1"}})
    st.choice = None
    st._advance([])
    st.apply("done preparing")
    assert [e.tile for e in st.enemies.values()] == ["9", "9"]


@pytest.mark.rule("midhalla", "TAO Checks")
def test_junction_order_is_absolute_top_right_bottom_left_not_relative_to_the_way_in() -> None:
    # Ruling 17: "select the one coming first in clockwise order ... (so top -> right ->
    # bottom -> left)". Entering junction A from below, the absolute order picks A's top
    # neighbour first; "clockwise from the side we came in by" would pick the left one.
    at = {"G": (0, 0), "A": (0, -1), "AN": (0, -2), "AE": (1, -1), "AW": (-1, -1)}
    links = [("G", "A"), ("A", "AN"), ("A", "AE"), ("A", "AW")]
    b = Board({t: Tile.from_json(t, d) for t, d in layout(at, links).items()})
    assert b.tao() == ["G", "A", "AN", "AE", "AW"]
