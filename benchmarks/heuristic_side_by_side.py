"""The heuristic bot's CPU time per decision, two source trees side by side, same choices.

    python benchmarks/heuristic_side_by_side.py OLD_SRC NEW_SRC [--games ...] [--games-per 3]
    python benchmarks/heuristic_side_by_side.py SRC                    # one tree only
    python benchmarks/heuristic_side_by_side.py SRC --profile niflheim # cProfile of one game

Each tree runs in its own subprocess (``PYTHONPATH`` set to its ``src``; only the protocol
calls both trees have), game by game, so both see about the same machine load. In each game's
default setup, seeds 0, 1, ..., ``make_bot(SPEC, seed)`` (SPEC defaults to
``heuristic:3:width=40``) plays the whole game (at most ``--max-decisions``): every position of
real play, from the first decision to the last, is measured. The script prints CPU seconds
(``time.process_time``) spent in ``choose`` at decisions with two or more legal actions, per
decision, the ratio of the trees, and whether both trees played the identical games (the same
action log, compared by hash): a faster search must make the same choices.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

WORKER = r"""
import hashlib, json, sys, time
from meadhall import games
from meadhall.bots import make_bot
game_id, n_games, max_dec, spec, profile = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                             sys.argv[4], sys.argv[5] == "1")
g = games.get(game_id)
# warm up what a long simulation has warm (content, copy functions, caches)
w = g.new_game(None, 999); make_bot(spec, 999).choose(w)
prof = None
if profile:
    import cProfile; prof = cProfile.Profile()
out = []
for seed in range(n_games):
    s = g.new_game(None, seed); bot = make_bot(spec, seed)
    cpu = 0.0; searched = 0; decisions = 0; legal = 0; most = 0
    while s.decision() is not None and decisions < max_dec:
        n = len(s.legal_actions())
        c = time.process_time()
        if prof: prof.enable()
        a = bot.choose(s)
        if prof: prof.disable()
        if n > 1:
            cpu += time.process_time() - c; searched += 1; legal += n; most = max(most, n)
        s.apply(a); decisions += 1
    digest = hashlib.blake2b("\n".join(s.log).encode(), digest_size=8).hexdigest()
    out.append({"seed": seed, "cpu": cpu, "searched": searched, "decisions": decisions,
                "legal_mean": legal / max(1, searched), "legal_max": most, "log": digest,
                "result": s.outcome().result})
if prof:
    import pstats; pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
print(json.dumps(out))
"""


def measure(src: str, game: str, n_games: int, max_decisions: int, spec: str,
            profile: bool = False) -> list[dict[str, object]]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    r = subprocess.run([sys.executable, "-c", WORKER, game, str(n_games), str(max_decisions),
                        spec, "1" if profile else "0"], env=env, check=True,
                       capture_output=True, text=True)
    if profile:
        sys.stderr.write(r.stderr)
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trees", nargs="+", help="OLD_SRC NEW_SRC, or one SRC")
    ap.add_argument("--games", default="niflheim,battleforge,midhalla,runaljod")
    ap.add_argument("--games-per", type=int, default=3, help="games (seeds) per game id")
    ap.add_argument("--max-decisions", type=int, default=400)
    ap.add_argument("--spec", default="heuristic:3:width=40")
    ap.add_argument("--profile", default="", help="a game to profile (the last tree)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per tree, alternating; the fastest counts (load only slows)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.profile:
        measure(a.trees[-1], a.profile, a.games_per, a.max_decisions, a.spec, profile=True)
        return
    rows = []
    ratios = []
    names = ("old", "new") if len(a.trees) == 2 else ("new",)
    for game in a.games.split(","):
        runs: list[list[list[dict[str, object]]]] = [[] for _ in a.trees]
        for _ in range(a.repeat):
            for j, t in enumerate(a.trees):
                runs[j].append(measure(t, game, a.games_per, a.max_decisions, a.spec))
        res = [min(rs, key=lambda r: sum(float(x["cpu"]) for x in r))  # type: ignore[arg-type]
               for rs in runs]
        searched = sum(int(x["searched"]) for x in res[0])  # type: ignore[call-overload]
        row: dict[str, object] = {
            "game": game, "games": len(res[0]), "decisions searched": searched,
            "legal mean": sum(float(x["legal_mean"]) * int(x["searched"])  # type: ignore[arg-type, call-overload]
                              for x in res[0]) / max(1, searched)}
        for name, r in zip(names, res, strict=True):
            cpu = sum(float(x["cpu"]) for x in r)  # type: ignore[arg-type]
            n = sum(int(x["searched"]) for x in r)  # type: ignore[call-overload]
            row[f"{name} ms/decision"] = 1000 * cpu / max(1, n)
            row[f"{name} decisions/CPU s"] = n / cpu if cpu else float("inf")
        if len(res) == 2:
            row["ratio"] = float(row["old ms/decision"]) / float(row["new ms/decision"])  # type: ignore[arg-type]
            row["same games"] = [x["log"] for x in res[0]] == [x["log"] for x in res[1]]
            ratios.append(float(row["ratio"]))  # type: ignore[arg-type]
        rows.append(row)
        if not a.json:
            print(f"{game:12} " + "  ".join(
                f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}"
                for k, v in row.items() if k != "game"), flush=True)
    if ratios and not a.json:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean {gm:.2f}x, lowest {min(ratios):.2f}x")
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
