"""The table drawn from a seat's view, and the terminal board (walls, closed areas, the Rounds
track's letters explained, lines within 100 columns, legends in the help)."""

from __future__ import annotations

from bf_helpers import GAME, fresh

from meadhall.core import draw


def scene_of(s) -> draw.Scene:
    d = s.decision()
    return GAME.draw(s.view(d.seat if d else None))


def test_the_map_shows_walls_closed_areas_altars_and_spawns() -> None:
    s = fresh()
    sc = scene_of(s)
    board = sc.boards[0]
    assert isinstance(board, draw.HexGrid) and board.offset == "odd-r"
    m = GAME.content.scenarios["last_flame"].map
    assert {frozenset((w.a, w.b)) for w in board.walls} == {frozenset(w) for w in m.walls}
    cells = {c.id: c for c in board.cells}
    for a in m.god_inaccessible:
        assert cells[a].closed and "closed to Thor" in cells[a].note
    assert cells["A1"].terrain == "rock" and cells["A1"].target == ""
    assert cells["D1"].terrain == "start"
    assert "altar" in cells["B3"].label and "spawn" in cells["A2"].label
    assert "Point of Interest" in cells["A5"].note


def test_thor_is_drawn_with_his_facing_and_six_faces() -> None:
    s = fresh()
    s.thor.update(area="D5", activated=True, destroyed=["blue"])
    s.thor["damage"]["red"] = 1
    s.set_face("red", 2)  # south-east
    sc = scene_of(s)
    thor = next(t for t in sc.boards[0].tokens if t.id == "thor")
    assert thor.at == "D5" and thor.facing == 150 and thor.target == "figure:thor"
    panel = next(p for p in sc.panels if p.id == "thor")
    faces = {t.id: t for t in panel.tokens}
    assert set(faces) == {f"thor-{f}" for f in GAME.content.god.faces}
    assert faces["thor-blue"].badges == ["destroyed"]
    assert faces["thor-red"].hp == 3 and faces["thor-red"].max_hp == 4
    assert faces["thor-red"].target == "figure:thor-red"


def test_each_champion_has_a_rondel_with_cubes_health_fury_and_form_cards() -> None:
    s = fresh()
    r = s.champs["ragnar"]
    r.rondel = [["c", "c", "t"], [], ["f"], [], [], ["c"]]
    panel = next(p for p in scene_of(s).panels if p.id == "champion-ragnar")
    rondel = panel.tracks[0]
    assert rondel.cyclic and [sp.target for sp in rondel.spaces] == [
        f"rondel:ragnar:{i}" for i in range(1, 7)]
    cubes = {(t.at, t.label) for t in rondel.tokens}
    assert cubes == {("1", "2 Action Cubes"), ("1", "1 Temporary Cube"),
                     ("3", "1 Frost Cube"), ("6", "1 Action Cube")}
    assert panel.tracks[1].value == 12 and panel.tracks[2].value == 0
    assert [c.target for c in panel.cards] == ["card:ragnar-human", "card:ragnar-berserker"]


def test_the_rounds_track_explains_its_symbols() -> None:
    s = fresh()
    track = scene_of(s).tracks[0]
    assert track.value == 0 and len(track.spaces) == 13
    assert track.spaces[0].note == "triangle Spawning Area A2"
    assert "lose" in track.spaces[-1].note


def test_every_drawn_target_of_the_legal_actions_is_in_the_scene() -> None:
    s = fresh()
    drawn = scene_of(s).targets()
    for a in s.described_actions():
        for t in a.targets:
            assert str(t) in drawn, (a.text, str(t))


def test_terminal_board_draws_walls_closed_areas_and_explains_the_track() -> None:
    s = fresh("last_flame", ("ragnar", "lagertha", "gunnar", "lynxshade"))
    s.champs["lynxshade"].stunned = True
    s.champs["lynxshade"].centre = ["c", "t"]
    s.champs["lynxshade"].form = "berserker"
    s.champs["lynxshade"].boons = [{"symbol": "reroll", "level": 2}] * 6
    s.champs["lynxshade"].rondel = [["c", "t", "f"]] * 6
    text = s.render()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert " .    |." in lines[4]  # the wall D4|E4
    assert ".x" in lines[3]  # A3 and G3: Thor cannot enter
    assert "track letters: the round's Spawning Area (t triangle A2" in text
    assert "Legend" not in text and "Mel melee" in s.render_help()
