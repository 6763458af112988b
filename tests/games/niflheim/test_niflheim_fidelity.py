"""Rule fidelity, second pass (issue 14): red lines everywhere adjacency matters, projectiles,
the preferred weapon, hindering diagonals, corruption at once, supplies and runestones that
travel with their weapons, readying both hands, rearranging after a search, covering in co-op.
Every situation is built from a hand-written position (docs/formats/niflheim.md)."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(heroes: dict[str, Any], ud: list[dict] | None = None, scenario: str = "3",
        rows: list[str] | None = None, **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows or open_map(8, 8), "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {},
                         "done": ["O1", "O2", "O3", "J"], "pool": {"draugr": 2},
                         "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


WALL = [["C3", "C4"]]
"""A red line between C3 and C4."""


# ----------------------------------------------------------------------------- red lines
@pytest.mark.rule("niflheim", "Terrain")
def test_undead_behind_a_red_line_neither_attacks_nor_locks() -> None:
    """"Obstructive terrain … blocks movement and can't be attacked through": a draugr on C4
    behind the red line C3|C4 is not adjacent to Frida on C3; it moves around to reach her."""
    s = pos({"frida": {"at": "C3"}}, [{"id": 1, "kind": "draugr", "at": "C4"}], walls=WALL)
    s.apply("end activation")
    assert s.heroes["frida"].locked_by is None
    assert legal(s) == ["undead 1 to B3", "undead 1 to D3"]  # adjacent to her, this side
    s.apply("undead 1 to D3")
    assert s.undead[1].at == grid.sq("D3") and s.heroes["frida"].locked_by is None


@pytest.mark.rule("niflheim", "Zone of Control (ZOC)")
def test_no_zone_of_control_through_a_red_line() -> None:
    s = pos({"frida": {"at": "C2"}}, [{"id": 1, "kind": "draugr", "at": "C4"}], walls=WALL)
    s.apply("move C3")
    assert not s.heroes["frida"].zoc_stop and "move B3" in legal(s)
    s = pos({"frida": {"at": "C2"}}, [{"id": 1, "kind": "draugr", "at": "C4"}])
    s.apply("move C3")
    assert s.heroes["frida"].zoc_stop


@pytest.mark.rule("niflheim", "Shields")
def test_shield_and_black_runestone_never_push_across_a_red_line() -> None:
    """Pushed "1 orthogonally adjacent square away"; a red line behind the target obstructs the
    square, so the target is stunned instead."""
    ud = [{"id": 1, "kind": "draugr", "at": "C4"}]
    s = pos({"frida": {"at": "C3", "ready": "shield"}}, ud, walls=[["C4", "C5"]])
    s.force(8)  # shield H2H 8/11: a stun, then the push
    s.apply("attack undead 1 with shield")
    assert s.undead[1].at == grid.sq("C4") and s.undead[1].stunned
    s = pos({"frida": {"at": "C3", "ready": "seax", "runes": {"seax": "black"}}}, ud,
            walls=[["C4", "C5"]], scenario="5")
    s.force(5)  # 5 + 0 >= 4: a stun, then the runestone's push
    s.apply("attack undead 1 with seax")
    assert s.undead[1].at == grid.sq("C4") and s.undead[1].stunned


@pytest.mark.rule("niflheim", "Line of Sight")
def test_line_through_the_joint_of_two_red_lines_in_a_row_is_blocked() -> None:
    """B1 to E4 passes exactly through the corner point between C2, D2, C3 and D3. Red lines
    C2|D2 and C3|D3 form one straight line there: blocked. One red line ending there is only
    touched at its end: not blocked."""
    b1, e4 = grid.sq("B1"), grid.sq("E4")
    s = pos({"frida": {"at": "B1"}}, walls=[["C2", "D2"], ["C3", "D3"]])
    assert not s.board.sees(b1, e4) and not s.board.sees(e4, b1)
    s = pos({"frida": {"at": "B1"}}, walls=[["C2", "D2"]])
    assert s.board.sees(b1, e4)
    # An L of red lines closes one quadrant: a line into it is blocked, one past it is not.
    s = pos({"frida": {"at": "B1"}}, walls=[["C2", "D2"], ["D2", "D3"]])
    assert s.board.sees(b1, e4)
    assert not s.board.sees(grid.sq("B4"), grid.sq("E1"))


@pytest.mark.rule("niflheim", "Passing Gear")
def test_no_passing_gear_or_special_action_across_a_red_line() -> None:
    s = pos({"frida": {"at": "C3", "gear": ["torch"]}, "killian": {"at": "C4"}}, walls=WALL)
    assert not [a for a in legal(s) if a.startswith("pass")]
    s = pos({"frida": {"at": "K4", "intent": "stationary", "mp": 0}}, done=["O2"],
            walls=[["K3", "K4"]], rows=open_map(14, 12))
    assert "search O1" not in legal(s)  # O1 is on K3, behind the red line


@pytest.mark.rule("niflheim", "Runestones")
def test_white_runestone_step_never_crosses_a_red_line() -> None:
    s = pos({"frida": {"at": "C3", "free_step": True}}, walls=WALL, scenario="5")
    assert "rune step C4" not in legal(s) and "rune step C2" in legal(s)


# ----------------------------------------------------------------------------- projectiles
@pytest.mark.rule("niflheim", "Projectile Weapons")
def test_no_attack_of_any_kind_with_a_projectile_weapon_and_no_projectile() -> None:
    """"For weapons using PRJs, you cannot make an attack without at least 1 PRJ available":
    the throwing knives cannot strike the adjacent draugr either (ruling 20)."""
    ud = [{"id": 1, "kind": "draugr", "at": "C4"}]
    s = pos({"frida": {"at": "C3", "ready": "throwing_knives",
                       "supplies": {"projectiles": 0}}}, ud)
    assert not [a for a in legal(s) if a.startswith("attack")]
    s.heroes["frida"].supplies["projectiles"] = 1
    assert "attack undead 1 with throwing knives" in legal(s)


@pytest.mark.rule("niflheim", "Projectile Weapons")
def test_projectile_loss_after_the_whole_attack_and_at_most_one() -> None:
    """Worked example: "if the first die rolled is a 1 and this reduces you to 0 PRJ, you still
    get to use the rest of the AD"; "A maximum of 1 PRJ can be lost per attack action". Two AD
    (Volley, authored: +1 AD)."""
    ud = [{"id": 1, "kind": "troll", "at": "C6"}]
    s = pos({"frida": {"at": "C2", "ready": "throwing_knives", "glory": 3, "skills": ["Volley"],
                       "supplies": {"projectiles": 1}}}, ud)
    s.force(1, 12)  # natural 1, then a 12 (10 needed to wound at range 4)
    s.apply("attack undead 1 with throwing knives using volley")
    assert s.undead[1].wounds == 1 and s.heroes["frida"].supplies["projectiles"] == 0
    s = pos({"frida": {"at": "C2", "ready": "throwing_knives", "glory": 3, "skills": ["Volley"],
                       "supplies": {"projectiles": 2}}}, ud)
    s.force(1, 1)
    s.apply("attack undead 1 with throwing knives using volley")
    assert s.heroes["frida"].supplies["projectiles"] == 1


# ----------------------------------------------------------------------------- movement
@pytest.mark.rule("niflheim", "Movement - Heroes")
def test_diagonal_into_hindering_between_hindering_costs_3() -> None:
    """"Hindering terrain has a penalty of 1 additional MP to move into or to pass through";
    "If both squares are hindering terrain, the movement always incurs the additional movement
    cost of +1 MP": one movement pays the +1 once (ruling 34)."""
    rows = open_map(8, 8, {"D4": "%", "C4": "%", "D3": "%"})
    s = pos({"frida": {"at": "C3", "intent": "running", "mp": 6}, "killian": {"at": "H8"}},
            rows=rows)
    s.apply("move D4")
    assert s.heroes["frida"].mp == 3
    rows = open_map(8, 8, {"C4": "%", "D3": "%"})
    s = pos({"frida": {"at": "C3", "intent": "running", "mp": 6}, "killian": {"at": "H8"}},
            rows=rows)
    s.apply("move D4")  # clear target, both sides hindering
    assert s.heroes["frida"].mp == 3


