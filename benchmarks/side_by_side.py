"""Random-play speed of two meadhall source trees, measured side by side in one run.

    python benchmarks/side_by_side.py OLD_SRC NEW_SRC [--games niflheim,...] [--repeat 5]

Each measurement runs in a fresh subprocess with ``PYTHONPATH`` set to one tree's ``src``, and
the two trees alternate, so that both see the same machine load. A measurement plays random
games of the game's default setup (seeds 0, 1, ...) for about ``--seconds`` seconds and reports
steps (decisions answered) per second; the script prints the median of ``--repeat`` runs and
the ratio. Only the protocol calls both trees have are used (new_game, legal_actions, apply).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r"""
import json, random, sys, time
from meadhall import games
game_id, seconds, party = sys.argv[1], float(sys.argv[2]), sys.argv[3]
g = games.get(game_id)
setup = None
if party != "default":
    setup = dict(g.default_setup()); setup["heroes"] = party.split(",")
steps = 0; seed = 0; start = time.perf_counter(); done = 0
while True:
    s = g.new_game(setup, seed); rng = random.Random(seed)
    while s.decision() is not None:
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
        steps += 1
    done += 1; seed += 1
    if time.perf_counter() - start > seconds:
        break
elapsed = time.perf_counter() - start
print(json.dumps({"steps": steps, "games": done, "seconds": elapsed}))
"""


def measure(src: str, game: str, seconds: float, party: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", WORKER, game, str(seconds), party], env=env,
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    r["steps_per_s"] = r["steps"] / r["seconds"]
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--games", default="niflheim,battleforge,midhalla,runaljod")
    ap.add_argument("--party", action="append", default=[],
                    help="GAME=HERO,HERO to measure another party size (repeatable)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cases = [(g, "default") for g in a.games.split(",")]
    cases += [tuple(p.split("=", 1)) for p in a.party]  # type: ignore[misc]
    rows = []
    for game, party in cases:
        old, new = [], []
        for _ in range(a.repeat):
            old.append(measure(a.old, game, a.seconds, party)["steps_per_s"])
            new.append(measure(a.new, game, a.seconds, party)["steps_per_s"])
        row = {"game": game, "party": party, "old_median": statistics.median(old),
               "new_median": statistics.median(new), "old_min": min(old), "new_min": min(new)}
        row["ratio"] = row["new_median"] / row["old_median"]
        rows.append(row)
        if not a.json:
            print(f"{game:12} {party:24} old {row['old_median']:9.0f} steps/s   "
                  f"new {row['new_median']:9.0f} steps/s   {row['ratio']:5.2f}x", flush=True)
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
