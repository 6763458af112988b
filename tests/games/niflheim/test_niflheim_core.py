"""Core concepts: Coin of Fate, adjacency, conflicting rules, co-op, party, characters; scenario
1 setup, final phase, completion."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.core.errors import ContentError
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {}, "done": ["J", "O2"],
                         "pool": {"draugr": 2}, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=kw.get("scenario", "1"))


def locked() -> Any:
    return pos(open_map(8, 8), {"frida": {"at": "C3", "intent": None, "mp": 0, "locked_by": 1},
                                "killian": {"at": "H8"}},
               [{"id": 1, "kind": "draugr", "at": "C4"}])


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_coin_offered_after_a_roll_keep() -> None:
    s = locked()
    s.force(8)
    s.apply("declare walking")  # 8 + 0 < 10
    d = s.decision()
    assert d.section == "Coin of Fate" and d.default == "keep the roll"
    assert legal(s) == ["keep the roll", "flip the coin of fate"]
    assert "rolled 8" in d.prompt
    s.apply("keep the roll")
    assert s.heroes["frida"].locked_by == 1 and not s.coin_used


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_coin_heads_rerolls_tails_keeps_once_per_scenario() -> None:
    s = locked()
    s.force(8)
    s.apply("declare walking")
    s.force("heads", 11)
    events = s.apply("flip the coin of fate")
    assert s.coin_used and s.heroes["frida"].locked_by is None
    assert any("heads" in e.text for e in events)
    # The coin and the re-rolled die are shown with the walking hero's modifier (0).
    flip = next(e for e in events if e.kind == "coin")
    assert flip.data["dice"] == [{"kind": "coin", "face": "heads", "modifier": 0},
                                 {"kind": "d12", "face": "11", "modifier": 0}]
    # Once used, no further roll offers the coin.
    s2 = locked()
    s2.coin_used = True
    s2.force(3)
    s2.apply("declare walking")
    assert s2.decision().seat == "killian"
    s3 = locked()
    s3.force(8)
    s3.apply("declare walking")
    s3.force("tails")
    s3.apply("flip the coin of fate")
    assert s3.coin_used and s3.heroes["frida"].locked_by == 1


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_coin_inside_a_players_choice_keeps_that_choice() -> None:
    rows = open_map(10, 9, {"G6": "%", "G7": "#"})
    ud = [{"id": 1, "kind": "draugr", "at": "D6"}, {"id": 2, "kind": "draugr", "at": "H6"},
          {"id": 3, "kind": "draugr", "at": "H5"}]
    s = pos(rows, {"frida": {"at": "F6"}}, ud, coin_used=True)
    s.apply("end activation")
    s.coin_used = False
    s.force(12, 1)
    s.apply("activate undead 2")  # the initiative roll of the next round offers the coin
    assert s.decision().section == "Coin of Fate"
    s.apply("keep the roll")
    s.apply("keep the roll")
    assert s.decision().section == "Initiative Segment"
    assert grid.name(s.undead[3].at) == "G5"


def _coin_position(chance: str = "seeded") -> Any:
    """Frida ends her activation; the draugr moves towards her, the round ends, and the next
    round's initiative roll asks for the Coin of Fate."""
    p: dict[str, Any] = {"map": ["#.#"] * 10, "active": "frida", "items": {},
                         "done": ["J", "O2"], "pool": {"draugr": 2}, "coin_used": False,
                         "order": ["heroes", "undead"], "turn": 0,
                         "heroes": {"frida": {"at": "B3", "intent": "walking", "mp": 3}},
                         "undead": [{"id": 1, "kind": "draugr", "at": "B8"}],
                         "spawn": {"S": ["B10"]}}  # a hand-drawn map names its spawn square
    return GAME.from_json({"game": "niflheim", "setup": {"scenario": "1", "heroes": ["frida"]},
                           "chance": {"mode": chance}, "position": p})


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_events_before_the_coin_question_come_with_it_and_never_twice() -> None:
    """Issue 13: the step's own events arrive with the question, named with what the roll
    decides; after the answer only the new events follow."""
    s = _coin_position()
    s.force(9, 3)
    first = [e.text for e in s.apply("end activation")]
    assert any(t.startswith("Draugr 1 moves to") for t in first)
    assert any(t.startswith("End of the round") for t in first)
    assert first[-1].startswith("heroes' initiative roll (higher than the undead's wins): 9")
    assert s.decision().section == "Coin of Fate" and "rolled 9" in s.decision().prompt
    second = [e.text for e in s.apply("keep the roll")]
    assert not any(t in first for t in second)
    assert second[-1].startswith("undead initiative roll (-4; cannot beat or tie the heroes' 9): 3")
    third = [e.text for e in s.apply("keep the roll")]
    assert not any(t in first + second for t in third)
    assert any("heroes win" in t for t in third)


