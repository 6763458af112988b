"""Interactive terminal play, and the terminal's way of printing a game.

``meadhall play`` asks for the game and its setup (re-asking on a wrong answer), never
overwrites a saved game, lists the legal actions, accepts numbers or forgiving text, autosaves
after every step with the undo history, and says where the game is saved when it ends or is
interrupted.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from meadhall import games
from meadhall.bots.base import Bot
from meadhall.bots.seats import bot_to_move, seat_bots
from meadhall.core import saves
from meadhall.core.chance import ChanceRequest
from meadhall.core.errors import ContentError, MeadhallError, SaveError
from meadhall.core.protocol import CHANCE, Event, Game, GameState
from meadhall.matching import match_choice, resolve_action

HELP = """Type an action's number, its text or the beginning of it (any case). Commands:
  Enter          take the default (when one is offered)
  u, undo [N]    take back your last (N) step(s), never past a roll or a draw
  s, show        draw the board again
  l, log         the recent actions and what happened
  w FILE         save a copy to FILE (the game autosaves after every step)
  concede        give up this game (it counts as a loss)
  q, quit        leave; the autosave lets you resume with `meadhall play FILE`
  ?, help        this help, and the game's legends"""


# ---------------------------------------------------------------- printing a game
def print_events(con: Console, events: Sequence[Event]) -> None:
    """Each event as a bullet, with its rulebook section dimmed."""
    for e in events:
        if e.section:
            con.print(f"  • {escape(e.text)} [dim]— {escape(e.section)}[/dim]")
        else:
            con.print(f"  • {escape(e.text)}")


def _percent(p: float) -> str:
    return f"{p:.0%}" if p >= 0.01 else "<1%"


def _chance_lines(request: ChanceRequest) -> list[str]:
    """The possible results on one line: with their chances when they differ."""
    odds = request.odds()
    names = [o for o, _ in odds]
    shown = names if len(names) <= 24 else [*names[:23], "…", names[-1]]
    if len({round(p, 9) for _, p in odds}) == 1:
        return [f"  one of {', '.join(shown)}, each as likely as the others "
                f"({_percent(odds[0][1])})"]
    parts = [f"{o} ({_percent(p)})" for o, p in odds]
    if len(parts) > 24:
        parts = [*parts[:23], "…", parts[-1]]
    return ["  " + " · ".join(parts)]


def print_outcome(con: Console, state: GameState) -> None:
    """How the game ended."""
    o = state.outcome()
    word = {"win": "WON", "loss": "LOST"}.get(o.result, o.result.upper())
    con.print(f"[bold]Game over: {word}[/bold] — {escape(o.reason)}")


def print_decision(con: Console, state: GameState, numbered: bool = True) -> None:
    """Who decides what now, with the numbered legal actions (labels where they say more)."""
    d = state.decision()
    if d is None:
        print_outcome(con, state)
        return
    section = f" [dim]({escape(d.section)})[/dim]" if d.section else ""
    if d.seat == CHANCE and state.pending is not None:
        r = state.pending.request
        con.print(f"[bold]Your roll or draw[/bold]: {escape(r.what)}{section}")
        if numbered:
            for line in _chance_lines(r):
                con.print(line)
            con.print("  [dim]type the result as it fell[/dim]")
        return
    con.print(f"[bold]{escape(d.seat)}[/bold] decides: {escape(d.prompt)}{section}")
    if not numbered:
        return
    for i, a in enumerate(state.described_actions(), 1):
        mark = "  [cyan](default)[/cyan]" if d.default == a.text else ""
        label = f" [dim]— {escape(a.label)}[/dim]" if a.label and a.label != a.text else ""
        con.print(f"  {i:>3}. {escape(a.text)}{label}{mark}")


class SetupArgs(dict[str, Any]):
    """A setup read from the command line; ``texts`` keeps each ``--set`` value as typed, so
    that :func:`fit_setup` can fall back to the text when a game wants a string."""

    texts: dict[str, str]


