"""No silent waste (issue 19, item 7): an action the rules allow but that can do nothing now is
still offered, and its label says why it does nothing."""

from __future__ import annotations

import dataclasses

from meadhall import games
from meadhall.core.protocol import GameState


def _battleforge_turn(heroes: list[str]) -> GameState:
    s = games.get("battleforge").new_game({"heroes": heroes}, 1)
    for _ in range(200):
        if s.ask and s.ask.get("h") == "turn":  # type: ignore[attr-defined]
            return s
        s.apply(s.legal_actions()[0])
    raise AssertionError("no champion's turn reached")


def _label(s: GameState, prefix: str) -> str:
    return next(a.label for a in s.described_actions() if a.text.startswith(prefix))


def test_battleforge_a_skill_with_no_action_left_says_it_does_nothing() -> None:
    s = _battleforge_turn(["gunnar", "siegfried"])
    assert "does nothing" not in _label(s, "skill Eagle Eye")
    s.turn["actions"] = 0  # type: ignore[attr-defined]
    label = s.describe("skill Eagle Eye").label
    assert label.endswith("(does nothing now: no Action is left this turn)"), label


def test_battleforge_a_heal_at_full_health_says_it_heals_nothing() -> None:
    s = _battleforge_turn(["gunnar", "siegfried"])
    heal = next(a for a in s.described_actions() if a.text.startswith("heal "))
    assert "+1 Health" in heal.label
    c = s.champs["gunnar"]  # type: ignore[attr-defined]
    full = 15
    if dataclasses.is_dataclass(c) and type(c).__dataclass_params__.frozen:
        s.champs["gunnar"] = dataclasses.replace(c, health=full)  # type: ignore[attr-defined]
    else:
        c.health = full
    label = s.describe(heal.text).label
    assert "heals nothing, already at full Health (15/15)" in label, label
    assert heal.text in [a.text for a in s.legal_actions()]  # still offered: the rules allow it


def test_midhalla_strike_with_no_enemy_in_range_says_it_does_nothing() -> None:
    from meadhall.games.midhalla.testkit import combat, line, paused

    def strike_label(enemy_tile: str) -> str:
        st = paused(phase="combat", tiles=line(4, 4),
                    heroes={"harkon": {"tile": "t1", "top": ["strike", "cleave", "charge"]},
                            "enyk": {"tile": "G"}},
                    enemies={"e1": {"card": "draugr", "tile": enemy_tile, "hp": 4}})
        combat(st, "heroes")
        st.apply("next hero Harkon")
        return next(a.label for a in st.described_actions() if a.text == "skill top 1 Strike")

    assert "does nothing" not in strike_label("t1")
    assert strike_label("t4").endswith("(no enemy in range: it does nothing)")
