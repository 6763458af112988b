"""Second-review fixes: each test pins a discrepancy found against the rulebook text."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, runes, sq, texts

from meadhall.core.deck import Deck
from meadhall.games.runaljod import GAME


@pytest.mark.rule("runaljod", "God's Powers")
def test_cheru_bonus_lasts_only_for_this_phase() -> None:
    """Cheru: "roll the red dice on your next melee attack this phase": unused, it is lost in
    the heroes' final phase (Tyr's "next attack" has no such limit)."""
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    h = st.heroes["berserk"]
    h.bonus = ["cheru", "tyr"]
    st.final_phase([])
    assert h.bonus == ["tyr"]


@pytest.mark.rule("runaljod", "Special Enemies")
def test_special_ai_card_is_revealed_only_after_the_common_card_is_resolved() -> None:
    """"Once you have resolved the common Enemy AI card, reveal any special activation card":
    the special card stays hidden (and undrawn) while the common card's groups act."""
    st = make(["........", "........", "........", "........"])
    put(st, "berserk", "A1")
    put(st, "volva", "A4")
    foe(st, "jotun", "H2").also = sq("H3")
    foe(st, "clan_warrior", "E1")
    foe(st, "clan_warrior", "E4")
    st.ai_deck = Deck("enemy AI", ["ai1"])
    st.phase, st.estage = "enemies", "activation"
    st.active = ""
    ev: list = []
    st._advance(ev)
    # the players choose which clan warrior acts first: the jotun's card is not drawn yet
    assert st.decision().prompt.startswith("Choose which Clan Warrior")
    assert st.special_decks["jotun"].discard == []
    assert not any("jotun" in e.text and e.kind == "ai" for e in ev)
    assert st.view()["decks"]["jotun AI"]["known_top"] == []
    ev = st.apply(st.decision().default)
    while st.decision().seat == "players" and st.phase == "enemies":
        ev += st.apply(st.decision().default)
    kinds = [(e.kind, e.text) for e in ev]
    first_jotun = next(i for i, (k, t) in enumerate(kinds) if k == "ai" and "jotun" in t)
    last_warrior = max(i for i, (k, t) in enumerate(kinds) if "Clan Warrior" in t)
    assert last_warrior < first_jotun
    assert len(st.special_decks["jotun"].discard) == 1


@pytest.mark.rule("runaljod", "Destiny")
def test_the_hero_chooses_which_runes_pay_destiny() -> None:
    """Destiny: "you flip face down as many runes from your destiny pool as destiny icons
    shown": which runes is the hero's choice, asked when more than one would do."""
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "D4")
    foe(st, "clan_warrior", "B1")
    h = st.heroes["berserk"]
    h.skills = ["war_cry", "frenzy"]
    runes(st, "berserk", uruz="up", tiwaz="up", thurisaz="down", hagalaz="side")
    st.apply("skill war cry")
    d = st.decision()
    assert d.seat == "berserk" and d.section == "Destiny"
    assert texts(st) == ["flip uruz face down", "flip hagalaz face down"]
    st.force("blank", "blank", "axe", "blank")
    st.apply("flip hagalaz face down")
    st.apply("attack B1 with bearded axe")
    assert h.rune("hagalaz").side == "down" and h.rune("uruz").side == "up"
    assert h.rune("tiwaz").place == "skill:war_cry"
    assert st.enemies[0].damage == 1  # red axe 2 - 1 defence: the attack went ahead
    # with a single possible payment nothing is asked
    st2 = make()
    put(st2, "berserk", "A1")
    put(st2, "volva", "D4")
    foe(st2, "clan_warrior", "B1")
    st2.heroes["berserk"].skills = ["war_cry"]
    runes(st2, "berserk", uruz="down", tiwaz="up", thurisaz="down", hagalaz="up")
    st2.force("blank", "blank", "axe", "blank")
    st2.apply("skill war cry")
    st2.apply("attack B1 with bearded axe")
    assert st2.heroes["berserk"].rune("hagalaz").side == "down"
    assert st2.decision().kind == "turn" and st2.decision().section == "4. Actions Phase"


