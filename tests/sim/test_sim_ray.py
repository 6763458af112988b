"""The Ray backend plays the same games as the local one: identical rows for the same seeds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meadhall.sim.lab import Plan, run
from meadhall.sim.runner import Backend, RayBackend, same_game

ray = pytest.importorskip("ray", reason="the ray extra is not installed")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.timeout(300)
def test_ray_rows_equal_the_local_rows(local_ray: None) -> None:
    plan = Plan("toy", {"scenario": "chase", "heroes": ["ada", "bo"]},
                ["random", "heuristic:1"], content=[("scenarios.chase.rounds", 10)], games=6,
                seed=7)
    local = run(plan, Backend()).rows()
    backend = RayBackend()
    assert not backend.started, "an initialised Ray is used, not started again"
    with backend:
        on_ray = run(plan, backend).rows()
    assert [same_game(r) for r in on_ray] == [same_game(r) for r in local]
    assert ray.is_initialized()
