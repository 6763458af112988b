"""Every game in the AI ecosystems: Gymnasium, PettingZoo (AEC) and OpenSpiel.

Built once on the Game protocol, for every registered game:

* :mod:`meadhall.adapters.vocabulary` — the dense action numbering (``Game.action_vocabulary``)
  and the legal-action mask, saved with the game's content hash;
* :mod:`meadhall.adapters.observation` — a fixed-size encoding of a seat's view (drawn as a
  :class:`~meadhall.core.draw.Scene`), its ``gymnasium.spaces`` layout, and the text view;
* :mod:`meadhall.adapters.table` — who answers each decision (seats, players' choices);
* :mod:`meadhall.adapters.gym` — ``make_env(...)``, registered as ``meadhall/<game>-v0``;
* :mod:`meadhall.adapters.pettingzoo` — ``env(...)``, one AEC agent per seat;
* :mod:`meadhall.adapters.openspiel` — ``register()``: ``python_meadhall_<game>``.

They need the optional extra ``meadhall[rl]`` (numpy, gymnasium, pettingzoo, open-spiel); the
rest of meadhall never imports them. docs/adapters.md documents the layouts and choices.
"""

from __future__ import annotations

RL_EXTRA_HINT = "install the RL extra: pip install 'meadhall[rl]'"
"""What to tell someone whose environment lacks an RL library."""


def missing(module: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """A one-line error for a missing RL dependency, naming the module and the extra."""
    return ModuleNotFoundError(f"meadhall.adapters needs {error.name or module!r}: "
                               f"{RL_EXTRA_HINT}")
