"""Bots that play any seat of any game through the Game protocol.

``make_bot("heuristic", seed=1).choose(state)`` returns one of ``state.legal_actions()``.
See :mod:`meadhall.bots.registry` for the specs (``random``, ``heuristic``, ``mcts:200``).
"""

from meadhall.bots.base import Bot, BotError, search_copy
from meadhall.bots.designer import DesignerBot
from meadhall.bots.heuristic import HeuristicBot
from meadhall.bots.mcts import MCTSBot
from meadhall.bots.random import RandomBot
from meadhall.bots.registry import KINDS, check_spec, is_timed, make_bot

__all__ = ["KINDS", "Bot", "BotError", "DesignerBot", "HeuristicBot", "MCTSBot", "RandomBot", "check_spec",
           "is_timed", "make_bot", "search_copy"]
