"""Authored content balance: the heuristic bot of ``meadhall.games.battleforge.balance`` plays
whole games with legal actions only, and a sensible strategy can win each scenario (rulings,
"Authored content balance"; the measured rates are in docs/rulings/battleforge.md)."""

from __future__ import annotations

import pytest
from bf_helpers import GAME

from meadhall.games.battleforge.balance import HeuristicBot, play

G = "battleforge"


@pytest.mark.rule(G, "Winning and Losing")
@pytest.mark.rule(G, "Scenario 1 - The Last Flame")
@pytest.mark.rule(G, "Victory Conditions")
def test_a_sensible_strategy_can_defeat_thor_in_the_last_flame() -> None:
    s = play(GAME, 0, {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, HeuristicBot())
    assert s.outcome().result == "win"
    assert len(s.thor["destroyed"]) == 6 and any(s.is_heat(a) for a in s.tokens)


@pytest.mark.rule(G, "Winning and Losing")
@pytest.mark.rule(G, "Scenario 2 - Forge of Doom")
@pytest.mark.rule(G, "Victory Conditions")
def test_a_sensible_strategy_can_defeat_thor_in_the_forge_of_doom() -> None:
    s = play(GAME, 7, {"scenario": "forge_of_doom", "heroes": ["ragnar", "lagertha"]},
             HeuristicBot())
    assert s.outcome().result == "win"
    assert len(s.thor["destroyed"]) == 6 and 0 in s.furnaces.values()


def test_authored_balance_values_are_marked_authored() -> None:
    """The values changed for balance are authored stand-ins, never printed ones."""
    c = GAME.content
    assert "counter" in c.god.authored and c.god.face_health_per_champion == 2
    for k in ("ashfolk_1a", "draugmech_2a", "irontroll_3a", "cannontroll_3b"):
        assert c.minion_cards[k].authored
    # Printed values kept: AshFolk 2/3 Actions, DraugMech 1/2 Actions and 2 Damage, IronTroll 4.
    a, d, t = (c.minion_cards[k] for k in ("ashfolk_1a", "draugmech_2a", "irontroll_3a"))
    assert (a.standard.actions, a.overheated.actions) == (2, 3)
    assert (d.standard.actions, d.overheated.actions, d.standard.damage) == (1, 2, 2)
    assert t.standard.damage == 4
    assert all(h.authored for h in c.human_forms.values())
    assert all(card.authored for card in c.thor_cards.values())
