"""Adapter benchmarks (pytest-benchmark; run with
`pytest tests/adapters/test_adapters_bench.py --benchmark-enable`).

In the normal suite each runs once as a smoke test; speed targets live here, never in timed
unit tests.
"""

from __future__ import annotations

import numpy as np
from adapter_cases import Case

from meadhall.adapters.gym import make_env
from meadhall.adapters.observation import Encoder, layout_of
from meadhall.adapters.openspiel import load
from meadhall.adapters.table import Table


def test_encode_an_observation(benchmark, drawn_case: Case) -> None:  # type: ignore[no-untyped-def]
    table = Table.of(drawn_case.game, drawn_case.setup)
    encoder = Encoder(table, layout_of(table))
    state = table.new_state(1)
    obs = benchmark(encoder.encode, state, table.seats[0])
    assert len(obs) > 1 or any(n.startswith(("track:", "panel:")) for n in encoder.layout.vector)


def test_gymnasium_episode_of_masked_random_steps(  # type: ignore[no-untyped-def]
        benchmark, case: Case) -> None:
    env = make_env(case.game, case.setup, others="random", max_steps=case.max_steps)

    def episode() -> int:
        _, info = env.reset(seed=1)
        env.action_space.seed(1)
        steps, done = 0, False
        while not done:
            _, _, terminated, truncated, info = env.step(
                env.action_space.sample(info["action_mask"]))
            steps, done = steps + 1, terminated or truncated
        return steps

    assert benchmark(episode) > 0


def test_openspiel_clone_and_apply(benchmark, case: Case) -> None:  # type: ignore[no-untyped-def]
    game = load(case.game, **(case.setup or {}), max_steps=case.max_steps)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)

    def child() -> object:
        c = state.clone()
        c.apply_action(int(rng.choice(c.legal_actions())))
        return c

    assert benchmark(child) is not None
