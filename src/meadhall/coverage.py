"""Rule coverage: which rulebook sections have tests citing them.

Each game's table of contents is ``docs/rules/<id>.toml``; tests cite sections with
``@pytest.mark.rule("<id>", "<section>")`` (on a function, a class, or a module's
``pytestmark``). The test files are read with :mod:`ast`, not imported, so this is fast and
works without running the suite.
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from meadhall.core.errors import ContentError


@dataclass
class Section:
    name: str
    parent: str | None = None
    not_applicable: str | None = None
    tests: list[str] = field(default_factory=list)


@dataclass
class GameCoverage:
    game: str
    sections: list[Section]
    unknown: dict[str, list[str]]
    """Sections cited by tests that the table of contents does not list (likely typos)."""

    @property
    def covered(self) -> int:
        return sum(1 for s in self.sections if s.tests or s.not_applicable)

    @property
    def total(self) -> int:
        return len(self.sections)


def find_root(start: Path | None = None) -> Path:
    """The project folder: the nearest parent of ``start`` (or cwd, or this package) holding
    ``docs/rules``."""
    candidates = [start or Path.cwd(), Path(__file__).resolve().parents[2]]
    for c in candidates:
        for p in [c, *c.parents]:
            if (p / "docs" / "rules").is_dir():
                return p
    raise ContentError("docs/rules", "", "cannot find the project's docs/rules folder; "
                       "run from the project folder or pass --root")


def load_toc(path: Path) -> tuple[str, list[Section]]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ContentError(str(path), "", f"TOML syntax: {e}") from None
    game = data.get("game")
    if not isinstance(game, str):
        raise ContentError(str(path), "game", "missing or not a string")
    sections = []
    for i, s in enumerate(data.get("section", [])):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            raise ContentError(str(path), f"section[{i}].name", "missing or not a string")
        sections.append(Section(s["name"], s.get("parent"), s.get("not_applicable")))
    return game, sections


def _marker_args(node: ast.expr, consts: dict[str, str]) -> tuple[str, str] | None:
    """``pytest.mark.rule("g", "s")`` → ``("g", "s")``; names bound at module level to a string
    (``G = "battleforge"``) are resolved."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if not (isinstance(f, ast.Attribute) and f.attr == "rule"):
        return None
    args: list[str] = []
    for a in node.args:
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            args.append(a.value)
        elif isinstance(a, ast.Name) and a.id in consts:
            args.append(consts[a.id])
    if len(args) != 2 or len(node.args) != 2:
        return None
    return args[0], args[1]


def _string_constants(tree: ast.Module) -> dict[str, str]:
    consts: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    consts[t.id] = node.value.value
    return consts


def _visit(body: list[ast.stmt], prefix: str, inherited: list[tuple[str, str]],
           consts: dict[str, str], cited: dict[tuple[str, str], list[str]]) -> None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            marks = inherited + [m for d in node.decorator_list if (m := _marker_args(d, consts))]
            name = f"{prefix}::{node.name}"
            if isinstance(node, ast.ClassDef):
                _visit(node.body, name, marks, consts, cited)
            elif node.name.startswith("test"):
                for m in marks:
                    cited[m].append(name)


def scan_tests(tests: Path) -> dict[tuple[str, str], list[str]]:
    """Map ``(game, section)`` to the ids of the tests that cite it."""
    cited: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(tests.rglob("test_*.py")):
        rel = path.relative_to(tests.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        consts = _string_constants(tree)
        module_marks: list[tuple[str, str]] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                values = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [
                    node.value]
                module_marks += [m for v in values if (m := _marker_args(v, consts))]
        _visit(tree.body, rel, module_marks, consts, cited)
    return cited


def coverage(root: Path, game: str | None = None) -> list[GameCoverage]:
    """Coverage of every game with a table of contents (or just ``game``)."""
    cited = scan_tests(root / "tests")
    out = []
    for toc in sorted((root / "docs" / "rules").glob("*.toml")):
        gid, sections = load_toc(toc)
        if game and gid != game:
            continue
        names = {s.name for s in sections}
        for s in sections:
            s.tests = sorted(cited.get((gid, s.name), []))
        unknown = {sec: tests for (g, sec), tests in cited.items() if g == gid and sec not in names}
        out.append(GameCoverage(gid, sections, unknown))
    if game and not out:
        raise ContentError(f"docs/rules/{game}.toml", "", "no table of contents for this game")
    return out
