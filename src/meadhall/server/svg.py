"""Draw a :class:`meadhall.core.draw.Scene` as HTML with inline SVG, once for every game.

Every piece of the drawing vocabulary has a drawing here: square grids, hex grids (odd-r or
even-r offset rows), tile networks, tracks and rondels, cards, tokens, dice, panels and legends.
Colour is never the only cue: each side has its own token shape, each terrain its own pattern
and glyph, and everything carries a text label. Every drawn target has a ``<title>`` and an
``aria-label``; the targets of legal actions are focusable buttons (``data-target``), outlined
with a dashed ring and marked with their note (a cost, the number needed).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from meadhall.core import draw
from meadhall.core.grid import col_name

CELL = 48
"""Side of a square, and width scale of a hex, in SVG units."""
TILE = 132
"""Distance between tile centres per tile unit of a tile network."""
TILE_SIZE = 108
TRACK_WIDTH = 268
"""The widest a track is drawn (a sheet's width); longer tracks wrap into rows."""

PALETTE: dict[str, str] = {
    "stone": "#d9d4c7", "rock": "#6f6a62", "water": "#7fb2d9", "forest": "#6f9b5a",
    "ice": "#dff1f7", "lava": "#d9653b", "sand": "#e8d49a", "grass": "#a8cf7e",
    "void": "#2b2b33", "gold": "#e6be45", "blood": "#a8323a", "mist": "#b9b9cf",
    "wood": "#a8794a", "red": "#c8413b", "blue": "#3b6fc8", "green": "#3f9a4f",
    "yellow": "#e3c13b", "purple": "#7e4fb0", "white": "#f4f4f4", "black": "#222222",
    "orange": "#e08a2e", "grey": "#9a9a9a", "gray": "#9a9a9a",
}
"""Colour names games use in their drawings, as fills."""

DARK = {"rock", "void", "blood", "black", "purple", "blue", "red", "green"}
"""Fills on which text is drawn light."""

SIDE_COLOUR: dict[str, str] = {
    "hero": "#2f6fb5", "enemy": "#b8322d", "boss": "#6d1420", "ally": "#3f8f4a",
    "neutral": "#7a7a7a", "marker": "#c99a1e", "god": "#5b3c99",
}
SIDE_SHAPE: dict[str, str] = {
    "hero": "circle", "enemy": "diamond", "boss": "octagon", "ally": "shield",
    "neutral": "square", "marker": "triangle", "god": "star",
}
"""Each side has its own shape, so that colour is never the only cue."""

PATTERNS = ("hatch", "dots", "cross", "wave", "grid")


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _f(x: float) -> str:
    """A coordinate without trailing zeros (smaller SVG, stable output)."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def colour(name: str, default: str = "stone") -> str:
    """The fill for a palette name (a ``#rrggbb`` passes through; unknown names: ``default``)."""
    if name.startswith("#") and len(name) in (4, 7):
        return name
    return PALETTE.get(name.lower(), PALETTE.get(default, "#cccccc"))


def ink(name: str) -> str:
    """The text colour readable on the palette colour ``name``."""
    return "#ffffff" if name.lower() in DARK else "#1a1a1a"


@dataclass(slots=True)
class Highlights:
    """What the page marks as clickable: each target of a legal action with its note, and the
    labels of the actions that name it (read by screen readers and in the target's title)."""

    notes: dict[str, str] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_actions(cls, actions: Iterable[Mapping[str, object]]) -> Highlights:
        """From ``Action.to_json()`` dicts: every target ref with its note and action labels."""
        h = cls()
        for a in actions:
            for t in a.get("targets", []) or []:  # type: ignore[union-attr]
                ref = str(t["ref"])  # type: ignore[index]
                note = str(t.get("note", "") or "")  # type: ignore[union-attr]
                if note and ref not in h.notes:
                    h.notes[ref] = note
                h.notes.setdefault(ref, "")
                h.labels.setdefault(ref, []).append(str(a.get("label") or a.get("text")))
        return h

    def active(self, target: str | None) -> bool:
        return bool(target) and target in self.notes


# ----------------------------------------------------------------------------- definitions
def defs() -> str:
    """Shared ``<defs>``: the terrain patterns and the arrow head (one hidden SVG per page)."""
    pat = {
        "hatch": '<path d="M-2,2 l4,-4 M0,10 l10,-10 M8,12 l4,-4" stroke="#000" '
                 'stroke-opacity=".35" stroke-width="1.5"/>',
        "dots": '<circle cx="5" cy="5" r="1.6" fill="#000" fill-opacity=".35"/>',
        "cross": '<path d="M0,0 L10,10 M10,0 L0,10" stroke="#000" stroke-opacity=".3" '
                 'stroke-width="1.2"/>',
        "wave": '<path d="M0,5 q2.5,-4 5,0 t5,0" fill="none" stroke="#000" '
                'stroke-opacity=".35" stroke-width="1.2"/>',
        "grid": '<path d="M0,0 H10 M0,0 V10" stroke="#000" stroke-opacity=".3" '
                'stroke-width="1.2"/>',
        "back": '<path d="M0,0 L10,10 M10,0 L0,10" stroke="#fff" stroke-opacity=".45" '
                'stroke-width="2"/>',
    }
    out = ['<svg class="mh-defs" width="0" height="0" aria-hidden="true" focusable="false" '
           'style="position:absolute"><defs>']
    for name, body in pat.items():
        out.append(f'<pattern id="pat-{name}" width="10" height="10" '
                   f'patternUnits="userSpaceOnUse">{body}</pattern>')
    out.append('<marker id="mh-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
               'fill="#333"/></marker>')
    out.append("</defs></svg>")
    return "".join(out)


def _pattern_fill(pattern: str) -> str:
    return f"url(#pat-{pattern})" if pattern in PATTERNS or pattern == "back" else ""


# ----------------------------------------------------------------------------- targets
def _target_attrs(target: str | None, name: str, hl: Highlights, cls: str
                  ) -> tuple[str, str]:
    """Attributes and ``<title>`` of a drawn thing that may be a target.

    Every target gets an ``aria-label`` and a ``<title>``; a target of a legal action is also a
    focusable button with ``data-target``, so that a click, a tap or Enter picks its action.
    """
    if not target:
        return (f' class="{cls}" role="img" aria-label="{_e(name)}"',
                f"<title>{_e(name)}</title>")
    if hl.active(target):
        acts = "; ".join(hl.labels.get(target, []))
        note = hl.notes.get(target, "")
        full = f"{name}{' (' + note + ')' if note else ''}: {acts}"
        attrs = (f' class="{cls} tg legal" data-target="{_e(target)}" tabindex="0" role="button" '
                 f'aria-label="{_e(full)}"')
        return attrs, f"<title>{_e(full)}</title>"
    attrs = f' class="{cls} tg" data-ref="{_e(target)}" role="img" aria-label="{_e(name)}"'
    return attrs, f"<title>{_e(name)}</title>"


def _note_badge(x: float, y: float, note: str) -> str:
    """The small label on a legal target: its cost or the number needed."""
    if not note:
        return ""
    w = 7.6 * len(note) + 8
    return (f'<g class="note tag" aria-hidden="true"><rect x="{_f(x - w / 2)}" y="{_f(y - 9)}" '
            f'width="{_f(w)}" height="18" rx="4" fill="#fffbe6" stroke="#5a4300"/>'
            f'<text x="{_f(x)}" y="{_f(y + 4.5)}" text-anchor="middle" font-size="12" '
            f'font-weight="bold" fill="#3a2a00">{_e(note)}</text></g>')


# ----------------------------------------------------------------------------- shapes
def _shape(kind: str, cx: float, cy: float, r: float, attrs: str) -> str:
    """A token outline of ``kind`` centred on (cx, cy) with radius ``r``."""
    if kind == "circle":
        return f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" {attrs}/>'
    if kind == "square":
        return (f'<rect x="{_f(cx - r)}" y="{_f(cy - r)}" width="{_f(2 * r)}" '
                f'height="{_f(2 * r)}" rx="2" {attrs}/>')
    pts: list[tuple[float, float]]
    if kind == "diamond":
        pts = [(cx, cy - r * 1.15), (cx + r * 1.15, cy), (cx, cy + r * 1.15), (cx - r * 1.15, cy)]
    elif kind == "triangle":
        pts = [(cx, cy - r * 1.1), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
    elif kind == "octagon":
        pts = [(cx + r * 1.1 * math.cos(math.pi / 8 + i * math.pi / 4),
                cy + r * 1.1 * math.sin(math.pi / 8 + i * math.pi / 4)) for i in range(8)]
    elif kind == "star":
        pts = [(cx + (r * 1.2 if i % 2 == 0 else r * 0.6) * math.sin(i * math.pi / 5),
                cy - (r * 1.2 if i % 2 == 0 else r * 0.6) * math.cos(i * math.pi / 5))
               for i in range(10)]
    elif kind == "shield":
        return (f'<path d="M{_f(cx - r)},{_f(cy - r)} H{_f(cx + r)} V{_f(cy)} '
                f'Q{_f(cx + r)},{_f(cy + r)} {_f(cx)},{_f(cy + r * 1.15)} '
                f'Q{_f(cx - r)},{_f(cy + r)} {_f(cx - r)},{_f(cy)} z" {attrs}/>')
    else:
        return f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" {attrs}/>'
    return f'<polygon points="{" ".join(f"{_f(x)},{_f(y)}" for x, y in pts)}" {attrs}/>'


def token_name(t: draw.Token) -> str:
    """A token's readable description: name, side, health, states and stats."""
    parts = [t.label or t.id]
    if t.face_down:
        parts.append("face down")
    elif t.side not in ("neutral", "marker"):
        parts.append(t.side)
    if t.hp is not None:
        parts.append(f"health {t.hp}" + (f"/{t.max_hp}" if t.max_hp is not None else ""))
    if t.facing is not None:
        parts.append(f"facing {t.facing}°")
    if t.badges:
        parts.append(", ".join(t.badges))
    if t.stats:
        parts.append(", ".join(f"{k} {v}" for k, v in t.stats.items()))
    if t.at:
        parts.append(f"at {t.at}")
    return "; ".join(parts)


def token_svg(t: draw.Token, cx: float, cy: float, r: float, hl: Highlights) -> str:
    """One token: its side's shape and colour, glyph, health, facing arrow and badges."""
    attrs, title = _target_attrs(t.target, token_name(t), hl, f"token side-{t.side}")
    fill = colour(t.colour) if t.colour else SIDE_COLOUR.get(t.side, "#777")
    shape = SIDE_SHAPE.get(t.side, "circle")
    out = [f'<g{attrs} data-tok="{_e(t.id)}" data-info="{_e(token_name(t))}">{title}']
    if hl.active(t.target):
        out.append(_shape(shape, cx, cy, r + 4, 'class="ring" fill="none" stroke="#111" '
                          'stroke-width="2.5" stroke-dasharray="4 2"'))
    out.append(_shape(shape, cx, cy, r, f'fill="{fill}" stroke="#111" stroke-width="1.5"'))
    if t.face_down:
        out.append(_shape(shape, cx, cy, r, 'fill="url(#pat-back)" stroke="none"'))
    if t.facing is not None:
        a = math.radians(t.facing)
        tip = (cx + math.sin(a) * (r + 7), cy - math.cos(a) * (r + 7))
        left = (cx + math.sin(a - 0.5) * r, cy - math.cos(a - 0.5) * r)
        right = (cx + math.sin(a + 0.5) * r, cy - math.cos(a + 0.5) * r)
        out.append(f'<polygon class="facing" points="{_f(tip[0])},{_f(tip[1])} '
                   f'{_f(left[0])},{_f(left[1])} {_f(right[0])},{_f(right[1])}" '
                   'fill="#111"/>')
    glyph = "?" if t.face_down and not t.glyph else t.glyph
    size = max(9.0, min(r * 0.95, r * 2.2 / max(1, len(glyph))))
    fg = "#ffffff" if not t.colour or t.colour.lower() in DARK else "#1a1a1a"
    # a figure's glyph is never left out: the page draws it at 12 px at least (class keep)
    out.append(f'<text class="keep" x="{_f(cx)}" y="{_f(cy + size * 0.35)}" '
               f'text-anchor="middle" font-size="{_f(size)}" font-weight="bold" fill="{fg}" '
               f'aria-hidden="true">{_e(glyph)}</text>')
    if t.hp is not None:
        # Figures sharing a space are small: their health alone keeps the badges apart.
        hp = f"{t.hp}" + (f"/{t.max_hp}" if t.max_hp is not None and r >= 14 else "")
        w = 7.4 * len(hp) + 6
        out.append(f'<g class="tag" aria-hidden="true"><rect x="{_f(cx + r - w + 4)}" '
                   f'y="{_f(cy - r - 8)}" width="{_f(w)}" height="15" rx="3" fill="#fff" '
                   f'stroke="#a33"/><text x="{_f(cx + r - w / 2 + 4)}" y="{_f(cy - r + 3.5)}" '
                   'font-size="12" '
                   f'text-anchor="middle" fill="#7a0000">{_e(hp)}</text></g>')
    if t.badges:
        # Whole words, one state a line (two at most; the rest are counted), haloed so they
        # stay readable where they reach into the next space; the title has them all.
        lines = [b if len(b) <= 10 else b[:9] + "…" for b in t.badges[:2]]
        if len(t.badges) > 2:
            lines[-1] = f"{lines[-1]} +{len(t.badges) - 2}"
        for i, line in enumerate(lines):
            out.append(f'<text class="badge-text" x="{_f(cx)}" y="{_f(cy + r + 11 + 12 * i)}" '
                       f'text-anchor="middle" font-size="12" fill="#111" stroke="#fff" '
                       f'stroke-width="2.2" paint-order="stroke" aria-hidden="true">'
                       f"{_e(line)}</text>")
    note = hl.notes.get(t.target or "", "")
    if note:
        out.append(_note_badge(cx - r + 2, cy + r - 2, note))
    if hl.active(t.target):
        # a finger's room around a small figure that can be picked (its space's width at most)
        out.append(f'<circle class="hit" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(max(r + 4, r * 1.4))}" '
                   'fill="#000" fill-opacity="0"/>')
    out.append("</g>")
    return "".join(out)


def _spots(n: int, cx: float, cy: float, size: float) -> tuple[list[tuple[float, float]], float]:
    """Positions and radius for ``n`` tokens sharing a space of ``size``."""
    if n <= 1:
        return [(cx, cy)], size * 0.34
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    step = size * 0.8 / cols
    r = min(step, size * 0.8 / rows) * 0.42
    x0 = cx - step * (cols - 1) / 2
    y0 = cy - step * (rows - 1) / 2
    return [(x0 + (i % cols) * step, y0 + (i // cols) * step) for i in range(n)], r


def _tokens_at(tokens: Sequence[draw.Token], where: Mapping[str, tuple[float, float]],
               size: float, hl: Highlights) -> tuple[str, list[draw.Token]]:
    """Tokens placed on the spaces of ``where``; returns the drawing and the unplaced ones."""
    groups: dict[str, list[draw.Token]] = {}
    loose: list[draw.Token] = []
    for t in tokens:
        if t.at in where:
            groups.setdefault(t.at, []).append(t)
        else:
            loose.append(t)
    out: list[str] = []
    for at, group in groups.items():
        cx, cy = where[at]
        spots, r = _spots(len(group), cx, cy, size)
        for t, (x, y) in zip(group, spots, strict=True):
            out.append(token_svg(t, x, y, r, hl))
    return "".join(out), loose


def _text_lines(text: str, width: int) -> list[str]:
    """Words wrapped to ``width`` characters."""
    lines: list[str] = []
    for para in str(text).splitlines() or [""]:
        line = ""
        for word in para.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


# ----------------------------------------------------------------------------- boards
def _cell_name(c: draw.Cell, legend: Mapping[str, draw.Terrain]) -> str:
    terrain = legend.get(c.terrain)
    parts = [c.id]
    if terrain:
        parts.append(terrain.name)
    if c.label:
        parts.append(c.label)
    if c.closed:
        parts.append("closed")
    if c.note:
        parts.append(c.note)
    return ", ".join(parts)


def _cell_svg(c: draw.Cell, outline: str, cx: float, cy: float,
              legend: Mapping[str, draw.Terrain], hl: Highlights, occupied: bool = False,
              label_dy: float = CELL * 0.38) -> str:
    """One square or hex area: terrain colour and pattern, glyph, label, closed shading.

    The note of a legal cell goes above it, unless a figure stands there (``occupied``):
    then :func:`_cell_notes` draws it in the corner, over the figures."""
    terrain = legend.get(c.terrain)
    attrs, title = _target_attrs(c.target, _cell_name(c, legend), hl, "cell")
    fill = colour(terrain.colour) if terrain else colour("stone")
    out = [f'<g{attrs} data-cell="{_e(c.id)}">{title}',
           outline.format(f'fill="{fill}" stroke="#555" stroke-width="1"')]
    if terrain and terrain.pattern:
        out.append(outline.format(f'fill="{_pattern_fill(terrain.pattern)}" stroke="none"'))
    if c.closed:
        out.append(outline.format('fill="url(#pat-cross)" stroke="none" class="closed"'))
        out.append(outline.format('fill="#000" fill-opacity=".25" stroke="none"'))
    dark = terrain is not None and terrain.colour.lower() in DARK
    fg = "#fff" if dark else "#222"
    if terrain and terrain.glyph and terrain.glyph_colour:
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + 7)}" text-anchor="middle" font-size="20" '
                   f'fill="{colour(terrain.glyph_colour)}" stroke="#111" stroke-width="1" '
                   f'aria-hidden="true">{_e(terrain.glyph)}</text>')
    elif terrain and terrain.glyph:
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + 6)}" text-anchor="middle" font-size="17" '
                   f'fill="{fg}" fill-opacity=".7" aria-hidden="true">{_e(terrain.glyph)}</text>')
    if c.label and c.label_colour:
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + 10)}" text-anchor="middle" '
                   f'font-size="30" font-weight="bold" fill="{colour(c.label_colour)}" '
                   f'stroke="#111" stroke-width="1.2" aria-hidden="true">{_e(c.label[:3])}</text>')
    elif c.label:
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + label_dy)}" text-anchor="middle" '
                   f'font-size="12" fill="{fg}" stroke="{fill}" stroke-width="2.5" '
                   f'paint-order="stroke" aria-hidden="true">{_e(c.label[:12])}</text>')
    if hl.active(c.target):
        out.append(outline.format('class="ring" fill="#fff" fill-opacity=".28" stroke="#111" '
                                  'stroke-width="3" stroke-dasharray="5 3"'))
        if not occupied:
            out.append(_note_badge(cx, cy - CELL * 0.28, hl.notes.get(c.target or "", "")))
    out.append("</g>")
    return "".join(out)


