"""A fixed-size observation of one seat, encoded from what the seat sees, and its text view.

The encoding never reads the game state's hidden parts: it draws the seat's view
(``Game.draw(state.view(seat))``, the same :class:`~meadhall.core.draw.Scene` the browser table
shows) and turns the scene into arrays, the same way for every game:

* ``grid:<board>`` — one ``rows × cols × channels`` array per square or hex board: the cell is
  shown / closed / labelled, its terrain (one channel per legend key), walls and doors by
  direction, and the figures on it (count per side, hp, max hp, own figures, face down, badges,
  and a bucketed kind);
* ``tiles:<board>`` — one ``slots × features`` array per tile network (position, terrain,
  figures as above), with ``links:<board>``, its ``slots × slots`` adjacency;
* ``vector`` — who observes and who decides, the outcome, every track's marker and occupied
  spaces, every panel's numeric stats, counts of cards, tokens and dice, card titles in hashed
  buckets, hashed ``extra:`` places for what the probe games never drew (``overflow`` counts
  them) and ``unencoded``: how many drawn things were lost.

The :class:`Layout` (names, shapes, channel names and each feature's bounds) is fixed per game
and setup from the scenes of a few random probe games, built once and cached on disk
(:func:`layout_of`); docs/adapters.md documents it entry by entry.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import operator
import os
import re
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import platformdirs

from meadhall.adapters import missing
from meadhall.adapters.table import Table
from meadhall.adapters.vocabulary import Vocabulary, content_hash
from meadhall.bots.random import RandomBot
from meadhall.core import draw
from meadhall.core.protocol import CHANCE, PLAYERS, GameState

log = logging.getLogger("meadhall.adapters")

try:
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("numpy/gymnasium", e) from None

LIMIT = 10_000.0
"""The widest bound any observed number may have (the hashed ``extra:`` entries' bounds)."""
LAYOUT_VERSION = 2
"""Bumped whenever the encoding changes, so that cached layouts are rebuilt."""

SIDES: tuple[str, ...] = ("hero", "enemy", "boss", "ally", "neutral", "marker", "god")
KIND_BUCKETS = 16
"""Figures' kinds (their label without numbers: ``Draugr 2`` → ``draugr``) hash into buckets."""
CARD_BUCKETS = 32
"""Face-up card titles hash into buckets, per place (the table, own panels, other panels)."""
MAX_DICE = 12
"""Dice shown on the table beyond this many are counted in ``dice:extra``."""
MIN_TILE_SLOTS = 32
"""A tile network gets at least this many slots, and at least twice the most tiles probed."""
EXTRA_PANELS = 8
EXTRA_TRACKS = 8
EXTRA_STATS = 32
"""Hashed places for what the probe games never drew: a panel, a track or a stat that first
appears later still lands somewhere (``extra:panel:<k>:…``, ``extra:track:<k>:…``,
``extra:stat:<k>``), counted in ``overflow``."""
PROBE_GAMES = 4
PROBE_STEPS = 600
PROBE_FIRST = 30
PROBE_EVERY = 20
"""The layout is drawn from ``PROBE_GAMES`` random games (seeds 0, 1, ...) of up to
``PROBE_STEPS`` decisions each: the first ``PROBE_FIRST`` states and every ``PROBE_EVERY``-th
after, so that panels and stats that show up only during play have their place."""
KEEP = 3
"""Encodings kept per seat (the latest positions asked for)."""
SPECTATOR_EVERY = 4
"""Of the probed states, every this many is drawn for a spectator too (the seats' views hold
the same pieces, a spectator's lacks only what is one's own)."""
BOUND_FLOOR = 4.0
"""A counted or numeric feature's upper bound is twice the largest value probed, at least this."""

TOKEN_FEATURES: tuple[str, ...] = (*(f"side:{s}" for s in SIDES), "hp", "max_hp", "mine",
                                   "face_down", "badges",
                                   *(f"kind:{k}" for k in range(KIND_BUCKETS)))
WALL_VALUES = {"wall": 1.0, "door": 0.5, "open": 0.25}
SQUARE_DIRECTIONS = ("N", "E", "S", "W")
HEX_DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_LEADING_NUMBER = re.compile(r"\s*([-+]?\d+(?:\.\d+)?)(?:\s*/\s*([-+]?\d+(?:\.\d+)?))?")
_DIGITS = re.compile(r"[\d#]+")
_BINARY = re.compile(r"^(cell|closed|label|present|terrain:.*|wall:.*|seat:.*|decider:.*|"
                     r"kind:(turn|choice|chance)|outcome:.*|panel:.*:(shown|mine)|.*:text)$")
"""Features that are 0 or 1 (or a text code in (0, 1]): bounds [0, 1]."""


def _bucket(text: str, n: int) -> int:
    return zlib.crc32(text.encode()) % n


@lru_cache(maxsize=8192)
def _title_bucket(title: str) -> int:
    """A card title's bucket (the same card titles come back every step)."""
    return _bucket(title, CARD_BUCKETS)


def _text_code(text: str) -> float:
    """A stable code in (0, 1] for a non-numeric value (a phase name, a form)."""
    return (zlib.crc32(text.encode()) % 1021 + 1) / 1021


@lru_cache(maxsize=4096)
def parse_stat(value: str | int | float) -> tuple[float, float, float]:
    """A panel stat as (value, maximum, text code): text that starts with a number is that
    number (``7/12`` → (7, 12, 0), ``0 (next Upgrade at 2)`` → (0, 0, 0)); other text gets a
    stable code (``Human``, ``C8`` → (0, 0, code))."""
    if isinstance(value, bool | int | float):
        return float(value), 0.0, 0.0
    m = _LEADING_NUMBER.match(value)
    if m is None:
        return 0.0, 0.0, _text_code(value.strip()) if value.strip() else 0.0
    return float(m.group(1)), float(m.group(2) or 0.0), 0.0


@lru_cache(maxsize=4096)
def _kind_of(name: str) -> int:
    return _bucket(" ".join(_DIGITS.sub(" ", name).lower().split()), KIND_BUCKETS)


def _kind(token: draw.Token) -> int:
    return _kind_of(token.label or token.glyph or token.id)


@dataclass(frozen=True, slots=True)
class GridPiece:
    """The planes of one square or hex board."""

    board: str
    kind: str
    cols: int
    rows: int
    terrains: tuple[str, ...]
    channels: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"grid:{self.board}"

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.rows, self.cols, len(self.channels))


@dataclass(frozen=True, slots=True)
class TilePiece:
    """The tile slots of one tile network and their adjacency."""

    board: str
    slots: int
    terrains: tuple[str, ...]
    features: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"tiles:{self.board}"

    @property
    def links(self) -> str:
        return f"links:{self.board}"


def _tracks(scene: draw.Scene) -> Iterable[tuple[str, draw.Track]]:
    for t in scene.tracks:
        yield f"track:{t.id}", t
    for p in scene.panels:
        for t in p.tracks:
            yield f"panel:{p.id}:track:{t.id}", t


