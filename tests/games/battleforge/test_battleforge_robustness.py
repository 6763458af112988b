"""Nothing broken gets in, nothing live gets out (issue 13): positions are checked on load,
any text given to apply is answered, returned structures are copies, key order is irrelevant,
and mutated saves are refused cleanly or play on."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from bf_helpers import GAME, fresh
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadhall.bots.random import RandomBot
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.protocol import GameState
from meadhall.testing import mutate_everything

G = "battleforge"


def save(seed: int = 3, steps: int = 40, setup: dict | None = None) -> dict:
    """A save after ``steps`` random decisions, as JSON text would give it back."""
    s = GAME.new_game(setup or {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]},
                      seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if s.decision() is None:
            break
        s.apply(bot.choose(s))
    return json.loads(json.dumps(s.to_json()))


def load(data: dict) -> GameState:
    return GameState.from_json(data, "save.json")


@pytest.mark.parametrize(("change", "field"), [
    (lambda p: p["minions"]["A1"].update(type=4), "minions.A1.type"),
    (lambda p: p["minions"].update(X9={"type": 1, "area": "D4"}), "minions.X9"),
    (lambda p: p["minions"]["D1"].update(type=1), "minions.D1"),
    (lambda p: p["champions"]["ragnar"].update(area="Z99"), "champions.ragnar.area"),
    (lambda p: p["champions"]["ragnar"].update(area="A1"), "champions.ragnar.area"),
    (lambda p: p["champions"]["ragnar"].update(health=-3), "champions.ragnar.health"),
    (lambda p: p["champions"]["ragnar"].update(health=40), "champions.ragnar.health"),
    (lambda p: p["champions"]["ragnar"].update(health="twelve"), "champions.ragnar.health"),
    (lambda p: p["champions"]["ragnar"]["boons"].pop(), "champions.ragnar.boons"),
    (lambda p: p["champions"]["ragnar"]["rondel"].__setitem__(0, "cx"),
     "champions.ragnar.rondel"),
    (lambda p: p["champions"].pop("lagertha"), "champions"),
    (lambda p: p["thor"].update(area="A3"), "thor.area"),
    (lambda p: p["thor"]["damage"].update(red=99), "thor.damage.red"),
    (lambda p: p["tokens"].update(A1="heat"), "tokens.A1"),
    (lambda p: p["tokens"].update(D4="lava"), "tokens.D4"),
    (lambda p: p.update(twilight_space=40), "twilight_space"),
    (lambda p: p.update(knockouts=1, marker="red"), "marker"),
    (lambda p: p["reserves"].update(temporary=9), "reserves.temporary"),
    (lambda p: p["gods"]["pile"].append("no_such_card"), "gods"),
    (lambda p: p.update(first_champion="odin"), "first_champion"),
    (lambda p: p.update(unknown_key=1), "unknown_key"),
    (lambda p: p.update(ask={"seat": "ragnar", "prompt": "?", "options": [], "h": "turn"}),
     "ask.options"),
])
@pytest.mark.rule(G, "Definitions")
def test_impossible_positions_are_refused_naming_the_field(change, field: str) -> None:  # type: ignore[no-untyped-def]
    data = save()
    change(data["position"])
    with pytest.raises(ContentError) as e:
        load(data)
    assert f"position.{field}" in str(e.value), str(e.value)


def test_a_save_written_with_sorted_keys_loads_the_same() -> None:
    for seed in range(4):
        data = save(seed, 60, {"scenario": "forge_of_doom",
                               "heroes": ["siegfried", "gunnar", "lagertha"]})
        original = load(data)
        shuffled = json.loads(json.dumps(data, sort_keys=True))
        again = load(shuffled)
        assert again == original
        assert [a.text for a in again.legal_actions()] == \
            [a.text for a in original.legal_actions()]


def test_a_deleted_optional_key_takes_its_default() -> None:
    data = json.loads(json.dumps(fresh(seed=5).to_json()))
    del data["position"]["turn"]["actions"]
    s = load(data)
    assert s.turn["actions"] == 3 and s.legal_actions()
    bot = RandomBot(1)
    for _ in range(40):
        if s.decision() is None:
            break
        s.apply(bot.choose(s))


@pytest.mark.parametrize("text", ["", "   ", "\t", "move", "move space 9", "melee space 1 at",
                                  "step to", "pass pass", "☃", "result 3", "!concede"])
def test_any_text_given_to_apply_is_an_illegal_action(text: str) -> None:
    s = fresh()
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply(text)
    assert s.to_json() == before


def test_to_json_and_view_hand_out_copies() -> None:
    for seed in range(3):
        s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, seed)
        bot = RandomBot(seed)
        for step in range(120):
            if s.decision() is None:
                break
            if step % 10 == 0:
                before = json.dumps(s.to_json(), sort_keys=True)
                c = s.clone()
                mutate_everything(s.to_json())
                mutate_everything(s.view())
                mutate_everything(s.view(s.decision().seat))
                assert json.dumps(s.to_json(), sort_keys=True) == before
                assert json.dumps(c.to_json(), sort_keys=True) == before
            s.apply(bot.choose(s))
    # ...and the shared content is untouched: fresh games play as before.
    for seed in range(8):
        s = GAME.new_game(None, seed)
        bot = RandomBot(seed)
        for _ in range(60):
            if s.decision() is None:
                break
            s.apply(bot.choose(s))


def test_appending_to_a_tasks_steps_in_to_json_changes_nothing() -> None:
    s = GAME.new_game(None, 2)
    bot = RandomBot(2)
    while not any(t.get("t") == "steps" for t in s.tasks):
        s.apply(bot.choose(s))
    saved = json.dumps(s.to_json(), sort_keys=True)
    for t in s.to_json()["position"]["tasks"]:
        if "steps" in t:
            t["steps"].append({"op": "bogus"})
            for step in t["steps"]:
                step["op"] = "bogus"
    assert json.dumps(s.to_json(), sort_keys=True) == saved
    for card in GAME.content.thor_cards.values():
        assert all(st_["op"] != "bogus" for st_ in card.steps)


def test_render_fits_and_never_fails_on_a_loaded_position() -> None:
    s = load(save(7, 100))
    assert s.render() and s.render_help()


def test_validate_and_the_game_refuse_a_broken_map_alike(tmp_path: Path) -> None:
    from meadhall.games.battleforge.components import BattleForgeContent
    from meadhall.validation import validate_path

    data = json.loads((Path(__file__).parents[3] / "src/meadhall/games/battleforge/content/"
                       "battleforge.json").read_text())
    data["scenarios"]["last_flame"]["map"]["walls"].append(["A2", "G7"])
    path = tmp_path / "battleforge.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ContentError) as by_validate:
        validate_path(path)
    model = BattleForgeContent.model_validate(data)
    with pytest.raises(ContentError) as by_game:
        GAME.check_content(str(path), model)
    assert str(by_validate.value) == str(by_game.value)
    assert "scenarios.last_flame.map.walls" in str(by_game.value)


# ---------------------------------------------------------------- mutated saves (hypothesis)
def save_at(handler: str, seed: int = 11) -> dict:
    """The first save of a random game whose decision is asked by ``handler``."""
    s = GAME.new_game({"scenario": "forge_of_doom", "heroes": ["ragnar", "lagertha"]}, seed)
    bot = RandomBot(seed)
    while s.decision() is not None and s.ask["h"] != handler:
        s.apply(bot.choose(s))
    return json.loads(json.dumps(s.to_json()))


BASE = save(11, 70)
BASES = [BASE, save_at("manage"), save_at("defend"), save_at("relocate")]


def paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += paths(v, (*prefix, i))
    return out


POSITION_PATHS = sorted({p for b in BASES for p in paths(b["position"]) if p}, key=repr)
ODD_VALUES = [None, -1, 0, 1, 7, 99, 10**9, "", "A1", "Z99", "ragnar", "odin", "heat", [], {},
              [1, 2], {"x": 1}, True, 2.5, "thor-red"]


def get_parent(root: Any, path: tuple) -> tuple[Any, Any]:
    node = root
    for k in path[:-1]:
        node = node[k]
    return node, path[-1]


def test_saves_whose_queued_steps_no_longer_fit_are_refused() -> None:
    """Found by the fuzz test below: a card step's cursor that is not a number, and a pending
    relocation offering a cube its rondel space no longer holds, crashed in apply."""
    data = copy.deepcopy(BASES[2])  # a Champion defends mid-card: card steps are queued
    at = next(i for i, t in enumerate(data["position"]["tasks"]) if t["t"] == "steps")
    data["position"]["tasks"][at]["i"] = None
    with pytest.raises(ContentError, match=rf"tasks\[{at}\]\.i"):
        load(data)
    data = copy.deepcopy(BASES[3])
    assert data["position"]["ask"]["h"] == "relocate"
    cid = data["position"]["tasks"][0]["c"]
    data["position"]["champions"][cid]["rondel"] = ["c", "", "", "", "", ""]
    with pytest.raises(ContentError, match=r"ask\.options.*Relocate"):
        load(data)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(range(len(BASES))),
       st.lists(st.tuples(st.sampled_from(POSITION_PATHS),
                          st.sampled_from(["delete", "value", "reorder"]),
                          st.sampled_from(ODD_VALUES)), min_size=1, max_size=3))
def test_mutated_saves_are_refused_or_play_on(base: int, edits: list) -> None:
    data = copy.deepcopy(BASES[base])
    pos = data["position"]
    for path, how, value in edits:
        try:
            parent, key = get_parent(pos, path)
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(parent, dict) and key in parent:
            if how == "delete":
                del parent[key]
            elif how == "value":
                parent[key] = value
            else:
                items = list(parent.items())
                parent.clear()
                parent.update(reversed(items))
        elif isinstance(parent, list) and isinstance(key, int) and key < len(parent):
            if how == "delete":
                parent.pop(key)
            elif how == "value":
                parent[key] = value
            else:
                parent.reverse()
    try:
        s = load(data)
    except ContentError:
        return
    s.render()
    s.view()
    bot = RandomBot(3)
    for _ in range(40):
        if s.decision() is None:
            break
        s.view(s.decision().seat)
        s.apply(bot.choose(s))
    s.render()
