"""The Game protocol: what every game implements and every bot, runner, server and CLI uses.

A game is its setup, its seed and its action log. A :class:`GameState` answers who must decide
now (:meth:`~GameState.decision`), what they may do (:meth:`~GameState.legal_actions`), and applies
one action (:meth:`~GameState.apply`), running every automated step (enemy turns, dice, spawns) up
to the next decision and returning the :class:`Event` list that explains them.

Subclasses implement the underscored hooks (``_decision``, ``_legal``, ``_apply``, ``_dump``,
``_load``, ``outcome``, ``view``); the base class supplies atomic apply, table-mode chance,
players'-choice defaults, cloning, serialisation, replay and determinization once for all games.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from meadhall.core.chance import BadForcedResult, Chance, ChanceMode, ChanceRequest, NeedChance
from meadhall.core.errors import ContentError, IllegalAction
from meadhall.core.fastcopy import _ATOMIC, fastcopy
from meadhall.core.rng import Rng

if TYPE_CHECKING:
    from meadhall.core.draw import Scene
    from meadhall.core.migrate import Retired

POSITION_FORMAT = "meadhall/position"
POSITION_VERSION = 1

PLAYERS = "players"
"""Seat of a decision the rulebook leaves to the players together (ties in enemy moves...)."""
CHANCE = "chance"
"""Seat of a decision asking the table for a random result (table mode)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with a sentence for a player and the rulebook section behind it.

    >>> str(Event("move", "Draugr 2 moves to E5: closest hero is Frida", "Movement - Undead"))
    'Draugr 2 moves to E5: closest hero is Frida — Movement - Undead'
    """

    kind: str
    text: str
    section: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.text} — {self.section}" if self.section else self.text

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "section": self.section,
                "data": dict(self.data)}


TargetKind = Literal["square", "area", "tile", "space", "figure", "card", "rondel", "track",
                     "hero", "die", "option"]
"""What a target is on the table. ``figure`` for heroes, enemies and markers on a board;
``space`` for a space of a track or of a tile; ``rondel`` for a space of a champion's rondel;
``option`` for a choice with no place on the board (a skill, a reward, keep or flip)."""


@dataclass(frozen=True, slots=True)
class Target:
    """A board thing an action involves, named as the drawing names it (``square:D5``).

    ``note`` is a short figure shown on the highlighted target: a cost (``2 MP``) or the
    number needed (``7+``).

    >>> str(Target("square", "D5", "2 MP"))
    'square:D5'
    """

    kind: TargetKind
    id: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "id": self.id, "ref": str(self), "note": self.note}


@dataclass(frozen=True, slots=True)
class Action:
    """A legal action: its stable text (the id every tool uses), and for people a readable
    ``label`` and the board ``targets`` it involves (filled by :meth:`GameState.describe`).

    Actions compare by text only. ``id`` is a CRC-32 of the text, so it never depends on which
    other actions are legal (a dense numbering per game lives in the RL adapters).

    >>> Action("move F4").id == Action("move F4", "Move to F4 (2 MP)").id
    True
    >>> Action("move F4") == Action("move F4", "Move to F4 (2 MP)")
    True
    """

    text: str
    label: str = field(default="", compare=False)
    targets: tuple[Target, ...] = field(default=(), compare=False)

    @property
    def id(self) -> int:
        return zlib.crc32(self.text.encode()) & 0x7FFFFFFF

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "label": self.label or self.text,
                "targets": [t.to_json() for t in self.targets]}


_ACTIONS: dict[str, Action] = {}
"""The plain actions ``legal_actions()`` hands out, one object per text (they are immutable):
making them costs a dictionary lookup, and ``apply`` recognises them by identity."""
_ACTIONS_MAX = 200_000


def _action(text: str) -> Action:
    if len(_ACTIONS) >= _ACTIONS_MAX:
        _ACTIONS.clear()  # an unusually wide game: start again rather than grow without end
    a = _ACTIONS[text] = Action(text)
    return a


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what now.

    ``seat`` is a hero/player id, :data:`PLAYERS` for a players' choice, or :data:`CHANCE` when
    table mode asks for a random result. ``default`` is the text of the automatic default action
    the engine offers for a players' choice (and takes itself when ``auto_choices`` is on).
    """

    seat: str
    prompt: str
    section: str | None = None
    kind: Literal["turn", "choice", "chance"] = "turn"
    default: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "prompt": self.prompt, "section": self.section,
                "kind": self.kind, "default": self.default}


@dataclass(frozen=True, slots=True)
class Outcome:
    """``win``, ``loss`` or ``ongoing``, with the reason in a sentence."""

    result: Literal["win", "loss", "ongoing"]
    reason: str = ""

    @property
    def over(self) -> bool:
        return self.result != "ongoing"

    def to_json(self) -> dict[str, str]:
        return {"result": self.result, "reason": self.reason}


