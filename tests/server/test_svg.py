"""The SVG renderer draws every piece of the drawing vocabulary, built by hand here."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from meadhall import games
from meadhall.core import draw
from meadhall.core.protocol import CHANCE, PLAYERS, Game
from meadhall.server import svg

LEGAL = svg.Highlights(notes={"square:B1": "2 MP", "figure:troll": "5+", "area:A2": "",
                              "tile:gate": "", "space:fate:3": "", "rondel:ada:2": "",
                              "card:axe": "", "hero:ada": ""},
                       labels={"square:B1": ["Ada moves to B1 (2 MP)"],
                               "figure:troll": ["Attack the troll: 5+ stuns"],
                               "area:A2": ["Thor turns to A2"], "tile:gate": ["Go to the gate"],
                               "space:fate:3": ["Fate 3"], "rondel:ada:2": ["Rondel to 2"],
                               "card:axe": ["Play the axe"], "hero:ada": ["Pick Ada"]})


def parse(html: str) -> ET.Element:
    """The HTML fragment as XML: the renderer writes well-formed markup."""
    return ET.fromstring(f"<root>{html}</root>")


def legal_targets(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-target"): e for e in root.iter() if e.get("data-target")}


def square_board() -> draw.SquareGrid:
    cells = [draw.Cell("A1", 0, 0, "."), draw.Cell("B1", 1, 0, "."),
             draw.Cell("A2", 0, 1, "#"), draw.Cell("B2", 1, 1, "X", "exit", closed=True,
                                                   note="locked")]
    return draw.SquareGrid(
        "map", 2, 2, cells,
        walls=[draw.Wall("A1", "B1"), draw.Wall("A1", "A2", "door"),
               draw.Wall("B1", "B2", "open")],
        tokens=[draw.Token("ada", "Ada", "A", "hero", "A1", target="figure:ada"),
                draw.Token("troll", "The troll", "T", "enemy", "B1", target="figure:troll",
                           hp=3, max_hp=5, badges=["stunned"], stats={"move": 2}),
                draw.Token("crate", "Crate", "c", "marker", "B1"),
                draw.Token("ghost", "Hidden", "", "enemy", "nowhere", face_down=True)],
        legend=[draw.Terrain(".", "Floor"), draw.Terrain("#", "Wall", "rock", "hatch"),
                draw.Terrain("X", "Exit", "gold", "", "X")], title="The map")


def test_square_grid_cells_walls_doors_tokens() -> None:
    html = svg.board_svg(square_board(), LEGAL)
    root = parse(html)
    legal = legal_targets(root)
    assert set(legal) == {"square:B1", "figure:troll"}
    b1 = legal["square:B1"]
    assert b1.get("tabindex") == "0" and b1.get("role") == "button"
    assert "Ada moves to B1 (2 MP)" in b1.get("aria-label", "")
    assert "2 MP" in "".join(b1.itertext())
    # every target, legal or not, has a title and an aria label
    for e in root.iter():
        if e.get("data-ref") or e.get("data-target"):
            assert e.get("aria-label"), e.attrib
            assert any(c.tag.endswith("title") for c in e) or e.get("title"), e.attrib
    assert html.count('class="wall"') == 1
    assert 'class="door door"' in html and 'class="door open"' in html
    assert "url(#pat-hatch)" in html and "locked" in html
    # the troll's health and state are written, not only coloured
    troll = legal["figure:troll"]
    assert "health 3/5" in troll.get("aria-label", "") and "stunned" in troll.get("aria-label", "")
    # a token standing nowhere on the board is still shown, beside it
    assert "Hidden; face down" in html


def test_sides_have_distinct_shapes() -> None:
    """Colour is never the only cue: each side's token outline differs."""
    outlines = set()
    for side in ("hero", "enemy", "boss", "ally", "neutral", "marker", "god"):
        t = draw.Token(side, side, "x", side)  # type: ignore[arg-type]
        frag = svg.token_svg(t, 20, 20, 10, svg.Highlights())
        first = re.search(r"</title><(\w+) ([^/]*)/>", frag)
        assert first is not None
        outlines.add(first.group(1) + re.sub(r"fill=\"[^\"]*\"", "", first.group(2)))
    assert len(outlines) == 7


def test_hex_grid_odd_r_offsets_and_walls() -> None:
    cells = [draw.Cell(f"{c}{r}", c, r, "g") for r in range(3) for c in range(3)]
    cells[4].closed = True
    b = draw.HexGrid("arena", 3, 3, cells, walls=[draw.Wall("00", "10")],
                     tokens=[draw.Token("thor", "Thor", "Th", "god", "11", target="figure:thor",
                                        facing=60, cells=["11", "21"])],
                     legend=[draw.Terrain("g", "Ground", "grass", "dots")])
    for c in b.cells:
        c.target = f"area:{'A2' if c.id == '01' else c.id}"
    root = parse(svg.board_svg(b, LEGAL))
    assert set(legal_targets(root)) == {"area:A2"}
    # odd rows are shifted half a hex right
    x0, _ = svg.hex_centre(0, 0, 10)
    x1, _ = svg.hex_centre(0, 1, 10)
    assert x1 - x0 == pytest.approx(10 * 3 ** 0.5 / 2)
    xe, _ = svg.hex_centre(0, 0, 10, "even-r")
    assert xe == pytest.approx(x1)
    html = svg.board_svg(b, LEGAL)
    assert 'class="facing"' in html and "facing 60°" in html and 'class="wall"' in html
    assert 'class="closed"' in html


def test_wall_is_the_shared_edge() -> None:
    x1, y1, x2, y2 = svg._edge((0, 0), (10, 0), 10)
    assert (x1, x2) == (5, 5) and sorted([y1, y2]) == [-5, 5]


