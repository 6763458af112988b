"""A real ``meadhall serve`` in a subprocess, for the kill and browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser


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


CHROMIUM = os.environ.get("MEADHALL_CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive (a Playwright browser download fails)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def require_chromium() -> None:
    """Skip the calling browser module loudly where Chromium is missing, or fail it where
    ``MEADHALL_REQUIRE_BROWSER`` is set (CI must run the browser tests)."""
    if Path(CHROMIUM).exists():
        return
    why = (f"BROWSER TESTS NOT RUN: {CHROMIUM} is missing (apt-get install chromium; "
           ".ci/run installs it)")
    if os.environ.get("MEADHALL_REQUIRE_BROWSER"):
        raise RuntimeError(why)
    pytest.skip(why, allow_module_level=True)


def served(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[str]:
    """A module's server: ``meadhall serve`` over a fresh database, stopped afterwards."""
    db = tmp_path_factory.mktemp(name) / "tables.sqlite3"
    port = free_port()
    p = start(db, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(p)


def launched() -> Iterator[Browser]:
    """A module's headless Chromium, closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
