"""Gates of Niflheim: a solo/co-op campaign of tactical combat against automated undead.

Modules follow the rulebook's chapters: :mod:`.board` (Terrain, Line of Sight), :mod:`.heroes`
(Action Phase, Movement - Heroes, Special Actions), :mod:`.undead` (chapter Undead),
:mod:`.combat` (Scenario 2: In the Mist), :mod:`.state` (Playing a Scenario).
"""

from meadhall.games.niflheim.game import GAME, NiflheimGame
from meadhall.games.niflheim.state import NiflheimState

__all__ = ["GAME", "NiflheimGame", "NiflheimState"]
