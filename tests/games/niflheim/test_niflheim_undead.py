"""The undead: LOS and revealing, spawning, activation order, movement (with the rulebook's
example), undead attacks and locks, the round structure."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.games.niflheim import undead
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        **kw: Any) -> Any:
    """Frida (first hero) is active and has declared walking, heroes went first."""
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {}, "done": ["J", "O2"],
                         "pool": {"draugr": 2}, "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=kw.get("scenario", "1"))


def end_hero_turn(s: Any, initiative: tuple[int, int] = (12, 1)) -> list:
    """End the active hero's activation; the undead turn runs; the next initiative is forced
    (heroes win) so the run stops at the players' initiative choice."""
    s.force(*initiative)
    return s.apply("end activation")


def at(s: Any, uid: int) -> str:
    from meadhall.core import grid
    return grid.name(s.undead[uid].at)


@pytest.mark.rule("niflheim", "Line of Sight")
def test_los_example_corner_only_touch_does_not_block() -> None:
    """Draugr A in the open is revealed, B behind obstructive terrain stays concealed, the line
    to C only crosses the corner of obstructive terrain and reveals it."""
    rows = open_map(8, 8, {"C2": "#", "E2": "#"})
    s = pos(rows, {"frida": {"at": "B2"}},
            [{"id": 1, "at": "B5"}, {"id": 2, "at": "F2"}, {"id": 3, "at": "D4"}],
            pool={"draugr": 3})
    events: list = []
    undead.reveal(s, events)
    assert s.undead[1].kind == "draugr" and s.undead[3].kind == "draugr"
    assert s.undead[2].kind is None
    assert {e.data["undead"] for e in events} == {1, 3}
    assert all(e.section == "Revealing Undead" for e in events)


@pytest.mark.rule("niflheim", "Revealing Undead")
def test_marker_revealed_the_moment_a_hero_moves_into_los() -> None:
    rows = open_map(8, 8, {"D1": "#", "D2": "#", "D3": "#"})
    s = pos(rows, {"frida": {"at": "C4"}, "killian": {"at": "A8"}}, [{"id": 1, "at": "F2"}],
            pool={"bogmadr": 1})
    assert s.undead[1].kind is None
    events = s.apply("move C5")
    assert s.undead[1].kind == "bogmadr"
    assert [e.kind for e in events] == ["move", "reveal"]


@pytest.mark.rule("niflheim", "Revealing Undead")
def test_view_hides_face_down_identity_and_pool_contents() -> None:
    s = pos(open_map(8, 8, {"D2": "#"}), {"frida": {"at": "B2"}}, [{"id": 1, "at": "F2"}],
            pool={"troll": 1, "draugr": 1})
    v = s.view("frida")
    assert v["undead"][0]["kind"] is None and v["undead_pool"] == 1
    assert "troll" not in str(v)


@pytest.mark.rule("niflheim", "Spawning")
def test_spawn_on_s_in_round_3_final_phase_of_undead_turn() -> None:
    s = pos(open_map(12, 10, {"H5": "#", "G5": "#", "I5": "#", "G6": "#", "I6": "#"}),
            {"frida": {"at": "B2"}}, [], track=2)
    events = end_hero_turn(s)
    spawned = [e for e in events if e.kind == "spawn"]
    assert spawned and spawned[0].section == "Spawning"
    assert [(u.kind, at(s, u.id)) for u in s.undead.values()] == [(None, "H6")]


@pytest.mark.rule("niflheim", "Spawning")
def test_no_spawn_on_other_round_track_spaces() -> None:
    s = pos(open_map(12, 10), {"frida": {"at": "B2"}}, [], track=1)
    end_hero_turn(s)
    assert not s.undead


@pytest.mark.rule("niflheim", "Spawning")
def test_occupied_spawn_square_players_choose_closest_free_square() -> None:
    rows = open_map(12, 10, {"H5": "#", "G7": "#", "I7": "#"})
    s = pos(rows, {"frida": {"at": "B2"}}, [{"id": 1, "kind": "draugr", "at": "H6",
                                             "stunned": True}], track=2)
    end_hero_turn(s)
    d = s.decision()
    assert d.seat == "players" and d.section == "Spawning"
    assert set(legal(s)) == {"spawn at G6", "spawn at I6", "spawn at H7"}
    s.apply("spawn at I6")
    assert at(s, 2) == "I6"


