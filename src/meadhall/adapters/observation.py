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
  buckets, and ``unencoded``: how many drawn things did not fit the layout.

The :class:`Layout` (names, shapes and channel names) is fixed per game and setup from the
scenes at the start of the game; docs/adapters.md documents it entry by entry.
"""

from __future__ import annotations

import json
import math
import re
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from meadhall.adapters import missing
from meadhall.adapters.table import Table
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.bots.random import RandomBot
from meadhall.core import draw
from meadhall.core.protocol import CHANCE, PLAYERS, GameState

try:
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("numpy/gymnasium", e) from None

LIMIT = 10_000.0
"""Every observed number is clipped to ``[-LIMIT, LIMIT]`` (the bounds of the Box spaces)."""

SIDES: tuple[str, ...] = ("hero", "enemy", "boss", "ally", "neutral", "marker", "god")
KIND_BUCKETS = 16
"""Figures' kinds (their label without numbers: ``Draugr 2`` → ``draugr``) hash into buckets."""
CARD_BUCKETS = 32
"""Face-up card titles hash into buckets, per place (the table, own panels, other panels)."""
MAX_DICE = 8
"""Dice shown on the table beyond this many are counted in ``unencoded``."""
MIN_TILE_SLOTS = 32
"""A tile network gets at least this many slots, and at least twice the most tiles probed."""
PROBE_GAMES = 4
PROBE_STEPS = 400
"""The layout is drawn from the start and the first ``PROBE_STEPS`` decisions of
``PROBE_GAMES`` random games (seeds 0, 1, ...), so that panels and stats that show up only
during play (an attack, a boss's cards) have their place."""

TOKEN_FEATURES: tuple[str, ...] = (*(f"side:{s}" for s in SIDES), "hp", "max_hp", "mine",
                                   "face_down", "badges",
                                   *(f"kind:{k}" for k in range(KIND_BUCKETS)))
WALL_VALUES = {"wall": 1.0, "door": 0.5, "open": 0.25}
SQUARE_DIRECTIONS = ("N", "E", "S", "W")
HEX_DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_LEADING_NUMBER = re.compile(r"\s*([-+]?\d+(?:\.\d+)?)(?:\s*/\s*([-+]?\d+(?:\.\d+)?))?")
_DIGITS = re.compile(r"[\d#]+")


def _bucket(text: str, n: int) -> int:
    return zlib.crc32(text.encode()) % n


def _kind(token: draw.Token) -> int:
    name = _DIGITS.sub(" ", token.label or token.glyph or token.id)
    return _bucket(" ".join(name.lower().split()), KIND_BUCKETS)


def _text_code(text: str) -> float:
    """A stable code in (0, 1] for a non-numeric value (a phase name, a form)."""
    return (zlib.crc32(text.encode()) % 1021 + 1) / 1021


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


