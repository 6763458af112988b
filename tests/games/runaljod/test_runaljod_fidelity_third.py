"""Rule fidelity, third pass (issue 20): each situation is built from a hand-written position
(docs/formats/runaljod.md) and checked against the rulebook's text; where the players choose,
the whole set of choices is asserted."""

from __future__ import annotations

import pytest
from runaljod_kit import pool, position, sq

from meadhall.core.protocol import PLAYERS

BERSERK = ("thurisaz", "uruz", "tiwaz", "hagalaz")
VOLVA = ("ansuz", "berkano", "laguz", "kenaz")
R = "runaljod"


def texts(st) -> list[str]:
    return [a.text for a in st.legal_actions()]


def ai(card: str, **special: str) -> dict:
    decks: dict = {"ai": {"name": "enemy AI", "pile": [card]},
                   "exploration": {"name": "exploration", "pile": ["s_ford", "s_barrow"],
                                   "bottom": ["c_hall"], "reshuffle": False}}
    if special:
        decks["special"] = {k: {"name": k, "pile": [v]} for k, v in special.items()}
    return decks


# ------------------------------------------------------------------ Hold
def _held(volva_at: str = "F6", misc: tuple[str, ...] = ()):
    """The Frost Jotun on D3+E3 holds the Berserk in its space; a Clan Warrior stands on C4,
    next to the captor's space; the Volva is on ``volva_at``."""
    return position(
        {"berserk": {"at": "D3", "runes": pool(*BERSERK), "passed": True, "held_by": 1},
         "volva": {"at": volva_at, "runes": pool(*VOLVA), "misc": list(misc)}},
        enemies=[{"uid": 1, "kind": "jotun", "at": "D3", "also": "E3", "holding": "berserk"},
                 {"uid": 2, "kind": "clan_warrior", "at": "C4"}],
        active="volva", active_card="i_shore", decks=ai("ai1", jotun="jo1"))


@pytest.mark.rule(R, "Keywords")
@pytest.mark.rule(R, "Movement")
def test_a_held_hero_is_adjacent_only_to_its_captor_so_others_move_on() -> None:
    # "The target hero is only considered adjacent to the enemy captor doing the hold, it
    # loses LoS to any other space on the board" (Keywords - Hold). Card ai1: the Clan
    # Warriors move toward the Berserk first; held by the Jotun he is no target for this
    # warrior, which moves on toward the Volva (its next icon in play) instead of standing
    # beside the captor with nobody to attack.
    st = _held()
    events = list(st.apply("pass"))
    while st.decision() is not None and st.decision().seat == PLAYERS:
        events += st.apply(st.decision().default)
    w = next(e for e in st.enemies if e.uid == 2)
    assert w.at != sq("C4")
    assert any(e.kind == "move" and "Clan Warrior 2" in e.text and "toward Volva" in e.text
               for e in events)
    assert not any("Warrior" in e.text and "already adjacent to Berserk" in e.text
                   for e in events)  # (the Jotun, his captor, is: it stays)


@pytest.mark.rule(R, "Keywords")
def test_a_held_hero_cannot_hand_cards_to_a_hero_next_to_him() -> None:
    # adjacent only to the captor: the Volva on C3 beside the held Berserk cannot give him a
    # card (Interaction: "give a card to an adjacent hero")
    st = _held("C3", misc=("mead_horn",))
    assert not any(t.startswith("give") for t in texts(st))
    st = position({"berserk": {"at": "D3", "runes": pool(*BERSERK), "passed": True},
                   "volva": {"at": "C3", "runes": pool(*VOLVA), "misc": ["mead_horn"]}},
                  active="volva")
    assert "give mead horn to berserk using ansuz" in texts(st)