@pytest.mark.rule("niflheim", "Activating Undead During the Undead Turn")
def test_stunned_undead_remove_stun_instead_of_acting() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "B2"}},
            [{"id": 1, "kind": "draugr", "at": "B4", "stunned": True}])
    events = end_hero_turn(s)
    assert not s.undead[1].stunned and at(s, 1) == "B4"
    assert any(e.kind == "stun" and e.section.startswith("Activating") for e in events)


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_undead_movement_example_three_draugr() -> None:
    """Draugr #1 moves to A next to Frida; #2 and #3 are both two moves away so the players
    choose the order; #2 cannot move diagonally to C (draugr #3 / hindering terrain) and does
    not move; #3 moves to C. Either order gives the same result."""
    rows = open_map(10, 9, {"G6": "%", "G7": "#"})
    ud = [{"id": 1, "kind": "draugr", "at": "D6"}, {"id": 2, "kind": "draugr", "at": "H6"},
          {"id": 3, "kind": "draugr", "at": "H5"}]
    for first in (2, 3):
        s = pos(rows, {"frida": {"at": "F6"}}, ud)
        s.apply("end activation")
        assert at(s, 1) == "E6"  # A: adjacent to Frida
        assert s.decision().section == "Activating Undead During the Undead Turn"
        assert set(legal(s)) == {"activate undead 2", "activate undead 3"}
        s.force(12, 1)
        events = s.apply(f"activate undead {first}")
        assert at(s, 2) == "H6" and at(s, 3) == "G5"  # C
        if first == 2:
            assert any(e.kind == "stay" and e.data["undead"] == 2 for e in events)


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_first_option_adjacent_beats_diagonal_and_ties_ask_players() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "D4"}}, [{"id": 1, "kind": "draugr", "at": "F4"}])
    end_hero_turn(s)
    assert at(s, 1) == "E4"
    # Diagonally adjacent on E3: D3 and E4 are both adjacent to Frida and one move away.
    s = pos(open_map(8, 8), {"frida": {"at": "D4"}}, [{"id": 1, "kind": "draugr", "at": "E3"}])
    s.apply("end activation")
    d = s.decision()
    assert d.seat == "players" and d.section == "Movement - Undead"
    assert set(legal(s)) == {"undead 1 to D3", "undead 1 to E4"}
    s.force(12, 1)
    s.apply("undead 1 to E4")
    assert at(s, 1) == "E4"


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_option_two_diagonally_adjacent() -> None:
    # From G2, no square adjacent to Frida (D4) is one move away; F3 is diagonally adjacent.
    s = pos(open_map(8, 8), {"frida": {"at": "D4"}}, [{"id": 1, "kind": "draugr", "at": "G2"}])
    end_hero_turn(s)
    assert at(s, 1) == "F3"


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_option_three_shortest_path_ties_offered() -> None:
    s = pos(open_map(10, 3), {"frida": {"at": "A2"}}, [{"id": 1, "kind": "draugr", "at": "F2"}])
    s.apply("end activation")
    assert set(legal(s)) == {"undead 1 to E1", "undead 1 to E2", "undead 1 to E3"}
    assert s.decision().default == "undead 1 to E1"


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_never_into_hindering_terrain() -> None:
    s = pos(open_map(8, 8, {"D3": "%"}), {"frida": {"at": "C3"}},
            [{"id": 1, "kind": "draugr", "at": "E3"}])
    s.apply("end activation")
    assert set(legal(s)) == {"undead 1 to D2", "undead 1 to D4"}  # option 2, D3 is hindering


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_never_diagonally_across_a_fire_corner() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3"}}, [{"id": 1, "kind": "draugr", "at": "E4"}])
    end_hero_turn(s)
    assert at(s, 1) == "D3"
    s = pos(open_map(8, 8, {"E3": "^"}), {"frida": {"at": "C3"}},
            [{"id": 1, "kind": "draugr", "at": "E4"}])
    end_hero_turn(s)
    assert at(s, 1) == "D4"  # D3 would pass the fire's corner: option 2 instead


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_diagonal_needs_a_side_square_unoccupied_and_clear() -> None:
    s = pos(open_map(8, 8, {"E3": "%"}), {"frida": {"at": "C3"}},
            [{"id": 1, "kind": "draugr", "at": "E4"}, {"id": 2, "kind": "draugr", "at": "D4",
                                                      "stunned": True}])
    assert undead.move_options(s, s.undead[1])[0] == 0 or \
        (3, 2) not in undead.move_options(s, s.undead[1])[1]


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_no_move_when_adjacent_and_unrevealed_moves_as_draugr() -> None:
    s = pos(open_map(8, 8, {"F3": "#", "F4": "#", "F5": "#"}), {"frida": {"at": "D4"}},
            [{"id": 1, "kind": "draugr", "at": "D5"}, {"id": 2, "at": "H4"}],
            pool={"draugr": 1})
    assert undead.move_options(s, s.undead[1])[0] == 0
    assert s.undead[2].kind is None and undead.move_value(s, s.undead[2]) == 1
    opt, squares, _ = undead.move_options(s, s.undead[2])
    assert opt == 3 and {q for q in squares} == {(6, 2), (6, 4)}


