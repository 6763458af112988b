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
    journal: list[dict[str, Any]] | None = None


def _owner(path: Path) -> games.Game | None:
    parts = path.resolve().parts
    for g in games.all_games():
        if g.id in parts:
            return g
    return None


def validate_path(path: Path) -> str:
    """Validate one file; returns what it was checked as, raises :class:`ContentError`."""
    if path.suffix == ".json":
        data = saves.read(path)
        if isinstance(data, dict) and (data.get("format") == POSITION_FORMAT or (
                "game" in data and ("position" in data or "setup" in data))):
            validate(PositionEnvelope, data, str(path))
            saves.load(path)
            return f"{data['game']} position"
    else:
        data = read_data(path)
    candidates = [g for g in [_owner(path)] if g] or games.all_games()
    for g in candidates:
        for pattern, model in g.content_models().items():
            if fnmatch.fnmatch(path.name, pattern):
                validate(model, data, str(path))
                return f"{g.id} {model.__name__}"
    raise ContentError(str(path), "", "no schema matches this file (not a position, and no "
                       "game's content_models() pattern fits its name)")


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
