"""Mutated saves and content files, fed to the terminal; a crash or a hang is classified.

The property tests (test_cli_fuzz.py) and the tools below share this code:
``python tests/cli/fuzzing.py GAME N [SEED]`` runs a longer campaign and prints each failure;
``... collect GAME N SEED`` prints each new failure as a shrunk ``Finding``;
``... refresh`` re-runs the recorded findings and rewrites fuzz_findings.py without the
fixed ones (and with where a moved one fails now); ``... add "Case(...)"`` records the
failures of a case a failing property test printed. A failure's *signature* is the exception type and the innermost
meadhall function it came from, so a known engine bug is recognised however it was reached.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from click.testing import Result
from typer.testing import CliRunner

from meadhall import games
from meadhall.bots.random import RandomBot
from meadhall.cli import app
from meadhall.core import saves
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import GameState

SRC = Path(__file__).resolve().parents[2] / "src" / "meadhall"
PLAY_STEPS = 40
HANG_SECONDS = 20.0

Path_ = tuple[str | int, ...]

WRONG_TYPES: list[Any] = [None, "banana", 2.5, True, [], {}, 3, [1], {"x": 1}, "3"]
OUT_OF_RANGE: list[Any] = [-1, -20, 0, 99, 10**30, 2**31, -(10**30), 1e308]
UNKNOWN_IDS: list[Any] = ["Z99", "nobody", "", "A0", "banana", "ZZ1", "A-1", " "]
TARGETS = ("from_json", "validate", "show", "play")
KINDS = ("delete", "wrong_type", "out_of_range", "unknown_id", "reorder")
STEPS = (0, 3, 12)
"""How many random decisions the mutated saves are taken after."""


class Hang(BaseException):  # noqa: N818 - reads as what happened
    """A command ran longer than :data:`HANG_SECONDS`."""


@dataclass(frozen=True)
class Failure:
    """A traceback or a hang: where it came from and how to reproduce it."""

    signature: tuple[str, ...]
    detail: str
    target: str = ""
    """What failed: ``from_json``, or the meadhall command (``validate``, ``show``, ``play``)."""

    def __str__(self) -> str:
        return f"{' / '.join(self.signature)}\n{self.detail}"


# ------------------------------------------------------------------ what gets mutated
@functools.cache
def base_save(game_id: str, steps: int) -> str:
    """A save of ``game_id`` after ``steps`` random decisions, as JSON text."""
    state = games.get(game_id).new_game(seed=steps + 1)
    save = saves.Save.new(state)
    bot = RandomBot(steps * 31 + 7)
    for _ in range(steps):
        if state.decision() is None:
            break
        action = bot.choose(state)
        save.record(action.text, save.history.apply(state, action))
    save.revision = 1
    return json.dumps(save.to_json())


def content_files(game_id: str) -> list[tuple[str, str]]:
    """(path relative to the game's content folder, JSON text) of every shipped data file."""
    folder = SRC / "games" / game_id / "content"
    return [(p.relative_to(folder).as_posix(), p.read_text(encoding="utf-8"))
            for p in sorted(folder.rglob("*.json"))]


def paths(doc: Any, at: Path_ = ()) -> Iterator[Path_]:
    """Every place in a JSON document, the document itself first."""
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*at, i))


def get(doc: Any, at: Path_) -> Any:
    for k in at:
        doc = doc[k]
    return doc


def mutate(doc: Any, kind: str, at: Path_, value: Any = None) -> Any:
    """``doc`` with one mutation at ``at``; returns the new document (``doc`` is untouched)."""
    doc = copy.deepcopy(doc)
    if kind == "reorder":
        node = get(doc, at)
        if isinstance(node, dict):
            reordered = dict(reversed(list(node.items())))
            node.clear()
            node.update(reordered)
        elif isinstance(node, list):
            node.reverse()
        return doc
    if not at:
        return value if kind != "delete" else {}
    parent, key = get(doc, at[:-1]), at[-1]
    if kind == "delete":
        del parent[key]
    else:
        parent[key] = value
    return doc


def describe(mutations: list[tuple[str, Path_, Any]]) -> str:
    return "; ".join(f"{kind} at {'.'.join(map(str, at)) or '(top)'}"
                     + ("" if kind in ("delete", "reorder") else f" = {value!r}")
                     for kind, at, value in mutations)


@dataclass(frozen=True)
class Case:
    """One mutated save (``file`` empty) or content file, replayable exactly."""

    game: str
    file: str
    steps: int
    mutations: list[tuple[str, Path_, Any]]
    keys: str = "1"

    def doc(self) -> Any:
        if self.file:
            base = json.loads(dict(content_files(self.game))[self.file])
        else:
            base = json.loads(base_save(self.game, self.steps))
        for kind, at, value in self.mutations:
            base = mutate(base, kind, at, value)
        return base

    def run(self, targets: tuple[str, ...] = TARGETS) -> list[Failure]:
        what = f"{self.file or 'save'}: {describe(self.mutations)}"
        if self.file:
            return check_content(self.game, self.file, self.doc(), what)
        return check_position(self.game, self.doc(), what, self.keys, targets)


