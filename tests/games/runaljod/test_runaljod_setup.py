"""Setup, interaction (search, explore), game modes and content (Adventure Mode (Single
Session); Interaction; Game Modes; Components; Hero Board)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, sq, texts

from meadhall.core.errors import ContentError, RuleNotImplemented
from meadhall.games.runaljod import GAME


@pytest.mark.rule("runaljod", "Adventure Mode (Single Session)")
def test_setup_altar_time_exploration_deck_and_initial_tile() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva", "hunter"], "players": 3}, seed=5)
    assert len(st.altar) == 4 and all(side == "up" for _, side in st.altar)
    assert st.time == 0 and st.end == 12  # the third snake clockwise
    card = GAME.content.exploration[st.active_card]
    assert card.stage == "I"
    assert len(st.exploration) == 3 and len(st.exploration.pile) == 2
    assert GAME.content.exploration[st.exploration.bottom[0]].stage == "C"
    expected = [el for el in card.elements if el.kind == "enemy" and 3 in el.heroes]
    assert len(st.enemies) == len(expected)
    assert all(h.skill_points == 2 for h in st.heroes.values())
    assert st.decision().seat == "players"  # starting spaces are the players' choice
    while st.decision().seat == "players":
        st.apply(st.decision().default)
    assert all(h.at is not None for h in st.heroes.values())


@pytest.mark.rule("runaljod", "Setup")
def test_setup_rejects_unknown_heroes_and_one_player_needs_two_heroes() -> None:
    with pytest.raises(ContentError):
        GAME.new_game({"heroes": ["loki", "volva"]})
    with pytest.raises(ContentError):
        GAME.new_game({"heroes": ["berserk", "volva", "hunter"], "players": 1})


@pytest.mark.rule("runaljod", "Single-Player Game")
def test_single_player_plays_two_heroes_with_the_two_player_card() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    st.heroes["volva"].damage = 3
    assert "2-player card: heal 2 for volva" in texts(st)
    st.apply("2-player card: heal 2 for volva")
    assert st.heroes["volva"].damage == 1
    assert not any(a.startswith("2-player") for a in texts(st))  # once per turn


@pytest.mark.rule("runaljod", "2 Player Game")
def test_two_player_card_only_with_two_heroes() -> None:
    st = make(heroes=("berserk", "volva", "hunter"))
    put(st, "berserk", "A1")
    st.heroes["berserk"].damage = 3
    assert not any(a.startswith("2-player") for a in texts(st))


@pytest.mark.rule("runaljod", "Adventure Mode")
@pytest.mark.rule("runaljod", "Game Modes")
def test_level_two_adventure_three_points_level_two_deck_and_two_gifts() -> None:
    st = GAME.new_game({"scenario": "adventure-level2", "heroes": ["warrior", "hunter"]},
                       seed=1)
    assert all(h.skill_points == 3 for h in st.heroes.values())
    assert set(st.equipment_deck.cards()) <= set(GAME.content.equipment_l2)
    assert len(st.equipment_deck) == len(GAME.content.equipment_l2) - 2
    d = st.decision()
    assert d.seat == "players" and d.prompt.startswith("Level 2 adventure")
    item = texts(st)[0].split()[1]
    st.apply(next(t for t in texts(st) if t.startswith(f"give {item} to warrior")))
    assert item in st.heroes["warrior"].equipment


@pytest.mark.rule("runaljod", "Campaign Mode")
def test_campaign_is_not_in_the_rulebook_and_fails_loudly() -> None:
    with pytest.raises(RuleNotImplemented):
        GAME.new_game({"scenario": "campaign"})


@pytest.mark.rule("runaljod", "Epic Campaigns")
def test_epic_campaign_fails_loudly() -> None:
    with pytest.raises(RuleNotImplemented):
        GAME.new_game({"scenario": "epic-campaign"})


@pytest.mark.rule("runaljod", "Interaction")
def test_search_on_or_next_to_a_token_draws_a_search_card() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "H6")
    st.search_tokens = [sq("B2"), sq("D4")]
    acts = [a for a in texts(st) if "search" in a]
    assert acts and all("B2" in a for a in acts)
    st.heroes["berserk"].glory = 0
    st.force("tale")
    st.apply("search B2 using uruz")
    assert st.search_tokens == [sq("D4")] and st.heroes["berserk"].glory == 2


@pytest.mark.rule("runaljod", "Interaction")
def test_explore_conditions_and_steps() -> None:
    st = make(card="i_shore")
    st.tiles[0] = type(st.tiles[0])("shore", "i_shore", 0)
    put(st, "berserk", "G3")
    put(st, "volva", "A1")
    st.active_card = "i_shore"
    assert not any(a.endswith("explore") for a in texts(st))  # an active card
    st.active_card = ""
    st.time = 6
    st.force("s_ford")
    st.apply("explore using uruz")
    assert st.active_card == "s_ford" and st.time == 4  # back to the snake
    assert [t.tile for t in st.tiles] == ["shore", "ford"] and st.tiles[1].x == 8
    # ford elements for 2 heroes: hunter at G2, warrior at F5, bonfire, search token
    assert sorted(e.kind for e in st.enemies) == ["clan_hunter", "clan_warrior"]
    assert sq("J5") in st.bonfires  # B5 of the new tile
    # next exploration: the previous tile must be empty of characters
    st.active_card = ""
    st.enemies.clear()
    put(st, "berserk", "O3")
    assert not any(a.endswith("explore") for a in texts(st))  # Volva on the previous tile
    put(st, "volva", "N3")
    st.force("c_hall")
    st.exploration.pile = []
    st.exploration.bottom = ["c_hall"]
    st.apply("explore using uruz") if "explore using uruz" in texts(st) \
        else st.apply("explore using tiwaz")
    assert [t.tile for t in st.tiles] == ["ford", "hall"]  # the oldest tile is discarded
    assert st.search_tokens == [t for t in st.search_tokens if t[0] >= 8]


@pytest.mark.rule("runaljod", "Equipment")
def test_equipment_slots_hands_torso_head_feet_and_three_miscellaneous() -> None:
    st = make(heroes=("warrior", "volva"))
    h = st.heroes["warrior"]
    assert sorted(st.slot_conflicts(h, "dane_axe")) == ["kite_shield", "sword"]
    assert st.slot_conflicts(h, "fur_cloak") == ["leather_armour"]
    assert st.slot_conflicts(h, "iron_helm") == []
    h.misc = ["healing_herbs", "mead_horn", "iron_helm"]
    st.found(h, "fur_boots", [])
    assert "keep fur boots in miscellaneous" not in texts(st)  # 3 spaces at most
    st.apply("equip fur boots")
    assert "fur_boots" in h.equipment and st.hero_life(h) == 11


@pytest.mark.rule("runaljod", "Components")
def test_content_files_validate_and_authored_values_are_marked() -> None:
    from meadhall.core.content import read_data
    from meadhall.games.runaljod.content import CONTENT_DIR, FILE_MODELS

    for name in FILE_MODELS:
        assert read_data(CONTENT_DIR / name)["authored"] is True
    c = GAME.content
    assert set(c.heroes) == {"volva", "berserk", "hunter", "warrior"}
    assert {"clan_warrior", "clan_hunter", "northern_wolf"} <= set(c.enemies)
    assert any(e.final and e.ai_deck for e in c.enemies.values())


@pytest.mark.rule("runaljod", "Hero Board")
def test_hero_board_has_every_numbered_part() -> None:
    hd = GAME.content.heroes["volva"]
    assert hd.defence >= 0 and len(hd.move) == 2 and hd.physical and hd.spiritual
    assert hd.runes and hd.life > hd.coloured and hd.skill_coloured and hd.skill_always


@pytest.mark.rule("runaljod", "Steel Rules")
def test_when_several_enemy_options_tie_the_players_decide() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "H6")
    a = foe(st, "clan_warrior", "D1")
    b = foe(st, "clan_warrior", "D4")
    assert st.activation_default([a, b], []) is a  # closest to a hero acts first by default


@pytest.mark.rule("runaljod", "The Dice")
def test_rune_landing_odds_come_from_the_data() -> None:
    from meadhall.games.runaljod.dice_rules import rune_die

    d = rune_die(GAME.content)
    assert d.faces == ("down", "up", "side")
    assert d.weights == tuple(GAME.content.altar.rune_odds[s] for s in d.faces)


@pytest.mark.rule("runaljod", "Destiny")
def test_table_mode_asks_for_each_rune_throw() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, seed=0, chance="table")
    seen = set()
    for _ in range(60):
        d = st.decision()
        if d.seat == "chance":
            seen.add(d.prompt)
            st.apply(st.legal_actions()[0])
        else:
            st.apply(d.default or st.legal_actions()[-1])
        if any("destiny throw" in p for p in seen):
            break
    assert any("destiny throw" in p for p in seen)


@pytest.mark.rule("runaljod", "Interaction")
def test_trade_items_with_an_adjacent_hero() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "B1")
    st.heroes["berserk"].misc = ["healing_herbs"]
    st.apply("give healing herbs to volva using uruz")
    assert st.heroes["volva"].misc == ["healing_herbs"] and st.heroes["berserk"].misc == []


@pytest.mark.rule("runaljod", "Interaction")
def test_exploration_card_is_discarded_when_no_enemy_is_left() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "B2")
    st.active_card = "s_ford"
    e = foe(st, "clan_warrior", "B1")
    st.hurt_enemy(e, 9, st.heroes["berserk"], "test", "test", [])
    assert st.active_card == ""


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_cannot_unequip_extra_life_if_it_would_make_the_hero_fall() -> None:
    st = make()
    h = st.heroes["berserk"]
    h.equipment.append("rune_helm")  # +1 life
    h.damage = 10
    h.misc = ["iron_helm"]
    assert not st.can_equip(h, "iron_helm")
    h.damage = 9
    assert st.can_equip(h, "iron_helm")


@pytest.mark.rule("runaljod", "4. Actions Phase")
def test_illegal_actions_name_the_rule() -> None:
    from meadhall.core.errors import IllegalAction

    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    st.heroes["berserk"].rune("uruz").place = "move1"
    with pytest.raises(IllegalAction) as e:
        st.apply("move 3 using tiwaz")
    assert e.value.section == "Basic Actions"
    with pytest.raises(IllegalAction) as e:
        st.apply("attack using tiwaz")
        st.apply("attack H6 with bearded axe")
    assert e.value.section == "Attack"
    with pytest.raises(IllegalAction) as e:
        st.apply("buy tyr's rune with tiwaz and hagalaz")
    assert e.value.section == "Activate the God's Rune"
    with pytest.raises(IllegalAction) as e:
        st.apply("explore using uruz")
    assert e.value.section == "4. Actions Phase"


@pytest.mark.rule("runaljod", "Single-Player Game")
def test_player_count_defaults_from_the_heroes() -> None:
    assert GAME.normalise_setup({"heroes": ["volva", "hunter", "warrior"]})["players"] == 3
    assert GAME.normalise_setup({"heroes": ["volva", "hunter"]})["players"] == 1
    assert GAME.normalise_setup({"heroes": ["volva", "hunter"], "players": 2})["players"] == 2
