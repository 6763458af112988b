"""Bots by name: ``random``, ``heuristic``, ``mcts:200`` (200 iterations), ``mcts:1s``.

A spec is ``KIND[:BUDGET][:KEY=VALUE...]``:

* ``random``: uniform over the legal actions.
* ``heuristic`` or ``heuristic:N``: the search-and-evaluate bot with N sampled futures per
  action (default 3); option ``width=N`` caps the actions it tries (default 40).
* ``designer``: the designer's bot (:mod:`meadhall.bots.designer`): ISMCTS whose root is the
  heuristic's screen; options ``per=N`` iterations per candidate (default 16), ``low=N`` and
  ``high=N`` the fewest and most iterations per decision (32, 256), ``top=N`` candidates kept
  from the screen (8), ``prior=N`` visits each starts with at its screen value (3), ``c=X``
  the UCT exploration constant (0.25), ``depth=N`` heuristic decisions before a leaf is
  scored (0).
* ``mcts:N`` or ``mcts:Ts``: ISMCTS with N iterations or T seconds per decision; options
  ``rollout=random|heuristic`` (default random), ``depth=N`` rollout decisions before the
  evaluation (default 0: a new leaf is evaluated at once), ``c=X`` the UCT exploration
  constant on values normalised to the search's range (default 0.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from meadhall.bots.base import Bot, BotError
from meadhall.bots.designer import DesignerBot
from meadhall.bots.heuristic import HeuristicBot
from meadhall.bots.mcts import MCTSBot
from meadhall.bots.random import RandomBot
from meadhall.core.protocol import Game

KINDS = {
    "random": "uniform over the legal actions",
    "heuristic": "one decision ahead on a few sampled futures, scored by the game's evaluation",
    "designer": "ISMCTS seeded by the heuristic's screen: the strongest practical player",
    "mcts": "information-set Monte Carlo tree search, mcts:ITERATIONS or mcts:SECONDSs",
}


def _int(spec: str, key: str, raw: str, low: int = 0) -> int:
    try:
        v = int(raw)
    except ValueError:
        raise BotError(f"bot {spec!r}: {key} must be a whole number, not {raw!r}") from None
    if v < low:
        raise BotError(f"bot {spec!r}: {key} must be at least {low}")
    return v


def _options(spec: str, parts: list[str], allowed: dict[str, Callable[[str], Any]]
             ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in parts:
        key, sep, raw = p.partition("=")
        if not sep or key not in allowed:
            names = ", ".join(f"{k}=..." for k in allowed) or "none"
            raise BotError(f"bot {spec!r}: unknown option {p!r} (options: {names})")
        out[key] = allowed[key](raw)
    return out


def _float(spec: str, key: str, raw: str) -> float:
    try:
        v = float(raw)
    except ValueError:
        raise BotError(f"bot {spec!r}: {key} must be a number, not {raw!r}") from None
    if not v > 0:
        raise BotError(f"bot {spec!r}: {key} must be positive")
    return v


def make_bot(spec: str, seed: int = 0, game: Game | None = None) -> Bot:
    """Build the bot a spec names, seeded; ``game`` supplies ``evaluate``/``order_actions``
    (default: the registered game of each state it is asked about)."""
    text = spec.strip()
    kind, *rest = text.split(":")
    if kind == "random":
        if rest:
            raise BotError(f"bot {spec!r}: the random bot takes no options")
        return RandomBot(seed)
    if kind == "heuristic":
        samples = 3
        if rest and "=" not in rest[0]:
            samples = _int(spec, "samples", rest.pop(0), 1)
        opts = _options(spec, rest, {"width": lambda r: _int(spec, "width", r, 1),
                                     "samples": lambda r: _int(spec, "samples", r, 1)})
        bot = HeuristicBot(seed, samples=opts.get("samples", samples),
                           width=opts.get("width", 40), game=game)
        bot.spec = text
        return bot
    if kind == "designer":
        if rest and "=" not in rest[0]:
            raise BotError(f"bot {spec!r}: designer takes options KEY=VALUE, e.g. "
                           "designer:per=16")
        opts = _options(spec, rest, {"per": lambda r: _int(spec, "per", r, 1),
                                     "low": lambda r: _int(spec, "low", r, 1),
                                     "high": lambda r: _int(spec, "high", r, 1),
                                     "top": lambda r: _int(spec, "top", r, 1),
                                     "prior": lambda r: _int(spec, "prior", r, 1),
                                     "depth": lambda r: _int(spec, "depth", r, 0),
                                     "c": lambda r: _float(spec, "c", r)})
        dbot = DesignerBot(seed, game=game, **opts)
        dbot.spec = text
        return dbot
    if kind == "mcts":
        if not rest or "=" in rest[0]:
            raise BotError(f"bot {spec!r}: mcts needs a budget, e.g. mcts:200 (iterations) "
                           "or mcts:1s (seconds)")
        budget = rest.pop(0)
        iterations: int | None = None
        seconds: float | None = None
        if re.fullmatch(r"\d+", budget):
            iterations = _int(spec, "the iteration budget", budget, 1)
        elif re.fullmatch(r"(\d+\.?\d*|\.\d+)s", budget):
            seconds = _float(spec, "the time budget", budget[:-1])
        else:
            raise BotError(f"bot {spec!r}: the budget must be a number of iterations "
                           f"(mcts:200) or of seconds (mcts:1s), not {budget!r}")
        opts = _options(spec, rest, {
            "rollout": lambda r: r,
            "depth": lambda r: _int(spec, "depth", r, 0),
            "c": lambda r: _float(spec, "c", r),
        })
        bot = MCTSBot(seed, iterations=iterations, seconds=seconds, game=game, **opts)
        bot.spec = text
        return bot
    raise BotError(f"unknown bot {kind!r}; choose from {', '.join(KINDS)} "
                   "(e.g. heuristic, mcts:200, mcts:1s)")


def check_spec(spec: str) -> str:
    """The spec, stripped, if it builds a bot; otherwise a :class:`BotError` naming the problem."""
    make_bot(spec)
    return spec.strip()


def is_timed(spec: str) -> bool:
    """Whether the bot's budget is in seconds (its choices then depend on the machine)."""
    parts = spec.strip().split(":")
    return parts[0] == "mcts" and len(parts) > 1 and parts[1].endswith("s")