@pytest.mark.rule("runaljod", "Activate a Skill")
def test_destiny_choice_offers_each_set_of_runes_once() -> None:
    st = make()
    put(st, "volva", "A1")
    put(st, "berserk", "D4")
    foe(st, "clan_warrior", "C1")
    v = st.heroes["volva"]
    v.skills = ["spirit_bolt"]
    st.active = "volva"
    runes(st, "volva", berkano="up", ansuz="up", laguz="up", kenaz="down")
    acts = [a for a in texts(st) if a.startswith("skill spirit bolt")]
    assert acts == ["skill spirit bolt"]
    st.apply(acts[0])
    assert texts(st) == ["flip ansuz face down", "flip laguz face down"]


@pytest.mark.rule("runaljod", "Equipment")
def test_which_one_handed_card_a_new_one_replaces_is_the_heros_choice() -> None:
    """Hands: "one space for each hand": a one-handed card with two one-handed cards equipped
    replaces either of them, as the hero chooses; a two-handed card replaces both."""
    st = make(heroes=("warrior", "volva"))
    put(st, "warrior", "A1")
    put(st, "volva", "F6")
    h = st.heroes["warrior"]
    h.misc = ["hand_axe", "dane_axe", "iron_helm"]
    acts = [a for a in texts(st) if a.startswith("equip") and a.endswith("using tiwaz")]
    assert acts == ["equip hand axe replacing sword using tiwaz",
                    "equip hand axe replacing kite shield using tiwaz",
                    "equip dane axe using tiwaz",
                    "equip iron helm using tiwaz"]
    st.apply("equip hand axe replacing kite shield using tiwaz")
    assert sorted(h.equipment) == ["hand_axe", "leather_armour", "sword"]
    assert "kite_shield" in h.misc


@pytest.mark.rule("runaljod", "Adventure Mode")
def test_level_two_gift_replaces_the_starting_card_the_players_choose() -> None:
    st = GAME.new_game({"scenario": "adventure-level2", "heroes": ["warrior", "hunter"]},
                       seed=1)
    st.setup_queue[0] = ["gift", "troll_chain"]
    st.ask = None
    st.setup_ask([])
    assert texts(st) == ["give troll chain to warrior replacing sword",
                         "give troll chain to warrior replacing kite shield",
                         "give troll chain to hunter"]
    st.apply("give troll chain to warrior replacing sword")
    assert sorted(st.heroes["warrior"].equipment) == ["kite_shield", "leather_armour",
                                                      "troll_chain"]


@pytest.mark.rule("runaljod", "Hold")
def test_players_choose_where_a_released_hero_is_placed() -> None:
    """Hold: "place the captured miniature in a space adjacent to the defeated captor": any
    adjacent space, so the players choose (default: the first free one in reading order)."""
    st = make(["......", "......", "......"])
    put(st, "berserk", "B2")
    put(st, "volva", "F3")
    jotun = foe(st, "jotun", "C2")
    h = st.heroes["berserk"]
    st.force("upgrade", "upgrade", "upgrade")  # +2 damage, then hold
    st.enemy_attack(jotun, h, [], "Attack")
    assert h.held_by == jotun.uid
    st.hurt_enemy(jotun, 99, st.heroes["volva"], "test", "test", [])
    st._advance([])
    d = st.decision()
    assert d.seat == "players" and d.section == "Hold"
    assert texts(st) == [f"place berserk on {s}" for s in
                         ("B1", "C1", "D1", "B2", "D2", "B3", "C3", "D3")]
    assert d.default == "place berserk on B1"
    st.apply("place berserk on D3")
    assert h.at == sq("D3") and st.decision().seat == "berserk"


