"""Rules of Troll Chase (sections as listed in docs/rules/toy.toml)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from meadhall.core import draw, grid, words
from meadhall.core.chance import ChanceMode
from meadhall.core.content import ContentModel, check_choice, check_choices, load, validate
from meadhall.core.deck import Deck
from meadhall.core.dice import D6
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.graph import first_steps
from meadhall.core.protocol import (
    ONGOING,
    PLAYERS,
    Decision,
    Event,
    Game,
    GameState,
    Info,
    Outcome,
    Target,
)

ID = "toy"
CONTENT = Path(__file__).parent / "content" / "toy.json"

S_TURN = "Hero Turn"
S_ATTACK = "Attacking the Troll"
S_WIND = "The Wind"
S_TROLL = "Troll Movement"
S_END = "Winning and Losing"

STEPS = {"calm": 1, "gust": 2, "fog": 0}


class ScenarioData(ContentModel):
    name: str
    map: list[str] = Field(min_length=1)
    starts: list[str]
    troll: str
    rounds: int = Field(gt=0)


class HeroData(ContentModel):
    name: str


class ToyContent(ContentModel):
    authored: bool
    note: str = ""
    scenarios: dict[str, ScenarioData]
    heroes: dict[str, HeroData]
    wind_deck: list[str]


class Setup(ContentModel):
    scenario: str = "chase"
    heroes: list[str] = Field(default_factory=lambda: ["ada"], min_length=1, max_length=2)


class ToyState(GameState):
    """Troll Chase. Heroes act in setup order; then the wind card and the troll move."""

    game = ID

    def __init__(self, content: ToyContent, setup: dict[str, Any], seed: int,
                 chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self._init_base(content, setup, seed, chance, auto_choices)
        sc = content.scenarios[setup["scenario"]]
        self.rows: list[str] = list(sc.map)  # shared strings, copied cheaply
        self.heroes: dict[str, grid.Sq] = {
            h: grid.sq(sc.starts[i]) for i, h in enumerate(setup["heroes"])}
        self.escaped: list[str] = []
        self.caught: list[str] = []
        self.troll: grid.Sq = grid.sq(sc.troll)
        self.stunned = False
        self.round = 1
        self.turn = 0  # index into setup["heroes"]; len(heroes) means the troll is choosing
        self.steps_left = 0
        self.wind = Deck("wind", list(content.wind_deck))

    # ------------------------------------------------------------ board helpers
    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def terrain(self, s: grid.Sq) -> str:
        return self.rows[s[1]][s[0]] if grid.in_bounds(s, self.width, self.height) else "#"

    def _open(self, s: grid.Sq) -> bool:
        return self.terrain(s) != "#"

    def _order(self) -> list[str]:
        return [h for h in self.setup["heroes"] if h in self.heroes]

    def _current(self) -> str | None:
        order = self.setup["heroes"]
        while self.turn < len(order) and order[self.turn] not in self.heroes:
            self.turn += 1
        return order[self.turn] if self.turn < len(order) else None

    def sees(self, a: grid.Sq, b: grid.Sq) -> bool:
        """Line of sight, blocked by walls (``#``); corner touches ignored."""
        return bool(grid.line_of_sight(a, b, lambda s: not self._open(s)))

    def _troll_step(self, s: grid.Sq):
        for n in grid.neighbours(s):
            if self._open(n):
                yield n, 1

    # ------------------------------------------------------------ protocol hooks
    def _outcome(self) -> Outcome:
        if self.caught:
            return Outcome("loss", "the troll caught " + words.join(
                self.content.heroes[h].name for h in self.caught))
        if not self.heroes:
            return Outcome("win", "every hero reached the exit")
        if self.round > self.content.scenarios[self.setup["scenario"]].rounds:
            return Outcome("loss", "the last round ended before every hero escaped")
        return ONGOING

    def _decision(self) -> Decision | None:
        if self.steps_left:
            options = self._troll_options()
            return Decision(PLAYERS, "The troll can step to several squares equally close to "
                            "its prey: choose one", S_TROLL, "choice", options[0])
        hero = self._current()
        assert hero is not None
        return Decision(hero, f"{self.content.heroes[hero].name}'s turn: move, attack or wait",
                        S_TURN)

    def _troll_targets(self) -> set[grid.Sq]:
        return set(self.heroes.values())

    def _troll_options(self) -> list[str]:
        steps = first_steps(self.troll, self._troll_targets(), self._troll_step)
        return [f"troll to {grid.name(s)}" for s in sorted(steps, key=lambda s: (s[1], s[0]))]

    def _legal(self) -> list[str]:
        if self.steps_left:
            return self._troll_options()
        hero = self._current()
        assert hero is not None
        at = self.heroes[hero]
        out = []
        for n in grid.neighbours(at):
            if self._open(n) and n not in self.heroes.values() and n != self.troll:
                out.append(f"move {grid.name(n)}")
        if grid.is_orthogonal(at, self.troll) and not self.stunned:
            out.append("attack troll")
        out.append("wait")
        return out

    def _why_illegal(self, action: str) -> IllegalAction | None:
        if action.startswith("move "):
            try:
                to = grid.sq(action[5:])
            except ValueError:
                return None
            hero = self._current()
            if hero is None:
                return None
            if not grid.is_orthogonal(self.heroes[hero], to):
                return IllegalAction(ID, S_TURN, f"{grid.name(to)} is not orthogonally "
                                     "adjacent to the hero")
            if not self._open(to):
                return IllegalAction(ID, S_TURN, f"{grid.name(to)} is a wall")
            return IllegalAction(ID, S_TURN, f"{grid.name(to)} is occupied")
        if action == "attack troll":
            return IllegalAction(ID, S_ATTACK, "the troll must be orthogonally adjacent and "
                                 "not stunned")
        return None

    def _apply(self, action: str, events: list[Event]) -> None:
        if action.startswith("troll to "):
            self._troll_move(grid.sq(action[9:]), events)
            self._continue_troll(events)
            return
        hero = self._current()
        assert hero is not None
        name = self.content.heroes[hero].name
        if action.startswith("move "):
            to = grid.sq(action[5:])
            self.heroes[hero] = to
            if self.terrain(to) == "X":
                del self.heroes[hero]
                self.escaped.append(hero)
                events.append(Event("escape", f"{name} reaches the exit at {grid.name(to)} "
                                    "and escapes", S_END, {"hero": hero}))
            else:
                events.append(Event("move", f"{name} moves to {grid.name(to)}", S_TURN,
                                    {"hero": hero, "to": grid.name(to)}))
        elif action == "attack troll":
            roll = D6.roll(self.chance, f"{name}'s attack on the troll", S_ATTACK)
            hit = roll >= 5
            if hit:
                self.stunned = True
            events.append(Event("attack", f"{name} attacks the troll and rolls {roll}: "
                                + ("a hit, the troll is stunned" if hit else "a miss (5+ hits)"),
                                S_ATTACK, {"hero": hero, "roll": roll, "hit": hit}))
        else:
            events.append(Event("wait", f"{name} waits", S_TURN, {"hero": hero}))
        self.turn += 1
        if self.outcome().over or self._current() is not None:
            return
        self._enemy_phase(events)

    def _enemy_phase(self, events: list[Event]) -> None:
        card = self.wind.draw(self.chance, S_WIND)
        assert card is not None  # the wind deck reshuffles its discard
        self.wind.to_discard(card)
        events.append(Event("wind", f"The wind card is {card}: the troll may move "
                            + words.plural(STEPS[card], "square"), S_WIND, {"card": card}))
        if self.stunned:
            self.stunned = False
            events.append(Event("stun", "The troll is stunned: it recovers instead of moving",
                                S_ATTACK))
            self._end_round(events)
            return
        self.steps_left = STEPS[card]
        self._continue_troll(events)

    def _continue_troll(self, events: list[Event]) -> None:
        while self.steps_left and not self.caught:
            options = self._troll_options()
            if not options:
                events.append(Event("troll", "The troll cannot reach any hero and stays put",
                                    S_TROLL))
                self.steps_left = 0
                break
            if len(options) > 1:
                return  # players' choice: ask
            self._troll_move(grid.sq(options[0][9:]), events)
        self._end_round(events)

    def _troll_move(self, to: grid.Sq, events: list[Event]) -> None:
        self.troll = to
        self.steps_left -= 1
        prey = [h for h, s in self.heroes.items() if s == to]
        if prey:
            self.caught.extend(prey)
            self.steps_left = 0
            for h in prey:
                # kind "knockout" with hero/by: the simulation lab counts these (architecture.md)
                events.append(Event("knockout", f"The troll moves to {grid.name(to)} and "
                                    f"catches {self.content.heroes[h].name}", S_END,
                                    {"hero": h, "by": "troll", "by_type": "troll"}))
        else:
            events.append(Event("troll", f"The troll moves to {grid.name(to)}, toward the "
                                "closest hero", S_TROLL, {"to": grid.name(to)}))

    def _end_round(self, events: list[Event]) -> None:
        if self.caught:
            return
        self.round += 1
        self.turn = 0
        events.append(Event("round", f"Round {self.round} begins", S_TURN, {"round": self.round}))

    # ------------------------------------------------------------ for people and bots
    def _describe(self, text: str) -> tuple[str, tuple[Target, ...]]:
        if text.startswith("troll to "):
            at = text[9:]
            return f"The troll steps to {at}", (Target("square", at),)
        hero = self._current()
        name = self.content.heroes[hero].name if hero else ""
        if text.startswith("move "):
            at = text[5:]
            end = " (the exit)" if self.terrain(grid.sq(at)) == "X" else ""
            return f"{name} moves to {at}{end}", (Target("square", at),)
        if text == "attack troll":
            return (f"{name} attacks the troll: 5+ stuns it",
                    (Target("figure", "troll", "5+"),))
        return f"{name} waits", ()

    def measures(self) -> dict[str, Any]:
        sc = self.content.scenarios[self.setup["scenario"]]
        out: dict[str, Any] = {"rounds": min(self.round, sc.rounds),
                               "escaped": len(self.escaped)}
        o = self.outcome()
        if o.result == "loss":
            out["trigger"] = "caught" if self.caught else "time_out"
            out["final_blow"] = "troll" if self.caught else "time"
            out["margin_heroes_left"] = len(self.heroes) + len(self.caught)
        return out

    def render(self) -> str:
        """The map with heroes (first letter) and the troll (T, t when stunned)."""
        marks = {s: h[0].upper() for h, s in self.heroes.items()}
        marks[self.troll] = "t" if self.stunned else "T"
        head = "   " + "".join(grid.col_name(x) for x in range(self.width))
        lines = [head]
        for y, row in enumerate(self.rows):
            cells = "".join(marks.get((x, y), ch) for x, ch in enumerate(row))
            lines.append(f"{y + 1:>2} {cells}")
        sc = self.content.scenarios[self.setup["scenario"]]
        lines.append(f"Round {self.round} of {sc.rounds} · wind deck {len(self.wind)} cards, "
                     f"discard: {', '.join(self.wind.discard) or 'none'}")
        lines.append("Legend: . floor  # wall  X exit  T troll  A/B heroes")
        return "\n".join(lines)

    def view(self, seat: str | None = None) -> dict[str, Any]:
        return {
            "game": ID, "round": self.round, "map": list(self.rows),
            "rounds": self.content.scenarios[self.setup["scenario"]].rounds,
            "heroes": {h: grid.name(s) for h, s in self.heroes.items()},
            "escaped": list(self.escaped), "caught": list(self.caught),
            "troll": {"at": grid.name(self.troll), "stunned": self.stunned},
            "wind": self.wind.public(),
            "visible_to": {h: self.sees(s, self.troll) for h, s in self.heroes.items()},
            "outcome": self.outcome().to_json(),
        }

    def _dump(self) -> dict[str, Any]:
        return {
            "map": list(self.rows),
            "legend": {".": "floor", "#": "wall", "X": "exit"},
            "heroes": {h: grid.name(s) for h, s in self.heroes.items()},
            "escaped": list(self.escaped), "caught": list(self.caught),
            "troll": {"at": grid.name(self.troll), "stunned": self.stunned,
                      "steps_left": self.steps_left},
            "round": self.round, "turn": self.turn,
            "wind": self.wind.to_json(),
        }

    def _load(self, p: dict[str, Any]) -> None:
        """Fill the state from a position, refusing anything the rules cannot produce."""
        pos = validate(ToyPosition, p, "")
        sc = self.content.scenarios[self.setup["scenario"]]
        rows = list(pos.map) if pos.map is not None else self.rows
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise ContentError("", "map", "every row must have the same width")
        if any(ch not in ".#X" for r in rows for ch in r):
            raise ContentError("", "map", "squares are . (floor), # (wall) or X (exit)")
        self.rows = rows

        def square(field: str, text: str) -> grid.Sq:
            try:
                at = grid.sq(text)
            except ValueError as e:
                raise ContentError("", field, str(e)) from None
            if not grid.in_bounds(at, self.width, self.height):
                raise ContentError("", field, f"{text} is off the map [{S_TURN}]")
            if self.terrain(at) == "#":
                raise ContentError("", field, f"{text} is a wall: figures stand on floor "
                                   f"or exit squares [{S_TURN}]")
            return at

        self.heroes = {h: square(f"heroes.{h}", at) for h, at in pos.heroes.items()}
        self.escaped, self.caught = list(pos.escaped), list(pos.caught)
        party = list(self.setup["heroes"])
        named = [*self.heroes, *self.escaped]
        if sorted(named) != sorted(party):
            raise ContentError("", "heroes", f"the setup's heroes ({', '.join(party)}) must "
                               "each be on the map or escaped, exactly once")
        if not set(self.caught) <= set(self.heroes):
            raise ContentError("", "caught", "a caught hero stays on the map, where the troll "
                               f"caught them [{S_END}]")
        if len(set(self.heroes.values())) != len(self.heroes):
            raise ContentError("", "heroes", f"two heroes on one square [{S_TURN}]")
        self.troll = square("troll.at", pos.troll.at)
        self.stunned = pos.troll.stunned
        self.steps_left = pos.troll.steps_left
        if self.steps_left > max(STEPS.values()):
            raise ContentError("", "troll.steps_left", f"at most {max(STEPS.values())} "
                               f"(the strongest wind card) [{S_WIND}]")
        self.round, self.turn = pos.round, pos.turn
        if not 1 <= self.round <= sc.rounds + 1:
            raise ContentError("", "round", f"from 1 to {sc.rounds + 1} [{S_END}]")
        if not 0 <= self.turn <= len(party):
            raise ContentError("", "turn", f"from 0 to {len(party)} (the troll)")
        if pos.wind is not None:
            wind = Deck.from_json(pos.wind)
            cards = sorted([*wind.pile, *wind.top, *wind.bottom, *wind.discard])
            if cards != sorted(self.content.wind_deck):
                raise ContentError("", "wind", "the wind deck must hold exactly the printed "
                                   f"cards ({', '.join(self.content.wind_deck)}) [{S_WIND}]")
            self.wind = wind
        if not self._outcome().over and not self._decision_possible():
            raise ContentError("", "turn", "no hero is left to act and the troll has no step "
                               "to take")

    def _decision_possible(self) -> bool:
        return bool(self.steps_left) or self._current() is not None


class ToyTroll(ContentModel):
    at: str
    stunned: bool = False
    steps_left: int = Field(0, ge=0)


class ToyPosition(ContentModel):
    """The toy's position (docs/formats/toy.md): every field typed, unknown keys refused."""

    map: list[str] | None = None
    legend: dict[str, str] = Field(default_factory=dict)
    heroes: dict[str, str]
    escaped: list[str] = Field(default_factory=list)
    caught: list[str] = Field(default_factory=list)
    troll: ToyTroll
    round: int = 1
    turn: int = Field(0, ge=0)
    wind: dict[str, Any] | None = None


class ToyGame(Game):
    id = ID
    title = "Troll Chase (meadhall's demonstration game)"
    state_cls = ToyState

    content: ToyContent

    def load_content(self) -> ToyContent:
        return load(ToyContent, CONTENT)

    def scenarios(self) -> list[Info]:
        return [Info(k, v.name, "authored") for k, v in self.content.scenarios.items()]

    def heroes(self) -> list[Info]:
        return [Info(k, v.name, "authored") for k, v in self.content.heroes.items()]

    def default_setup(self) -> dict[str, Any]:
        return {"scenario": "chase", "heroes": ["ada"]}

    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> ToyState:
        s = validate(Setup, setup, "setup")
        check_choice("scenario", s.scenario, self.content.scenarios, "scenario")
        check_choices("heroes", s.heroes, self.content.heroes, "hero")
        return ToyState(self.content, s.model_dump(), seed, chance, auto_choices)

    def content_models(self) -> dict[str, type[Any]]:
        return {"toy.json": ToyContent}

    def draw(self, view: Mapping[str, Any]) -> draw.Scene:
        """The map, the heroes, the troll and the round track, from a seat's view."""
        legend = [draw.Terrain(".", "Floor", "stone"),
                  draw.Terrain("#", "Wall", "rock", "hatch"),
                  draw.Terrain("X", "Exit", "gold", "", "X")]
        rows = view["map"]
        cells = [draw.Cell(f"{grid.col_name(x)}{y + 1}", x, y, ch, "exit" if ch == "X" else "")
                 for y, row in enumerate(rows) for x, ch in enumerate(row)]
        tokens = [draw.Token(h, self.content.heroes[h].name, self.content.heroes[h].name[:1],
                             "hero", at, target=f"figure:{h}") for h, at in view["heroes"].items()]
        troll = view["troll"]
        tokens.append(draw.Token("troll", "The troll", "T", "enemy", troll["at"],
                                 target="figure:troll",
                                 badges=["stunned"] if troll["stunned"] else [],
                                 stats={"moves": "the wind card's steps", "stunned by": "5+"}))
        board = draw.SquareGrid("map", len(rows[0]), len(rows), cells, tokens=tokens,
                                legend=legend)
        n = view["rounds"]
        track = draw.Track("round", "Round", [draw.Space(str(i), str(i)) for i in range(1, n + 1)],
                           value=min(view["round"], n) - 1)
        wind = view["wind"]
        cards = [draw.Card("wind", "Wind deck", words.plural(wind.get('size', 0), "card"), "deck",
                           face_down=True)]
        return draw.Scene(self.title, [board], [track], cards=cards)

    def evaluate(self, state: GameState) -> float:
        """Escaped heroes count most; otherwise the closer to the exit, and the farther from
        the troll, the better."""
        o = state.outcome()
        if o.over:
            return 1.0 if o.result == "win" else 0.0
        assert isinstance(state, ToyState)
        total = len(state.setup["heroes"])
        score = len(state.escaped) / total
        exits = [(x, y) for y, row in enumerate(state.rows) for x, ch in enumerate(row)
                 if ch == "X"]
        for at in state.heroes.values():
            to_exit = min(grid.manhattan(at, e) for e in exits) if exits else 0
            from_troll = grid.manhattan(at, state.troll)
            score += (0.5 / (1 + to_exit) + 0.1 * min(from_troll, 5) / 5) / total
        return max(0.01, min(0.99, score))

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Moves to every square of the scenario's map, the troll's steps, attack, wait."""
        sc = self.content.scenarios[self.normalise_setup(setup)["scenario"]]
        squares = [f"{grid.col_name(x)}{y + 1}" for y, row in enumerate(sc.map)
                   for x, ch in enumerate(row) if ch != "#"]
        return ([f"move {s}" for s in squares] + [f"troll to {s}" for s in squares]
                + ["attack troll", "wait"])


GAME = ToyGame()
