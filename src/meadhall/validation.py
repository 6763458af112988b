"""Checking files against schemas, and exporting the schemas (``meadhall validate``/``schema``)."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from meadhall import games
from meadhall.core import saves
from meadhall.core.content import read_data, validate
from meadhall.core.errors import ContentError
from meadhall.core.protocol import POSITION_FORMAT, POSITION_VERSION


class PositionEnvelope(BaseModel):
    """The parts of a position/save every game shares (docs/formats.md)."""

    model_config = ConfigDict(extra="allow")

    format: str = Field(POSITION_FORMAT, description="always 'meadhall/position'")
    version: int = Field(POSITION_VERSION, description="position format version")
    game: str = Field(description="game id, e.g. 'niflheim'")
    state_version: int | None = None
    setup: dict[str, Any] = Field(default_factory=dict, description="scenario, heroes, ...")
    seed: int = 0
    chance: dict[str, Any] | None = Field(None, description="mode, rng state, queued results")
    auto_choices: bool = False
    log: list[str] = Field(default_factory=list, description="actions since setup")
    pending: dict[str, Any] | None = None
    position: dict[str, Any] | None = Field(None, description="the game's own position")
    conceded: str | None = Field(None, description="why the players conceded, if they did")
    journal: list[dict[str, Any]] | None = Field(None, description="recent actions and events "
                                                 "(saves)")
    history: dict[str, Any] | None = Field(None, description="what undo may take back (saves)")
    revision: int = Field(0, ge=0, description="raised by every write of a save")


def _owner(path: Path) -> games.Game | None:
    """The game whose content folder holds ``path``: the folder after the last ``games``
    (``.../games/niflheim/content/...``), else the nearest folder named after a game (a
    checkout's own folder name, such as a worktree called ``midhalla``, never counts first)."""
    parts = path.resolve().parts
    ids = set(games.ids())
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "games" and parts[i + 1] in ids:
            return games.get(parts[i + 1])
    for part in reversed(parts[:-1]):
        if part in ids:
            return games.get(part)
    return None


def expected_names(candidates: list[games.Game] | None = None) -> str:
    """The content file names each game reads, for an error about a file that fits none."""
    out = []
    for g in candidates or games.all_games():
        patterns = list(g.content_models())
        if patterns:
            out.append(f"{g.id}: {', '.join(patterns)}")
    return "; ".join(out)


def _is_position(data: dict[str, Any]) -> bool:
    return data.get("format") == POSITION_FORMAT or (
        "game" in data and ("position" in data or "setup" in data or "log" in data))


def validate_path(path: Path) -> str:
    """Validate one file as a position/save or as a game's content file: its schema, then
    everything the game checks when it loads it (:meth:`Game.check_content`, loading the
    position), with the same messages. Returns what it was checked as; raises
    :class:`ContentError`."""
    if path.suffix == ".json":
        data = saves.read(path)
        if _is_position(data):
            validate(PositionEnvelope, data, str(path))
            saves.open_save(path)
            return f"{data['game']} position"
    elif path.suffix == ".toml":
        data = read_data(path)
    else:
        raise ContentError(str(path), "", "not a .json or .toml file")
    owner = _owner(path)
    candidates = [owner] if owner else games.all_games()
    for g in candidates:
        for pattern, model in g.content_models().items():
            if fnmatch.fnmatch(path.name, pattern):
                checked = validate(model, data, str(path))
                g.check_content(str(path), checked)
                return f"{g.id} {model.__name__}"
    raise ContentError(str(path), "", "not a position, and its name fits no content file; "
                       f"expected names: {expected_names(candidates)}")


def collect(paths: list[Path]) -> list[Path]:
    """The files to check: each file given, and every .json/.toml file inside each folder
    given (hidden files and folders skipped). Raises :class:`ContentError` for a path that
    does not exist or a folder with nothing to check."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(x for x in p.rglob("*")
                           if x.is_file() and x.suffix in (".json", ".toml")
                           and not any(part.startswith(".")
                                       for part in x.relative_to(p).parts))
            if not found:
                raise ContentError(str(p), "", "nothing to check: the folder holds no .json "
                                   "or .toml file")
            files += found
        elif p.exists():
            files.append(p)
        else:
            raise ContentError(str(p), "", "no such file or folder")
    if not files:
        raise ContentError("validate", "", "nothing to check: name files or folders")
    return files


def all_schemas(game: str | None = None) -> dict[str, dict[str, Any]]:
    """JSON Schemas by name: the position envelope, and each game's content/position models."""
    out: dict[str, dict[str, Any]] = {"position": PositionEnvelope.model_json_schema()}
    for g in games.all_games():
        if game and g.id != game:
            continue
        for pattern, model in g.content_models().items():
            stem = pattern.rsplit(".", 1)[0].replace("*", "").strip("-_.") or "content"
            out[f"{g.id}.{stem}"] = model.model_json_schema()
        pm = g.position_model()
        if pm is not None:
            out[f"{g.id}.position"] = pm.model_json_schema()
    if game and len(out) == 1:
        games.get(game)  # raises for an unknown game
    return out
