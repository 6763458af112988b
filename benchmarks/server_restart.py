"""Restart benchmark of the browser table: how soon ``meadhall serve`` answers over a database
that holds many tables (issue 18: within 2 s whatever the database holds).

    python benchmarks/server_restart.py [--tables 50] [--steps 80] [--runs 3]

Builds a database of ``--tables`` tables (every game in turn, each played ``--steps`` random
steps, some with a bot in a seat), then starts a real ``meadhall serve`` on it ``--runs`` times
and reports the wall time from the process start to its first answer (``GET /``, then
``GET /api/tables``) and to the first answer about a table (``GET /api/tables/ID``). Wall
time on purpose: it is what a person waits; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from meadhall import games
from meadhall.server.store import Store
from meadhall.server.tables import Tables

sys.path.insert(0, str(Path(__file__).parent))
from server_load import free_port  # noqa: E402


def build(db: Path, n: int, steps: int) -> list[str]:
    """A database of ``n`` tables, each played ``steps`` random steps; returns their ids."""
    store = Store(db)
    tables = Tables(store, bot_delay=0)
    ids = []
    every = games.all_games()
    for i in range(n):
        g = every[i % len(every)]
        t = tables.create(g.id, None, i)
        rnd = random.Random(i)
        for _ in range(steps):
            owner = t.owner()
            if owner is None:
                break
            seat = owner if owner in t.seats else t.seats[0]
            t.act(seat, rnd.choice(t.state.legal_actions()).text, t.version)
        if i % 5 == 0 and t.owner() is not None:
            # a bot holds a seat whose turn it is not: the restart must find it
            other = next((s for s in t.seats if s != t.owner()), None)
            if other is not None:
                t.hand_over(other, other, "bot:random", t.version, lambda s: False)
        ids.append(t.row.id)
    store.close()
    return ids


def first_answer(db: Path, table_id: str) -> tuple[float, float]:
    port = free_port()
    start = time.monotonic()
    p = subprocess.Popen([sys.executable, "-m", "meadhall.cli", "serve", "--port", str(port),
                          "--db", str(db), "--bot-delay", "0"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        while True:
            try:
                if httpx.get(url + "/", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.02)
            if time.monotonic() - start > 120:
                raise SystemExit("the server did not answer within 120 s")
        lobby = time.monotonic() - start
        httpx.get(url + "/api/tables", timeout=30).raise_for_status()
        httpx.get(f"{url}/api/tables/{table_id}", timeout=60).raise_for_status()
        table = time.monotonic() - start
        return lobby, table
    finally:
        p.terminate()
        p.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tables.sqlite3"
        t0 = time.monotonic()
        ids = build(db, a.tables, a.steps)
        print(f"built {len(ids)} tables of {a.steps} steps in {time.monotonic() - t0:.1f} s")
        got = [first_answer(db, ids[-1]) for _ in range(a.runs)]
    lobby = [x for x, _ in got]
    table = [y for _, y in got]
    print(f"first answer (GET /): median {statistics.median(lobby):.2f} s, max {max(lobby):.2f} s")
    print(f"first table answer: median {statistics.median(table):.2f} s, "
          f"max {max(table):.2f} s")


if __name__ == "__main__":
    main()
