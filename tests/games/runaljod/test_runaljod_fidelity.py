"""Rule fidelity, second pass (issue 14): each situation is built from a hand-written position
(docs/formats/runaljod.md) and checked against the rulebook's text; each worked example
asserts every outcome the players may choose."""

from __future__ import annotations

import pytest
from runaljod_kit import pool, position, sq

from meadhall.core.protocol import PLAYERS
from meadhall.games.runaljod import GAME
from meadhall.games.runaljod.content import AiAction

BERSERK = ("thurisaz", "uruz", "tiwaz", "hagalaz")
VOLVA = ("ansuz", "berkano", "laguz", "kenaz")
HUNTER = ("eihwaz", "raidho", "sowilo", "gebo")


def texts(st) -> list[str]:
    return [a.text for a in st.legal_actions()]


# ------------------------------------------------------------------ fallen heroes
@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_a_hero_who_recovers_alone_cannot_act_in_that_heroes_turn() -> None:
    """"If the fallen hero doesn't receive help from another hero to recover, the fallen hero
    cannot perform an action on the next hero's turn." It used to act at once."""
    st = position(
        {"berserk": {"at": "A1", "runes": pool(*BERSERK)},
         "volva": {"at": "C3", "fallen": True, "damage": 8,
                   "runes": [[r, "down", "out"] for r in VOLVA]}},
        phase="destiny",
        ask={"kind": "recover", "seat": "volva", "section": "Damage, Wounds and Life Points",
             "prompt": "Volva has fallen: recover on your own or stay down?",
             "options": ["recover on my own", "stay down"], "default": None})
    st.force("up", "side", "down", "down")  # the recovery throw: 2 + 3 life points
    events = st.apply("recover on my own")
    v = st.heroes["volva"]
    assert not v.fallen and st.life_left(v) == 5 and v.passed
    assert any("cannot act in this heroes' turn" in e.text for e in events)
    assert st.decision().seat == "berserk"
    assert "hand over to volva" not in texts(st)
    # the next heroes' turn she acts again
    st.heroes["berserk"].passed = True
    st.start_preparation([])
    assert not v.passed


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_a_hero_helped_up_acts_in_the_same_turn() -> None:
    """Helped by another hero, the fallen hero stands up with its runes in the destiny area
    and is not kept from acting."""
    st = position(
        {"berserk": {"at": "A1", "runes": pool(*BERSERK)},
         "volva": {"at": "B1", "fallen": True, "damage": 8,
                   "runes": [[r, "down", "out"] for r in VOLVA]}},
        active="berserk")
    st.force("blank", "blank", "up", "up", "side", "down")  # check (2 black), then the runes
    st.apply("assist volva using uruz")
    v = st.heroes["volva"]
    assert not v.fallen and not v.passed and st.life_left(v) == 7
    assert "hand over to volva" in texts(st)


# ------------------------------------------------------------------ enemy movement
def _enemies_turn(enemy: dict, ai: str, volva_at: str, berserk_at: str = "A1"):
    """The heroes pass into an enemies' turn whose AI card is ``ai``."""
    return position(
        {"berserk": {"at": berserk_at, "runes": pool(*BERSERK), "passed": True},
         "volva": {"at": volva_at, "runes": pool(*VOLVA)}},
        enemies=[enemy], active="volva", active_card="i_shore",
        decks={"ai": {"name": "enemy AI", "pile": [ai]},
               "exploration": {"name": "exploration", "pile": ["s_ford", "s_barrow"],
                               "bottom": ["c_hall"], "reshuffle": False}})


@pytest.mark.rule("runaljod", "Movement")
def test_an_enemy_already_next_to_a_hero_does_not_walk_away_toward_its_target() -> None:
    """"If the enemy is already adjacent to the heroes, or if it cannot move, it doesn't
    perform the action": on card ai1 the Clan Warriors move toward the Berserk first, but
    this one stands next to the Volva: it stays and attacks her (its next valid icon)."""
    st = _enemies_turn({"uid": 1, "kind": "clan_warrior", "at": "E4"}, "ai1", "E3")
    st.force("blank", "blank")  # its attack on the Volva
    events = st.apply("pass")
    w = st.enemies[0]
    assert w.at == sq("E4")
    assert any("does not move: already adjacent to Volva" in e.text for e in events)
    assert any(e.kind == "enemy-attack" and "attacks Volva" in e.text for e in events)