ONGOING = Outcome("ongoing")


@dataclass(slots=True)
class Pending:
    """An action waiting for random results from the table (table mode)."""

    action: str
    request: ChanceRequest
    results: list[str] = field(default_factory=list)
    shown: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "request": self.request.to_json(),
                "results": list(self.results), "shown": self.shown}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pending:
        """A saved pending action; a malformed one names the field."""
        if not isinstance(d, dict):
            raise ContentError("", "pending", "must be an object or null")
        action, results, shown = d.get("action"), d.get("results", []), d.get("shown", 0)
        if not isinstance(action, str):
            raise ContentError("", "pending.action", "must be the action's text")
        if not isinstance(results, list) or not all(isinstance(r, str) for r in results):
            raise ContentError("", "pending.results", "must be a list of strings")
        if type(shown) is not int or shown < 0:
            raise ContentError("", "pending.shown", "must be a whole number ≥ 0")
        return cls(action, ChanceRequest.from_json(d.get("request")), list(results), shown)


START = "__start__"
"""Log-free pseudo action: the automated steps of setup (initial draws, first rolls)."""
RESULT = "result "
FORCE = "!force "
CONCEDE = "!concede "
"""Log entry prefix for a forced result. Game actions never start with ``!``, so a game's own
action such as ``force door`` can never be mistaken for one on replay."""


def fresh_future(data: Mapping[str, Any]) -> dict[str, Any]:
    """A save without a seed (``seed`` null, a seat's download) given a fresh one, drawn from
    the system's entropy, for the game and for its undo history's base alike (so the history
    still leads to the position); the generator then starts from that seed. Other saves are
    returned unchanged."""
    out = dict(data)
    if out.get("seed", 0) is not None:
        return out
    import secrets

    out["seed"] = secrets.randbelow(2**63)
    chance = out.get("chance")
    if isinstance(chance, dict):
        out["chance"] = {k: v for k, v in chance.items() if k != "rng"}
    hist = out.get("history")
    if isinstance(hist, dict) and isinstance(hist.get("base"), dict) \
            and hist["base"].get("seed", 0) is None:
        base = dict(hist["base"])
        base["seed"] = out["seed"]
        if isinstance(base.get("chance"), dict):
            base["chance"] = {k: v for k, v in base["chance"].items() if k != "rng"}
        out["history"] = {**hist, "base": base}
    return out


def without_future(data: Mapping[str, Any]) -> dict[str, Any]:
    """A save with its seed and generator state taken out (``seed`` null; the history's base
    likewise), so that whoever holds it cannot foresee a roll or a draw; loaded, it draws a
    future of its own (:func:`fresh_future`)."""
    out = dict(data)
    out["seed"] = None
    if isinstance(out.get("chance"), dict):
        out["chance"] = {k: v for k, v in out["chance"].items() if k != "rng"}
    hist = out.get("history")
    if isinstance(hist, dict) and isinstance(hist.get("base"), dict):
        out["history"] = {**hist, "base": without_future(
            {k: v for k, v in hist["base"].items() if k != "history"})}
    return out


SAVE_KEYS = ("history", "journal", "revision")
"""Keys only a save has (not a hand-written position): a save is checked for completeness."""


def check_complete(data: Mapping[str, Any], state: GameState, source: str) -> None:
    """Refuse a save of this version that lacks a field its game writes (``chance.rng``,
    ``position.minions.A1.damage``...): it was damaged, and a default in the field's place
    would make a different game. A hand-written position may leave fields out; a save may
    not. ``conceded`` (newer than some saves) and ``chance.rng`` (a seat's download) may be
    missing."""
    written = state.to_json()
    written.pop("conceded", None)
    written["chance"].pop("rng", None)  # a seat's download holds none (fresh_future)
    gap = _missing(data, written, "")
    if gap is not None:
        raise ContentError(source, gap[1:], "missing: every save holds it (a damaged save; "
                           "a hand-written position may leave it out)")


def _missing(given: Any, written: Any, path: str) -> str | None:
    """The first field ``written`` (a position as the game writes it) holds that ``given``
    (the loaded one) lacks, as a dotted path; None when none is missing."""
    if isinstance(written, dict) and isinstance(given, dict):
        for k, v in written.items():
            if k not in given:
                return f"{path}.{k}"
            gap = _missing(given[k], v, f"{path}.{k}")
            if gap is not None:
                return gap
    elif isinstance(written, list) and isinstance(given, list) and len(written) == len(given):
        for i, (g, w) in enumerate(zip(given, written, strict=True)):
            gap = _missing(g, w, f"{path}.{i}")
            if gap is not None:
                return gap
    return None


