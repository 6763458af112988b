"""``kill -9`` of a real ``meadhall serve`` loses no accepted action; a restart resumes it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``meadhall serve`` on ``port``, once it answers."""
    p = subprocess.Popen([sys.executable, "-m", "meadhall.cli", "serve", "--port", str(port),
                          "--db", str(db), "--bot-delay", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return p
        except httpx.HTTPError:
            if p.poll() is not None:
                out = p.stdout.read().decode() if p.stdout else ""
                raise AssertionError(f"serve exited: {out}") from None
            time.sleep(0.1)
    p.kill()
    raise AssertionError("serve did not answer within 30 s")


def test_kill_9_loses_no_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    p = start(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        out = p.stdout.readline().decode() if p.stdout else ""
        assert f"http://127.0.0.1:{port}/" in out  # serve prints the lobby's address
        t = httpx.post(f"{base}/api/tables", json={"game": "toy", "setup": {
            "heroes": ["ada", "bo"]}, "seed": 4}).json()
        h = {"Authorization": f"Bearer {t['seats']['ada']}"}
        r = httpx.post(f"{base}/api/tables/{t['id']}/actions", headers=h,
                       json={"action": "move B1", "version": 0})
        assert r.status_code == 200
        accepted = r.json()["state"]
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
    p = start(db, port)
    try:
        s = httpx.get(f"{base}/api/tables/{t['id']}", headers=h).json()
        assert s["version"] == accepted["version"] == 1
        assert s["view"] == accepted["view"] and s["view"]["heroes"]["ada"] == "B1"
        assert s["journal"][-1]["label"] == "Ada moves to B1"
    finally:
        p.terminate()
        p.wait(timeout=10)
