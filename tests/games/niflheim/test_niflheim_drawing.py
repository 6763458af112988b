"""The drawn table: everything the physical game shows, from a seat's view only, with every
target of every legal action drawn; seats of solo and co-op play."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import draw
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME, campaign
from meadhall.games.niflheim.testkit import open_map, position
from meadhall.testing import check_presentation


def board(scene: draw.Scene) -> draw.SquareGrid:
    b = scene.boards[0]
    assert isinstance(b, draw.SquareGrid)
    return b


def tokens(scene: draw.Scene) -> dict[str, draw.Token]:
    return {t.id: t for t in board(scene).tokens}


@pytest.mark.rule("niflheim", "Setup")
def test_scenario_table_shows_map_markers_tracks_and_dashboard() -> None:
    s = GAME.new_game({"scenario": "2"}, seed=3)
    scene = GAME.draw(s.view("frida"))
    b = board(scene)
    assert (b.cols, b.rows) == (14, 10) and len(b.cells) == 140
    cells = {c.id: c for c in b.cells}
    assert cells["A1"].terrain == "#" and cells["A1"].closed
    assert cells["B2"].label == "V" and cells["N8"].label == "→"
    assert "exit point" in cells["N8"].note and cells["J6"].label == "S"
    assert {t.key for t in b.legend} >= {".", "#", "%", "+", "/"}
    tok = tokens(scene)
    face_down = [t for t in tok.values() if t.face_down]
    assert face_down and all(t.glyph.startswith("?") and "HV" not in t.stats
                             for t in face_down)
    assert tok["frida"].target == "figure:frida" and tok["frida"].side == "hero"
    assert tok["items-E4"].label == "Sling, Seax"
    round_track = scene.tracks[0]
    assert round_track.value == 0 and round_track.marks == {2: "spawn S", 5: "spawn S"}
    panel = scene.panels[0]
    assert panel.target == "hero:frida" and panel.seat == "frida"
    assert [sp.target for sp in panel.tracks[0].spaces] == [
        "space:frida-stationary", "space:frida-walking", "space:frida-running"]
    assert {c.title for c in panel.cards} >= {"Projectiles", "Healing Salves",
                                              "Holy Water Phials"}
    titles = {c.id: c for c in scene.cards}
    assert titles["pool"].face_down and titles["coin"].title == "Coin of Fate"


@pytest.mark.rule("niflheim", "Terrain")
def test_red_lines_doors_and_revealed_undead_are_drawn() -> None:
    p: dict[str, Any] = {"map": open_map(8, 8, {"D4": "+", "E4": "L"}),
                         "walls": [["B2", "B3"]], "forced": [],
                         "heroes": {"frida": {"at": "C3", "intent": "walking", "mp": 3,
                                              "ready": "sling"}},
                         "undead": [{"id": 1, "kind": "troll", "at": "G7", "wounds": 1,
                                     "stunned": False},
                                    {"id": 2, "kind": "draugr", "at": "C5", "stunned": True}],
                         "active": "frida", "pool": {"draugr": 1}, "done": ["O2"],
                         "coin_used": True}
    s = position(p, scenario="3")
    scene = GAME.draw(s.view("frida"))
    b = board(scene)
    assert [(w.a, w.b, w.kind) for w in b.walls] == [("B2", "B3", "wall")]
    cells = {c.id: c for c in b.cells}
    assert cells["D4"].terrain == "+" and cells["E4"].terrain == "L"
    tok = tokens(scene)
    troll = tok["undead1"]
    assert (troll.label, troll.hp, troll.max_hp, troll.glyph) == ("Troll 1", 1, 2, "T₁")  # never a square name
    assert troll.stats["HV"] == 2 and "armoured" in str(troll.stats["powers"])
    assert "stunned" in tok["undead2"].badges
    check_presentation(GAME, s, 0, 0)


@pytest.mark.rule("niflheim", "Revealing Undead")
def test_drawing_never_shows_what_determinization_resamples() -> None:
    s = GAME.new_game({"scenario": "3"}, seed=5)
    a = GAME.draw(s.determinize(Rng(1)).view(None)).to_json()
    b = GAME.draw(s.determinize(Rng(2)).view(None)).to_json()
    assert a == b


@pytest.mark.rule("niflheim", "Party Control Sheet")
def test_campaign_sheet_and_interim_stage_panels() -> None:
    f = {"at": "L7", "intent": "walking", "mp": 3, "gear": ["torch", "seax"], "health": 3,
         "xp": 5, "supplies": {"healing_salves": 1, "projectiles": 0, "holy_water": 0}}
    p: dict[str, Any] = {"scenario": "1", "heroes": {"frida": f}, "undead": [], "items": {},
                         "active": "frida", "coin_used": True, "done": ["J"],
                         "campaign": {**campaign.new_record(), "runestones": ["black"],
                                      "notes": ["Gunnar fell in scenario 1"]}}
    s = GAME.from_json({"game": "niflheim", "setup": {"scenario": "1", "heroes": ["frida"],
                                                      "campaign": True}, "position": p})
    campaign.remember_start(s)
    s.apply("exit E")
    scene = GAME.draw(s.view("frida"))
    panels = {p.id: p for p in scene.panels}
    pcs = panels["pcs"]
    assert {st.name: st.value for st in pcs.stats}["Last scenario played"] == "1"
    assert [c.target for c in pcs.cards] == ["card:rune-black"]
    assert "Party notes: Gunnar fell in scenario 1" in pcs.notes
    assert "interim" in panels
    check_presentation(GAME, s, 0, 0)
    s.apply("heal frida")
    check_presentation(GAME, s, 0, 1)


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_choices_are_drawn_as_option_cards() -> None:
    p: dict[str, Any] = {"map": open_map(8, 8), "heroes": {
        "frida": {"at": "C3", "intent": None, "mp": 0, "locked_by": 1}},
        "undead": [{"id": 1, "kind": "draugr", "at": "C4"}], "active": "frida",
        "pool": {"draugr": 1}, "coin_used": False}
    s = position(p, scenario="2")
    s.force(8)
    s.apply("declare walking")
    scene = GAME.draw(s.view(s.decision().seat))
    options = [c.target for c in scene.cards if c.kind == "choice"]
    assert options == ["option:keep-the-roll", "option:flip-the-coin-of-fate"]
    check_presentation(GAME, s, 0, 0)


@pytest.mark.rule("niflheim", "Co-op Play")
def test_seats_solo_and_co_op() -> None:
    solo = GAME.new_game({"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]}, 1)
    assert solo.seats() == ["frida"]  # solo: one person runs the whole party
    assert solo.seat_of("gunnar") == "frida" and solo.seat_of("archer") == "frida"
    coop = GAME.new_game({"scenario": "5", "heroes": ["frida", "killian"],
                          "players": {"ann": ["frida"], "bo": ["killian"]}}, 1)
    assert coop.seats() == ["ann", "bo"]
    assert coop.seat_of("killian") == "bo" and coop.seat_of("ann") == "ann"
    assert GAME.draw(coop.view(None)).panels[1].seat == "bo"


def test_legend_is_in_render_help_not_in_render() -> None:
    s = GAME.new_game({"scenario": "2"}, 1)
    assert "Legend" not in s.render() and "Legend" in s.render_help()
