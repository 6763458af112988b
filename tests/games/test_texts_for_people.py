"""Every text a player reads is for people: random games of every game and scenario, walked a
bounded number of steps, show no identifier in any action label, target note, event sentence,
decision prompt, drawn scene text or outcome (the pattern: ``tests/textcheck.py``); articles,
plurals and thresholds that cannot be reached read as English."""

from __future__ import annotations

import re

import pytest

from meadhall import games
from meadhall.core import words
from textcheck import id_leaks, known_ids, walk_texts

STEPS = 70
"""Steps per walk: enough to reach the first enemy turn of every game, small enough to stay
fast (each walk also draws the scene every few steps)."""

SETUPS: list[tuple[str, dict[str, object]]] = []
for _g in games.all_games():
    _base = _g.default_setup()
    for _sc in _g.scenarios():
        SETUPS.append((_g.id, {**_base, "scenario": _sc.id}))
SETUPS += [("niflheim", {"scenario": "1", "heroes": ["ragnhild", "ulf"]}),
           ("niflheim", {"campaign": True, "heroes": ["killian"]}),
           ("midhalla", {"scenario": "chapter1", "heroes": ["tora", "ylva", "brand"]}),
           ("midhalla", {"campaign": True}),
           ("battleforge", {"scenario": "last_flame", "heroes": ["gunnar", "siegfried"]}),
           ("battleforge", {"scenario": "forge_of_doom", "heroes": ["lynxshade", "ragnar"],
                            "players": 1}),
           ("runaljod", {"scenario": "adventure", "heroes": ["hunter", "warrior"]}),
           ("toy", {"scenario": "chase", "heroes": ["ada", "bo"]})]


def _leaks(game_id: str, setup: dict[str, object], seeds: range) -> list[str]:
    g = games.get(game_id)
    known = known_ids(g)
    found: dict[str, str] = {}
    for seed in seeds:
        for where, text in walk_texts(g, g.normalise_setup(setup), seed, STEPS):
            for leak in id_leaks(text, known):
                found.setdefault(leak, f"{leak} in {where}: {text[:160]!r}")
    return sorted(found.values())


@pytest.mark.parametrize(("game_id", "setup"), SETUPS,
                         ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in s.items())}"
                              for g, s in SETUPS])
def test_no_identifier_in_any_text_a_player_reads(game_id: str,
                                                  setup: dict[str, object]) -> None:
    assert _leaks(game_id, setup, range(2)) == []


@pytest.mark.parametrize("game_id", games.ids())
def test_setup_choices_are_named_for_people(game_id: str) -> None:
    """The lobby's scenario and hero names (and their notes) are printed names, not ids."""
    g = games.get(game_id)
    known = known_ids(g)
    for info in [*g.scenarios(), *g.heroes()]:
        assert id_leaks(info.name, known) == [], info
        assert id_leaks(info.note, known) == [], info
        assert info.name != info.id or not info.id.islower(), info


def test_the_pattern_finds_the_ids_players_met() -> None:
    """The leaks the table showed before (issue 19, item 6) are all caught."""
    met = ["keep-the-roll 3", "frida-running 6 MP", "harkon.item.throwing_axe",
           "throwing_knives", "spends upgrades on damage:1 and range", "healing_draught",
           "chapter1", "Enemy AI card ai3", "Siegfried's ranged Attack on thor-red"]
    for text in met:
        assert id_leaks(text, {"frida", "harkon", "chapter1"}), text
    fine = ["Frida declares running: 6 MP, attacks at -2", "Flip the Coin of Fate: heads "
            "re-rolls the 7", "4 face-down undead markers", "a one-handed weapon", "d12",
            "Draugr 4 moves to E5", "Thor's Red Face (front), toward north-east", "2 dice"]
    for text in fine:
        assert id_leaks(text, {"frida"}) == [], text


PLURALS = ("cubes|points|dice|cards|steps|actions|chapters|runestones|runes|markers|tokens|"
           "wounds|hits|Areas|enemies|heroes|knockouts|cycles|squares|tiles|spaces|rounds|"
           "turns|minions|Actions|Points|Cubes|Dice|icons")
BAD_GRAMMAR = re.compile(r"(?:^|[.:;!?] )A (?=[AEIOU][a-z])|\ba (?=[AEIOU][a-z])"
                         r"|(?:^|[.:;!?] )An (?=[BCDFGJKLMNPQRSTVWXYZ][a-z])"
                         r"|\ban (?=[BCDFGJKLMNPQRSTVWXYZ][a-z])"
                         rf"|(?<![\d.])\b1 (?:[\w-]+ )?(?:{PLURALS})\b|\(s\)"
                         r"|\bthe undead'(?!s)")
