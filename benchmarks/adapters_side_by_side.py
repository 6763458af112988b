"""Gymnasium and OpenSpiel speed of two meadhall source trees, side by side, in CPU time.

    python benchmarks/adapters_side_by_side.py OLD_SRC NEW_SRC [--games niflheim,...]
        [--steps 1500] [--repeat 3]

For each game (its default setup) and tree, fresh subprocesses (``PYTHONPATH`` = the tree's
``src``, the two trees alternating so both see the same load) measure:

* ``gym``: Gymnasium steps per CPU second (``time.process_time``) of masked random play,
  ``others="random"``, seeds 1, 2, ... (the environment built and reset before the clock
  starts; every observation is read, so nothing lazy is counted);
* ``first``: CPU seconds of ``make_env`` in a new process (the first environment), with an
  empty layout cache (``cold``) and then with the cache the cold run left (``warm``; a tree
  without a cache is cold twice);
* ``spiel``: OpenSpiel ``rl_environment`` steps per CPU second with random agents (the
  observation and information-state tensors read at every step).

It prints the medians of ``--repeat`` runs, the ratios new/old, and the geometric mean of the
Gymnasium ratios. Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

GYM = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
from meadhall.adapters.gym import make_env
game, steps = sys.argv[1], int(sys.argv[2])
env = make_env(game, None, others="random")
obs, info = env.reset(seed=1)
env.action_space.seed(1)
seed, done, total = 1, 0, 0.0
start = time.process_time()
while done < steps:
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(info["action_mask"]))
    total += float(obs["vector"][0])
    done += 1
    if terminated or truncated:
        seed += 1
        obs, info = env.reset(seed=seed)
cpu = time.process_time() - start
print(json.dumps({"steps": done, "cpu": cpu, "games": seed}))
"""

FIRST = r"""
import json, time, warnings
warnings.simplefilter("ignore")
start = time.process_time()
import sys
from meadhall.adapters.gym import make_env
env = make_env(sys.argv[1], None, others="random")
env.reset(seed=0)
print(json.dumps({"cpu": time.process_time() - start}))
"""

SPIEL = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import numpy as np
from open_spiel.python import rl_environment
import meadhall.adapters.openspiel as ms
game, steps = sys.argv[1], int(sys.argv[2])
env = rl_environment.Environment(ms.load(game, max_steps=200), seed=1)
rng = np.random.default_rng(1)
ts = env.reset()
done, total = 0, 0.0
start = time.process_time()
while done < steps:
    if ts.last():
        ts = env.reset()
    p = ts.observations["current_player"]
    total += float(np.sum(ts.observations["info_state"][p][:4]))
    ts = env.step([int(rng.choice(ts.observations["legal_actions"][p]))])
    done += 1
print(json.dumps({"steps": done, "cpu": time.process_time() - start}))
"""


def run(src: str, script: str, *args: str, cache: str | None = None) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    if cache is not None:
        env["MEADHALL_LAYOUT_CACHE"] = cache
    out = subprocess.run(["nice", sys.executable, "-c", script, *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--games", default="niflheim,battleforge,midhalla,runaljod")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--spiel-steps", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip", default="", help="comma-separated: gym,first,spiel")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    trees = {"old": args.old, "new": args.new}
    ratios = []
    print(f"{'game':12} {'what':12} {'old':>10} {'new':>10} {'new/old':>8}")
    for game in args.games.split(","):
        rows: dict[str, dict[str, list[float]]] = {}
        for _ in range(args.repeat):
            for name, src in trees.items():
                r = rows.setdefault(name, {})
                if "gym" not in skip:
                    g = run(src, GYM, game, str(args.steps))
                    r.setdefault("gym steps/s", []).append(g["steps"] / g["cpu"])
                if "first" not in skip:
                    with tempfile.TemporaryDirectory() as cache:
                        r.setdefault("first cold s", []).append(
                            run(src, FIRST, game, cache=cache)["cpu"])
                        r.setdefault("first warm s", []).append(
                            run(src, FIRST, game, cache=cache)["cpu"])
                if "spiel" not in skip:
                    s = run(src, SPIEL, game, str(args.spiel_steps))
                    r.setdefault("spiel steps/s", []).append(s["steps"] / s["cpu"])
        for what in rows["old"]:
            old = statistics.median(rows["old"][what])
            new = statistics.median(rows["new"][what])
            ratio = new / old if "steps" in what else old / new
            if what == "gym steps/s":
                ratios.append(ratio)
            print(f"{game:12} {what:12} {old:10.2f} {new:10.2f} {ratio:7.1f}x", flush=True)
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"geometric mean of the Gymnasium ratios: {gm:.1f}x (lowest {min(ratios):.1f}x)")


if __name__ == "__main__":
    main()