@pytest.mark.rule("niflheim", "Coin of Fate")
@pytest.mark.rule("niflheim", "Revealing Undead")
def test_a_marker_revealed_before_the_coin_question_keeps_the_identity_told() -> None:
    """The setup reveals markers, then the initiative roll asks about the coin: the identities
    the players were told stay (they were once redrawn when the step was replayed), and the
    board shows them while the players decide."""
    checked = 0
    for scenario in ("33", "5"):
        for seed in range(8):
            s, events = GAME.start({"scenario": scenario, "heroes": ["frida"]}, seed)
            told = {e.data["undead"]: e.data["kind"] for e in events if e.kind == "reveal"}
            while s.decision() is not None and s.decision().section == "Coin of Fate":
                shown = {u["id"]: u["kind"] for u in s.view()["undead"]}
                assert all(shown[i] == k for i, k in told.items())
                for e in s.apply("keep the roll"):
                    if e.kind == "reveal":
                        told[e.data["undead"]] = e.data["kind"]
            assert {i: s.undead[i].kind for i in told if i in s.undead} == \
                {i: k for i, k in told.items() if i in s.undead}
            checked += len(told)
    assert checked > 0


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_table_mode_events_before_each_question() -> None:
    s = _coin_position("table")
    first = [e.text for e in s.apply("end activation")]
    assert any(t.startswith("Draugr 1 moves to") for t in first)
    assert s.decision().seat == "chance" and "heroes' initiative roll" in s.decision().prompt
    second = [e.text for e in s.apply("result 9")]
    assert not any(t in first for t in second) and s.decision().section == "Coin of Fate"
    third = [e.text for e in s.apply("keep the roll")]
    assert not any(t in first + second for t in third) and s.decision().seat == "chance"
    fourth = [e.text for e in s.apply("result 3")]
    assert not any(t in first + second + third for t in fourth)
    fifth = [e.text for e in s.apply("keep the roll")]
    assert any("heroes win" in t for t in fifth)
    assert not any(t in first + second + third + fourth for t in fifth)


@pytest.mark.rule("niflheim", "Adjacency")
def test_adjacent_means_orthogonal() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3"}}, [{"id": 1, "kind": "draugr", "at": "D4"}],
            coin_used=True)
    from meadhall.games.niflheim import undead
    assert undead.attack_targets(s, s.undead[1]) == []  # diagonal: not adjacent
    assert (2, 2) not in undead.zoc(s)


@pytest.mark.rule("niflheim", "Conflicting Rules")
def test_scenario_rule_overrides_covering() -> None:
    """Scenario 1's rule (always an Attacked marker) takes precedence over covering."""
    s = pos(open_map(8, 8), {"frida": {"at": "C3"}, "killian": {"at": "H8"}}, coin_used=True)
    s.apply("end activation")
    assert s.heroes["frida"].marker == "attacked"
    s = position({"map": open_map(8, 8), "heroes": {"frida": {"at": "C3", "intent": "walking",
                                                             "mp": 3},
                                                   "killian": {"at": "H8"}},
                  "undead": [], "active": "frida", "items": {}, "done": ["O2"],
                  "coin_used": True}, scenario="2")
    s.apply("end activation")
    assert s.heroes["frida"].marker == "cover walking"