def _cell_notes(cells: Sequence[draw.Cell], corners: Mapping[str, tuple[float, float]],
                occupied: set[str], hl: Highlights) -> str:
    """The notes of legal cells where a figure stands, in the cell's top left corner over the
    figures (clicks pass through them to the cell or the figure)."""
    out = []
    for c in cells:
        note = hl.notes.get(c.target or "", "") if c.id in occupied else ""
        if note and hl.active(c.target):
            x, y = corners[c.id]
            out.append(_note_badge(x + 3.5 * len(note) + 6, y + 10, note))
    return f'<g class="cell-notes" pointer-events="none">{"".join(out)}</g>' if out else ""


def _edge(p: tuple[float, float], q: tuple[float, float], length: float
          ) -> tuple[float, float, float, float]:
    """The edge between two neighbouring cells centred at p and q: perpendicular to pq at its
    middle, ``length`` long (the side of a square, or of a regular hex)."""
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d * length / 2, dx / d * length / 2
    return mx - px, my - py, mx + px, my + py


def _walls_svg(walls: Sequence[draw.Wall], centres: Mapping[str, tuple[float, float]],
               length: float) -> str:
    out = []
    for w in walls:
        if w.a not in centres or w.b not in centres:
            continue
        x1, y1, x2, y2 = _edge(centres[w.a], centres[w.b], length)
        name = {"wall": "wall", "door": "closed door", "open": "open door"}[w.kind]
        title = f"<title>{_e(name)} between {_e(w.a)} and {_e(w.b)}</title>"
        if w.kind == "wall":
            out.append(f'<line class="wall" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" '
                       f'y2="{_f(y2)}" stroke="#c1121f" stroke-width="5" '
                       f'stroke-linecap="round">{title}</line>')
        else:
            # A door: a thick brown bar (closed) or an outlined gap (open), never colour alone.
            dash = ' stroke-dasharray="3 3"' if w.kind == "open" else ""
            ix1, iy1 = x1 + (x2 - x1) * 0.2, y1 + (y2 - y1) * 0.2
            ix2, iy2 = x1 + (x2 - x1) * 0.8, y1 + (y2 - y1) * 0.8
            out.append(f'<g class="door {w.kind}">{title}<line x1="{_f(ix1)}" y1="{_f(iy1)}" '
                       f'x2="{_f(ix2)}" y2="{_f(iy2)}" stroke="#5a3210" stroke-width="8"{dash}/>'
                       f'<line x1="{_f(ix1)}" y1="{_f(iy1)}" x2="{_f(ix2)}" y2="{_f(iy2)}" '
                       f'stroke="#d9a35e" stroke-width="3"{dash}/></g>')
    return "".join(out)


