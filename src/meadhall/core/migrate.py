"""Saves and logs across versions: retired action texts and position migrations, once for all
games (docs/formats.md, "Across versions").

Action texts are a public API. When a game renames one, the old text is *retired*: the game's
``retired.json`` (beside its package, data validated by :class:`RetiredFile`) says what it
became, as an exact text or a pattern whose parts may be looked up in the game's names
(:meth:`~meadhall.core.protocol.Game.retired_names`: content ids to the names texts use now).
Every log that is loaded goes through :func:`migrate_action` (saves, server tables, undo
histories, replays, the lab's rows), so a log written by an older meadhall replays.

A game's position format has a version (``state_version``). Each change of it registers a
migration function from the version before (:func:`position_migration`); loading applies them
in order (:func:`migrate_position`) before the position is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from meadhall.core.errors import ContentError

if TYPE_CHECKING:
    from meadhall.core.protocol import Game

Migration = Callable[[dict[str, Any]], dict[str, Any]]
"""A position migration: takes a save of version N (a copy, free to change) and returns it as
version N + 1 would have written it."""

_MIGRATIONS: dict[str, dict[int, Migration]] = {}

# Log entries of the protocol's own (results, forced results, conceding) are not actions.
_NOT_ACTIONS = ("result ", "!")
_PART = re.compile(r"\{(\w+)(\+1)?(?::(names?))?\}")


class RetiredText(BaseModel):
    """One retired action text: ``was`` (an exact old text) or ``pattern`` (a regular
    expression matching whole old texts, with named groups), and what it is ``now``: a
    template where ``{group}`` is the matched part, ``{group+1}`` a number one higher (a count
    that began at 0), ``{group:name}`` the part looked up in the game's names and
    ``{group:names}`` each of its words that holds an underscore (an id) looked up (left
    as they were when the names do not know them). ``now`` may list several texts when the new one depends on the position: a
    replay takes the first that is legal there."""

    model_config = ConfigDict(extra="forbid")
    since: str = Field(description="the day (or commit) the text was retired")
    was: str | None = None
    pattern: str | None = None
    now: str | list[str]

    @property
    def nows(self) -> list[str]:
        return [self.now] if isinstance(self.now, str) else list(self.now)

    @model_validator(mode="after")
    def _one_of(self) -> RetiredText:
        if not self.nows:
            raise ValueError("'now' names at least one text")
        if (self.was is None) == (self.pattern is None):
            raise ValueError("give exactly one of 'was' (an old text) and 'pattern'")
        if self.pattern is not None:
            try:
                groups = set(re.compile(self.pattern).groupindex)
            except re.error as e:
                raise ValueError(f"pattern {self.pattern!r}: {e}") from None
            used = {m.group(1) for now in self.nows for m in _PART.finditer(now)}
            if not used <= groups:
                raise ValueError(f"'now' uses {sorted(used - groups)}, which the pattern "
                                 "does not capture")
        return self


class RetiredFile(BaseModel):
    """A game's ``retired.json``: its retired action texts, oldest first."""

    model_config = ConfigDict(extra="forbid")
    about: str = ""
    texts: list[RetiredText] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Rule:
    exact: str | None
    pattern: re.Pattern[str] | None
    nows: tuple[str, ...]

    def apply(self, text: str, names: Mapping[str, str]) -> list[str] | None:
        if self.exact is not None:
            return list(self.nows) if text == self.exact else None
        assert self.pattern is not None
        m = self.pattern.fullmatch(text)
        if m is None:
            return None

        def part(t: re.Match[str]) -> str:
            value = m.group(t.group(1)) or ""
            if t.group(2) and value.isdigit():
                value = str(int(value) + 1)
            if t.group(3) == "name":
                return names.get(value, value)
            if t.group(3) == "names":
                # only ids (they hold an underscore): a plain word may be today's text
                return " ".join(names.get(w, w) if "_" in w else w for w in value.split(" "))
            return value

        return [_PART.sub(part, now) for now in self.nows]


