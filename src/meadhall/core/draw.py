"""The drawing vocabulary: what a game's view looks like on the table, as plain data.

Each game maps its *view* (never its hidden state) to a :class:`Scene` built from these pieces:
boards (:class:`SquareGrid`, :class:`HexGrid`, :class:`TileNetwork`), :class:`Token`,
:class:`Track` (round, fate, time tracks; a rondel is a cyclic track), :class:`Card`,
:class:`Die` and :class:`Panel` (a hero's dashboard, a party sheet). The server draws every piece
as SVG once for all games (``meadhall.server.svg``); the terminal may draw the same scene as text.

Anything a player can click carries ``target``: the string form ``"kind:id"`` of the
:class:`~meadhall.core.protocol.Target` that legal actions name, so a click on a drawn square
picks the action(s) whose targets include it.

>>> g = SquareGrid("map", 2, 1, [Cell("A1", 0, 0, "floor"), Cell("B1", 1, 0, "wall")],
...                legend=[Terrain("floor", "Floor", "stone"), Terrain("wall", "Wall", "rock",
...                        "hatch")])
>>> g.cells[0].target
'square:A1'
>>> Scene("Troll Chase", boards=[g]).to_json()["boards"][0]["kind"]
'square_grid'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Side = Literal["hero", "enemy", "boss", "ally", "neutral", "marker", "god"]
"""Who a token belongs to; the server gives each side a shape as well as a colour."""

Pattern = Literal["", "hatch", "dots", "cross", "wave", "grid"]
"""A fill pattern for terrain, so that colour is never the only cue."""


@dataclass(slots=True)
class Terrain:
    """One entry of a board's legend: terrain ``key`` as used by cells, its readable name, a
    palette colour name (``stone``, ``rock``, ``water``, ``forest``, ``ice``, ``lava``, ``sand``,
    ``grass``, ``void``, ``gold``, ``blood``, ``mist``) and a pattern."""

    key: str
    name: str
    colour: str = "stone"
    pattern: Pattern = ""
    glyph: str = ""
    """One character drawn in the cell (besides colour and pattern)."""
    glyph_colour: str = ""
    """A palette colour for the glyph, where the rulebook names it ("red dot")."""


@dataclass(slots=True)
class Cell:
    """A square (SquareGrid) or hex area (HexGrid) at column ``col``, row ``row`` (0-based).

    ``id`` is the name players use (``D5``); ``target`` defaults to ``square:<id>`` or
    ``area:<id>`` (set by the board). Cells a board does not list are not drawn (unexplored).
    """

    id: str
    col: int
    row: int
    terrain: str = ""
    label: str = ""
    """Small text in the cell: an exit number, an altar, a spawn symbol."""
    target: str | None = None
    closed: bool = False
    """Drawn shaded: closed to someone (areas Thor cannot enter, closed doors...)."""
    note: str = ""
    """Read on hover/tap and by screen readers (``closed to Thor``)."""
    label_colour: str = ""
    """A palette colour for the label, drawn large, where a text names it (a green arrow)."""


@dataclass(slots=True)
class Wall:
    """A wall (red line) on the edge between two adjacent cells; ``kind`` ``door`` for a door,
    ``open`` for an open door."""

    a: str
    b: str
    kind: Literal["wall", "door", "open"] = "wall"


@dataclass(slots=True)
class Token:
    """A figure, marker or cube on a board, a track space or in a panel.

    ``at`` is the id of the cell, tile or track space it stands on (empty in a panel);
    ``cells`` lists more cells for figures larger than one space. ``glyph`` is the 1–3
    characters drawn on it; ``label`` the readable name (hover, screen readers); ``stats`` the
    numbers shown on hover or tap.
    """

    id: str
    label: str
    glyph: str
    side: Side = "neutral"
    at: str = ""
    cells: list[str] = field(default_factory=list)
    target: str | None = None
    hp: int | None = None
    max_hp: int | None = None
    facing: int | None = None
    """Degrees clockwise from up (Thor's facing, a rune's orientation)."""
    face_down: bool = False
    badges: list[str] = field(default_factory=list)
    """Short states drawn beside it (``stunned``, ``slow``, ``cover``)."""
    stats: dict[str, str | int] = field(default_factory=dict)
    colour: str = ""
    """Optional palette colour (a champion's board colour, a die colour)."""


@dataclass(slots=True)
class SquareGrid:
    """A board of squares: columns A, B, ... and rows 1, 2, ... as in the rulebooks."""

    id: str
    cols: int
    rows: int
    cells: list[Cell]
    walls: list[Wall] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    legend: list[Terrain] = field(default_factory=list)
    title: str = ""
    kind: Literal["square_grid"] = "square_grid"

    def __post_init__(self) -> None:
        for c in self.cells:
            if c.target is None:
                c.target = f"square:{c.id}"


@dataclass(slots=True)
class HexGrid:
    """A board of hex areas in offset rows (``odd-r``: odd rows shifted half a hex right)."""

    id: str
    cols: int
    rows: int
    cells: list[Cell]
    walls: list[Wall] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    legend: list[Terrain] = field(default_factory=list)
    title: str = ""
    offset: Literal["odd-r", "even-r"] = "odd-r"
    kind: Literal["hex_grid"] = "hex_grid"

    def __post_init__(self) -> None:
        for c in self.cells:
            if c.target is None:
                c.target = f"area:{c.id}"


@dataclass(slots=True)
class Tile:
    """A tile of a tile network at (``x``, ``y``) in tile units; ``slots`` are spaces on it
    (trap slots, enemy spaces) that tokens may stand on by id."""

    id: str
    x: float
    y: float
    label: str = ""
    terrain: str = ""
    target: str | None = None
    slots: list[str] = field(default_factory=list)
    note: str = ""
    order: int = 0
    """Its place in an activation order (1 = first), drawn in its corner; 0: none."""

    def __post_init__(self) -> None:
        if self.target is None:
            self.target = f"tile:{self.id}"


@dataclass(slots=True)
class Link:
    """A path between two tiles; ``label`` for a one-way arrow or an activation order."""

    a: str
    b: str
    label: str = ""
    directed: bool = False


@dataclass(slots=True)
class TileNetwork:
    """Tiles joined by paths (Midhalla's dungeon and gate)."""

    id: str
    tiles: list[Tile]
    links: list[Link] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    legend: list[Terrain] = field(default_factory=list)
    title: str = ""
    kind: Literal["tile_network"] = "tile_network"


@dataclass(slots=True)
class Space:
    """One space of a track: its label (``3``, ``melee/defense``) and clickable target."""

    id: str
    label: str = ""
    target: str | None = None
    note: str = ""


@dataclass(slots=True)
class Track:
    """A row of spaces with a marker (round, fate, time, corruption, twilight track), or a
    cyclic rondel (``cyclic``); tokens stand on spaces by ``Token.at``."""

    id: str
    label: str
    spaces: list[Space]
    value: int | None = None
    """Index of the space the track's marker is on (``None``: no marker)."""
    cyclic: bool = False
    tokens: list[Token] = field(default_factory=list)
    marks: dict[int, str] = field(default_factory=dict)
    """Printed marks on spaces by index (``{9: "undead spawn"}``)."""
    columns: int = 0
    """Drawn as a grid of this many columns of large spaces, each naming the tokens on it (a
    hero board of action spaces); 0: a row of spaces (or a ring when ``cyclic``)."""


@dataclass(slots=True)
class Card:
    """A card: face up with its title and text, or face down (``face_down``, text hidden)."""

    id: str
    title: str
    text: str = ""
    kind: str = ""
    face_down: bool = False
    target: str | None = None
    badges: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Die:
    """A die as shown: its kind (``d12``, ``white``), the face showing, and a modifier."""

    kind: str
    face: str
    modifier: int = 0
    label: str = ""
    colour: str = ""


@dataclass(slots=True)
class Stat:
    """One line of a panel: ``Health`` ``7/12``."""

    name: str
    value: str | int


@dataclass(slots=True)
class Panel:
    """A dashboard beside the board: a hero's sheet, the party sheet, the god's cards.

    ``seat`` names the seat it belongs to (the page puts a seat's own panel first).
    """

    id: str
    title: str
    seat: str | None = None
    stats: list[Stat] = field(default_factory=list)
    tracks: list[Track] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    target: str | None = None


Board = SquareGrid | HexGrid | TileNetwork


@dataclass(slots=True)
class Scene:
    """Everything the table shows: boards, tracks, panels, table cards and notes."""

    title: str
    boards: list[Board] = field(default_factory=list)
    tracks: list[Track] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    subtitle: str = ""

    def to_json(self) -> dict[str, Any]:
        """The scene as JSON-ready dicts (each board carries its ``kind``)."""
        return asdict(self)

    def targets(self) -> set[str]:
        """Every clickable target drawn in the scene (``kind:id`` strings)."""
        out: set[str] = set()

        def add(t: str | None) -> None:
            if t:
                out.add(t)

        def track(t: Track) -> None:
            for s in t.spaces:
                add(s.target)
            for k in t.tokens:
                add(k.target)

        for b in self.boards:
            if isinstance(b, TileNetwork):
                for tile in b.tiles:
                    add(tile.target)
            else:
                for c in b.cells:
                    add(c.target)
            for k in b.tokens:
                add(k.target)
        for t in self.tracks:
            track(t)
        for p in self.panels:
            add(p.target)
            for t in p.tracks:
                track(t)
            for c in p.cards:
                add(c.target)
            for k in p.tokens:
                add(k.target)
        for c in self.cards:
            add(c.target)
        return out