GROW = 1.6
"""How much larger than drawn a small board may be shown where the page has room."""


def _svg_open(width: float, height: float, label: str, cls: str) -> str:
    """The ``<svg>`` of a board or track. The page fits it to its column (``--fit``: at most
    :data:`GROW` times its drawn width), so that no board is cut off at the side."""
    return (f'<svg class="{cls}" viewBox="0 0 {_f(width)} {_f(height)}" width="{_f(width)}" '
            f'height="{_f(height)}" style="--fit:{_f(width * GROW)}px" role="group" '
            f'aria-label="{_e(label)}" xmlns="http://www.w3.org/2000/svg">')


def _multi_cell_outlines(tokens: Sequence[draw.Token], outlines: Mapping[str, str]) -> str:
    """A dashed outline on every extra cell a large figure covers."""
    out = []
    for t in tokens:
        for c in t.cells:
            if c in outlines and c != t.at:
                out.append(outlines[c].format(
                    f'fill="none" stroke="{SIDE_COLOUR.get(t.side, "#555")}" '
                    f'stroke-width="3" stroke-dasharray="2 2" aria-hidden="true"'))
    return "".join(out)


def _occupied(tokens: Sequence[draw.Token]) -> set[str]:
    """The cells a figure stands on (or covers)."""
    return {c for t in tokens for c in (t.at, *t.cells) if c}


