"""The Basics: areas, walls, inaccessible areas, the dice and the rondel (section "The Basics").

Areas are hexes in odd-r offset rows (odd rows shifted half an area to the right), named by column
letter and row number (``D2``); geometry uses the kernel's axial hex helpers, whose directions run
clockwise from north-east.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from meadhall.core.deck import Deck
from meadhall.core.dice import Die
from meadhall.core.errors import ContentError
from meadhall.core.graph import HEX_DIRECTIONS, hex_distance, hex_line
from meadhall.core.grid import col_name

from .components import BattleForgeContent, MapData

GAME_ID = "battleforge"

# Section names exactly as printed in the rulebook's table of contents (and printed sub-headings).
S_COMPONENTS = "Components"
S_OVERVIEW = "Game Overview"
S_PREP = "Champion Preparation"
S_PHASES = "Game Phases"
S_WINLOSE = "Winning and Losing"
S_DRAMATIC = "Dramatic Victory"
S_DEFS = "Definitions"
S_BOARD = "Reading the Champion Board"
S_CARDS = "Reading the Champion Cards"
S_DICE = "Dice"
S_SIDES = "Dice Sides"
S_BOONS = "Boons"
S_FURY = "Fury and Upgrades"
S_ICONS = "Upgrade Icons"
S_BERSERKER = "Berserker Form"
S_MIN_ACT = "Minion Activation"
S_MIN_CARDS = "Reading the Minion Cards"
S_MIN_MOVE = "Minion Movement"
S_MIN_ATK = "Minion Attacks"
S_MIN_DESTROY = "Destroying a Minion"
S_MIN_RES = "Minion Activation Resolution"
S_FACES = "The Faces of a God"
S_STATUS = "Reading God Status Cards"
S_CONFRONT = "Reading the Confrontation Board"
S_THOR_FACES = "The Faces of Thor"
S_CHAMP_PHASE = "The Champions Phase"
S_ACTIONS = "Actions and Reactions"
S_STEPS = "The Three Steps of a Rondel Action"
S_RONDEL = "Rondel Actions"
S_MELEE = "Melee Attack"
S_RANGED = "Ranged Attack"
S_ATK_THOR = "Attacking Thor"
S_ATK_RES = "Attack Resolution"
S_RITUAL = "Ritual"
S_OFFERING = "Making an Offering"
S_HEALING = "Healing"
S_MOVING = "Moving"
S_CROSSING = "Crossing Areas with Enemies"
S_IRONBORN = "The Ironborn Phase"
S_ADVANCE = "1. Advancing in Time"
S_EVENT = "2. Scenario Event"
S_GODCARD = "3. God Card"
S_MIN_ACTIVATION = "1. Minion Activation"
S_GOD_ACT = "2. God Activation"
S_KO = "Knocked Out"
S_STUN = "Stunned"
S_APPROACH = "Approaching and Distancing"
S_THROW = "Throwing"
S_TEMP = "Temporary Action Cubes"
S_FROST = "Frost Cubes"
S_FROSTBITE = "Frostbite"
S_HEAT = "Heat Tokens"
S_FREEZE = "Freeze Tokens"
S_SETUP = "Setup"
S_SPECIAL = "Special Rules"
S_VICTORY = "Victory Conditions"
S_DEFEAT = "Defeat Conditions"
# Printed sub-headings that the table of contents does not list.
S_REACTIONS = "Rondel Reactions"
S_DEFENSE = "Defense"
S_REROLL = "Reroll"
S_STRATEGIC = "Strategic Actions"
S_RELOCATE = "Relocate"
S_TAUNT = "Taunt"
S_SKILLS = "Special Skills"
S_SKILL_REQ = "Special Skill Requirements"

MAX_HEALTH = 15
START_HEALTH = 12
CHARGE_CAP = 3
CUBES_PER_COLOUR = 22
TRANSFORM_FURY = 8
ATTRIBUTE_MAX = 2


def dice_data(dice: Iterable[Sequence[str]]) -> list[dict[str, str | int]]:
    """Rolled attack dice as events carry them (docs/architecture.md, "Dice in events"): the
    die's colour as its kind, the side showing, no modifier (BattleForge dice have none).

    >>> dice_data([["white", "damage"]])
    [{'kind': 'white', 'face': 'damage', 'modifier': 0}]
    """
    return [{"kind": d[0], "face": d[1], "modifier": 0} for d in dice]


def copy_deck(d: Deck) -> Deck:
    """A copy of a deck. Clones share decks; a deck is copied right before it changes."""
    return Deck(d.name, list(d.pile), list(d.top), list(d.bottom), list(d.discard), d.reshuffle)


def bfs(start: str, adj: dict[str, list[str]], blocked: str | None) -> dict[str, float]:
    """Steps from ``start`` to every area reachable through ``adj`` without entering
    ``blocked`` (every step costs 1, so a breadth-first search is exact)."""
    out = {start: 0.0}
    frontier = [start]
    d = 0.0
    while frontier:
        d += 1.0
        nxt = []
        for n in frontier:
            for x in adj.get(n, ()):
                if x not in out and x != blocked:
                    out[x] = d
                    nxt.append(x)
        frontier = nxt
    return out


def minion_letter(mid: str) -> str:
    """The standee letter of minion ``mid`` (``T2`` -> ``B``): its number as a letter."""
    n = mid[1:]
    return "ABCD"[int(n) - 1] if n.isdigit() and 1 <= int(n) <= 4 else n


def make_dice(content: BattleForgeContent) -> dict[str, Die]:
    """The white, red and green dice with exactly their printed faces (section "Dice")."""
    return {k: Die.custom(f"{k} die", v.faces) for k, v in content.dice.items()}


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    return (col - (row - (row & 1)) // 2, row)


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    return (q + (r - (r & 1)) // 2, r)


def area_name(col: int, row: int) -> str:
    return f"{col_name(col)}{row + 1}"


@dataclass
class Board:
    """A scenario map: areas, walls, inaccessible areas, the god's starting area.

    Immutable once built and shared by every clone of a state (``__shared__``).
    """

    __shared__ = True
    width: int
    height: int
    cells: dict[str, str] = field(default_factory=dict)        # name -> '.', '#', 'S'
    axial: dict[str, tuple[int, int]] = field(default_factory=dict)
    by_axial: dict[tuple[int, int], str] = field(default_factory=dict)
    walls: set[frozenset[str]] = field(default_factory=set)
    god_inaccessible: set[str] = field(default_factory=set)
    altars: list[str] = field(default_factory=list)
    poi: list[str] = field(default_factory=list)
    spawns: dict[str, str] = field(default_factory=dict)
    starts: list[str] = field(default_factory=list)
    god_start: str = ""
    rows: list[str] = field(default_factory=list)
    _champ_adj: dict[str, list[str]] = field(default_factory=dict)
    _god_adj: dict[str, list[str]] = field(default_factory=dict)
    _fields: dict[tuple[str, str | None, bool], dict[str, float]] = field(default_factory=dict)
    """Distance fields computed so far (the map never changes, so each is computed once)."""

    @classmethod
    def build(cls, m: MapData, source: str, where: str = "map") -> Board:
        """The board of map ``m``; a problem raises :class:`ContentError` naming ``source``
        and the field (``where`` is the map's own path in the file)."""
        cells = [r.split() for r in m.rows]
        b = cls(len(cells[0]), len(cells), rows=list(m.rows))
        for row, line in enumerate(cells):
            for col, ch in enumerate(line):
                if ch not in ".#S":
                    raise ContentError(source, f"{where}.rows[{row}]", f"unknown cell {ch!r}")
                n = area_name(col, row)
                b.cells[n] = ch
                ax = offset_to_axial(col, row)
                b.axial[n] = ax
                b.by_axial[ax] = n
                if ch == "S":
                    b.god_start = n
        if not b.god_start:
            raise ContentError(source, f"{where}.rows", "no god's starting area 'S'")

        def check(field_: str, names: Iterable[str]) -> None:
            for n in names:
                if b.cells.get(n) != ".":
                    raise ContentError(source, f"{where}.{field_}", f"{n} is not an area of the map")

        for a, c in m.walls:
            check("walls", (a, c))
            if c not in b.hex_neighbours(a):
                raise ContentError(source, f"{where}.walls", f"{a} and {c} do not share a border")
            b.walls.add(frozenset((a, c)))
        check("god_inaccessible", m.god_inaccessible)
        check("altars", m.altars)
        check("poi", m.poi)
        check("spawns", m.spawns.values())
        check("starts", m.starts)
        b.god_inaccessible = set(m.god_inaccessible)
        # (the distance fields from every area are computed at the end of build)
        b.altars = list(m.altars)
        b.poi = list(m.poi)
        b.spawns = dict(m.spawns)
        b.starts = list(m.starts)
        for n, ch in b.cells.items():
            if ch == "S":
                b._champ_adj[n] = [x for x in b.hex_neighbours(n) if b.cells[x] == "."]
                b._god_adj[n] = [x for x in b._champ_adj[n] if x not in b.god_inaccessible]
            elif ch == ".":
                b._champ_adj[n] = [x for x in b.hex_neighbours(n) if b.cells[x] == "."
                                   and frozenset((n, x)) not in b.walls]
                b._god_adj[n] = [x for x in b._champ_adj[n] if x not in b.god_inaccessible]
        # Every distance field minions and gods need, computed once per map: from each area,
        # freely or around the area a god occupies (a god's area blocks a minion's path).
        for n in b._champ_adj:
            b.walking(n)
            for g in b._champ_adj:
                if g != n:
                    b.walking(n, g)
        return b

    # -------------------------------------------------------------- geometry
    def areas(self) -> list[str]:
        """Every valid area (not the god's starting area, not inaccessible to all)."""
        return [n for n, c in self.cells.items() if c == "."]

    def hex_neighbours(self, a: str) -> list[str]:
        """Areas (of any kind) touching ``a``, in clockwise direction order from north-east."""
        q, r = self.axial[a]
        out = []
        for dq, dr in HEX_DIRECTIONS:
            n = self.by_axial.get((q + dq, r + dr))
            if n is not None:
                out.append(n)
        return out

    def adjacent(self, a: str) -> list[str]:
        """Areas adjacent to ``a`` for characters: bordering, no wall between, accessible."""
        return self._champ_adj.get(a, [])

    def god_adjacent(self, a: str) -> list[str]:
        """Areas a god can step to from ``a`` (areas inaccessible to gods excluded)."""
        return self._god_adj.get(a, [])

    def direction(self, a: str, b: str) -> int | None:
        """Direction index (0 = north-east, clockwise) from ``a`` to the bordering area ``b``."""
        qa, ra = self.axial[a]
        qb, rb = self.axial[b]
        try:
            return HEX_DIRECTIONS.index((qb - qa, rb - ra))
        except ValueError:
            return None

    def toward(self, a: str, b: str) -> int:
        """Direction from ``a`` that best points at ``b``: the neighbouring hex closest to ``b``;
        ties go to the first direction clockwise from north-east (ruling)."""
        d = self.direction(a, b)
        if d is not None:
            return d
        qa, ra = self.axial[a]
        target = self.axial[b]
        best = min(range(6), key=lambda i: (hex_distance(
            (qa + HEX_DIRECTIONS[i][0], ra + HEX_DIRECTIONS[i][1]), target), i))
        return best

    def neighbour_in(self, a: str, d: int) -> str | None:
        q, r = self.axial[a]
        dq, dr = HEX_DIRECTIONS[d % 6]
        return self.by_axial.get((q + dq, r + dr))

    def line(self, a: str, d: int) -> list[str]:
        """Areas in a straight line from ``a`` in direction ``d`` to the edge of the scenario,
        through walls and inaccessible areas (God attacks "in a straight line")."""
        hexes = hex_line(self.axial[a], d, lambda h: h in self.by_axial)
        return [self.by_axial[h] for h in hexes if self.cells[self.by_axial[h]] == "."]

    def walking(self, a: str, blocked: str | None = None) -> dict[str, float]:
        """Distances from ``a`` counting areas as a Champion moves (no walls, no inaccessible
        areas); ``blocked`` is an area that can be neither entered nor crossed. Computed once
        per map and shared: read only."""
        key = (a, blocked, False)
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = bfs(a, self._champ_adj, blocked)
        return found

    def god_walking(self, a: str) -> dict[str, float]:
        """Distances from ``a`` through the areas a god can enter (read only, cached)."""
        key = (a, None, True)
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = bfs(a, self._god_adj, None)
        return found

    def render_rows(self, marks: dict[str, str], width: int = 6) -> list[str]:
        """ASCII hex rows, odd rows shifted by half a cell; ``marks`` replaces an area's text.

        A Wall between two areas of a row is a ``|`` between them; a Wall between an area and
        one in the row below is a run of ``=`` on a line under the area's row. Areas Thor
        cannot enter end with ``x``; ``##`` is inaccessible to every character.
        """
        half = width // 2
        size = half + self.width * width + 2
        head = "    " + "".join(f"{col_name(c):<{width}}" for c in range(self.width))
        lines = [head.rstrip()]
        for r in range(self.height):
            pad = half if r & 1 else 0
            row = [" "] * size
            sep = [" "] * size
            for c in range(self.width):
                n = area_name(c, r)
                ch = self.cells[n]
                txt = marks.get(n) or {"#": "##", "S": "S", ".": "."}[ch]
                if n in self.god_inaccessible:
                    txt += "x"
                x = pad + c * width
                for k, t in enumerate(txt[:width - 1]):
                    row[x + 1 + k] = t
                for d, x0 in ((1, x + width), (2, x + half), (3, x)):
                    m = self.neighbour_in(n, d)
                    if m is None or frozenset((n, m)) not in self.walls:
                        continue
                    if d == 1:
                        row[x0] = "|"
                    else:
                        for k in range(x0, x0 + half + 1):
                            sep[k] = "="
            lines.append(f"{r + 1:>2} " + "".join(row).rstrip())
            if "=" in sep:
                lines.append("   " + "".join(sep).rstrip())
        return lines


def rondel_take(rondel: list[list[str]], space: int,
                slots: tuple[int, ...] | None = None) -> tuple[int, list[str]]:
    """The three steps of a rondel action: count, take ALL cubes of ``space``, re-place them one
    by one clockwise. Temporary ('t') and frost ('f') cubes are re-placed with the others and
    then discarded, so they use up places of the sequence: ``slots`` are the places (1 = the
    next space clockwise) the normal cubes take, in the order the champion re-places them
    (default: the normal cubes first). Returns (strength, discarded)."""
    cubes = rondel[space]
    n = len(cubes)
    rondel[space] = []
    discarded = [c for c in cubes if c != "c"]
    normal = n - len(discarded)
    for k in slots if slots is not None else range(1, normal + 1):
        rondel[(space + k) % 6].append("c")
    return n, discarded


def replacement_choices(space: int, n: int, normal: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Every distinct way to re-place ``normal`` Action Cubes among ``n`` cubes taken from
    ``space`` (the others are temporary or frost cubes, discarded after being re-placed):
    {spaces the normal cubes end in (0-based, sorted): the places they take}."""
    out: dict[tuple[int, ...], tuple[int, ...]] = {}
    for slots in combinations(range(1, n + 1), normal):
        key = tuple(sorted((space + k) % 6 for k in slots))
        out.setdefault(key, slots)
    return out