# ------------------------------------------------------------------ Sight
@pytest.mark.rule(R, "Sight")
def test_sight_lines_from_a_new_space_do_not_cross_the_enemys_own_old_space() -> None:
    # "move the miniature to the nearest space from which it can draw a line of sight": from
    # C1 the line to the Berserk on E3 passes the corner between C2 (the Volva) and D1 - the
    # Clan Hunter's own square, which it leaves. Both C1 and D2 are one step away and see him:
    # the players choose between them (the engine used to block C1's line with the hunter's
    # own square).
    st = position({"volva": {"at": "C2", "runes": pool(*VOLVA)},
                   "berserk": {"at": "E3", "runes": pool(*BERSERK)}},
                  enemies=[{"uid": 1, "kind": "clan_hunter", "at": "D1"},
                           {"uid": 2, "kind": "clan_warrior", "at": "E2"}])
    e = st.enemies[0]
    assert not st.sees(e.at, sq("E3"))
    opts, why = st.sight_options(e, ["berserk"])
    assert [st.fpname(fp) for fp in opts] == ["C1", "D2"] and why == "to sight Berserk"


# ------------------------------------------------------------------ the best action
def _warrior_toward_volva(warrior_at: str, kind: str = "clan_warrior", card: str = "ai5"):
    """The Volva on C2 and the Berserk on C1: from B1 the Volva is diagonal behind the rock
    on B2 and the Berserk, so an enemy there cannot attack her; D1 and D2 are next to both
    heroes too and see her."""
    return position(
        {"volva": {"at": "C2", "runes": pool(*VOLVA)},
         "berserk": {"at": "C1", "runes": pool(*BERSERK), "passed": True}},
        enemies=[{"uid": 1, "kind": kind, "at": warrior_at}],
        active="volva", active_card="i_shore", decks=ai(card))


@pytest.mark.rule(R, "Clarifications")
@pytest.mark.rule(R, "Movement")
def test_the_enemy_ends_its_move_where_it_can_attack_its_target() -> None:
    # "the enemies always perform the best possible action for them": card ai5 - the Clan
    # Warrior moves toward the Volva, then attacks her. B1 (1 point) and D2 (3 points) are
    # both next to the two heroes; only from D2 can it attack: it goes there, no question.
    st = _warrior_toward_volva("A2")
    b1, d2 = (st.stands_within(st.enemies[0], sq("C2"))[(sq(s),)] for s in ("B1", "D2"))
    assert (b1, d2) == (1, 3)
    best, allowed, _ = st.move_choices(st.enemies[0], ["volva"])
    assert [st.fpname(f) for f in allowed] == ["D2"] and best == allowed
    st.force("blank", "blank")
    events = st.apply("pass")
    assert st.enemies[0].at == sq("D2")
    assert any(e.kind == "enemy-attack" and "attacks Volva" in e.text for e in events)
    # with no space to attack from within reach, the rulebook's space still stands
    st = _warrior_toward_volva("A1")
    best, allowed, _ = st.move_choices(st.enemies[0], ["volva"])
    assert [st.fpname(f) for f in allowed] == ["B1"]


@pytest.mark.rule(R, "Clarifications")
@pytest.mark.rule(R, "Movement")
def test_players_are_offered_only_the_spaces_best_for_the_enemies() -> None:
    # Issue 19: "offer only the choices that are best for the enemies by the rule, default
    # the best one". A Northern Wolf (move 4) from A3 toward the Volva (card ai2) reaches B1,
    # D1 and D2, each next to both heroes; B1 cannot attack her, so the players choose
    # between D1 and D2 only, with the engine's best as the default.
    st = _warrior_toward_volva("A3", kind="northern_wolf", card="ai2")
    best, allowed, _ = st.move_choices(st.enemies[0], ["volva"])
    assert [st.fpname(f) for f in allowed] == ["D1", "D2"]
    st.apply("pass")
    d = st.decision()
    assert d.seat == PLAYERS and texts(st) == [
        "move northern wolf to D1", "move northern wolf to D2"]
    assert d.default == f"move northern wolf to {st.fpname(best[0])}"


