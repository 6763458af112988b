"""Troll Chase: a tiny game that proves the Game protocol end to end.

Heroes cross a small square grid to the exit while a troll chases them. It has everything the real
games need from the kernel: a face-down deck (the wind), dice (attacks), line of sight, enemy
automation with a players' choice on ties, and win/loss conditions. Its rulebook is
``docs/rules/toy.toml``; it is content authored by meadhall, not a published game.
"""

from meadhall.games.toy.game import GAME, ToyState

__all__ = ["GAME", "ToyState"]