# ----------------------------------------------------------------------------- fate track
@pytest.mark.rule("niflheim", "Glory Cost of Skills Example")
def test_reaching_5_corruption_mid_activation_costs_1_mp_at_once() -> None:
    """"[The effects] take effect as soon as that position is reached": using Blade Flurry at
    3 Corruption reaches 5, and the -1 MP applies to the MP still to spend (ruling 35)."""
    ud = [{"id": 1, "kind": "troll", "at": "C4"}]
    s = pos({"frida": {"at": "C3", "ready": "seax", "glory": -3, "skills": ["Blade Flurry"],
                       "intent": "walking", "mp": 3}}, ud)
    s.force(2, 2)
    events = s.apply("attack undead 1 with seax using blade flurry")
    h = s.heroes["frida"]
    assert h.corruption == 5 and h.mp == 2 and h.fate_mp
    assert any(e.kind == "fate" and "-1 MP at once" in e.text for e in events)
    # Declared at 5 Corruption: the -1 is already paid, no second one.
    s = pos({"frida": {"at": "C3", "ready": "seax", "glory": -5, "skills": ["Blade Flurry"],
                       "intent": None, "mp": 0}}, ud)
    s.apply("declare walking")
    assert s.heroes["frida"].mp == 2 and s.heroes["frida"].fate_mp