@pytest.mark.rule("runaljod", "Movement")
def test_after_attacking_an_adjacent_hero_an_enemy_does_not_move_on() -> None:
    """Card ai3: Clan Warriors attack, then move toward the Warrior, Berserk, Volva, Hunter:
    after attacking the Volva next to it, it stays (it used to walk to the Berserk)."""
    st = _enemies_turn({"uid": 1, "kind": "clan_warrior", "at": "E4"}, "ai3", "E3")
    st.force("blank", "blank")
    events = st.apply("pass")
    assert st.enemies[0].at == sq("E4")
    assert any("does not move: already adjacent to Volva" in e.text for e in events)


@pytest.mark.rule("runaljod", "Movement")
def test_an_enemy_next_to_no_hero_still_moves_toward_its_target() -> None:
    st = _enemies_turn({"uid": 1, "kind": "clan_warrior", "at": "H4"}, "ai1", "D6")
    st.force("blank", "blank")
    st.apply("pass")
    while st.decision().seat == PLAYERS:  # the players may pick among equal spaces
        st.apply(st.decision().default)
    assert st.enemies[0].at != sq("H4")


# ------------------------------------------------------------------ Fleet Foot
@pytest.mark.rule("runaljod", "Movement")
def test_fleet_foot_adds_its_point_to_skill_movements_too() -> None:
    """The Hunter's Fleet Foot (authored): "+1 movement point on every movement action":
    Stalk (Move 3 with Quick) gives 4, as a basic movement gives 4 + 1."""
    st = position({"hunter": {"at": "A1", "runes": pool(*HUNTER), "skills": ["stalk"]},
                   "volva": {"at": "H6", "runes": pool(*VOLVA)}}, active="hunter")
    assert "move 5 using eihwaz" in texts(st)
    st.apply("skill stalk")
    assert st.ask["kind"] == "move" and st.ask["points"] == 4
    st2 = position({"hunter": {"at": "A1", "runes": pool(*HUNTER), "skills": ["stalk"],
                               "damage": 3},  # the coloured spaces are covered
                    "volva": {"at": "H6", "runes": pool(*VOLVA)}}, active="hunter")
    assert "move 4 using eihwaz" in texts(st2)
    st2.apply("skill stalk")
    assert st2.ask["points"] == 3


# ------------------------------------------------------------------ recovering destiny
@pytest.mark.rule("runaljod", "Destiny")
def test_the_hero_chooses_which_runes_recovering_destiny_flips_face_up() -> None:
    """"You flip as many runes face up as the recover icons shown": which ones is the hero's
    choice (it used to be board order). Rune Sight recovers 2 of 3 face down runes."""
    runes = [["ansuz", "down", "pool"], ["berkano", "down", "pool"],
             ["laguz", "down", "pool"], ["kenaz", "up", "pool"]]
    st = position({"volva": {"at": "A1", "runes": runes, "skills": ["rune_sight"]},
                   "berserk": {"at": "H6", "runes": pool(*BERSERK)}}, active="volva")
    st.apply("skill rune sight")
    assert st.decision().seat == "volva" and st.decision().section == "Destiny"
    assert texts(st) == ["flip ansuz and berkano face up", "flip ansuz and laguz face up",
                         "flip berkano and laguz face up"]
    for choice, up in (("flip ansuz and laguz face up", {"ansuz", "laguz"}),
                       ("flip berkano and laguz face up", {"berkano", "laguz"})):
        c = st.clone()
        c.apply(choice)
        v = c.heroes["volva"]
        assert {r.icon for r in v.runes if r.place == "pool" and r.side == "up"} == up
    # with no more face down runes than the icons, nothing is asked
    st2 = position({"volva": {"at": "A1", "runes": [*runes[1:3], runes[3], ["ansuz", "up",
                                                                             "pool"]],
                              "skills": ["rune_sight"]},
                    "berserk": {"at": "H6", "runes": pool(*BERSERK)}}, active="volva")
    st2.apply("skill rune sight")
    assert all(r.side == "up" for r in st2.heroes["volva"].pool())
    assert st2.decision().seat == "volva" and st2.ask is None


