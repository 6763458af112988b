"""Random games with the same seeds reach the same end positions as the fixture recorded
before the speed work (fixtures/random_end_states.json): faster code, identical games. A rule
fix that changes games regenerates the fixture in the same commit, saying why:
``python tests/games/runaljod/test_runaljod_determinism.py``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from meadhall.bots.random import RandomBot
from meadhall.games.runaljod import GAME

PATH = Path(__file__).parent / "fixtures" / "random_end_states.json"
FIXTURE = json.loads(PATH.read_text())


def end_state(setup: dict, seed: int) -> dict:
    """The hash of the full save and the number of steps of a random game."""
    st = GAME.new_game(setup, seed)
    bot = RandomBot(seed)
    while st.decision() is not None:
        st.apply(bot.choose(st))
    # Recorded at position format version 1; a later version only changes the marker.
    save = {**st.to_json(), "state_version": 1}
    digest = hashlib.sha256(json.dumps(save, sort_keys=True).encode()).hexdigest()
    return {"hash": digest[:16], "steps": len(st.log)}


@pytest.mark.parametrize("key", sorted(FIXTURE["games"]))
def test_random_games_reach_the_recorded_end_states(key: str) -> None:
    name, seed = key.split(":")
    assert end_state(FIXTURE["setups"][name], int(seed)) == FIXTURE["games"][key]


def test_a_clone_copies_every_part_of_a_hero_and_shares_nothing_mutable() -> None:
    from meadhall.games.runaljod.model import Hero, Rune

    h = Hero("volva", (1, 2), 3, [Rune("ansuz", "up", "pool")], ["wound"], True, True, "yes",
             4, 2, 1, ["seidr"], ["seidr"], ["staff"], ["healing_herbs"], 5, 6, "ready",
             ["tyr"], True, 7, 8)
    c = h.clone()
    assert c == h and all(getattr(c, k) == getattr(h, k) for k in Hero.__slots__)
    c.runes[0].side = "down"
    for k in ("conditions", "skills", "turned", "equipment", "misc", "bonus"):
        getattr(c, k).append("x")
    assert h.runes[0].side == "up" and h.conditions == ["wound"] and h.misc == ["healing_herbs"]
    st = GAME.new_game({"heroes": ["berserk", "volva"]}, 1)
    other = st.clone()
    other.heroes["berserk"].runes[0].place = "move1"
    other.heroes["berserk"].equipment.append("sword")
    assert st.heroes["berserk"].runes[0].place != "move1"
    assert "sword" not in st.heroes["berserk"].equipment
    assert st.tiles[0] is other.tiles[0]  # tiles are immutable: shared


if __name__ == "__main__":
    games = {f"{name}:{seed}": end_state(setup, seed) for name, setup in FIXTURE["setups"].items()
             for seed in range(20 if name == "duo" else 10)}
    PATH.write_text(json.dumps({"setups": FIXTURE["setups"], "games": games}, indent=1) + "\n")