# ----------------------------------------------------------------------------- gear
@pytest.mark.rule("niflheim", "Huskarl")
def test_no_phial_or_salve_passed_to_a_huskarl_who_carries_3() -> None:
    sup = {"projectiles": 0, "healing_salves": 1, "holy_water": 1}
    s = pos({"frida": {"at": "C3", "supplies": sup},
             "gunnar": {"at": "C4", "supplies": {"healing_salves": 3, "holy_water": 2}}})
    passes = [a for a in legal(s) if a.startswith("pass a")]
    assert passes == ["pass a holy water phial to gunnar"]
    s.apply("pass a holy water phial to gunnar")
    assert s.heroes["gunnar"].supplies["holy_water"] == 3
    assert s.heroes["frida"].supplies["holy_water"] == 0


@pytest.mark.rule("niflheim", "Runestones")
def test_a_runestone_goes_where_its_weapon_goes() -> None:
    """"A runestone may not be removed from a weapon once affixed": passed, dropped by a fallen
    hero and picked up again, the weapon keeps it."""
    s = pos({"frida": {"at": "C3", "gear": ["seax"], "ready": "sling",
                       "runes": {"seax": "black"}}, "killian": {"at": "C4", "ready": "axe"}},
            scenario="5")
    s.apply("pass seax to killian")
    s.apply("killian readies seax")
    assert s.heroes["killian"].runes == {"seax": "black"} and s.heroes["frida"].runes == {}
    s = pos({"frida": {"at": "C3", "health": 1, "locked_by": 1, "ready": "seax",
                       "runes": {"seax": "red"}, "intent": None, "mp": 0},
             "killian": {"at": "F3", "activated": True, "marker": "attacked"}},
            [{"id": 1, "kind": "draugr", "at": "C4"}], scenario="5")
    s.force(2)  # fails to break the lock; the draugr then kills her
    s.apply("declare walking")
    if s.decision().seat == "players":
        s.apply(s.decision().default)
    assert s.heroes["frida"].status == "dead"
    assert s.ground_runes == {grid.sq("C3"): {"seax": "red"}}
    back = GAME.from_json(s.to_json())
    assert back.ground_runes == s.ground_runes


@pytest.mark.rule("niflheim", "Movement Actions (MA) - MP Cost")
def test_readying_a_weapon_and_an_off_hand_weapon_is_one_ma() -> None:
    """"Change readied weapon(s) 1": both slots in one movement action."""
    s = pos({"frida": {"at": "C3", "ready": "sling", "gear": ["seax", "axe"]},
             "killian": {"at": "H8"}})
    assert "ready seax and axe off hand" in legal(s)
    s.apply("ready seax and axe off hand")
    h = s.heroes["frida"]
    assert (h.ready, h.off_hand, h.gear, h.mp) == ("seax", "axe", ["sling"], 2)
    s.apply("ready axe and seax off hand")  # swapping hands is one MA too
    assert (h.ready, h.off_hand, h.gear, h.mp) == ("axe", "seax", ["sling"], 1)


@pytest.mark.rule("niflheim", "Special Actions")
def test_after_a_search_found_items_and_readying_cost_no_mp() -> None:
    """"Once you performed a search action, you may immediately pick up any found items and
    rearrange your inventory at no MP cost.\""""
    s = pos({"frida": {"at": "K4", "intent": "stationary", "mp": 0, "ready": "sling",
                       "gear": ["seax"]}, "killian": {"at": "A11"}}, done=["O2"],
            rows=open_map(14, 12))
    s.apply("search O1")
    h = s.heroes["frida"]
    assert s.active == "frida" and h.rearranging == "K3"
    options = legal(s)
    assert "ready seax" in options and options[-1] == "end activation"
    assert all(a.startswith(("ready ", "pick up K3")) for a in options[:-1])
    s.apply("ready seax")  # one free change; nothing is left to do, so the activation ends
    assert h.ready == "seax" and h.mp == 0
    assert h.activated and h.rearranging is None and h.marker == "attacked"
    assert s.active == "killian"