# ------------------------------------------------------------------ fallen heroes
def _bare(heroes=("berserk", "volva")):
    from runaljod_kit import make, put
    st = make(["......", "......", "......"], heroes=heroes)
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    return st


@pytest.mark.rule(R, "Damage, Wounds and Life Points")
@pytest.mark.rule(R, "God's Powers")
def test_brisingamen_does_not_raise_a_hero_who_fell_this_turn() -> None:
    # "A hero cannot recover the same turn they are defeated" (Fallen Heroes): the Volva
    # fell in this heroes' turn; Brisingamen raises "all fallen heroes" but not her
    st = _bare()
    v = st.heroes["volva"]
    st.lose_life(v, 99, "test", "test", [])
    assert v.fallen and v.fell_this_turn
    st.force("up", "up", "up", "up")  # the altar's re-throw only: no recovery throw
    events: list = []
    st.invoke(st.heroes["berserk"], "brisingamen", "", events)
    assert v.fallen
    assert any(e.text == "Volva fell in this heroes' turn and cannot recover until the next "
               "one" for e in events)


# ------------------------------------------------------------------ the destiny phase
@pytest.mark.rule(R, "2. Destiny Phase")
@pytest.mark.rule(R, "The Gods Are Capricious")
def test_the_norns_weave_repeat_survives_the_gods_taking_their_rune_back() -> None:
    # "If any of the heroes has a skill that allows them to repeat the destiny throw ... now
    # is the time to do it": the throw lands the Volva's god's rune and Ansuz sideways, so the
    # gods take their rune back at once; the repeat is still hers, for Ansuz and Laguz.
    from runaljod_kit import runes
    st = _bare()
    v = st.heroes["volva"]
    v.skills = ["norns_weave"]
    runes(st, "volva", ansuz="used", laguz="used")
    from meadhall.games.runaljod.model import Rune
    v.runes.append(Rune("god:thor", "up", "interact"))
    st.altar = [["tyr", "up"], ["freyja", "up"], ["odin", "up"]]
    st.phase, st.active = "destiny", ""
    st.force("side", "up", "side")  # ansuz, laguz, thor's rune
    events: list = []
    st._advance(events)
    assert v.god_rune() is None and ["thor", "up"] in st.altar
    assert st.decision().seat == "volva"
    assert texts(st) == ["keep the throw", "repeat the destiny throw"]
    st.force("up", "down")
    st.apply("repeat the destiny throw")
    assert (v.rune("ansuz").side, v.rune("laguz").side) == ("up", "down")


# ------------------------------------------------------------------ god's gear
@pytest.mark.rule(R, "God's Gear")
@pytest.mark.rule(R, "The Gods Are Capricious")
def test_gods_gear_returns_its_rune_to_the_altar_afterwards() -> None:
    # "you must return the rune to the altar afterwards" (God's Gear): the Berserk invokes
    # Draupnir with Odin's rune; the power flips a rune of the Volva sideways, her second
    # sideways rune with her own god's rune (Thor), so the gods take Thor's rune back - to the
    # altar, which still has room because Odin's rune has not returned yet. Odin's rune comes
    # back afterwards and finds the altar full: it goes to the box (There can never be more
    # than 4 runes on the altar).
    from runaljod_kit import runes

    from meadhall.games.runaljod.model import Rune
    st = _bare()
    b, v = st.heroes["berserk"], st.heroes["volva"]
    b.equipment = ["bearded_axe", "round_shield", "draupnir"]
    b.runes.append(Rune("god:odin", "up", "pool"))
    v.runes.append(Rune("god:thor", "side", "pool"))
    runes(st, "volva", ansuz="down")
    st.altar = [["tyr", "up"], ["freyja", "up"], ["vali", "up"]]
    assert "invoke draupnir on volva's ansuz with odin's rune" in texts(st)
    st.force("up", "up", "up", "up")  # the re-throw of the four runes on the altar
    st.apply("invoke draupnir on volva's ansuz with odin's rune")
    assert v.god_rune() is None and b.god_rune() is None
    assert sorted(g for g, _ in st.altar) == ["freyja", "thor", "tyr", "vali"]
    assert "odin" in st.box_gods()


