"""BattleForge: Berserker - cooperative champions against Thor and his Ironborn minions.

Rules by rulebook chapter: ``basics`` (The Basics), ``champions_phase`` (The Champions Phase),
``minions`` (Minions), ``gods`` (Gods), ``ironborn_phase`` (The Ironborn Phase), ``other_rules``
(Other Rules); ``components`` holds the data schemas and ``content/battleforge.json`` the data.
"""

from meadhall.games.battleforge.game import GAME, BattleForgeGame
from meadhall.games.battleforge.state import BattleForgeState

__all__ = ["GAME", "BattleForgeGame", "BattleForgeState"]
