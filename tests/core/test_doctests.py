"""The kernel's docstring examples are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import meadhall.core

MODULES = [m.name for m in pkgutil.iter_modules(meadhall.core.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"meadhall.core.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
