"""Nothing broken gets in, nothing live leaks out (issue 13): positions are checked on load,
any input to apply gives IllegalAction, saves and views are copies, key order does not matter,
and mutated saves are refused cleanly or play on."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from runaljod_kit import pool, position

from meadhall.bots.random import RandomBot
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.protocol import GameState
from meadhall.games.runaljod import GAME
from meadhall.testing import mutate_everything

BERSERK = ("thurisaz", "uruz", "tiwaz", "hagalaz")
VOLVA = ("ansuz", "berkano", "laguz", "kenaz")
EXAMPLE = json.loads((Path(__file__).parents[3] / "docs" / "formats" /
                      "runaljod-example.json").read_text())


def _example(**position_changes: Any) -> dict:
    data = copy.deepcopy(EXAMPLE)
    data["position"].update(position_changes)
    return data


def _refused(data: dict, field: str, words: str = "") -> str:
    with pytest.raises(ContentError) as e:
        GameState.from_json(data)
    assert e.value.field == f"position.{field}", str(e.value)
    assert words in e.value.reason, str(e.value)
    return str(e.value)


def _heroes(**changes: Any) -> dict:
    heroes = copy.deepcopy(EXAMPLE["position"]["heroes"])
    for key, value in changes.items():
        hero, field = key.split("__")
        heroes[hero][field] = value
    return heroes


@pytest.mark.rule("runaljod", "Game Overview")
def test_a_position_breaking_the_rules_is_refused_naming_the_field() -> None:
    # issue 13: a hero off the map used to load and leave no legal action at all
    _refused(_example(heroes=_heroes(berserk__at="Z99")), "heroes.berserk.at",
             "not on the tiles in play")
    _refused(_example(heroes=_heroes(berserk__at="C2")), "heroes.berserk.at", "obstacle")
    _refused(_example(heroes=_heroes(berserk__at="H4")), "heroes.berserk.at", "taken")
    _refused(_example(heroes=_heroes(berserk__damage="x")), "heroes.berserk.damage",
             "whole number")
    _refused(_example(heroes=_heroes(berserk__damage=-1)), "heroes.berserk.damage",
             "from 0 to 10")
    _refused(_example(heroes=_heroes(berserk__damage=99)), "heroes.berserk.damage")
    _refused(_example(heroes=_heroes(berserk__glory=6)), "heroes.berserk.glory")
    _refused(_example(heroes=_heroes(berserk__skill_points=4)), "heroes.berserk.skill_points")
    _refused(_example(heroes=_heroes(berserk__equipment=["banana"])),
             "heroes.berserk.equipment[0]", "unknown")
    _refused(_example(heroes=_heroes(berserk__equipment=["staff", "bearded_axe"])),
             "heroes.berserk.equipment", "too many hands")
    _refused(_example(heroes=_heroes(berserk__conditions=["wound", "wound"])),
             "heroes.berserk.conditions", "twice")
    _refused(_example(heroes=_heroes(berserk__runes=[["uruz", "up", "pool"]])),
             "heroes.berserk.runes", "each once")
    _refused(_example(heroes=_heroes(berserk__skills=["seidr"])), "heroes.berserk.skills[0]")
    _refused(_example(time=99), "time", "from 0 to 15")
    _refused(_example(round="5"), "round", "whole number")
    _refused(_example(phase="lunch"), "phase", "unknown value")
    _refused(_example(altar=[["tyr", "up"], ["thor", "up"], ["odin", "up"], ["vali", "up"],
                             ["freyja", "down"]]), "altar", "more than 4")
    _refused(_example(altar=[["freyja", "up"]]), "heroes.berserk.runes", "also on the altar")
    enemies = copy.deepcopy(EXAMPLE["position"]["enemies"])
    enemies[0]["kind"] = "troll"
    _refused(_example(enemies=enemies), "enemies[0].kind", "unknown value")
    enemies = copy.deepcopy(EXAMPLE["position"]["enemies"])
    enemies[1]["at"] = "O2"
    _refused(_example(enemies=enemies), "enemies", "two miniatures stand on O2")
    enemies = copy.deepcopy(EXAMPLE["position"]["enemies"])
    enemies[1]["damage"] = 4
    _refused(_example(enemies=enemies), "enemies[1].damage", "from 0 to 3")
    _refused(_example(tiles=[{"tile": "ford", "card": "s_ford", "x": 0},
                             {"tile": "shore", "card": "i_shore", "x": 3}]), "tiles[1].x")
    _refused(_example(search_tokens=["M6", "M6"]), "search_tokens", "twice")
    _refused(_example(decks={"exploration": {"name": "exploration", "pile": ["s_nowhere"]}}),
             "decks.exploration.pile[0]", "unknown card")
    _refused(_example(active="warrior"), "active", "unknown value")
    _refused(_example(ask={"kind": "move", "seat": "berserk", "options": ["step Z99"],
                           "points": 2, "keywords": [], "path": [[9, 2]], "ice": 0}),
             "ask.options", "cannot be carried out")


@pytest.mark.rule("runaljod", "Game Overview")
def test_a_position_with_no_hero_able_to_act_is_refused() -> None:
    with pytest.raises(ContentError, match="no hero can act"):
        position({"berserk": {"at": "A1", "runes": pool(*BERSERK), "passed": True},
                  "volva": {"runes": pool(*VOLVA)}})
    with pytest.raises(ContentError, match="waits for a decision"):
        position({"berserk": {"at": "A1", "runes": pool(*BERSERK)},
                  "volva": {"at": "B1", "runes": pool(*VOLVA)}}, phase="enemies")


def test_any_text_given_to_apply_is_an_illegal_action_naming_why() -> None:
    st = GameState.from_json(EXAMPLE)
    before = st.to_json()
    rng = random.Random(5)
    words = ["move", "attack", "using", "with", "uruz", "K3", "Z99", "", "skill", "invoke",
             "thor", "on", "buy", "'s", "rune", "and", "for", "give", "to", "assist", "step",
             "reduced", "search", "equip", "replacing", "2-player", "card:", "hand", "over",
             "pass!", "3", "-1", "99999999999999999999", "\x00", "é"]
    texts = ["", "   ", "\t", "move", "move 3 using", "move x using uruz", "attack using",
             "invoke thor on using uruz", "buy thor's rune with", "skill", "skill ",
             "step", "end move", "place uruz on interact", "flip face down"]
    texts += [" ".join(rng.choice(words) for _ in range(rng.randint(1, 7))) for _ in range(300)]
    for text in texts:
        if text in [a.text for a in st.legal_actions()]:
            continue
        with pytest.raises(IllegalAction):
            st.apply(text)
    assert st.to_json() == before


def test_saves_and_views_are_copies_never_live_state() -> None:
    st = GameState.from_json(EXAMPLE)
    st.apply("move 2 using uruz")  # a pending movement (ask) in the position
    clone = st.clone()
    before = json.dumps(st.to_json(), sort_keys=True)
    for seat in (None, "berserk", "volva", "player"):
        mutate_everything(st.view(seat))
    mutate_everything(st.to_json()["position"])
    mutate_everything(GAME.draw(st.view("berserk")).to_json())
    assert json.dumps(st.to_json(), sort_keys=True) == before
    assert clone == st
    fresh = GAME.new_game(GAME.default_setup(), 42)
    again = GAME.new_game(GAME.default_setup(), 42)
    assert fresh == again


def test_positions_load_the_same_whatever_the_key_order() -> None:
    st = GAME.new_game({"heroes": ["volva", "hunter", "warrior"]}, 4)
    bot = RandomBot(4)
    for step in range(120):
        if st.decision() is None:
            break
        text = json.dumps(st.to_json(), sort_keys=True)
        shuffled = json.loads(text)
        for key in ("position",):
            items = list(shuffled[key].items())
            random.Random(step).shuffle(items)
            shuffled[key] = dict(items)
        for data in (json.loads(text), shuffled):
            back = GameState.from_json(data)
            assert back == st
            assert [a.text for a in back.legal_actions()] == [a.text for a in st.legal_actions()]
        st.apply(bot.choose(st))


# ------------------------------------------------------------------ mutated saves
def _saves() -> list[dict]:
    out = [copy.deepcopy(EXAMPLE)]
    for seed, heroes in ((1, ["berserk", "volva"]), (2, ["hunter", "warrior", "volva"])):
        st = GAME.new_game({"heroes": heroes}, seed)
        bot = RandomBot(seed)
        for step in range(160):
            if st.decision() is None:
                break
            if step % 23 == 5:
                out.append(st.to_json())
            st.apply(bot.choose(st))
    return out


SAVES = _saves()
JUNK = [None, -1, 0, 1, 10**12, 2.5, "", "x", "Z99", "A1", [], {}, [1], ["x"], True,
        {"x": 1}, "god:thor", "troll", "pool", "side"]


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _mutated(save: dict, rng: random.Random) -> dict:
    data = copy.deepcopy(save)
    paths = [p for p in _paths(data["position"]) if p]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        parent = data["position"]
        try:
            for k in path[:-1]:
                parent = parent[k]
            key = path[-1]
            how = rng.randrange(4)
            if how == 0 and isinstance(parent, dict):
                del parent[key]
            elif how == 1:
                parent[key] = rng.choice(JUNK)
            elif how == 2 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
                parent[key] = parent[key] + rng.choice([-100, -1, 1, 7, 1000])
            elif isinstance(parent, dict):  # reorder the keys
                items = list(parent.items())
                rng.shuffle(items)
                parent.clear()
                parent.update(items)
        except (KeyError, IndexError, TypeError):
            continue
    return data


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(min_value=0, max_value=10**9))
def test_mutated_saves_are_refused_cleanly_or_play_on(seed: int) -> None:
    """Keys deleted, wrong types, out-of-range numbers, unknown ids, reordered keys: loading
    either refuses with ContentError or gives a state on which render(), view(), the drawing,
    legal_actions() and 40 random steps work."""
    rng = random.Random(seed)
    data = _mutated(rng.choice(SAVES), rng)
    try:
        st = GameState.from_json(data)
    except ContentError:
        return
    st.render()
    st.render_help()
    json.dumps(st.view(None))
    GAME.draw(st.view(None))
    bot = RandomBot(seed)
    for _ in range(40):
        if st.decision() is None:
            break
        st.described_actions()
        st.apply(bot.choose(st))


def test_validate_refuses_content_the_game_refuses_with_the_same_message(tmp_path: Path) -> None:
    import shutil

    from meadhall.games.runaljod.content import CONTENT_DIR, load_content
    from meadhall.validation import validate_path

    for f in CONTENT_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    cards = json.loads((tmp_path / "cards.json").read_text())
    cards["exploration"]["s_pines"]["elements"][1]["at"] = "F5"  # an obstacle of the pines
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(ContentError) as on_load:
        load_content(tmp_path)
    with pytest.raises(ContentError) as on_validate:
        validate_path(tmp_path / "cards.json")
    assert str(on_load.value) == str(on_validate.value)
    assert "exploration.s_pines.elements[1].at" in str(on_load.value)


@pytest.mark.rule("runaljod", "Single-Player Game")
def test_out_of_range_setups_are_refused_at_setup() -> None:
    for setup, words in (({"heroes": ["berserk", "volva"], "players": 0}, "players"),
                         ({"heroes": ["berserk", "volva", "hunter"], "players": 2}, "each player"),
                         ({"heroes": ["berserk", "volva", "hunter"], "players": 1}, "each player"),
                         ({"heroes": ["berserk"]}, "heroes"),
                         ({"heroes": ["berserk", "berserk"]}, "heroes"),
                         ({"heroes": ["berserk", "loki"]}, "loki"),
                         ({"scenario": "adventure-level3"}, "scenario")):
        with pytest.raises(ContentError, match=words):
            GAME.new_game(setup)
    assert GAME.new_game({"heroes": ["berserk", "volva", "hunter"]}).setup["players"] == 3