def parse_setup(scenario: str | None, heroes: str | None, options: Sequence[str]
                ) -> SetupArgs:
    """A setup from ``--scenario``, ``--heroes a,b`` and ``--set KEY=VALUE`` (VALUE may be
    JSON: ``--set players=2``, ``--set campaign=true``; :func:`fit_setup` turns a JSON value
    back into its text where the game wants a string, as ``--set scenario=1``)."""
    setup = SetupArgs()
    setup.texts = {}
    if scenario is not None:
        setup["scenario"] = scenario
    if heroes:
        setup["heroes"] = [h.strip() for h in heroes.split(",") if h.strip()]
    for opt in options:
        key, sep, raw = opt.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ContentError("--set", opt, "expected KEY=VALUE (VALUE may be JSON)")
        setup.texts[key] = raw
        try:
            setup[key] = json.loads(raw)
        except json.JSONDecodeError:
            setup[key] = raw
    return setup


def _refused_key(game: Game, setup: dict[str, Any]) -> str | None:
    """The setup key the game refuses in ``setup`` (the first part of the error's field), or
    ``None`` when it sets up."""
    try:
        game.blank_state(game.normalise_setup(setup), 0)
    except ContentError as e:
        return e.field.split(".")[0].split("[")[0]
    return None


def fit_setup(game: Game, setup: dict[str, Any]) -> dict[str, Any]:
    """``setup`` with each ``--set`` value the game refuses as JSON (``scenario=1`` read as
    the number 1) replaced by its text: a value is a string unless the game's setup wants
    another type. If the game refuses the text too, its refusal names what was typed
    (``unknown scenario '99'``) rather than a type."""
    texts = getattr(setup, "texts", {})
    out = dict(setup)
    for key, text in texts.items():
        if not isinstance(out.get(key), str) and _refused_key(game, out) == key:
            out[key] = text
    return out


# ---------------------------------------------------------------- files
def looks_like_file(arg: str) -> bool:
    """Whether a ``play`` argument names a save file rather than a game id."""
    return arg.endswith(".json") or "/" in arg or Path(arg).is_file()


def free_name(path: Path) -> Path:
    """``path`` if nothing is there, else the first free ``name-2.json``, ``name-3.json``..."""
    if not path.exists():
        return path
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def describe_save(path: Path) -> str:
    """One line about the game saved in ``path`` (or why it cannot be read)."""
    try:
        s = saves.open_save(path)
    except MeadhallError as e:
        return f"cannot be read ({e})"
    game = games.get(s.state.game)
    o = s.state.outcome()
    status = f"over: {o.result}" if o.over else "in progress"
    steps = len([x for x in s.state.log if not x.startswith("!")])
    return f"a {game.title} game, {status}, {steps} actions taken"


class Quit(Exception):  # noqa: N818 - control flow: the person left at a prompt
    """The person ended input (Ctrl-D) at a prompt."""


