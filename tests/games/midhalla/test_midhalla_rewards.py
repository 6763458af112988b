"""Phase 4: Rewards, the epilogue, and campaign play (party sheet, unlocks, fate scale)."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.games.midhalla.testkit import combat, legal, line, paused, position, run

G = games.get("midhalla")
R = "midhalla"


def rewards(players=("harkon", "enyk"), **pos):
    pos.setdefault("tiles", line(2, 1))
    return G.from_json(position({"scenario": "chapter1", "heroes": list(players)},
                                phase="rewards", rewards={"step": "quests"}, **pos))


def finish_levelup(st):
    while st.choice and st.choice.kind in ("level", "cover", "refresh", "row"):
        st.apply(legal(st)[0])


@pytest.mark.rule("midhalla", "4.1 Check Quest Objectives")
def test_quests_are_checked_and_story_markers_read() -> None:
    st = rewards(quests=[["tier1", "7"], ["tier2", "6"]], story=["V1"], gate_hp=16,
                 tally={"kos": 1}, silver=0, runestones=0)
    # Hold the Line (gate >= 15) is met: +3 silver; Keep Everyone Standing failed (a KO);
    # the story marker reads Verse 1: +2 runestones.
    assert st.silver == 3 and st.runestones == 2
    assert st.quests == [] and st.story == []
    assert st.decks["tier1"].discard == ["7"] and st.decks["tier2"].discard == ["6"]


@pytest.mark.rule("midhalla", "4.2 Refresh 1 Ultimate Ability")
def test_each_hero_refreshes_one_ultimate() -> None:
    st = rewards(heroes={"harkon": {"ults_used": ["berserk_fury", "shield_wall"]},
                         "enyk": {"ults_used": ["entangle"]}})
    assert st.decision().seat == "harkon"
    assert legal(st) == ["refresh Berserk Fury", "refresh Shield Wall"]
    st.apply("refresh Shield Wall")
    assert st.heroes["harkon"].ults_used == ["berserk_fury"]
    assert st.heroes["enyk"].ults_used == []


@pytest.mark.rule("midhalla", "4.3 Refresh used items")
def test_used_items_are_refreshed() -> None:
    st = rewards(heroes={"harkon": {"items": ["iron_shield"], "used_items": ["iron_shield"]},
                         "enyk": {}})
    assert st.heroes["harkon"].used_items == []


@pytest.mark.rule("midhalla", "4.4 Remove skill tokens and status tokens from hero boards")
def test_skill_and_status_tokens_are_removed() -> None:
    st = rewards(heroes={"harkon": {"top_at": 1, "bottom_at": 2, "exhausted": ["top:0"],
                                    "bleed": 2, "armor": 1}, "enyk": {}})
    h = st.heroes["harkon"]
    assert (h.top_at, h.bottom_at, h.exhausted, h.bleed, h.armor) == (None, None, [], 0, 0)


@pytest.mark.rule("midhalla", "4.5 Level up")
def test_first_rewards_gives_level_two_from_a_pool_of_players_plus_two() -> None:
    st = rewards(players=("harkon", "enyk", "tora"))
    assert st.lv["level"] == 2 and len(st.lv["pool"]) == 5
    pick = st.lv["pool"][1]
    st.apply(legal(st)[1])
    # every authored level 2 card shows a two-way arrow: Harkon's player picks the row
    assert st.decision().seat == "harkon"
    assert legal(st) == ["place in the top row", "place in the bottom row"]
    st.apply("place in the bottom row")
    assert st.heroes["harkon"].bottom[-1] == pick
    finish_levelup(st)
    assert len(st.decks["level2"].discard) == 2


@pytest.mark.rule("midhalla", "4.5 Level up")
def test_level_three_covers_a_skill_in_the_row_of_its_arrow() -> None:
    st = rewards(players=("harkon",), cycle=2,
                 decks={"level3": {"name": "level3", "top": ["l3_blink", "l3_whirlwind",
                                                              "l3_execution"]}})
    assert st.lv["level"] == 3 and st.lv["pool"] == ["l3_blink", "l3_whirlwind",
                                                      "l3_execution"]
    st.apply("take Blink")  # arrow down: bottom row only
    assert all(a.startswith("cover bottom") for a in legal(st))
    st.apply("cover bottom 2 Guard")
    assert st.heroes["harkon"].bottom[1] == "l3_blink"


@pytest.mark.rule("midhalla", "4.6 Add 2 items to Dara's cart")
def test_two_rare_items_silver_runestones_and_components() -> None:
    st = rewards(players=("harkon",), silver=1, runestones=1, components=[], cart=[])
    finish_levelup(st)
    rares = [i for i in st.cart if G.content.cat.items[i].kind == "rare"]
    assert len(rares) == 2
    assert st.silver == 7 and st.runestones == 3  # 4.7: +6 silver, +2 runestones
    assert len(st.components) == 3  # 4.8
    assert st.cycle == 2 and st.explored_in_cycle == 0


@pytest.mark.rule("midhalla", "4.7 Gain 6 silver and 2 runestones")
def test_reward_values_are_the_printed_ones() -> None:
    p = G.content.printed
    assert (p.reward_silver, p.reward_runestones, p.reward_components,
            p.reward_rare_items) == (6, 2, 3, 2)


@pytest.mark.rule("midhalla", "Cycles and Phases")
def test_chapter_one_has_two_cycles_and_ends_with_the_epilogue() -> None:
    st = paused({"scenario": "chapter1", "heroes": ["harkon"]}, phase="combat",
                              cycle=2, tiles=line(2, 1),
                              heroes={"harkon": {"tile": "G"}})
    ev = combat(st, "heroes")
    st.apply("skill top 1 Cleave")
    st.apply("skill bottom 1 Advance")
    st.apply("stay")
    ev = st.apply("end turn")
    assert [e.kind for e in ev if e.kind in ("epilogue", "win")] == ["epilogue", "win"]
    assert not any(e.section == "4.5 Level up" for e in ev)  # no rewards after the last combat
    assert st.outcome().result == "win"
    assert "chapter2" in st.party["unlocks"]["chapters"]


# ------------------------------------------------------------------ campaign
def campaign_end_of_chapter(won: bool, fate: int = 0, scenario: str = "chapter1"):
    party = {"fate": fate}
    st = G.new_game({"scenario": scenario, "heroes": ["harkon"], "campaign": True,
                     "party": party})
    st.choice = None
    st.phase = "combat"
    st.cycle = G.content.chapters[scenario].cycles
    ev: list = []
    st._unlock("lore", "09", ev)  # an in-chapter unlock (single stroke)
    if won:
        st.phase = "epilogue"
        run(st, ev)
    else:
        st._chapter_lost("test", ev)
        run(st, ev)
    return st, ev


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_winning_moves_fate_one_toward_wrath_and_keeps_unlocks() -> None:
    st, _ = campaign_end_of_chapter(True)
    assert st.party["fate"] == -1
    assert "09" in st.party["unlocks"]["lore"] and st.party["new"] == []
    assert st.phase == "interlude"
    assert legal(st) == ["play Chapter 2: Roots of the Tribute",
                         "play Side Chapter: The Loot Kobold's Den", "end the campaign"]


@pytest.mark.rule("midhalla", "Marking new Unlocks")
def test_losing_moves_fate_two_toward_blessing_and_loses_chapter_unlocks() -> None:
    st, _ = campaign_end_of_chapter(False)
    assert st.party["fate"] == 2
    assert "09" not in st.party["unlocks"]["lore"]
    # replay the lost chapter, or stop here
    assert legal(st) == ["play Chapter 1: The Sealed Gate", "end the campaign"]


@pytest.mark.rule("midhalla", "Winning & Losing a Chapter - the Fate Scale")
def test_reaching_the_leftmost_position_reads_its_global_event() -> None:
    st, ev = campaign_end_of_chapter(True, fate=-4)
    assert st.party["fate"] == -5
    assert any(e.kind == "global" and e.data["n"] == "14" for e in ev)


@pytest.mark.rule("midhalla", "Campaign Play")
def test_campaign_saves_between_chapters_and_continues() -> None:
    st, _ = campaign_end_of_chapter(True)
    back = G.from_json(st.to_json())
    assert back == st
    back.apply("play Chapter 2: Roots of the Tribute")
    assert legal(back)[0] == "start the chapter"
    back.apply("start the chapter")
    # Wrath of Isyl 1: no unfortified tile for the curse marker, so the gate loses 1 HP
    assert back.chapter == "chapter2" and back.gate_hp == 19 and back.silver == 6
    assert back.party["completed"] == ["chapter1"]
    assert "frost_rune" in back.party["unlocks"]["traps"]  # Types of Unlocks: traps


@pytest.mark.rule("midhalla", "Types of Unlocks")
def test_unlocked_items_go_to_the_cart_or_to_a_hero_now() -> None:
    st = G.from_json(position(phase="exploration", cart=[]))
    ev: list = []
    st._unlock("item", "war_horn", ev)
    st._unlock("item", "master_coin", ev)
    assert st.cart == ["war_horn"]
    run(st)
    assert st.decision().prompt.startswith("Give the unique item")


@pytest.mark.rule("midhalla", "The Party Sheet")
def test_party_sheet_evolving_events_build_next_chapters_decks() -> None:
    st = G.new_game({"scenario": "chapter1", "heroes": ["harkon"],
                     "party": {"events": {"tier1": {"4": "11", "6": "8", "8": "10"}}}})
    cards = st.decks["tier1"].cards()
    assert "4" not in cards and "11" in cards and "10" in cards and "6" not in cards


@pytest.mark.rule("midhalla", "Campaign Play")
def test_drop_in_drop_out_between_chapters_with_unlocked_classes() -> None:
    st, _ = campaign_end_of_chapter(True)
    st.apply("play Side Chapter: The Loot Kobold's Den")
    acts = legal(st)
    assert "add Brand" in acts  # unlocked by the chapter 1 epilogue
    st.apply("add Brand")
    st.apply("add Enyk")
    assert "remove Harkon" in legal(st)
    st.apply("remove Harkon")
    st.apply("start the chapter")
    assert list(st.heroes) == ["brand", "enyk"] and st.chapter == "side_loot_den"
    assert st.party["completed"] == ["chapter1"]


@pytest.mark.rule("midhalla", "Campaign Play")
def test_the_players_can_end_the_campaign_and_its_record_says_how() -> None:
    st, _ = campaign_end_of_chapter(False)
    ev = st.apply("end the campaign")
    o = st.outcome()
    assert o.result == "loss" and "the players ended the campaign" in o.reason
    assert st.party["ended"]["how"] == "the players ended the campaign before completing it"
    assert st.party["ended"]["lost"] == 1 and st.party["ended"]["won"] == []
    assert any(e.kind == "campaign" for e in ev)
    assert st.measures()["trigger"] == "campaign_ended"
    assert st.measures()["chapters_lost"] == 1


@pytest.mark.rule("midhalla", "Campaign Play")
def test_abandoning_a_campaign_is_recorded_on_the_party_sheet() -> None:
    st, _ = campaign_end_of_chapter(True)
    st.concede("we stop here")
    assert st.outcome().result == "loss"
    assert st.party["ended"]["how"] == "the players conceded: we stop here"
    assert st.party["ended"]["won"] == ["chapter1"]
    assert st.measures()["trigger"] == "conceded"
    assert G.from_json(st.to_json()) == st  # the record is in the save
