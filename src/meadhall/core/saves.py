"""Save files: a state's JSON plus its journal, undo history and revision, never lost.

A save is a position (docs/formats.md) with three extra keys: ``journal`` (the last actions and
their events as sentences, so ``meadhall show`` can print what just happened), ``history``
(what undo may take back, :class:`~meadhall.core.history.History`, so undo works after a
resume) and ``revision`` (a counter raised by every write). Writes go to a temporary file in
the same folder, are flushed to disk and renamed over the target, so a crash never leaves half
a save. A writer holds an exclusive lock (``fcntl.flock``) on the save and refuses to write
when the revision on disk is not the one it read, so two programs writing one save at the same
moment never lose a step silently.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meadhall.core.errors import ContentError, MeadhallError, SaveError
from meadhall.core.history import History
from meadhall.core.protocol import GameState, fresh_future

try:
    import fcntl
except ImportError:  # Windows: no flock; writes still refuse a stale revision
    fcntl = None  # type: ignore[assignment]

JOURNAL_LIMIT = 200


class StaleSave(SaveError):  # noqa: N818 - reads as a sentence: "stale save"
    """The save changed on disk since it was read (another program wrote it)."""


class SaveExists(SaveError):  # noqa: N818 - reads as a sentence: "save exists"
    """Creating a save would overwrite an existing file."""


def _fsync_folder(folder: Path) -> None:
    # The rename itself must reach the disk too, or a power cut can bring the old file back.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_json_atomic(path: str | Path, data: Any, *, exclusive: bool = False) -> None:
    """Write JSON to ``path`` atomically (temporary file, fsync, rename).

    With ``exclusive``, an existing file is never replaced: :class:`SaveExists` is raised
    instead (the check and the write are one atomic step).
    """
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    tmp: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            try:
                os.link(tmp, p)  # fails if p exists: no window in which it could be clobbered
            except FileExistsError:
                raise SaveExists(f"{p}: already exists; choose another name or pass "
                                 "--force to replace it") from None
            os.unlink(tmp)
        else:
            os.replace(tmp, p)
        tmp = None
        _fsync_folder(folder)
    except OSError as e:
        raise SaveError(f"{p}: cannot write the save: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def read(path: str | Path) -> dict[str, Any]:
    """Read a save or position file as JSON; errors name the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise SaveError(f"{p}: is a folder, not a save file") from None
    except UnicodeDecodeError:
        raise ContentError(str(p), "", "not a text file (a save is JSON)") from None
    except OSError as e:
        raise SaveError(f"{p}: cannot read: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ContentError(str(p), f"line {e.lineno} column {e.colno}", e.msg) from None
    except RecursionError:
        raise ContentError(str(p), "", "nested too deeply to be a position") from None
    if not isinstance(data, dict):
        raise ContentError(str(p), "(top level)", "a position must be a JSON object")
    return data


@dataclass
class Save:
    """A game as kept in a file: the state, its journal of recent events, its undo history,
    and the revision of the file it was read from (None: not written yet)."""

    state: GameState
    journal: list[dict[str, Any]]
    history: History
    revision: int | None = None

    @classmethod
    def new(cls, state: GameState, journal: list[dict[str, Any]] | None = None,
            practice: bool = False) -> Save:
        """A save not written yet, whose undo history starts at ``state``."""
        return cls(state, list(journal or []), History(state, practice))

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json()
        data["journal"] = self.journal[-JOURNAL_LIMIT:]
        data["history"] = self.history.to_json()
        data["revision"] = self.revision or 0
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], source: str) -> Save:
        """Load a save (or a plain position: empty journal, history starting here). A save
        without its seed (a seat's download from the browser table) draws a future of its
        own (:func:`~meadhall.core.protocol.fresh_future`)."""
        data = fresh_future(data)
        state = GameState.from_json(data, source=source)
        journal = data.get("journal") or []
        if not isinstance(journal, list) or not all(
                isinstance(e, dict) and isinstance(e.get("action"), str)
                and isinstance(e.get("events", []), list) for e in journal):
            raise ContentError(source, "journal", "must be a list of {action, events} objects")
        revision = data.get("revision", 0)
        if not isinstance(revision, int) or isinstance(revision, bool) or revision < 0:
            raise ContentError(source, "revision", "must be a whole number, 0 or more")
        history = History(state)
        if data.get("history") is not None:
            saved = History.from_json(data["history"], source)
            # A history that does not lead to this very state (a hand-edited save, a base
            # position that no longer loads) is dropped rather than trusted: undo then starts
            # from here, and the game itself is not lost over it.
            try:
                fits = saved.follows(state)
            except Exception:  # noqa: BLE001 - the state loaded; only undo is given up
                fits = False
            if fits:
                history = saved
        return cls(state, list(journal), history, revision)

    def record(self, action: str, events: list[Any]) -> None:
        """Add an action and its events (as sentences) to the journal."""
        self.journal.append({"action": action, "events": [str(e) for e in events]})
        del self.journal[:-JOURNAL_LIMIT]


