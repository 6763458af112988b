"""The heuristic benchmark's BattleForge games, for an instruction count.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/bf_heuristic_instr.py 2 2>&1 | grep refs      # minus the same with 0

Plays what ``heuristic_side_by_side.py --games battleforge --games-per N --max-decisions 150``
plays (the same warm-up decision, then seeds 0 .. N-1 with ``heuristic:3:width=40``), without
timing: the count with ``N`` = 0 is the import and warm-up to subtract. Prints each game's
log length and last entry (the same in trees that play the same games).
"""

from __future__ import annotations

import sys

from meadhall import games
from meadhall.bots import make_bot


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    g = games.get("battleforge")
    w = g.new_game(None, 999)
    make_bot("heuristic:3:width=40", 999).choose(w)
    for seed in range(n):
        s = g.new_game(None, seed)
        bot = make_bot("heuristic:3:width=40", seed)
        d = 0
        while s.decision() is not None and d < 150:
            s.apply(bot.choose(s))
            d += 1
        print(len(s.log), s.log[-1])


if __name__ == "__main__":
    main()
