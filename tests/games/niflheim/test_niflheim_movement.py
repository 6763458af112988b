"""Hero movement: MA costs, terrain, diagonals, doors, gear, exits, special actions, ZOC."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(rows: list[str], heroes: dict[str, Any], undead: list[dict] | None = None,
        **kw: Any) -> Any:
    p: dict[str, Any] = {"map": rows, "heroes": heroes, "undead": undead or [],
                         "active": next(iter(heroes)), "items": {}, "done": ["J", "O2"],
                         "pool": {"draugr": 2}, "coin_used": True}
    p.update(kw)
    return position(p, scenario=kw.pop("scenario", "1"))


def frida(at: str, intent: str | None = None, mp: int | None = None, **kw: Any) -> dict:
    from meadhall.games.niflheim.figures import MP
    d = {"at": at, "intent": intent, "mp": MP[intent] if intent and mp is None else (mp or 0)}
    d.update(kw)
    return d


# A second, not yet activated hero keeps the hero turn going after Frida's activation ends.
IDLE = {"at": "A1"}


@pytest.mark.rule("niflheim", "Action Phase")
def test_intent_gives_0_3_6_mp() -> None:
    for intent, mp in (("stationary", 0), ("walking", 3), ("running", 6)):
        s = pos(open_map(6, 6), {"frida": frida("C3")})
        assert legal(s) == ["declare stationary", "declare walking", "declare running"]
        s.apply(f"declare {intent}")
        assert s.heroes["frida"].mp == mp


@pytest.mark.rule("niflheim", "Action Phase")
def test_must_declare_intent_first() -> None:
    s = pos(open_map(6, 6), {"frida": frida("C3")})
    with pytest.raises(IllegalAction) as e:
        s.apply("move C4")
    assert e.value.section == "Action Phase"


@pytest.mark.rule("niflheim", "Movement Actions (MA) - MP Cost")
def test_orthogonal_1_diagonal_2_hindering_plus_1() -> None:
    s = pos(open_map(6, 6, {"D3": "%"}), {"frida": frida("C3", "walking"), "killian": IDLE})
    s.apply("move C4")
    assert s.heroes["frida"].mp == 2
    s = pos(open_map(6, 6, {"D3": "%"}), {"frida": frida("C3", "walking"), "killian": IDLE})
    s.apply("move D4")
    assert s.heroes["frida"].mp == 1
    s = pos(open_map(6, 6, {"D3": "%"}), {"frida": frida("C3", "walking"), "killian": IDLE})
    s.apply("move D3")
    assert s.heroes["frida"].mp == 1


@pytest.mark.rule("niflheim", "Terrain")
def test_obstructive_and_dotted_red_block_movement() -> None:
    s = pos(open_map(6, 6, {"D3": "#", "C4": ":", "B3": "+"}),
            {"frida": frida("C3", "running")})
    moves = {a for a in legal(s) if a.startswith("move")}
    assert "move D3" not in moves and "move C4" not in moves and "move B3" not in moves
    assert "move C2" in moves


@pytest.mark.rule("niflheim", "Line of Sight")
def test_dotted_red_does_not_block_los() -> None:
    s = pos(open_map(6, 6, {"C3": ":"}), {"frida": frida("A3", "running")})
    assert s.board.sees((0, 2), (4, 2))
    s.board = s.board.with_square((2, 2), "#")
    assert not s.board.sees((0, 2), (4, 2))


@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_no_moving_through_figures() -> None:
    s = pos(open_map(6, 6), {"frida": frida("C3", "running"), "killian": {"at": "C4"}},
            [{"id": 1, "kind": "draugr", "at": "E5", "stunned": True}])
    moves = {a for a in legal(s) if a.startswith("move")}
    assert "move C4" not in moves and "move D3" in moves
    with pytest.raises(IllegalAction) as e:
        s.apply("move C4")
    assert e.value.section == "Movement - Heroes"


@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_diagonal_needs_one_free_side_square() -> None:
    rows = open_map(6, 6, {"D3": "#"})
    s = pos(rows, {"frida": frida("C3", "running"), "killian": {"at": "C2"}})
    assert "move D2" not in legal(s)  # C2 occupied, D3 obstructed
    s = pos(rows, {"frida": frida("C3", "running"), "killian": {"at": "A1"}})
    assert "move D2" in legal(s)


@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_diagonal_between_two_hindering_costs_plus_1() -> None:
    s = pos(open_map(6, 6, {"D3": "%", "C2": "%"}), {"frida": frida("C3", "running"),
                                                    "killian": IDLE})
    assert "move D2" in legal(s)
    s.apply("move D2")
    assert s.heroes["frida"].mp == 3


@pytest.mark.rule("niflheim", "Movement Examples")
def test_example_running_frida_diagonals_into_hindering() -> None:
    """Running, 6 MP: diagonal (2), diagonal into hindering (3); 1 MP cannot enter hindering."""
    s = pos(open_map(6, 9, {"D6": "%", "D5": "%", "E5": "%", "C5": "%"}),
            {"frida": frida("B8", "running"), "killian": IDLE})
    s.apply("move C7")
    assert s.heroes["frida"].mp == 4
    s.apply("move D6")
    assert s.heroes["frida"].mp == 1
    assert "move D5" not in legal(s)
    assert {"move D7", "move E6"} <= set(legal(s))


@pytest.mark.rule("niflheim", "Movement Examples")
def test_example_fire_or_rubble_player_chooses() -> None:
    """Diagonal between fire and rubble: 3 MP past the rubble, or 2 MP and a burn."""
    s = pos(open_map(6, 6, {"D3": "^", "C2": "%"}), {"frida": frida("C3", "running"),
                                                    "killian": IDLE})
    moves = {a for a in legal(s) if a.startswith("move D2")}
    assert moves == {"move D2 past C2", "move D2 past D3"}
    s.apply("move D2 past C2")
    assert s.heroes["frida"].mp == 3 and s.heroes["frida"].health == 4
    # If the rubble were obstructive she would be forced to take the burn.
    s = pos(open_map(6, 6, {"D3": "^", "C2": "#"}), {"frida": frida("C3", "running"),
                                                    "killian": IDLE})
    assert [a for a in legal(s) if a.startswith("move D2")] == ["move D2"]
    s.apply("move D2")
    assert s.heroes["frida"].mp == 4 and s.heroes["frida"].health == 3


@pytest.mark.rule("niflheim", "Movement Examples")
def test_example_walking_diagonal_then_open_door() -> None:
    rows = open_map(6, 6, {"E1": "#", "E2": "+", "E3": "#"})
    s = pos(rows, {"frida": frida("C3", "walking"), "killian": IDLE})
    s.apply("move D2")
    assert "open door E2" in legal(s)
    s.apply("open door E2")
    assert s.heroes["frida"].mp == 0 and s.board.at((4, 1)) == "/"
    # Running, opening the door costs 2 MP.
    s = pos(rows, {"frida": frida("D2", "running"), "killian": IDLE})
    s.apply("open door E2")
    assert s.heroes["frida"].mp == 4


@pytest.mark.rule("niflheim", "Movement Actions (MA) - MP Cost")
def test_pick_up_1_or_2_mp_on_or_adjacent() -> None:
    s = pos(open_map(6, 6), {"frida": frida("C3", "walking"), "killian": IDLE},
            items={"C4": ["torch"]})
    assert "pick up C4" in legal(s)
    s.apply("pick up C4")
    assert s.heroes["frida"].mp == 2 and s.heroes["frida"].gear == ["torch"]
    s = pos(open_map(6, 6), {"frida": frida("C3", "running"), "killian": IDLE},
            items={"C3": ["torch"]})
    s.apply("pick up C3")
    assert s.heroes["frida"].mp == 4
    s = pos(open_map(6, 6), {"frida": frida("C3", "running"), "killian": IDLE},
            items={"D4": ["torch"]})
    assert "pick up D4" not in legal(s)  # diagonally adjacent is not adjacent


@pytest.mark.rule("niflheim", "Movement Actions (MA) - MP Cost")
def test_pass_gear_costs_2_and_needs_adjacency() -> None:
    s = pos(open_map(6, 6), {"frida": frida("C3", "walking", gear=["torch"]),
                             "killian": {"at": "C4"}})
    s.apply("pass torch to killian")
    assert s.heroes["killian"].gear == ["torch"] and s.heroes["frida"].mp == 1


@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_exit_only_at_exit_point_for_1_mp() -> None:
    s = pos(open_map(12, 10), {"frida": frida("K7", "walking"), "killian": IDLE})
    assert not [a for a in legal(s) if a.startswith("exit")]
    s.apply("move L7")
    assert "exit E" in legal(s)
    s.apply("exit E")
    assert s.heroes["frida"].status == "exited"


@pytest.mark.rule("niflheim", "Special Actions")
def test_special_action_needs_stationary_and_whole_activation() -> None:
    p = {"done": []}
    s = pos(open_map(12, 10), {"frida": frida("C9", "walking"), "killian": IDLE}, **p)
    assert "search O2" not in legal(s)
    s = pos(open_map(12, 10), {"frida": frida("C9", "stationary"), "killian": IDLE}, **p)
    assert "search O2" in legal(s)
    s.apply("search O2")
    assert "O2" in s.done and s.heroes["frida"].supplies["healing_salves"] == 1
    assert s.heroes["frida"].activated and s.heroes["frida"].marker == "attacked"


@pytest.mark.rule("niflheim", "Special Actions")
def test_rescue_the_jarl_adjacent() -> None:
    s = pos(open_map(12, 10), {"frida": frida("J9", "stationary"), "killian": IDLE}, done=[])
    assert "rescue J" in legal(s)
    s.apply("rescue J")
    assert "J" in s.done and (10, 8) not in s.occupancy()


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_moving_into_zoc_stops_all_further_mas() -> None:
    s = pos(open_map(8, 8), {"frida": frida("B2", "running"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "E2"}])
    s.apply("move C2")
    s.apply("move D3")  # D3 is not adjacent to the draugr on E2
    assert not s.heroes["frida"].zoc_stop
    events = s.apply("move D2")
    assert any(e.kind == "zoc" for e in events)
    # No further MA was possible (2 MP were left): the activation ended by itself, as heroes
    # have no attack in scenario 1.
    assert s.heroes["frida"].activated and s.active == "killian"


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_stunned_undead_have_no_zoc() -> None:
    s = pos(open_map(8, 8), {"frida": frida("B2", "running"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "D2", "stunned": True}])
    s.apply("move C2")
    assert not s.heroes["frida"].zoc_stop and "move C3" in legal(s)


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_starting_in_zoc_may_move_out() -> None:
    s = pos(open_map(8, 8), {"frida": frida("C2", "walking"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "D2"}])
    assert "move B2" in legal(s)
    s.apply("move B2")
    assert s.heroes["frida"].mp == 2 and not s.heroes["frida"].zoc_stop


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_no_diagonal_between_two_different_zocs() -> None:
    # Side squares C2 (ZOC of undead 1 on C1) and B3 (ZOC of undead 2 on A3).
    s = pos(open_map(8, 8), {"frida": frida("B2", "running"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "C1"}, {"id": 2, "kind": "draugr", "at": "A3"}])
    assert "move C3" not in legal(s)
    # With one of them stunned the diagonal is allowed.
    s = pos(open_map(8, 8), {"frida": frida("B2", "running"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "C1"},
             {"id": 2, "kind": "draugr", "at": "A3", "stunned": True}])
    assert "move C3" in legal(s)


def test_position_format_example_loads() -> None:
    import json
    from pathlib import Path

    from meadhall.games.niflheim import GAME

    path = Path(__file__).parents[3] / "docs" / "formats" / "niflheim-example.json"
    s = GAME.from_json(json.loads(path.read_text()), str(path))
    assert s.heroes["frida"].ready == "sling" and s.undead[2].kind is None
    assert s.decision().seat == "frida"
    assert "attack undead 1 with sling" in legal(s)
    back = GAME.from_json(s.to_json())
    assert back == s and "Frida" in s.render()


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_step_from_zoc_square_to_zoc_square_stops() -> None:
    s = pos(open_map(8, 8), {"frida": frida("C2", "running"), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "D3"}])
    s.apply("move D2")  # from one square of the draugr's ZOC into another
    assert s.heroes["frida"].activated and s.active == "killian"


@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_illegal_actions_name_their_rule() -> None:
    s = pos(open_map(12, 10), {"frida": frida("C3", "walking"), "killian": IDLE})
    cases = {"exit E": "Movement - Heroes", "open door D3": "Movement Actions (MA) - MP Cost",
             "pick up C4": "Movement Actions (MA) - MP Cost", "move E5": "Movement - Heroes",
             "search O2": "Special Actions", "attack undead 1 with sling": "Action Phase"}
    for action, section in cases.items():
        with pytest.raises(IllegalAction) as e:
            s.apply(action)
        assert e.value.section == section, action
    s = pos(open_map(8, 8), {"frida": frida("C3", "walking", locked_by=1), "killian": IDLE},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    with pytest.raises(IllegalAction) as e:
        s.apply("move B3")
    assert e.value.section == "Locked Heroes"