def square_grid_svg(b: draw.SquareGrid, hl: Highlights) -> str:
    """A board of squares with column letters and row numbers, walls, doors and tokens."""
    legend = {t.key: t for t in b.legend}
    m = 20
    w, h = m + b.cols * CELL + 4, m + b.rows * CELL + 4
    out = [_svg_open(w, h, b.title or f"board {b.id}", "board square-grid")]
    for x in range(b.cols):
        out.append(f'<text x="{_f(m + x * CELL + CELL / 2)}" y="15" text-anchor="middle" '
                   f'font-size="13" fill="#444" aria-hidden="true">{_e(col_name(x))}</text>')
    for y in range(b.rows):
        out.append(f'<text x="10" y="{_f(m + y * CELL + CELL / 2 + 5)}" text-anchor="middle" '
                   f'font-size="13" fill="#444" aria-hidden="true">{y + 1}</text>')
    centres: dict[str, tuple[float, float]] = {}
    corners: dict[str, tuple[float, float]] = {}
    outlines: dict[str, str] = {}
    occupied = _occupied(b.tokens)
    for c in b.cells:
        x0, y0 = m + c.col * CELL, m + c.row * CELL
        outline = f'<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" {{}}/>'
        centres[c.id] = (x0 + CELL / 2, y0 + CELL / 2)
        corners[c.id] = (x0, y0)
        outlines[c.id] = outline
        out.append(_cell_svg(c, outline, x0 + CELL / 2, y0 + CELL / 2, legend, hl,
                             c.id in occupied))
    out.append(_walls_svg(b.walls, centres, CELL))
    out.append(_multi_cell_outlines(b.tokens, outlines))
    drawn, loose = _tokens_at(b.tokens, centres, CELL, hl)
    out.append(drawn)
    out.append(_cell_notes(b.cells, corners, occupied, hl))
    out.append("</svg>")
    return "".join(out) + _loose_tokens(loose, hl)


def hex_centre(col: int, row: int, size: float, offset: str = "odd-r") -> tuple[float, float]:
    """Centre of the pointy-top hex at (col, row) in offset rows, ``size`` = centre to corner."""
    w = math.sqrt(3) * size
    shift = (row & 1) if offset == "odd-r" else (1 - (row & 1))
    return w * (col + 0.5 * shift) + w / 2, size * 1.5 * row + size


def hex_grid_svg(b: draw.HexGrid, hl: Highlights) -> str:
    """A board of hex areas (pointy-top, offset rows) with walls, closed areas and tokens."""
    legend = {t.key: t for t in b.legend}
    size = CELL * 0.7
    m = 6
    w = math.sqrt(3) * size * (b.cols + 0.5) + 2 * m
    h = size * 1.5 * (b.rows - 1) + 2 * size + 2 * m
    out = [_svg_open(w, h, b.title or f"board {b.id}", "board hex-grid")]
    centres: dict[str, tuple[float, float]] = {}
    corners: dict[str, tuple[float, float]] = {}
    outlines: dict[str, str] = {}
    occupied = _occupied(b.tokens)
    for c in b.cells:
        cx, cy = hex_centre(c.col, c.row, size, b.offset)
        cx, cy = cx + m, cy + m
        pts = " ".join(f"{_f(cx + size * math.cos(math.radians(60 * i - 30)))},"
                       f"{_f(cy + size * math.sin(math.radians(60 * i - 30)))}"
                       for i in range(6))
        outline = f'<polygon points="{pts}" {{}}/>'
        centres[c.id] = (cx, cy)
        corners[c.id] = (cx - size * 0.8, cy - size * 0.5)
        outlines[c.id] = outline
        out.append(_cell_svg(c, outline, cx, cy, legend, hl, c.id in occupied,
                             label_dy=size * 0.8))
        terrain = legend.get(c.terrain)
        dark = terrain is not None and terrain.colour.lower() in DARK
        out.append(f'<text x="{_f(cx)}" y="{_f(cy - size * 0.55)}" text-anchor="middle" '
                   f'font-size="12" fill="{"#eee" if dark else "#333"}" aria-hidden="true">'
                   f"{_e(c.id)}</text>")
    out.append(_walls_svg(b.walls, centres, size))
    out.append(_multi_cell_outlines(b.tokens, outlines))
    drawn, loose = _tokens_at(b.tokens, centres, size * 1.5, hl)
    out.append(drawn)
    out.append(_cell_notes(b.cells, corners, occupied, hl))
    out.append("</svg>")
    return "".join(out) + _loose_tokens(loose, hl)


