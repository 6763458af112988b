"""Interactive terminal play: a prompt listing the legal actions, with undo and autosave."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from meadhall import games
from meadhall.core import saves
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Event, Game, GameState

HELP = """Type an action's number or its text. Other commands:
  Enter      take the default (when one is offered)
  u, undo    take back your last action
  s, show    draw the board again
  w FILE     save to FILE (the game also autosaves after every action)
  q, quit    leave (the autosave lets you resume with `meadhall play FILE`)
  ?, help    this help"""


class TerminalSession:
    """One interactive game in the terminal."""

    def __init__(self, console: Console) -> None:
        self.con = console
        self.history: list[tuple[GameState, list[dict[str, Any]]]] = []

    def ask(self, prompt: str, default: str = "") -> str | None:
        """Read one line; ``None`` at end of input."""
        suffix = f" [{default}]" if default else ""
        try:
            answer = self.con.input(escape(f"{prompt}{suffix}: ")).strip()
        except EOFError:
            return None
        return answer or default

    def choose_game(self) -> Game | None:
        ids = games.ids()
        playable = [g for g in ids if g != "toy"] or ids
        self.con.print("Games: " + ", ".join(f"{g.id} ({g.title})" for g in games.all_games()),
                       markup=False)
        answer = self.ask("Which game", playable[0])
        return None if answer is None else games.get(answer)

    def setup_for(self, game: Game, scenario: str | None, heroes: str | None,
                  options: list[str]) -> dict[str, Any] | None:
        from meadhall.cli import _parse_setup

        base = game.default_setup()
        if scenario is None:
            self.con.print("Scenarios: " + ", ".join(f"{s.id} ({s.name})" for s in game.scenarios()),
                           markup=False)
            scenario = self.ask("Scenario", str(base.get("scenario", "")))
            if scenario is None:
                return None
        if heroes is None:
            self.con.print("Heroes: " + ", ".join(f"{h.id} ({h.name})" for h in game.heroes()),
                           markup=False)
            heroes = self.ask("Heroes (comma-separated)", ",".join(base.get("heroes", [])))
            if heroes is None:
                return None
        return _parse_setup(scenario or None, heroes, options)

    def run(self, game_id: str | None, scenario: str | None, heroes: str | None,
            seed: int | None, save: Path | None, table: bool, options: list[str]) -> None:
        journal: list[dict[str, Any]] = []
        if game_id and Path(game_id).suffix == ".json" and Path(game_id).exists():
            state, journal = saves.load(game_id)
            save = save or Path(game_id)
            self.con.print(f"Resumed {game_id}.", markup=False)
        else:
            game = games.get(game_id) if game_id else self.choose_game()
            if game is None:
                return
            setup = self.setup_for(game, scenario, heroes, options)
            if setup is None:
                return
            s = seed if seed is not None else secrets.randbelow(2**31)
            state = game.new_game(setup, s, "table" if table else "seeded")
            save = save or Path(f"meadhall-{game.id}.json")
            self.con.print(f"New {game.title} game, seed {s}; autosaving to {save}. "
                           "Type ? for help.", markup=False)
        self.loop(state, journal, save)

    def loop(self, state: GameState, journal: list[dict[str, Any]], save: Path) -> None:
        from meadhall.cli import _print_decision, _print_events, _resolve_action

        self.con.print(state.render(), markup=False)
        while True:
            _print_decision(self.con, state)
            d = state.decision()
            answer = self.ask(">", (d.default or "") if d else "")
            if answer is None or answer in ("q", "quit", "exit"):
                saves.save(state, save, journal)
                self.con.print(f"Saved to {save}. Resume with: meadhall play {save}", markup=False)
                return
            if answer in ("?", "h", "help"):
                self.con.print(HELP, markup=False)
                continue
            if answer in ("s", "show"):
                self.con.print(state.render(), markup=False)
                continue
            if answer.startswith("w "):
                saves.save(state, Path(answer[2:].strip()), journal)
                self.con.print(f"Saved to {answer[2:].strip()}", markup=False)
                continue
            if answer in ("u", "undo"):
                if not self.history:
                    self.con.print("Nothing to undo.")
                    continue
                state, journal = self.history.pop()
                saves.save(state, save, journal)
                self.con.print("Undone.")
                self.con.print(state.render(), markup=False)
                continue
            if d is None:
                self.con.print("The game is over: undo, save (w FILE) or quit.")
                continue
            try:
                action = _resolve_action(state, answer)
                before = (state.clone(), list(journal))
                events: list[Event] = state.apply(action)
            except MeadhallError as e:
                self.con.print(f"[red]{escape(str(e))}[/red]")
                continue
            self.history.append(before)
            journal.append({"action": str(action), "events": [str(e) for e in events]})
            _print_events(self.con, events)
            saves.save(state, save, journal)
            self.con.print(state.render(), markup=False)
