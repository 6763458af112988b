"""Rule fidelity, second pass (issue 14): each situation built by hand through the position
format and compared with the rulebook text."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import IllegalAction
from meadhall.games.midhalla.testkit import combat, legal, line, paused, run

G = games.get("midhalla")
R = "midhalla"


def prep(**pos):
    pos.setdefault("tiles", line(2, 3))
    st = paused(phase="preparation", **pos)
    run(st)
    return st


# ------------------------------------------------------------------ destroyed traps
@pytest.mark.rule(R, "Building Traps")
def test_a_destroyed_trap_does_not_count_toward_two_traps_per_tile() -> None:
    # "There can never be more than two traps on one map tile"; a destroyed trap "no longer
    # counts as a trap for any effects" (Hitpoints (HP), KO, destroyed & defeated)
    st = prep(silver=10, traps={"t1": {"kind": "spike", "tile": "t1", "hp": 0},
                                "t2": {"kind": "spike", "tile": "t1"}})
    assert "build Arrow Tower on t1" in legal(st)
    st.apply("build Arrow Tower on t1")
    assert [t.id for t in st.traps.values() if t.tile == "t1"] == ["t1", "t2", "t3"]
    assert "build Arrow Tower on t1" not in legal(st)  # two standing traps now
    with pytest.raises(IllegalAction, match="more than two traps"):
        st.apply("build Spike Trap on t1")


@pytest.mark.rule(R, "Upgrading Traps")
def test_a_destroyed_trap_is_restored_before_it_can_be_upgraded() -> None:
    st = prep(silver=5, runestones=5, components=["gear", "gear"],
              traps={"t1": {"kind": "spike", "tile": "t1", "hp": 0},
                     "t2": {"kind": "spike", "tile": "t1", "hp": 2}})
    ups = [t for t in legal(st) if t.startswith(("upgrade", "special"))]
    assert ups == ["upgrade t2 paying Gear", "special Serrated Blades on t2 paying Gear"]
    st.apply("restore t1")
    assert st.traps["t1"].hp == 3 and "upgrade t1 paying Gear" in legal(st)


@pytest.mark.rule(R, "Target Check")
def test_destroyed_traps_are_never_targets_and_never_activate() -> None:
    st = paused(
        phase="combat", tiles=line(2, 3),
        heroes={"harkon": {"tile": "G"}, "enyk": {"tile": "G"}},
        enemies={"e1": {"card": "root_spawn", "tile": "t1"}},
        traps={"t1": {"kind": "spike", "tile": "t1", "hp": 0}})
    ev = combat(st)
    assert st.traps["t1"].hp == 0 and st.enemies["e1"].tile == "G"  # no target: it moves
    assert not any("t1 attacks" in e.text for e in ev)


# ------------------------------------------------------------------ discard piles
@pytest.mark.rule(R, "4.8 Gain 3 trap components")
def test_spent_components_stay_in_the_discard_pile() -> None:
    # "a discard pile for spent trap components": no rule shuffles it back (ruling 8)
    st = paused(
        phase="rewards", rewards={"step": "gains"}, components=[],
        decks={"components": {"name": "components", "pile": ["rope"], "discard": ["gear",
                                                                                 "gear"]}})
    ev = run(st)
    assert st.components == ["rope"]
    assert st.decks["components"].discard == ["gear", "gear"]
    assert any(e.text == "The party gains trap components: Rope" for e in ev)


@pytest.mark.rule(R, "Events, Global Events, Quests and the Quest Board")
def test_an_empty_event_deck_is_not_refilled_from_its_discard_pile() -> None:
    st = paused(
        phase="exploration", script=[{"op": "draw_event", "deck": "tier1"}],
        decks={"tier1": {"name": "tier1", "pile": [], "discard": ["1", "2"]}})
    ev = run(st)
    assert any("The Tier 1 event deck is empty: nothing happens" in e.text for e in ev)
    assert st.decks["tier1"].discard == ["1", "2"]


@pytest.mark.rule(R, "2.2 Spawn Enemies")
def test_the_enemy_deck_still_reshuffles_its_discard_when_empty() -> None:
    # "If you are ever required to spawn an enemy and your deck is empty, shuffle the enemy
    # discard and draw a new one" - the one deck the rulebook refills
    assert G.new_game(None, 0).decks["enemy"].reshuffle
    assert G.new_game(None, 0).decks["elite"].reshuffle
    assert not any(d.reshuffle for n, d in G.new_game(None, 0).decks.items()
                   if n not in ("enemy", "elite"))


# ------------------------------------------------------------------ slow and bosses
@pytest.mark.rule(R, "Slow")
@pytest.mark.rule(R, "Activating Bosses")
def test_a_slowed_boss_keeps_its_slow_token_when_its_action_does_not_move() -> None:
    # bosses' "default move value ... is 0": Maul (no move) prevents no move
    st = paused(
        {"scenario": "chapter2", "heroes": ["harkon"]}, phase="combat",
        tiles=line(4, 1), heroes={"harkon": {"tile": "G"}},
        enemies={"e1": {"card": "demon_bear", "tile": "t4", "slow": "slowed"}})
    ev = combat(st)
    assert st.enemies["e1"].slow == "slowed" and st.enemies["e1"].tile == "t4"
    assert not any(e.kind == "slow" for e in ev)
    # Lumber (move 1 then attack the gate): now the Slow token stops the move and flips
    st.enemies["e1"].rotation = 1
    ev = combat(st)
    assert st.enemies["e1"].tile == "t4" and st.enemies["e1"].slow == "immune"
    assert any(e.kind == "slow" for e in ev)


@pytest.mark.rule(R, "Slow")
def test_a_slowed_enemy_that_need_not_move_keeps_its_slow_token() -> None:
    st = paused(
        phase="combat", tiles=line(2, 1),
        heroes={"harkon": {"tile": "t2"}, "enyk": {"tile": "t2"}},
        enemies={"e1": {"card": "draugr", "tile": "G", "slow": "slowed"}})
    combat(st)  # on the gate map tile: the gate check succeeds, no move is prevented
    assert st.enemies["e1"].slow == "slowed" and st.gate_hp == 18


# ------------------------------------------------------------------ the fate scale
@pytest.mark.rule(R, "Winning & Losing a Chapter - the Fate Scale")
def test_a_chapter_played_on_its_own_reads_the_leftmost_global_event() -> None:
    st = paused(
        {"scenario": "chapter1", "heroes": ["harkon", "enyk"], "party": {"fate": -4}},
        phase="epilogue", epilogue_read=True)
    ev = run(st)
    assert st.outcome().result == "win" and st.party["fate"] == -5
    assert any(e.kind == "global" and e.data["n"] == "14" for e in ev)
    assert "02" in st.party["unlocks"]["lore"]  # global event 14 was followed, not announced


# ------------------------------------------------------------------ skill rows
@pytest.mark.rule(R, "4.5 Level up")
@pytest.mark.rule(R, "Set up Player Areas")
def test_level_one_skills_go_to_the_row_their_arrow_shows() -> None:
    # Up-arrow Sling joins the top row, down-arrow Dash the bottom row, and First Aid (both
    # ways) goes where the players put it - the same arrows level 3 skills obey
    st = paused(
        {"scenario": "chapter1", "heroes": ["harkon", "enyk", "tora"]}, phase="setup",
        gifts=[],
        levelup={"level": 1, "pool": ["l1_sling", "l1_dash", "l1_first_aid", "l1_cut",
                                      "l1_jab"], "todo": ["harkon", "enyk", "tora"],
                 "card": None})
    run(st)
    assert st.decision().seat == "players"
    st.apply("take Dash")
    assert st.heroes["harkon"].bottom[-1] == "l1_dash" and len(st.heroes["harkon"].top) == 3
    st.apply("take Sling")
    assert st.heroes["enyk"].top[-1] == "l1_sling" and len(st.heroes["enyk"].bottom) == 3
    st.apply("take First Aid")
    assert st.decision().seat == "players"
    assert legal(st) == ["place in the top row", "place in the bottom row"]
    st.apply("place in the bottom row")
    assert st.heroes["tora"].bottom[-1] == "l1_first_aid"
    assert sorted(st.decks["level1"].discard) == ["l1_cut", "l1_jab"]


# ------------------------------------------------------------------ worked examples
def hero_turn(queue, enemies):
    """Harkon mid-turn on t1 with ``queue`` still to resolve (the skill's lines)."""
    st = paused(
        phase="combat", tiles=line(2, 2),
        heroes={"harkon": {"tile": "t1", "top_at": 0}, "enyk": {"tile": "G", "acted": True}},
        enemies=enemies,
        combat={"step": "heroes", "order": ["G", "t1", "t2"], "i": 0, "done": [], "cur": None,
                "sub": "", "left": 0, "action": None},
        hero_turn={"hero": "harkon", "stage": "bottom", "queue": queue, "pierce": False,
                   "source": "the example skill"})
    run(st)
    return st


TWO_KOBOLDS = {"e1": {"card": "kobold_slinger", "tile": "t1"},
               "e2": {"card": "kobold_slinger", "tile": "t1"}}


@pytest.mark.rule(R, "Targeting")
def test_separate_lines_each_choose_their_own_target() -> None:
    # "Attack 3 / Slow / Bleed (written as separate lines)": individual effects, each of which
    # can have its own target
    st = hero_turn([{"do": "attack", "value": 3, "linked": []}, {"do": "slow"},
                    {"do": "bleed", "value": 1}], TWO_KOBOLDS)
    assert legal(st) == ["attack e1", "attack e2", "skip attack"]
    st.apply("attack e1")
    assert "e1" not in st.enemies  # 3 damage defeats a 2 HP slinger
    assert legal(st) == ["slow e2", "skip slow"]
    st.apply("slow e2")
    assert legal(st) == ["bleed e2", "skip bleed"]
    st.apply("bleed e2")
    e2 = st.enemies["e2"]
    assert (e2.hp, e2.slow, e2.bleed) == (2, "slowed", 1)


@pytest.mark.rule(R, "Targeting")
def test_separate_lines_may_also_pick_the_same_target_or_be_skipped() -> None:
    st = hero_turn([{"do": "attack", "value": 1, "linked": []}, {"do": "slow"},
                    {"do": "bleed", "value": 1}], TWO_KOBOLDS)
    st.apply("attack e2")
    assert legal(st) == ["slow e1", "slow e2", "skip slow"]
    st.apply("slow e2")
    assert legal(st) == ["bleed e1", "bleed e2", "skip bleed"]
    st.apply("skip bleed")
    e2 = st.enemies["e2"]
    assert (e2.hp, e2.slow, e2.bleed) == (1, "slowed", 0)
    assert (st.enemies["e1"].slow, st.enemies["e1"].bleed) == ("", 0)


@pytest.mark.rule(R, "Targeting")
def test_linked_lines_apply_to_the_main_effects_target_only() -> None:
    # "Attack 3 / Slow / Bleed (written in smaller letters beneath the main effect, as linked
    # effects, applying to the target of the main effect)"
    st = hero_turn([{"do": "attack", "value": 1, "linked": [{"do": "slow"},
                                                            {"do": "bleed", "value": 1}]}],
                   TWO_KOBOLDS)
    assert legal(st) == ["attack e1", "attack e2", "skip attack"]
    st.apply("attack e2")
    e2 = st.enemies["e2"]
    assert (e2.hp, e2.slow, e2.bleed) == (1, "slowed", 1)
    assert (st.enemies["e1"].hp, st.enemies["e1"].slow, st.enemies["e1"].bleed) == (2, "", 0)
    assert legal(st)[0].startswith("skill bottom")  # no separate choice for linked lines


def exploring(at: str, side: str, tile: str, **tiles_more):
    tiles = {"L": {"at": [-1, 0], "links": {"E": "G"}, "fortified": True},
             "G": {"at": [0, 0], "links": {"W": "L", "E": "R"}, "fortified": True},
             "R": {"at": [1, 0], "links": {"W": "G"}, "fortified": True}, **tiles_more}
    tiles[at].setdefault("paths", {})[side] = "D"
    st = paused(
        {"scenario": "side_loot_den", "heroes": ["harkon"]}, phase="exploration",
        tiles=tiles, here=at, exploring=[at, side], explored_in_cycle=1,
        script=[{"op": "place", "tile": tile}, {"op": "_explored"}])
    run(st)
    return st


@pytest.mark.rule(R, "Placing Map Tiles")
def test_placing_18a_against_path_d_the_worked_example() -> None:
    # "if you just explored path D and need to place map tile 18A, 18A must be placed with its
    # side touching the connector D" - 18A is printed with its number on the top (N) side and
    # one path, E, at the bottom (S). The correct placement turns the tile so that the
    # numbered side faces D; the wrong one in the illustration (another side against D) is
    # never produced.
    st = exploring("R", "E", "18A")  # D on the right side of R
    t = st.tiles["18A"]
    assert (t.x, t.y) == (2, 0)
    assert t.links == {"W": "R"} and st.tiles["R"].links["E"] == "18A"  # N turned to face W
    assert t.paths == {"E": "E"}  # its bottom path turned with it, to the right
    assert ("E", "18A", "E") in st.board.unexplored()
    assert ("D", "R", "E") not in st.board.unexplored()  # D is explored now
    # the same tile against a D on the top side of a tile: numbered side down, path E up
    st = exploring("G", "N", "18A")
    t = st.tiles["18A"]
    assert (t.x, t.y) == (0, -1) and t.links == {"S": "G"} and t.paths == {"N": "E"}


@pytest.mark.rule(R, "Placing Map Tiles")
def test_a_tile_that_would_overlap_another_fails_loudly() -> None:
    from meadhall.core.errors import RuleNotImplemented

    with pytest.raises(RuleNotImplemented, match="overlap"):
        exploring("R", "E", "18A", X={"at": [2, 0]})
