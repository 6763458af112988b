"""Where chance comes from: the seeded generator, or the people at the table.

Every random step of every game goes through :meth:`Chance.pick`: a die roll, a card drawn from
a face-down pile, a rune landing. In ``seeded`` mode the state's own :class:`~meadhall.core.rng.Rng`
decides. In ``table`` mode the players roll their own dice and the engine asks for each result:
:meth:`pick` raises :class:`NeedChance`, the protocol turns that into a decision whose legal
actions are the possible results, and replays the step once the result is entered.
Results queued with :meth:`Chance.force` are used first in either mode; tests force rolls this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.rng import Rng

ChanceMode = Literal["seeded", "table"]


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What the engine needs the table to tell it: e.g. ``Frida's attack roll (d12)``."""

    what: str
    options: tuple[str, ...]
    section: str | None = None
    probabilities: tuple[float, ...] = ()
    """Chance of each option, in the order of ``options`` (empty: equally likely)."""

    def odds(self) -> list[tuple[str, float]]:
        """Each possible result with its probability (summing to 1).

        >>> ChanceRequest("d3", ("1", "2", "3")).odds()[0]
        ('1', 0.3333333333333333)
        """
        if len(self.probabilities) == len(self.options):
            return list(zip(self.options, self.probabilities, strict=True))
        return [(o, 1 / len(self.options)) for o in self.options]

    def to_json(self) -> dict:
        return {"what": self.what, "options": list(self.options), "section": self.section,
                "probabilities": list(self.probabilities)}

    @classmethod
    def from_json(cls, d: dict) -> ChanceRequest:
        """A saved question to the table; a malformed one names the field."""
        if not isinstance(d, dict):
            raise ContentError("", "pending.request", "must be an object")
        what, options, section = d.get("what"), d.get("options"), d.get("section")
        probs = d.get("probabilities", [])
        if not isinstance(what, str):
            raise ContentError("", "pending.request.what", "must be a string")
        if not isinstance(options, list) or not options or \
                not all(isinstance(o, str) for o in options):
            raise ContentError("", "pending.request.options", "must be a non-empty list of "
                               "strings")
        if section is not None and not isinstance(section, str):
            raise ContentError("", "pending.request.section", "must be a string or null")
        if not isinstance(probs, list) or (probs and len(probs) != len(options)) or not all(
                isinstance(x, int | float) and not isinstance(x, bool) and x >= 0
                for x in probs):
            raise ContentError("", "pending.request.probabilities", "must be one number "
                               "≥ 0 per option")
        return cls(what, tuple(options), section, tuple(float(x) for x in probs))


class NeedChance(Exception):  # noqa: N818 - control flow, not an error a user sees
    """Raised inside an engine step when table mode needs a result it does not have yet."""

    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(request.what)
        self.request = request


_NAMES: dict[tuple[object, ...], tuple[tuple[str, ...], bool]] = {}
"""Option names by options tuple (a die's faces), with whether they are all one name."""


class BadForcedResult(IllegalAction):
    """A result queued with :meth:`Chance.force` that the roll or draw it reached cannot give;
    the protocol drops it so that the game can go on."""


class Chance:
    """The single source of randomness of one game state (cloned and saved with it)."""

    __slots__ = ("game", "mode", "rng", "queue")

    def __init__(self, game: str, rng: Rng, mode: ChanceMode = "seeded") -> None:
        if mode not in ("seeded", "table"):
            raise ValueError(f"chance mode must be 'seeded' or 'table', not {mode!r}")
        self.game = game
        self.mode: ChanceMode = mode
        self.rng = rng
        self.queue: list[str] = []

    def clone(self) -> Chance:
        c = Chance(self.game, self.rng.clone(), self.mode)
        c.queue = list(self.queue)
        return c

    def force(self, *results: object) -> None:
        """Queue results to be used by the next picks, in order (validated when used)."""
        self.queue.extend(str(r) for r in results)

    def pick(
        self,
        what: str,
        options: Sequence[object],
        weights: Sequence[float] | None = None,
        section: str | None = None,
    ) -> int:
        """Choose one of ``options`` at random (or as the table says); returns its index.

        >>> c = Chance("toy", Rng(1)); c.force(4)
        >>> c.pick("d6", [1, 2, 3, 4, 5, 6])
        3
        """
        known = _NAMES.get(options) if type(options) is tuple else None
        if known is None:
            names = tuple(str(o) for o in options)
            same = len(set(names)) == 1
            if type(options) is tuple:
                if len(_NAMES) > 4096:
                    _NAMES.clear()
                _NAMES[options] = (names, same)  # dice faces: the same tuple every roll
        else:
            names, same = known
        if not names:
            raise ValueError(f"nothing to pick from for {what}")
        if same:
            # Not a chance event at all: it never asks the table and never consumes a queued
            # result (which belongs to the next real roll or draw).
            return 0
        if self.queue:
            result = self.queue.pop(0)
            if result not in names:
                self.queue.insert(0, result)
                raise BadForcedResult(
                    self.game, section, f"the forced result {result!r} is not a possible "
                    f"result of {what} (possible: {', '.join(dict.fromkeys(names))}); it was "
                    "dropped"
                )
            return names.index(result)
        if self.mode == "table":
            raise NeedChance(_request(what, names, weights, section))
        if weights is None:
            return self.rng.below(len(names))
        return self.rng.weighted_index(weights)

    def to_json(self) -> dict:
        return {"mode": self.mode, "rng": self.rng.state, "queue": list(self.queue)}

    @classmethod
    def from_json(cls, game: str, d: dict) -> Chance:
        """The random source of a save; a malformed one names the field (``chance.rng``...)."""
        if not isinstance(d, dict):
            raise ContentError("", "chance", "must be an object with mode, rng and queue")
        mode = d.get("mode", "seeded")
        if mode not in ("seeded", "table"):
            raise ContentError("", "chance.mode", f"must be 'seeded' or 'table', not {mode!r}")
        try:
            rng = Rng.from_state(d.get("rng"))  # type: ignore[arg-type]
        except ValueError as e:
            raise ContentError("", "chance.rng", str(e)) from None
        queue = d.get("queue", [])
        if not isinstance(queue, list) or not all(isinstance(x, str | int) and
                                                  not isinstance(x, bool) for x in queue):
            raise ContentError("", "chance.queue", "must be a list of results (strings)")
        c = cls(game, rng, mode)
        c.queue = [str(x) for x in queue]
        return c


def _request(what: str, names: tuple[str, ...], weights: Sequence[float] | None,
             section: str | None) -> ChanceRequest:
    """The question for the table, with each distinct result's probability (faces or cards
    that share a name add up)."""
    w = [1.0] * len(names) if weights is None else [float(x) for x in weights]
    total = sum(w)
    odds: dict[str, float] = {}
    for n, x in zip(names, w, strict=True):
        odds[n] = odds.get(n, 0.0) + x / total
    odds = {n: x for n, x in odds.items() if x > 0}  # impossible results are not offered
    return ChanceRequest(what, tuple(odds), section, tuple(odds.values()))
