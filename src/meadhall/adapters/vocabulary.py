"""The dense action numbering of a game and setup, and the legal-action mask.

``Action.id`` is a CRC-32 of the action text, which no agent can use as an output index. A
:class:`Vocabulary` numbers every action text the setup can ever offer
(``Game.action_vocabulary(setup)``, whose order games keep stable: new actions are only ever
appended), so action ``i`` is ``vocabulary.actions[i]`` in every state, and the mask of a state
has a 1 at the index of each legal action.

A vocabulary is saved as JSON (docs/adapters.md, "The vocabulary file") together with the hash
of the game's content files, so a trained agent can check that the environment it meets still
numbers actions the way it learned them (:meth:`Vocabulary.check_file`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from meadhall import games
from meadhall.adapters import missing
from meadhall.core.errors import ContentError
from meadhall.core.protocol import CHANCE, Action, Game, GameState
from meadhall.core.saves import read, write_json_atomic

try:
    import numpy as np
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("numpy", e) from None

VOCABULARY_FORMAT = "meadhall/action-vocabulary"
VOCABULARY_VERSION = 1


class VocabularyError(ContentError):
    """A saved vocabulary that does not fit the game as installed (names file and reason)."""


class NoVocabulary(NotImplementedError):  # noqa: N818 - reads as "the game has no vocabulary"
    """The game does not implement ``Game.action_vocabulary`` yet, so no agent can address its
    actions by index."""


def _walk(node: Traversable, prefix: str = "") -> Iterable[tuple[str, Traversable]]:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        name = f"{prefix}{child.name}"
        if child.is_dir():
            if child.name != "__pycache__":
                yield from _walk(child, name + "/")
        else:
            yield name, child


def content_hash(game: Game) -> str:
    """SHA-256 of the game's content files (``games/<id>/content/``, every file's relative path
    and bytes, in name order); ``sha256:`` plus 64 hex digits.

    Falls back to the content model's JSON dump for a game that keeps no content folder.
    """
    module = sys.modules.get(type(game).__module__) or importlib.import_module(
        type(game).__module__)
    parts = module.__name__.split(".")
    # A game's content lives in its package, games/<id>/content/, wherever its Game class is.
    package = ".".join(parts[:3]) if parts[:2] == ["meadhall", "games"] else module.__package__
    digest = hashlib.sha256()
    folder = files(package) / "content" if package else None
    if folder is not None and folder.is_dir():
        for name, f in _walk(folder):
            digest.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    else:
        dump = getattr(game.content, "model_dump_json", None)
        digest.update(dump().encode() if dump else repr(game.content).encode())
    return "sha256:" + digest.hexdigest()


def _setup_key(setup: Mapping[str, Any]) -> str:
    return json.dumps(setup, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Vocabulary:
    """Every action text a game with this setup can ever offer, numbered densely.

    >>> v = Vocabulary.of("toy", {"scenario": "chase", "heroes": ["ada"]})
    >>> v.actions[v.id("wait")]
    'wait'
    """

    game: str
    setup: dict[str, Any]
    actions: tuple[str, ...]
    content_hash: str
    _index: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        index = {t: i for i, t in enumerate(self.actions)}
        if len(index) != len(self.actions):
            dup = next(t for t in self.actions if self.actions.count(t) > 1)
            raise ValueError(f"{self.game}: the action vocabulary lists {dup!r} twice")
        self._index.update(index)

    @staticmethod
    def of(game: str | Game, setup: Mapping[str, Any] | None = None) -> Vocabulary:
        """The vocabulary of ``game`` (an id or a registered game) with ``setup`` (completed with
        the game's defaults); cached per game and setup."""
        g = games.get(game) if isinstance(game, str) else game
        full = g.normalise_setup(setup)
        return _vocabulary(g.id, _setup_key(full))

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, text: str) -> int:
        """The index of an action text; a clear error names a text the game never declared."""
        try:
            return self._index[text]
        except KeyError:
            raise KeyError(f"{self.game}: action {text!r} is not in the action vocabulary of "
                           f"this setup ({len(self)} actions): a bug in the game's "
                           "action_vocabulary()") from None

    def text(self, index: int) -> str:
        """The action text numbered ``index``."""
        i = int(index)
        if not 0 <= i < len(self.actions):
            raise IndexError(f"{self.game}: action index {i} is outside the vocabulary "
                             f"(0..{len(self.actions) - 1})")
        return self.actions[i]

    def legal_ids(self, state: GameState) -> list[int]:
        """Indices of the legal actions of ``state``, ascending (none at a chance decision)."""
        d = state.decision()
        if d is None or d.seat == CHANCE:
            return []
        return sorted(self.id(a.text) for a in state.legal_actions())

    def legal(self, state: GameState) -> dict[int, Action]:
        """Each legal action of ``state`` by its index (none while table mode waits for a
        result or at a chance decision). The values are the very objects
        ``state.legal_actions()`` returned, so applying one of them is not checked against the
        rules a second time (:meth:`GameState.apply`)."""
        if state.pending is not None:
            return {}  # table mode waits for a result: the chance player's, not an agent's
        get = self._index.get
        acts = state.legal_actions()
        out = {get(a.text, -1): a for a in acts}
        if -1 in out:
            # names the undeclared action, or finds a chance decision (no agent's actions)
            return {i: Action(self.actions[i]) for i in self.legal_ids(state)}
        return out

    def mask(self, state: GameState, legal: Mapping[int, Action] | None = None) -> np.ndarray:
        """An ``int8`` array of ``len(self)``: 1 at each legal action of ``state`` (``legal``:
        what :meth:`legal` just returned for it, when the caller has it)."""
        m = np.zeros(len(self.actions), dtype=np.int8)
        ids = list(self.legal(state) if legal is None else legal)
        if ids:
            m[ids] = 1
        return m

    # ----------------------------------------------------------------- the file
    def to_json(self, observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The vocabulary file's content (docs/adapters.md), with the observation layout
        (``describe_layout``) when given."""
        data = {"format": VOCABULARY_FORMAT, "version": VOCABULARY_VERSION, "game": self.game,
                "setup": self.setup, "content_hash": self.content_hash,
                "size": len(self.actions), "actions": list(self.actions)}
        if observation is not None:
            data["observation"] = dict(observation)
        return data

    def save(self, path: str | Path, observation: Mapping[str, Any] | None = None) -> Path:
        """Write the vocabulary file atomically (with the observation layout when given);
        returns its path."""
        p = Path(path)
        write_json_atomic(p, self.to_json(observation))
        return p

    @classmethod
    def load(cls, path: str | Path) -> Vocabulary:
        """Read a vocabulary file; errors name the file and the field."""
        data = read(path)
        src = str(path)
        if data.get("format") != VOCABULARY_FORMAT:
            raise VocabularyError(src, "format", f"expected {VOCABULARY_FORMAT!r}")
        if data.get("version") != VOCABULARY_VERSION:
            raise VocabularyError(src, "version", f"version {data.get('version')!r} is not "
                                  f"supported (this meadhall reads {VOCABULARY_VERSION})")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise VocabularyError(src, "actions", "must be a list of action texts")
        for key in ("game", "content_hash"):
            if not isinstance(data.get(key), str):
                raise VocabularyError(src, key, "must be a string")
        if not isinstance(data.get("setup"), dict):
            raise VocabularyError(src, "setup", "must be an object")
        return cls(data["game"], data["setup"], tuple(actions), data["content_hash"])

    def check_file(self, path: str | Path, observation: Mapping[str, Any] | None = None) -> None:
        """Check this vocabulary (and the observation layout, when given) against a saved
        file, or save them if ``path`` does not exist yet.

        The saved actions must be this vocabulary's first actions, in order (games only ever
        append), and a saved layout must be the current one, or agents trained with the file
        would act or see wrongly: that raises :class:`VocabularyError`. Changed content with
        an unchanged numbering and layout only warns.
        """
        p = Path(path)
        if not p.exists():
            self.save(p, observation)
            return
        saved = Vocabulary.load(p)
        if saved.game != self.game or _setup_key(saved.setup) != _setup_key(self.setup):
            raise VocabularyError(str(p), "game/setup", f"the file numbers {saved.game} with "
                                  f"setup {saved.setup}, not {self.game} with {self.setup}")
        if self.actions[:len(saved.actions)] != saved.actions:
            first = next((i for i, (a, b) in enumerate(zip(saved.actions, self.actions,
                                                            strict=False)) if a != b),
                         len(self.actions))
            raise VocabularyError(str(p), f"actions[{first}]", "the game numbers its actions "
                                  "differently now (its rules changed): retrain, or use the "
                                  "meadhall version that wrote this file")
        layout = read(p).get("observation")
        if observation is not None and layout is not None and layout != dict(observation):
            raise VocabularyError(str(p), "observation", "the observation layout changed (the "
                                  "game draws its table differently now): retrain, or use "
                                  "the meadhall version that wrote this file")
        if saved.content_hash != self.content_hash:
            warnings.warn(f"{p}: {self.game}'s content changed since the file was written; the "
                          "action numbering is unchanged", stacklevel=2)


@cache
def _vocabulary(game_id: str, setup_key: str) -> Vocabulary:
    g = games.get(game_id)
    try:
        actions = g.action_vocabulary(json.loads(setup_key))
    except NotImplementedError as e:
        raise NoVocabulary(f"{game_id}: the game has no action vocabulary yet "
                           "(Game.action_vocabulary), so the RL adapters cannot number its "
                           "actions") from e
    return Vocabulary(game_id, json.loads(setup_key), tuple(actions), content_hash(g))

