"""Every game as an OpenSpiel game: ``python_meadhall_<game>``, players = seats.

>>> import pyspiel
>>> import meadhall.adapters.openspiel  # registers every game, like OpenSpiel's Python games
>>> game = pyspiel.load_game("python_meadhall_toy", {"heroes": "ada+bo", "max_steps": 40})
>>> game.num_players(), game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
(2, True)

The game runs in table mode, so every roll or draw is an explicit chance node whose outcomes are
the possible results with their probabilities (``ChanceRequest.odds()``); chance outcome ``i`` is
the request's ``i``-th result. Player actions are the vocabulary's indices. Every seat gets the
party's result (+1 won, -1 lost, 0 when ``max_steps`` decisions cut the game). The parameters
are the game's setup keys (lists written ``a+b``), ``max_steps`` and ``choices_by``;
docs/adapters.md describes them, the tensors and the strings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from meadhall import games
from meadhall.adapters import missing
from meadhall.adapters.observation import Encoder, Layout, layout_of, text_view
from meadhall.adapters.table import Table, TableError
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.core.protocol import CHANCE, RESULT, Game, GameState
from meadhall.core.rng import Rng

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("open_spiel", e) from None

PREFIX = "python_meadhall_"
DEFAULT_MAX_STEPS = 2000
"""Player decisions after which a game is cut (terminal, every return 0)."""
MAX_CHANCE_OUTCOMES = 128
"""Declared bound on the results of one roll or draw; a request with more fails loudly."""
LIST_SEPARATOR = "+"
"""Joins list-valued setup keys in a parameter (``heroes=ada+bo``): OpenSpiel game strings keep
commas and parentheses for themselves."""
FIRST_SEAT = "first"
"""``choices_by`` value: the first seat answers the players' choices (the default)."""

_TYPES: dict[str, Any] = {}
_CREATORS: dict[str, type[MeadhallSpielGame]] = {}


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a meadhall game."""
    return PREFIX + game_id


def _parameter(value: Any) -> Any:
    if isinstance(value, str) and value.isdecimal():
        # OpenSpiel reads "scenario=1" in a game string as the integer 1 and refuses it for a
        # text parameter, so text that is a number is declared (and given) as a number.
        return int(value)
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return LIST_SEPARATOR.join(str(v) for v in value)
    raise TableError(f"setup value {value!r} cannot be an OpenSpiel parameter")


def _setup(game: Game, params: dict[str, Any]) -> dict[str, Any]:
    """The meadhall setup written by OpenSpiel parameters (the game's default setup's keys)."""
    setup: dict[str, Any] = {}
    for key, default in game.default_setup().items():
        if key not in params:
            continue
        value = params[key]
        if isinstance(default, list | tuple):
            kind = type(default[0]) if default else str
            parts = [p for p in str(value).split(LIST_SEPARATOR) if p]
            setup[key] = [kind(p) for p in parts]
        elif isinstance(default, bool):
            setup[key] = bool(value)
        elif isinstance(default, int | float | str):
            # "scenario=1" arrives as the integer 1: the setup wants the text.
            setup[key] = type(default)(value)
        else:
            setup[key] = value
    return setup


def _hides_information(game: Game) -> bool:
    """Whether a game hides anything from some seat: it resamples stored hidden information
    (``_determinize``), or seats' views of a new game differ."""
    if game.state_cls._determinize is not GameState._determinize:
        return True
    state = game.new_game(None, 0)
    views = [json.dumps(state.view(s), sort_keys=True) for s in state.seats()]
    return len(set(views)) > 1


SHIPPED_FACTS = Path(__file__).resolve().parent / "layouts" / "openspiel.json"
"""What OpenSpiel's registration needs of every game (:func:`type_facts`), shipped so that
importing this module imports no game: ``python -m meadhall.adapters.layouts`` writes it and a
test checks it against the games as installed."""


def type_facts(game_id: str) -> dict[str, Any]:
    """What a game's ``pyspiel.GameType`` is made of: its title, whether it hides
    information, its most heroes and its default setup (computed from the game)."""
    game = games.get(game_id)
    return {"title": game.title, "imperfect": _hides_information(game),
            "max_players": max(len(game.heroes()), 1), "setup": game.default_setup()}


@cache
def _shipped_facts() -> dict[str, Any]:
    try:
        return json.loads(SHIPPED_FACTS.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {}


def game_type(game_id: str) -> Any:
    """The ``pyspiel.GameType`` of a meadhall game (built once, from the shipped facts when
    they list the game, else from the game itself)."""
    if game_id in _TYPES:
        return _TYPES[game_id]
    facts = _shipped_facts().get(game_id) or type_facts(game_id)
    params: dict[str, Any] = {k: _parameter(v) for k, v in facts["setup"].items()}
    params["max_steps"] = DEFAULT_MAX_STEPS
    params["choices_by"] = FIRST_SEAT
    info = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts["imperfect"]
            else pyspiel.GameType.Information.PERFECT_INFORMATION)
    _TYPES[game_id] = pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"meadhall: {facts['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info,
        utility=pyspiel.GameType.Utility.IDENTICAL,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts["max_players"],
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )
    return _TYPES[game_id]


