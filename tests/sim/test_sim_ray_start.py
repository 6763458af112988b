"""``meadhall sim --backend ray --address ...`` on a cluster of two nodes started as on two
machines: a head by ``ray start --head --port P --num-cpus 1`` and a second node by
``ray start --address 127.0.0.1:P --num-cpus 1``. The sweep's rows name the Ray node that
played each game: both nodes played, and the rows equal a local run's.

Both nodes share this machine, so each gets its own temporary directory and dashboard-agent
port, listens on 127.0.0.1 and runs without token authentication (a cluster of one user on
the loopback). They run with ``--block`` in their own process groups and are ended by those
ids at the end: ``ray stop`` would end every Ray process on the machine, other people's too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from meadhall.sim import results
from meadhall.sim.runner import same_game

pytest.importorskip("ray", reason="the ray extra is not installed")

RAY = Path(sys.executable).with_name("ray")
MEADHALL = Path(sys.executable).with_name("meadhall")
STARTED = "Ray runtime started"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    """This test's environment for the nodes and the driver: the tree under test first on
    the path (Ray's workers import meadhall as the node that started them does)."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    env["RAY_AUTH_MODE"] = "disabled"
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    return env


class _Node:
    """One ``ray start --block`` in its own process group, its output in ``log``."""

    def __init__(self, args: list[str], temp: Path, env: dict[str, str]) -> None:
        self.log = temp / "ray-start.log"
        self.out = self.log.open("w")
        self.proc = subprocess.Popen(
            [str(RAY), "start", *args, "--num-cpus", "1", "--node-ip-address", "127.0.0.1",
             "--temp-dir", str(temp), "--dashboard-agent-listen-port", str(_free_port()),
             "--block"],
            stdout=self.out, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def wait_started(self, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if STARTED in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        raise AssertionError(f"ray start did not start:\n{self.log.read_text(errors='replace')}")

    def stop(self) -> None:
        """End the node's whole process group (raylet, workers, GCS on the head)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.out.close()


@pytest.fixture(scope="module")
def ray_start_cluster() -> Iterator[str]:
    if not RAY.exists():
        pytest.fail(f"{RAY}: the venv's ray executable is missing (pip install 'meadhall[ray]')")
    env = _env()
    port = _free_port()
    address = f"127.0.0.1:{port}"
    temps = [Path(tempfile.mkdtemp(prefix="meadhall-ray-")) for _ in range(2)]
    nodes: list[_Node] = []
    try:
        nodes.append(_Node(["--head", "--port", str(port), "--include-dashboard", "false"],
                           temps[0], env))
        nodes[0].wait_started()
        nodes.append(_Node(["--address", address], temps[1], env))
        nodes[1].wait_started()
        yield address
    finally:
        for n in reversed(nodes):
            n.stop()
        for t in temps:
            shutil.rmtree(t, ignore_errors=True)


def _sim(tmp: Path, name: str, *extra: str) -> list[dict]:
    out = tmp / f"{name}.parquet"
    done = subprocess.run(
        [str(MEADHALL), "sim", "toy", "--scenario", "chase", "--heroes", "ada",
         "--bot", "heuristic:1", "--games", "6", "--seed", "5", "--workers", "1",
         "--sweep", "scenarios.chase.rounds=8,12", "--quiet", "--out", str(out), *extra],
        env=_env(), capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    return results.read(out)


@pytest.mark.timeout(400)
def test_ray_start_nodes_share_a_sweep_with_the_local_rows(ray_start_cluster: str,
                                                           tmp_path: Path) -> None:
    on_cluster = _sim(tmp_path, "cluster", "--backend", "ray", "--address", ray_start_cluster)
    local = _sim(tmp_path, "local")
    nodes = {r["node"] for r in on_cluster}
    assert len(nodes) == 2 and all(nodes), f"the games ran on {nodes}, not on both nodes"
    assert all(r.get("node") is None for r in local)
    assert [same_game(r) for r in on_cluster] == [same_game(r) for r in local]