@dataclass(frozen=True)
class Layout:
    """Names, shapes and channel names of a game's observation for one setup."""

    game: str
    seats: tuple[str, ...]
    grids: tuple[GridPiece, ...]
    tiles: tuple[TilePiece, ...]
    vector: tuple[str, ...]
    _at: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._at.update({n: i for i, n in enumerate(self.vector)})

    @classmethod
    def build(cls, table: Table, states: Iterable[GameState]) -> Layout:
        """The layout for ``table``'s game: every board, track, panel and stat that the seats
        (and a spectator) see in ``states``, in the order first seen."""
        scenes = (table.game.draw(state.view(s)) for state in states
                  for s in (*table.seats, None))
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
                    feats = ("present", "x", "y", "label", "slots",
                             *(f"terrain:{t}" for t in terr), "terrain:other", *TOKEN_FEATURES)
                    tiles[b.id] = TilePiece(b.id, slots, terr, feats)
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
                for st in p.stats:
                    if st.name not in names:
                        names.append(st.name)
                if p.seat is not None:
                    sheets.add(p.id)
        # Seats' sheets are alike: a stat one sheet showed (a bleed, a bonus) has its place on
        # every seat's sheet, even if the probe games never showed it there.
        shared = list(_merge((), (n for pid in panels if pid in sheets for n in panels[pid])))
        for pid in sheets:
            panels[pid] = shared
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
        vector.append("unencoded")
        return cls(table.game.id, table.seats, tuple(grids.values()), tuple(tiles.values()),
                   tuple(vector))

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

    def space(self, flat: bool = False) -> spaces.Space[Any]:
        """The ``gymnasium.spaces.Dict`` of Boxes holding the observation, or with ``flat`` the
        one Box of the flat vector."""
        if flat:
            return spaces.Box(-LIMIT, LIMIT, (self.size,), np.float32)
        # An OrderedDict keeps the layout's order (gymnasium sorts a plain dict's keys), so
        # gymnasium's FlattenObservation gives the same vector as Encoder.flat.
        return spaces.Dict(OrderedDict((name, spaces.Box(-LIMIT, LIMIT, shape, np.float32))
                                       for name, shape in self.shapes().items()))

    def zeros(self) -> dict[str, np.ndarray]:
        return {name: np.zeros(shape, np.float32) for name, shape in self.shapes().items()}


def probe_states(table: Table, games: int = PROBE_GAMES,
                 steps: int = PROBE_STEPS) -> Iterator[GameState]:
    """The states the layout is drawn from: random games of the setup, seeds 0, 1, ..."""
    for seed in range(games):
        state, bot = table.new_state(seed), RandomBot(seed)
        for _ in range(steps):
            yield state
            if state.decision() is None:
                break
            state.apply(bot.choose(state))


@cache
def _layout(game_id: str, setup_key: str) -> Layout:
    table = Table.of(game_id, json.loads(setup_key))
    return Layout.build(table, probe_states(table))


def layout_of(table: Table) -> Layout:
    """The observation layout of ``table``'s game and setup (probed once, then cached)."""
    return _layout(table.game.id, json.dumps(table.setup, sort_keys=True))


def _merge(known: Sequence[str], more: Iterable[str]) -> tuple[str, ...]:
    out = list(known)
    for k in more:
        if k and k not in out:
            out.append(k)
    return tuple(out)


