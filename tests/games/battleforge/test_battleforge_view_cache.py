"""The fast view and drawing (parts kept per content, map and question) give exactly what a
from-scratch build gives (``bf_reference``, the code before the caches), key order included,
at every step of random games of both scenarios and solo play; and whatever a caller does to
a view, or to the lists of a scene it was handed, never reaches the next ones (a scene's
pieces - panels, tracks, cells, tokens, cards - may be shared between scenes: readers never
change them)."""

from __future__ import annotations

import json
from typing import Any

import bf_reference
import pytest
from bf_helpers import GAME

from meadhall.bots.random import RandomBot
from meadhall.games.battleforge import drawing
from meadhall.games.battleforge.state import BattleForgeState
from meadhall.testing import mutate_everything

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, range(4)),
    ({"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"]}, range(3)),
    ({"scenario": "last_flame", "heroes": ["gunnar", "lynxshade"], "players": 1}, range(2)),
]


def positions(setup: dict[str, Any], seeds: range) -> Any:
    """Every position of random games (and the seats that look at it)."""
    for seed in seeds:
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(2000):
            d = s.decision()
            yield s, [None, d.seat] if d else [None, *s.seats()]
            if d is None:
                break
            s.apply(bot.choose(s))


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_view_and_scene_equal_a_from_scratch_build(setup: dict[str, Any], seeds: range) -> None:
    n = 0
    for s, seats in positions(setup, seeds):
        assert isinstance(s, BattleForgeState)
        for seat in seats:
            fast = s.view(seat)
            ref = bf_reference.view(s, seat)
            assert json.dumps(fast) == json.dumps(ref), (seat, s.log[-3:])
            assert GAME.draw(fast) == bf_reference.scene(GAME.title, ref), (seat, s.log[-3:])
            n += 1
    assert n > 100


def test_changing_a_view_or_a_scene_changes_nothing_handed_out_later() -> None:
    for s, seats in positions(*SETUPS[1][:1], range(1)):  # type: ignore[call-arg]
        if len(s.log) % 7:
            continue
        seat = seats[-1]
        before = json.dumps(bf_reference.view(s, seat))
        drawn = bf_reference.scene(GAME.title, bf_reference.view(s, seat))
        v = s.view(seat)
        scene = GAME.draw(v)
        mutate_everything(v)
        # The scene's lists and its board's are its own; its pieces (panels, tracks, cells,
        # tokens) are shared between scenes: read them, never change them.
        for b in scene.boards:
            b.cells.append(b.cells[0])  # type: ignore[union-attr]
            b.walls.append(b.walls[0])  # type: ignore[union-attr]
            b.tokens.append(b.tokens[0])
            b.legend.append(b.legend[0])
        scene.tracks.append(scene.tracks[0])
        scene.notes.append("changed")
        scene.panels.sort(key=lambda p: p.seat is not None)
        assert json.dumps(s.view(seat)) == before
        assert GAME.draw(s.view(seat)) == drawn


def test_a_view_read_back_from_json_draws_the_same() -> None:
    """A view that went through JSON (the browser's, a saved one) shares nothing with the
    caches: it is drawn the same as the view itself."""
    for s, seats in positions(*SETUPS[0][:1], range(1)):  # type: ignore[call-arg]
        v = s.view(seats[-1])
        assert drawing.scene(GAME.title, json.loads(json.dumps(v))) == GAME.draw(v)
