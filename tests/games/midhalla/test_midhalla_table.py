"""The drawn table (Game.draw), built from a seat's view, and the terminal's render/help."""

from __future__ import annotations

import json

from meadhall import games
from meadhall.core import draw
from meadhall.games.midhalla.testkit import combat, layout, line, paused, run

G = games.get("midhalla")


def combat_position(**more):
    tiles = line(3, 2)
    tiles["t3"]["curses"] = 2
    tiles["t2"]["token"] = "plus1"
    tiles["t3"]["paths"] = {"E": "D"}
    return paused(
        phase="combat", tiles=tiles, gate_hp=17, silver=4, runestones=3,
        components=["gear", "gear", "rope"],
        heroes={"harkon": {"tile": "t1", "hp": 5, "armor": 1}, "enyk": {"tile": "G"}},
        enemies={"e1": {"card": "kobold_warrior", "tile": "t2", "hp": 2},
                 "e2": {"card": "draugr", "tile": "t3", "bleed": 1}},
        traps={"t1": {"kind": "spike", "tile": "t1", "hp": 2}}, **more)


def test_scene_shows_the_dungeon_pieces_with_hp_and_the_party() -> None:
    st = combat_position()
    combat(st, "heroes")
    sc = G.draw(st.view("harkon"))
    json.dumps(sc.to_json())
    board = sc.boards[0]
    assert isinstance(board, draw.TileNetwork)
    tiles = {t.id: t for t in board.tiles}
    assert tiles["G"].terrain == "gate" and tiles["t1"].terrain == "fortified"
    assert tiles["t3"].terrain == "cursed" and "2 curse markers" in tiles["t3"].note
    tokens = {k.id: k for k in board.tokens}
    assert (tokens["e1"].hp, tokens["e1"].max_hp, tokens["e1"].at) == (2, 3, "t2")
    assert "evasion" in tokens["e1"].badges and "bleed 1" in tokens["e2"].badges
    assert tokens["e2"].stats["armor"] == 1 and tokens["e2"].stats["preferred target"] == "gate"
    assert (tokens["t1"].hp, tokens["t1"].max_hp) == (2, 3)
    assert (tokens["harkon"].hp, tokens["harkon"].target) == (5, "figure:harkon")
    assert "armor 1" in tokens["harkon"].badges
    assert tokens["path-D"].target == "space:path-D" and tokens["curse-t3"].glyph == "!!"
    assert tokens["spawn-t2"].glyph == "+1"
    tracks = {t.id: t for t in sc.tracks}
    assert tracks["gate"].value == 17 and tracks["silver"].value == 4
    assert tracks["runestones"].value == 3
    panels = {p.id: p for p in sc.panels}
    assert panels["hero-harkon"].seat == "harkon" and panels["hero-harkon"].target == "hero:harkon"
    fate = panels["party-sheet"].tracks[0]
    assert fate.spaces[fate.value].label == "0"
    assert [c.badges for c in panels["party"].cards] == [["x2"], ["x1"]]
    assert sc.dice[0].face == "17"


def test_every_target_of_every_legal_action_is_drawn_through_a_whole_game() -> None:
    from meadhall.bots.random import RandomBot
    for setup in ({"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]},
                  {"campaign": True}):
        st = G.new_game(setup, 3)
        bot = RandomBot(3)
        for _ in range(600):
            d = st.decision()
            if d is None:
                break
            drawn = G.draw(st.view(d.seat)).targets()
            for a in st.described_actions():
                for t in a.targets:
                    assert str(t) in drawn, (a.text, str(t))
            st.apply(bot.choose(st))


def test_rewards_phase_and_skill_pool_are_panels() -> None:
    st = paused(phase="rewards", rewards={"step": "ultimates"},
                              heroes={"harkon": {"ults_used": ["berserk_fury", "shield_wall"]},
                                      "enyk": {}})
    run(st)
    assert st.decision().section == "4.2 Refresh 1 Ultimate Ability"
    sc = G.draw(st.view("harkon"))
    panels = {p.id: p for p in sc.panels}
    steps = panels["rewards"].tracks[0]
    assert [s.id for s in steps.spaces][:2] == ["4.1", "4.2"] and steps.value == 1
    st.apply("refresh Shield Wall")
    while st.lv is None or not st.lv.get("pool"):
        st.apply(st.legal_actions()[0])
    panels = {p.id: p for p in G.draw(st.view(None)).panels}
    assert panels["skill-pool"].cards and all(c.target.startswith("card:pool.")
                                              for c in panels["skill-pool"].cards)


def test_render_keeps_reference_panels_for_help() -> None:
    st = combat_position()
    combat(st, "heroes")
    board = st.render()
    assert "Legend" not in board and "Dara's cart:" in board and "(Attack" not in board
    help_text = st.render_help()
    assert "Legend" in help_text and "Trap card Spike Trap" in help_text
    assert "Cleave (2*Attack 1)" in help_text
    assert "any component" in help_text  # the Arrow Tower's "?" reads as a name


def test_render_never_draws_empty_rows_between_far_tiles() -> None:
    st = paused(phase="combat", tiles=layout(
        {"G": (0, 0), "far": (10 ** 30, 0)}, [], {"G"}))
    assert len(st.render().splitlines()) < 40


def test_seats_are_the_setup_heroes_and_later_heroes_are_answered_by_the_players() -> None:
    st = G.new_game({"scenario": "chapter1", "heroes": ["harkon", "enyk"]}, 0)
    assert st.seats() == ["harkon", "enyk"]
    assert st.seat_of("harkon") == "harkon"
    assert st.seat_of("tora") == "players"  # joined a campaign after the table was set
    assert st.seat_of("players") == "players"