def _grid_channels(kind: str, terrains: Sequence[str]) -> tuple[str, ...]:
    directions = HEX_DIRECTIONS if kind == "hex_grid" else SQUARE_DIRECTIONS
    return ("cell", "closed", "label", *(f"terrain:{t}" for t in terrains), "terrain:other",
            *(f"wall:{d}" for d in directions), *TOKEN_FEATURES)


def _tile_features(terrains: Sequence[str]) -> tuple[str, ...]:
    return ("present", "x", "y", "label", "slots", *(f"terrain:{t}" for t in terrains),
            "terrain:other", *TOKEN_FEATURES)


def _extra_entries() -> list[str]:
    out: list[str] = []
    for k in range(EXTRA_PANELS):
        out += [f"extra:panel:{k}:{n}" for n in ("shown", "cards", "face_down", "dice", "tokens")]
    for k in range(EXTRA_TRACKS):
        out += [f"extra:track:{k}:{n}" for n in ("value", "size", "tokens")]
    out += [f"extra:stat:{k}" for k in range(EXTRA_STATS)]
    return out


@dataclass(frozen=True)
class Layout:
    """Names, shapes, channel names and bounds of a game's observation for one setup."""

    game: str
    seats: tuple[str, ...]
    grids: tuple[GridPiece, ...]
    tiles: tuple[TilePiece, ...]
    vector: tuple[str, ...]
    low: np.ndarray | None = field(default=None, repr=False, compare=False)
    """Lower bound of every entry of the flat vector (``None``: ``-LIMIT``)."""
    high: np.ndarray | None = field(default=None, repr=False, compare=False)
    _at: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._at.clear()
        self._at.update({n: i for i, n in enumerate(self.vector)})

    @classmethod
    def build(cls, table: Table, states: Iterable[GameState]) -> Layout:
        """The layout for ``table``'s game: every board, track, panel and stat that the seats
        (and a spectator) see in ``states``, in the order first seen, with each feature's
        bounds from the values those scenes show."""
        mine_of = {s: table.heroes.get(s, frozenset()) for s in (*table.seats, None)}
        drawn = [(table.game.draw(state.view(s)), s) for i, state in enumerate(states)
                 for s in (*table.seats, None) if s is not None or i % SPECTATOR_EVERY == 0]
        names = cls._names(table, [scene for scene, _ in drawn])
        encoder = Encoder(table, names)
        low = np.zeros(names.size, np.float32)
        high = np.zeros(names.size, np.float32)
        for scene, seat in drawn:
            flat = encoder.encode_scene(scene, seat, mine_of[seat])
            np.minimum(low, flat, out=low)
            np.maximum(high, flat, out=high)
        low, high = names._bounds(low, high)
        return dataclasses.replace(names, low=low, high=high, _at={})

    @classmethod
    def _names(cls, table: Table, scenes: Sequence[draw.Scene]) -> Layout:
        grids: dict[str, GridPiece] = {}
        tiles: dict[str, TilePiece] = {}
        tracks: dict[str, int] = {}
        panels: dict[str, list[str]] = {}
        sheets: set[str] = set()
        for scene in scenes:
            for b in scene.boards:
                if isinstance(b, draw.TileNetwork):
                    known = tiles.get(b.id)
                    terr = _merge(known.terrains if known else (),
                                  [t.key for t in b.legend] + [t.terrain for t in b.tiles])
                    slots = max(MIN_TILE_SLOTS, 2 * len(b.tiles), known.slots if known else 0)
                    tiles[b.id] = TilePiece(b.id, slots, terr, _tile_features(terr))
                else:
                    known_g = grids.get(b.id)
                    terr = _merge(known_g.terrains if known_g else (),
                                  [t.key for t in b.legend] + [c.terrain for c in b.cells])
                    cols = max(b.cols, known_g.cols if known_g else 0)
                    rows = max(b.rows, known_g.rows if known_g else 0)
                    grids[b.id] = GridPiece(b.id, b.kind, cols, rows, terr,
                                            _grid_channels(b.kind, terr))
            for key, t in _tracks(scene):
                tracks[key] = max(tracks.get(key, 0), len(t.spaces))
            for p in scene.panels:
                names = panels.setdefault(p.id, [])
                if p.seat is not None:
                    sheets.add(p.id)
                for st in p.stats:
                    if st.name not in names:
                        names.append(st.name)
        # The seats' sheets share their stat names: a stat one hero's sheet showed has its
        # place on every hero's sheet.
        shared = [n for pid in panels if pid in sheets for n in panels[pid]]
        for pid in sheets:
            panels[pid] = list(_merge(panels[pid], shared))
        vector: list[str] = [f"seat:{s}" for s in table.seats]
        vector += [f"decider:{s}" for s in table.seats]
        vector += ["decider:mine", "decider:players", "decider:chance",
                   "kind:turn", "kind:choice", "kind:chance",
                   "outcome:ongoing", "outcome:win", "outcome:loss"]
        for key, size in tracks.items():
            vector += [f"{key}:value", f"{key}:size", *(f"{key}:at:{i}" for i in range(size))]
        for pid, names in panels.items():
            vector += [f"panel:{pid}:shown", f"panel:{pid}:mine", f"panel:{pid}:cards",
                       f"panel:{pid}:face_down", f"panel:{pid}:dice",
                       *(f"panel:{pid}:side:{s}" for s in SIDES)]
            for n in names:
                vector += [f"panel:{pid}:stat:{n}", f"panel:{pid}:stat:{n}:max",
                           f"panel:{pid}:stat:{n}:text"]
        vector += ["cards:table", "cards:face_down"]
        for place in ("table", "mine", "others"):
            vector += [f"titles:{place}:{k}" for k in range(CARD_BUCKETS)]
        for i in range(MAX_DICE):
            vector += [f"dice:{i}:face", f"dice:{i}:modifier"]
        vector += ["dice:extra", *_extra_entries(), "overflow", "unencoded"]
        return cls(table.game.id, table.seats, tuple(grids.values()), tuple(tiles.values()),
                   tuple(vector))

    def _bounds(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each feature's bounds: [0, 1] for the 0/1 ones; else from the probed values (twice
        the largest, at least ``BOUND_FLOOR``), shared by a feature's family (a channel over
        every cell, a stat over every hero's sheet, a track's spaces)."""
        lo, hi = np.zeros_like(low), np.zeros_like(high)
        for name, (start, shape) in self.offsets().items():
            size = math.prod(shape)
            part_lo, part_hi = low[start:start + size], high[start:start + size]
            if name == "vector":
                names = list(self.vector)
            elif name.startswith("links:"):
                names = ["link"] * size
            else:
                channels = (next(g.channels for g in self.grids if g.name == name)
                            if name.startswith("grid:")
                            else next(t.features for t in self.tiles if t.name == name))
                names = list(channels) * (size // len(channels))
            families: dict[str, list[int]] = {}
            sheets = {n.split(":")[1] for n in self.vector
                      if n.startswith("panel:") and n.endswith(":mine")}
            for i, n in enumerate(names):
                families.setdefault(_family(n, sheets), []).append(i)
            out_lo, out_hi = lo[start:start + size], hi[start:start + size]
            for fam, idx in families.items():
                if fam == "link" or _BINARY.match(fam):
                    out_lo[idx], out_hi[idx] = 0.0, 1.0
                elif fam.startswith("extra:"):
                    out_lo[idx], out_hi[idx] = -LIMIT, LIMIT
                elif fam in ("overflow", "unencoded", "dice:extra"):
                    out_lo[idx], out_hi[idx] = 0.0, LIMIT
                else:
                    mn, mx = float(part_lo[idx].min()), float(part_hi[idx].max())
                    floor = -1.0 if fam.endswith(":value") else 0.0
                    out_lo[idx] = min(floor, math.floor(2 * mn))
                    out_hi[idx] = max(BOUND_FLOOR, math.ceil(2 * mx))
        return lo, hi

    def offsets(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Every piece's start in the flat vector and its shape, in the flat vector's order."""
        out: dict[str, tuple[int, tuple[int, ...]]] = {}
        at = 0
        for name, shape in self.shapes().items():
            out[name] = (at, shape)
            at += math.prod(shape)
        return out

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every piece of the observation and its shape, in the order of the flat tensor."""
        out: dict[str, tuple[int, ...]] = {g.name: g.shape for g in self.grids}
        for t in self.tiles:
            out[t.name] = (t.slots, len(t.features))
            out[t.links] = (t.slots, t.slots)
        out["vector"] = (len(self.vector),)
        return out

    @property
    def size(self) -> int:
        """Length of the flat tensor (OpenSpiel)."""
        return sum(math.prod(s) for s in self.shapes().values())

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The flat vector's lower and upper bounds."""
        if self.low is None or self.high is None:
            return (np.full(self.size, -LIMIT, np.float32), np.full(self.size, LIMIT, np.float32))
        return self.low, self.high

    def space(self, flat: bool = False) -> spaces.Space[Any]:
        """The ``gymnasium.spaces.Dict`` of Boxes holding the observation, or with ``flat`` the
        one Box of the flat vector; each feature with its bounds."""
        low, high = self.bounds()
        if flat:
            return spaces.Box(low, high, (self.size,), np.float32)
        # An OrderedDict keeps the layout's order (gymnasium sorts a plain dict's keys), so
        # gymnasium's FlattenObservation gives the same vector as Encoder.flat.
        boxes: OrderedDict[str, spaces.Space[Any]] = OrderedDict()
        for name, (start, shape) in self.offsets().items():
            end = start + math.prod(shape)
            boxes[name] = spaces.Box(low[start:end].reshape(shape),
                                     high[start:end].reshape(shape), shape, np.float32)
        return spaces.Dict(boxes)

    def zeros(self) -> dict[str, np.ndarray]:
        return {name: np.zeros(shape, np.float32) for name, shape in self.shapes().items()}

    def split(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The pieces of a flat vector, as shaped views into it."""
        return {name: flat[start:start + math.prod(shape)].reshape(shape)
                for name, (start, shape) in self.offsets().items()}

    # ------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        low, high = self.bounds()
        return {"format": "meadhall/observation-layout", "version": LAYOUT_VERSION,
                "game": self.game, "seats": list(self.seats),
                "grids": [{"board": g.board, "kind": g.kind, "cols": g.cols, "rows": g.rows,
                           "terrains": list(g.terrains)} for g in self.grids],
                "tiles": [{"board": t.board, "slots": t.slots, "terrains": list(t.terrains)}
                          for t in self.tiles],
                "vector": list(self.vector), "low": low.tolist(), "high": high.tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Layout:
        if data.get("format") != "meadhall/observation-layout" or \
                data.get("version") != LAYOUT_VERSION:
            raise ValueError("not a current meadhall observation layout")
        grids = tuple(GridPiece(g["board"], g["kind"], g["cols"], g["rows"],
                                tuple(g["terrains"]), _grid_channels(g["kind"], g["terrains"]))
                      for g in data["grids"])
        tiles = tuple(TilePiece(t["board"], t["slots"], tuple(t["terrains"]),
                                _tile_features(t["terrains"])) for t in data["tiles"])
        return cls(data["game"], tuple(data["seats"]), grids, tiles, tuple(data["vector"]),
                   np.asarray(data["low"], np.float32), np.asarray(data["high"], np.float32))


def _family(name: str, sheets: set[str]) -> str:
    """The group sharing a feature's bounds: numbered entries and the seats' sheets merged."""
    parts = name.split(":")
    if len(parts) > 1 and parts[0] == "panel" and parts[1] in sheets:
        parts[1] = "*"
    return ":".join("*" if p.isdecimal() else p for p in parts)


def probe_states(table: Table, games: int = PROBE_GAMES,
                 steps: int = PROBE_STEPS) -> Iterator[GameState]:
    """The states the layout is drawn from: random games of the setup (seeds 0, 1, ...), the
    first ``PROBE_FIRST`` states of each and every ``PROBE_EVERY``-th after, and its last."""
    for seed in range(games):
        state, bot = table.new_state(seed), RandomBot(seed)
        for i in range(steps):
            over = state.decision() is None
            if i < PROBE_FIRST or i % PROBE_EVERY == 0 or over:
                yield state
            if over:
                break
            state.apply(bot.choose(state))


def _sources_hash(game_id: str) -> str:
    """SHA-256 over the code an observation layout depends on: the kernel, the game's package
    and this module."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    folders = [root / "core", root / "games" / game_id]
    files = [p for f in folders for p in sorted(f.rglob("*.py"))]
    files.append(Path(__file__).resolve())
    for p in files:
        digest.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_folder() -> Path | None:
    """Where built layouts are kept: ``$MEADHALL_LAYOUT_CACHE``, else the user's cache folder
    (``platformdirs.user_cache_dir("meadhall")/layouts``); ``MEADHALL_LAYOUT_CACHE=off`` keeps
    none."""
    env = os.environ.get("MEADHALL_LAYOUT_CACHE")
    if env == "off":
        return None
    if env:
        return Path(env)
    return Path(platformdirs.user_cache_dir("meadhall")) / "layouts"


def _layout_key(table: Table) -> str:
    key = json.dumps([LAYOUT_VERSION, table.game.id, table.setup, content_hash(table.game),
                      _sources_hash(table.game.id)], sort_keys=True, default=str)
    return hashlib.sha256(key.encode()).hexdigest()[:24]


SHIPPED = Path(__file__).resolve().parent / "layouts"
"""The layouts of every game's default setup, shipped with meadhall (package data written by
``python -m meadhall.adapters.layouts``; a test checks each equals a freshly probed one)."""


def shipped_path(game_id: str) -> Path:
    """Where the shipped layout of ``game_id``'s default setup lives."""
    return SHIPPED / f"{game_id}.json"


def shipped_json(table: Table, layout: Layout) -> dict[str, Any]:
    """What :func:`shipped_path` holds for ``table``'s ``layout``: the setup, the content's
    hash and the layout."""
    return {"setup": table.setup, "content_hash": content_hash(table.game),
            "layout": layout.to_json()}


def probed(table: Table) -> Layout:
    """The layout of ``table`` built afresh from its probe games (no shipped file, no cache)."""
    return Layout.build(table, probe_states(table))


def _shipped(table: Table, setup_key: str) -> Layout | None:
    """The shipped layout of this setup, when one is shipped for it and its content is the
    installed content (else the cache or a probe decides)."""
    path = shipped_path(table.game.id)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        if json.dumps(data["setup"], sort_keys=True) != setup_key or \
                data["content_hash"] != content_hash(table.game):
            return None
        return Layout.from_json(data["layout"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        log.warning("shipped observation layout %s is unreadable (%s): probing", path, e)
        return None


@cache
def _layout(game_id: str, setup_key: str) -> Layout:
    table = Table.of(game_id, json.loads(setup_key))
    shipped = _shipped(table, setup_key)
    if shipped is not None:
        return shipped
    folder = cache_folder()
    path = folder / f"{game_id}-{_layout_key(table)}.json" if folder else None
    if path is not None and path.is_file():
        try:
            return Layout.from_json(json.loads(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError) as e:
            # A damaged or foreign file costs a rebuild, never the environment.
            log.warning("observation layout cache %s is unreadable (%s): rebuilding it", path, e)
    layout = probed(table)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(layout.to_json(), separators=(",", ":")))
            os.replace(tmp, path)
        except OSError as e:
            # A read-only home: the layout is simply rebuilt by the next process.
            log.warning("observation layout cache %s not written (%s)", path, e)
    return layout


def layout_of(table: Table) -> Layout:
    """The observation layout of ``table``'s game and setup: built once per process, and kept
    in :func:`cache_folder` (keyed by the setup, the content and the code) so that the next
    process, a spawned vector worker, loads it instead of probing again."""
    return _layout(table.game.id, json.dumps(table.setup, sort_keys=True))


def _merge(known: Sequence[str], more: Iterable[str]) -> tuple[str, ...]:
    out = list(known)
    for k in more:
        if k and k not in out:
            out.append(k)
    return tuple(out)


def position_key(state: GameState) -> tuple[Any, ...]:
    """What tells two moments of one state object apart as it is played forward: the log's
    length and last entry, and the results a pending table-mode roll has taken so far."""
    log, p = state.log, state.pending
    return (len(log), log[-1] if log else "",
            None if p is None else (p.action, len(p.results), p.shown))


class _PanelPlan:
    __slots__ = ("shown", "mine", "cards", "face_down", "dice", "sides", "stats", "extra")

    def __init__(self, at: dict[str, int], pid: str) -> None:
        pre = f"panel:{pid}"
        self.extra = f"{pre}:shown" not in at
        if self.extra:
            k = _bucket(pid, EXTRA_PANELS)
            pre = f"extra:panel:{k}"
            self.shown, self.cards = at[f"{pre}:shown"], at[f"{pre}:cards"]
            self.face_down, self.dice = at[f"{pre}:face_down"], at[f"{pre}:dice"]
            self.mine = -1
            self.sides = {s: at[f"{pre}:tokens"] for s in SIDES}
        else:
            self.shown, self.mine, self.cards = (at[f"{pre}:shown"], at[f"{pre}:mine"],
                                                 at[f"{pre}:cards"])
            self.face_down, self.dice = at[f"{pre}:face_down"], at[f"{pre}:dice"]
            self.sides = {s: at[f"{pre}:side:{s}"] for s in SIDES}
        self.stats: dict[str, tuple[int, int, int, bool]] = {}
        for n in at:
            if n.startswith(f"{pre}:stat:") and not n.endswith((":max", ":text")):
                name = n[len(pre) + 6:]
                self.stats[name] = (at[n], at[f"{n}:max"], at[f"{n}:text"], False)

    def stat(self, at: dict[str, int], pid: str, name: str) -> tuple[int, int, int, bool]:
        got = self.stats.get(name)
        if got is None:
            key = f"{pid}:{name}"
            got = (at[f"extra:stat:{_bucket(key, EXTRA_STATS)}"],
                   at[f"extra:stat:{_bucket(key + ':max', EXTRA_STATS)}"],
                   at[f"extra:stat:{_bucket(key + ':text', EXTRA_STATS)}"], True)
            self.stats[name] = got
        return got


class _TrackPlan:
    __slots__ = ("value", "size", "at", "extra", "extra_tokens")

    def __init__(self, at: dict[str, int], key: str) -> None:
        self.extra = f"{key}:value" not in at
        if self.extra:
            pre = f"extra:track:{_bucket(key, EXTRA_TRACKS)}"
            self.value, self.size = at[f"{pre}:value"], at[f"{pre}:size"]
            self.at: list[int] = []
            self.extra_tokens = at[f"{pre}:tokens"]
        else:
            self.value, self.size = at[f"{key}:value"], at[f"{key}:size"]
            self.at = []
            i = 0
            while f"{key}:at:{i}" in at:
                self.at.append(at[f"{key}:at:{i}"])
                i += 1


class Encoder:
    """Encodes a seat's view of a state into the flat vector of a :class:`Layout` (and its
    shaped pieces). Everything about the layout is resolved once: each board's offset and
    channels, each panel's and track's entries; an encoding writes only the numbers the scene
    shows into a zeroed, preallocated vector, and the last encoding of each seat is kept until
    the state changes (OpenSpiel asks for the same tensor several times per state)."""

    def __init__(self, table: Table, layout: Layout) -> None:
        self.table = table
        self.layout = layout
        self._offsets = layout.offsets()
        self._slices = [(name, a, a + math.prod(shape), shape)
                        for name, (a, shape) in self._offsets.items()]
        vstart = self._offsets["vector"][0]
        at = {n: i + vstart for n, i in layout._at.items()}  # flat indices
        self._at = at
        self._grids = {g.board: g for g in layout.grids}
        self._tiles = {t.board: t for t in layout.tiles}
        self._panels: dict[str, _PanelPlan] = {}
        self._tracks: dict[str, _TrackPlan] = {}
        self._low, self._high = layout.bounds()
        self._canvas: dict[str | None, _Canvas] = {}
        vstart = self._offsets["vector"][0]
        self._vrange = (vstart, vstart + len(layout.vector))
        self._warned = False
        self._last: dict[str | None, list[tuple[GameState, tuple[Any, ...], np.ndarray]]] = {}
        self._fixed = {n: at[n] for n in ("decider:mine", "decider:players", "decider:chance",
                                          "cards:table", "cards:face_down", "dice:extra",
                                          "overflow", "unencoded")}
        self._names = {n: i for n, i in at.items()
                       if n.startswith(("seat:", "decider:", "kind:", "outcome:"))}
        self._titles = {place: at[f"titles:{place}:0"] for place in ("table", "mine", "others")}
        self._title_places = frozenset(self._titles[p] + k for p in ("mine", "others")
                                       for k in range(CARD_BUCKETS))
        """The places panels share: their face-up cards' title buckets."""
        self._dice = [(at[f"dice:{i}:face"], at[f"dice:{i}:modifier"]) for i in range(MAX_DICE)]
        self.unencoded: list[str] = []
        """What the last encoding drew but could not place in the layout."""
        self.overflow: list[str] = []
        """What the last encoding placed in the hashed ``extra:`` entries."""

    # ------------------------------------------------------------ the public calls
    def encode(self, state: GameState, seat: str | None,
               out: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The observation of ``seat`` (fresh arrays, or written into ``out``); ``None``
        observes as a spectator (the public view: no seat, nothing of one's own)."""
        flat = self.flat_view(state, seat)
        if out is None:
            flat = flat.copy()
            return {name: flat[a:z].reshape(shape) for name, a, z, shape in self._slices}
        for name, a, z, shape in self._slices:
            out[name][...] = flat[a:z].reshape(shape)
        return out

    def flat(self, state: GameState, seat: str | None) -> np.ndarray:
        """The observation as one flat ``float32`` vector (a fresh copy; the pieces in layout
        order)."""
        return self.flat_view(state, seat).copy()

    def flat_view(self, state: GameState, seat: str | None) -> np.ndarray:
        """The observation, read only: the encoder's own vector, valid until the next call."""
        where = position_key(state)
        kept = self._last.setdefault(seat, [])
        for k in kept:
            if k[0] is state and k[1] == where:
                return k[2]
        scene = self.table.game.draw(state.view(seat))
        canvas = self._canvas.get(seat)
        if canvas is None:
            canvas = self._canvas[seat] = _Canvas(self.layout.size)
        self._encode_into(canvas, scene, seat, self.table.heroes.get(seat, frozenset()), state)
        flat = canvas.flat.copy()
        flat.flags.writeable = False
        # A few positions per seat: OpenSpiel asks for the tensor of a new initial state (to
        # learn its shape) between the current state's tensors.
        kept.insert(0, (state, where, flat))
        del kept[KEEP:]
        return flat

    def encode_scene(self, scene: draw.Scene, seat: str | None,
                     mine: frozenset[str]) -> np.ndarray:
        """The drawn part of an observation (no decision, no outcome), unclipped."""
        return self._encode(scene, seat, mine, None, clip=False)

    # ------------------------------------------------------------ encoding
    def _encode(self, scene: draw.Scene, seat: str | None, mine: frozenset[str],
                state: GameState | None, clip: bool = True) -> np.ndarray:
        """A whole observation from scratch (the layout's probe; the incremental path,
        :meth:`_encode_into`, must give the same numbers)."""
        acc: dict[int, float] = {}
        lost: list[str] = []
        for b in scene.boards:
            if isinstance(b, draw.TileNetwork):
                piece = self._tiles.get(b.id)
                if piece:
                    slot = self._tile_slots(b, piece, acc, lost)
                    self._tile_links(b, piece, slot, acc, lost)
                    self._tile_tokens(b, piece, slot, mine, acc, lost)
                else:
                    lost.append(f"tiles:{b.id}")
            else:
                grid = self._grids.get(b.id)
                if grid:
                    where = self._cells(b, grid, acc, lost)
                    self._walls(b, grid, where, acc, lost)
                    self._grid_tokens(b, grid, where, mine, acc, lost)
                else:
                    lost.append(f"grid:{b.id}")
        lost = self._vector(scene, seat, mine, state, acc, lost, clip)
        flat = np.zeros(self.layout.size, np.float32)
        if acc:
            n = len(acc)
            flat[np.fromiter(acc.keys(), np.intp, n)] = np.fromiter(acc.values(), np.float32, n)
        if clip:
            np.clip(flat, self._low, self._high, out=flat)
        return flat

    def _encode_into(self, canvas: _Canvas, scene: draw.Scene, seat: str | None,
                     mine: frozenset[str], state: GameState) -> None:
        """Bring ``canvas`` (this seat's last observation) up to ``scene``: each board's cells,
        walls, tiles, links and figures are encoded again only when what the encoder reads of
        them changed (compared field by field, so a game may rebuild or reuse its drawing as
        it likes); the vector is encoded afresh."""
        flat = canvas.flat
        if canvas.dirty:
            flat.fill(0.0)
            canvas.boards.clear()
            canvas.dirty = False
        lost: list[str] = []
        seen: set[str] = set()
        for b in scene.boards:
            if b.id in seen:
                # Two boards with one id share their places: only a whole encoding sums them.
                flat[...] = self._encode(scene, seat, mine, state)
                canvas.dirty = True
                return
            seen.add(b.id)
            memo = canvas.boards.get(b.id)
            if memo is not None and memo.kind != b.kind:
                memo.clear(flat)
                memo = None
            if isinstance(b, draw.TileNetwork):
                piece = self._tiles.get(b.id)
                if piece is None:
                    lost.append(f"tiles:{b.id}")
                    continue
                if memo is None:
                    memo = canvas.boards[b.id] = _BoardMemo(b.kind)
                self._tiles_into(flat, b, piece, memo, mine)
            else:
                grid = self._grids.get(b.id)
                if grid is None:
                    lost.append(f"grid:{b.id}")
                    continue
                if memo is None:
                    memo = canvas.boards[b.id] = _BoardMemo(b.kind)
                self._grid_into(flat, b, grid, memo, mine)
            lost += memo.lost[0]
            lost += memo.lost[1]
            lost += memo.lost[2]
        for gone in [k for k in canvas.boards if k not in seen]:
            canvas.boards.pop(gone).clear(flat)
        acc: dict[int, float] = {}
        lost = self._vector(scene, seat, mine, state, acc, lost, True, canvas.panels)
        vstart, vend = self._vrange
        flat[vstart:vend] = 0.0
        if acc:
            n = len(acc)
            idx = np.fromiter(acc.keys(), np.intp, n)
            vals = np.fromiter(acc.values(), np.float32, n)
            flat[idx] = _clip(vals, self._low[idx], self._high[idx])

    def _put(self, flat: np.ndarray, memo: _BoardMemo, part: int, acc: dict[int, float],
             lost: list[str]) -> None:
        """Replace one part of a board on the canvas by ``acc`` (its places are its own)."""
        old = memo.idx[part]
        if old is not None:
            flat[old] = 0.0
        n = len(acc)
        idx = np.fromiter(acc.keys(), np.intp, n)
        vals = np.fromiter(acc.values(), np.float32, n)
        flat[idx] = _clip(vals, self._low[idx], self._high[idx])
        memo.idx[part] = idx
        memo.lost[part] = lost

    @staticmethod
    def _unchanged(memo: _BoardMemo, part: int, items: list[Any], read: Any,
                   upstream: bool) -> bool:
        """Whether a board part reads as last time: the very same pieces (a drawing that
        remembers its pieces never changes one it hands out again), or pieces that read the
        same field by field; remembers them for the next call."""
        kept = memo.items[part]
        if not upstream and kept is not None and len(kept) == len(items) \
                and all(map(operator.is_, kept, items)):
            return True
        memo.items[part] = tuple(items)
        sig = list(map(read, items))
        if not upstream and sig == memo.sig[part]:
            return True
        memo.sig[part] = sig
        return False

    def _grid_into(self, flat: np.ndarray, b: draw.SquareGrid | draw.HexGrid, g: GridPiece,
                   memo: _BoardMemo, mine: frozenset[str]) -> None:
        changed = not self._unchanged(memo, 0, b.cells, _CELL_READ, False)
        if changed:
            acc: dict[int, float] = {}
            lost: list[str] = []
            memo.where = self._cells(b, g, acc, lost)
            self._put(flat, memo, 0, acc, lost)
        if not self._unchanged(memo, 1, b.walls, _WALL_READ, changed):
            acc, lost = {}, []
            self._walls(b, g, memo.where, acc, lost)
            self._put(flat, memo, 1, acc, lost)
        if not self._unchanged(memo, 2, b.tokens, _TOKEN_READ, changed):
            acc, lost = {}, []
            self._grid_tokens(b, g, memo.where, mine, acc, lost)
            self._put(flat, memo, 2, acc, lost)

    def _tiles_into(self, flat: np.ndarray, b: draw.TileNetwork, t: TilePiece,
                    memo: _BoardMemo, mine: frozenset[str]) -> None:
        changed = not self._unchanged(memo, 0, b.tiles, _TILE_READ, False)
        if changed:
            acc: dict[int, float] = {}
            lost: list[str] = []
            memo.where = self._tile_slots(b, t, acc, lost)
            self._put(flat, memo, 0, acc, lost)
        if not self._unchanged(memo, 1, b.links, _LINK_READ, changed):
            acc, lost = {}, []
            self._tile_links(b, t, memo.where, acc, lost)
            self._put(flat, memo, 1, acc, lost)
        if not self._unchanged(memo, 2, b.tokens, _TOKEN_READ, changed):
            acc, lost = {}, []
            self._tile_tokens(b, t, memo.where, mine, acc, lost)
            self._put(flat, memo, 2, acc, lost)

    def _vector(self, scene: draw.Scene, seat: str | None, mine: frozenset[str],
                state: GameState | None, acc: dict[int, float], board_lost: list[str],
                clip: bool, memo: dict[Any, Any] | None = None) -> list[str]:
        """The vector's entries (who observes and decides, tracks, panels, cards, dice and
        the counts of what overflowed or was lost) into ``acc``; returns everything lost,
        the decision's first, then the boards'. ``memo`` keeps each panel's entries for the
        next call (a seat's canvas)."""
        lost: list[str] = []
        extra: list[str] = []
        names, at = self._names, self._at
        if seat is not None and f"seat:{seat}" in names:
            acc[names[f"seat:{seat}"]] = 1.0
        if state is not None:
            self._decision(state, seat, acc, lost)
        lost += board_lost
        drawn = list(_tracks(scene))
        if memo is not None and (len({k for k, _ in drawn}) < len(drawn)
                                 or len({p.id for p in scene.panels}) < len(scene.panels)):
            memo = None  # two tracks or panels with one id: their places are shared, as drawn
        for key, t in drawn:
            plan = self._tracks.get(key)
            if memo is None or (plan is not None and plan.extra):
                self._track(key, t, acc, extra)
                continue
            # A track or a panel drawn as the very same object as one of the last few times
            # (a drawing that remembers its pieces never changes one it hands out again, and
            # hands some out in turns) adds what it added then. Its places are its own
            # (assigned, or summed from nothing), except the card titles' buckets, which
            # panels share and which count whole cards: adding those counts is exact.
            recent = memo.get(key)
            if recent is None:
                recent = memo[key] = {}
            kept = recent.get(id(t))
            if kept is None or kept[0] is not t:
                # Drawn anew: encoded as usual; its entries are kept once it comes again.
                _remember(recent, t, (t, None, None))
                self._track(key, t, acc, extra)
                continue
            if kept[1] is None:
                mine_acc: dict[int, float] = {}
                mine_extra: list[str] = []
                self._track(key, t, mine_acc, mine_extra)
                if mine_extra:  # hashed places are shared: no memory
                    self._track(key, t, acc, extra)
                    continue
                kept = _remember(recent, t, (t, mine_acc, None))
            acc.update(kept[1])  # a track's places are its own
        titles = self._titles
        panels = self._panels
        title_places = self._title_places
        for p in scene.panels:
            plan = panels.get(p.id)
            if plan is None:
                plan = panels[p.id] = _PanelPlan(at, p.id)
            own = p.seat is not None and (p.seat == seat or p.seat in mine)
            if memo is None or plan.extra:
                self._panel(p, plan, own, acc, extra)
                continue
            recent = memo.get(pkey := ("panel", p.id))
            if recent is None:
                recent = memo[pkey] = {}
            kept = recent.get(id(p))
            if kept is None or kept[0] is not p:
                _remember(recent, p, (p, None, None))
                self._panel(p, plan, own, acc, extra)
                continue
            if kept[1] is None:
                mine_acc = {}
                mine_extra = []
                self._panel(p, plan, own, mine_acc, mine_extra)
                if mine_extra:  # a stat the layout has no place for: hashed places are shared
                    self._panel(p, plan, own, acc, extra)
                    continue
                shared = {i: mine_acc.pop(i) for i in [i for i in mine_acc if i in title_places]}
                kept = _remember(recent, p, (p, mine_acc, shared))
            acc.update(kept[1])
            for i, v in kept[2].items():
                acc[i] = acc[i] + v if i in acc else v
        fixed = self._fixed
        if scene.cards:
            acc[fixed["cards:table"]] = float(len(scene.cards))
            down = sum(c.face_down for c in scene.cards)
            if down:
                acc[fixed["cards:face_down"]] = float(down)
            base = titles["table"]
            for c in scene.cards:
                if not c.face_down:
                    i = base + _title_bucket(c.title)
                    acc[i] = acc.get(i, 0.0) + 1.0
        for i, die in enumerate(scene.dice):
            if i >= MAX_DICE:
                acc[fixed["dice:extra"]] = acc.get(fixed["dice:extra"], 0.0) + 1.0
                extra.append(f"dice:{i}")
                continue
            fi, mi = self._dice[i]
            acc[fi] = parse_stat(die.face)[0]
            acc[mi] = float(die.modifier)
        if extra:
            acc[fixed["overflow"]] = float(len(extra))
        if lost:
            acc[fixed["unencoded"]] = float(len(lost))
        if clip:
            self.unencoded, self.overflow = lost, extra
            if lost and not self._warned:
                self._warned = True
                warnings.warn(f"{self.layout.game}: {len(lost)} drawn thing(s) did not fit the "
                              f"observation layout ({', '.join(lost[:5])}; counted in vector "
                              "'unencoded', see docs/adapters.md)", stacklevel=5)
        return lost

    def _panel(self, p: draw.Panel, plan: _PanelPlan, own: bool, acc: dict[int, float],
               extra: list[str]) -> None:
        """One panel's entries: shown, one's own, cards, dice, figures, stats and titles."""
        at = self._at
        if plan.extra:
            extra.append(f"panel:{p.id}")
        acc[plan.shown] = acc.get(plan.shown, 0.0) + 1.0 if plan.extra else 1.0
        if own and plan.mine >= 0:
            acc[plan.mine] = 1.0
        if p.cards:
            acc[plan.cards] = acc.get(plan.cards, 0.0) + len(p.cards)
            down = sum(c.face_down for c in p.cards)
            if down:
                acc[plan.face_down] = acc.get(plan.face_down, 0.0) + down
        if p.dice:
            acc[plan.dice] = acc.get(plan.dice, 0.0) + len(p.dice)
        for k in p.tokens:
            i = plan.sides.get(k.side)
            if i is not None:
                acc[i] = acc.get(i, 0.0) + 1.0
        for st in p.stats:
            value, top, code = parse_stat(st.value)
            vi, mi, ti, hashed = plan.stat(at, p.id, st.name)
            if hashed:
                extra.append(f"panel:{p.id}:stat:{st.name}")
                acc[vi] = acc.get(vi, 0.0) + value
            else:
                acc[vi] = value
            if top:
                acc[mi] = acc.get(mi, 0.0) + top
            if code:
                acc[ti] = acc.get(ti, 0.0) + code
        base = self._titles["mine" if own else "others"]
        for c in p.cards:
            if not c.face_down:
                i = base + _title_bucket(c.title)
                acc[i] = acc.get(i, 0.0) + 1.0

    def _decision(self, state: GameState, seat: str | None, acc: dict[int, float],
                  lost: list[str]) -> None:
        names, fixed = self._names, self._fixed
        d = state.decision()
        decider = self.table.decider_of(state, d)
        if decider == CHANCE:
            acc[fixed["decider:chance"]] = 1.0
        elif decider is not None:
            i = names.get(f"decider:{decider}")
            if i is None:
                lost.append(f"decider:{decider}")
            else:
                acc[i] = 1.0
            if decider == seat:
                acc[fixed["decider:mine"]] = 1.0
            if d is not None and d.seat == PLAYERS:
                acc[fixed["decider:players"]] = 1.0
        if d is not None and f"kind:{d.kind}" in names:
            acc[names[f"kind:{d.kind}"]] = 1.0
        i = names.get(f"outcome:{state.outcome().result}")
        if i is not None:
            acc[i] = 1.0

    def _track(self, key: str, t: draw.Track, acc: dict[int, float], extra: list[str]) -> None:
        plan = self._tracks.get(key)
        if plan is None:
            plan = self._tracks[key] = _TrackPlan(self._at, key)
        value = -1.0 if t.value is None else float(t.value)
        if plan.extra:
            extra.append(key)
            acc[plan.value] = acc.get(plan.value, 0.0) + value
            acc[plan.size] = acc.get(plan.size, 0.0) + len(t.spaces)
            if t.tokens:
                acc[plan.extra_tokens] = acc.get(plan.extra_tokens, 0.0) + len(t.tokens)
            return
        acc[plan.value] = value
        acc[plan.size] = float(len(t.spaces))
        if t.tokens:
            index = {s.id: i for i, s in enumerate(t.spaces)}
            for k in t.tokens:
                i = index.get(k.at)
                if i is None or i >= len(plan.at):
                    extra.append(f"{key}:token:{k.id}")
                    j = self._at[f"extra:track:{_bucket(key, EXTRA_TRACKS)}:tokens"]
                else:
                    j = plan.at[i]
                acc[j] = acc.get(j, 0.0) + 1.0

    # ------------------------------------------------------------ boards
    @staticmethod
    def _token(k: draw.Token, mine: frozenset[str], acc: dict[int, float], base: int) -> None:
        n = len(SIDES)
        if k.side in SIDES:
            i = base + SIDES.index(k.side)
            acc[i] = acc.get(i, 0.0) + 1.0
        if k.hp:
            acc[base + n] = acc.get(base + n, 0.0) + k.hp
        if k.max_hp:
            acc[base + n + 1] = acc.get(base + n + 1, 0.0) + k.max_hp
        if k.id in mine or (k.target and k.target.split(":", 1)[-1] in mine):
            acc[base + n + 2] = acc.get(base + n + 2, 0.0) + 1.0
        if k.face_down:
            acc[base + n + 3] = acc.get(base + n + 3, 0.0) + 1.0
        if k.badges:
            acc[base + n + 4] = acc.get(base + n + 4, 0.0) + len(k.badges)
        i = base + n + 5 + _kind(k)
        acc[i] = acc.get(i, 0.0) + 1.0

    def _cells(self, b: draw.SquareGrid | draw.HexGrid, g: GridPiece, acc: dict[int, float],
               lost: list[str]) -> dict[str, tuple[int, int, int]]:
        """A board's cells (shown, closed, labelled, terrain); returns where each cell is."""
        start = self._offsets[g.name][0]
        ch = _channels(g)
        nch, cols, rows = len(g.channels), g.cols, g.rows
        c_cell, c_closed, c_label, c_other = (ch["cell"], ch["closed"], ch["label"],
                                              ch["terrain:other"])
        terrain = {t: ch[f"terrain:{t}"] for t in g.terrains}
        where: dict[str, tuple[int, int, int]] = {}
        for c in b.cells:
            r, q = c.row, c.col
            if not (0 <= q < cols and 0 <= r < rows):
                lost.append(f"{g.name}:cell:{c.id}")
                continue
            base = start + (r * cols + q) * nch
            where[c.id] = (r, q, base)
            acc[base + c_cell] = 1.0
            if c.closed:
                acc[base + c_closed] = 1.0
            if c.label:
                acc[base + c_label] = 1.0
            acc[base + terrain.get(c.terrain, c_other)] = 1.0
        return where

    def _walls(self, b: draw.SquareGrid | draw.HexGrid, g: GridPiece,
               where: dict[str, tuple[int, int, int]], acc: dict[int, float],
               lost: list[str]) -> None:
        if not b.walls:
            return
        hexes = b.kind == "hex_grid"
        walls = _wall_channels(g)
        for w in b.walls:
            a, z = where.get(w.a), where.get(w.b)
            if a is None or z is None:
                lost.append(f"{g.name}:wall:{w.a}-{w.b}")
                continue
            value = WALL_VALUES.get(w.kind, 1.0)
            for p, q2 in ((a, z), (z, a)):
                i = p[2] + walls[_direction(p[0], p[1], q2[0], q2[1], hexes)]
                if acc.get(i, 0.0) < value:
                    acc[i] = value

    def _grid_tokens(self, b: draw.SquareGrid | draw.HexGrid, g: GridPiece,
                     where: dict[str, tuple[int, int, int]], mine: frozenset[str],
                     acc: dict[int, float], lost: list[str]) -> None:
        tbase = _channels(g)[TOKEN_FEATURES[0]]
        for k in b.tokens:
            if k.cells:
                spots = dict.fromkeys(s for s in (k.at, *k.cells) if s)
                hit = [where[s][2] for s in spots if s in where]
            else:
                w0 = where.get(k.at)
                hit = [w0[2]] if w0 else []
            if not hit:
                lost.append(f"{g.name}:token:{k.id}")
            for base in hit:
                self._token(k, mine, acc, base + tbase)

    def _tile_slots(self, b: draw.TileNetwork, t: TilePiece, acc: dict[int, float],
                    lost: list[str]) -> dict[str, int]:
        """A network's tiles; returns the slot of each tile id and of its spaces' ids."""
        start = self._offsets[t.name][0]
        f = _features(t)
        nf = len(t.features)
        slot: dict[str, int] = {}
        placed = 0
        for tile in b.tiles:
            if placed >= t.slots:
                lost.append(f"{t.name}:tile:{tile.id}")
                continue
            i = slot[tile.id] = placed
            placed += 1
            for s in tile.slots:
                slot.setdefault(s, i)
            base = start + i * nf
            acc[base + f["present"]] = 1.0
            acc[base + f["x"]] = tile.x
            acc[base + f["y"]] = tile.y
            if tile.label:
                acc[base + f["label"]] = 1.0
            acc[base + f["slots"]] = float(len(tile.slots))
            acc[base + f.get(f"terrain:{tile.terrain}", f["terrain:other"])] = 1.0
        return slot

    def _tile_links(self, b: draw.TileNetwork, t: TilePiece, slot: dict[str, int],
                    acc: dict[int, float], lost: list[str]) -> None:
        lstart = self._offsets[t.links][0]
        for link in b.links:
            a, z = slot.get(link.a), slot.get(link.b)
            if a is None or z is None:
                lost.append(f"{t.links}:{link.a}-{link.b}")
                continue
            acc[lstart + a * t.slots + z] = 1.0
            if not link.directed:
                acc[lstart + z * t.slots + a] = 1.0

    def _tile_tokens(self, b: draw.TileNetwork, t: TilePiece, slot: dict[str, int],
                     mine: frozenset[str], acc: dict[int, float], lost: list[str]) -> None:
        start = self._offsets[t.name][0]
        nf = len(t.features)
        tbase = _features(t)[TOKEN_FEATURES[0]]
        for k in b.tokens:
            i = slot.get(k.at)
            if i is None:
                lost.append(f"{t.name}:token:{k.id}")
            else:
                self._token(k, mine, acc, start + i * nf + tbase)


_CELL_READ = operator.attrgetter("id", "col", "row", "terrain", "closed", "label")
_WALL_READ = operator.attrgetter("a", "b", "kind")
_TILE_READ = operator.attrgetter("id", "x", "y", "label", "terrain", "slots")
_LINK_READ = operator.attrgetter("a", "b", "directed")
_TOKEN_READ = operator.attrgetter("id", "label", "glyph", "side", "at", "cells", "target", "hp",
                                  "max_hp", "face_down", "badges")
"""What the encoder reads of each drawn piece: a board part whose pieces read the same as last
time is not encoded again."""


class _BoardMemo:
    """What one board put on a seat's canvas, part by part (0: cells or tiles, 1: walls or
    links, 2: figures): the pieces as read, the places written and what was lost."""

    __slots__ = ("kind", "items", "sig", "idx", "lost", "where")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.items: list[tuple[Any, ...] | None] = [None, None, None]
        self.sig: list[list[tuple[Any, ...]] | None] = [None, None, None]
        self.idx: list[np.ndarray | None] = [None, None, None]
        self.lost: list[list[str]] = [[], [], []]
        self.where: Any = {}

    def clear(self, flat: np.ndarray) -> None:
        """Take the board off the canvas."""
        for idx in self.idx:
            if idx is not None:
                flat[idx] = 0.0


class _Canvas:
    """A seat's last observation, kept to be brought up to date (:meth:`Encoder._encode_into`)."""

    __slots__ = ("flat", "boards", "panels", "dirty")

    def __init__(self, size: int) -> None:
        self.flat = np.zeros(size, np.float32)
        self.boards: dict[str, _BoardMemo] = {}
        self.panels: dict[Any, Any] = {}
        self.dirty = False


RECENT = 6
"""Drawn tracks and panels remembered per id and seat (a drawing may hand out a few in turns)."""


def _remember(recent: dict[int, Any], piece: Any, entry: Any) -> Any:
    """Keep ``entry`` for ``piece`` (by identity; the entry holds the piece, so its id stays
    its own), forgetting the oldest beyond :data:`RECENT`."""
    if len(recent) >= RECENT and id(piece) not in recent:
        del recent[next(iter(recent))]
    recent[id(piece)] = entry
    return entry


def _clip(vals: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """``vals`` clipped to [``low``, ``high``] in place: ``np.clip``'s numbers (NaN stays NaN)
    for a fraction of its Python-level cost on a few dozen values."""
    np.minimum(vals, high, out=vals)
    return np.maximum(vals, low, out=vals)


@cache
def _channels(g: GridPiece) -> dict[str, int]:
    return {c: i for i, c in enumerate(g.channels)}


@cache
def _features(t: TilePiece) -> dict[str, int]:
    return {c: i for i, c in enumerate(t.features)}


@cache
def _wall_channels(g: GridPiece) -> tuple[int, ...]:
    directions = HEX_DIRECTIONS if g.kind == "hex_grid" else SQUARE_DIRECTIONS
    ch = _channels(g)
    return tuple(ch[f"wall:{d}"] for d in directions)


@cache
def _direction(r1: int, c1: int, r2: int, c2: int, hexes: bool) -> int:
    """Index of the direction from cell (``r1``, ``c1``) to cell (``r2``, ``c2``), clockwise
    from north for squares (N, E, S, W) and counter-clockwise from east for hexes (odd-r
    offsets)."""
    n = len(HEX_DIRECTIONS) if hexes else len(SQUARE_DIRECTIONS)
    if hexes:
        x1, x2 = c1 + 0.5 * (r1 & 1), c2 + 0.5 * (r2 & 1)
        angle = math.atan2(-(r2 - r1), x2 - x1)  # rows grow downwards
        return round(angle / (2 * math.pi / n)) % n
    angle = math.atan2(c2 - c1, -(r2 - r1))  # 0 = north, clockwise
    return round(angle / (2 * math.pi / n)) % n


def text_view(state: GameState, seat: str, vocabulary: Vocabulary | None = None,
              table: Table | None = None) -> str:
    """What ``seat`` sees, as text for a language-model agent: the decision, the seat's view as
    JSON (hidden information removed) and, when the seat decides, its legal actions with their
    labels (and vocabulary indices)."""
    d = state.decision()
    decider = table.decider(state) if table else (d.seat if d else None)
    lines = [f"{state.game} — you are seat {seat}"]
    o = state.outcome()
    if o.over:
        lines.append(f"The game is over: {o.result} ({o.reason})")
    elif d is not None:
        who = "you" if decider == seat else (decider or d.seat)
        lines.append(f"Decision for {who}: {d.prompt}" + (f" [{d.section}]" if d.section else ""))
    lines.append("View: " + json.dumps(state.view(seat), sort_keys=True, ensure_ascii=False))
    if decider == seat:
        lines.append("Legal actions:")
        for a in state.described_actions():
            index = f"[{vocabulary.id(a.text)}] " if vocabulary else ""
            lines.append(f"  {index}{a.text} — {a.label}")
    return "\n".join(lines)


def observation_text(state: GameState, seat: str) -> str:
    """The view of ``seat`` as compact, sorted JSON (the stable part of :func:`text_view`)."""
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


def describe_layout(layout: Layout) -> dict[str, Any]:
    """The layout as JSON-ready data: each piece's shape and channel or entry names."""
    out: dict[str, Any] = {}
    for g in layout.grids:
        out[g.name] = {"shape": list(g.shape), "channels": list(g.channels)}
    for t in layout.tiles:
        out[t.name] = {"shape": [t.slots, len(t.features)], "features": list(t.features)}
        out[t.links] = {"shape": [t.slots, t.slots]}
    out["vector"] = {"shape": [len(layout.vector)], "entries": list(layout.vector)}
    return out