def tile_network_svg(b: draw.TileNetwork, hl: Highlights) -> str:
    """Tiles joined by paths (arrows for one-way links), slots on tiles, tokens."""
    legend = {t.key: t for t in b.legend}
    if not b.tiles:
        return f'<p class="empty">{_e(b.title or b.id)}: no tiles</p>'
    xs = [t.x for t in b.tiles]
    ys = [t.y for t in b.tiles]
    m = TILE_SIZE / 2 + 8
    x0, y0 = min(xs), min(ys)
    w = (max(xs) - x0) * TILE + 2 * m
    h = (max(ys) - y0) * TILE + 2 * m
    out = [_svg_open(w, h, b.title or f"board {b.id}", "board tile-network")]
    centre = {t.id: ((t.x - x0) * TILE + m, (t.y - y0) * TILE + m) for t in b.tiles}
    for ln in b.links:
        if ln.a not in centre or ln.b not in centre:
            continue
        (ax, ay), (bx, by) = centre[ln.a], centre[ln.b]
        d = math.hypot(bx - ax, by - ay) or 1.0
        cut = TILE_SIZE / 2 + 2
        sx, sy = ax + (bx - ax) * cut / d, ay + (by - ay) * cut / d
        ex, ey = bx - (bx - ax) * cut / d, by - (by - ay) * cut / d
        arrow = ' marker-end="url(#mh-arrow)"' if ln.directed else ""
        name = f"path from {ln.a} to {ln.b}" + (f" ({ln.label})" if ln.label else "")
        out.append(f'<g class="link"><title>{_e(name)}</title><line x1="{_f(sx)}" '
                   f'y1="{_f(sy)}" x2="{_f(ex)}" y2="{_f(ey)}" stroke="#333" stroke-width="4"'
                   f'{arrow}/>')
        if ln.label:
            out.append(f'<text x="{_f((sx + ex) / 2)}" y="{_f((sy + ey) / 2 - 4)}" '
                       f'text-anchor="middle" font-size="12" fill="#111" stroke="#fff" '
                       f'stroke-width="3" paint-order="stroke">{_e(ln.label)}</text>')
        out.append("</g>")
    slots: dict[str, tuple[float, float]] = {}
    tile_spots: dict[str, tuple[float, float]] = {}
    s = TILE_SIZE
    for t in b.tiles:
        cx, cy = centre[t.id]
        terrain = legend.get(t.terrain)
        name = ", ".join(x for x in [t.label or t.id, terrain.name if terrain else "", t.note,
                                     f"activates {_ordinal(t.order)}" if t.order else ""]
                         if x)
        attrs, title = _target_attrs(t.target, name, hl, "tile")
        fill = colour(terrain.colour) if terrain else colour("stone")
        outline = (f'<rect x="{_f(cx - s / 2)}" y="{_f(cy - s / 2)}" width="{s}" height="{s}" '
                   f'rx="10" {{}}/>')
        out.append(f'<g{attrs} data-cell="{_e(t.id)}">{title}')
        out.append(outline.format(f'fill="{fill}" stroke="#333" stroke-width="2"'))
        if terrain and terrain.pattern:
            out.append(outline.format(f'fill="{_pattern_fill(terrain.pattern)}" stroke="none"'))
        fg = ink(terrain.colour) if terrain else "#1a1a1a"
        label_lines = _text_lines(t.label or t.id, 16)[:2]
        # a short name (a tile's number) is drawn large enough to read on a whole dungeon
        big = len(label_lines) == 1 and len(label_lines[0]) <= 4
        for i, line in enumerate(label_lines):
            out.append(f'<text x="{_f(cx)}" y="{_f(cy - s / 2 + (24 if big else 15) + 13 * i)}" '
                       f'text-anchor="middle" font-size="{22 if big else 13}" font-weight="bold" '
                       f'fill="{fg}" aria-hidden="true">{_e(line)}</text>')
        if t.order:
            ox, oy = cx + s / 2 - 17, cy - s / 2 + 17
            out.append(f'<g class="tag" aria-hidden="true"><circle cx="{_f(ox)}" '
                       f'cy="{_f(oy)}" r="15" fill="#fff" stroke="#111" stroke-width="1.5"/>'
                       f'<text x="{_f(ox)}" y="{_f(oy + 7)}" text-anchor="middle" '
                       f'font-size="20" font-weight="bold">{t.order}</text></g>')
        if terrain and terrain.glyph:
            out.append(f'<text x="{_f(cx - s / 2 + 10)}" y="{_f(cy + s / 2 - 8)}" '
                       f'font-size="14" fill="{fg}" aria-hidden="true">{_e(terrain.glyph)}'
                       "</text>")
        n = len(t.slots)
        # slots as large as the tile allows, so that a phone still has a finger's room
        sr = max(12.0, min(22.0, s / (2 * n + 2)))
        for i, slot in enumerate(t.slots):
            sx = cx - s / 2 + s * (i + 1) / (n + 1)
            sy = cy + s / 2 - sr - 6
            slots[slot] = (sx, sy)
            out.append(f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="{_f(sr)}" fill="#fff" '
                       f'fill-opacity=".6" stroke="#333" stroke-dasharray="2 2">'
                       f"<title>{_e(slot)}</title></circle>")
        if hl.active(t.target):
            out.append(outline.format('class="ring" fill="#fff" fill-opacity=".25" '
                                      'stroke="#111" stroke-width="4" stroke-dasharray="7 4"'))
            # under the tile's name, above its figures
            out.append(_note_badge(cx, cy - s / 2 + (32 if big else 20) + 12 * len(label_lines),
                                   hl.notes.get(t.target or "", "")))
        out.append("</g>")
        tile_spots[t.id] = (cx, cy + (4 if n else 12))
    drawn_slots, rest = _tokens_at(b.tokens, slots, 44, hl)
    # crowded tiles fan their figures out over the whole tile
    drawn_tiles, loose = _tokens_at(rest, tile_spots, s * 0.78, hl)
    out.append(drawn_slots + drawn_tiles)
    out.append("</svg>")
    return "".join(out) + _loose_tokens(loose, hl)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _loose_tokens(tokens: Sequence[draw.Token], hl: Highlights) -> str:
    """Tokens whose space is not on the board (off-board, reserve): a row of their own."""
    if not tokens:
        return ""
    return ('<div class="loose" aria-label="off the board">'
            + "".join(_token_chip(t, hl) for t in tokens) + "</div>")


def _token_chip(t: draw.Token, hl: Highlights) -> str:
    """A token drawn on its own with its name beside it (panels, off-board)."""
    r = 13
    svg = (f'<svg class="chip" viewBox="0 0 36 36" width="36" height="36" '
           f'xmlns="http://www.w3.org/2000/svg">{token_svg(t, 18, 19, r, hl)}</svg>')
    return f'<span class="token-chip">{svg}<span class="chip-label">{_e(token_name(t))}</span></span>'


def board_svg(b: draw.Board, hl: Highlights) -> str:
    """Any board of the vocabulary."""
    if isinstance(b, draw.SquareGrid):
        return square_grid_svg(b, hl)
    if isinstance(b, draw.HexGrid):
        return hex_grid_svg(b, hl)
    if isinstance(b, draw.TileNetwork):
        return tile_network_svg(b, hl)
    raise TypeError(f"not a board of the drawing vocabulary: {type(b).__name__}")


# ----------------------------------------------------------------------------- legends
def swatch(t: draw.Terrain) -> str:
    """A small square showing a terrain's colour, pattern and glyph."""
    pat = (f'<rect width="18" height="18" fill="{_pattern_fill(t.pattern)}"/>'
           if t.pattern else "")
    glyph = ('<text x="9" y="14" text-anchor="middle" font-size="13" '
             + (f'fill="{colour(t.glyph_colour)}" stroke="#111" stroke-width=".8"'
                if t.glyph_colour else f'fill="{ink(t.colour)}"')
             + f'>{_e(t.glyph)}</text>' if t.glyph else "")
    return (f'<svg class="swatch" viewBox="0 0 18 18" width="18" height="18" aria-hidden="true">'
            f'<rect width="18" height="18" fill="{colour(t.colour)}" stroke="#555"/>{pat}{glyph}'
            "</svg>")


def legend_html(terrains: Sequence[draw.Terrain], tokens: Sequence[draw.Token] = ()) -> str:
    """The legend of a board: each terrain's swatch and name, and the shape of each side."""
    if not terrains and not tokens:
        return ""
    items = [f"<li>{swatch(t)} {_e(t.name)}</li>" for t in terrains]
    entries: dict[tuple[str, str], str] = {}
    for t in tokens:
        # markers and neutral pieces by what they are ("Sacred Flame"), the others by side
        name = (re.split(r" on [A-Z]+\d|: |\(", t.label)[0].strip() or t.side
                if t.side in ("marker", "neutral") else t.side)
        entries.setdefault((t.side, name), t.glyph if t.side in ("marker", "neutral") else "")
    for (side, name), glyph in entries.items():
        shape = _shape(SIDE_SHAPE.get(side, "circle"), 9, 10, 7,
                       f'fill="{SIDE_COLOUR.get(side, "#777")}" stroke="#111"')
        mark = (f'<text x="9" y="15" text-anchor="middle" font-size="12" fill="#fff">'
                f"{_e(glyph[:1])}</text>" if glyph else "")
        items.append(f'<li><svg class="swatch" viewBox="0 0 18 18" width="18" height="18" '
                     f'aria-hidden="true">{shape}{mark}</svg> {_e(name)}</li>')
    return f'<ul class="legend" aria-label="legend">{"".join(items)}</ul>'


