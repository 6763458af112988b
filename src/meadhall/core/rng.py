"""A small seeded generator whose whole state is one integer.

The generator lives inside a game state, so cloning or saving a state carries it along; one
integer keeps both cheap. The algorithm is PCG32 (XSH-RR), stable across Python versions.

>>> a, b = Rng(7), Rng(7)
>>> a.sample_ints(1, 12, 5) == b.sample_ints(1, 12, 5)
True
>>> c = a.clone(); a.randint(1, 6) == c.randint(1, 6)
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407


class Rng:
    """PCG32 generator; ``state`` is a plain int so it serialises as JSON."""

    __slots__ = ("state",)

    draws: int = 0
    """Numbers drawn by every generator of this process so far: a search bot compares it
    before and after a look-ahead to know whether chance played any part in it."""

    def __init__(self, seed: int = 0) -> None:
        # Mix the seed so nearby seeds give unrelated streams.
        self.state = 0
        self._next()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self._next()

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """The generator whose state is ``state`` (an integer from 0 to 2**64 - 1).

        >>> Rng.from_state(-1)
        Traceback (most recent call last):
        ValueError: a generator state is an integer from 0 to 2**64 - 1, not -1
        """
        if type(state) is not int or not 0 <= state <= _MASK64:
            raise ValueError(f"a generator state is an integer from 0 to 2**64 - 1, not {state!r}")
        r = cls.__new__(cls)
        r.state = state
        return r

    def clone(self) -> Rng:
        return Rng.from_state(self.state)

    def advance(self, n: int) -> int:
        """Draw and discard ``n`` numbers; returns the new state (for tests)."""
        for _ in range(n):
            self._next()
        return self.state

    def _next(self) -> int:
        Rng.draws += 1
        old = self.state
        self.state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = (1 << 32) % n
        while True:
            x = self._next()
            if x >= threshold:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def sample_ints(self, lo: int, hi: int, k: int) -> list[int]:
        return [self.randint(lo, hi) for _ in range(k)]

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 bits."""
        a = self._next() >> 5
        b = self._next() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted_index(self, weights: Sequence[float]) -> int:
        total = float(sum(weights))
        if total <= 0:
            raise ValueError("weights must sum to a positive number")
        x = self.random() * total
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if x < acc:
                return i
        return len(weights) - 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def split(self) -> Rng:
        """A new independent generator seeded from this one (for determinizing)."""
        return Rng((self._next() << 32) | self._next())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __repr__(self) -> str:
        return f"Rng.from_state({self.state})"
