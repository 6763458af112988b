"""The speed-ups of issues 21 and 22 give exactly what the plain code gave: each fast path is
compared with a from-scratch reference over positions of random games."""

from __future__ import annotations

from collections.abc import Iterator

from meadhall.bots.random import RandomBot
from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.games.runaljod import GAME, evaluation
from meadhall.games.runaljod.model import Hero
from meadhall.games.runaljod.state import RunaljodState

KEYWORDS: tuple[tuple[str, ...], ...] = ((), ("quick",), ("jump",))


def positions(seeds: int = 4, steps: int = 250) -> Iterator[RunaljodState]:
    """Every position of a few random games (both scenarios)."""
    for seed in range(seeds):
        setup = {"scenario": "adventure-level2"} if seed % 2 else None
        st = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(steps):
            if st.decision() is None:
                break
            assert isinstance(st, RunaljodState)
            yield st
            st.apply(bot.choose(st))


def reference_reachable(st: RunaljodState, h: Hero, points: int,
                        keywords: tuple[str, ...]) -> set[Sq]:
    """The squares a movement can end on, one rule question per step (as before issue 21)."""
    assert h.at is not None
    seen = {h.at: points}
    frontier = [h.at]
    out = {h.at} if st.hero_can_end(h, h.at) else set()
    while frontier:
        s = frontier.pop()
        for n in grid.neighbours(s, diagonal=True):
            c = st.hero_step_cost(h, s, n, keywords)
            if c is None or c > seen[s] or seen.get(n, -1) >= seen[s] - c:
                continue
            seen[n] = seen[s] - c
            frontier.append(n)
            if st.hero_can_end(h, n):
                out.add(n)
    return out


def test_reachable_squares_are_those_of_the_step_rules() -> None:
    checked = 0
    for i, st in enumerate(positions()):
        if i % 5:
            continue
        for h in st.standing_heroes():
            for points in (0, 1, 3, 6):
                for kw in KEYWORDS:
                    assert evaluation._reachable(st, h, points, kw) == \
                        reference_reachable(st, h, points, kw)
                    checked += 1
    assert checked > 500
