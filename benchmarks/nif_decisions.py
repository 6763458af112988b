"""Niflheim's heuristic games for instruction counts (callgrind) and a quick same-games check.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/nif_decisions.py 2 2>&1 | grep refs    # minus a run with 0 games

Plays ``N`` games (seeds 0..N-1) of Niflheim's default setup with ``heuristic:3:width=40`` as
``heuristic_side_by_side.py`` does (at most 150 decisions each) and prints each game's log hash.
"""

from __future__ import annotations

import hashlib
import sys

from meadhall import games
from meadhall.bots import make_bot

SPEC = "heuristic:3:width=40"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    g = games.get("niflheim")
    w = g.new_game(None, 999)
    make_bot(SPEC, 999).choose(w)  # warm up as the side-by-side benchmark does
    for seed in range(n):
        s = g.new_game(None, seed)
        bot = make_bot(SPEC, seed)
        decisions = 0
        while s.decision() is not None and decisions < 150:
            s.apply(bot.choose(s))
            decisions += 1
        print(seed, hashlib.blake2b("\n".join(s.log).encode(), digest_size=8).hexdigest())


if __name__ == "__main__":
    main()