@pytest.mark.rule("runaljod", "2 Player Game")
def test_the_hero_who_recovers_destiny_from_the_two_player_card_chooses_the_rune() -> None:
    st = position({"berserk": {"at": "A1", "runes": pool(*BERSERK)},
                   "volva": {"at": "H6", "runes": pool(*VOLVA, side="down")}},
                  active="berserk")
    st.apply("2-player card: recover 1 destiny for volva")
    assert st.decision().seat == "volva"
    assert texts(st) == [f"flip {r} face up" for r in VOLVA]


# ------------------------------------------------------------------ Thor and large enemies
@pytest.mark.rule("runaljod", "God's Powers")
def test_thor_reaches_a_large_enemy_standing_partly_on_the_heros_tile() -> None:
    """"Target one enemy miniature on your tile": the Frost Jotun covers H3 (first tile) and
    I3 (second tile): it is on both tiles."""
    tiles = [{"tile": "shore", "card": "i_shore", "x": 0},
             {"tile": "hall", "card": "c_hall", "x": 8}]
    jotun = {"uid": 3, "kind": "jotun", "at": "H3", "also": "I3"}
    for hero_at, square in (("F2", "H3"), ("L2", "I3")):
        st = position({"berserk": {"at": hero_at, "runes": pool(*BERSERK, side="side")},
                       "volva": {"at": "M6", "runes": pool(*VOLVA)}},
                      enemies=[jotun], active="berserk", tiles=tiles,
                      cards_played=["i_shore", "c_hall"])
        opts = [t for t in texts(st) if t.startswith("invoke thor") and t.endswith("uruz")]
        assert opts == [f"invoke thor on {square} using uruz",
                        "invoke thor on every enemy of the tile using uruz"]
        st.force("up", "up", "up", "up")
        st.apply("invoke thor on every enemy of the tile using uruz")
        assert st.enemies[0].damage == 1


# ------------------------------------------------------------------ sentences
@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_sentences_say_what_the_engine_did() -> None:
    st = position({"berserk": {"at": "A1", "runes": pool(*BERSERK), "glory": 5,
                               "skill_points": 3},
                   "volva": {"at": "H6", "runes": pool(*VOLVA)}}, active="berserk")
    events: list = []
    st.gain_glory(st.heroes["berserk"], 2, events, "test")
    assert events[0].text.startswith("Berserk gains 0 glory points (the glory track is full)")
    h = st.heroes["volva"]
    st.lose_life(h, 99, "test", "test", [])
    events = []
    st.force("down", "down", "down", "down")
    st.raise_hero(h, 0, events, "test", alone=True)
    assert "no life point, stands up with 1 (ruling 27), 1 left" in events[0].text
    assert st.life_left(h) == 1


# ------------------------------------------------------------------ content
@pytest.mark.rule("runaljod", "Adventure Mode (Single Session)")
def test_every_exploration_card_places_its_elements_on_open_spaces() -> None:
    """Found playing whole games: the authored Hunters' Camp put a Clan Hunter on an obstacle
    (F5 of the Pine Woods). Every element of every card now stands on an open space."""
    c = GAME.content
    for cid, card in c.exploration.items():
        rows = c.tiles[card.tile].rows
        for el in card.elements:
            for at in filter(None, (el.at, el.also)):
                x, y = sq(at)
                assert rows[y][x] != "#", (cid, el)
    camp = next(el for el in c.exploration["s_pines"].elements if el.type == "clan_hunter"
                and el.at != "G3")
    assert camp.at == "E5"


