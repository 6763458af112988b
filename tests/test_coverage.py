"""rules-coverage reads rule markers statically from test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from meadhall.core.errors import ContentError
from meadhall.coverage import coverage


def make_project(tmp_path: Path, test_source: str) -> Path:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "g.toml").write_text(
        'game = "g"\n[[section]]\nname = "A"\n[[section]]\nname = "B"\n'
        '[[section]]\nname = "C"\nnot_applicable = "a heading"\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(test_source)
    return tmp_path


def test_literal_constant_class_and_module_markers(tmp_path: Path) -> None:
    root = make_project(tmp_path, '''
import pytest
G = "g"
pytestmark = [pytest.mark.rule("g", "A")]

@pytest.mark.rule(G, "B")
def test_one(): ...

class TestGroup:
    def test_two(self): ...

@pytest.mark.rule("g", "Typo")
def test_three(): ...
''')
    [gc] = coverage(root)
    by_name = {s.name: s for s in gc.sections}
    assert by_name["A"].tests == ["tests/test_x.py::TestGroup::test_two",
                                  "tests/test_x.py::test_one", "tests/test_x.py::test_three"]
    assert by_name["B"].tests == ["tests/test_x.py::test_one"]
    assert gc.covered == 3 and gc.total == 3
    assert gc.unknown == {"Typo": ["tests/test_x.py::test_three"]}


def test_uncited_sections_are_reported(tmp_path: Path) -> None:
    root = make_project(tmp_path, "def test_nothing():\n    assert 1\n")
    [gc] = coverage(root)
    assert gc.covered == 1 and [s.name for s in gc.sections if not s.tests] == ["A", "B", "C"]


def test_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    root = make_project(tmp_path, "")
    with pytest.raises(ContentError, match="no table of contents"):
        coverage(root, "nope")
