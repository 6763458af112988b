"""The balance table of docs/balance.md: every scenario of every game, with the default party
and each other party size the game allows, played by each bot; one cell per (scenario, party,
bot) with its win rate, Wilson interval and the ``meadhall sim`` command that reproduces it.

Cells are measured one after the other and appended to a JSON-lines file as each finishes, so
a long run can stop and resume (cells already in the file with the same games and seed are not
played again); :func:`markdown` renders the file as the document's tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from meadhall import games
from meadhall.bots import check_spec
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Game
from meadhall.sim.lab import Announce, Plan, run
from meadhall.sim.runner import Backend

DEFAULT_GAMES = {"random": 100, "heuristic": 60, "mcts:50": 20}
"""Games per cell and bot when ``--games`` is not given (the bots in table order)."""


@dataclass(frozen=True)
class Party:
    """One party of a scenario: its heroes and whether it is the game's default party."""

    scenario: str
    heroes: tuple[str, ...]
    default: bool


@dataclass(frozen=True)
class Cell:
    """One measured figure: a party played ``games`` times by ``bot``."""

    game: str
    scenario: str
    heroes: tuple[str, ...]
    default: bool
    bot: str
    games: int
    seed: int
    wins: int
    unfinished: int
    errors: int
    ci_low: float
    ci_high: float
    seconds: float
    content: str = ""
    """The fingerprint of the game's content the cell was measured with (:func:`content_id`)."""

    @property
    def command(self) -> str:
        """The ``meadhall sim`` command that plays exactly this cell's games."""
        return " ".join(["meadhall sim", self.game, "--scenario", shlex.quote(self.scenario),
                         "--heroes", ",".join(self.heroes), "--bot", self.bot, "--games",
                         str(self.games), "--seed", str(self.seed)])

    def key(self) -> tuple[Any, ...]:
        return (self.game, self.scenario, self.heroes, self.bot, self.games, self.seed,
                self.content)


def content_id(game: Game) -> str:
    """A short fingerprint of the game's content: a cell measured with other content values
    (before a tuning) is stale and measured again."""
    dump = game.content.model_dump_json() if isinstance(game.content, BaseModel) \
        else json.dumps(game.content, sort_keys=True, default=str)
    return hashlib.sha256(dump.encode()).hexdigest()[:12]


def parse_games(text: str | None) -> dict[str, int]:
    """``random=100,heuristic=60,mcts:50=20``: the bots, in order, and each one's game count."""
    if not text:
        return dict(DEFAULT_GAMES)
    out: dict[str, int] = {}
    for part in text.split(","):
        bot, sep, n = part.strip().rpartition("=")
        if not sep or not bot or not n.isdigit() or int(n) < 1:
            raise MeadhallError(f"--games takes BOT=N,... (e.g. random=100,heuristic=60), "
                                f"not {part.strip()!r}")
        check_spec(bot)
        if bot in out:
            raise MeadhallError(f"--games lists {bot} twice")
        out[bot] = int(n)
    return out


def _allowed(game: Game, setup: dict[str, Any]) -> bool:
    try:
        game.blank_state(game.normalise_setup(setup), 0)
    except (MeadhallError, ValidationError):
        return False
    return True


def parties(game: Game, scenarios: Sequence[str] | None = None,
            all_sizes: bool = True) -> list[Party]:
    """Each scenario's default party (the default setup's heroes), then one party of every
    other size the game accepts for it (the default heroes, cut short or joined by the next
    heroes in the game's list)."""
    base = game.default_setup()
    default = [str(h) for h in base.get("heroes") or []]
    others = [h.id for h in game.heroes() if h.id not in default]
    out: list[Party] = []
    for s in game.scenarios():
        if scenarios is not None and s.id not in scenarios:
            continue
        sizes = range(1, len(default) + len(others) + 1) if all_sizes else [len(default)]
        found: list[Party] = []
        for n in sizes:
            heroes = tuple((default + others)[:n])
            if _allowed(game, {**base, "scenario": s.id, "heroes": list(heroes)}):
                found.append(Party(s.id, heroes, n == len(default)))
        found.sort(key=lambda p: not p.default)
        out += found
    return out


def load(path: Path) -> list[Cell]:
    """The cells measured so far (none if the file does not exist)."""
    if not path.exists():
        return []
    cells = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                d = json.loads(line)
                cells.append(Cell(**{**d, "heroes": tuple(d["heroes"])}))
            except (json.JSONDecodeError, TypeError) as e:
                raise MeadhallError(f"{path}:{n}: not a table cell ({e})") from None
    return cells