def test_content_refuses_an_element_on_an_obstacle() -> None:
    from meadhall.core.errors import ContentError
    from meadhall.games.runaljod.content import CardsFile

    data = GAME.content.model_dump()
    cards = {"authored": True, "exploration": data["exploration"], "events": data["events"],
             "search": data["search"]}
    cards["exploration"]["s_pines"]["elements"][1]["at"] = "F5"
    model = CardsFile.model_validate(cards)
    with pytest.raises(ContentError, match=r"s_pines.*F5.*obstacle"):
        GAME.check_content("cards.json", model)


# ------------------------------------------------------------------ worked examples
@pytest.mark.rule("runaljod", "Adventure Mode (Single Session)")
@pytest.mark.parametrize("heroes,expected", [
    (("berserk", "volva"), {"clan_warrior": 1, "northern_wolf": 1}),
    (("berserk", "volva", "hunter"), {"clan_warrior": 2, "northern_wolf": 2}),
    (("berserk", "volva", "hunter", "warrior"),
     {"clan_warrior": 2, "northern_wolf": 2, "clan_hunter": 1}),
])
def test_setup_fig_1_enemies_and_starting_spaces_by_number_of_heroes(
        heroes: tuple[str, ...], expected: dict[str, int]) -> None:
    """Setup step 3, Fig. 1: "for a 3-player game, place 2 Northern Wolves and 2 Clan
    Warriors" (the authored initial card The Frozen Shore reproduces the figure's counts);
    the yellow circle: the heroes' starting spaces, which the players assign."""
    from meadhall.core.protocol import START

    st = GAME.blank_state(GAME.normalise_setup({"heroes": list(heroes)}), 0)
    st.force("tyr", "freyja", "thor", "odin", "i_shore")  # altar runes, then the initial card
    st._run_atomic(START, [])
    assert st.active_card == "i_shore"
    kinds: dict[str, int] = {}
    for e in st.enemies:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    assert kinds == expected
    starts = {2: ["A3", "A4"], 3: ["A3", "A4", "B3"], 4: ["A3", "A4", "B3", "B4"]}[len(heroes)]
    d = st.decision()
    assert d.seat == PLAYERS
    assert texts(st) == [f"place {heroes[0]} on {s}" for s in starts]
    placed = []
    for h in heroes:  # the players place each hero on one of the spaces left
        free = [s for s in starts if s not in placed]
        if len(free) > 1:
            assert texts(st) == [f"place {h} on {s}" for s in free]
            st.apply(f"place {h} on {free[-1]}")
        placed.append(free[-1])
    assert {st.sqname(st.heroes[h].at) for h in heroes} == set(starts)


@pytest.mark.rule("runaljod", "Attack")
def test_second_line_of_sight_example_volva_with_range_sees_all_three_enemies() -> None:
    """"In this case Volva would have a clear LoS towards all 3 enemies if she carried a
    weapon with the keyword Range, or Long. In the case of the Berserk, he could only attack
    two of the three adjacent enemies": on the Jotun's Hall the rock on G2 and the enemy on
    F3 flank the enemy on G3, diagonal to the Berserk on F2; the Volva stands on F6 (ruling
    28: the picture's squares are not in the text; "Long" is read as Range)."""
    enemies = [{"uid": 1, "kind": "clan_warrior", "at": "E3"},
               {"uid": 2, "kind": "clan_warrior", "at": "F3"},
               {"uid": 3, "kind": "clan_hunter", "at": "G3"}]
    st = position({"berserk": {"at": "F2", "runes": pool(*BERSERK)},
                   "volva": {"at": "F6", "runes": pool(*VOLVA)}},
                  enemies=enemies, active="berserk")
    assert st.terrain[sq("G2")] == "#"
    st.apply("attack using uruz")
    assert texts(st) == ["attack E3 with bearded axe", "attack F3 with bearded axe"]
    st = position({"berserk": {"at": "F2", "runes": pool(*BERSERK), "passed": True},
                   "volva": {"at": "F6", "runes": pool(*VOLVA)}},
                  enemies=enemies, active="volva")
    st.apply("attack using ansuz")
    assert texts(st) == ["attack E3 with rune staff", "attack F3 with rune staff",
                         "attack G3 with rune staff"]
    # with a weapon without Range she can attack none of them from there
    st = position({"berserk": {"at": "F2", "runes": pool(*BERSERK), "passed": True},
                   "volva": {"at": "F6", "runes": pool(*VOLVA), "equipment": ["hand_axe"]}},
                  enemies=enemies, active="volva")
    assert not any(t.startswith("attack") for t in texts(st))


