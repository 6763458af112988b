"""Midhalla: a cooperative Norse dungeon crawler with tower-defence waves (the rulebook in
/work/shared/rulebooks/midhalla.txt). Heroes explore, prepare traps and fortifications, fight
TAO-driven enemies and bosses, and carry a party sheet across a campaign."""

from meadhall.games.midhalla.game import GAME, MidhallaGame
from meadhall.games.midhalla.state import MidhallaState

__all__ = ["GAME", "MidhallaGame", "MidhallaState"]
