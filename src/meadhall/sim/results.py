"""Result files: one row per game, as Parquet or CSV (pandas, polars and DuckDB read both).

Every column has one type: whole numbers, numbers, yes/no or text (lists and tables, such as
the action log, are JSON text). Files are written atomically: a crash never leaves half a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from meadhall.core.errors import MeadhallError
from meadhall.sim.runner import BASE_COLUMNS

FORMATS = (".parquet", ".csv")


class ResultsError(MeadhallError):
    """A results file that cannot be written or read."""


def _type(values: list[Any]) -> pa.DataType:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pa.bool_()
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.int64()
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in present):
        return pa.float64()
    return pa.string()


def _cell(v: Any, t: pa.DataType) -> Any:
    if v is None:
        return None
    if t == pa.string() and not isinstance(v, str):
        return str(v)
    if t == pa.float64():
        return float(v)
    return v


def table(rows: Sequence[dict[str, Any]]) -> pa.Table:
    """The rows as an Arrow table: base columns first, then the game's measures."""
    names = list(BASE_COLUMNS)
    for r in rows:
        names.extend(k for k in r if k not in names)
    arrays = []
    for n in names:
        values = [r.get(n) for r in rows]
        t = _type(values)
        arrays.append(pa.array([_cell(v, t) for v in values], type=t))
    return pa.Table.from_arrays(arrays, names=names)


def check_format(path: Path) -> str:
    """The file's format (``.parquet`` or ``.csv``), or a clear error."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ResultsError(f"{path}: results are written as .parquet or .csv, not "
                           f"{suffix or 'a file without an extension'}")
    return suffix


def write_atomic(path: str | Path, writer: Callable[[str], None]) -> Path:
    """Call ``writer`` with a temporary file name next to ``path``, then rename it over
    ``path``: readers see the old file or the whole new one, never half of it."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        os.close(fd)
    except OSError as e:
        raise ResultsError(f"{p}: cannot write: {e.strerror or e}") from None
    try:
        writer(tmp)
        os.replace(tmp, p)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise ResultsError(f"{p}: cannot write: {e.strerror or e}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p


def write_text(path: str | Path, text: str) -> Path:
    """Write a text file (a report) atomically."""
    return write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write(rows: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Write the rows to ``path`` (.parquet or .csv), atomically."""
    p = Path(path)
    fmt = check_format(p)
    t = table(rows)
    if fmt == ".parquet":
        return write_atomic(p, lambda tmp: pq.write_table(t, tmp))
    return write_atomic(p, lambda tmp: pacsv.write_csv(t, tmp))


def read(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results file written by :func:`write`."""
    p = Path(path)
    fmt = check_format(p)
    if not p.exists():
        raise ResultsError(f"{p}: no such results file")
    try:
        t = pq.read_table(p) if fmt == ".parquet" else pacsv.read_csv(
            p, convert_options=pacsv.ConvertOptions(strings_can_be_null=True))
    except (pa.ArrowException, OSError) as e:
        raise ResultsError(f"{p}: not a readable {fmt[1:]} results file ({e})") from None
    missing = [c for c in ("game", "setup", "seed", "bot", "bot_seed") if c not in t.column_names]
    if missing:
        raise ResultsError(f"{p}: not a meadhall results file (no {', '.join(missing)} column)")
    return t.to_pylist()