class GameState(ABC):
    """Base of every game's state. Mutable; :meth:`clone` before searching.

    Attributes every state has: ``content`` (immutable data, shared by clones), ``setup``
    (the game's setup dict), ``seed``, ``chance`` (the random source and its mode), ``log``
    (actions applied since setup, the replayable record), ``pending`` and ``auto_choices``.
    """

    game: ClassVar[str]
    STATE_VERSION: ClassVar[int] = 1
    _shared: ClassVar[frozenset[str]] = frozenset({"content", "setup"})

    content: Any
    setup: dict[str, Any]
    seed: int
    chance: Chance
    log: list[str]
    pending: Pending | None
    auto_choices: bool
    conceded: str | None

    _checkpoint: tuple[GameState | Game, int] | None = None
    _legal_memo: set[str] | None = None
    _scratch: bool = False
    """A search bot's look-ahead copy (``bots.base.search_copy``): thrown away after use, so
    its steps keep no undo checkpoint (an error leaves it broken, and the bot raises)."""

    def _init_base(self, content: Any, setup: dict[str, Any], seed: int,
                   chance: ChanceMode = "seeded", auto_choices: bool = False) -> None:
        self.content = content
        self.setup = setup
        self.seed = seed
        self.chance = Chance(self.game, Rng(seed), chance)
        self.log = []
        self.pending = None
        self.auto_choices = auto_choices
        self.conceded: str | None = None

    # ----------------------------------------------------------------- hooks for games
    @abstractmethod
    def _decision(self) -> Decision | None:
        """The decision now (never called while table mode waits for a result)."""

    @abstractmethod
    def _legal(self) -> list[str]:
        """Texts of every legal action for the current decision, in a deterministic order."""

    @abstractmethod
    def _apply(self, action: str, events: list[Event]) -> None:
        """Carry out a legal action and every automated step up to the next decision."""

    def _start(self, events: list[Event]) -> None:
        """Automated steps right after setup (draws, first initiative roll...); default none."""
        return None

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The human-writable position (see docs/formats.md); must be lossless."""

    @abstractmethod
    def _load(self, position: dict[str, Any]) -> None:
        """Fill this state from a position written by :meth:`_dump` or by a person."""

    @abstractmethod
    def _outcome(self) -> Outcome:
        """Win, loss or ongoing by the rules, with the reason."""

    @abstractmethod
    def view(self, seat: str | None = None) -> dict[str, Any]:
        """JSON-ready picture of the game for ``seat`` (``None``: a spectator), hidden
        information removed."""

    def repetition_text(self) -> str:
        """The position as everyone sees it, with its decision, as one canonical text (what a
        bot's memory of positions it decided in keys on, :class:`meadhall.bots.base.Repetition`).
        A game may write the very same text faster; it must be exactly this one, so that bots
        make the same choices (:mod:`meadhall.core.jsontext` helps)."""
        from meadhall.core.jsontext import ENCODE

        d = self.decision()
        return ENCODE([d.to_json() if d else None, self.view(None)])  # type: ignore[no-any-return]

    def render(self) -> str:
        """The board, tracks and status drawn as plain text for the terminal (``meadhall show``).

        Games override this with an ASCII board; the default prints the public view. Legends
        and long reference panels belong in :meth:`render_help`, printed once and on ``?``.
        """
        import json

        return json.dumps(self.view(None), indent=2)

    def render_help(self) -> str:
        """Legends and long reference panels for the terminal (symbols, a cart, a skill list);
        the terminal prints them once and whenever the player asks. Default: none."""
        return ""

    def _why_illegal(self, action: str) -> IllegalAction | None:
        """A rule-naming explanation of why ``action`` is illegal now, when the game knows one."""
        return None

    def _describe(self, text: str) -> tuple[str, tuple[Target, ...]]:
        """A readable label and the board targets of the legal action ``text`` (called only
        for legal actions, by :meth:`describe`). Games override this; the default labels an
        action with its text and names no target."""
        return text, ()

    def seats(self) -> list[str]:
        """The people's seats at this table, in setup order: by default one per hero of the
        setup. Games where players control several heroes (or assign heroes during play)
        override this and :meth:`seat_of`."""
        return [str(h) for h in self.setup.get("heroes", [])]

    def seat_of(self, decision_seat: str) -> str:
        """The people's seat that answers a decision of ``decision_seat`` (a hero id);
        :data:`PLAYERS` and :data:`CHANCE` decisions are answered by any seat."""
        return decision_seat

    def measures(self) -> dict[str, Any]:
        """What a designer measures about this game so far, for the simulation lab.

        Flat, JSON-ready values. Every game reports ``rounds`` (rounds or turns begun); once
        the game is lost, ``trigger`` (a stable key for the end condition that fired, such as
        ``hero_killed`` or ``time_out``) and ``final_blow`` (the enemy type or event that
        dealt it, or ``None``); and margins named ``margin_<what>`` (how close the party came:
        objectives done, enemies left, rounds short). Games add their own (``gate_hp``...).
        The default reports nothing game-specific.
        """
        return {}

    def _determinize(self, rng: Rng) -> None:
        """Resample hidden information the game stores explicitly (the generator is reseeded
        by the base class). Default: nothing else is hidden."""
        return None

    # ----------------------------------------------------------------- the protocol
    def outcome(self) -> Outcome:
        """Win, loss or ongoing, with the reason (a conceded game is lost)."""
        if self.conceded is not None:
            return Outcome("loss", self.conceded)
        return self._outcome()

    def concede(self, reason: str = "") -> None:
        """The players give up the game (a scenario they cannot win, a campaign they end): it
        is lost from now on. Recorded in the log, so a replay concedes too. Never a legal
        action, so bots and random play never concede."""
        if self.outcome().over:
            raise IllegalAction(self.game, None, f"the game is over ({self.outcome().reason})")
        self.pending = None
        self.conceded = f"the players conceded{': ' + reason if reason else ''}"
        self.log.append(CONCEDE + reason)

    def decision(self) -> Decision | None:
        """Who must decide what now, or ``None`` when the game is over."""
        if self.pending is not None:
            r = self.pending.request
            return Decision(CHANCE, f"Enter the result: {r.what}", r.section, "chance")
        if self.outcome().over:
            return None
        return self._decision()

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current decision (empty when the game is over).

        The returned Action objects are remembered until the state next changes, so that
        applying one of them does not compute the rules twice (see :meth:`apply`).
        """
        if self.pending is not None:
            return [Action(RESULT + o) for o in self.pending.request.options]
        if self.outcome().over:
            return []
        texts = self._legal()
        get = _ACTIONS.get
        acts = [get(t) or _action(t) for t in texts]
        self._legal_memo = set(texts)
        return acts

    def describe(self, action: Action | str) -> Action:
        """The legal action ``action`` with its readable label and board targets.

        >>> from meadhall import games
        >>> s = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada"]}, seed=7)
        >>> s.describe("wait").label
        'Ada waits'
        """
        text = action.text if isinstance(action, Action) else str(action)
        if text.startswith(RESULT):
            value = text[len(RESULT):]
            what = self.pending.request.what if self.pending else "the result"
            return Action(text, f"{what}: {value}", (Target("die", value),))
        label, targets = self._describe(text)
        return Action(text, label or text, tuple(targets))

    def described_actions(self) -> list[Action]:
        """:meth:`legal_actions` with labels and targets (for the browser table and people)."""
        return [self.describe(a) for a in self.legal_actions()]

    def apply(self, action: Action | str) -> list[Event]:
        """Apply one action and every automated step after it; returns the events.

        Raises :class:`IllegalAction` (naming the rule where the game knows it) and leaves the
        state exactly as it was.

        Fast path for bots: pass an :class:`Action` object from the list
        :meth:`legal_actions` just returned for this state, unchanged since; it is then not
        checked against the rules a second time. A state edited by hand (tests) should be
        given texts, which are always checked.
        """
        text = action.text if isinstance(action, Action) else " ".join(str(action).split())
        if text.startswith(FORCE):
            raise IllegalAction(self.game, None, "forced results are queued with force(), "
                                "not applied as actions")
        if not text:
            raise IllegalAction(self.game, None, f"an empty action: choose one of the legal "
                                f"actions ({self._prompt_hint()})")
        if self.pending is not None:
            return self._enter_result(text)
        if self.outcome().over:
            raise IllegalAction(self.game, None, f"the game is over ({self.outcome().reason})")
        # The fast path: an Action object from the list legal_actions() just returned is known
        # to be legal (bots pass those objects). Anything else, such as a text typed by a
        # person or a test that edited the state by hand, is checked against the rules again.
        memo = self.__dict__.pop("_legal_memo", None)
        if not (memo is not None and action.__class__ is Action
                and _ACTIONS.get(text) is action and text in memo):
            legal = self._legal()
            if text not in legal:
                # A script written against a retired text still works (core.migrate).
                from meadhall import games

                now = next((t for t in games.get(self.game).retired.candidates(text)
                            if t in legal), None)
                if now is None:
                    raise self._why_illegal(text) or IllegalAction(
                        self.game, None, f"{text!r} is not a legal action now "
                        f"({self._prompt_hint()})")
                text = now
        return self._run_atomic(text, [])

    def take_default(self) -> list[Event] | None:
        """Take the automatic default of the players' choice now, as ``auto_choices`` would
        (the engine offers it, so it is not checked against the rules again); ``None`` when
        no players' choice with a default is open (or table mode waits for a result)."""
        if self.pending is not None:
            return None
        d = self.decision()
        if d is None or d.seat != PLAYERS or d.default is None:
            return None
        return self._run_atomic(d.default, [])

    def at_question(self) -> Self | None:
        """While table mode waits for a result: a copy of the game as the automated steps left
        it when the question was asked (what the table shows then: enemies already moved, the
        round already changed). ``None`` when nothing is asked. The state itself stays before
        the action, which is replayed once the result is entered."""
        p = self.pending
        if p is None:
            return None
        copy = self.clone()
        copy.pending = None
        copy.chance.queue[:0] = list(p.results)
        try:
            copy._run(p.action, [])
        except NeedChance:
            return copy
        return None  # the step completed without asking (cannot happen for a real question)

    def force(self, *results: object) -> None:
        """Queue random results for the next rolls/draws (tests; a player's own dice).

        The results are recorded in the log so a replay forces them again.
        """
        self._legal_memo = None
        for r in results:
            self.log.append(FORCE + str(r))
        self.chance.force(*results)

    def clone(self) -> Self:
        """An independent copy; content is shared, never copied.

        The undo checkpoint (an immutable earlier copy, see :meth:`_run_atomic`) is shared too.
        The remembered legal list (a set never changed in place) is carried over only by a
        searching bot's scratch copies, which nobody edits by hand: the copy of an unchanged
        position has the same legal actions.
        """
        new = object.__new__(type(self))
        d = new.__dict__
        shared = self._shared
        atomic = _ATOMIC
        for k, v in self.__dict__.items():
            if v.__class__ in atomic or k in shared or k == "_checkpoint":
                d[k] = v
            elif k == "log":
                d[k] = list(v)
            elif k != "_legal_memo":
                d[k] = fastcopy(v)
            elif self._scratch:
                d[k] = v
        return new

    def determinize(self, rng: Rng) -> Self:
        """A copy in which everything this state's players cannot see is resampled. It keeps
        the remembered legal actions: they cannot depend on what is resampled, since the
        players see them and see nothing hidden."""
        c = self.clone()
        c.chance.rng = rng.split()
        c._determinize(rng)
        c._checkpoint = None  # replaying the log would not give the resampled state
        c._legal_memo = self._legal_memo
        return c

    def to_json(self) -> dict[str, Any]:
        """The full, versioned, lossless save: setup, seed, chance, log and position."""
        return {
            "format": POSITION_FORMAT,
            "version": POSITION_VERSION,
            "game": self.game,
            "state_version": self.STATE_VERSION,
            "setup": fastcopy(self.setup),  # a copy: the live setup is shared by clones
            "seed": self.seed,
            "chance": self.chance.to_json(),
            "auto_choices": self.auto_choices,
            "log": list(self.log),
            "pending": self.pending.to_json() if self.pending else None,
            "conceded": self.conceded,
            "position": self._dump(),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], source: str = "<position>") -> GameState:
        """Load any game's save or position; the ``game`` key picks the game from the registry."""
        from meadhall import games

        game_id = data.get("game")
        if not isinstance(game_id, str):
            raise ContentError(source, "game", "missing: which game is this position for?")
        try:
            game = games.get(game_id)
        except games.UnknownGame as e:
            raise ContentError(source, "game", str(e)) from None
        return game.from_json(data, source)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[union-attr]

    def __getstate__(self) -> dict[str, Any]:
        # Pickled states (sent to worker processes) leave their undo checkpoint and the
        # remembered legal list behind; a checkpoint is made again when needed.
        return {k: v for k, v in self.__dict__.items()
                if k not in ("_checkpoint", "_legal_memo")}

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- machinery
    def _prompt_hint(self) -> str:
        d = self._decision()
        return f"now: {d.prompt}" if d else "nothing to decide"

    def _run(self, text: str, events: list[Event]) -> None:
        if text == START:
            self._start(events)
        else:
            self._apply(text, events)
        # Players' choices with auto_choices on take their default at once.
        for _ in range(10_000):
            if not self.auto_choices or self.outcome().over:
                return
            d = self._decision()
            if d is None or d.seat != PLAYERS or d.default is None:
                return
            self._apply(d.default, events)
        raise RuntimeError("auto_choices did not reach a decision after 10000 defaults")

    CHECKPOINT_EVERY: ClassVar[int] = 32
    """Steps between the undo checkpoints of seeded play (see :meth:`_run_atomic`)."""

    def _undo_failed_step(self) -> None:
        """Put the state back as it was before the failed step: the last checkpoint, replayed
        up to the current log (every entry after it applied cleanly once, and play is
        deterministic, so replaying gives the identical state). A game that began with
        ``new_game`` needs no checkpoint copy: it is replayed from its setup and seed."""
        base, mark = self._checkpoint  # type: ignore[misc]
        log = self.log
        if isinstance(base, Game):
            self.__dict__ = base.replay(self.setup, self.seed, log, self.chance.mode,
                                        self.auto_choices).__dict__
            return
        state = base.clone()
        for entry in log[mark:]:
            if entry.startswith(FORCE):
                state.force(entry[len(FORCE):])
            elif entry.startswith(CONCEDE.strip()):
                state.concede(entry[len(CONCEDE):])
            else:
                state._legal_memo = None
                state._run_atomic(entry, [])
        self.__dict__ = state.__dict__

    def _run_atomic(self, text: str, results: list[str], shown: int = 0) -> list[Event]:
        """Run one action and its automated steps; on any error the state is put back.

        Seeded play takes no snapshot per step: a game begun with ``new_game`` is rebuilt on
        an error by replaying its setup, seed and log; a loaded or determinized state keeps a
        checkpoint copy every :attr:`CHECKPOINT_EVERY` steps and replays the log from it. Table mode (and a pending result) snapshots every step, because an
        unknown die result interrupts the action and it must be replayed from its start.
        """
        self._legal_memo = None
        if results or self.chance.mode == "table" or self.chance.queue:
            return self._run_snapshot(text, results, shown)
        if self._scratch:
            events: list[Event] = []
            self._run(text, events)
            if text != START:
                self.log.append(text)
            return events
        ck = self.__dict__.get("_checkpoint")
        if ck is None or (not isinstance(ck[0], Game) and (
                len(self.log) - ck[1] >= self.CHECKPOINT_EVERY or ck[1] > len(self.log))):
            self._checkpoint = None
            self._checkpoint = (self.clone(), len(self.log))
        events = []
        try:
            self._run(text, events)
        except BaseException:
            if text != START:
                self._undo_failed_step()
            raise
        if text != START:
            self.log.append(text)
        return events

    def _run_snapshot(self, text: str, results: list[str], shown: int = 0) -> list[Event]:
        snapshot = self.clone()
        events: list[Event] = []
        self.chance.queue[:0] = results
        try:
            self._run(text, events)
        except NeedChance as need:
            self.__dict__ = snapshot.__dict__
            self.pending = Pending(text, need.request, list(results), len(events))
            return events[shown:]
        except BadForcedResult:
            self.__dict__ = snapshot.__dict__
            self._drop_forced()
            raise
        except BaseException:
            self.__dict__ = snapshot.__dict__
            raise
        if text != START:
            self.log.append(text)
        return events[shown:]

    def _drop_forced(self) -> None:
        """Drop the first queued forced result, which the step just refused, and its log
        entry (queued results are the last ``len(queue)`` force entries of the log), so that
        neither play nor a replay trips over it again."""
        queue = self.chance.queue
        if not queue:
            return
        queue.pop(0)
        seen = 0
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].startswith(FORCE):
                seen += 1
                if seen == len(queue) + 1:
                    del self.log[i]
                    return

    def _enter_result(self, text: str) -> list[Event]:
        assert self.pending is not None
        p = self.pending
        if not text.startswith(RESULT) or text[len(RESULT):] not in p.request.options:
            raise IllegalAction(self.game, p.request.section,
                                f"{text!r} is not a possible result of {p.request.what}; "
                                f"enter one of: {', '.join(p.request.options)}")
        result = text[len(RESULT):]
        self.pending = None
        log_len = len(self.log)
        try:
            events = self._run_snapshot(p.action, [*p.results, result], p.shown)
        except BaseException:
            self.pending = p
            raise
        if self.pending is None:
            # Completed: record the results after the action so a replay can re-enter them.
            done = self.log[log_len:]
            self.log[log_len:] = [*done, *(RESULT + r for r in [*p.results, result])]
        return events