# ------------------------------------------------------------------ checks
@pytest.mark.rule(R, "Perform Checks")
@pytest.mark.rule(R, "3. Condition Phase")
def test_a_frozen_hero_may_check_again_after_a_failed_check() -> None:
    # "You can do this action as many times as you wish" (Perform Checks); the Frozen token:
    # "To remove this token, you must succeed a physical test"
    st = _bare()
    h = st.heroes["berserk"]
    h.conditions = ["frozen"]
    st.start_conditions([])
    st.phase = "condition"
    st._advance([])
    assert h.damage == 1  # the token's life point, once
    st.force("blank", "blank")
    st.apply("physical check using uruz")
    assert "frozen" in h.conditions and h.damage == 1
    assert texts(st) == ["physical check using thurisaz", "physical check using tiwaz",
                         "physical check using hagalaz", "keep the frozen token"]
    st.force("upgrade", "blank")
    st.apply("physical check using tiwaz")
    assert "frozen" not in h.conditions and h.damage == 1
    assert [r.icon for r in h.runes if r.place == "physical"] == ["uruz", "tiwaz"]


# ------------------------------------------------------------------ level 2 setup
@pytest.mark.rule(R, "Adventure Mode")
def test_a_second_gift_never_sends_the_first_to_the_box() -> None:
    # "The heroes that equip these cards must replace their starting cards if they are from
    # the same type, and return the starting ones to the box": the Dane Axe given first is
    # no starting card; Cheru given to the same Berserk keeps it in a miscellaneous space,
    # and the default gives Cheru to a hero whose starting card it replaces.
    from meadhall.games.runaljod import GAME
    st = GAME.new_game({"scenario": "adventure-level2", "heroes": ["berserk", "volva"]},
                       seed=1)
    st.setup_queue[:2] = [["gift", "dane_axe"], ["gift", "cheru"]]
    st.ask = None
    st.setup_ask([])
    st.apply("give dane axe to berserk")
    assert st.heroes["berserk"].equipment == ["dane_axe"]
    assert texts(st) == ["give cheru to berserk", "give cheru to volva"]
    assert st.decision().default == "give cheru to volva"  # the Volva's Rune Staff is hers
    events = st.apply("give cheru to berserk")
    b = st.heroes["berserk"]
    assert b.equipment == ["cheru"] and b.misc == ["dane_axe"]
    assert any(e.text == "Berserk unequips Dane Axe and keeps it in a miscellaneous space"
               for e in events)


# ------------------------------------------------------------------ the altar's re-throw
@pytest.mark.rule(R, "God's Powers")
@pytest.mark.rule(R, "Activate the God's Rune")
def test_freyja_and_odin_rethrow_the_altar_once_their_choices_are_made() -> None:
    # "whenever you activate the effect of a God's rune for any reason, throw all runes on the
    # altar of the Gods again": Freyja's power is choosing a deck and looking at its top card
    from runaljod_kit import runes
    st = _bare()
    runes(st, "berserk", uruz="side")
    before = [list(p) for p in st.altar]
    events = st.apply("invoke freyja using uruz")
    assert not any(e.kind == "altar" for e in events) and st.altar == before
    assert texts(st) == ["look at the exploration deck", "look at the event deck",
                         "look at the search deck", "look at the equipment deck",
                         "look at the enemy AI deck", "look at the frost jotun AI deck"]
    st.force("s_ford")
    events = st.apply("look at the exploration deck")
    assert not any(e.kind == "altar" for e in events)
    st.force("side", "down", "down", "down")
    events = st.apply("leave it on top")
    assert [e.kind for e in events].count("altar") == 1
    # Odin's Crows: the players decide on the card, then the altar is thrown
    st = _bare()
    runes(st, "berserk", uruz="side")
    st.force("s_barrow")
    events = st.apply("invoke odin using uruz")
    assert not any(e.kind == "altar" for e in events)
    st.force("up", "up", "up", "up")
    events = st.apply("leave it")
    assert [e.kind for e in events].count("altar") == 1


