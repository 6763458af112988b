"""A fixed heuristic workload for instruction counts (valgrind callgrind; load-independent).

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/run_heuristic_instr.py GAME [N_GAMES] [MAX_DECISIONS] 2>&1 | grep refs

Plays ``heuristic:3:width=40`` on GAME's default setup, seeds 0.., as heuristic_side_by_side.py
does (a warm-up decision first); N_GAMES=0 measures only imports and setup, to subtract.
Prints the action logs' digest, so that a faster tree can be checked for the same games.
"""

from __future__ import annotations

import hashlib
import sys

from meadhall import games
from meadhall.bots import make_bot


def main() -> None:
    game_id = sys.argv[1]
    n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    max_dec = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    spec = "heuristic:3:width=40"
    g = games.get(game_id)
    w = g.new_game(None, 999)
    make_bot(spec, 999).choose(w)
    h = hashlib.blake2b(digest_size=8)
    for seed in range(n_games):
        s = g.new_game(None, seed)
        bot = make_bot(spec, seed)
        decisions = 0
        while s.decision() is not None and decisions < max_dec:
            s.apply(bot.choose(s))
            decisions += 1
        h.update("\n".join(s.log).encode())
    print(game_id, n_games, h.hexdigest())


if __name__ == "__main__":
    main()
