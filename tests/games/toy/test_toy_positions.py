"""A toy position the rules cannot produce is refused on load, naming the field."""

from __future__ import annotations

import json

import pytest

from meadhall import games
from meadhall.core.errors import ContentError
from meadhall.core.protocol import GameState


def _save() -> dict:
    s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, seed=3)
    return json.loads(json.dumps(s.to_json()))


@pytest.mark.parametrize(("change", "field"), [
    (lambda p: p["heroes"].update(ada="B2"), "heroes.ada"),          # a wall
    (lambda p: p["heroes"].update(ada="Z99"), "heroes.ada"),         # off the map
    (lambda p: p["heroes"].pop("bo"), "heroes"),                     # a hero vanished
    (lambda p: p["heroes"].update(bo="A1"), "heroes"),               # two on one square
    (lambda p: p["troll"].update(at="D2"), "troll.at"),
    (lambda p: p["troll"].update(steps_left=7), "troll.steps_left"),
    (lambda p: p["wind"]["pile"].__setitem__(0, " "), "wind"),      # an unknown card
    (lambda p: p.update(round=40), "round"),
    (lambda p: p.update(round=[3]), "round"),
    (lambda p: p.pop("troll"), "troll"),
    (lambda p: p.update(turn=-1), "turn"),
    (lambda p: p["map"].__setitem__(0, "..?.."), "map"),
])
@pytest.mark.rule("toy", "Hero Turn")
def test_impossible_positions_are_refused(change, field: str) -> None:  # type: ignore[no-untyped-def]
    data = _save()
    change(data["position"])
    with pytest.raises(ContentError) as e:
        GameState.from_json(data, "save.json")
    assert f"position.{field}" in str(e.value)
