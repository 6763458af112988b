"""The position format's worked example loads (docs/formats/runaljod.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall.core import grid
from meadhall.core.errors import ContentError
from meadhall.games.runaljod import GAME

EXAMPLE = Path(__file__).parents[3] / "docs" / "formats" / "runaljod-example.json"


@pytest.mark.rule("runaljod", "Game Overview")
def test_worked_example_loads_and_plays_on() -> None:
    st = GAME.from_json(json.loads(EXAMPLE.read_text()))
    b = st.heroes["berserk"]
    assert b.at == grid.sq("J3") and b.god_rune().god == "freyja"
    assert [t.tile for t in st.tiles] == ["shore", "ford"]
    assert st.decision().seat == "berserk"
    assert "attack using uruz" in [a.text for a in st.legal_actions()]
    st2 = st.clone()
    st2.apply("attack using uruz")
    assert "attack K3 with bearded axe" in [a.text for a in st2.legal_actions()]
    board = st.render()
    assert "Berserk [B] at J3" in board
    again = GAME.from_json(json.loads(json.dumps(st.to_json())))
    assert again == st


def test_bad_positions_name_the_field() -> None:
    data = json.loads(EXAMPLE.read_text())
    data["position"]["enemies"][0]["kind"] = "troll"
    with pytest.raises(ContentError) as e:
        GAME.from_json(data)
    assert "enemies[0].kind" in str(e.value)