"""'a Arrow Tower', 'an Kobold', '1 cubes', 'point(s)', "the undead' turn"."""


NOT_A_COUNT = re.compile(r"(?:space|spaces|round|Round|level|die|Die|card|step|of|the|tile|"
                         r"Chapter|chapter|Scenario|scenario|-|\+|white|red|green|black),? $")
"""Words before a 1 that make it a name or an ordinal, not a count (space 1, the 1 of)."""


def _grammar_slips(text: str) -> list[str]:
    out = []
    for m in BAD_GRAMMAR.finditer(text):
        if m.group().startswith("1 ") and NOT_A_COUNT.search(text[:m.start()]):
            continue
        if m.group().startswith("1 ") and re.match(r"1 (?:white|red|green|black) dice",
                                                   m.group()):
            continue  # "roll 1 white, 1 red dice"
        if re.match(r"[Aa]n? (?:Uni|Eu|One|U-)", text[m.start():]):
            continue  # "a Unicorn", "a One-eyed"
        out.append(m.group())
    return out


@pytest.mark.parametrize("game_id", games.ids())
def test_articles_and_plurals_read_as_english(game_id: str) -> None:
    g = games.get(game_id)
    found: dict[str, str] = {}
    for setup in [s for gid, s in SETUPS if gid == game_id][:3]:
        for where, text in walk_texts(g, g.normalise_setup(setup), 1, STEPS):
            for slip in _grammar_slips(text):
                found.setdefault(slip, f"{slip!r} in {where}: {text[:160]!r}")
    assert sorted(found.values()) == []


def test_the_shared_helper_says_articles_plurals_and_possessives() -> None:
    assert [words.a(x) for x in ("Arrow Tower", "Spike Trap", "Elite Spawn token", "8",
                                 "+1 Spawn token", "undead marker")] == [
        "an Arrow Tower", "a Spike Trap", "an Elite Spawn token", "an 8", "a +1 Spawn token",
        "an undead marker"]
    assert words.a("Arrow Tower", cap=True) == "An Arrow Tower"
    assert [words.plural(n, w) for n, w in ((1, "cube"), (2, "cube"), (2, "die"), (3, "enemy"),
                                            (2, "box"), (2, "wolf"), (0, "Area"))] == [
        "1 cube", "2 cubes", "2 dice", "3 enemies", "2 boxes", "2 wolves", "0 Areas"]
    assert words.possessive("the undead") == "the undead's"
    assert words.possessive("the heroes") == "the heroes'"
    assert words.join(["Frida", "Ulf", "Killian"]) == "Frida, Ulf and Killian"


def test_a_threshold_that_cannot_be_reached_is_said_so() -> None:
    assert words.needs(13, 12) == "cannot succeed (13+ needed on a d12)"
    assert words.needs(12, 12) == "12+"
    assert words.needs(1, 12) == "always succeeds"
    assert words.needs(9, 8, "white die") == "cannot succeed (9+ needed on a white die)"


IMPOSSIBLE = re.compile(r"\bwith (1[3-9]|[2-9]\d)\+|\b(1[3-9]|[2-9]\d)\+ (?:needed|wins|stuns|"
                        r"wounds|lands|breaks)|up to 99 ")
"""A d12 threshold above 12 offered as reachable, or the data's 'any distance' 99 shown."""


@pytest.mark.parametrize("game_id", ["niflheim", "battleforge"])
def test_no_text_offers_a_threshold_no_die_can_reach(game_id: str) -> None:
    g = games.get(game_id)
    bad = []
    for setup in [s for gid, s in SETUPS if gid == game_id][:3]:
        for seed in range(3):
            for where, text in walk_texts(g, g.normalise_setup(setup), seed, STEPS,
                                          draw_every=10):
                if IMPOSSIBLE.search(text):
                    bad.append(f"{where}: {text[:160]}")
    assert bad == []


def test_niflheim_initiative_says_when_the_undead_cannot_win() -> None:
    from meadhall.games.niflheim.state import _undead_chance

    assert _undead_chance(4, -4) == "beats the heroes' 4 with 9+"
    assert _undead_chance(8, -4) == "cannot beat the heroes' 8; a 12 ties and both roll again"
    assert _undead_chance(9, -4) == "cannot beat or tie the heroes' 9"
    assert _undead_chance(9, 0) == "beats the heroes' 9 with 10+"


def test_battleforge_god_reach_of_the_whole_map_says_any_distance() -> None:
    from meadhall.games.battleforge.gods import _within

    assert [_within(n) for n in (1, 3, 99)] == ["up to 1 Area away", "up to 3 Areas away",
                                                "at any distance"]