@pytest.mark.rule("runaljod", "Hold")
def test_players_choose_where_a_held_enemy_goes_when_its_captor_falls() -> None:
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    w = foe(st, "clan_warrior", "A1")
    w.captor = "berserk"
    st.heroes["berserk"].captive = w.uid
    st.fall(st.heroes["berserk"], [])
    st._advance([])
    assert texts(st) == [f"place clan warrior on {s}" for s in ("B1", "A2", "B2")]
    st.apply("place clan warrior on B2")
    assert w.at == sq("B2")


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
@pytest.mark.rule("runaljod", "Perform Checks")
def test_a_hero_without_a_face_up_rune_can_still_help_with_a_failed_check() -> None:
    """Helping a hero: "Perform a physical check; then the fallen hero must throw all their
    runes..." and Perform Checks: "If a hero ... can't perform the test, it is considered a
    failure": the help still happens, only the upgrade bonus is lost."""
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "B1")
    v = st.heroes["volva"]
    st.lose_life(v, 99, "test", "test", [])
    v.fell_this_turn = False
    runes(st, "berserk", uruz="down", tiwaz="down", thurisaz="down", hagalaz="down")
    acts = [a for a in texts(st) if a.startswith("assist")]
    assert acts == [f"assist volva using {r}"
                    for r in ("thurisaz", "uruz", "tiwaz", "hagalaz")]
    st.force("up", "side", "down", "down")  # Volva's recovery throw
    st.apply("assist volva using uruz")
    assert not v.fallen and st.life_left(v) == 2 + 3
    assert st.heroes["berserk"].rune("uruz").place == "physical"


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_standing_up_with_every_rune_face_down_leaves_one_life() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    h = st.heroes["berserk"]
    st.lose_life(h, 99, "test", "test", [])
    st.force("down", "down", "down", "down")
    st.raise_hero(h, 0, [], "test", alone=True)
    assert not h.fallen and st.life_left(h) == 1


@pytest.mark.rule("runaljod", "Movement")
def test_a_wrong_movement_value_names_the_movement_rule() -> None:
    from meadhall.core.errors import IllegalAction

    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    with pytest.raises(IllegalAction) as e:
        st.apply("move 5 using uruz")
    assert e.value.section == "Movement" and "the free spaces give 3 or 2" in str(e.value)


@pytest.mark.rule("runaljod", "Clarifications")
def test_players_may_override_the_engines_evaluation_within_the_rulebooks_criteria() -> None:
    """"The enemies always perform the best possible action for them": the engine's
    evaluation (here, the cheapest route) is the default, but the players may pick any space
    the rulebook allows (next to the target, next to the most heroes)."""
    st = make(["......", "......", "......", "......"])
    put(st, "berserk", "C1")
    put(st, "volva", "F4")
    e = foe(st, "clan_warrior", "C4")
    best, allowed, _ = st.move_choices(e, ["berserk"])
    assert best == [(sq("B2"),), (sq("C2"),), (sq("D2"),)]
    assert allowed == [(sq("B1"),), (sq("D1"),), (sq("B2"),), (sq("C2"),), (sq("D2"),)]
    st.enemy_action(e, st.content.ai_decks["common"]["ai1"].groups[1].actions[0], [])
    d = st.decision()
    assert d.seat == "players" and d.default == "move clan warrior to B2"
    assert texts(st) == [f"move clan warrior to {s}" for s in ("B1", "D1", "B2", "C2", "D2")]
    st.apply("move clan warrior to D1")
    assert e.at == sq("D1")


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_an_enemy_killed_by_its_wound_token_gives_no_glory() -> None:
    """Ruling 29: the token's loss happens in the enemies' activation, not by a hero's hand."""
    st = make(["......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    e = foe(st, "clan_warrior", "F1")
    e.damage = st.enemy_data(e).life - 1
    e.conditions = ["wound"]
    st.begin_activation(e, [])
    assert e not in st.enemies
    assert all(h.glory == 0 for h in st.heroes.values())