@pytest.mark.rule("niflheim", "Movement - Undead")
def test_closest_hero_regardless_of_blocking_undead() -> None:
    """A draugr heads for the hero fewest moves away even if other undead block that path."""
    rows = open_map(9, 3, {"B1": "#", "B3": "#"})
    s = pos(rows, {"frida": {"at": "A2"}, "killian": {"at": "I2", "activated": True}},
            [{"id": 1, "kind": "draugr", "at": "B2", "stunned": True},
             {"id": 2, "kind": "draugr", "at": "D2"}])
    dist = undead.hero_distances(s, s.undead[2])
    assert dist == {"frida": 2, "killian": 4}


@pytest.mark.rule("niflheim", "Activating Undead During the Undead Turn")
def test_activation_closest_first() -> None:
    s = pos(open_map(10, 1), {"frida": {"at": "A1"}},
            [{"id": 1, "kind": "draugr", "at": "H1"}, {"id": 2, "kind": "draugr", "at": "D1"}])
    events = end_hero_turn(s)
    order = [e.data["undead"] for e in events if e.kind == "move"]
    assert order == [2, 1]


@pytest.mark.rule("niflheim", "Initiative Segment")
def test_initiative_undead_minus_4_ties_reroll_undead_go_first() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1"}})
    # heroes 5, undead 9-4 = 5: tie, roll again; heroes 3, undead 8-4 = 4: the undead win.
    s.force(5, 9, 3, 8)
    events = s.apply("end activation")
    texts = [e.text for e in events if e.kind == "initiative"]
    assert "tie" in texts[0] and "undead win and always go first" in texts[1]
    assert s.order == ["undead", "heroes"]


@pytest.mark.rule("niflheim", "Initiative Segment")
def test_initiative_heroes_win_and_choose() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1"}})
    s.force(6, 9)  # 6 > 9 - 4
    s.apply("end activation")
    d = s.decision()
    assert d.seat == "players" and d.default == "heroes go first"
    assert legal(s) == ["heroes go first", "undead go first"]
    s.apply("undead go first")
    assert s.order == ["undead", "heroes"]


@pytest.mark.rule("niflheim", "Start Phase")
def test_start_phase_removes_cover_and_attacked_markers() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "marker": "attacked"},
                             "killian": {"at": "H8", "marker": "attacked", "activated": True}})
    s.force(12, 1)
    s.apply("end activation")
    s.apply("heroes go first")
    assert all(h.marker is None for h in s.heroes.values())


@pytest.mark.rule("niflheim", "End Segment")
def test_round_track_advances_and_resets_returning_the_discard() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1"}}, track=5, discard=["draugr", "draugr"])
    events = end_hero_turn(s)
    assert s.track == 0 and s.lap == 2 and s.round == 2 and not s.discard
    assert undead.physical_pool(s) == 4
    assert any("resets" in e.text for e in events)


@pytest.mark.rule("niflheim", "Undead")
def test_pool_runs_out_discard_returns_before_spawning() -> None:
    rows = open_map(12, 10)
    s = pos(rows, {"frida": {"at": "A1"}}, [], track=2, pool={"draugr": 0},
            discard=["draugr"])
    end_hero_turn(s)
    assert len(s.undead) == 1 and not s.discard


