"""The game's own parts of a Gymnasium step as a fixed workload for instruction counts.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/run_step_parts_instr.py GAME [STEPS] 2>&1 | grep refs

Random play (``RandomBot``, seeds 1..) of GAME's default setup; each step does what the
environment asks of the game: ``legal_actions``, ``view`` and ``Game.draw`` of the view for
the seat, then ``apply`` (the encoder and the wrapper are shared code, left out). STEPS=0
measures only imports and setup, to subtract. Prints a digest of every view and log, so that a
faster tree can be checked for the same states.
"""

from __future__ import annotations

import hashlib
import json
import sys

from meadhall import games
from meadhall.bots.random import RandomBot


def main() -> None:
    game_id = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    g = games.get(game_id)
    h = hashlib.blake2b(digest_size=8)
    seed, done = 1, 0
    s = g.new_game(None, seed)
    bot = RandomBot(seed)
    while done < steps:
        d = s.decision()
        if d is None:
            h.update("\n".join(s.log).encode())
            seed += 1
            s, bot = g.new_game(None, seed), RandomBot(seed)
            continue
        seat = s.seat_of(d.seat) if d.seat in s.seats() else None
        actions = s.legal_actions()
        view = s.view(seat)
        g.draw(view)
        if done % 50 == 0:
            h.update(json.dumps(view, sort_keys=True, default=str).encode())
        s.apply(bot.rng.choice(actions))
        done += 1
    h.update("\n".join(s.log).encode())
    print(game_id, steps, h.hexdigest())


if __name__ == "__main__":
    main()
