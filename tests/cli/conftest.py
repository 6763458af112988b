"""Fixtures for the terminal's tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import meadhall


@pytest.fixture
def toy_save(tmp_path: Path) -> Path:
    """A fresh two-hero toy game saved in a temporary folder."""
    f = tmp_path / "g.json"
    r = meadhall("new", "toy", "--scenario", "open", "--heroes", "ada,bo", "--seed", "1",
                 "-o", str(f))
    assert r.exit_code == 0, r.output
    return f
