"""Setup and Phase 1: Exploration - paths, map tiles, verses, events, quests, timed
exploration and the global events."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import ContentError, RuleNotImplemented
from meadhall.games.midhalla.content import Chapter, _check
from meadhall.games.midhalla.testkit import legal, position, run

G = games.get("midhalla")
R = "midhalla"


def new(setup=None, seed=0):
    return G.new_game(setup or {"scenario": "chapter1", "heroes": ["harkon", "enyk"]}, seed)


def to_exploration(st):
    """Take the setup decisions (unique item, level 1 skills) with the first option."""
    while st.phase == "setup" or st.gifts:
        st.apply(legal(st)[0])
    return st


# ------------------------------------------------------------------ setup
@pytest.mark.rule("midhalla", "Set up the Main Play Area")
def test_dungeon_board_resources_components_and_cart() -> None:
    st = new()
    assert st.gate_hp == 20 and st.silver == 6 and st.runestones == 5
    assert len(st.components) == 5
    commons = [i for i in st.cart if G.content.cat.items[i].kind == "common"]
    rares = [i for i in st.cart if G.content.cat.items[i].kind == "rare"]
    assert len(commons) == 5 and len(rares) == 2
    assert {t for t, v in st.tiles.items() if v.fortified} == {"L", "G", "R"}


@pytest.mark.rule("midhalla", "Set up Player Areas")
def test_level_one_pool_is_players_plus_two_and_each_hero_takes_one() -> None:
    st = new({"scenario": "chapter1", "heroes": ["harkon", "enyk", "tora"]})
    st.apply(legal(st)[0])  # the unique item
    assert len(st.lv["pool"]) == 5
    # "Collectively assign one to each hero": the players together, hero by hero
    assert st.decision().seat == "players" and len(legal(st)) == 5
    assert "Harkon" in st.decision().prompt
    first = st.lv["pool"][0]
    st.apply(legal(st)[0])
    assert st.heroes["harkon"].top[-1] == first and len(st.heroes["harkon"].top) == 4
    st.apply(legal(st)[0])
    st.apply(legal(st)[0])
    assert st.phase == "exploration" and len(st.decks["level1"].discard) == 2
    assert all(h.hp == h.max_hp for h in st.heroes.values())


@pytest.mark.rule("midhalla", "Setup")
def test_unique_items_are_distributed_by_the_players() -> None:
    st = new()
    assert legal(st) == ["give Runic Talisman to Harkon", "give Runic Talisman to Enyk"]
    st.apply("give Runic Talisman to Enyk")
    assert st.heroes["enyk"].items == ["runic_talisman"]


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_blessing_gives_two_silver_per_point() -> None:
    st = new({"scenario": "chapter1", "heroes": ["harkon"], "party": {"fate": 2}})
    assert st.silver == 6 + 4


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_wrath_curses_without_unfortified_tiles_cost_gate_hp() -> None:
    st = new({"scenario": "chapter1", "heroes": ["harkon"], "party": {"fate": -3}})
    assert st.gate_hp == 17


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_wrath_curses_are_spread_evenly_by_the_players() -> None:
    from meadhall.games.midhalla.testkit import line
    st = G.from_json(position(phase="setup", tiles=line(3, 2), curses_to_place=3))
    assert legal(st) == ["curse t2", "curse t3"]
    st.apply("curse t3")  # the second marker must go on t2 (fewest markers): no choice
    assert (st.tiles["t2"].curses, st.tiles["t3"].curses) == (1, 1)
    assert legal(st) == ["curse t2", "curse t3"]
    st.apply("curse t2")
    assert (st.tiles["t2"].curses, st.tiles["t3"].curses) == (2, 1)


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_curse_adds_hp_per_player_after_the_first() -> None:
    from meadhall.games.midhalla.testkit import line
    tiles = line(3, 1)
    tiles["t2"]["curses"] = 2
    st = G.from_json(position({"scenario": "chapter1", "heroes": ["harkon", "enyk", "tora"]},
                              phase="preparation", tiles=tiles))
    st.apply("done preparing")
    e = next(e for e in st.enemies.values() if e.tile == "t2")
    base = G.content.cat.enemies[e.card].hp[2]
    assert e.max_hp == base + 2 * 2


# ------------------------------------------------------------------ exploration
@pytest.mark.rule("midhalla", "1.1 Choose an unexplored Path to explore")
def test_only_unexplored_paths_can_be_explored() -> None:
    st = to_exploration(new())
    assert legal(st) == ["explore A", "explore B"]
    st.apply("explore B")
    assert legal(st) == ["explore A", "explore D", "explore E"]


@pytest.mark.rule("midhalla", "Placing Map Tiles")
def test_numbered_side_touches_the_explored_path_and_paths_turn_with_the_tile() -> None:
    st = to_exploration(new())
    st.apply("explore B")
    t = st.tiles["2A"]
    assert (t.x, t.y) == (2, 0) and t.links == {"W": "R"}
    # printed with its number on top (N), paths E=D and S=E; turned to face west
    assert t.paths == {"N": "D", "E": "E"}


@pytest.mark.rule("midhalla", "Phase 1: Exploration")
def test_exploration_ends_when_the_campaign_book_says_so() -> None:
    st = to_exploration(new())
    # The chapter's (authored, tuned) number of explorations in cycle 1: exploring goes on
    # until exactly that many paths are explored.
    quota = st.chapter_data.explorations_per_cycle[0]
    st.apply("explore B")
    st.apply("explore D")
    for _ in range(quota - 2):
        assert st.phase == "exploration" and st.explored_in_cycle < quota
        st.apply(next(a for a in legal(st) if a.startswith("explore")))
        while st.phase == "exploration" and not legal(st)[0].startswith("explore"):
            st.apply(legal(st)[-1])  # the event the section drew
    assert st.explored_in_cycle == quota
    assert st.phase == "preparation" and st.story[0] == "V1"


@pytest.mark.rule("midhalla", "Verses")
def test_a_section_can_link_to_a_verse() -> None:
    st = to_exploration(new())
    st.apply("explore A")
    while st.decision().section != "1.1 Choose an unexplored Path to explore":
        st.apply(legal(st)[-1])
    st.explored_in_cycle = 0
    st.apply("explore C")
    st.explored_in_cycle = 0
    st.gate_hp = 15
    ev = st.apply("explore F")
    assert any(e.kind == "verse" for e in ev) and st.gate_hp == 16


@pytest.mark.rule("midhalla", "Events, Global Events, Quests and the Quest Board")
def test_event_choice_leads_to_a_global_event_and_an_evolving_deck() -> None:
    st = to_exploration(new())
    st.force("4")
    st.apply("explore A")
    assert legal(st) == ["take the offering (read global event 01)",
                         "restore the circle (read global event 05)"]
    ev = st.apply("take the offering (read global event 01)")
    assert any(e.kind == "global" and e.data["n"] == "01" for e in ev)
    assert "4" not in st.decks["tier1"].cards() and "11" in st.decks["tier1"].cards()
    assert st.party["events"]["tier1"] == {"4": "11"}
    assert st.silver == 8


@pytest.mark.rule("midhalla", "Quests")
def test_quest_events_go_on_the_quest_board() -> None:
    st = to_exploration(new())
    st.force("7")
    st.apply("explore A")
    assert st.quests == [["tier1", "7"]]
    assert "7" not in st.decks["tier1"].discard


@pytest.mark.rule("midhalla", "1.2 Read Campaignbook")
def test_timed_exploration_moves_the_timer_and_triggers_its_steps() -> None:
    st = G.from_json(position({"scenario": "side_loot_den", "heroes": ["harkon"]},
                              phase="exploration", timer=2))
    st.force("2")  # tier 1 event 2: a component
    st.apply("explore A")
    assert st.timer == 3 and st.tiles["17A"].token == "elite"
    st.timer = 4
    st.apply("explore B")
    assert st.timer == 5 and st.gate_hp == 18


# ------------------------------------------------------------------ global events
def global_event(n: str, **pos):
    pos.setdefault("here", "L")
    st = G.from_json(position(phase="exploration", explored_in_cycle=0, **pos))
    st.script = [{"op": "global", "n": n}]
    ev = run(st)
    return st, ev


@pytest.mark.rule("midhalla", "Global Events")
def test_global_07_atone_pays_a_runestone_and_reads_16() -> None:
    st, _ = global_event("07", runestones=1, gate_hp=19)
    assert legal(st) == ["atone (pay 1 runestone, read global event 16)",
                         "do not atone (read global event 19)"]
    st.apply("atone (pay 1 runestone, read global event 16)")
    assert st.runestones == 0 and st.gate_hp == 20 and "04" in st.party["unlocks"]["lore"]


@pytest.mark.rule("midhalla", "Global Events")
def test_global_07_without_runestones_reads_19() -> None:
    st, ev = global_event("07", runestones=0, heroes={"harkon": {"hp": 4}, "enyk": {"hp": 3}},
                          silver=5)
    # 19: all but the lowest-HP hero suffer one damage; a spike trap may be built here
    assert st.heroes["harkon"].hp == 3 and st.heroes["enyk"].hp == 3
    assert legal(st)[0].startswith("build Spike Trap on L")


@pytest.mark.rule("midhalla", "Global Events")
def test_global_19_ties_for_lowest_hp_are_a_players_choice() -> None:
    st, _ = global_event("19", heroes={"harkon": {"hp": 3}, "enyk": {"hp": 3}}, silver=0)
    assert legal(st) == ["spare Harkon", "spare Enyk"]
    st.apply("spare Enyk")
    assert st.heroes["harkon"].hp == 2 and st.heroes["enyk"].hp == 3


@pytest.mark.rule("midhalla", "Global Events")
def test_global_11_gains_silver_and_spawns_the_mimic_here() -> None:
    st, _ = global_event("11", silver=0)
    assert st.silver == 3
    assert [e.card for e in st.enemies.values()] == ["mimic"]
    assert "chapter12" in st.party["unlocks"]["chapters"]


@pytest.mark.rule("midhalla", "Global Events")
def test_global_14_unlocks_the_first_missing_lore_then_component_20() -> None:
    st, _ = global_event("14", party={"unlocks": {"lore": ["02"]}, "new": [], "completed": [],
                                      "events": {}, "fate": 0})
    assert "20" in st.party["unlocks"]["lore"]
    st2, _ = global_event("14", party={"unlocks": {"lore": ["02", "20", "06", "07"],
                                                   "components": []},
                                       "new": [], "completed": [], "events": {}, "fate": 0},
                          components=[])
    assert st2.components == ["20"]


@pytest.mark.rule("midhalla", "Global Events")
def test_global_06_does_not_end_the_chapter_in_this_build() -> None:
    st, ev = global_event("06")
    assert st.phase == "exploration" and not st.outcome().over
    assert "chapter12" in st.party["unlocks"]["chapters"]
    with pytest.raises(RuleNotImplemented):
        G.new_game({"scenario": "chapter12"})


@pytest.mark.rule("midhalla", "Global Events")
def test_global_18_has_no_text_and_no_effect() -> None:
    st, ev = global_event("18")
    assert [e.kind for e in ev][:1] == ["global"]
    assert st.gate_hp == 20 and st.silver == 6


@pytest.mark.rule("midhalla", "Global Events")
def test_missing_global_events_15_and_17_cannot_be_referenced() -> None:
    ch = G.content.chapters["chapter1"]
    bad = Chapter.model_validate({**ch.model_dump(), "verses": {
        "V9": {"text": "x", "ops": [{"op": "global", "n": "15"}]}}})
    content = G.content.model_copy(update={"chapters": {"chapter1": bad}})
    with pytest.raises(ContentError, match="not printed"):
        _check(content)


@pytest.mark.rule("midhalla", "Global Events")
def test_every_printed_global_event_resolves() -> None:
    for n in G.content.printed.global_events:
        st, _ = global_event(n, runestones=3, silver=9)
        for _ in range(5):
            if st.choice is None or st.phase != "exploration":
                break
            if st.choice["kind"] == "explore":
                break
            st.apply(legal(st)[-1])
    assert set(G.content.printed.global_events) == {
        f"{i:02d}" for i in range(1, 20)} - {"15", "17"}


@pytest.mark.rule("midhalla", "Placing Map Tiles")
@pytest.mark.parametrize("chapter", sorted(G.content.chapters))
def test_every_path_of_every_chapter_places_its_tile_without_overlap(chapter: str) -> None:
    from meadhall.games.midhalla.board import Board
    st = G.from_json(position({"scenario": chapter, "heroes": ["harkon"]}, phase="exploration"))
    ch = G.content.chapters[chapter]
    placed = 0
    while True:
        paths = [p for p in Board(st.tiles).unexplored() if p[0] in ch.sections]
        if not paths:
            break
        letter, tile, side = paths[0]
        st.exploring = [tile, side]
        for op in ch.sections[letter].ops:
            if op.op == "place":
                st._op_place(op.model_dump(), [])
                placed += 1
    assert placed == sum(1 for s in ch.sections.values() for o in s.ops if o.op == "place")


@pytest.mark.rule("midhalla", "Types of Unlocks")
def test_a_decision_marked_in_chapter_one_changes_chapter_two() -> None:
    st = G.from_json(position(phase="exploration", explored_in_cycle=0))
    st.exploring = ["R", "E"]  # follow section H as if path H were on the right board tile
    st.script = [o.model_dump() for o in G.content.chapters["chapter1"].sections["H"].ops]
    st.here = "R"
    run(st)
    st.apply("spare the scout (mark the decision on the party sheet)")
    assert "spared_scout" in st.party["unlocks"]["decisions"]
    nxt = G.new_game({"scenario": "chapter2", "heroes": ["harkon"],
                      "party": {"unlocks": {"decisions": ["spared_scout"]}}})
    assert nxt.silver == 6 + 2