class TerminalSession:
    """One interactive game in the terminal."""

    def __init__(self, console: Console, read: Callable[[str], str] | None = None,
                 bots: Sequence[str] = ()) -> None:
        self.con = console
        self._read = read or (lambda prompt: console.input(prompt))
        self.save: saves.Save | None = None
        self.path: Path | None = None
        self.bot_specs = list(bots)
        self.bots: dict[str, Bot] = {}

    # ------------------------------------------------------------ asking
    def ask(self, prompt: str, default: str = "") -> str:
        """Read one line (the default on Enter); :class:`Quit` at end of input."""
        suffix = f" [{default}]" if default else ""
        try:
            answer = self._read(escape(f"{prompt}{suffix}: "))
        except EOFError:
            raise Quit from None
        return " ".join(answer.split()) or default

    def error(self, message: str) -> None:
        self.con.print(f"[red]{escape(message)}[/red]")

    def choose_game(self, typed: str | None) -> Game:
        """The game named on the command line, or asked for until a known one is given."""
        all_games = games.all_games()
        options = [(g.id, g.title) for g in all_games]
        if typed is not None:
            return all_games[match_choice(typed, options, "game")]
        playable = [g.id for g in all_games if g.id != "toy"] or [g.id for g in all_games]
        self.con.print("Games: " + ", ".join(f"{g.id} ({g.title})" for g in all_games),
                       markup=False)
        while True:
            try:
                return all_games[match_choice(self.ask("Which game", playable[0]), options,
                                              "game")]
            except ContentError as e:
                self.error(e.reason)

    def _ask_scenario(self, game: Game, default: str) -> str:
        infos = game.scenarios()
        self.con.print("Scenarios: " + ", ".join(f"{s.id} ({s.name})" for s in infos),
                       markup=False)
        while True:
            try:
                i = match_choice(self.ask("Scenario", default), [(s.id, s.name) for s in infos],
                                 "scenario")
            except ContentError as e:
                self.error(e.reason)
                continue
            return infos[i].id

    def _hero_ids(self, game: Game, typed: str) -> list[str]:
        infos = game.heroes()
        words = [w.strip() for w in typed.split(",") if w.strip()]
        return [infos[match_choice(w, [(h.id, h.name) for h in infos], "hero")].id
                for w in words]

    def _ask_heroes(self, game: Game, default: str) -> list[str]:
        self.con.print("Heroes: " + ", ".join(f"{h.id} ({h.name})" for h in game.heroes()),
                       markup=False)
        while True:
            try:
                ids = self._hero_ids(game, self.ask("Heroes (comma-separated)", default))
            except ContentError as e:
                self.error(e.reason)
                continue
            if ids:
                return ids
            self.error("choose at least one hero")

    def set_up(self, game: Game, scenario: str | None, heroes: str | None,
               options: dict[str, Any], seed: int, table: bool) -> GameState:
        """A new game: scenario and heroes from the command line or asked for (re-asked when
        the game refuses them); other setup values from ``--set`` are checked before any
        question, since they cannot be asked again."""
        mode = "table" if table else "seeded"
        options = fit_setup(game, options)
        # ``--set scenario=1`` and ``--set heroes=[...]`` answer those questions too
        if scenario is None and isinstance(options.get("scenario"), str):
            scenario = options["scenario"]
        if heroes is None and isinstance(options.get("heroes"), list) and all(
                isinstance(h, str) for h in options["heroes"]):
            heroes = ",".join(options["heroes"])
        if options:
            try:
                game.new_game({**game.default_setup(), **options}, seed, mode)
            except ContentError as e:
                if e.field.split(".")[0].split("[")[0] in options:
                    raise
        base = game.default_setup()
        chosen_scenario = None
        if scenario is not None:
            infos = game.scenarios()
            chosen_scenario = infos[match_choice(scenario, [(s.id, s.name) for s in infos],
                                                 "scenario", "--scenario")].id
        chosen_heroes = self._hero_ids(game, heroes) if heroes is not None else None
        while True:
            if chosen_scenario is None:
                chosen_scenario = self._ask_scenario(game, str(base.get("scenario", "")))
            if chosen_heroes is None:
                chosen_heroes = self._ask_heroes(game, ",".join(base.get("heroes", [])))
            setup = {**options, "scenario": chosen_scenario, "heroes": chosen_heroes}
            try:
                return game.new_game(setup, seed, mode)
            except ContentError as e:
                # Re-ask the question the refusal is about, if it was asked at all.
                if e.field.startswith("scenario") and scenario is None:
                    chosen_scenario = None
                elif not e.field.startswith("scenario") and heroes is None:
                    chosen_heroes = None
                else:
                    raise
                self.error(str(e))

    def choose_file(self, path: Path) -> Path | None:
        """Where a new game may autosave without losing anything: ``path`` if free; otherwise
        the person resumes the game there (None) or names a free file."""
        while path.exists():
            fresh = free_name(path)
            self.con.print(f"{path} holds {describe_save(path)}.", markup=False)
            answer = self.ask(f"Resume it (r), start the new game in {fresh} (n), or type "
                              "another file name", "r")
            if answer.casefold() in ("r", "resume"):
                return None
            if answer.casefold() in ("n", "new"):
                return fresh
            path = Path(answer)
            if path.suffix != ".json":
                path = path.with_name(path.name + ".json")
        return path

    # ------------------------------------------------------------ the session
    def run(self, game_id: str | None, scenario: str | None, heroes: str | None,
            seed: int | None, save: Path | None, table: bool, options: dict[str, Any]) -> None:
        """Start or resume a game, then play it until the person leaves."""
        try:
            self._run(game_id, scenario, heroes, seed, save, table, options)
        except Quit:
            self._leave()
        except KeyboardInterrupt:
            self.con.print()
            self._leave(interrupted=True)

    def _run(self, game_id: str | None, scenario: str | None, heroes: str | None,
             seed: int | None, save: Path | None, table: bool, options: dict[str, Any]) -> None:
        if game_id is not None and looks_like_file(game_id):
            path = Path(game_id)
            if not path.exists():
                raise SaveError(f"{path}: no such file (to start a new game, name a game: "
                                f"{', '.join(games.ids())})")
            self.resume(save or path, path)
        else:
            game = self.choose_game(game_id)
            path = save or Path(f"meadhall-{game.id}.json")
            target = self.choose_file(path)
            if target is None:
                self.resume(path, path)
            else:
                s = seed if seed is not None else secrets.randbelow(2**31)
                state = self.set_up(game, scenario, heroes, options, s, table)
                self.save = saves.Save.new(state)
                self.path = target
                saves.write(self.save, target)
                self.con.print(f"New {game.title} game, seed {s}; autosaving to {target}. "
                               "Type ? for help.", markup=False)
        if self.bot_specs:
            self.bots = seat_bots(self.state, self.bot_specs)
            self.con.print("Bots play " + ", ".join(f"{seat} ({b.spec})"
                                                    for seat, b in self.bots.items()),
                           markup=False)
        self.loop()

    def resume(self, path: Path, source: Path) -> None:
        self.save = saves.open_save(source)
        self.path = path
        if path != source:
            self.save.revision = None
            target = self.choose_file(path)
            self.path = target or path
            if target is None:
                self.save = saves.open_save(path)
            else:
                saves.write(self.save, target)
        self.con.print(f"Resumed {self.path}: {describe_save(self.path)}.", markup=False)

    def autosave(self) -> None:
        """Write the game to its file; if another program changed that file meanwhile, the
        game goes to a fresh file instead, so neither is lost."""
        assert self.save is not None and self.path is not None
        try:
            saves.write(self.save, self.path)
        except saves.StaleSave as e:
            self.error(str(e))
            self.path = free_name(self.path)
            self.save.revision = None
            saves.write(self.save, self.path)
            self.con.print(f"Your game is autosaved to {self.path} from now on.", markup=False)

    def _leave(self, interrupted: bool = False) -> None:
        if self.save is None or self.path is None:
            self.con.print("Interrupted: no game was started." if interrupted else
                           "No game was started.", markup=False)
            return
        self.autosave()
        why = "Interrupted: " if interrupted else ""
        self.con.print(f"{why}the game is saved in {self.path}. Resume with: "
                       f"meadhall play {self.path}", markup=False)

    @property
    def state(self) -> GameState:
        assert self.save is not None
        return self.save.state

    def show(self) -> None:
        """The board; while a roll is asked for, the board as the steps before it left it."""
        preview = board_so_far(self.state) if self.state.pending is not None else None
        self.con.print(preview or self.state.render(), markup=False)

    def help(self) -> None:
        self.con.print(HELP, markup=False)
        legend = self.state.render_help()
        if legend:
            self.con.print(legend, markup=False)

    def loop(self) -> None:
        """Ask, apply, print and autosave until the person quits."""
        legend = self.state.render_help()
        if legend:
            self.con.print(legend, markup=False)
        self.show()
        listed = False
        while True:
            if self.bot_move():
                listed = False
                continue
            if not listed:
                print_decision(self.con, self.state)
            d = self.state.decision()
            answer = self.ask(">", (d.default or "") if d else "")
            # Enter with no default asks again without listing everything once more.
            listed = not answer
            if answer and not self.command(answer):
                self.act(answer)

    def bot_move(self) -> bool:
        """Let the bot whose seat decides now act (``--bot SEAT=KIND``); False when a
        person decides."""
        assert self.save is not None
        turn = bot_to_move(self.state, self.bots)
        if turn is None:
            return False
        seat, bot = turn
        action = bot.choose(self.state)
        self.con.print(f"[dim]{escape(seat)} ({escape(bot.spec)}) >[/dim] "
                       f"{escape(self.state.describe(action).label)}")
        events = self.save.history.apply(self.state, action)
        self.save.record(action.text, events)
        print_events(self.con, events)
        self.autosave()
        if bot_to_move(self.state, self.bots) is None:
            self.show()
        return True

    def command(self, answer: str) -> bool:
        """Carry out a session command; False when ``answer`` is not one."""
        word, _, rest = answer.partition(" ")
        word = word.casefold()
        if word in ("q", "quit", "exit") and not rest:
            raise Quit
        if word in ("?", "h", "help") and not rest:
            self.help()
        elif word in ("s", "show", "board") and not rest:
            self.show()
        elif word in ("l", "log") and not rest:
            self.print_log()
        elif word in ("w", "save") and rest:
            self.write_copy(Path(rest))
        elif word in ("u", "undo"):
            self.undo(rest)
        elif word == "concede":
            self.concede(rest)
        else:
            return False
        return True

    def print_log(self) -> None:
        assert self.save is not None
        if not self.save.journal:
            self.con.print("Nothing has happened yet.")
        for entry in self.save.journal[-10:]:
            self.con.print(f"> {entry['action']}", markup=False)
            for line in entry.get("events", []):
                self.con.print(f"    {line}", markup=False)

    def write_copy(self, path: Path) -> None:
        assert self.save is not None
        copy = saves.Save(self.state, list(self.save.journal), self.save.history)
        try:
            saves.write(copy, path)
        except MeadhallError as e:
            self.error(str(e))
            return
        self.con.print(f"Saved a copy to {path}", markup=False)

    def undo(self, count: str) -> None:
        assert self.save is not None
        if count and not count.isdigit():
            self.error("undo takes a number of steps: undo, undo 2...")
            return
        n = int(count or 1)
        try:
            self.save.state = self.save.history.undo(n)
        except MeadhallError as e:
            self.error(str(e))
            return
        while bot_to_move(self.state, self.bots) is not None:
            # Back to a person's decision: bots would only replay the steps undone.
            try:
                self.save.state = self.save.history.undo(1)
            except MeadhallError:
                break
        self.save.journal.append({"action": f"undo {n}" if n > 1 else "undo", "events": []})
        self.autosave()
        self.con.print("Undone.")
        self.show()

    def concede(self, reason: str) -> None:
        assert self.save is not None
        if self.state.outcome().over:
            self.error("the game is already over")
            return
        if self.ask("Concede this game? It ends as a loss (y/N)", "n").casefold() not in (
                "y", "yes"):
            self.con.print("Play on.")
            return
        self.save.history.concede(self.state, reason)
        self.save.journal.append({"action": "concede", "events": [self.state.outcome().reason]})
        self.autosave()
        print_outcome(self.con, self.state)
        self.con.print("Type undo to take it back, or q to leave.")

    def act(self, answer: str) -> None:
        assert self.save is not None
        if self.state.decision() is None:
            print_outcome(self.con, self.state)
            self.con.print("The game is over: undo, save a copy (w FILE) or quit (q).")
            return
        try:
            action = resolve_action(self.state, answer)
            if action.text != " ".join(answer.split()):
                self.con.print(f"[dim]> {escape(action.text)}[/dim]")
            events = self.save.history.apply(self.state, action)
        except MeadhallError as e:
            # Refused (or a rule not implemented yet): the state is as it was; play on.
            self.error(str(e))
            return
        self.save.record(action.text, events)
        print_events(self.con, events)
        self.autosave()
        self.show()


def board_so_far(state: GameState) -> str | None:
    """The board as it stands when table mode asks for a roll (see
    :meth:`GameState.at_question`). None when that cannot be drawn."""
    try:
        copy = state.at_question()
        return copy.render() if copy is not None else None
    except Exception:  # noqa: BLE001 - a half-applied step the game cannot draw: no preview
        return None
