"""Shared test configuration: the ``rule`` marker ties a test to a rulebook section."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(game, section): pins the rule printed in that rulebook section")
