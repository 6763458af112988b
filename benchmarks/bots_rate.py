"""How fast the bots think, per game: MCTS iterations and heuristic decisions per CPU second.

    python benchmarks/bots_rate.py [--games niflheim,toy] [--positions 5] [--budget 300]

For each game's default setup it walks a few random steps from seeds 0, 1, ... to a decision
where a hero has a choice, lets ``mcts:BUDGET`` (truncated rollouts: leaf evaluation) and the
heuristic bot decide there, and prints the median over the positions. Rates are per CPU second
of this process (``time.process_time``), so that a machine shared with other work still gives
the figure of one core; the wall-clock rate is printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from meadhall import games
from meadhall.bots import MCTSBot, RandomBot, make_bot
from meadhall.core.protocol import PLAYERS, GameState


def position(game_id: str, seed: int) -> GameState | None:
    state = games.get(game_id).new_game(None, seed)
    rnd = RandomBot(seed)
    for _ in range(6):
        if state.decision() is None:
            return None
        state.apply(rnd.choose(state))
    while (d := state.decision()) is not None and (d.seat == PLAYERS
                                                   or len(state.legal_actions()) < 2):
        state.apply(rnd.choose(state))
    return state if state.decision() is not None else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(games.ids()))
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--budget", type=int, default=300)
    args = ap.parse_args()
    print("| game | MCTS iterations/CPU s | MCTS iterations/wall s | heuristic decisions/CPU s "
          "| legal actions |")
    print("|---|---|---|---|---|")
    for gid in args.games.split(","):
        cpu_rates, wall_rates, heur, widths = [], [], [], []
        seed = 0
        while len(cpu_rates) < args.positions and seed < 10 * args.positions:
            state = position(gid, seed)
            seed += 1
            if state is None:
                continue
            widths.append(len(state.legal_actions()))
            bot = make_bot(f"mcts:{args.budget}", seed)
            assert isinstance(bot, MCTSBot)
            c = time.process_time()
            bot.choose(state)
            cpu_rates.append(bot.last_iterations / (time.process_time() - c))
            wall_rates.append(bot.last_iterations / bot.last_seconds)
            h = make_bot("heuristic", seed)
            c = time.process_time()
            h.choose(state)
            heur.append(1 / max(time.process_time() - c, 1e-6))
        print(f"| {gid} | {statistics.median(cpu_rates):.0f} | {statistics.median(wall_rates):.0f}"
              f" | {statistics.median(heur):.1f} | {statistics.median(widths):g} |")


if __name__ == "__main__":
    main()
