"""What people read: action texts use names (never internal ids) and every action has a label
with the numbers the rules give, and the board targets it involves."""

from __future__ import annotations

import re

import pytest
from runaljod_kit import foe, make, put, runes
from runaljod_kit import sq as sq_

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Target
from meadhall.games.runaljod import GAME
from meadhall.games.runaljod.describe import attack_odds, check_odds

NAME_TEXT = re.compile(r"^[a-z0-9 '+:()\-]+$")


def _plain(text: str) -> str:
    """The text without square names (``K3``, ``AB4``) and the word ``AI``."""
    return re.sub(r"\b[A-Z]{1,2}\d+\b|\bAI\b", "", text)


@pytest.mark.parametrize("setup", [
    {"heroes": ["berserk", "volva"]},
    {"scenario": "adventure-level2", "heroes": ["volva", "berserk", "hunter", "warrior"]},
])
def test_action_texts_use_names_and_every_action_has_a_label(setup: dict) -> None:
    for seed in range(2):
        st = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        steps = 0
        while st.decision() is not None and steps < 400:
            acts = st.described_actions()
            texts = [a.text for a in acts]
            assert len({t.lower() for t in texts}) == len(texts)  # unique, ignoring case
            for a in acts:
                assert "_" not in a.text, a.text  # no internal ids such as bearded_axe
                assert NAME_TEXT.match(_plain(a.text)) or not _plain(a.text), a.text
                assert a.label and a.label != a.text, a.text
            st.apply(bot.choose(st))
            steps += 1


@pytest.mark.rule("runaljod", "Basic Actions")
def test_the_two_movement_spaces_say_how_they_differ() -> None:
    """Issue 13: ``move1 with uruz: move 3`` beside ``move2 with uruz: move 2`` did not say
    how they differ; the texts now name the movement points the space gives."""
    st = make()
    put(st, "berserk", "B3")
    put(st, "volva", "F3")
    runes(st, "berserk", uruz="down")
    acts = {a.text: a for a in st.described_actions()}
    three, two = acts["move 3 using uruz"], acts["move 2 using uruz"]
    assert "3 movement points" in three.label and "face down" in three.label
    assert three.targets[0] == Target("space", "berserk:move1", "3 MP")
    assert two.targets[0] == Target("space", "berserk:move2", "2 MP")


@pytest.mark.rule("runaljod", "Attack")
def test_attack_label_gives_the_dice_defence_and_odds() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    e = foe(st, "clan_warrior", "B1")
    reduced = st.clone()
    placing = st.describe("attack using uruz")
    assert placing.label == ("Berserk makes an attack using uruz (face up), then chooses the "
                             "weapon and the target")
    assert Target("square", "B1") in placing.targets
    assert Target("space", "berserk:attack1") in placing.targets
    st.apply("attack using uruz")
    a = st.describe("attack B1 with bearded axe")
    # Bearded Axe (black, black) + Fury (black) against 1 defence; upgrade: +1 damage
    exp, kill = attack_odds(st.content, ["black", "black", "black"], set(), 1, [(1, 1)], 4)
    assert a.label.startswith(f"Berserk attacks Clan Warrior {e.uid} at B1 with the Bearded "
                              "Axe: black, black, black against 1 defence: "
                              f"{exp:.1f} damage expected, defeats it {kill:.0%}")
    assert Target("square", "B1", f"{exp:.1f} dmg") in a.targets
    assert Target("figure", f"enemy{e.uid}", f"{exp:.1f} dmg") in a.targets
    assert Target("card", "berserk:bearded_axe") in a.targets
    reduced.apply("reduced attack using tiwaz")
    r = reduced.describe("attack B1 with bearded axe")
    assert "reduced attack" in r.label and "black, black against" in r.label


def test_attack_odds_match_a_hand_count() -> None:
    """One black die (blank, dagger, axe, axe, double axe, upgrade) against 1 defence with a
    +1 damage upgrade: 0, 1, 2, 2, 3, 0+1 less 1 defence = 0, 0, 1, 1, 2, 0: 4/6 expected; 4
    life: never defeated."""
    exp, kill = attack_odds(GAME.content, ["black"], set(), 1, [(1, 1)], 4)
    assert exp == pytest.approx(4 / 6) and kill == 0
    exp, kill = attack_odds(GAME.content, ["black"], {"axe"}, 0, [], 2)
    assert exp == pytest.approx((0 + 1 + 0 + 0 + 2 + 0) / 6) and kill == pytest.approx(1 / 6)
    assert check_odds(GAME.content, ["white", "white"]) == pytest.approx(1 - (4 / 6) ** 2)


@pytest.mark.rule("runaljod", "Perform Checks")
def test_check_label_gives_the_dice_and_the_chance_to_pass() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    h = st.heroes["berserk"]
    h.conditions = ["frozen"]
    st.start_conditions([])
    st.phase, st.active = "condition", ""
    st._advance([])
    a = st.describe("physical check using uruz")
    p = check_odds(st.content, ["black", "black"])
    assert f"({p:.0%})" in a.label and Target("space", "berserk:physical", f"{p:.0%}") \
        in a.targets