class Encoder:
    """Encodes a seat's view of a state into the arrays of a :class:`Layout`."""

    def __init__(self, table: Table, layout: Layout) -> None:
        self.table = table
        self.layout = layout
        self._grids = {g.board: g for g in layout.grids}
        self._tiles = {t.board: t for t in layout.tiles}
        self._warned = False
        self.unencoded: list[str] = []
        """What the last :meth:`encode` drew but could not place in the layout."""

    def encode(self, state: GameState, seat: str | None,
               out: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The observation of ``seat`` (fresh arrays, or written into ``out``); ``None``
        observes as a spectator (the public view: no seat, nothing of one's own)."""
        arrays = out if out is not None else self.layout.zeros()
        if out is not None:
            for a in arrays.values():
                a.fill(0)
        scene = self.table.game.draw(state.view(seat))
        mine = self.table.heroes.get(seat, frozenset())
        vec = arrays["vector"]
        at = self.layout._at
        lost: list[str] = []

        def put(name: str, value: float) -> None:
            i = at.get(name)
            if i is None:
                lost.append(name)
            else:
                vec[i] = value

        def add(name: str, value: float = 1.0) -> None:
            i = at.get(name)
            if i is not None:
                vec[i] += value

        if seat is not None:
            put(f"seat:{seat}", 1.0)
        decider = self.table.decider(state)
        d = state.decision()
        if decider == CHANCE:
            put("decider:chance", 1.0)
        elif decider is not None:
            put(f"decider:{decider}", 1.0)
            put("decider:mine", float(decider == seat))
            put("decider:players", float(d is not None and d.seat == PLAYERS))
        if d is not None:
            put(f"kind:{d.kind}", 1.0)
        put(f"outcome:{state.outcome().result}", 1.0)

        for b in scene.boards:
            if isinstance(b, draw.TileNetwork):
                piece = self._tiles.get(b.id)
                if piece:
                    self._tile_network(b, piece, mine, arrays, lost)
                else:
                    lost.append(f"tiles:{b.id}")
            else:
                grid = self._grids.get(b.id)
                if grid:
                    self._grid(b, grid, mine, arrays[grid.name], lost)
                else:
                    lost.append(f"grid:{b.id}")

        for key, t in _tracks(scene):
            if f"{key}:value" not in at:
                lost.append(key)
                continue
            put(f"{key}:value", -1.0 if t.value is None else float(t.value))
            put(f"{key}:size", float(len(t.spaces)))
            index = {s.id: i for i, s in enumerate(t.spaces)}
            for k in t.tokens:
                i = index.get(k.at)
                if i is None or f"{key}:at:{i}" not in at:
                    lost.append(f"{key}:token:{k.id}")
                else:
                    add(f"{key}:at:{i}")

        for p in scene.panels:
            pre = f"panel:{p.id}"
            if f"{pre}:shown" not in at:
                lost.append(pre)
                continue
            put(f"{pre}:shown", 1.0)
            put(f"{pre}:mine", float(p.seat is not None and (p.seat == seat or p.seat in mine)))
            put(f"{pre}:cards", float(len(p.cards)))
            put(f"{pre}:face_down", float(sum(c.face_down for c in p.cards)))
            put(f"{pre}:dice", float(len(p.dice)))
            for k in p.tokens:
                add(f"{pre}:side:{k.side}")
            for st in p.stats:
                value, top, code = parse_stat(st.value)
                put(f"{pre}:stat:{st.name}", value)
                add(f"{pre}:stat:{st.name}:max", top)
                add(f"{pre}:stat:{st.name}:text", code)
            place = "mine" if p.seat is not None and (p.seat == seat or p.seat in mine) \
                else "others"
            for c in p.cards:
                if not c.face_down:
                    add(f"titles:{place}:{_bucket(c.title, CARD_BUCKETS)}")

        put("cards:table", float(len(scene.cards)))
        put("cards:face_down", float(sum(c.face_down for c in scene.cards)))
        for c in scene.cards:
            if not c.face_down:
                add(f"titles:table:{_bucket(c.title, CARD_BUCKETS)}")
        for i, die in enumerate(scene.dice):
            if i >= MAX_DICE:
                lost.append(f"dice:{i}")
                continue
            put(f"dice:{i}:face", parse_stat(die.face)[0])
            put(f"dice:{i}:modifier", float(die.modifier))
        put("unencoded", float(len(lost)))
        self.unencoded = lost
        if lost and not self._warned:
            self._warned = True
            warnings.warn(f"{self.layout.game}: {len(lost)} drawn thing(s) did not fit the "
                          f"observation layout ({', '.join(lost[:5])}; counted in vector "
                          "'unencoded', see docs/adapters.md)", stacklevel=2)
        for a in arrays.values():
            np.clip(a, -LIMIT, LIMIT, out=a)
        return arrays

    def flat(self, state: GameState, seat: str | None) -> np.ndarray:
        """The observation as one flat ``float32`` vector (the pieces in layout order)."""
        arrays = self.encode(state, seat)
        return np.concatenate([arrays[n].ravel() for n in self.layout.shapes()])

    # ------------------------------------------------------------ boards
    def _token(self, k: draw.Token, mine: frozenset[str], row: np.ndarray, base: int) -> None:
        if k.side in SIDES:
            row[base + SIDES.index(k.side)] += 1
        n = len(SIDES)
        row[base + n] += k.hp or 0
        row[base + n + 1] += k.max_hp or 0
        row[base + n + 2] += float(k.id in mine or (k.target or "").split(":", 1)[-1] in mine)
        row[base + n + 3] += float(k.face_down)
        row[base + n + 4] += len(k.badges)
        row[base + n + 5 + _kind(k)] += 1

    def _grid(self, b: draw.SquareGrid | draw.HexGrid, g: GridPiece, mine: frozenset[str],
              plane: np.ndarray, lost: list[str]) -> None:
        ch = {c: i for i, c in enumerate(g.channels)}
        where: dict[str, tuple[int, int]] = {}
        for c in b.cells:
            if not (0 <= c.col < g.cols and 0 <= c.row < g.rows):
                lost.append(f"{g.name}:cell:{c.id}")
                continue
            where[c.id] = (c.row, c.col)
            cell = plane[c.row, c.col]
            cell[ch["cell"]] = 1
            cell[ch["closed"]] = float(c.closed)
            cell[ch["label"]] = float(bool(c.label))
            cell[ch.get(f"terrain:{c.terrain}", ch["terrain:other"])] = 1
        hexes = b.kind == "hex_grid"
        directions = HEX_DIRECTIONS if hexes else SQUARE_DIRECTIONS
        for w in b.walls:
            a, z = where.get(w.a), where.get(w.b)
            if a is None or z is None:
                lost.append(f"{g.name}:wall:{w.a}-{w.b}")
                continue
            value = WALL_VALUES.get(w.kind, 1.0)
            for p, q in ((a, z), (z, a)):
                d = _direction(p, q, hexes, len(directions))
                cell = plane[p]
                cell[ch[f"wall:{directions[d]}"]] = max(cell[ch[f"wall:{directions[d]}"]], value)
        base = ch[TOKEN_FEATURES[0]]
        for k in b.tokens:
            spots = [s for s in (k.at, *k.cells) if s]
            hit = [where[s] for s in dict.fromkeys(spots) if s in where]
            if not hit:
                lost.append(f"{g.name}:token:{k.id}")
            for p in hit:
                self._token(k, mine, plane[p], base)

    def _tile_network(self, b: draw.TileNetwork, t: TilePiece, mine: frozenset[str],
                      arrays: dict[str, np.ndarray], lost: list[str]) -> None:
        rows, links = arrays[t.name], arrays[t.links]
        f = {c: i for i, c in enumerate(t.features)}
        slot: dict[str, int] = {}  # tile ids and their spaces' ids -> the tile's slot
        placed = 0
        for tile in b.tiles:
            if placed >= t.slots:
                lost.append(f"{t.name}:tile:{tile.id}")
                continue
            i = slot[tile.id] = placed
            placed += 1
            for s in tile.slots:
                slot.setdefault(s, i)
            r = rows[i]
            r[f["present"]], r[f["x"]], r[f["y"]] = 1, tile.x, tile.y
            r[f["label"]] = float(bool(tile.label))
            r[f["slots"]] = len(tile.slots)
            r[f.get(f"terrain:{tile.terrain}", f["terrain:other"])] = 1
        for link in b.links:
            a, z = slot.get(link.a), slot.get(link.b)
            if a is None or z is None:
                lost.append(f"{t.links}:{link.a}-{link.b}")
                continue
            links[a, z] = 1
            if not link.directed:
                links[z, a] = 1
        base = f[TOKEN_FEATURES[0]]
        for k in b.tokens:
            i = slot.get(k.at)
            if i is None:
                lost.append(f"{t.name}:token:{k.id}")
            else:
                self._token(k, mine, rows[i], base)


def _direction(p: tuple[int, int], q: tuple[int, int], hexes: bool, n: int) -> int:
    """Index of the direction from cell ``p`` to cell ``q`` (row, col), clockwise from north
    for squares (N, E, S, W) and counter-clockwise from east for hexes (odd-r offsets)."""
    (r1, c1), (r2, c2) = p, q
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