@pytest.mark.rule("runaljod", "Damage, Wounds and Life Points")
def test_glory_converts_only_once_the_preparation_phase_is_over() -> None:
    """"If you already have 3 skill points and you complete your glory points track, do not
    discard any cubes ... You can only spend 3 skill points per preparation phase, so ... you
    would have to wait until the preparation phase is finished to finally discard the glory
    points on your track to gain a new skill point." Every purchase the players may make is
    tried; the new skill point always arrives at the end of the phase."""
    def prep() -> object:
        return position(
            {"berserk": {"at": "A1", "runes": pool(*BERSERK), "glory": 5, "skill_points": 3},
             "volva": {"at": "H6", "runes": pool(*VOLVA), "skill_points": 0}},
            phase="prep", prep_done=["volva"],
            ask={"kind": "prep", "seat": "berserk", "section": "1. Preparation Phase",
                 "prompt": "Berserk has 3 skill point(s)", "default": None,
                 "options": ["buy frenzy", "buy bloodlust", "buy leap", "buy war cry",
                             "done buying"]})
    st = prep()
    h = st.heroes["berserk"]
    assert texts(st) == ["buy frenzy", "buy bloodlust", "buy leap", "buy war cry",
                         "done buying"]
    # glory 5 and 3 skill points: nothing converts while the phase goes on
    st.apply("buy leap")
    assert (h.skill_points, h.glory) == (1, 5)
    assert texts(st) == ["buy frenzy", "buy bloodlust", "done buying"]
    st.apply("buy frenzy")  # 3 points spent: the phase ends, then the glory converts
    assert (h.skill_points, h.glory) == (1, 0) and h.skills == ["leap", "frenzy"]
    # (skill points, glory) after each way the phase can go
    for choices, after in ((["buy frenzy", "buy bloodlust"], (2, 0)),
                           (["buy war cry", "done buying"], (2, 0)),
                           (["buy bloodlust", "buy leap"], (1, 0)),
                           (["done buying"], (3, 5))):  # nothing spent: the track stays full
        st = prep()
        h = st.heroes["berserk"]
        for t in choices:
            st.apply(t)
        assert st.phase != "prep" and (h.skill_points, h.glory) == after, choices


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_an_attack_with_no_adjacent_hero_goes_to_the_closest_hero_in_weapon_range() -> None:
    """"If an action says "attack an adjacent hero" and there are no adjacent heroes to an
    enemy, then that enemy tries to attack the closest hero that is within its weapon's
    range." An attack line without hero icons: a Clan Hunter (Range) attacks the closer of
    the two heroes it sees; a Clan Warrior (melee) with no hero next to it skips the attack."""
    attack = AiAction(do="attack", targets=[])
    st = position({"berserk": {"at": "H1", "runes": pool(*BERSERK)},
                   "volva": {"at": "E6", "runes": pool(*VOLVA)}},
                  enemies=[{"uid": 1, "kind": "clan_hunter", "at": "H6"},
                           {"uid": 2, "kind": "clan_warrior", "at": "A1"}],
                  active="berserk")
    hunter, warrior = st.enemies
    assert st.sees(hunter.at, sq("H1")) and st.sees(hunter.at, sq("E6"))
    events: list = []
    st.force("blank", "blank")
    st.enemy_action(hunter, attack, events)
    assert any(e.kind == "enemy-attack" and "attacks Volva" in e.text for e in events)
    events = []
    st.enemy_action(warrior, attack, events)
    assert [e.kind for e in events] == ["skip"] and "no hero to attack" in events[0].text