@pytest.mark.rule("niflheim", "Co-op Play")
@pytest.mark.rule("niflheim", "Play Area")
def test_two_characters_on_or_adjacent_to_v_choose_activation_order() -> None:
    s = GAME.new_game({"scenario": "1", "heroes": ["frida", "killian"]}, seed=2,
                      auto_choices=True)
    v = (2, 2)
    assert {s.heroes["frida"].at, s.heroes["killian"].at} <= {v, *grid.neighbours(v)}
    s = pos(open_map(8, 8), {"frida": {"at": "A1", "intent": None}, "killian": {"at": "H8"}},
            coin_used=True, active=None, choice={
                "kind": "activate hero", "prompt": "Which hero activates next?",
                "section": "Action Phase", "options": ["activate frida", "activate killian"],
                "default": "activate frida"})
    assert s.decision().seat == "players"
    s.apply("activate killian")
    assert s.decision().seat == "killian"


@pytest.mark.rule("niflheim", "Party")
@pytest.mark.rule("niflheim", "Choose Your Character")
def test_setup_validates_characters_and_party_size() -> None:
    with pytest.raises(ContentError):
        GAME.new_game({"scenario": "1", "heroes": ["nobody"]})
    with pytest.raises(ContentError):
        GAME.new_game({"scenario": "1", "heroes": ["frida", "frida"]})
    with pytest.raises(ContentError):
        GAME.new_game({"scenario": "1", "heroes": ["frida", "killian", "ulf"]})
    assert {i.id for i in GAME.heroes()} >= {"frida", "killian"}


@pytest.mark.rule("niflheim", "Heroes")
def test_undead_chase_the_closest_hero_of_the_party() -> None:
    from meadhall.games.niflheim import undead
    s = pos(open_map(10, 1), {"frida": {"at": "A1"}, "killian": {"at": "J1"}},
            [{"id": 1, "kind": "draugr", "at": "G1"}], coin_used=True)
    assert undead.closest(s, s.undead[1]) == (2, ["killian"])


@pytest.mark.rule("niflheim", "Final Phase")
def test_final_phase_of_hero_turn_does_nothing_and_spawn_is_in_undead_final_phase() -> None:
    s = pos(open_map(12, 10), {"frida": {"at": "A1"}}, track=2, coin_used=True)
    s.force(12, 1)
    events = s.apply("end activation")
    kinds = [e.kind for e in events]
    assert kinds.index("spawn") > kinds.index("turn", 1) and kinds[-1] == "initiative"


@pytest.mark.rule("niflheim", "Complete Scenario 1")
@pytest.mark.rule("niflheim", "Finished Scenario 1")
def test_complete_scenario_1_gives_xp_and_reads_exit_text() -> None:
    s = pos(open_map(12, 10), {"frida": {"at": "L7", "gear": ["torch"]}}, done=["J", "O2"],
            coin_used=True)
    events = s.apply("exit E")
    assert s.outcome().result == "win"
    assert s.heroes["frida"].xp == 2  # completion + all secondary objectives
    assert any(e.kind == "exit text" for e in events)


@pytest.mark.rule("niflheim", "Scenario Book Rules Layout")
def test_orange_forces_are_not_in_the_pool() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "A1"}},
            [{"id": 1, "kind": "troll", "at": "H8", "orange": True}], pool={"draugr": 1},
            coin_used=True)
    from meadhall.games.niflheim import combat
    combat.wound_undead(s, s.undead[1], None, [])
    combat.wound_undead(s, s.undead[1], None, [])
    assert 1 not in s.undead and s.discard == []


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_killed_hero_drops_gear() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "health": 1, "locked_by": 1, "gear": ["torch"]},
                             "killian": {"at": "H8", "activated": True}},
            [{"id": 1, "kind": "draugr", "at": "C4"}], coin_used=True)
    s.force(12, 1)
    s.apply("end activation")
    assert s.heroes["frida"].status == "dead" and s.items[(2, 2)] == ["torch"]
    assert not s.outcome().over


def _campaign(seed: int = 1) -> Any:
    return GAME.new_game({"scenario": "1", "heroes": ["frida"], "campaign": True}, seed=seed,
                         auto_choices=True)
