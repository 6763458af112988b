"""How fast Gymnasium could step if observations cost nothing (the ceiling of observation work).

    PYTHONPATH=TREE/src python benchmarks/adapters_ceiling.py GAME {base,zero,view} [STEPS]

``base`` steps normally; ``zero`` replaces the encoder with a preallocated zero observation
(engine, bots, mask and the agent's sampling remain); ``view`` computes ``state.view(seat)`` but
neither draws nor encodes. Prints masked random steps per CPU second (docs/performance.md).
Works on any tree whose encoder has ``encode(state, seat)``.
"""

from __future__ import annotations

import sys
import time
import warnings
from typing import Any

from meadhall.adapters.gym import make_env


def main() -> None:
    warnings.simplefilter("ignore")
    game, mode = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    env = make_env(game, None, others="random")
    zeros = env.layout.zeros()
    if mode == "zero":
        env.encoder.encode = lambda state, seat, out=None: zeros  # type: ignore[method-assign]
    elif mode == "view":
        def view_only(state: Any, seat: str, out: Any = None) -> Any:
            state.view(seat)
            return zeros
        env.encoder.encode = view_only  # type: ignore[method-assign]

    def run(n: int) -> int:
        _, info = env.reset(seed=1)
        env.action_space.seed(1)
        done = 0
        while done < n:
            _, _, terminated, truncated, info = env.step(
                env.action_space.sample(info["action_mask"]))
            done += 1
            if terminated or truncated:
                _, info = env.reset(seed=done)
        return done

    run(20)
    start = time.process_time()
    n = run(steps)
    print(game, mode, "steps per CPU second", round(n / (time.process_time() - start)))


if __name__ == "__main__":
    main()