# ------------------------------------------------------------------ worked example
@pytest.mark.rule(R, "Attack")
def test_first_line_of_sight_example_volva_sees_only_the_bottom_enemy() -> None:
    # "Volva would only see the enemy located at the bottom of the image with her Range-tagged
    # weapon, since she has a clear LoS to it. The enemy at the top cannot be seen, as the line
    # of sight crosses two blocked spaces, one by another enemy and the other by a terrain
    # element on the board. The enemy in the middle cannot be seen since the LoS is blocked by
    # the rocks on the board." Three enemies, none next to her: the top one (C1) behind the
    # corner of the middle enemy (C2) and the rock on B1; the middle one behind the rock on B3;
    # the bottom one (C5) in clear sight.
    from runaljod_kit import foe, make, put
    st = make([".#.....",
               ".......",
               ".#.....",
               ".......",
               "......."])
    put(st, "volva", "A3")
    foe(st, "clan_warrior", "C1")   # top
    foe(st, "clan_hunter", "C2")    # middle
    foe(st, "northern_wolf", "C5")  # bottom
    v = st.heroes["volva"]
    assert st.attack_targets(v, "staff", []) == [sq("C5")]  # only the bottom enemy
    # why the top one is hidden: two blocked spaces, the middle enemy and the rock B1 - either
    # alone would not hide it
    occ = st.occupied()
    assert not st.sees(sq("A3"), sq("C1"), occ)
    assert st.sees(sq("A3"), sq("C1"), occ - {sq("C2")})
    st2 = make([".......", ".......", ".#.....", ".......", "......."])
    assert st2.sees(sq("A3"), sq("C1"), occ)  # without the rock on B1
    # the middle one is hidden by the rocks alone (no miniature on its line)
    assert not st.sees(sq("A3"), sq("C2"), set())
    # and her turn offers exactly that one target
    st.active = "volva"
    st.apply("attack using ansuz")
    assert texts(st) == ["attack C5 with rune staff"]


@pytest.mark.rule(R, "God's Gear")
@pytest.mark.rule(R, "God's Powers")
def test_cheru_returns_tyrs_rune_to_the_altar_after_the_attack() -> None:
    # Cheru: "Return this rune to the altar of the Gods after the attack": Tyr's rune is set
    # aside until the melee attack of the bonus, then goes back to the altar; unused by the
    # end of the phase, the bonus is lost and the rune goes back then
    from runaljod_kit import foe, runes

    from meadhall.games.runaljod.model import Rune
    for attack in (True, False):
        st = _bare()
        h = st.heroes["berserk"]
        h.equipment = ["cheru", "round_shield"]
        h.runes.append(Rune("god:tyr", "up", "pool"))
        st.altar = [["freyja", "up"], ["thor", "up"], ["odin", "up"]]
        st.force("up", "up", "up")
        st.apply("invoke cheru with tyr's rune")
        assert h.returns == ["tyr"] and h.god_rune() is None
        assert "tyr" not in [g for g, _ in st.altar] and "tyr" not in st.box_gods()
        assert st.to_json()["position"]["heroes"]["berserk"]["returns"] == ["tyr"]
        if attack:
            foe(st, "clan_warrior", "B1")
            st.force("blank", "blank", "dagger", "axe")
            st.apply("attack using tiwaz")
            events = st.apply("attack B1 with cheru")
            assert any(e.text == "Berserk returns Tyr's rune to the altar after the attack"
                       for e in events)
        else:
            events: list = []
            runes(st, "berserk", uruz="used", thurisaz="used", tiwaz="used", hagalaz="used")
            st.final_phase(events)
        assert h.returns == [] and "cheru" not in h.bonus
        assert ["tyr", "up"] in st.altar
