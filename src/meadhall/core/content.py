"""Content loading: data files (JSON or TOML) validated by pydantic schemas.

Errors name the file, the field path and the reason, e.g.
``games/niflheim/content/weapons.json: sling.pbr: Input should be a valid integer``.
Loaded content is immutable and shared by every clone of a state.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from meadhall.core.errors import ContentError

M = TypeVar("M", bound=BaseModel)


class ContentModel(BaseModel):
    """Base for content schemas: frozen (shared between states), no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    __shared__ = True


def read_data(path: str | Path) -> Any:
    """Parse a JSON or TOML file; a syntax error names the file and line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ContentError(str(p), "", f"cannot read: {e.strerror or e}") from None
    try:
        if p.suffix == ".toml":
            return tomllib.loads(text)
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ContentError(str(p), f"line {e.lineno} column {e.colno}", e.msg) from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(str(p), "", f"TOML syntax: {e}") from None


def validate(model: type[M], data: Any, source: str) -> M:
    """Validate ``data`` against ``model``; the first problem becomes a :class:`ContentError`."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(top level)"
        more = f" (and {len(e.errors()) - 1} more problems)" if len(e.errors()) > 1 else ""
        raise ContentError(source, where, f"{err['msg']}{more}") from None


def load(model: type[M], path: str | Path) -> M:
    """Read and validate one content file."""
    return validate(model, read_data(path), str(path))


def check_choice(field: str, chosen: str, known: Iterable[str], what: str,
                 source: str = "setup") -> None:
    """``chosen`` must be one of ``known``; the error lists the options.

    >>> check_choice("scenario", "moon", ["1", "2"], "scenario")
    Traceback (most recent call last):
    meadhall.core.errors.ContentError: setup: scenario: unknown scenario 'moon'; choose from 1, 2
    """
    options = list(known)
    if chosen not in options:
        raise ContentError(source, field, f"unknown {what} {chosen!r}; choose from "
                           f"{', '.join(options)}")


def check_choices(field: str, chosen: Sequence[str], known: Iterable[str], what: str,
                  source: str = "setup") -> None:
    """Every id in ``chosen`` must be one of ``known`` and appear once."""
    options = list(known)
    for c in chosen:
        check_choice(field, c, options, what, source)
    if len(set(chosen)) != len(chosen):
        raise ContentError(source, field, f"each {what} can be chosen only once")