# ------------------------------------------------------------------ running and classifying
@functools.cache
def _in_src(filename: str) -> str | None:
    try:
        return Path(filename).resolve().relative_to(SRC).as_posix()
    except ValueError:
        return None


def signature(game_id: str, exc: BaseException) -> tuple[str, ...]:
    """The exception type and the innermost meadhall function on its traceback."""
    where = "?"
    for frame in traceback.extract_tb(exc.__traceback__):
        rel = _in_src(frame.filename)
        if rel is not None:
            where = f"{rel}:{frame.name}"
    return (game_id, type(exc).__name__, where)


class _Alarm:
    """Raise :class:`Hang` in the main thread after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __enter__(self) -> None:
        def ring(signum: int, frame: object) -> None:
            raise Hang(f"still running after {self.seconds:.0f} s")

        self.old = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)


def run_cli(game_id: str, args: list[str], stdin: str | None, what: str) -> Failure | None:
    """Run ``meadhall ARGS``; a traceback (any exception meadhall did not turn into one line),
    a non-1 error exit or a hang is a :class:`Failure`."""
    runner = CliRunner()
    try:
        # Durability is tested elsewhere; skipping fsync makes 40 autosaved steps cheap.
        with _Alarm(HANG_SECONDS), mock.patch.object(os, "fsync", lambda fd: None):
            result: Result = runner.invoke(app, args, input=stdin,
                                           env={"MEADHALL_DEBUG": "1"})
    except Hang as e:
        return Failure((game_id, "Hang", args[0]), f"{what}: {e}", args[0])
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(exc)[-6:])
        return Failure(signature(game_id, exc), f"{what}: meadhall {args[0]}\n{tb}", args[0])
    if result.exit_code not in (0, 1) or "Traceback" in result.output:
        return Failure((game_id, f"exit {result.exit_code}", args[0]),
                       f"{what}: {result.output[-800:]}", args[0])
    mark = "✗" if args[0] == "validate" else "error:"
    lines = [ln for ln in result.output.splitlines() if ln.startswith(mark)]
    if args[0] != "play" and result.exit_code == 1 and len(lines) != 1:
        return Failure((game_id, "not one line", args[0]), f"{what}: {result.output[-800:]}",
                       args[0])
    return None


def check_loaded(game_id: str, doc: dict[str, Any], what: str) -> Failure | None:
    """``GameState.from_json`` refuses with a meadhall error or gives a state whose
    decision, actions, view and drawing work."""
    try:
        with _Alarm(HANG_SECONDS):
            try:
                state = GameState.from_json(doc, "<fuzz>")
            except MeadhallError:
                return None
            state.decision()
            state.legal_actions()
            state.render()
            json.dumps(state.view(None))
    except Hang as e:
        return Failure((game_id, "Hang", "from_json"), f"{what}: {e}", "from_json")
    except Exception as e:  # noqa: BLE001 - classifying is the point
        tb = "".join(traceback.format_exception(e)[-6:])
        return Failure(signature(game_id, e), f"{what}: from_json and use\n{tb}", "from_json")
    return None


def check_position(game_id: str, doc: Any, what: str, steps: str = "1",
                   targets: tuple[str, ...] = TARGETS) -> list[Failure]:
    """A (mutated) save through ``from_json``, ``validate``, ``show`` and ``play`` (40
    steps, typing ``steps`` at every prompt), or just ``targets``; every failure found."""
    found: list[Failure] = []
    if isinstance(doc, dict) and "from_json" in targets:
        f = check_loaded(game_id, doc, what)
        if f:
            found.append(f)
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "save.json"
        text = json.dumps(doc)
        for args, stdin in ((["validate", str(file)], None), (["show", str(file)], None),
                            (["play", str(file)], f"{steps}\n" * PLAY_STEPS + "q\n")):
            if args[0] not in targets:
                continue
            file.write_text(text)
            f = run_cli(game_id, args, stdin, what)
            if f:
                found.append(f)
    return found


def check_content(game_id: str, name: str, doc: Any, what: str) -> list[Failure]:
    """A (mutated) content file through ``validate``."""
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / game_id / name
        file.parent.mkdir(parents=True)
        file.write_text(json.dumps(doc))
        f = run_cli(game_id, ["validate", str(file)], None, what)
        return [f] if f else []


def random_case(game_id: str, rnd: Any) -> Case:
    """A random mutated save (two times in three) or content file."""
    files = content_files(game_id)
    if rnd.random() < 1 / 3:
        name, text = rnd.choice(files)
        steps, base = 0, json.loads(text)
    else:
        steps = rnd.choice(STEPS)
        name, base = "", json.loads(base_save(game_id, steps))
    doc, muts = base, []
    for _ in range(rnd.randint(1, 3)):
        at = rnd.choice(list(paths(doc)))
        kind = rnd.choice(KINDS)
        value = rnd.choice({"wrong_type": WRONG_TYPES, "out_of_range": OUT_OF_RANGE,
                            "unknown_id": UNKNOWN_IDS}.get(kind, [None]))
        doc = mutate(doc, kind, at, value)
        muts.append((kind, at, value))
    return Case(game_id, name, steps, muts, rnd.choice(["1", "2", ""]))


def campaign(game_id: str, n: int, seed: int = 0) -> dict[tuple[str, ...], tuple[Failure, Case]]:
    """A longer random run outside pytest: ``n`` mutated saves and content files; the first
    case found for each failure signature."""
    import random

    rnd = random.Random(seed)
    found: dict[tuple[str, ...], tuple[Failure, Case]] = {}
    for _ in range(n):
        case = random_case(game_id, rnd)
        for f in case.run():
            found.setdefault(f.signature, (f, case))
    return found


def shrink(case: Case, sig: tuple[str, ...], target: str) -> Case:
    """``case`` with every mutation it does not need to fail with ``sig`` (on ``target``)
    removed."""
    def fails(c: Case) -> bool:
        try:
            return any(f.signature == sig for f in c.run((target,)))
        except Exception:  # noqa: BLE001 - e.g. a path that no longer exists
            return False

    muts = list(case.mutations)
    i = 0
    while i < len(muts) and len(muts) > 1:
        trial = Case(case.game, case.file, case.steps, muts[:i] + muts[i + 1:], case.keys)
        if fails(trial):
            muts = trial.mutations
        else:
            i += 1
    best = Case(case.game, case.file, case.steps, muts, case.keys)
    for keys in ("1", "") if best.keys not in ("1", "") else ():
        trial = Case(best.game, best.file, best.steps, best.mutations, keys)
        if fails(trial):
            best = trial
            break
    return best


def first_error_line(f: Failure) -> str:
    lines = [ln for ln in f.detail.strip().splitlines() if ln and not ln.startswith(" ")]
    return lines[-1][:160] if lines else ""


def collect(game_id: str, n: int, seed: int) -> None:
    """Run a campaign, shrink one case per failure signature, print them as Finding(...)."""
    for sig, (f, case) in campaign(game_id, n, seed).items():
        small = shrink(case, sig, f.target)
        print(finding_source(sig, small, first_error_line(f), f.target), end="")
    sys.stdout.flush()


def finding_source(sig: tuple[str, ...], case: Case, error: str, target: str) -> str:
    return (f"    Finding({sig!r},\n            {case!r},\n"
            f"            {error!r}, {target!r}),\n")


def refresh(extra: list[Any] | None = None) -> None:
    """Re-run every recorded finding (and ``extra`` ones): keep those still there, drop the
    fixed ones, and record where a moved one fails now; rewrites fuzz_findings.py."""
    from fuzz_findings import FINDINGS

    path = Path(__file__).with_name("fuzz_findings.py")
    kept: dict[tuple[str, ...], str] = {}
    for f in [*FINDINGS, *(extra or [])]:
        if f.signature in kept:
            continue
        failures = f.case.run()
        same = [x for x in failures if x.signature == f.signature]
        if same:
            kept[f.signature] = finding_source(f.signature, f.case, f.error, same[0].target)
            continue
        print(f"fixed: {f.signature}" if not failures else f"moved: {f.signature}")
        for x in failures:
            if x.signature not in kept and not any(g.signature == x.signature
                                                   for g in FINDINGS):
                print(f"   now: {x.signature}")
                kept[x.signature] = finding_source(x.signature, f.case, first_error_line(x),
                                                   x.target)
    text = path.read_text(encoding="utf-8")
    head, rest = text.split("FINDINGS: list[Finding] = [\n", 1)
    tail = rest[rest.index("]\n\n_SIGNATURES"):]
    body = "".join(kept[k] for k in sorted(kept, key=lambda k: (k[0], k[2], k[1])))
    path.write_text(head + "FINDINGS: list[Finding] = [\n" + body + tail, encoding="utf-8")
    print(f"{len(kept)} findings recorded")


if __name__ == "__main__":
    if sys.argv[1] == "collect":
        collect(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    if sys.argv[1] == "refresh":
        refresh()
        sys.exit(0)
    if sys.argv[1] == "add":
        # add "Case(...)" as printed by a failing property test: records its failures
        from fuzz_findings import Finding

        new_case = eval(sys.argv[2], {"Case": Case})  # noqa: S307 - a developer's own input
        refresh([Finding(f.signature, new_case, first_error_line(f), f.target)
                 for f in new_case.run()])
        sys.exit(0)
    os.environ.setdefault("COLUMNS", "120")
    gid, count = sys.argv[1], int(sys.argv[2])
    for sig, (f, case) in campaign(gid, count,
                                   int(sys.argv[3]) if len(sys.argv) > 3 else 0).items():
        print("=" * 70)
        print(sig)
        print(repr(case))
        print(f.detail)
