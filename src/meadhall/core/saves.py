"""Save files: a state's JSON plus a short journal of recent events, written atomically.

A save is a position (docs/formats.md) with one extra key, ``journal``: the last events as
sentences, so ``meadhall show`` can print what just happened. Writing goes to a temporary file
in the same folder and is renamed over the target, so a crash never leaves half a save.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from meadhall.core.errors import ContentError, SaveError
from meadhall.core.protocol import GameState

JOURNAL_LIMIT = 200


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write JSON to ``path`` atomically (temporary file + rename)."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as e:
        raise SaveError(f"{p}: cannot write the save: {e.strerror or e}") from None


def save(state: GameState, path: str | Path, journal: list[dict[str, Any]] | None = None) -> None:
    """Save a state (and its journal) atomically."""
    data = state.to_json()
    data["journal"] = (journal or [])[-JOURNAL_LIMIT:]
    write_json_atomic(path, data)


def read(path: str | Path) -> dict[str, Any]:
    """Read a save or position file as JSON; errors name the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{p}: no such file") from None
    except OSError as e:
        raise SaveError(f"{p}: cannot read: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ContentError(str(p), f"line {e.lineno} column {e.colno}", e.msg) from None
    if not isinstance(data, dict):
        raise ContentError(str(p), "(top level)", "a position must be a JSON object")
    return data


def load(path: str | Path) -> tuple[GameState, list[dict[str, Any]]]:
    """Load a save or hand-written position; returns the state and its journal."""
    data = read(path)
    state = GameState.from_json(data, source=str(path))
    journal = data.get("journal") or []
    return state, list(journal)
