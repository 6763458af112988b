"""``--backend ray --address ...`` on a cluster of two nodes: the games are spread over both and
the rows equal the local ones. The cluster is local (``ray.cluster_utils.Cluster``: a head
node and a second node, each a separate raylet with one CPU, as ``ray start --head`` and
``ray start --address`` would start them on two machines) and is stopped at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meadhall.sim.lab import Plan, run
from meadhall.sim.runner import Backend, RayBackend, same_game

ray = pytest.importorskip("ray", reason="the ray extra is not installed")
cluster_utils = pytest.importorskip("ray.cluster_utils")


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[str]:
    if ray.is_initialized():
        ray.shutdown()
    cluster = cluster_utils.Cluster(initialize_head=True,
                                    head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        yield cluster.address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.shutdown()


@pytest.mark.timeout(400)
def test_a_sweep_spreads_over_two_nodes_with_the_same_rows(two_nodes: str) -> None:
    plan = Plan("toy", {"scenario": "chase", "heroes": ["ada"]}, ["random", "heuristic:1"],
                games=8, seed=5)
    local = run(plan, Backend()).rows()
    backend = RayBackend(address=two_nodes)
    try:
        assert backend.started  # connected to the cluster at that address
        alive = [n for n in ray.nodes() if n["Alive"]]
        assert len(alive) == 2 and backend.workers == 2  # both nodes' CPUs are used
        on_cluster = run(plan, backend).rows()
    finally:
        backend.close()
    assert not ray.is_initialized()
    assert len({r["node"] for r in on_cluster}) == 2  # both nodes played games
    assert [same_game(r) for r in on_cluster] == [same_game(r) for r in local]
