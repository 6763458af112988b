"""Runaljod: The Sound of the Runes — adventure mode for 2–4 heroes (single-player with two
heroes), rune throws, the altar of the gods, exploration and the enemy AI deck.

Rules modules are named after the rulebook's chapters: ``heroes_turn`` (Heroes Turn),
``attack`` (Attack; Damage, Wounds and Life Points), ``gods`` (Activate the God's Rune; God's
Powers), ``enemies_turn`` (Enemies Turn; Enemy Actions), ``board`` (Movement; Terrain; Line of
sight) and ``dice_rules`` (The Dice). Content not printed in the rulebook is authored.
"""

from meadhall.games.runaljod.game import GAME, RunaljodGame
from meadhall.games.runaljod.state import RunaljodState

__all__ = ["GAME", "RunaljodGame", "RunaljodState"]
