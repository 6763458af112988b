"""Play games START .. START+N-1 of a `meadhall sim` batch, one line per game as it ends.

Game ``i`` gets the seed and bot seed it has in ``meadhall sim GAME --bot BOT --seed S``
(the rows are the lab's own, :func:`meadhall.sim.runner.play`), so several processes can
share one batch by ranges of games and a run cut short still leaves its finished games: what
a long measurement of an expensive bot needs on a loaded machine. The last line sums the
wins and the CPU time per game and per decision.

    python benchmarks/bot_games.py battleforge designer --scenario last_flame --start 30 --games 30
"""

from __future__ import annotations

import argparse

from meadhall.sim.lab import Plan
from meadhall.sim.runner import play

MEASURES = ("faces_destroyed", "thor_health_left", "rounds_short")
"""Game measures printed when the game has them (how close a lost BattleForge game came)."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("bot")
    ap.add_argument("--scenario")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    a = ap.parse_args()
    setup = {"scenario": a.scenario} if a.scenario else {}
    plan = Plan(a.game, setup, [a.bot], games=a.start + a.games, seed=a.seed)
    wins, cpu, decisions = 0, 0.0, 0
    for i, job in enumerate(plan.jobs(plan.variants()[0], a.start, a.start + a.games)):
        r = play(job)
        wins += bool(r["win"])
        cpu += r["cpu_seconds"]
        decisions += r["decisions"]
        extra = {k: r[k] for k in MEASURES if k in r}
        print(a.bot, a.start + i, r["result"], r["rounds"], r["decisions"],
              round(r["cpu_seconds"], 1), extra, flush=True)
    print(f"SUMMARY {a.bot} {a.game} {a.scenario} games {a.start}..{a.start + a.games}: "
          f"{wins}/{a.games} wins, {cpu / a.games:.1f} s/game, "
          f"{1000 * cpu / max(1, decisions):.1f} ms/decision", flush=True)


if __name__ == "__main__":
    main()
