"""meadhall: play and measure four cooperative Norse board games.

The kernel lives in :mod:`meadhall.core`, each game in :mod:`meadhall.games`.
"""

__version__ = "0.1.0"
