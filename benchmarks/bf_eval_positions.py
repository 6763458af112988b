"""BattleForge's evaluation alone, on the positions a heuristic search evaluates.

    PYTHONPATH=src python benchmarks/bf_eval_positions.py [GAMES] [MAX_DECISIONS] [REPEAT] [warm]

Plays ``GAMES`` games (seeds 0, 1, ...) with ``heuristic:3:width=40`` as
``heuristic_side_by_side.py`` does, keeping a clone of every position the search evaluates, in
order; then, ``REPEAT`` times, drops every memo of the evaluation (``evaluation.forget``) and
evaluates all of them in that order: CPU µs per evaluation (the fastest repeat) and a checksum
of the values (the same in every tree that evaluates alike). With ``REPEAT`` 0 only the
positions are collected (for an instruction count's baseline under callgrind); a fourth
argument ``warm`` keeps the memos after the first repeat (the cost of an evaluation whose
plans are all made).
"""

from __future__ import annotations

import hashlib
import sys
import time

from meadhall import games
from meadhall.bots import make_bot
from meadhall.games.battleforge import evaluation


def collect(n_games: int, max_decisions: int) -> list[object]:
    g = games.get("battleforge")
    seen: list[object] = []
    plain = type(g).evaluate

    def keep(self: object, s: object) -> float:
        seen.append(s.clone())  # type: ignore[attr-defined]
        return plain(self, s)  # type: ignore[arg-type]

    type(g).evaluate = keep  # type: ignore[method-assign]
    try:
        for seed in range(n_games):
            s = g.new_game(None, seed)
            bot = make_bot("heuristic:3:width=40", seed)
            d = 0
            while s.decision() is not None and d < max_decisions:
                s.apply(bot.choose(s))
                d += 1
    finally:
        type(g).evaluate = plain  # type: ignore[method-assign]
    return seen


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    max_decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    positions = collect(n_games, max_decisions)
    best = float("inf")
    digest = ""
    warm = len(sys.argv) > 4 and sys.argv[4] == "warm"
    for k in range(repeat):
        if not (warm and k):
            evaluation.forget()
        t = time.process_time()
        values = [evaluation.evaluate(s) for s in positions]  # type: ignore[arg-type]
        best = min(best, time.process_time() - t)
        digest = hashlib.blake2b(repr([v.hex() for v in values]).encode(),
                                 digest_size=8).hexdigest()
    if repeat:
        print(f"positions {len(positions)}  µs/evaluation {best / len(positions) * 1e6:.1f}"
              f"  values {digest}")
    else:
        print(f"positions {len(positions)}")


if __name__ == "__main__":
    main()