@dataclass(frozen=True, slots=True)
class Info:
    """A scenario, chapter or hero a game offers, for listings."""

    id: str
    name: str
    note: str = ""


class Game(ABC):
    """One game as the registry offers it: builds states and lists what can be played."""

    id: ClassVar[str]
    title: ClassVar[str]
    state_cls: ClassVar[type[GameState]]

    @abstractmethod
    def load_content(self) -> Any:
        """Read and validate this game's content files; called once, then shared by every state."""

    @property
    def content(self) -> Any:
        """The game's content, loaded on first use (listing games stays cheap)."""
        cached = self.__dict__.get("_content")
        if cached is None:
            cached = self.__dict__["_content"] = self.load_content()
        return cached

    @abstractmethod
    def scenarios(self) -> list[Info]:
        """Scenarios (or chapters, adventures) that can be set up."""

    @abstractmethod
    def heroes(self) -> list[Info]:
        """Heroes, characters or champions that can be chosen."""

    @abstractmethod
    def default_setup(self) -> dict[str, Any]:
        """A complete, playable setup for newcomers."""

    @abstractmethod
    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> GameState:
        """A state with content loaded for ``setup`` and the position built from the setup,
        before any automated setup step runs. Raises :class:`ContentError` on a bad setup."""

    def content_models(self) -> dict[str, type[Any]]:
        """Schemas of this game's data files: ``{file-name pattern: pydantic model}``.

        ``meadhall validate`` picks the model whose pattern (fnmatch, on the file name) matches;
        ``meadhall schema`` exports each model's JSON Schema.
        """
        return {}

    def draw(self, view: Mapping[str, Any]) -> Scene:
        """The table as the drawing vocabulary (:mod:`meadhall.core.draw`), built from a seat's
        ``view`` only, so that nothing hidden can be drawn. Games override this; the default
        shows the view as notes."""
        import json

        from meadhall.core.draw import Scene

        return Scene(self.title, notes=[json.dumps(dict(view), sort_keys=True)])

    def evaluate(self, state: GameState) -> float:
        """The party's prospects in ``state``, from 0 (lost) to 1 (won), for the bots.

        Bots call it on determinized states, so it may read the whole state. Games override
        it with what their rulebook makes matter (objectives, health, time left); the default
        knows only the outcome.
        """
        o = state.outcome()
        return 1.0 if o.result == "win" else 0.0 if o.result == "loss" else 0.5

    def health(self, state: GameState) -> dict[str, float]:
        """Each hero's health now (by hero id, in the game's own units: wounds left, HP,
        Health) and under ``"enemies"`` the enemies' total, for the lab's damage dealt and
        taken per seat. Default: nothing (the lab then reports no damage)."""
        return {}

    def order_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """Legal actions, most promising first (a hint for search bots); default unchanged."""
        return actions

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Every action text a game with this setup can ever offer, in a fixed order (the dense
        action numbering of the RL adapters). New actions are only ever appended."""
        raise NotImplementedError(f"{self.id}: no action vocabulary")

    def check_content(self, path: str, model: Any) -> None:
        """Checks beyond a content file's schema that the game makes when it loads the file
        (references to other content files, squares that must be open...), on ``model``, the
        validated file read from ``path``. Raises :class:`ContentError` naming file, field and
        reason; ``meadhall validate`` calls it, so that whatever the game refuses on load,
        validation refuses with the same message. Default: nothing beyond the schema."""
        return None

    @property
    def retired(self) -> Retired:
        """This game's table of retired action texts (``retired.json`` beside its package,
        see :mod:`meadhall.core.migrate`), read on first use."""
        cached = self.__dict__.get("_retired")
        if cached is None:
            import sys
            from pathlib import Path

            from meadhall.core.migrate import Retired

            folder = Path(sys.modules[type(self).__module__].__file__ or ".").parent
            cached = self.__dict__["_retired"] = Retired.read(folder / "retired.json",
                                                              self.retired_names)
        return cached

    def retired_names(self) -> Mapping[str, str]:
        """Content ids and the names today's action texts use for them (``runic_talisman`` →
        ``Runic Talisman``), for the ``{part:name}`` templates of retired texts. Default:
        none."""
        return {}

    def migrate_action(self, text: str) -> str:
        """The current text of a logged action (itself unless it was retired)."""
        return self.retired.map(text)

    def position_model(self) -> type[Any] | None:
        """The pydantic model of this game's ``position`` object, when it has one."""
        return None

    def normalise_setup(self, setup: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults into a partial setup (``scenario``, ``heroes``...)."""
        base = self.default_setup()
        base.update(dict(setup or {}))
        return base

    def new_game(self, setup: Mapping[str, Any] | None = None, seed: int = 0,
                 chance: ChanceMode = "seeded", auto_choices: bool = False) -> GameState:
        """Set up a new game and run its automated setup steps."""
        return self.start(setup, seed, chance, auto_choices)[0]

    def start(self, setup: Mapping[str, Any] | None = None, seed: int = 0,
              chance: ChanceMode = "seeded", auto_choices: bool = False
              ) -> tuple[GameState, list[Event]]:
        """Like :meth:`new_game`, and also the events of the automated setup steps (the first
        draws and rolls), for a table that shows them."""
        state = self.blank_state(self.normalise_setup(setup), seed, chance, auto_choices)
        # Its setup and seed rebuild it: a failed step is undone by replaying the log (a
        # failure in the setup steps themselves just raises: there is no game yet).
        state._checkpoint = (self, 0)  # type: ignore[assignment]
        events = state._run_atomic(START, [])
        return state, events

    def replay(self, setup: Mapping[str, Any] | None, seed: int, log: Iterable[str],
               chance: ChanceMode = "seeded", auto_choices: bool = False) -> GameState:
        """Rebuild a state from setup, seed and action log."""
        state = self.new_game(setup, seed, chance, auto_choices)
        for entry in log:
            # A retired text is mapped by apply itself (the candidate legal here).
            if entry.startswith(FORCE):
                state.force(entry[len(FORCE):])
            elif entry.startswith(CONCEDE.strip()):
                state.concede(entry[len(CONCEDE):])
            else:
                state.apply(entry)
        return state

    def from_json(self, data: Mapping[str, Any], source: str = "<position>") -> GameState:
        """Load a save or a hand-written position (see docs/formats.md)."""
        if data.get("game") != self.id:
            raise ContentError(source, "game", f"expected {self.id!r}, found {data.get('game')!r}")
        fmt = data.get("format", POSITION_FORMAT)
        if fmt != POSITION_FORMAT:
            raise ContentError(source, "format", f"must be {POSITION_FORMAT!r}, not {fmt!r}")
        version = data.get("version", POSITION_VERSION)
        if type(version) is not int or version != POSITION_VERSION:
            raise ContentError(source, "version", f"position format version {version!r} is not "
                               f"supported (this meadhall reads {POSITION_VERSION})")
        from meadhall.core.migrate import migrate_position

        current = data.get("state_version", self.state_cls.STATE_VERSION) \
            == self.state_cls.STATE_VERSION
        data = migrate_position(self.id, self.state_cls.STATE_VERSION, data, source)
        seed = data.get("seed", 0)
        if seed is None:
            # A seat's download (docs/server.md): no seed, no generator state. It plays on
            # from its position with a future of its own.
            if "position" not in data:
                raise ContentError(source, "seed", "null (a save without its future) needs "
                                   "its position: the log cannot be replayed without a seed")
            data = fresh_future(data)
            seed = data["seed"]
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ContentError(source, "seed", "must be an integer from 0 to 2**63 - 1")
        chance = data.get("chance")
        if chance is None:
            chance = {}
        if not isinstance(chance, dict):
            raise ContentError(source, "chance", "must be an object with mode, rng and queue")
        mode = chance.get("mode", "seeded")
        if mode not in ("seeded", "table"):
            raise ContentError(source, "chance.mode", f"must be 'seeded' or 'table', not "
                               f"{mode!r}")
        auto = data.get("auto_choices", False)
        if not isinstance(auto, bool):
            raise ContentError(source, "auto_choices", "must be true or false")
        raw_setup = data.get("setup")
        if raw_setup is not None and not isinstance(raw_setup, dict):
            raise ContentError(source, "setup", "must be an object (scenario, heroes...)")
        setup = self.normalise_setup(raw_setup)
        log = data.get("log", [])
        if log is None:
            log = []
        if not isinstance(log, list) or not all(isinstance(x, str) for x in log):
            raise ContentError(source, "log", "must be a list of action strings")
        log = self.retired.map_log(log)
        conceded = data.get("conceded")
        if conceded is not None and not isinstance(conceded, str):
            raise ContentError(source, "conceded", "must be null or the reason, a string")
        if "position" not in data and "log" not in data:
            raise ContentError(source, "position", "missing: a save holds its position or its "
                               "log (the actions since setup; [] for a game not begun), and "
                               "this one holds neither")
        if "position" not in data:
            # Setup, seed and log only: the game is rebuilt by replaying it.
            try:
                return self.replay(setup, seed, log, mode, auto)
            except IllegalAction as e:
                raise ContentError(source, "log", f"the log does not replay: {e}") from None
        position = data["position"]
        if not isinstance(position, dict):
            raise ContentError(source, "position", "must be an object (the game's position, "
                               f"see docs/formats/{self.id}.md)")
        state = self.blank_state(setup, seed, mode, auto)
        try:
            if "rng" in chance:
                state.chance = Chance.from_json(self.id, chance)
            state.log = list(log)
            if data.get("pending"):
                state.pending = Pending.from_json(data["pending"])
                state.pending.action = self.retired.map(state.pending.action)
                if mode != "table":
                    raise ContentError("", "pending", "only a table-mode game waits for a "
                                       "result")
        except ContentError as e:
            raise ContentError(source, e.field, e.reason) from None
        state.conceded = conceded
        try:
            state._load(position)
        except ContentError as e:
            raise ContentError(source, f"position.{e.field}" if e.field else "position",
                               e.reason) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise ContentError(source, "position", f"{type(e).__name__}: {e}") from None
        if current and any(k in data for k in SAVE_KEYS):
            check_complete(data, state, source)
        return state