def test_tile_network_links_slots_tokens() -> None:
    b = draw.TileNetwork(
        "dungeon",
        [draw.Tile("gate", 0, 0, "The Gate", "g", slots=["gate-s1", "gate-s2"]),
         draw.Tile("t1", 1, 0, "Crypt", note="trap 2 HP"), draw.Tile("t2", 1, 1, "Hall")],
        links=[draw.Link("gate", "t1", "1", directed=True), draw.Link("t1", "t2")],
        tokens=[draw.Token("trap", "Spike trap", "S", "marker", "gate-s1", hp=2),
                draw.Token("orc", "Orc", "O", "enemy", "t1", hp=4, target="figure:orc")],
        legend=[draw.Terrain("g", "Gate", "gold", "grid", "G")], title="Dungeon")
    html = svg.board_svg(b, LEGAL)
    root = parse(html)
    assert set(legal_targets(root)) == {"tile:gate"}
    assert 'marker-end="url(#mh-arrow)"' in html and "path from gate to t1 (1)" in html
    assert "Spike trap" in html and "trap 2 HP" in html
    refs = {e.get("data-ref") for e in root.iter() if e.get("data-ref")}
    assert {"tile:t1", "tile:t2", "figure:orc"} <= refs


def test_track_and_rondel() -> None:
    t = draw.Track("fate", "Fate", [draw.Space(str(i), str(i), f"space:fate:{i}")
                                    for i in range(6)], value=2, marks={4: "spawn"},
                   tokens=[draw.Token("cube", "Cube", "", "marker", "1")])
    root = parse(svg.track_svg(t, LEGAL))
    assert set(legal_targets(root)) == {"space:fate:3"}
    assert "(marker here)" in svg.track_svg(t, LEGAL) and "spawn" in svg.track_svg(t, LEGAL)
    r = draw.Track("rondel", "Ada's rondel", [draw.Space(str(i), lab, f"rondel:ada:{i}")
                                              for i, lab in enumerate(["melee", "move", "rest",
                                                                       "defend"])],
                   value=0, cyclic=True)
    html = svg.track_svg(r, LEGAL)
    root = parse(html)
    assert set(legal_targets(root)) == {"rondel:ada:2"}
    assert html.count("<path d=") == 4 and "rondel" in html


def test_cards_dice_panels_scene() -> None:
    cards = [draw.Card("axe", "Axe", "2 damage", "weapon", target="card:axe", badges=["ready"]),
             draw.Card("deck", "Wind deck", "7 cards", "deck", face_down=True)]
    root = parse("".join(svg.card_html(c, LEGAL) for c in cards))
    assert set(legal_targets(root)) == {"card:axe"}
    assert "Wind deck (face down) (7 cards)" in svg.card_html(cards[1], LEGAL)
    d6 = svg.die_html(draw.Die("d6", "5", 2, "attack"))
    assert d6.count("<circle") == 5 and "+2" in d6 and "attack d6 showing 5 +2" in d6
    d12 = svg.die_html(draw.Die("d12", "11", colour="red"))
    assert ">11<" in d12
    panel = draw.Panel("ada", "Ada", "ada", [draw.Stat("Health", "7/12")],
                       tracks=[draw.Track("xp", "XP", [draw.Space("0"), draw.Space("1")], 0)],
                       cards=cards[:1], tokens=[draw.Token("rune", "Rune", "R", "marker",
                                                           facing=90)],
                       dice=[draw.Die("d6", "3")], notes=["stunned"], target="hero:ada")
    other = draw.Panel("bo", "Bo", "bo")
    scene = draw.Scene("Test", [square_board()], [draw.Track("round", "Round",
                                                             [draw.Space("1")], 0)],
                       [other, panel], cards[1:], [draw.Die("d6", "6")], ["a note"],
                       subtitle="Round 3: the undead turn")
    html = svg.scene_html(scene, LEGAL, seat="ada")
    root = parse(html)
    assert set(legal_targets(root)) == {"square:B1", "figure:troll", "card:axe", "hero:ada"}
    # the seat's own panel comes first and is marked
    assert html.index("(your seat)") < html.index("<h3>Bo")
    assert "Health" in html and "7/12" in html and "a note" in html and "legend" in html
    assert "Round 3: the undead turn" in html


def test_text_is_escaped() -> None:
    t = draw.Token("x", "<script>alert(1)</script>", "&", "hero", target='figure:"x"')
    html = svg.token_svg(t, 10, 10, 5, svg.Highlights({'figure:"x"': ""}, {'figure:"x"': ["<b>"]}))
    assert "<script>" not in html and "&lt;b&gt;" in html
    parse(html)


@pytest.mark.parametrize("gid", games.ids())
def test_every_game_scene_renders_with_its_targets(gid: str) -> None:
    """Each registered game's own drawing renders, and every legal target is clickable."""
    g = games.get(gid)
    if type(g).draw is Game.draw:
        pytest.xfail(f"{gid}: no drawing (Game.draw) yet")
    state = g.new_game(g.default_setup(), seed=3)
    d = state.decision()
    seat = state.seat_of(d.seat) if d and d.seat not in (PLAYERS, CHANCE) else None
    acts = [a.to_json() for a in state.described_actions()]
    hl = svg.Highlights.from_actions(acts)
    html = svg.scene_html(g.draw(state.view(seat)), hl, seat)
    root = parse(html)
    drawn = set(legal_targets(root))
    for a in acts:
        for t in a["targets"]:
            assert t["ref"] in drawn, f"{gid}: target {t['ref']} of {a['text']!r} not drawn"