@pytest.mark.rule("runaljod", "God's Powers")
def test_power_labels_name_the_enemy_and_the_life_lost() -> None:
    st = make()
    put(st, "berserk", "A1")
    put(st, "volva", "F3")
    e = foe(st, "clan_warrior", "C1")
    runes(st, "berserk", uruz="side")
    a = st.describe("invoke thor on C1 using uruz")
    assert a.label == (f"Berserk invokes Thor using uruz (sideways): Clan Warrior {e.uid} at C1 "
                       "loses 2 life points; the altar is re-thrown")
    assert Target("figure", "altar:thor") in a.targets
    assert Target("square", "C1", "2 dmg") in a.targets


def test_the_table_draws_tiles_figures_runes_altar_and_time_track() -> None:
    st = make(["........", "........", "........", "........"])
    put(st, "berserk", "A1")
    put(st, "volva", "C3")
    jotun = foe(st, "jotun", "F2")
    jotun.also = sq_("F3")
    w = foe(st, "clan_warrior", "B2")
    w.conditions = ["stun"]
    runes(st, "berserk", uruz="side", tiwaz="down", thurisaz="used")
    st.altar = [["tyr", "side"], ["thor", "down"]]
    st.time, st.end = 5, 12
    scene = GAME.draw(st.view("berserk"))
    board = scene.boards[0]
    assert {c.id for c in board.cells} == {f"{c}{r}" for c in "ABCDEFGH" for r in (1, 2, 3, 4)}
    tokens = {t.id: t for t in board.tokens}
    assert tokens[f"enemy{jotun.uid}"].cells == ["F2", "F3"]
    assert tokens[f"enemy{jotun.uid}"].side == "boss"
    assert tokens[f"enemy{w.uid}"].badges == ["stun"]
    assert tokens[f"enemy{w.uid}"].stats["defence"] == 1
    assert tokens["berserk"].target == "figure:berserk" and tokens["berserk"].at == "A1"
    panel = next(p for p in scene.panels if p.id == "berserk")
    rune = {t.id: t for t in panel.tracks[0].tokens}
    assert rune["berserk:uruz"].facing == 90 and rune["berserk:uruz"].at == "pool"
    assert rune["berserk:tiwaz"].face_down and rune["berserk:thurisaz"].at == "move1"
    assert "space:berserk:attack2" in scene.targets()
    altar = next(p for p in scene.panels if p.id == "altar")
    assert [(t.id, t.face_down, t.facing) for t in altar.tokens] == [
        ("altar:tyr", False, 90), ("altar:thor", True, 0)]
    time = scene.tracks[0]
    assert time.value == 5 and time.marks == {4: "snake", 8: "snake", 12: "snake"}
    assert [t.at for t in time.tokens] == ["5", "12"]


def test_the_table_never_shows_the_hidden_exploration_cards() -> None:
    import json

    st = GAME.new_game({"heroes": ["berserk", "volva"]}, 3)
    hidden = set(st.exploration.pile) | set(st.exploration.bottom)
    assert hidden
    drawn = json.dumps(GAME.draw(st.view(None)).to_json())
    assert not any(c in drawn for c in hidden)


@pytest.mark.rule("runaljod", "Single-Player Game")
def test_a_single_player_has_one_seat_for_both_heroes() -> None:
    solo = GAME.new_game({"heroes": ["berserk", "volva"], "players": 1}, 0)
    assert solo.seats() == ["player"]
    assert solo.seat_of("berserk") == solo.seat_of("volva") == "player"
    assert solo.seat_of("players") == "players"
    panels = {p.id: p.seat for p in GAME.draw(solo.view("player")).panels}
    assert panels["berserk"] == panels["volva"] == "player"
    duo = GAME.new_game({"heroes": ["berserk", "volva"], "players": 2}, 0)
    assert duo.seats() == ["berserk", "volva"] and duo.seat_of("volva") == "volva"


def test_legends_are_in_the_help_not_on_the_board() -> None:
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, 0)
    assert "Legend" not in st.render() and "obstacle" in st.render_help()


@pytest.mark.parametrize("setup", [
    {"heroes": ["berserk", "volva"]},
    {"scenario": "adventure-level2", "heroes": ["volva", "berserk", "hunter", "warrior"]},
])
def test_action_vocabulary_is_fixed_unique_small_and_covers_random_games(setup: dict) -> None:
    vocab = GAME.action_vocabulary(setup)
    assert vocab == GAME.action_vocabulary(dict(setup))  # a fixed order
    assert len(set(vocab)) == len(vocab) and len(vocab) < 30_000
    assert vocab[0] == "pass"
    words = set(vocab)
    for seed in range(2):
        st = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        while st.decision() is not None:
            assert {a.text for a in st.legal_actions()} <= words
            st.apply(bot.choose(st))


def test_action_vocabulary_refuses_a_bad_setup() -> None:
    from meadhall.core.errors import ContentError

    with pytest.raises(ContentError):
        GAME.action_vocabulary({"heroes": ["berserk", "loki"]})