def open_save(path: str | Path) -> Save:
    """Read a save or a hand-written position from ``path``."""
    return Save.from_json(read(path), str(path))


def load(path: str | Path) -> tuple[GameState, list[dict[str, Any]]]:
    """Load a save or hand-written position; returns the state and its journal."""
    s = open_save(path)
    return s.state, s.journal


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on the existing save ``path`` (waits for other holders).

    The lock is on the file itself; since every write renames a new file into place, a waiter
    that wakes up holding the lock of a replaced file retries on the current one.
    """
    p = Path(path)
    while True:
        try:
            fd = os.open(p, os.O_RDONLY)
        except FileNotFoundError:
            raise SaveError(f"{p}: no such file") from None
        except OSError as e:
            raise SaveError(f"{p}: cannot open: {e.strerror or e}") from None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                current = os.stat(p)
            except FileNotFoundError:
                current = None
            if current is not None and current.st_ino == os.fstat(fd).st_ino:
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # replaced (or removed) while we waited: lock the current file
    try:
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _revision_on_disk(path: Path, tolerant: bool) -> int:
    try:
        rev = read(path).get("revision", 0)
    except MeadhallError:
        if tolerant:
            return 0
        raise
    return rev if isinstance(rev, int) and not isinstance(rev, bool) and rev >= 0 else 0


def write(save: Save, path: str | Path, *, replace: bool = False) -> None:
    """Write ``save`` to ``path`` and raise its revision.

    A save never written (``revision`` None) is created: an existing file at ``path`` is
    refused (:class:`SaveExists`) unless ``replace``. A save read from a file is written back
    under the file's lock, and only if the revision on disk is still the one it was read with
    (:class:`StaleSave` otherwise: another program wrote it meanwhile), unless ``replace``.
    """
    p = Path(path)
    old = save.revision
    if old is None and not replace:
        save.revision = 1
        try:
            write_json_atomic(p, save.to_json(), exclusive=True)
        except BaseException:
            save.revision = old
            raise
        return
    if not p.exists():
        if not replace:
            raise StaleSave(f"{p}: the save was removed since it was read; nothing was "
                            "written")
        save.revision = 1
        try:
            write_json_atomic(p, save.to_json())
        except BaseException:
            save.revision = old
            raise
        return
    with locked(p):
        on_disk = _revision_on_disk(p, tolerant=replace)
        if not replace and on_disk != old:
            raise StaleSave(f"{p}: the save was changed by another program since it was "
                            f"read (revision {on_disk}, expected {old}); nothing was written")
        save.revision = on_disk + 1
        try:
            write_json_atomic(p, save.to_json())
        except BaseException:
            save.revision = old
            raise


@contextlib.contextmanager
def update(path: str | Path) -> Iterator[Save]:
    """Read, change and write back the save ``path`` as one step that no other writer can
    interleave with: the lock is held from the read to the write. Nothing is written when
    the body raises."""
    p = Path(path)
    with locked(p):
        s = open_save(p)
        yield s
        s.revision = (s.revision or 0) + 1
        write_json_atomic(p, s.to_json())


def save(state: GameState, path: str | Path, journal: list[dict[str, Any]] | None = None) -> None:
    """Write ``state`` (and its journal) to ``path`` atomically, replacing any file there.

    A convenience for tools and tests; the terminal uses :class:`Save` and :func:`write`,
    which never replace a save they did not read.
    """
    write(Save.new(state, journal), path, replace=True)
