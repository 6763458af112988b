"""A save's shared envelope (setup, seed, chance, log, pending) is checked on load: every
malformed part is refused with the field named, never a raw Python error or a later crash."""

from __future__ import annotations

import copy
import json

import pytest

from meadhall import games
from meadhall.core.chance import BadForcedResult
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.protocol import GameState


def _save() -> dict:
    s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=3)
    s.apply(s.legal_actions()[0])
    return json.loads(json.dumps(s.to_json()))


@pytest.mark.parametrize(("path", "value", "field"), [
    (("chance", "mode"), "dice", "chance.mode"),
    (("chance",), 2.5, "chance"),
    (("chance", "rng"), -1, "chance.rng"),
    (("chance", "rng"), 2**64, "chance.rng"),
    (("chance", "rng"), "7", "chance.rng"),
    (("chance", "queue"), [[1]], "chance.queue"),
    (("setup",), 3, "setup"),
    (("position",), 3, "position"),
    (("seed",), -5, "seed"),
    (("seed",), True, "seed"),
    (("log",), ["move B1", 4], "log"),
    (("auto_choices",), "yes", "auto_choices"),
    (("conceded",), 1, "conceded"),
    (("pending",), {"action": "wait", "request": {"what": "d6", "options": []}}, "pending"),
    (("position", "wind", "pile"), [1, 2], "wind.pile"),
])
def test_malformed_envelope_parts_are_refused_naming_the_field(path: tuple, value: object,
                                                               field: str) -> None:
    data = _save()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ContentError) as e:
        GameState.from_json(data, "save.json")
    assert field in str(e.value) and "save.json" in str(e.value)


def test_to_json_hands_out_a_copy_of_the_setup() -> None:
    s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=3)
    clone = s.clone()
    s.to_json()["setup"]["heroes"].append("bo")
    assert s.setup["heroes"] == ["ada"] and clone.setup["heroes"] == ["ada"]


def test_a_forced_result_the_roll_cannot_give_is_refused_then_dropped() -> None:
    s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=3)
    before = copy.deepcopy(s.to_json())
    s.force("banana")
    with pytest.raises(BadForcedResult, match="banana"):
        s.apply("wait")  # the wind card is drawn: banana is no wind card
    assert s.to_json() == before  # dropped from the queue and the log alike
    s.apply("wait")
    again = games.get("toy").replay(s.setup, s.seed, s.log)
    assert again == s


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_empty_actions_are_illegal_in_every_game(text: str) -> None:
    for g in games.all_games():
        s = g.new_game(None, 1)
        with pytest.raises(IllegalAction, match="empty"):
            s.apply(text)
