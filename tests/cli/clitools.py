"""Helpers for the terminal's tests: the `meadhall` command run in-process (Typer's runner) or
as a separate program (for locks and Ctrl-C)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from meadhall.cli import app

ROOT = Path(__file__).resolve().parents[2]


def meadhall(*args: str, input: str | None = None) -> Result:  # noqa: A002
    """Run ``meadhall ARGS`` in-process; stdout and stderr together in ``output``."""
    return CliRunner().invoke(app, list(args), input=input)


def meadhall_process(*args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    """Start ``meadhall ARGS`` as its own program."""
    return subprocess.Popen([sys.executable, "-m", "meadhall.cli", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
