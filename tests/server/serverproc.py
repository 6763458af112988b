"""A real ``meadhall serve`` in a subprocess, for the kill and browser tests."""

from __future__ import annotations

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


def start(db: Path, port: int, bot_delay: float = 0) -> subprocess.Popen[bytes]:
    """``meadhall serve`` on ``port`` over ``db``, once it answers."""
    p = subprocess.Popen([sys.executable, "-m", "meadhall.cli", "serve", "--port", str(port),
                          "--db", str(db), "--bot-delay", str(bot_delay)],
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


def stop(p: subprocess.Popen[bytes]) -> None:
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