@pytest.mark.rule("niflheim", "Turn Segments")
def test_undead_attack_locks_then_wounds() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3"}}, [{"id": 1, "kind": "draugr", "at": "C4"}])
    events = end_hero_turn(s)
    assert s.heroes["frida"].locked_by == 1 and s.heroes["frida"].health == 4
    assert any(e.kind == "lock" for e in events)
    # next round: Frida fails to break the lock (needs 10 unarmed), then the draugr wounds her
    s.apply("heroes go first")
    s.force(9)
    events = s.apply("declare walking")
    assert s.heroes["frida"].locked_by == 1 and s.heroes["frida"].mp == 0
    assert s.heroes["frida"].health == 3


@pytest.mark.rule("niflheim", "Turn Segments")
def test_locked_hero_breaks_free_with_unarmed_10() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "intent": None, "mp": 0, "locked_by": 1}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.force(8, 12, 1)
    events = s.apply("declare stationary")  # 8 + 2 (stationary) = 10
    assert [e.kind for e in events][:2] == ["intent", "unlock"]
    # Scenario 1: nothing else to do; in the undead turn the draugr locks her again.
    assert s.heroes["frida"].locked_by == 1


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_all_heroes_killed_loses() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "health": 1, "locked_by": 1}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.apply("end activation")
    assert s.outcome().result == "loss" and "killed" in s.outcome().reason
    assert s.decision() is None


@pytest.mark.rule("niflheim", "Scenario 1: The High Seat")
def test_scenario_1_exit_with_torch_after_rescuing_the_jarl_wins() -> None:
    s = pos(open_map(12, 10), {"frida": {"at": "K7", "gear": ["torch"]}}, [], done=["J"])
    s.apply("move L7")
    s.apply("exit E")
    assert s.outcome().result == "win"
    assert s.heroes["frida"].xp == 1


@pytest.mark.rule("niflheim", "Scenario 1: The High Seat")
def test_scenario_1_exit_without_jarl_leaves_no_hero_loss() -> None:
    s = pos(open_map(12, 10), {"frida": {"at": "K7", "gear": ["torch"]}}, [], done=[])
    s.apply("move L7")
    s.apply("exit E")
    assert s.outcome().result == "loss"


@pytest.mark.rule("niflheim", "Setup")
def test_setup_scenario_1() -> None:
    from meadhall.games.niflheim import GAME
    s = GAME.new_game({"scenario": "1", "heroes": ["frida"]}, seed=3)
    assert s.heroes["frida"].at == (2, 2) and s.heroes["frida"].health == 4
    assert len(s.undead) == 4 and undead.physical_pool(s) == 2
    assert s.items == {(9, 1): ["torch"]}
    s2 = GAME.new_game({"scenario": "1", "heroes": ["frida", "killian"]}, seed=3)
    from meadhall.core import grid
    assert grid.manhattan(s2.heroes["killian"].at, (2, 2)) == 1


@pytest.mark.rule("niflheim", "Playing a Scenario")
@pytest.mark.rule("niflheim", "Turn Segments")
def test_round_structure_initiative_turns_end() -> None:
    s = pos(open_map(8, 1), {"frida": {"at": "A1"}}, [{"id": 1, "kind": "draugr", "at": "H1"}])
    s.force(1, 12)  # the undead win the next initiative
    events = s.apply("end activation")
    kinds = [e.kind for e in events]
    assert kinds.index("turn") < kinds.index("round") < kinds.index("initiative")
    # the undead take the first turn of round 2, then the heroes
    assert s.order == ["undead", "heroes"] and s.segment == "heroes" and s.round == 2


@pytest.mark.rule("niflheim", "Read Me First")
def test_scenarios_may_be_replayed() -> None:
    """'If you failed the objective ... feel free to play them again': a new game of the same
    scenario, or a retry in a campaign (see test_niflheim_campaign)."""
    from meadhall.games.niflheim import GAME
    a = GAME.new_game({"scenario": "1", "heroes": ["frida"]}, seed=9)
    b = GAME.new_game({"scenario": "1", "heroes": ["frida"]}, seed=9)
    assert a == b