# ----------------------------------------------------------------------------- co-op
@pytest.mark.rule("niflheim", "Co-op Play")
def test_covering_attacks_are_offered_to_the_controlling_player_only() -> None:
    setup = {"scenario": "5", "heroes": ["frida", "killian"],
             "players": {"ann": ["frida"], "bo": ["killian"]}}
    p: dict[str, Any] = {"map": open_map(10, 10), "active": "killian", "coin_used": True,
                         "heroes": {"frida": {"at": "A1", "ready": "sling",
                                              "marker": "cover walking", "activated": True},
                                    "killian": {"at": "H8", "intent": "walking", "mp": 3}},
                         "undead": [{"id": 1, "kind": "draugr", "at": "A5"},
                                    {"id": 2, "kind": None, "at": "A8"}],
                         "pool": {"draugr": 2}, "done": ["O2"], "segment": "heroes",
                         "control": {"frida": "ann", "killian": "bo"}}
    s = GAME.from_json({"game": "niflheim", "setup": setup, "position": p})
    assert s.decision().seat == "bo"
    assert not [a for a in legal(s) if a.startswith("cover:")]  # Frida is Ann's
    s.apply("end activation")
    # The undead turn: Ann, not the players, answers Frida's covering attack.
    while s.decision().section != "Covering":
        s.apply(s.decision().default or legal(s)[0])
    d = s.decision()
    assert d.seat == "ann" and d.default == "no cover attack"
    assert all(a == "no cover attack" or a.startswith("cover: frida") for a in legal(s))


# ----------------------------------------------------------------------------- campaign, texts
@pytest.mark.rule("niflheim", "Party Control Sheet")
def test_the_players_may_end_a_campaign_and_its_record_says_so() -> None:
    from meadhall.games.niflheim import campaign

    f = {"at": "L7", "intent": "walking", "mp": 3, "gear": ["torch"]}
    p: dict[str, Any] = {"scenario": "1", "heroes": {"frida": f}, "undead": [], "items": {},
                         "active": "frida", "coin_used": True, "done": ["J"],
                         "campaign": campaign.new_record()}
    s = GAME.from_json({"game": "niflheim", "setup": {"scenario": "1", "heroes": ["frida"],
                                                      "campaign": True}, "position": p})
    campaign.remember_start(s)
    s.apply("exit E")
    assert s.decision().default == "end the interim stage" and "end the campaign" in legal(s)
    s.apply("end the campaign")
    o = s.outcome()
    assert o.result == "loss" and "ended the campaign after scenario 1" in o.reason
    assert s.measures()["trigger"] == "ended_campaign" and s.camp["played"] == ["1"]


@pytest.mark.rule("niflheim", "Shields")
def test_sentences_say_what_the_engine_did() -> None:
    """An armoured troll that cannot be pushed is not said to be stunned instead; an orange
    force does not go to the discard area; no "loses 0 Glory"."""
    ud = [{"id": 1, "kind": "troll", "at": "C4"}]
    s = pos({"frida": {"at": "C3", "ready": "shield"}}, ud, walls=[["C4", "C5"]])
    s.force(8)
    text = " ".join(e.text for e in s.apply("attack undead 1 with shield"))
    assert "cannot be stunned instead" in text and "it is stunned instead" not in text
    s = pos({"frida": {"at": "C3", "ready": "seax"}}, [{"id": 1, "kind": "draugr", "at": "C4",
                                                        "orange": True}])
    s.force(12)
    text = " ".join(e.text for e in s.apply("attack undead 1 with seax"))
    assert "orange force" in text and "discard" not in text and s.discard == []
    s = pos({"frida": {"at": "N10", "intent": "walking", "mp": 3}}, rows=open_map(14, 12),
            done=["O1", "O2"])
    text = " ".join(e.text for e in s.apply("exit E"))
    assert "gains 1 Glory for completing the scenario" in text and "loses 0" not in text
