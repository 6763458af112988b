"""What BattleForge remembers to save recomputing it answers exactly what a fresh computation
answers, at every step of random games of both scenarios: minion names (kept for the game and
its clones), the Decision of the current question (kept with the question, which is replaced,
never changed), the Relocate options of each pattern of cubes, the minion named in an action
text, and the view's decision (kept with the question)."""

from __future__ import annotations

from typing import Any

import pytest
from bf_helpers import GAME

from meadhall.games.battleforge.state import BattleForgeState
from meadhall.testing import check_memos

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, range(5)),
    ({"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"]}, range(3)),
]


def answers(s: BattleForgeState) -> dict[str, Any]:
    """What the memos serve, asked of ``s`` as it stands."""
    out: dict[str, Any] = {
        "names": {m: s.minion_name(m) for m in s.minions},
        "decision": s.decision(),
        "legal": [a.text for a in s.legal_actions()],
        "described": [a.to_json() for a in s.described_actions()],
        "view": s.view(s.decision().seat if s.decision() else None),
    }
    if s.ask is not None and s.ask["h"] == "turn" and s.turn.get("c"):
        cid = s.turn["c"]
        out["turn_options"] = s.turn_options(cid)
        out["targets"] = {k: s.attack_targets(cid, k) for k in ("melee", "ranged")}
        out["relocate"] = s.relocate_options(cid)
    return out


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_memos_answer_as_fresh_computations_at_every_step(setup: dict[str, Any],
                                                         seeds: range) -> None:
    check_memos(GAME, setup, seeds, answers, BattleForgeState.forget_memos, max_steps=10_000)