class MeadhallSpielGame(pyspiel.Game):
    """A meadhall game and setup as an OpenSpiel game."""

    game_id: str = ""
    """Set by :func:`register` on the subclass it makes for each game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_id = self.game_id
        game = games.get(game_id)
        kind = game_type(game_id)
        full = {**kind.parameter_specification, **params}
        max_steps = int(full["max_steps"])
        if max_steps < 1:
            raise TableError(f"max_steps must be a positive number of decisions, not {max_steps}")
        choices = str(full["choices_by"])
        self.table = Table.of(game, _setup(game, full),
                              None if choices == FIRST_SEAT else choices)
        self.vocabulary = Vocabulary.of(game, self.table.setup)
        self.layout: Layout = layout_of(self.table)
        self.encoder = Encoder(self.table, self.layout)
        self.max_steps = max_steps
        self.initial = self.table.new_state(0, chance="table")
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.vocabulary),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=len(self.table.seats),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_steps,
        )
        super().__init__(kind, info, params)

    def new_initial_state(self) -> MeadhallSpielState:
        """The game after setup (any setup rolls are its first chance nodes)."""
        return MeadhallSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> MeadhallObserver:
        """An observer of a seat's view: the information state (``perfect_recall``) or the
        observation."""
        return MeadhallObserver(self, iig_obs_type, params)


class PlayerAction(NamedTuple):
    """One step of ``full_history()``: who took it (``-1`` chance) and the action."""

    player: int
    action: int


CHECKPOINT_EVERY = 16
"""Applied actions between the copies that undo replays from (undo replays at most this many)."""


class _Held:
    """A meadhall state inside an OpenSpiel state, with what undoing needs: every action and
    chance result applied since the start (as the engine's log texts) and, every
    ``CHECKPOINT_EVERY`` of them, a copy of the state before it. OpenSpiel clones a Python
    state by deep-copying its attributes and serialises it by pickling them: both go through
    the protocol's cheap clone and lossless save instead of copying the shared content."""

    __slots__ = ("state", "owned", "done", "history", "players", "checkpoints")

    def __init__(self, state: GameState, owned: bool, done: list[tuple[str, bool]] | None = None,
                 history: list[int] | None = None, players: list[int] | None = None,
                 checkpoints: list[tuple[int, GameState]] | None = None) -> None:
        self.state = state
        self.owned = owned
        self.done: list[tuple[str, bool]] = done if done is not None else []
        """Each step applied: its text and whether a player (not chance) took it."""
        self.history: list[int] = history if history is not None else []
        """The OpenSpiel actions applied (player actions and chance outcomes)."""
        self.players: list[int] = players if players is not None else []
        """Who took each of them (``pyspiel.PlayerId.CHANCE`` for chance)."""
        self.checkpoints: list[tuple[int, GameState]] = (
            checkpoints if checkpoints is not None else [])
        """(number of steps done, a never-mutated copy of the state before the next)."""

    def mine(self) -> GameState:
        """The state, copied first if it is still shared (a new game's initial state)."""
        if not self.owned:
            self.state = self.state.clone()
            self.owned = True
        return self.state

    def record(self, text: str, player: int, action: int) -> None:
        """Before applying ``text``: remember it (and every so often the state before it)."""
        n = len(self.done)
        if n % CHECKPOINT_EVERY == 0 and not (self.checkpoints and self.checkpoints[-1][0] == n):
            self.checkpoints = [*self.checkpoints, (n, self.state.clone())]
        self.done = [*self.done, (text, player != pyspiel.PlayerId.CHANCE)]
        self.history = [*self.history, action]
        self.players = [*self.players, player]

    def forget(self) -> None:
        """Drop what :meth:`record` remembered (the step failed and changed nothing)."""
        n = len(self.done) - 1
        self.done, self.history, self.players = self.done[:n], self.history[:n], self.players[:n]

    def undo(self) -> tuple[str, bool]:
        """Take back the last step: the state rebuilt from the last copy before it, the steps
        after that copy replayed (chance results included, as they fell)."""
        if not self.done:
            raise ValueError("nothing to undo: the game is at its start")
        n = len(self.done) - 1
        keep = [c for c in self.checkpoints if c[0] <= n]
        if not keep:
            raise ValueError("cannot undo past the point where this state was resampled "
                             "(resample_from_infostate)")
        at, base = keep[-1]
        state = base.clone()
        for text, _ in self.done[at:n]:
            state.apply(text)
        last = self.done[n]
        self.state, self.owned = state, True
        self.done, self.history, self.players = self.done[:n], self.history[:n], self.players[:n]
        self.checkpoints = keep
        return last

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        # Lists are copied on write (record/undo build new ones), so sharing them is safe.
        return _Held(self.state.clone(), True, self.done, self.history, self.players,
                     self.checkpoints)

    def __reduce__(self) -> tuple[Callable[..., _Held], tuple[Any, ...]]:
        start = self.checkpoints[0][1].to_json() if self.checkpoints else None
        return (_thaw, (self.state.to_json(), self.done, self.history, self.players, start))


def _thaw(data: dict[str, Any], done: list[tuple[str, bool]] | None = None,
          history: list[int] | None = None, players: list[int] | None = None,
          start: dict[str, Any] | None = None) -> _Held:
    held = _Held(GameState.from_json(data), True, [(t, bool(b)) for t, b in done or []],
                 list(history or []), list(players or []))
    if start is not None:
        # Undo after a round trip replays from the start (one copy instead of many).
        held.checkpoints = [(0, GameState.from_json(start))]
    return held


class MeadhallSpielState(pyspiel.State):
    """A position of a meadhall game in OpenSpiel's terms."""

    def __init__(self, game: MeadhallSpielGame) -> None:
        super().__init__(game)
        self._held = _Held(game.initial, False)
        self._steps = 0
        self._record: list[str] = []


    # Attributes live in __dict__ only as cheap, copyable values; the game is shared.
    @property
    def _game(self) -> MeadhallSpielGame:
        return self.get_game()  # type: ignore[no-any-return]

    @property
    def meadhall_state(self) -> GameState:
        """The meadhall state (read only: apply actions through OpenSpiel)."""
        return self._held.state

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` for a roll or draw, ``TERMINAL`` when over or cut."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        decider = self._game.table.decider(self._held.state)
        if decider == CHANCE:
            return pyspiel.PlayerId.CHANCE
        assert decider is not None
        return self._game.table.seats.index(decider)

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.vocabulary.legal_ids(self._held.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each possible result of the pending roll or draw, with its probability."""
        pending = self._held.state.pending
        assert pending is not None, "not a chance node"
        odds = pending.request.odds()
        if len(odds) > MAX_CHANCE_OUTCOMES:
            raise TableError(f"{pending.request.what} has {len(odds)} results, more than the "
                             f"declared MAX_CHANCE_OUTCOMES ({MAX_CHANCE_OUTCOMES})")
        return [(i, p) for i, (_, p) in enumerate(odds)]

    def _apply_action(self, action: int) -> None:
        held = self._held
        state = held.mine()
        if state.pending is not None:
            r = state.pending.request
            if not 0 <= action < len(r.options):
                raise ValueError(f"chance outcome {action} is not a result of {r.what} "
                                 f"(0..{len(r.options) - 1})")
            text = RESULT + r.options[action]
            held.record(text, pyspiel.PlayerId.CHANCE, action)
            try:
                state.apply(text)
            except BaseException:
                held.forget()
                raise
            return
        text = self._game.vocabulary.text(action)
        held.record(text, self.current_player(), action)
        try:
            state.apply(text)
        except BaseException:
            held.forget()
            raise
        self._steps += 1
        self._record = [*self._record, text]

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action or chance outcome (``player`` and ``action`` name it),
        restoring the state exactly as it was before it, chance results included."""
        held = self._held
        if not held.history:
            raise ValueError("nothing to undo: the game is at its start")
        last_player = held.players[-1]
        if held.history[-1] != action or last_player != player:
            raise ValueError(f"the last step was action {held.history[-1]} of player "
                             f"{last_player}, not action {action} of player {player}")
        _, by_player = held.undo()
        if by_player:
            self._steps -= 1
            self._record = self._record[:-1]

    # The C++ side cannot pop its own history after an undo, so the history is kept here.
    def history(self) -> list[int]:
        """The actions and chance outcomes applied since the start (undo pops them)."""
        return list(self._held.history)

    def full_history(self) -> list[PlayerAction]:
        """Each step since the start as ``(player, action)`` (OpenSpiel's PlayerAction)."""
        return [PlayerAction(p, a)
                for p, a in zip(self._held.players, self._held.history, strict=True)]

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self._held.history)

    def move_number(self) -> int:
        return len(self._held.history)

    def is_initial_state(self) -> bool:
        return not self._held.history

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._held.state
        if player == pyspiel.PlayerId.CHANCE:
            if state.pending is not None and 0 <= action < len(state.pending.request.options):
                r = state.pending.request
                return f"{r.what}: {r.options[action]}"
            return f"result #{action}"
        return self._game.vocabulary.text(action)

    def is_terminal(self) -> bool:
        """The game is over, or ``max_steps`` decisions cut it."""
        return self._held.state.outcome().over or self._steps >= self._game.max_steps

    def returns(self) -> list[float]:
        """The party's result for every seat (0 while playing or when cut)."""
        value = self._game.table.returns(self._held.state)
        return [value] * len(self._game.table.seats)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> MeadhallSpielState:
        """A state ``player_id`` cannot tell from this one: everything hidden resampled
        (``GameState.determinize``), as OpenSpiel's ``ISMCTSBot`` asks."""
        seed = int(probability_sampler() * 2**31)
        copy = self.clone()
        held = self._held
        state = held.state.determinize(Rng(seed))
        # Undo on the copy goes back no further than this point: earlier copies of the state
        # hold the hidden information as it really was.
        copy._held = _Held(state, True, held.done, held.history, held.players,
                           [(len(held.done), state.clone())])
        return copy

    def seat(self, player: int) -> str:
        """The meadhall seat of OpenSpiel player ``player``."""
        return self._game.table.seats[player]

    def __str__(self) -> str:
        state = self._held.state
        d = state.decision()
        head = f"{d.seat}: {d.prompt}" if d else f"{state.outcome().result}: " \
            f"{state.outcome().reason}"
        cut = " (cut at max_steps)" if self._steps >= self._game.max_steps else ""
        return f"{state.render()}\n{head}{cut}"


class MeadhallObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``)
    over a seat's view: the observation layout's arrays, flat in ``tensor``."""

    def __init__(self, game: MeadhallSpielGame, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        shapes = game.layout.shapes()
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size
        self._encoder = game.encoder
        self._game = game

    def set_from(self, state: MeadhallSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (and ``dict``): encoded
        once per state and seat, however many observers and tensors ask."""
        self.tensor[...] = self._encoder.flat_view(state.meadhall_state, state.seat(player))

    def string_from(self, state: MeadhallSpielState, player: int) -> str:
        """The seat's text view; the information state adds the party's actions so far."""
        seat = state.seat(player)
        text = text_view(state.meadhall_state, seat, self._game.vocabulary, self._game.table)
        if self.perfect_recall:
            return "Actions so far: " + " | ".join(state._record) + "\n" + text
        return text


def register() -> list[str]:
    """Register every meadhall game with OpenSpiel (idempotent); returns the names. With the
    shipped facts no game is imported until it is loaded."""
    known = set(pyspiel.registered_names())
    names = []
    shipped = _shipped_facts()
    for game_id in (games.packages() if set(shipped) == set(games.packages())
                    else games.ids()):
        name = short_name(game_id)
        if name not in known:
            # OpenSpiel keeps the creator until after Python has shut down; a class (unlike a
            # function object) is never freed then, so exiting stays clean.
            creator = type(f"MeadhallSpielGame_{game_id}", (MeadhallSpielGame,),
                           {"game_id": game_id, "__module__": __name__})
            _CREATORS[game_id] = creator
            pyspiel.register_game(game_type(game_id), creator)
        names.append(name)
    return names


def load(game_id: str, **params: Any) -> MeadhallSpielGame:
    """``pyspiel.load_game`` for a meadhall game (registering the games first); list-valued
    setup keys may be given as lists."""
    register()
    clean = {k: _parameter(v) for k, v in params.items()}
    return pyspiel.load_game(short_name(game_id), clean)  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    # OpenSpiel's ISMCTS module costs a tenth of a second to import: only its users pay.
    if name != "ISMCTSBot":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from open_spiel.python.algorithms import ismcts

    class ISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's information-set MCTS bot, with the ``restart_at`` that
        ``evaluate_bots`` calls (OpenSpiel 2.0's Python ``ISMCTSBot`` lacks it, so the C++ default
        fails). The bot keeps nothing between moves (each step searches afresh), so restarting
        and being told of others' actions change nothing. It needs an imperfect-information game
        (docs/adapters.md has the table)."""

        def restart_at(self, state: pyspiel.State) -> None:
            self.reset()

        def inform_action(self, state: pyspiel.State, player: int, action: int) -> None:
            return None

    ISMCTSBot.__module__ = __name__
    globals()["ISMCTSBot"] = ISMCTSBot
    return ISMCTSBot


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's ``MCTSBot`` that scores a position with the game's own
    ``Game.evaluate`` (0..1 → -1..1 for every seat) instead of random rollouts to the end.

    Like ``MCTSBot`` itself it looks at the true state, hidden information included."""

    def __init__(self, game: MeadhallSpielGame) -> None:
        self.game = game

    def evaluate(self, state: MeadhallSpielState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        value = 2.0 * self.game.table.game.evaluate(state.meadhall_state) - 1.0
        return np.full(self.game.num_players(), value)

    def prior(self, state: MeadhallSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


register()
