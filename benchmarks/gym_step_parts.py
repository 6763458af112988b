"""Where a Gymnasium step's CPU time goes, part by part, for one tree.

    PYTHONPATH=SRC python benchmarks/gym_step_parts.py GAME [STEPS]

Masked random play (``others="random"``, seed 1, as ``adapters_side_by_side.py``) with the
outermost calls of ``apply``, ``legal_actions``, ``decision``, ``outcome``, ``view``, the game's
``draw`` and the encoder's ``_encode_into`` timed in CPU time (``time.process_time``), plus
Gymnasium's masked ``sample``; ``rest`` is everything else (mask, info, the bots' loop, the
wrapper). Each timed call adds about a microsecond. Figures go to docs/performance.md.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from meadhall.adapters.gym import make_env

warnings.simplefilter("ignore")


def main() -> None:
    game, steps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    env = make_env(game, None, others="random")
    pt = time.process_time
    spent: dict[str, float] = {}
    depth = [0]

    def wrap(obj: Any, name: str) -> None:
        f: Callable[..., Any] = getattr(obj, name)

        def timed(*a: Any, **k: Any) -> Any:
            if depth[0]:  # only the outermost call counts (apply calls decision...)
                return f(*a, **k)
            depth[0] += 1
            t = pt()
            try:
                return f(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + pt() - t
                depth[0] -= 1

        setattr(obj, name, timed)

    obs, info = env.reset(seed=1)
    env.action_space.seed(1)
    assert env.state is not None
    for name in ("apply", "legal_actions", "decision", "outcome", "view"):
        wrap(type(env.state), name)
    wrap(env.table.game, "draw")
    wrap(env.encoder, "_encode_into")
    seed, done, sampling = 1, 0, 0.0
    start = pt()
    while done < steps:
        t = pt()
        action = env.action_space.sample(info["action_mask"])
        sampling += pt() - t
        obs, _, terminated, truncated, info = env.step(action)
        done += 1
        if terminated or truncated:
            seed += 1
            obs, info = env.reset(seed=seed)
    total = pt() - start
    spent["sample"] = sampling
    spent["rest"] = total - sum(spent.values())
    parts = " ".join(f"{k} {1e6 * v / steps:.1f}" for k, v in spent.items())
    print(f"{game}: {1e6 * total / steps:.1f} us/step ({steps / total:.0f} steps/CPU s): {parts}")


if __name__ == "__main__":
    main()
