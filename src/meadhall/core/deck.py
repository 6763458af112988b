"""Decks and face-down pools whose hidden order is never stored.

A shuffled deck is a multiset (``pile``): which card comes next is decided by
:class:`~meadhall.core.chance.Chance` only when it is drawn or peeked. So a deck's order can never
leak into a view, a searching bot determinizes it for free, and in table mode the players simply
say which card they drew. Cards whose position is known (put on top or bottom, peeked) are kept in
order in ``top`` and ``bottom``.

>>> from meadhall.core.rng import Rng
>>> from meadhall.core.chance import Chance
>>> d = Deck("events", ["a", "b", "c"]); c = Chance("toy", Rng(0)); c.force("b")
>>> d.draw(c)
'b'
>>> d.put_top("z"); d.draw(c)
'z'
>>> len(d)
2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from meadhall.core.chance import Chance
from meadhall.core.errors import ContentError


@dataclass(slots=True)
class Deck:
    """A deck of card ids: known ``top`` (top first), shuffled ``pile``, known ``bottom``
    (bottom last), and a face-up ``discard`` (latest last)."""

    name: str
    pile: list[str] = field(default_factory=list)
    top: list[str] = field(default_factory=list)
    bottom: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    reshuffle: bool = True
    """Shuffle the discard back in when a draw finds the deck empty."""

    def __len__(self) -> int:
        return len(self.top) + len(self.pile) + len(self.bottom)

    @staticmethod
    def __fastcopy__(d: Deck) -> Deck:
        """The copy :func:`~meadhall.core.fastcopy.fastcopy` makes: card ids are strings."""
        n = object.__new__(Deck)
        n.name, n.reshuffle = d.name, d.reshuffle
        n.pile, n.top, n.bottom, n.discard = d.pile[:], d.top[:], d.bottom[:], d.discard[:]
        return n

    def cards(self) -> list[str]:
        """Every card in the deck (not the discard), hidden order not implied."""
        return [*self.top, *sorted(self.pile), *self.bottom]

    def shuffle(self, with_discard: bool = False) -> None:
        """Shuffle: every known position is forgotten."""
        self.pile.extend(self.top)
        self.pile.extend(self.bottom)
        self.top.clear()
        self.bottom.clear()
        if with_discard:
            self.pile.extend(self.discard)
            self.discard.clear()

    def _draw_from_pile(self, chance: Chance, section: str | None) -> str:
        kinds = sorted(set(self.pile))
        weights = [self.pile.count(k) for k in kinds]
        card = kinds[chance.pick(f"card drawn from {self.name}", kinds, weights, section)]
        self.pile.remove(card)
        return card

    def draw(self, chance: Chance, section: str | None = None) -> str | None:
        """Draw the top card; reshuffles the discard if empty; ``None`` if nothing is left."""
        if not len(self) and self.reshuffle and self.discard:
            self.shuffle(with_discard=True)
        if self.top:
            return self.top.pop(0)
        if self.pile:
            return self._draw_from_pile(chance, section)
        if self.bottom:
            return self.bottom.pop(0)
        return None

    def draw_many(self, chance: Chance, n: int, section: str | None = None) -> list[str]:
        out = []
        for _ in range(n):
            card = self.draw(chance, section)
            if card is None:
                break
            out.append(card)
        return out

    def peek(self, chance: Chance, n: int = 1, section: str | None = None) -> list[str]:
        """Look at the top ``n`` cards without drawing them (their order becomes known)."""
        while len(self.top) < n and self.pile:
            self.top.append(self._draw_from_pile(chance, section))
        while len(self.top) < n and self.bottom:
            self.top.append(self.bottom.pop(0))
        return self.top[:n]

    def put_top(self, card: str) -> None:
        self.top.insert(0, card)

    def put_bottom(self, card: str) -> None:
        self.bottom.append(card)

    def add(self, cards: Iterable[str]) -> None:
        """Shuffle cards into the hidden part of the deck."""
        self.pile.extend(cards)

    def remove(self, card: str) -> None:
        """Take a named card out of the deck (e.g. a setup that fetches a specific card)."""
        for part in (self.top, self.pile, self.bottom):
            if card in part:
                part.remove(card)
                return
        raise KeyError(f"{card} is not in deck {self.name}")

    def to_discard(self, card: str) -> None:
        self.discard.append(card)

    def public(self) -> dict:
        """What every player may see: sizes, known top cards are not shown, the discard is."""
        return {"name": self.name, "size": len(self), "discard": list(self.discard)}

    def to_json(self) -> dict:
        return {
            "name": self.name, "pile": sorted(self.pile), "top": list(self.top),
            "bottom": list(self.bottom), "discard": list(self.discard), "reshuffle": self.reshuffle,
        }

    @classmethod
    def from_json(cls, d: dict) -> Deck:
        """A deck from its saved form; a malformed one names the part that is wrong."""
        if not isinstance(d, dict):
            raise ContentError("", "deck", "must be an object with name, pile, top, bottom, "
                               "discard")
        name = d.get("name")
        if not isinstance(name, str):
            raise ContentError("", "deck.name", "must be a string")
        parts: dict[str, list[str]] = {}
        for key in ("pile", "top", "bottom", "discard"):
            value = d.get(key, [])
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise ContentError("", f"{name}.{key}", "must be a list of card names (strings)")
            parts[key] = list(value)
        reshuffle = d.get("reshuffle", True)
        if not isinstance(reshuffle, bool):
            raise ContentError("", f"{name}.reshuffle", "must be true or false")
        return cls(name, parts["pile"], parts["top"], parts["bottom"], parts["discard"],
                   reshuffle)


def Pool(name: str, markers: Iterable[str]) -> Deck:  # noqa: N802 - reads as a type
    """A face-down pool (e.g. Niflheim's undead markers): a deck that never reshuffles by itself."""
    return Deck(name, list(markers), reshuffle=False)