class Retired:
    """A game's table of retired action texts, applied in the order they were retired (so a
    text renamed twice reaches its newest form)."""

    def __init__(self, file: RetiredFile, names: Callable[[], Mapping[str, str]]) -> None:
        self.rules = [_Rule(t.was, re.compile(t.pattern) if t.pattern else None,
                            tuple(t.nows)) for t in file.texts]
        self._names = names
        self._names_cache: Mapping[str, str] | None = None
        self._memo: dict[str, list[str]] = {}

    @classmethod
    def read(cls, path: Path, names: Callable[[], Mapping[str, str]]) -> Retired:
        """The table in ``path`` (none retired when there is no such file); a bad file names
        file, field and reason."""
        if not path.exists():
            return cls(RetiredFile(), names)
        try:
            file = RetiredFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as e:
            raise ContentError(str(path), f"line {e.lineno} column {e.colno}", e.msg) from None
        except ValidationError as e:
            err = e.errors()[0]
            raise ContentError(str(path), ".".join(str(x) for x in err["loc"]),
                               err["msg"]) from None
        return cls(file, names)

    def map(self, text: str) -> str:
        """The current text of ``text`` (itself when it was never retired; the first
        candidate when the new text depends on the position, see :meth:`candidates`)."""
        return self.candidates(text)[0]

    def candidates(self, text: str) -> list[str]:
        """The texts ``text`` may have become, most likely first (``[text]`` when it was
        never retired)."""
        if not self.rules or text.startswith(_NOT_ACTIONS):
            return [text]
        got = self._memo.get(text)
        if got is not None:
            return got
        if self._names_cache is None:
            self._names_cache = self._names()
        outs = [text]
        for rule in self.rules:
            nxt: list[str] = []
            for out in outs:
                new = rule.apply(out, self._names_cache)
                nxt.extend(new if new is not None else [out])
            outs = list(dict.fromkeys(nxt))
        if len(self._memo) < 100_000:
            self._memo[text] = outs
        return outs

    def map_log(self, log: Iterable[str]) -> list[str]:
        return [self.map(x) for x in log]


def migrate_action(game: Game, text: str) -> str:
    """The current text of the action ``text`` of ``game`` (see :class:`Retired`)."""
    return game.retired.map(text)


def migrate_log(game: Game, log: Iterable[str]) -> list[str]:
    """A whole log with every retired action text replaced by its current one."""
    return game.retired.map_log(log)


def position_migration(game_id: str, version: int) -> Callable[[Migration], Migration]:
    """Register ``fn`` as the migration of ``game_id``'s positions from ``version`` to
    ``version + 1`` (a decorator, used by the game's position module)."""

    def register(fn: Migration) -> Migration:
        _MIGRATIONS.setdefault(game_id, {})[version] = fn
        return fn

    return register


def migrations(game_id: str) -> dict[int, Migration]:
    """The registered position migrations of a game, by the version they start from."""
    return dict(_MIGRATIONS.get(game_id, {}))


def migrate_position(game_id: str, current: int, data: Mapping[str, Any], source: str
                     ) -> dict[str, Any]:
    """``data`` brought to the game's current position version ``current`` by its registered
    migrations, one version at a time; a version that is newer than this meadhall, or one no
    migration starts from, is refused naming ``state_version``."""
    out = dict(data)
    sv = out.get("state_version", current)
    if type(sv) is not int or sv < 1:
        raise ContentError(source, "state_version", "must be a whole number, 1 or more")
    if sv > current:
        raise ContentError(source, "state_version", f"{game_id} state version {sv} is newer "
                           f"than this meadhall reads ({current}): upgrade meadhall")
    steps = _MIGRATIONS.get(game_id, {})
    while sv < current:
        fn = steps.get(sv)
        if fn is None:
            raise ContentError(source, "state_version", f"{game_id} state version {sv} is not "
                               f"supported (this meadhall reads {current}, and no migration "
                               f"starts from {sv})")
        out = fn(json.loads(json.dumps(out)))
        sv += 1
        out["state_version"] = sv
    return out


def rebuild_from_log(data: dict[str, Any]) -> dict[str, Any]:
    """A migration for a position whose format changed: drop the old ``position`` (and what
    only it explains: the generator's state and a pending question) so that loading rebuilds
    the game from its setup, seed and log, which replay to the identical state. A position
    with an empty log is the setup itself (or written by hand) and is kept as it is."""
    if data.get("log") and "position" in data:
        data.pop("position")
        data.pop("pending", None)
        chance = data.get("chance")
        if isinstance(chance, dict):
            chance.pop("rng", None)
            chance.pop("queue", None)
    return data


def retire_choice_texts(data: dict[str, Any], game_id: str, key: str = "choice") -> dict[str, Any]:
    """A migration step for a game whose position keeps the pending decision's options as
    action texts (``position.<key>.options``: texts, or ``[text, payload]`` pairs, and its
    ``default``): each retired text is replaced by its current one."""
    from meadhall import games

    retired = games.get(game_id).retired
    position = data.get("position")
    choice = position.get(key) if isinstance(position, dict) else None
    if not isinstance(choice, dict):
        return data
    options = choice.get("options")
    if isinstance(options, list):
        for i, o in enumerate(options):
            if isinstance(o, str):
                options[i] = retired.map(o)
            elif isinstance(o, list) and o and isinstance(o[0], str):
                o[0] = retired.map(o[0])
    if isinstance(choice.get("default"), str):
        choice["default"] = retired.map(choice["default"])
    return data
