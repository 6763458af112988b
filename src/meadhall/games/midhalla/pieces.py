"""Mutable pieces of a Midhalla position: heroes, enemies, traps (plain dataclasses)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from meadhall.core.deck import Deck
from meadhall.core.fastcopy import _ATOMIC, fastcopy
from meadhall.core.protocol import Decision

T = TypeVar("T")


def to_json(obj: Any) -> dict[str, Any]:
    """A plain dict of a piece (lists copied): faster than :func:`dataclasses.asdict`."""
    d = obj.__dict__
    return {n: (v[:] if (v := d[n]).__class__ is list else v) for n in _field_names(type(obj))}


_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    return names


def from_json(cls: type[T], d: dict[str, Any]) -> T:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = set(d) - names
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))} for {cls.__name__}")
    return cls(**d)


@dataclass
class HeroState:
    """A hero tableau: HP die, skill rows with the two skill tokens, ultimates, items, status."""

    id: str
    hp: int
    max_hp: int
    top: list[str]
    bottom: list[str]
    tile: str | None = None
    top_at: int | None = None
    bottom_at: int | None = None
    exhausted: list[str] = field(default_factory=list)
    """Exhausted skill slots as "top:2" / "bottom:0" (Exhaust, max 2)."""
    ults_used: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    used_items: list[str] = field(default_factory=list)
    armor: int = 0
    retaliate: int = 0
    bleed: int = 0
    acted: bool = False
    level: int = 0
    follower: bool = False
    """Followers act in 3.3 and count as heroes for enemies only (Followers)."""

    @property
    def ko(self) -> bool:
        return self.hp <= 0

    @staticmethod
    def __fastcopy__(h: HeroState) -> HeroState:
        """The copy :func:`~meadhall.core.fastcopy.fastcopy` makes: the lists hold ids
        (strings), every other field is a number, a string or None."""
        n = object.__new__(HeroState)
        d = n.__dict__ = h.__dict__.copy()  # faster than filling n's own dict
        d["top"], d["bottom"] = h.top[:], h.bottom[:]
        d["exhausted"], d["ults_used"] = h.exhausted[:], h.ults_used[:]
        d["items"], d["used_items"] = h.items[:], h.used_items[:]
        return n


def _flat_copy(obj: T) -> T:
    """A copy of a piece whose fields are all numbers, strings, booleans or None."""
    n = object.__new__(obj.__class__)
    n.__dict__ = obj.__dict__.copy()  # faster than filling n's own dict key by key
    return n


@dataclass
class EnemyState:
    """An enemy standee with its card: HP token, bleed, evasion, slow, boss rotation token."""

    id: str
    card: str
    tile: str
    hp: int
    max_hp: int
    bleed: int = 0
    evasion: bool = False
    slow: str = ""
    """"" (none), "slowed" or "immune" (the Slow / Slow-immune token)."""
    rotation: int = -1
    """Bosses: index of the action box holding the tracker token (-1 before the first turn)."""

    __fastcopy__ = staticmethod(_flat_copy)


@dataclass
class TrapState:
    """A built trap: miniature on a tile, HP die (0 = destroyed), upgrade token, special."""

    id: str
    kind: str
    tile: str
    hp: int
    level: int = 1
    special: str | None = None

    @property
    def destroyed(self) -> bool:
        return self.hp <= 0

    __fastcopy__ = staticmethod(_flat_copy)


_DECISIONS: dict[tuple[str, str, str, str | None], Decision] = {}
"""Shared :class:`Decision` objects by what they say (:attr:`Choice.decision`)."""


@dataclass(frozen=True)
class Choice:
    """The pending decision: immutable once asked, so clones share it (``__shared__``).

    ``options`` pairs each legal action's text with its payload for the handler
    ``_on_<kind>``; ``ctx`` carries what the handler needs besides the payload.
    """

    __shared__ = True

    kind: str
    seat: str
    prompt: str = field(compare=False)
    """For people: a save keeps the words it was asked with, and a newer wording of the same
    decision is the same decision."""
    section: str
    options: tuple[tuple[str, Any], ...]
    default: str | None = None
    ctx: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    @classmethod
    def lazy(cls, kind: str, seat: str, prompt: str, section: str,
             make: Callable[[], Sequence[tuple[str, Any]]], default: str | None = None,
             ctx: dict[str, Any] | None = None) -> Choice:
        """A choice whose options are worked out by ``make()`` when first read (a search
        copy's look-ahead mostly stops at the choice and never reads them). ``make`` reads
        the state that asks, which stays at this decision until the options are read: a
        state leaves a decision only by applying one of its options, which reads them first
        (:meth:`MidhallaState._apply`)."""
        ch = object.__new__(cls)
        ch.__dict__.update(kind=kind, seat=seat, prompt=prompt, section=section,
                           default=default, ctx=ctx or {}, _make=make)
        return ch

    @classmethod
    def made(cls, kind: str, seat: str, prompt: str, section: str,
             options: tuple[tuple[str, Any], ...], default: str | None,
             ctx: dict[str, Any]) -> Choice:
        """``Choice(kind, seat, prompt, section, options, default, ctx)``, filled in one step
        (a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``;
        a decision is asked at every step)."""
        ch = object.__new__(cls)
        ch.__dict__.update(kind=kind, seat=seat, prompt=prompt, section=section,
                           options=options, default=default, ctx=ctx)
        return ch

    def __getattr__(self, name: str) -> Any:
        # Only reached for an attribute not set: the options of a lazy choice, not read yet.
        if name == "options":
            d = self.__dict__
            make = d.pop("_make", None)
            if make is not None:
                opts = d["options"] = tuple(make())
                return opts
        raise AttributeError(name)

    def __getstate__(self) -> dict[str, Any]:
        self.options  # noqa: B018 - a lazy choice works out its options before it is saved
        return self.__dict__

    # Remembered in the instance's __dict__ by hand: functools.cached_property takes a lock
    # at every read in Python 3.11, and these are read at every step of a search.
    @property
    def decision(self) -> Decision:
        """The protocol's Decision for this choice (built once; clones share the choice)."""
        d = self.__dict__.get("_decision")
        if d is None:
            # Decisions are immutable: one object per question, shared by every choice that
            # asks it (search copies ask the same few again and again)
            key = (self.seat, self.prompt, self.section, self.default)
            d = _DECISIONS.get(key)
            if d is None:
                if len(_DECISIONS) > 4096:
                    _DECISIONS.clear()
                d = _DECISIONS[key] = Decision(
                    self.seat, self.prompt, self.section,
                    "choice" if self.default else "turn", self.default)
            self.__dict__["_decision"] = d
        return d  # type: ignore[no-any-return]

    @property
    def index(self) -> dict[str, Any]:
        """Payload by action text (built once per decision; clones share the choice)."""
        d = self.__dict__.get("_index")
        if d is None:
            d = self.__dict__["_index"] = dict(self.options)
        return d  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        # copies: the choice is shared by clones, so nothing of it may leave by reference
        return {"kind": self.kind, "seat": self.seat, "prompt": self.prompt,
                "section": self.section,
                "options": [[t, p if p.__class__ in _ATOMIC else fastcopy(p)]
                            for t, p in self.options],
                "default": self.default, "ctx": fastcopy(self.ctx)}

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> Choice | None:
        if d is None:
            return None
        return cls(d["kind"], d["seat"], d["prompt"], d["section"],
                   tuple((t, p) for t, p in d["options"]), d.get("default"), d.get("ctx", {}))


class Snapshot:
    """The position at the start of step 3.3, which "replay step 3.3" goes back to.

    Immutable once taken and shared by clones (``__shared__``). Taken during play it holds
    copies of the state's position attributes (``attrs``); loaded from a save it holds the
    position's JSON text; each form is worked out from the other only when needed (``text``
    for a save, ``attrs`` are not rebuilt: a loaded snapshot is restored through the loader).
    """

    __shared__ = True
    __slots__ = ("attrs", "_text")

    def __init__(self, attrs: dict[str, Any] | None = None, text: str | None = None) -> None:
        self.attrs = attrs
        self._text = text

    def text(self, dump: Any) -> str:
        """The JSON text of the position (``dump(attrs)`` makes the position dict)."""
        if self._text is None:
            self._text = json.dumps(dump(self.attrs))
        return self._text


class Decks(dict):  # type: ignore[type-arg]
    """The state's decks by name, shared with copies of the state until one of them uses a
    deck: a copy (:func:`~meadhall.core.fastcopy.fastcopy`) shares every deck, and the first
    ``decks[name]`` (or ``get``) after it takes a deck of its own, in the copy and in the
    original alike. Most look-aheads draw no card, so most copies copy no deck.
    :meth:`read` gives a deck to look at without taking a copy (views, saves)."""

    __slots__ = ("owned",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.owned: set[str] = set(self)

    def __getitem__(self, name: str) -> Deck:
        d = dict.__getitem__(self, name)
        if name not in self.owned:
            d = Deck.__fastcopy__(d)
            dict.__setitem__(self, name, d)
            self.owned.add(name)
        return d

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default  # noqa: SIM401 - takes a copy

    def __setitem__(self, name: str, deck: Deck) -> None:
        dict.__setitem__(self, name, deck)
        self.owned.add(name)

    def read(self, name: str) -> Deck:
        """The deck ``name``, to look at only (never to change)."""
        return dict.__getitem__(self, name)  # type: ignore[no-any-return]

    def values(self) -> Any:  # type: ignore[override]
        return [self[n] for n in self]

    def items(self) -> Any:  # type: ignore[override]
        return [(n, self[n]) for n in self]

    @staticmethod
    def __fastcopy__(decks: Decks) -> Decks:
        n = Decks.__new__(Decks)
        dict.update(n, decks)
        n.owned = set()
        decks.owned = set()  # the original shares its decks with the copy from now on
        return n

    def __reduce__(self) -> Any:
        return (Decks, (dict(self.items()),))
