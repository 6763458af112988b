"""The load benchmark (benchmarks/server_load.py) still runs: two tables, a few actions."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server_load.py"


def test_load_benchmark_runs() -> None:
    spec = importlib.util.spec_from_file_location("server_load", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.run(tables=2, steps=3, seconds=30, games=["toy"])
    assert out["errors"] == [] and out["actions"] >= 2
    assert out["median_ms"] > 0 and out["p99_ms"] >= out["median_ms"]
