"""The altar of the gods (Activate the God's Rune; The Gods Are Capricious; God's Gear;
God's Powers; Keywords - Trance)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, runes, sq, texts


def ready():
    st = make(["......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    return st, st.heroes["berserk"]


@pytest.mark.rule("runaljod", "Activate the God's Rune")
def test_a_sideways_rune_invokes_a_face_up_altar_rune_then_the_altar_is_rethrown() -> None:
    st, h = ready()
    runes(st, "berserk", uruz="side")
    st.altar = [["tyr", "up"], ["thor", "down"], ["freyja", "side"], ["odin", "up"]]
    acts = texts(st)
    assert "invoke tyr using uruz" in acts
    assert not any("invoke thor" in a for a in acts)  # face down on the altar
    assert not any(a.startswith("invoke") and a.endswith("using tiwaz")
                   for a in acts)  # face up only
    h.damage = 3
    st.heroes["volva"].damage = 2
    st.force("side", "side", "down", "up")  # the re-throw: two sideways runes
    st.apply("invoke tyr using uruz")
    assert "tyr" in h.bonus and h.rune("uruz").place == "interact"
    assert h.damage == 1 and st.heroes["volva"].damage == 0  # every hero heals 2


@pytest.mark.rule("runaljod", "Activate the God's Rune")
def test_rethrow_only_and_buying_a_rune_with_two_sideways_runes() -> None:
    st, h = ready()
    runes(st, "berserk", uruz="side", tiwaz="side")
    st.force("up", "up", "up", "up")
    st.apply("re-throw the altar using uruz")
    assert "buy tyr's rune with uruz and tiwaz" not in texts(st)  # uruz was used
    runes(st, "berserk", uruz="side")
    st.apply("buy thor's rune with uruz and tiwaz")
    assert h.rune("uruz").side == "down" and h.rune("uruz").place == "pool"
    assert h.god_rune().god == "thor" and h.god_rune().place == "interact"
    assert ["thor", "up"] not in st.altar and len(st.altar) == 3
    runes(st, "berserk", uruz="side", tiwaz="side")
    assert not any(a.startswith("buy ") for a in texts(st))  # one god's rune at most


@pytest.mark.rule("runaljod", "Activate the God's Rune")
def test_gods_rune_is_blank_for_skills_and_invokes_its_god_from_the_pool() -> None:
    st, h = ready()
    from meadhall.games.runaljod.model import Rune

    h.runes.append(Rune("god:thor", "up", "pool"))
    h.skills = ["frenzy"]
    runes(st, "berserk", uruz="down")
    assert not any(a.startswith("skill frenzy") for a in texts(st))
    e = foe(st, "clan_warrior", "B1")
    assert "invoke thor on B1 with thor's rune" in texts(st)
    st.force("down", "down", "down", "down")
    st.apply("invoke thor on B1 with thor's rune")
    assert e.damage == 2 and h.god_rune() is None
    assert len(st.altar) == 4  # returned but... the altar already held 4: back to the box
    assert not any(a.startswith("invoke") and a.endswith("using thor's rune")
                   for a in texts(st))


@pytest.mark.rule("runaljod", "The Gods Are Capricious")
def test_two_sideways_runes_with_a_gods_rune_send_it_back() -> None:
    st, h = ready()
    from meadhall.games.runaljod.model import Rune

    st.altar = [["tyr", "up"], ["freyja", "up"]]
    h.runes.append(Rune("god:thor", "side", "pool"))
    runes(st, "berserk", uruz="side")
    st.capricious(h, [])
    assert h.god_rune() is None and ["thor", "up"] in st.altar


@pytest.mark.rule("runaljod", "The Gods Are Capricious")
def test_never_more_than_four_runes_on_the_altar() -> None:
    st, h = ready()
    st.return_to_altar("vali", [], "test")
    assert len(st.altar) == 4 and "vali" not in [g for g, _ in st.altar]


@pytest.mark.rule("runaljod", "God's Powers")
def test_thor_on_one_enemy_or_every_enemy_of_the_tile() -> None:
    st, h = ready()
    runes(st, "berserk", uruz="side")
    a = foe(st, "northern_wolf", "C1")
    b = foe(st, "northern_wolf", "E3")
    opts = [t for t in texts(st) if t.startswith("invoke thor") and t.endswith("using uruz")]
    assert opts == ["invoke thor on C1 using uruz",
                    "invoke thor on E3 using uruz",
                    "invoke thor on every enemy of the tile using uruz"]
    st.force("up", "up", "up", "up")
    st.apply(opts[2])
    assert a.damage == 1 and b.damage == 1


@pytest.mark.rule("runaljod", "God's Powers")
def test_freyja_looks_at_a_deck_and_may_bottom_it_except_exploration() -> None:
    st, h = ready()
    runes(st, "berserk", uruz="side")
    st.apply("invoke freyja using uruz")
    assert "look at the exploration deck" in texts(st)
    st.force("s_ford", "up", "up", "up", "up")  # the look, then the altar's re-throw
    st.apply("look at the exploration deck")
    assert texts(st) == ["leave it on top"]
    st.apply("leave it on top")
    assert st.exploration.top == ["s_ford"]
    assert st.view()["decks"]["exploration"]["known_top"] == ["s_ford"]


@pytest.mark.rule("runaljod", "God's Powers")
def test_odin_plays_the_next_exploration_card_away_from_the_exit() -> None:
    st, h = ready()
    runes(st, "berserk", uruz="side")
    st.force("s_barrow", "up", "up", "up", "up")  # the crows look first, then the re-throw
    st.apply("invoke odin using uruz")
    assert texts(st) == ["put it in play", "leave it"]
    st.apply("put it in play")
    assert st.active_card == "s_barrow" and len(st.tiles) == 2


@pytest.mark.rule("runaljod", "God's Powers")
def test_tyr_adds_the_red_die_and_vali_a_white_die_ignoring_sight() -> None:
    st, h = ready()
    h.bonus = ["tyr"]
    assert st.attack_pool(h, "bearded_axe", False, [], [])[-1] == "red"
    v = st.heroes["volva"]
    v.bonus = ["vali"]
    foe(st, "clan_warrior", "A3")
    foe(st, "clan_hunter", "B3")  # blocks the line from F3? no: A3 is behind B3
    assert st.attack_targets(v, "staff", []) == [sq("A3"), sq("B3")]
    assert st.attack_pool(v, "staff", False, [], [])[-1] == "white"


@pytest.mark.rule("runaljod", "God's Gear")
def test_gear_buys_its_gods_rune_with_one_sideways_rune_and_uses_its_power() -> None:
    st, h = ready()
    h.equipment = ["cheru", "round_shield"]
    runes(st, "berserk", uruz="side")
    assert "buy tyr's rune with uruz for cheru" in texts(st)
    st.apply("buy tyr's rune with uruz for cheru")
    r = h.god_rune()
    r.place, r.side = "pool", "up"
    assert "invoke cheru with tyr's rune" in texts(st)
    st.force("up", "up", "up")  # Tyr's rune waits for the attack: three runes are thrown
    st.apply("invoke cheru with tyr's rune")
    assert "cheru" in h.bonus and h.god_rune() is None and h.returns == ["tyr"]
    e = foe(st, "jotun", "B1")
    # Cheru black, black, Fury black, then the red die; blanks become double axes
    st.force("blank", "blank", "dagger", "axe")
    st.apply("attack using tiwaz")
    st.apply("attack B1 with cheru")
    assert e.damage == 3 + 3 + 2 - 2  # the jotun cancels the dagger and has 2 defence
    assert "cheru" not in h.bonus and h.returns == [] and ["tyr", "up"] in st.altar


@pytest.mark.rule("runaljod", "God's Powers")
def test_brisingamen_jarngreipr_and_draupnir() -> None:
    st, h = ready()
    v = st.heroes["volva"]
    st.lose_life(v, 99, "test", "test", [])
    v.fell_this_turn = False  # she fell in an earlier turn (Fallen Heroes)
    st.force("down", "down", "up", "side", "up", "up", "up", "up")
    st.invoke(h, "brisingamen", "", [])
    assert not v.fallen and st.life_left(v) == 1 + 1 + 2 + 3 + 1  # 2 down +1 each
    e = foe(st, "jotun", "F1")
    st.force("up", "up", "up", "up")
    st.invoke(h, "jarngreipr", "F1", [])
    assert e.damage == 3
    runes(st, "volva", ansuz="down")
    st.force("up", "up", "up", "up")
    st.invoke(h, "draupnir", "volva's ansuz", [])
    assert v.rune("ansuz").side == "side"


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Trance")
def test_trance_throw_tops_up_to_four_runes_and_heals_per_sideways() -> None:
    st, h = ready()
    v = st.heroes["volva"]
    st.altar = [["tyr", "up"], ["thor", "up"]]
    v.damage = 3
    st.force("freyja", "vali", "side", "up", "down", "side")
    st.trance_throw(v, [])
    assert v.trance == 2 + 1 + 0 + 2 and v.damage == 1
    assert [g for g, _ in st.altar] == ["tyr", "thor"]
