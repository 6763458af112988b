"""The heroes' turn: phases, conditions, checks, skills, destiny (Heroes Turn and its phases)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, runes, sq, texts

from meadhall.games.runaljod import GAME


def to_phase(st, phase: str) -> None:
    st.phase = phase
    st.active = ""
    st._advance([])


@pytest.mark.rule("runaljod", "1. Preparation Phase")
def test_preparation_recovers_cards_and_buys_skills_with_points() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    h = st.heroes["berserk"]
    h.turned = ["frenzy"]
    h.skill_points = 3
    st.heroes["volva"].skill_points = 0
    st.start_preparation([])
    assert h.turned == []
    to_phase(st, "prep")
    acts = texts(st)
    assert "buy frenzy" in acts and "buy leap" in acts and "done buying" in acts
    st.apply("buy leap")
    assert h.skills == ["leap"] and h.skill_points == 1
    st.apply("buy frenzy")
    # 3 points spent this phase: nothing more, even with points left
    h.skill_points = 2
    assert st.buyable(h) == []


@pytest.mark.rule("runaljod", "2. Destiny Phase")
def test_first_destiny_throw_throws_every_rune_with_its_orientation() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, seed=4, auto_choices=True)
    assert all(r.place == "out" for h in st.heroes.values() for r in h.runes)
    while st.phase in ("prep", "destiny"):
        st.apply("done buying")
    # the first turn threw every initial rune: all are in the destiny pool
    assert all(r.place == "pool" for h in st.heroes.values() for r in h.runes)
    st2 = make()
    put(st2, "berserk", "A1")
    put(st2, "volva", "A2")
    runes(st2, "berserk", uruz="used", tiwaz="used")
    st2.force("side", "down")
    st2.destiny_phase([])
    h = st2.heroes["berserk"]
    assert h.rune("uruz").side == "side" and h.rune("tiwaz").side == "down"
    assert h.rune("thurisaz").side == "up"  # runes left in the pool are not thrown


@pytest.mark.rule("runaljod", "3. Condition Phase")
def test_wound_costs_two_life_and_a_face_up_rune_on_move_or_attack_removes_it() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    h = st.heroes["berserk"]
    h.conditions = ["wound"]
    st.start_conditions([])
    to_phase(st, "condition")
    assert h.damage == 2
    acts = texts(st)
    assert "remove the wound using uruz on move 3" in acts and "keep the wound" in acts
    st.apply("remove the wound using uruz on reduced attack")
    assert "wound" not in h.conditions and h.rune("uruz").place == "attack2"


@pytest.mark.rule("runaljod", "3. Condition Phase")
def test_stun_places_two_runes_on_interact_and_is_discarded() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    h = st.heroes["berserk"]
    h.conditions = ["stun"]
    runes(st, "berserk", uruz="down")
    st.start_conditions([])
    to_phase(st, "condition")
    st.apply("place uruz on interact")
    st.apply("place tiwaz on interact")
    assert [r.icon for r in h.runes if r.place == "interact"] == ["uruz", "tiwaz"]
    assert "stun" not in h.conditions


@pytest.mark.rule("runaljod", "3. Condition Phase")
def test_frozen_costs_one_life_and_a_physical_check_removes_it() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    h = st.heroes["berserk"]
    h.conditions = ["frozen"]
    st.start_conditions([])
    to_phase(st, "condition")
    assert h.damage == 1
    st.force("upgrade", "blank")
    st.apply("physical check using uruz")
    assert "frozen" not in h.conditions and h.rune("uruz").place == "physical"


@pytest.mark.rule("runaljod", "3. Condition Phase")
def test_a_second_token_of_a_kind_costs_one_life_instead() -> None:
    st = make()
    h = st.heroes["berserk"]
    st.give_condition(h, "wound", [], "test")
    st.give_condition(h, "wound", [], "test")
    assert h.conditions == ["wound"] and h.damage == 1


@pytest.mark.rule("runaljod", "Perform Checks")
def test_check_needs_one_upgrade_on_the_dice_shown() -> None:
    st = make()
    put(st, "volva", "A1")
    h = st.heroes["volva"]
    st.force("upgrade", "blank", "blank")  # spiritual: 2 white + Second Sight white
    ok, n = st.check(h, "spiritual", "laguz", [])
    assert ok and n == 1
    st.force("blank", "dagger", "axe")
    ok, n = st.check(h, "spiritual", "kenaz", [])
    assert not ok


@pytest.mark.rule("runaljod", "4. Actions Phase")
def test_actions_any_order_hand_over_and_pass() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "A2")
    acts = texts(st)
    assert "hand over to volva" in acts and "pass" in acts
    st.apply("hand over to volva")
    assert st.decision().seat == "volva"
    st.apply("pass")
    assert st.decision().seat == "berserk"


@pytest.mark.rule("runaljod", "Basic Actions")
def test_interact_is_unlimited_and_the_reduced_attack_has_one_die_less() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    st.search_tokens = [sq("B1"), sq("A2")]
    st.apply("search A2 using uruz")
    assert any(a.startswith("search B1 using tiwaz") for a in texts(st)) or \
        st.ask is not None
    h = st.heroes["berserk"]
    assert st.attack_pool(h, "bearded_axe", True, [], []) == ["black", "black"]  # Fury +1
    assert st.attack_pool(h, "bearded_axe", False, [], []) == ["black", "black", "black"]
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    st.heroes["berserk"].equipment = ["hand_axe"]
    foe(st, "clan_warrior", "B2")
    acts = texts(st)
    assert "attack using uruz" in acts
    assert not any(a.startswith("reduced attack") for a in acts)  # one die: no reduced attack


@pytest.mark.rule("runaljod", "Activate a Skill")
def test_skill_needs_face_up_runes_with_its_icons_and_destiny() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "D4")
    foe(st, "clan_warrior", "B1")
    h = st.heroes["berserk"]
    h.skills = ["war_cry", "frenzy"]
    runes(st, "berserk", uruz="down", tiwaz="up", thurisaz="down", hagalaz="down")
    acts = texts(st)
    assert not any(a.startswith("skill frenzy") for a in acts)  # uruz face down
    assert not any(a.startswith("skill war cry") for a in acts)  # no rune for destiny
    runes(st, "berserk", hagalaz="up")
    assert "skill war cry" in texts(st)
    st.force("blank", "blank", "axe", "blank")  # axe, axe, +red (skill), +black (Fury)
    st.apply("skill war cry")
    assert texts(st) == ["attack B1 with bearded axe"]
    st.apply("attack B1 with bearded axe")
    assert h.rune("tiwaz").place == "skill:war_cry" and h.rune("hagalaz").side == "down"


@pytest.mark.rule("runaljod", "Destiny")
def test_destiny_flips_runes_face_down_and_recovering_flips_them_up() -> None:
    st = make()
    h = st.heroes["berserk"]
    runes(st, "berserk", uruz="down", tiwaz="down")
    from meadhall.games.runaljod.content import Effect

    st.apply_effect(h, Effect(kind="recover_destiny", value=2), [], "Destiny")
    assert h.rune("uruz").side == "up" and h.rune("tiwaz").side == "up"
    assert st.destiny_payment(h, 5, []) is None


@pytest.mark.rule("runaljod", "Heroes Turn")
def test_final_phase_flips_unused_runes_face_up_and_keeps_sideways() -> None:
    st = make()
    runes(st, "berserk", uruz="down", tiwaz="side")
    st.final_phase([])
    h = st.heroes["berserk"]
    assert h.rune("uruz").side == "up" and h.rune("tiwaz").side == "side"


@pytest.mark.rule("runaljod", "Game Overview")
@pytest.mark.rule("runaljod", "Game Play")
def test_a_round_is_the_heroes_turn_then_the_enemies_turn() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, seed=2, auto_choices=True)
    while st.phase != "actions" or st.ask is not None:
        st.apply(st.legal_actions()[0])
    r = st.round
    st.apply("pass")
    events = st.apply("pass")
    kinds = [e.kind for e in events]
    assert "final" in kinds and "time" in kinds and st.round == r + 1


@pytest.mark.rule("runaljod", "1. Preparation Phase")
def test_turned_cards_wait_for_the_next_preparation_phase() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    h = st.heroes["berserk"]
    h.skills = ["bloodlust"]
    h.damage = 5
    st.apply("skill bloodlust")
    assert h.turned == ["bloodlust"] and h.damage == 3
    runes(st, "berserk", hagalaz="up")
    assert "skill bloodlust" not in texts(st)  # turned sideways
    st.start_preparation([])
    assert "skill bloodlust" in texts(st)


@pytest.mark.rule("runaljod", "2. Destiny Phase")
def test_a_skill_may_repeat_the_destiny_throw() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    v = st.heroes["volva"]
    v.skills = ["norns_weave"]
    runes(st, "volva", ansuz="used", laguz="used")
    st.phase = "destiny"
    st.active = ""
    st.force("down", "down")
    st._advance([])
    assert st.decision().seat == "volva"
    assert texts(st) == ["keep the throw", "repeat the destiny throw"]
    st.force("side", "up")
    st.apply("repeat the destiny throw")
    assert v.rune("ansuz").side == "side" and v.rune("laguz").side == "up"
    assert v.rune("berkano").side == "up"  # not thrown this phase: untouched
