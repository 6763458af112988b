"""Special Skills: the timing windows of "Anytime" skills outside the holder's own turn
(Special Skill Requirements; rulings "Special Skill windows")."""

from __future__ import annotations

import pytest
from bf_helpers import board_only, fresh, legal

G = "battleforge"


def boar(s, charges: int = 1):
    """Siegfried in Berserker Form (Boarback: "Anytime: heal 1 and receive 1 Temporary Cube")."""
    c = s.champs["siegfried"]
    c.form = "berserker"
    c.fury = 8
    c.charges["berserker"] = charges
    return c


@pytest.mark.rule(G, "Special Skill Requirements")
@pytest.mark.rule(G, "Special Skills")
def test_anytime_skill_before_losing_health_that_cannot_be_defended() -> None:
    s = fresh("last_flame", ("ragnar", "siegfried"))
    c = boar(s, charges=2)
    board_only(s)
    s.tasks = [{"t": "lose", "c": "siegfried", "n": 2, "src": "Choking Smoke"}, {"t": "turn"}]
    s.ask = None
    s.run([])
    assert s.decision().seat == "siegfried"
    assert legal(s) == ["skill Tusk and Bristle", "lose 2 health"]
    s.apply("skill Tusk and Bristle")
    s.apply("place in space 2")
    # Skills may be used one after the other: the window opens again while charges last.
    assert legal(s) == ["skill Tusk and Bristle", "lose 2 health"]
    s.apply("lose 2 health")
    assert c.health == 12 + 1 - 2 and c.charges["berserker"] == 1
    assert c.rondel[1].count("t") == 1
    assert s.decision().kind == "turn" and s.current() == "ragnar"


@pytest.mark.rule(G, "Special Skill Requirements")
@pytest.mark.rule(G, "Frostbite")
def test_anytime_skill_during_another_champions_turn() -> None:
    """Ragnar's Freeze token empties the Frost reserve on his turn: Frostbite costs Siegfried
    2 Health, and Siegfried may answer with his Anytime skill although it is not his turn."""
    s = fresh("last_flame", ("ragnar", "siegfried"))
    c = boar(s)
    board_only(s)
    c.rondel[0].append("f")
    s.reserve_frost = 0
    s.tasks = [{"t": "gain", "c": "ragnar", "kind": "f", "n": 1, "sec": "Freeze Tokens"},
               {"t": "turn"}]
    s.ask = None
    s.run([])
    assert s.current() == "ragnar"
    assert s.decision().seat == "siegfried"
    assert legal(s) == ["skill Tusk and Bristle", "lose 2 health"]
    s.apply("skill Tusk and Bristle")
    s.apply("place in space 1")
    assert c.health == 12 + 1 - 2 and c.charges["berserker"] == 0
    assert s.decision().seat == "ragnar" and s.decision().kind == "turn"


@pytest.mark.rule(G, "Special Skill Requirements")
@pytest.mark.rule(G, "3. God Card")
def test_anytime_window_in_the_ironborn_phase_before_the_god_card() -> None:
    s = fresh("last_flame", ("ragnar", "siegfried"))
    c = boar(s)
    board_only(s)
    s.phase = "ironborn"
    s.tasks = [{"t": "god"}, {"t": "end_round"}]
    s.ask = None
    s.run([])
    d = s.decision()
    assert d.seat == "siegfried" and "Before " in d.prompt
    assert legal(s) == ["skill Tusk and Bristle", "pass"]
    s.apply("skill Tusk and Bristle")
    s.apply("place in space 3")
    assert c.charges["berserker"] == 0 and c.health == 13
    # No charge left: the window closes and the God card resolves.
    assert s.ask is None or s.ask["h"] != "anytime"


@pytest.mark.rule(G, "Special Skill Requirements")
def test_no_anytime_window_without_a_charge_or_for_other_windows() -> None:
    """Only champions holding an Anytime skill with a charge are asked; nobody else is."""
    s = fresh("last_flame", ("ragnar", "siegfried"))
    boar(s, charges=0)
    board_only(s)
    s.phase = "ironborn"
    s.tasks = [{"t": "lose", "c": "siegfried", "n": 1, "src": "test"}, {"t": "god"},
               {"t": "end_round"}]
    s.ask = None
    events = []
    s.run(events)
    assert s.champs["siegfried"].health == 11
    assert s.ask is None or s.ask["h"] not in ("anytime", "anytime_lose")
