"""Load benchmark of the browser table: tables played concurrently by bots over HTTP.

    python benchmarks/server_load.py [--tables 20] [--steps 60] [--seconds 60] [--games all]

Starts a real ``meadhall serve`` (fresh temporary database, loopback only), then one thread per
table creates its table and plays it like a page would: read the table as the deciding seat,
pick a random legal action, post it with its version. It reports the round-trip latency of
the action posts (median, p90, p99, max) and the throughput. Every loop is bounded by
``--steps`` per table and ``--seconds`` in all, and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

PLAYERS_OR_CHANCE = ("players", "chance")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    p = subprocess.Popen([sys.executable, "-m", "meadhall.cli", "serve", "--port", str(port),
                          "--db", str(db), "--bot-delay", "0"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return p
        except httpx.HTTPError:
            if p.poll() is not None:
                raise RuntimeError("meadhall serve exited") from None
            time.sleep(0.1)
    p.kill()
    raise RuntimeError("meadhall serve did not answer within 30 s")


def play_table(base: str, game: str, seed: int, steps: int, until: float,
               latencies: list[float], errors: list[str]) -> int:
    """Create one table and play up to ``steps`` random actions; returns how many."""
    rng = random.Random(seed)
    done = 0
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/api/tables", json={"game": game, "setup": {}, "seed": seed})
        if r.status_code != 201:
            errors.append(f"{game}: create {r.status_code} {r.text[:200]}")
            return 0
        t = r.json()
        tokens: dict[str, str] = t["seats"]
        first = next(iter(tokens))
        state = c.get(f"/api/tables/{t['id']}",
                      headers={"Authorization": f"Bearer {tokens[first]}"}).json()
        while done < steps and time.monotonic() < until:
            d = state.get("decision")
            if d is None:
                break
            owner = d["owner"]
            seat = first if owner in PLAYERS_OR_CHANCE else owner
            h = {"Authorization": f"Bearer {tokens[seat]}"}
            if state.get("seat") != seat or not state.get("actions"):
                state = c.get(f"/api/tables/{t['id']}", headers=h).json()
            action = rng.choice(state["actions"])["text"]
            t0 = time.perf_counter()
            r = c.post(f"/api/tables/{t['id']}/actions", headers=h,
                       json={"action": action, "version": state["version"]})
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors.append(f"{game}: {r.status_code} {r.text[:200]}")
                break
            state = r.json()["state"]
            done += 1
    return done


def run(tables: int = 20, steps: int = 60, seconds: float = 60.0,
        games: list[str] | None = None) -> dict[str, Any]:
    """Play ``tables`` tables at once against a fresh server; returns the figures."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="meadhall-load-"))
    server = start_server(folder / "tables.sqlite3", port)
    base = f"http://127.0.0.1:{port}"
    try:
        ids = games or [g["id"] for g in httpx.get(f"{base}/api/games").json()
                        if g["id"] != "toy"]
        latencies: list[float] = []
        errors: list[str] = []
        counts: list[int] = []
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=lambda i=i: counts.append(play_table(
            base, ids[i % len(ids)], 1000 + i, steps, until, latencies, errors)))
            for i in range(tables)]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - t0
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {"tables": tables, "games": ids, "actions": len(lat), "seconds": round(wall, 2),
            "actions_per_second": round(len(lat) / wall, 1) if wall else 0.0,
            "median_ms": round(statistics.median(lat) * 1000, 1) if lat else float("nan"),
            "p90_ms": round(pct(0.90), 1), "p99_ms": round(pct(0.99), 1),
            "max_ms": round(lat[-1] * 1000, 1) if lat else float("nan"),
            "errors": errors}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--steps", type=int, default=60, help="actions per table at most")
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit in all")
    ap.add_argument("--games", default="all", help="comma-separated ids (default: the four)")
    a = ap.parse_args()
    games = None if a.games == "all" else a.games.split(",")
    print(json.dumps(run(a.tables, a.steps, a.seconds, games), indent=1))


if __name__ == "__main__":
    main()
