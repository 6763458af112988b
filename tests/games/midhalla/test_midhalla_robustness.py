"""Nothing broken gets in (issue 13): loaded positions are checked field by field, any text
given to apply is refused cleanly, what leaves the engine is a copy, key order never matters,
and content files are refused by `validate` exactly as the game refuses them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from typer.testing import CliRunner

from meadhall import games
from meadhall.bots.random import RandomBot
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.games.midhalla.content import Chapter
from meadhall.games.midhalla.testkit import layout, line, position
from meadhall.testing import mutate_everything

G = games.get("midhalla")
CHAPTERS = Path(G.content_models.__code__.co_filename).parent / "content" / "chapters"


def saves(seed: int = 1, steps: tuple[int, ...] = (0, 5, 25, 60, 140)) -> list[dict]:
    """Real saves of a random game at a few points."""
    st = G.new_game({"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]}, seed)
    bot, out = RandomBot(seed), []
    for i in range(max(steps) + 1):
        if st.decision() is None:
            break
        if i in steps:
            out.append(st.to_json())
        st.apply(bot.choose(st))
    return out


def refused(field: str, **pos: Any) -> str:
    with pytest.raises(ContentError) as e:
        G.from_json(position(**pos))
    assert e.value.field.startswith(f"position.{field}"), e.value
    return e.value.reason


# ------------------------------------------------------------------ invariants
def test_a_gate_below_zero_or_above_twenty_is_refused() -> None:
    assert "0 to 20 HP" in refused("gate_hp", gate_hp=-20)
    assert "0 to 20 HP" in refused("gate_hp", gate_hp=21)
    assert "lost the chapter" in refused("gate_hp", gate_hp=0)


def test_map_tiles_must_be_near_linked_both_ways_and_apart() -> None:
    far = layout({"G": (0, 0), "far": (10 ** 30, 0)}, [], {"G"})
    assert "within 100 tiles" in refused("tiles.far.at", tiles=far)
    one_way = line(2, 1)
    del one_way["t1"]["links"]["W"]
    assert "both tiles" in refused("tiles.t1.links.W", tiles=one_way)
    apart = line(2, 1)
    apart["t2"]["at"] = [5, 5]
    assert "does not lie" in refused("tiles.t1.links.E", tiles=apart)
    assert "gate map tile" in refused("tiles", tiles=layout({"X": (0, 0)}, []))


def test_a_wrong_type_names_its_field() -> None:
    with pytest.raises(ContentError) as e:
        G.from_json(position(silver="3"))
    assert e.value.field == "position.silver" and "invalid literal" not in str(e.value)
    with pytest.raises(ContentError) as e:
        G.from_json(position(heroes={"harkon": {"hp": "lots"}, "enyk": {}}))
    assert e.value.field == "position.heroes.harkon.hp"
    with pytest.raises(ContentError) as e:
        G.from_json({"game": "midhalla", "position": 3})
    assert "position" in e.value.field


def test_unknown_ids_and_values_beyond_the_rules_are_refused() -> None:
    assert "unknown enemy" in refused("enemies.e1.card",
                                      enemies={"e1": {"card": "dragon", "tile": "G"}})
    assert "unknown map tile" in refused("enemies.e1.tile",
                                         enemies={"e1": {"card": "draugr", "tile": "Z99"}})
    assert "e1 to e" in refused("enemies.e999", enemies={"e999": {"card": "draugr",
                                                                   "tile": "G"}})
    assert "1 to 4 HP" in refused("enemies.e1.hp",
                                  enemies={"e1": {"card": "draugr", "tile": "G", "hp": 9}})
    assert "HP between 0 and 6" in refused("heroes.harkon.hp",
                                           heroes={"harkon": {"hp": 7}, "enyk": {}})
    assert "unknown skill" in refused("heroes.harkon.top",
                                      heroes={"harkon": {"top": ["fly"]}, "enyk": {}})
    assert "unknown hero" in refused("heroes.bob", heroes={"bob": {}})
    assert "unknown card" in refused("decks.enemy.pile",
                                     decks={"enemy": {"name": "enemy", "pile": ["dragon"]}})
    assert "stock" in refused("traps", tiles=line(3, 4), traps={
        f"t{i}": {"kind": "fire_pit", "tile": "t1"} for i in (1, 2)})
    assert "fate scale" in refused("party.fate", party={"unlocks": {}, "fate": 9})


def test_the_pending_decision_must_be_the_one_the_rules_ask() -> None:
    save = saves(steps=(5,))[0]
    save["position"]["choice"]["options"][0][0] = "win the game"
    with pytest.raises(ContentError, match="not the decision the rules ask"):
        G.from_json(save)
    save = saves(steps=(5,))[0]
    save["position"]["choice"] = None
    with pytest.raises(ContentError, match="someone must be deciding"):
        G.from_json(save)


# ------------------------------------------------------------------ apply and copies
@pytest.mark.parametrize("text", ["", "   ", "nonsense", "!force 3", "replay step 3.3",
                                  "fortify Z99", "build Spike Trap on G", "attack e9",
                                  "done preparing x", "\t\n"])
def test_any_text_given_to_apply_is_an_illegal_action_and_changes_nothing(text: str) -> None:
    for save in saves(steps=(0, 25, 60)):
        st = G.from_json(save)
        before = st.to_json()
        with pytest.raises(IllegalAction):
            st.apply(text)
        assert st.to_json() == before


def test_to_json_and_view_hand_out_copies() -> None:
    for save in saves(steps=(0, 25, 60)):
        st = G.from_json(save)
        twin = st.clone()
        fresh = G.new_game({"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]}, 1)
        fresh_before = _text(fresh.to_json())
        before = _text(st.to_json())
        outs = [st.to_json(), st.view(None), st.view("harkon"), st.measures(),
                *(a.to_json() for a in st.described_actions())]
        for out in outs:
            mutate_everything(out)
        assert _text(st.to_json()) == before and _text(twin.to_json()) == before
        assert _text(fresh.to_json()) == fresh_before
        assert _text(G.new_game({"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]},
                                1).to_json()) == fresh_before


def _text(d: dict) -> str:
    return json.dumps(d, sort_keys=True)


def _reorder(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _reorder(obj[k]) for k in reversed(list(obj))}
    if isinstance(obj, list):
        return [_reorder(v) for v in obj]
    return obj


def test_positions_load_the_same_whatever_the_key_order() -> None:
    for save in saves(steps=(0, 25, 60, 140)):
        a = G.from_json(save)
        b = G.from_json(_reorder(save))
        c = G.from_json(json.loads(json.dumps(save, sort_keys=True)))
        assert a == b == c
        assert [x.text for x in a.legal_actions()] == [x.text for x in b.legal_actions()] \
            == [x.text for x in c.legal_actions()]


# ------------------------------------------------------------------ content files
def test_a_chapter_naming_an_unknown_enemy_is_refused_by_validate_as_by_the_game(
        tmp_path: Path) -> None:
    from meadhall.cli import app

    data = json.loads((CHAPTERS / "chapter1.json").read_text())
    data["enemy_deck"] = [*data["enemy_deck"], "dragon"]
    model = Chapter.model_validate(data)
    with pytest.raises(ContentError, match="unknown enemy 'dragon'"):
        G.check_content("chapter9.json", model)
    path = tmp_path / "chapter9.json"
    path.write_text(json.dumps(data))
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 1 and "unknown enemy 'dragon'" in r.output
    assert "Traceback" not in r.output


# ------------------------------------------------------------------ mutated saves
WRONG = [None, "banana", 2.5, True, [], {}, 3, [1], {"x": 1}, "3"]
OUT_OF_RANGE = [-1, -20, 0, 99, 10 ** 30, 2 ** 31, -(10 ** 30), 1e308]
UNKNOWN = ["Z99", "nobody", "", "A0", "e99", "t99", " "]
BASES = [s["position"] for s in saves(seed=2, steps=(0, 7, 30, 90))]


def _paths(obj: Any, at: tuple = ()) -> list[tuple]:
    out = [at]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_paths(v, (*at, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.extend(_paths(v, (*at, i)))
    return out


def _apply(doc: Any, at: tuple, kind: str, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    if not at:
        return _reorder(doc) if kind == "reorder" else doc
    parent = doc
    for k in at[:-1]:
        parent = parent[k]
    last = at[-1]
    if kind == "delete":
        del parent[last]
    elif kind == "reorder":
        parent[last] = _reorder(parent[last])
    elif kind == "rename" and isinstance(parent, dict):
        parent[value] = parent.pop(last)
    else:
        parent[last] = value
    return doc


@st_.composite
def mutated(draw: st_.DrawFn) -> dict:
    base = draw(st_.sampled_from(BASES))
    doc = base
    for _ in range(draw(st_.integers(1, 3))):
        at = draw(st_.sampled_from(_paths(doc)))
        kind = draw(st_.sampled_from(["delete", "wrong", "range", "unknown", "reorder",
                                      "rename"]))
        value = draw(st_.sampled_from({"wrong": WRONG, "range": OUT_OF_RANGE,
                                       "unknown": UNKNOWN, "rename": UNKNOWN}.get(kind, [None])))
        if kind == "delete" and not at:
            continue
        doc = _apply(doc, at, {"wrong": "set", "range": "set", "unknown": "set"}.get(kind, kind),
                     value)
    return doc


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_positions_are_refused_cleanly_or_play_on(pos: dict) -> None:
    save = {"game": "midhalla", "setup": {"scenario": "chapter2",
                                          "heroes": ["harkon", "enyk", "tora"]},
            "seed": 2, "position": pos}
    try:
        st = G.from_json(save)
    except ContentError:
        return
    st.render()
    st.render_help()
    st.view(None)
    G.draw(st.view(None))
    bot = RandomBot(3)
    for _ in range(40):
        if st.decision() is None:
            break
        st.described_actions()
        st.apply(bot.choose(st))
