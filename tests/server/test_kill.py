"""``kill -9`` of a real ``meadhall serve`` loses no accepted action; a restart resumes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from .serverproc import free_port, start, stop


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
        # a second server on the same port says so in one line
        busy = subprocess.run([sys.executable, "-m", "meadhall.cli", "serve", "--port",
                               str(port), "--db", str(tmp_path / "other.sqlite3")],
                              capture_output=True, text=True, timeout=60)
        assert busy.returncode == 1 and "--port" in busy.stderr
        assert "Traceback" not in busy.stderr
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
        stop(p)