def _append(path: Path, cell: Cell) -> None:
    # One line per cell, flushed and synced: an interrupted run loses at most the cell
    # being played.
    with path.open("a") as f:
        f.write(json.dumps(asdict(cell), sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def measure(game_ids: Sequence[str], bots: dict[str, int], seed: int, out: Path,
            backend: Backend, scenarios: Sequence[str] | None = None, all_sizes: bool = True,
            others: float = 1.0, announce: Announce | None = None,
            done: Callable[[Cell], None] | None = None) -> list[Cell]:
    """Play every missing cell of the games' table and append it to ``out``; returns the
    table's cells (measured before or now) in table order. Parties other than the default
    play ``others`` times the games (at least 10, or all when fewer)."""
    have = {c.key(): c for c in load(out)}
    cells: list[Cell] = []
    for gid in game_ids:
        game = games.get(gid)
        fingerprint = content_id(game)
        for party in parties(game, scenarios, all_sizes):
            for bot, count in bots.items():
                n = count if party.default else max(min(count, 10), round(count * others))
                key = (gid, party.scenario, party.heroes, bot, n, seed, fingerprint)
                if key in have:
                    cells.append(have[key])
                    continue
                setup = game.normalise_setup({**game.default_setup(),
                                              "scenario": party.scenario,
                                              "heroes": list(party.heroes)})
                start = time.perf_counter()
                batch = run(Plan(gid, setup, [bot], games=n, seed=seed), backend,
                            announce).batches[0].summary
                cell = Cell(gid, party.scenario, party.heroes, party.default, bot, n, seed,
                            batch["wins"], batch["unfinished"], batch["errors"],
                            batch["ci_low"], batch["ci_high"],
                            round(time.perf_counter() - start, 1), fingerprint)
                _append(out, cell)
                if done is not None:
                    done(cell)
                cells.append(cell)
    return cells


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def figure(c: Cell) -> str:
    """``wins/games = rate [low–high]``, with unfinished games and errors when there are any."""
    extra = ""
    if c.unfinished:
        extra += f", {c.unfinished} unfinished"
    if c.errors:
        extra += f", **{c.errors} errors**"
    return (f"{c.wins}/{c.games} = {_pct(c.wins / c.games)} "
            f"[{_pct(c.ci_low)}–{_pct(c.ci_high)}]{extra}")


def markdown(cells: Iterable[Cell]) -> str:
    """The table, one section per game: a row per scenario and party, a column per bot (the
    latest cell of each); a figure measured with other content than today's is marked."""
    latest: dict[tuple[Any, ...], Cell] = {}
    for c in cells:  # a cell measured again (new content, other counts) replaces the older
        latest.pop((c.game, c.scenario, c.heroes, c.bot), None)
        latest[(c.game, c.scenario, c.heroes, c.bot)] = c
    by_game: dict[str, list[Cell]] = {}
    for c in latest.values():
        by_game.setdefault(c.game, []).append(c)
    parts = []
    for gid in sorted(by_game, key=lambda g: (g == "toy", g)):  # the demonstration game last
        gcells = by_game[gid]
        bots = list(dict.fromkeys(c.bot for c in gcells))
        order = [s.id for s in games.get(gid).scenarios()]
        gcells.sort(key=lambda c: (order.index(c.scenario) if c.scenario in order else
                                   len(order), not c.default, len(c.heroes)))
        current = content_id(games.get(gid))
        rows: dict[tuple[str, tuple[str, ...]], dict[str, Cell]] = {}
        for c in gcells:
            rows.setdefault((c.scenario, c.heroes), {})[c.bot] = c
        lines = [f"### {games.get(gid).title} (`{gid}`)", "",
                 "| scenario | party | " + " | ".join(f"`{b}`" for b in bots) + " |",
                 "|---|---|" + "---|" * len(bots)]
        seed = gcells[0].seed
        for (scenario, heroes), by_bot in rows.items():
            first = next(iter(by_bot.values()))
            party = f"{len(heroes)}: {', '.join(heroes)}" + (" (default)" if first.default
                                                            else "")
            lines.append(f"| {scenario} | {party} | "
                         + " | ".join(_shown(by_bot[b], current) if b in by_bot else "–"
                                      for b in bots) + " |")
        secs = sum(c.seconds for c in gcells)
        lines += ["", f"Wins/games = win rate [Wilson 95% interval], seed {seed}; "
                  f"{len(gcells)} cells measured in {secs / 60:.0f} min (wall clock). One "
                  f"cell again: `meadhall sim {gid} --scenario S --heroes A,B --bot BOT "
                  f"--games N --seed {seed}`.", ""]
        parts.append("\n".join(lines))
    return "\n".join(parts)


def _shown(c: Cell, current: str) -> str:
    stale = c.content != current
    return figure(c) + (" (other content: measure again)" if stale else "")
