"""Nothing broken gets in, nothing leaks out (issue 13): any text answered with IllegalAction,
positions refused with the field and the rule, copies handed out, key order irrelevant,
content checked the same way by loading and by ``meadhall validate``, and mutated saves either
refused cleanly or playable."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadhall.bots.random import RandomBot
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.content import NiflheimContent, check, load_content
from meadhall.games.niflheim.testkit import open_map, position
from meadhall.testing import mutate_everything


def played(setup: dict[str, Any] | None, seed: int, steps: int) -> Any:
    s = GAME.new_game(setup, seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if s.decision() is None:
            break
        s.apply(bot.choose(s))
    return s


SAVES = [({"scenario": "2"}, 3, 25), ({"scenario": "5", "heroes": ["frida", "killian"],
                                       "players": {"ann": ["frida"], "bo": ["killian"]}}, 5, 30),
         ({"campaign": True}, 2, 12), ({"scenario": "3", "heroes": ["frida"],
                                        "huskarls": ["gunnar"]}, 4, 40)]


# ----------------------------------------------------------------------------- any text
@pytest.mark.rule("niflheim", "Action Phase")
@pytest.mark.parametrize("text", ["", "   ", "move", "move Z99", "attack", "pass", "ready",
                                  "pass  to", "give", "exit Q", "declare flying", "cover:",
                                  "cover: nobody attack undead 1 with sling", "undead x to A1",
                                  "activate", "result 7", "!force 3", "heal", "unlock"])
def test_any_text_is_answered_with_illegal_action(text: str) -> None:
    for setup, seed, steps in SAVES:
        s = played(setup, seed, steps)
        before = s.to_json()
        with pytest.raises(IllegalAction):
            s.apply(text)
        assert s.to_json() == before
        s.heroes[next(iter(s.heroes))].intent = "walking"  # mid-movement, as in issue 13
        with pytest.raises(IllegalAction):
            s.apply(text)


# ----------------------------------------------------------------------------- copies
def test_to_json_and_view_hand_out_copies() -> None:
    for setup, seed, steps in SAVES:
        s = played(setup, seed, steps)
        c = s.clone()
        want, view = s.to_json(), json.loads(json.dumps(s.view(None)))
        legal = [a.text for a in s.legal_actions()]
        mutate_everything(s.to_json()["position"])
        mutate_everything(s.view(None))
        mutate_everything(s.view(s.decision().seat))
        assert s.to_json() == want and c.to_json() == want and s.view(None) == view
        assert [a.text for a in s.legal_actions()] == legal
        fresh = GAME.new_game(setup, seed)
        assert fresh == played(setup, seed, 0)


# ----------------------------------------------------------------------------- key order
def _sorted_keys(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data, sort_keys=True))


def test_positions_load_the_same_whatever_the_key_order() -> None:
    """Issue 13: the legal-action order changed after a key-sorted round trip."""
    for setup, seed, steps in SAVES:
        s = played(setup, seed, steps)
        back = GAME.from_json(_sorted_keys(s.to_json()))
        assert back == s
        assert [a.text for a in back.legal_actions()] == [a.text for a in s.legal_actions()]
    # Heroes listed out of play order in a hand-written position: hero_order decides.
    p: dict[str, Any] = {"map": open_map(8, 8), "heroes": {"killian": {"at": "H8"},
                                                           "frida": {"at": "A1"}},
                         "active": "frida", "segment": "heroes", "phase": "action",
                         "undead": [], "pool": {"draugr": 1}, "coin_used": True,
                         "spawn": {"S": ["H1"]}}
    s = GAME.from_json({"game": "niflheim", "position": p,
                        "setup": {"scenario": "2", "heroes": ["frida", "killian"]}})
    assert list(s.heroes) == ["frida", "killian"]  # the setup's order, not the key order


# ----------------------------------------------------------------------------- refused
BASE: dict[str, Any] = {"map": open_map(8, 8, {"D4": "#"}), "active": "frida",
                        "pool": {"draugr": 1}, "coin_used": True,
                        "heroes": {"frida": {"at": "C3", "intent": "walking", "mp": 3},
                                   "killian": {"at": "H8"}},
                        "undead": [{"id": 1, "kind": "draugr", "at": "F6"}]}


def refused(change: dict[str, Any], hero: dict[str, Any] | None = None) -> ContentError:
    p = copy.deepcopy(BASE)
    p.update(change)
    if hero is not None:
        p["heroes"]["frida"].update(hero)
    with pytest.raises(ContentError) as e:
        position(p, scenario="2")
    return e.value


@pytest.mark.rule("niflheim", "Terrain")
def test_heroes_on_walls_or_off_the_board_are_refused() -> None:
    e = refused({}, {"at": "D4"})
    assert e.field == "position.heroes.frida.at" and "obstructive" in e.reason
    e = refused({}, {"at": "Z99"})
    assert e.field == "position.heroes.frida.at" and "off the 8x8 map" in e.reason
    e = refused({}, {"at": "nowhere"})
    assert "not a square name" in e.reason


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_health_and_other_values_out_of_bounds_are_refused() -> None:
    assert refused({}, {"health": -1}).field == "position.heroes.frida.health"
    assert "between 1 and 4" in refused({}, {"health": 9}).reason
    assert refused({}, {"health": "abc"}).field == "position.heroes.frida.health"
    assert refused({}, {"mp": 9}).field == "position.heroes.frida.mp"
    assert refused({}, {"glory": -11}).field == "position.heroes.frida.glory"
    assert "unknown item" in refused({}, {"gear": ["banana"]}).reason
    assert refused({}, {"locked_by": 1}).field == "position.heroes.frida.locked_by"
    assert refused({}, {"marker": "asleep"}).field == "position.heroes.frida.marker"
    e = refused({"undead": [{"id": 1, "kind": "dragon", "at": "F6"}]})
    assert e.field == "position.undead.1.kind"
    e = refused({"undead": [{"id": 99, "kind": "draugr", "at": "F6"}]})
    assert "undead numbers run from 1 to" in e.reason
    e = refused({"undead": [{"id": 1, "kind": "draugr", "at": "C3"}]})
    assert "one figure per square" in e.reason
    assert refused({"undead": [{"id": 1, "kind": "troll", "at": "F6", "wounds": 2}]}).field \
        == "position.undead.1.wounds"
    assert refused({"round": 0}).field == "position.round"
    assert refused({"track": 40}).field == "position.track"
    assert refused({"active": "ulf"}).field == "position.active"
    assert refused({"heroes": {"frida": {"at": "C3"}, "odin": {"at": "A1"}}}).field == \
        "position.heroes.odin"
    assert refused({"choice": {"kind": "pray", "prompt": "?", "options": ["x"]}}).field \
        .startswith("position.choice")


def test_a_deleted_optional_campaign_key_loads_and_plays() -> None:
    """Issue 13: a deleted `campaign.interim_counts` crashed later."""
    s = played({"campaign": True}, 2, 12)
    data = s.to_json()
    del data["position"]["campaign"]["interim_counts"]
    back = GAME.from_json(data)
    assert back.camp is not None and back.camp["interim_counts"] == {}
    bot = RandomBot(1)
    for _ in range(40):
        if back.decision() is None:
            break
        back.apply(bot.choose(back))


# ----------------------------------------------------------------------------- content
def refused_content(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> ContentError:
    """The shipped content changed by ``edit``: refused with the same error by loading and by
    ``meadhall validate``."""
    from meadhall.validation import validate_path

    data = json.loads(Path("src/meadhall/games/niflheim/content/niflheim.json").read_text())
    edit(data)
    bad = tmp_path / "niflheim.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError) as by_validate:
        validate_path(bad)
    with pytest.raises(ContentError) as by_load:
        check(NiflheimContent.model_validate(data), str(bad))
    assert str(by_validate.value) == str(by_load.value)
    return by_load.value


@pytest.mark.rule("niflheim", "Setup")
def test_a_start_square_on_a_wall_is_refused_by_load_and_by_validate(tmp_path: Path) -> None:
    def on_a_wall(data: dict[str, Any]) -> None:
        data["scenarios"]["1"]["start"] = "A1"

    e = refused_content(tmp_path, on_a_wall)
    assert e.field == "scenarios.1.start" and "wall" in e.reason
    load_content()  # the shipped content passes


@pytest.mark.rule("niflheim", "Revealing Undead")
def test_a_pool_smaller_than_the_face_down_markers_is_refused_on_load(tmp_path: Path) -> None:
    """Every face-down marker's identity is drawn from the pool when it is revealed, so a
    scenario whose pool holds fewer undead than it has squares D could not be played."""
    def short_pool(data: dict[str, Any]) -> None:
        sc = data["scenarios"]["2"]
        sc["pool"] = {"draugr": len(sc["face_down"]) - 1}

    e = refused_content(tmp_path, short_pool)
    assert e.field == "scenarios.2.pool" and "face-down" in e.reason


# ----------------------------------------------------------------------------- fuzzing
def _paths(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, (*path, i))
    return out


_SAVED = [played(setup, seed, steps).to_json() for setup, seed, steps in SAVES]
WRONG = ["x", -5, 10**9, None, [], {}, 3.5, True, "Z99", "odin", "undead 99"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_saves_are_refused_cleanly_or_play_on(data: st.DataObject) -> None:
    save = copy.deepcopy(data.draw(st.sampled_from(_SAVED)))
    pos = save["position"]
    paths = [p for p in _paths(pos) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent: Any = pos
        for k in path[:-1]:
            if isinstance(parent, dict):
                parent = parent.get(k)
            elif isinstance(parent, list) and isinstance(k, int) and k < len(parent):
                parent = parent[k]
            else:
                parent = None
        if not isinstance(parent, dict | list):
            continue
        key = path[-1]
        if isinstance(parent, list) and (not isinstance(key, int) or key >= len(parent)):
            continue
        if isinstance(parent, dict) and key not in parent:
            continue
        how = data.draw(st.sampled_from(["delete", "wrong", "reorder"]))
        if how == "delete":
            del parent[key]
        elif how == "wrong":
            parent[key] = data.draw(st.sampled_from(WRONG))
        elif isinstance(parent, dict):
            items = list(parent.items())
            parent.clear()
            parent.update(reversed(items))
    try:
        s = GAME.from_json(save)
    except ContentError:
        return
    s.render()
    s.view(None)
    bot = RandomBot(7)
    for _ in range(40):
        if s.decision() is None:
            break
        s.described_actions()
        s.apply(bot.choose(s))
