"""The dice an event shows (docs/architecture.md, "Dice in events"): ``data["dice"]`` lists each
die rolled with its face and the modifier applied, so every front end shows rolls alike."""

from __future__ import annotations

from typing import Any


def d12(face: int, modifier: int = 0) -> dict[str, Any]:
    """A d12 showing ``face``, with the die roll modifier applied to it (0 if none)."""
    return {"kind": "d12", "face": str(face), "modifier": modifier}


def coin(face: str) -> dict[str, Any]:
    """The Coin of Fate showing ``heads`` or ``tails``."""
    return {"kind": "coin", "face": face, "modifier": 0}