# ----------------------------------------------------------------------------- tracks
def track_svg(t: draw.Track, hl: Highlights) -> str:
    """A track of spaces with its marker and printed marks, or a rondel (``cyclic``)."""
    if t.cyclic:
        return _rondel_svg(t, hl)
    if t.columns:
        return _grid_track_svg(t, hl)
    n = max(1, len(t.spaces))
    longest = max((len(s.label or s.id) for s in t.spaces), default=2)
    # Long labels ("walking (3 MP)") wrap onto two lines in a wider space.
    wrap = 9 if longest > 6 else 99
    sw = max(30, min(96, 8 * min(longest, wrap) + 14))
    # room under the spaces only for printed marks and notes
    below = bool(t.marks) or any(hl.notes.get(s.target or "") for s in t.spaces)
    h = 66 if below else 42
    # a long track wraps into rows, so that it fits a sheet at full size
    per_row = max(1, min(n, int((TRACK_WIDTH - 8) // sw)))
    w = 8 + per_row * sw
    out = [_svg_open(w, h * math.ceil(n / per_row), t.label, "track")]
    where: dict[str, tuple[float, float]] = {}
    for i, s in enumerate(t.spaces):
        x = 4 + (i % per_row) * sw
        dy = h * (i // per_row)
        on = t.value == i
        name = f"{t.label} space {s.label or s.id}" + (" (marker here)" if on else "")
        name += f", {t.marks[i]}" if i in t.marks else ""
        name += f", {s.note}" if s.note else ""
        attrs, title = _target_attrs(s.target, name, hl, "space on" if on else "space")
        move = f' transform="translate(0 {dy})"' if dy else ""
        out.append(f'<g{attrs}{move}>{title}'
                   f'<rect x="{x}" y="6" width="{sw - 2}" height="30" rx="3" '
                   f'fill="{"#f2c94c" if on else "#fafafa"}" stroke="#333" '
                   f'stroke-width="{3 if on else 1}"/>'
                   + _space_label(s.label or s.id, x + sw / 2 - 1, on, wrap))
        if on:
            out.append(f'<polygon points="{_f(x + sw / 2 - 7)},0 {_f(x + sw / 2 + 5)},0 '
                       f'{_f(x + sw / 2 - 1)},7" fill="#111" aria-hidden="true"/>')
        if i in t.marks:
            # The whole mark; next to another mark it takes the lower line, so both read.
            low = (i - 1) in t.marks and i % 2 == 1
            half = 3.4 * len(t.marks[i]) + 2
            mx = min(max(x + sw / 2 - 1, half), w - half)
            out.append(f'<text x="{_f(mx)}" y="{62 if low else 50}" '
                       f'text-anchor="middle" font-size="12" fill="#7a0000" stroke="#fff" '
                       f'stroke-width="2" paint-order="stroke" aria-hidden="true">'
                       f'{_e(t.marks[i])}</text>')
        if hl.active(s.target):
            out.append(f'<rect class="ring" x="{x - 1}" y="5" width="{sw}" height="32" '
                       f'rx="3" fill="none" stroke="#111" stroke-width="3" '
                       f'stroke-dasharray="4 2"/>')
            out.append(_note_badge(x + sw / 2, 56, hl.notes.get(s.target or "", "")))
        out.append("</g>")
        where[s.id] = (x + sw / 2 - 1, 21 + dy)
    drawn, loose = _tokens_at(t.tokens, where, sw * 0.9, hl)
    out.append(drawn + "</svg>")
    return (f'<figure class="track-fig"><figcaption>{_e(t.label)}</figcaption>'
            f'{"".join(out)}{_loose_tokens(loose, hl)}</figure>')


def _grid_track_svg(t: draw.Track, hl: Highlights) -> str:
    """A board of large action spaces in ``t.columns`` columns: each space's name on top and
    the tokens on it in a row below, each with its name under it."""
    cols = max(1, t.columns)
    w_cell = 130
    by_space: dict[str, list[draw.Token]] = {}
    loose: list[draw.Token] = []
    ids = {s.id for s in t.spaces}
    for k in t.tokens:
        (by_space.setdefault(k.at, []) if k.at in ids else loose).append(k)
    per_row = 2
    token_rows = max([1] + [math.ceil(len(v) / per_row) for v in by_space.values()])
    h_cell = 34 + 62 * token_rows
    rows = math.ceil(len(t.spaces) / cols)
    w, h = cols * w_cell + 4, rows * h_cell + 4
    out = [_svg_open(w, h, t.label, "track grid-track")]
    for i, s in enumerate(t.spaces):
        x = 2 + (i % cols) * w_cell
        y = 2 + (i // cols) * h_cell
        on = t.value == i
        here = by_space.get(s.id, [])
        name = f"{t.label} space {s.label or s.id}" + (f", {s.note}" if s.note else "")
        if here:
            name += ": " + ", ".join(k.label for k in here)
        attrs, title = _target_attrs(s.target, name, hl, "space on" if on else "space")
        out.append(f'<g{attrs}>{title}<rect x="{x + 2}" y="{y + 2}" width="{w_cell - 4}" '
                   f'height="{h_cell - 4}" rx="6" fill="{"#f2c94c" if on else "#fbf7ee"}" '
                   f'stroke="#5a4a33" stroke-width="{3 if on else 1.5}"/>')
        for j, line in enumerate(_text_lines(s.label or s.id, 18)[:2]):
            out.append(f'<text x="{_f(x + w_cell / 2)}" y="{_f(y + 16 + 13 * j)}" '
                       f'text-anchor="middle" font-size="12" font-weight="bold" '
                       f'aria-hidden="true">{_e(line)}</text>')
        if hl.active(s.target):
            out.append(f'<rect class="ring" x="{x + 1}" y="{y + 1}" width="{w_cell - 2}" '
                       f'height="{h_cell - 2}" rx="6" fill="none" stroke="#111" '
                       f'stroke-width="3" stroke-dasharray="5 3"/>')
        out.append("</g>")
        for j, k in enumerate(here):
            cx = x + w_cell * ((j % per_row) + 0.5) / per_row
            cy = y + 34 + 62 * (j // per_row) + 14
            # the token's name and its states as lines of their own under it
            plain = draw.Token(k.id, k.label, k.glyph, k.side, k.at, target=k.target,
                               facing=k.facing, face_down=k.face_down, colour=k.colour)
            out.append(token_svg(plain, cx, cy, 13, hl))
            short = k.label.split(",")[0].removesuffix("'s rune")
            for n, line in enumerate([short, *k.badges][:2]):
                out.append(f'<text x="{_f(cx)}" y="{_f(cy + 28 + 13 * n)}" '
                           f'text-anchor="middle" font-size="12" aria-hidden="true">'
                           f"{_e(line[:9])}</text>")
    out.append("</svg>")
    return (f'<figure class="track-fig"><figcaption>{_e(t.label)}</figcaption>'
            f'{"".join(out)}{_loose_tokens(loose, hl)}</figure>')


def _space_label(label: str, x: float, on: bool, wrap: int) -> str:
    lines = _text_lines(label, wrap)[:2]
    size = 13 if len(lines) == 1 else 12
    y0 = 26 if len(lines) == 1 else 19
    weight = "bold" if on else "normal"
    return "".join(f'<text x="{_f(x)}" y="{y0 + 12 * i}" text-anchor="middle" '
                   f'font-size="{size}" font-weight="{weight}" aria-hidden="true">'
                   f"{_e(line[:wrap + 2])}</text>" for i, line in enumerate(lines))


def _rondel_svg(t: draw.Track, hl: Highlights) -> str:
    n = max(1, len(t.spaces))
    r_out, r_in = 122, 44
    c = r_out + 8
    out = [_svg_open(2 * c, 2 * c, t.label, "track rondel")]
    where: dict[str, tuple[float, float]] = {}
    for i, s in enumerate(t.spaces):
        a0 = 2 * math.pi * i / n - math.pi / 2
        a1 = 2 * math.pi * (i + 1) / n - math.pi / 2
        large = 1 if a1 - a0 > math.pi else 0
        p = [(c + r_out * math.cos(a0), c + r_out * math.sin(a0)),
             (c + r_out * math.cos(a1), c + r_out * math.sin(a1)),
             (c + r_in * math.cos(a1), c + r_in * math.sin(a1)),
             (c + r_in * math.cos(a0), c + r_in * math.sin(a0))]
        d = (f"M{_f(p[0][0])},{_f(p[0][1])} A{r_out},{r_out} 0 {large} 1 {_f(p[1][0])},"
             f"{_f(p[1][1])} L{_f(p[2][0])},{_f(p[2][1])} A{r_in},{r_in} 0 {large} 0 "
             f"{_f(p[3][0])},{_f(p[3][1])} z")
        on = t.value == i
        name = f"{t.label} space {i + 1}: {s.label or s.id}" + (" (marker here)" if on else "")
        name += f", {s.note}" if s.note else ""
        attrs, title = _target_attrs(s.target, name, hl, "space on" if on else "space")
        am = (a0 + a1) / 2
        lr = r_in + (r_out - r_in) * 0.56  # the name outside the cubes, inside the note
        lx, ly = c + lr * math.cos(am), c + lr * math.sin(am)
        out.append(f'<g{attrs}>{title}<path d="{d}" '
                   f'fill="{"#f2c94c" if on else "#fafafa"}" stroke="#333" '
                   f'stroke-width="{3 if on else 1}"/>')
        for j, line in enumerate(_text_lines(s.label or s.id, 10)[:2]):
            out.append(f'<text x="{_f(lx)}" y="{_f(ly - 8 + 13 * j)}" text-anchor="middle" '
                       f'font-size="12" aria-hidden="true">{_e(line)}</text>')
        if hl.active(s.target):
            out.append(f'<path class="ring" d="{d}" fill="#fff" fill-opacity=".2" '
                       f'stroke="#111" stroke-width="3" stroke-dasharray="4 2"/>')
            nx = c + (r_out - 13) * math.cos(am)
            ny = c + (r_out - 13) * math.sin(am)
            out.append(_note_badge(nx, ny, hl.notes.get(s.target or "", "")))
        out.append("</g>")
        tr = r_in + 16
        where[s.id] = (c + tr * math.cos(am), c + tr * math.sin(am))
    for j, line in enumerate(_text_lines(t.label, 12)[:3]):
        out.append(f'<text x="{c}" y="{c - 6 + 13 * j}" text-anchor="middle" font-size="12" '
                   f'font-weight="bold" aria-hidden="true">{_e(line)}</text>')
    drawn, loose = _tokens_at(t.tokens, where, 40, hl)
    out.append(drawn + "</svg>")
    return (f'<figure class="track-fig"><figcaption>{_e(t.label)}</figcaption>'
            f'{"".join(out)}{_loose_tokens(loose, hl)}</figure>')


# ----------------------------------------------------------------------------- cards, dice
def card_html(c: draw.Card, hl: Highlights) -> str:
    """A card: title, kind and text face up, or its back with the title only."""
    name = c.title + (" (face down)" if c.face_down else "") + (
        f": {c.text}" if c.text and not c.face_down else "")
    if c.face_down and c.text:
        name += f" ({c.text})"
    if c.badges:
        name += f" [{', '.join(c.badges)}]"
    legal = hl.active(c.target)
    if legal:
        acts = "; ".join(hl.labels.get(c.target or "", []))
        note = hl.notes.get(c.target or "", "")
        label = f"{name}{' (' + note + ')' if note else ''}: {acts}"
        attrs = (f' class="card tg legal{" back" if c.face_down else ""}" '
                 f'data-target="{_e(c.target)}" tabindex="0" role="button" '
                 f'aria-label="{_e(label)}" title="{_e(label)}"')
    elif c.target:
        attrs = (f' class="card tg{" back" if c.face_down else ""}" data-ref="{_e(c.target)}" '
                 f'role="img" aria-label="{_e(name)}" title="{_e(name)}"')
    else:
        attrs = (f' class="card{" back" if c.face_down else ""}" role="img" '
                 f'aria-label="{_e(name)}" title="{_e(name)}"')
    body = [f"<div{attrs}>"]
    if legal and hl.notes.get(c.target or ""):
        # first, floated: the title wraps beside it instead of running under it
        body.append(f'<span class="card-note">{_e(hl.notes[c.target or ""])}</span>')
    body.append(f'<div class="card-title">{_e(c.title)}</div>')
    if c.kind:
        body.append(f'<div class="card-kind">{_e(c.kind)}</div>')
    if c.text:
        body.append(f'<div class="card-text">{_e(c.text)}</div>')
    if c.badges:
        body.append('<div class="badges">' + "".join(
            f'<span class="badge">{_e(b)}</span>' for b in c.badges) + "</div>")
    body.append("</div>")
    return "".join(body)


def _pips(face: str) -> list[tuple[float, float]]:
    spots = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
             4: [(1, 1), (3, 1), (1, 3), (3, 3)], 5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
             6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]}
    return [(x * 10, y * 10) for x, y in spots.get(int(face), [])] if face.isdigit() else []


def die_html(d: draw.Die) -> str:
    """A die: pips for a d6 face 1–6, the face as text otherwise, its modifier beside it."""
    mod = f"{d.modifier:+d}" if d.modifier else ""
    name = " ".join(x for x in [d.label, d.kind, "showing", d.face, mod] if x)
    fill = colour(d.colour, "white") if d.colour else "#fdfdfd"
    fg = ink(d.colour) if d.colour else "#111"
    inner: str
    face = d.face[:10].replace("_", " ")
    # a word face (a BattleForge die's "double") gets a die wide enough to print it at 13 px
    w = 40 if len(face) < 4 else 8 * len(face) + 14
    if d.kind in ("d6", "D6") and _pips(d.face):
        inner = "".join(f'<circle cx="{x}" cy="{y}" r="3.4" fill="{fg}"/>' for x, y in _pips(d.face))
    else:
        inner = (f'<text x="{_f(w / 2)}" y="{25 if len(face) < 4 else 24}" text-anchor="middle" '
                 f'font-size="{16 if len(face) < 4 else 13}" font-weight="bold" fill="{fg}">'
                 f"{_e(face)}</text>")
    svg = (f'<svg viewBox="0 0 {_f(w)} 40" width="{_f(w)}" height="40" aria-hidden="true">'
           f'<rect x="2" y="2" width="{_f(w - 4)}" height="36" rx="7" fill="{fill}" stroke="#111" '
           f'stroke-width="2"/>{inner}</svg>')
    return (f'<span class="die" role="img" aria-label="{_e(name)}" title="{_e(name)}">{svg}'
            f'<span class="die-text">{_e(d.label or d.kind)}{" " + _e(mod) if mod else ""}'
            "</span></span>")


def mini_die(kind: str, face: str, modifier: int = 0) -> str:
    """A die in the step log: its face on the die's colour (when its kind names one, such as
    ``white`` or ``red``), its kind beside a word face, and its modifier (``7 +1 = 8``)."""
    fill = colour(kind) if kind.lower() in PALETTE else "#ffffff"
    fg = ink(kind) if kind.lower() in PALETTE else "#111111"
    total = ""
    if modifier and face.lstrip("-").isdigit():
        total = f" = {int(face) + modifier}"
    name = " ".join(x for x in [kind, "showing", face] if x)
    if modifier:
        name += f", modifier {modifier:+d}{total}"
    kind_text = (f'<span class="die-kind">{_e(kind)}</span>'
                 if kind and kind.lower() not in PALETTE else "")
    mod = (f'<span class="die-mod">{modifier:+d}{_e(total)}</span>' if modifier else "")
    return (f'<span class="die-mini-wrap" title="{_e(name)}" aria-hidden="true">{kind_text}'
            f'<span class="die-mini" style="background:{fill};color:{fg}">{_e(face)}</span>'
            f"{mod}</span>")


# ----------------------------------------------------------------------------- panels, scene
def panel_html(p: draw.Panel, hl: Highlights, own: bool = False) -> str:
    """A dashboard: stats, tracks, cards, tokens, dice and notes; the seat's own is marked."""
    legal = hl.active(p.target)
    attrs = ""
    if legal:
        acts = "; ".join(hl.labels.get(p.target or "", []))
        attrs = (f' data-target="{_e(p.target)}" tabindex="0" role="button" '
                 f'aria-label="{_e(p.title)}: {_e(acts)}"')
    elif p.target:
        attrs = f' data-ref="{_e(p.target)}"'
    cls = "panel" + (" own" if own else "") + (" tg legal" if legal else "")
    out = [f'<section class="{cls}"{attrs}><h3>{_e(p.title)}'
           f'{" <small>(your seat)</small>" if own else ""}</h3>']
    if p.stats:
        out.append("<dl>" + "".join(f"<dt>{_e(s.name)}</dt><dd>{_e(s.value)}</dd>"
                                    for s in p.stats) + "</dl>")
    out.extend(track_svg(t, hl) for t in p.tracks)
    if p.cards:
        out.append('<div class="cards">' + "".join(card_html(c, hl) for c in p.cards) + "</div>")
    if p.tokens:
        out.append('<div class="loose">' + "".join(_token_chip(t, hl) for t in p.tokens)
                   + "</div>")
    if p.dice:
        out.append('<div class="dice">' + "".join(die_html(d) for d in p.dice) + "</div>")
    if p.notes:
        out.append("<ul class=\"notes\">" + "".join(f"<li>{_e(n)}</li>" for n in p.notes)
                   + "</ul>")
    out.append("</section>")
    return "".join(out)



def _tracks_cards_dice(scene: draw.Scene, hl: Highlights) -> list[str]:
    """A scene's tracks, cards and dice, each group in its own box (the page and the sheets
    draw them alike)."""
    out = []
    if scene.tracks:
        out.append('<div class="tracks">' + "".join(track_svg(t, hl) for t in scene.tracks)
                   + "</div>")
    if scene.cards:
        out.append('<div class="cards table-cards">'
                   + "".join(card_html(c, hl) for c in scene.cards) + "</div>")
    if scene.dice:
        out.append('<div class="dice" aria-label="dice">'
                   + "".join(die_html(d) for d in scene.dice) + "</div>")
    return out

def scene_html(scene: draw.Scene, hl: Highlights | None = None, seat: str | None = None) -> str:
    """The whole table: boards with legends, tracks, table cards, dice, panels and notes.

    ``hl`` marks the targets of the legal actions; ``seat``'s own panels come first.
    """
    hl = hl or Highlights()
    out = ['<div class="scene">']
    if scene.subtitle:
        out.append(f'<p class="subtitle">{_e(scene.subtitle)}</p>')
    for b in scene.boards:
        # a caption the subtitle already says ("Scenario 1: ... · round 3") is left out
        caption = b.title or b.id
        shown = "" if scene.subtitle and caption in scene.subtitle else (
            f"<figcaption>{_e(caption)}</figcaption>")
        out.append(f'<figure class="board-fig">{shown}'
                   f'<div class="board-wrap">{board_svg(b, hl)}</div>'
                   f"{legend_html(b.legend, b.tokens)}</figure>")
    out += _tracks_cards_dice(scene, hl)
    if scene.panels:
        panels = sorted(scene.panels, key=lambda p: (seat is None or p.seat != seat))
        out.append('<div class="panels">' + "".join(
            panel_html(p, hl, own=seat is not None and p.seat == seat) for p in panels)
            + "</div>")
    if scene.notes:
        out.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in scene.notes)
                   + "</ul>")
    out.append("</div>")
    return "".join(out)


def board_targets(scene: draw.Scene) -> set[str]:
    """The targets drawn on the scene's boards (cells, tiles and the figures on them): an
    action naming one of them is picked on the board; any other goes to the action bar."""
    out: set[str] = set()
    for b in scene.boards:
        cells = b.tiles if isinstance(b, draw.TileNetwork) else b.cells
        out.update(c.target for c in cells if c.target)
        out.update(t.target for t in b.tokens if t.target)
    return out


def boards_html(scene: draw.Scene, hl: Highlights | None = None) -> str:
    """The boards alone, one after another (the table fits them to its middle column)."""
    hl = hl or Highlights()
    return "".join(f'<figure class="board-fig" aria-label="{_e(b.title or b.id)}">'
                   f"{board_svg(b, hl)}</figure>" for b in scene.boards)


def sheets_html(scene: draw.Scene, hl: Highlights | None = None, seat: str | None = None
                ) -> str:
    """Everything of the scene but its boards: the seat's own sheets first, then the map key,
    tracks, table cards, dice, the other sheets and notes (the table's side column)."""
    hl = hl or Highlights()
    out: list[str] = []
    panels = sorted(scene.panels, key=lambda p: (seat is None or p.seat != seat))
    own = [p for p in panels if seat is not None and p.seat == seat]
    # the sheets a current choice is drawn on come next, so that they are in view
    homes = target_homes(draw.Scene("", panels=panels))
    live = {h for ref, h in homes.items() if hl.active(ref)}
    rest = sorted((p for p in panels if p not in own),
                  key=lambda p: not any(h == p.title or h.startswith(p.title + ": ")
                                        for h in live))
    if own:
        out.append('<div class="panels">' + "".join(panel_html(p, hl, own=True) for p in own)
                   + "</div>")
    for b in scene.boards:
        legend = legend_html(b.legend, b.tokens)
        if legend:
            out.append(f'<details class="key" open><summary>Map key: '
                       f"{_e(b.title or b.id)}</summary>{legend}</details>")
    out += _tracks_cards_dice(scene, hl)
    if rest:
        out.append('<div class="panels">' + "".join(panel_html(p, hl) for p in rest)
                   + "</div>")
    if scene.notes:
        out.append('<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in scene.notes)
                   + "</ul>")
    return "".join(out)


def target_homes(scene: draw.Scene) -> dict[str, str]:
    """Where each target off the boards is drawn: the title of its sheet (a panel), its
    track, or ``the table's cards`` (the action bar groups many choices by it)."""
    out: dict[str, str] = {}

    def track(t: draw.Track, home: str) -> None:
        for s in t.spaces:
            if s.target:
                out.setdefault(s.target, home)
        for k in t.tokens:
            if k.target:
                out.setdefault(k.target, home)

    for p in scene.panels:
        if p.target:
            out.setdefault(p.target, p.title)
        for t in p.tracks:
            track(t, f"{p.title}: {t.label}")
        for c in p.cards:
            if c.target:
                out.setdefault(c.target, p.title)
        for k in p.tokens:
            if k.target:
                out.setdefault(k.target, p.title)
    for t in scene.tracks:
        track(t, t.label)
    for c in scene.cards:
        if c.target:
            out.setdefault(c.target, "the table's cards")
    return out
