"""The position format: the worked example of docs/formats/midhalla.md loads and plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall import games
from meadhall.core.errors import ContentError
from meadhall.games.midhalla.testkit import legal, position

G = games.get("midhalla")
EXAMPLE = Path(__file__).parents[3] / "docs" / "formats" / "midhalla-example.json"


@pytest.mark.rule("midhalla", "Phase 3: Combat")
def test_worked_example_loads_and_asks_who_acts_first() -> None:
    st = G.from_json(json.loads(EXAMPLE.read_text()))
    assert st.phase == "combat" and st.gate_hp == 18
    assert legal(st) == ["next hero Harkon", "next hero Enyk"]
    assert st.enemies["e1"].hp == 3 and st.enemies["e2"].bleed == 1
    assert st.tiles["2A"].fortified and not st.tiles["1A"].fortified
    board = st.render()
    assert "[2A#]" in board and "e:e2/1" in board and "?C<" in board and "?D^ E>" in board
    back = G.from_json(json.loads(json.dumps(st.to_json())))
    assert back == st
    st.apply("next hero Harkon")
    ev = st.apply("skill top 4 Sling")  # the level 1 skill: Attack 1, range 1 reaches 2A
    assert legal(st) == ["attack e2", "skip attack"]
    ev = st.apply("attack e2")
    assert "e2" not in st.enemies and any(e.kind == "kill" and e.data["by"] == "harkon" for e in ev)


def test_bad_positions_name_the_field() -> None:
    with pytest.raises(ContentError, match="enemies.e1.card"):
        G.from_json(position(enemies={"e1": {"card": "dragon", "tile": "G"}}))
    with pytest.raises(ContentError, match="links"):
        G.from_json(position(tiles={"G": {"at": [0, 0], "links": {"E": "nowhere"}}}))
