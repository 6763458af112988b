"""Tables in play: seats and tokens, actions, undo with agreement, bots in seats, restarts.

A :class:`Table` is rebuilt from its stored log (and latest snapshot) and changed only through
:meth:`Table.record`, which applies a log row in memory, commits it, and undoes the change in
memory if the commit fails. One lock per table serialises the seats acting at it, so two
requests at once neither lose nor duplicate a step; the version (the log's length) tells a
device whether it is acting on what it last saw.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import secrets
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from meadhall import games
from meadhall.bots.base import Bot, BotError
from meadhall.bots.registry import KINDS, check_spec, make_bot
from meadhall.bots.seats import bot_to_move
from meadhall.core.errors import (
    ContentError,
    IllegalAction,
    MeadhallError,
    RuleNotImplemented,
)
from meadhall.core.history import History
from meadhall.core.protocol import (
    CHANCE,
    PLAYERS,
    START,
    Game,
    GameState,
    check_complete,
    fresh_future,
    without_future,
)
from meadhall.core.words import join, plural, possessive
from meadhall.server.store import LogRow, Store, TableRow, now

log = logging.getLogger("meadhall.server")

SNAPSHOT_EVERY = 25
"""Rows between snapshots: a restart replays at most this many actions per table."""
JOURNAL_SHOWN = 80
BOTS: dict[str, str] = {"random": KINDS["random"], "heuristic": KINDS["heuristic"],
                        "mcts:1s": "Monte Carlo tree search over what the players can know, "
                                   "one second a decision"}
"""Bots the table offers for a seat (any spec of :mod:`meadhall.bots.registry` within the
table's budget limits is accepted: :func:`table_bot_spec`)."""
BOT_MAX_SECONDS = 5.0
"""The longest a bot at a table may think per decision (``mcts:5s``)."""
BOT_MAX_ITERATIONS = 2000
"""The most MCTS iterations per decision a bot at a table may take (``mcts:2000``)."""
BOT_MAX_SAMPLES = 10
"""The most sampled futures per action of the heuristic bot at a table."""
BOT_WORKERS = 8
"""Bots think in this many threads, so that a slow bot at one table never stalls another."""
MAX_SETUP = 16_384
"""The most JSON a table's setup may hold (it is listed with the table)."""
IMPORT_TRIES = 120
"""How many of an imported save's legal actions are tried on a copy before it is accepted."""


def table_bot_spec(spec: str, clamp: bool = False) -> str:
    """``spec`` if it builds a bot within the table's budget limits (at most
    :data:`BOT_MAX_SECONDS` seconds or :data:`BOT_MAX_ITERATIONS` iterations a decision,
    :data:`BOT_MAX_SAMPLES` samples, a rollout depth of 50); otherwise a :class:`TableError`
    naming the limit, or with ``clamp`` the spec brought within them (a table stored before
    the limits)."""
    text = check_spec(spec)
    kind, *rest = text.split(":")
    out: list[str] = [kind]
    for i, part in enumerate(rest):
        key, sep, raw = part.partition("=")
        if kind == "mcts" and i == 0 and not sep:
            if raw.endswith("s") or key.endswith("s"):
                secs = float(key[:-1])
                if secs > BOT_MAX_SECONDS:
                    if not clamp:
                        raise TableError(f"bot {text!r}: a bot at a table thinks at most "
                                         f"{BOT_MAX_SECONDS:g} seconds a decision "
                                         f"(mcts:{BOT_MAX_SECONDS:g}s)")
                    part = f"{BOT_MAX_SECONDS:g}s"
            elif int(key) > BOT_MAX_ITERATIONS:
                if not clamp:
                    raise TableError(f"bot {text!r}: a bot at a table takes at most "
                                     f"{BOT_MAX_ITERATIONS} iterations a decision "
                                     f"(mcts:{BOT_MAX_ITERATIONS})")
                part = str(BOT_MAX_ITERATIONS)
        elif kind == "heuristic" and ((i == 0 and not sep) or key == "samples"):
            n = int(raw if sep else key)
            if n > BOT_MAX_SAMPLES:
                if not clamp:
                    raise TableError(f"bot {text!r}: the heuristic bot at a table samples at "
                                     f"most {BOT_MAX_SAMPLES} futures an action")
                part = f"samples={BOT_MAX_SAMPLES}" if sep else str(BOT_MAX_SAMPLES)
        elif key in ("depth", "width") and sep and int(raw) > 50:
            if not clamp:
                raise TableError(f"bot {text!r}: {key} is at most 50 at a table")
            part = f"{key}=50"
        out.append(part)
    return ":".join(out)


def bot_label(spec: str) -> str:
    """A bot as people name it: ``the random bot``, ``the search bot (1 s a decision)``."""
    kind, *rest = spec.split(":")
    budget = rest[0] if rest and "=" not in rest[0] else ""
    if kind != "mcts":
        return f"the {kind} bot"
    if budget.endswith("s"):
        return f"the search bot ({budget[:-1]} s a decision)"
    return f"the search bot ({budget} tries a decision)" if budget else "the search bot"


class TableError(MeadhallError):
    """A request the table refuses; ``status`` is the HTTP status that says why."""

    status = 422

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status


class NotFound(TableError):
    status = 404


class Forbidden(TableError):
    status = 403


class Stale(TableError):
    """The request was made on an older version of the table than the current one."""

    status = 409


@dataclass(slots=True)
class Proposal:
    """An undo that takes back other seats' steps, waiting for each of them to agree."""

    by: str
    steps: int
    need: list[str]
    agreed: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "steps": self.steps, "need": list(self.need),
                "agreed": list(self.agreed),
                "waiting": [s for s in self.need if s not in self.agreed]}


def _new_token() -> str:
    return secrets.token_urlsafe(18)


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Table:
    """One table in memory: the game state, its undo history, seats, journal and version."""

    def __init__(self, row: TableRow, store: Store) -> None:
        self.row = row
        self.store = store
        self.lock = threading.RLock()
        self.game = games.get(row.game)
        self.state, self.history, start = self._initial()
        self.seats: list[str] = self.state.seats()
        self.holders: dict[str, str] = {s: "" for s in self.seats}
        self.proposal: Proposal | None = None
        self.journal: list[dict[str, Any]] = []
        if start:
            # The setup's automated steps (first draws and rolls) are the table's first step.
            self.journal.append({"seq": 0, "kind": "start", "seat": "", "at": row.created,
                                 "undone": False, "action": "", "label": "The table is set up",
                                 "events": start, "random": True})
        self.effective: list[int] = []  # journal indices of the steps undo may take back
        self.version = 0
        self.bots: dict[str, Bot] = {}
        self._shown: tuple[tuple[int, int], GameState] | None = None

    def _initial(self) -> tuple[GameState, History, list[dict[str, Any]]]:
        """The game as set up (or as imported), its undo history, and the setup's events
        (stored with the table; recomputed for a table stored before they were kept)."""
        r = self.row
        if r.base is not None:
            state = GameState.from_json(r.base, "import")
            hist = r.base.get("history")
            if isinstance(hist, dict):
                history = History.from_json(hist, "import")
                history.practice = r.practice
            else:
                history = History(state, r.practice)
            return state, _detach(history), []
        state, events = self.game.start(r.setup, r.seed, r.chance,  # type: ignore[arg-type]
                                        r.auto_choices)
        start = r.start if r.start is not None else [e.to_json() for e in events]
        return state, _detach(History(state, r.practice)), start

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, row: TableRow, store: Store) -> Table:
        """Rebuild a table from its log: the journal from every row, the game from the latest
        snapshot (or the start) and the rows after it."""
        t = cls(row, store)
        snap = store.snapshot(row.id)
        rows = store.log(row.id)
        start = 0
        if snap is not None:
            start = snap[0]
            t.state = GameState.from_json(snap[1]["state"], "snapshot")
            t.history = History.from_json(snap[1]["history"], "snapshot")
        for r in rows:
            t._fold(r, play=r.seq > start, fresh=False)
            t.version = r.seq
        return t

    # ------------------------------------------------------------------ who may act
    def _who(self, seat: str | None) -> str:
        """A seat in a sentence's first words: its hero's name (``seat_name``)."""
        name = seat_name(self.game, seat) if seat else "a seat"
        return name[:1].upper() + name[1:]

    def seat_of_token(self, token: str | None) -> str | None:
        """The seat a token opens, ``None`` for no token (a spectator); 403 for a wrong one."""
        if not token:
            return None
        try:
            given = token.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no token is like that
            given = b""
        for seat, tok in self.row.tokens.items():
            # bytes: compare_digest refuses str holding anything but ASCII (a TypeError)
            if given and secrets.compare_digest(tok.encode("utf-8"), given):
                return seat
        raise Forbidden("this seat link is not valid for this table")

    def owner(self) -> str | None:
        """The people's seat that must answer the current decision; ``players``/``chance``
        for a decision any seat may answer; ``None`` when the game is over."""
        d = self.state.decision()
        if d is None:
            return None
        if d.seat in (PLAYERS, CHANCE):
            return d.seat
        return self.state.seat_of(d.seat)

    def may_act(self, seat: str | None) -> bool:
        owner = self.owner()
        if seat is None or owner is None:
            return False
        if owner in (PLAYERS, CHANCE):
            return True
        holder = self.holders.get(owner, "")
        if holder == f"seat:{seat}":
            return True
        return owner == seat and not holder.startswith("bot:")

    def _check_act(self, seat: str | None) -> None:
        owner = self.owner()
        if seat is None:
            raise Forbidden("spectators watch; a seat link is needed to act")
        if owner is None:
            raise TableError(f"the game is over ({self.state.outcome().reason})")
        if not self.may_act(seat):
            holder = self.holders.get(owner, "")
            if owner == seat and holder.startswith("bot:"):
                raise Forbidden(f"your seat is played by {bot_label(holder[4:])}: take it "
                                "back first")
            raise Forbidden(f"it is {possessive(seat_name(self.game, owner))} decision, not "
                            f"{possessive(seat_name(self.game, seat or ''))}")

    def _check_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise Stale(f"the table has moved on: you sent version {version}, it is at "
                        f"version {self.version}")

    # ------------------------------------------------------------------ changing the table
    def record(self, kind: str, seat: str, data: dict[str, Any]) -> LogRow:
        """Apply one log row in memory, commit it, and roll the memory back if it fails."""
        backup = (self.state.clone(), self.history.base, list(self.history.steps),
                  dict(self.holders), copy.deepcopy(self.proposal), len(self.journal),
                  list(self.effective), self.version)
        row = LogRow(self.version + 1, kind, seat, data, now())
        try:
            self._fold(row, play=True, fresh=True)
            snap = None
            if row.seq % SNAPSHOT_EVERY == 0:
                snap = {"state": self.state.to_json(), "history": self.history.to_json()}
            self.store.append(self.row.id, row, self.state.outcome().result, snap)
        except BaseException:
            (self.state, self.history.base, self.history.steps, self.holders, self.proposal,
             n, self.effective, self.version) = backup
            del self.journal[n:]
            raise
        self.version = row.seq
        self.row.result = self.state.outcome().result
        self.row.updated = row.at
        return row

    def _fold(self, row: LogRow, play: bool, fresh: bool) -> None:
        """Carry out one log row: ``play`` changes the game (else only the journal and seats
        are rebuilt, the game coming from a later snapshot); ``fresh`` fills in the row's
        events and labels as it is first recorded."""
        d = row.data
        entry: dict[str, Any] = {"seq": row.seq, "kind": row.kind, "seat": row.seat,
                                 "at": row.at, "undone": False}
        if row.kind in ("act", "concede"):
            self.proposal = None
            if row.kind == "act":
                if fresh:
                    d["label"] = self.state.describe(d["action"]).label
                    before = self.state.decision()
                    d["decision"] = before.prompt if before else ""
                if play:
                    base = self.history.base
                    events = self.history.apply(self.state, d["action"], seat=row.seat)
                    if self.history.base is not base:
                        _detach(self.history)
                    random = bool(self.history.steps == [] or self.history.steps[-1].random)
                    if fresh:
                        d["events"] = [e.to_json() for e in events]
                        d["random"] = random
                entry.update(action=d["action"], label=d.get("label", d["action"]),
                             by=d.get("by") or (bot_label(d["bot"]) if d.get("bot")
                                                else None),
                             events=d.get("events", []), random=d.get("random", False))
            else:
                if play:
                    self.history.concede(self.state, d.get("reason", ""), seat=row.seat)
                entry.update(action="concede", label=f"{self._who(row.seat)} concedes the game",
                             events=[{"kind": "concede", "text": "The players concede: "
                                      + (d.get("reason") or "the game is lost"),
                                      "section": None, "data": {}}], random=False)
            self.journal.append(entry)
            if entry["random"] and not self.row.practice:
                self.effective = []
            else:
                self.effective.append(len(self.journal) - 1)
        elif row.kind in ("undo", "answer"):
            steps = int(d.get("steps", 0))
            if row.kind == "answer":
                p = self.proposal
                if p is None:
                    raise TableError("there is no undo proposal to answer")
                if not d.get("agree"):
                    self.proposal = None
                    entry.update(text=f"{self._who(row.seat)} declines to undo")
                    self.journal.append(entry)
                    return
                if row.seat not in p.agreed:
                    p.agreed.append(row.seat)
                if any(s not in p.agreed for s in p.need):
                    entry.update(text=f"{self._who(row.seat)} agrees to undo; waiting for "
                                 + join(self._who(s) for s in p.need if s not in p.agreed))
                    self.journal.append(entry)
                    return
                steps = p.steps
            self.proposal = None
            if play:
                self.state = self.history.undo(steps)
            cut = max(0, len(self.effective) - steps)
            for i in self.effective[cut:]:
                self.journal[i]["undone"] = True
            del self.effective[cut:]
            entry.update(text=f"Undo: {plural(steps, 'step')} taken back"
                         + (f" (asked by {self._who(d['by'])}, every seat agreed)"
                            if row.kind == "answer" else f" by {self._who(row.seat)}"))
            self.journal.append(entry)
        elif row.kind == "propose":
            self.proposal = Proposal(row.seat, int(d["steps"]), list(d["need"]))
            entry.update(text=f"{self._who(row.seat)} asks to undo "
                         f"{plural(int(d['steps']), 'step')}; waiting for "
                         + join(self._who(s) for s in d["need"]))
            self.journal.append(entry)
        elif row.kind == "seat":
            self.holders[d["seat"]] = d["holder"]
            entry.update(text=f"{self._who(d['seat'])}'s seat is now played by "
                         + holder_name(d["holder"], d["seat"], self.game))
            self.journal.append(entry)
        else:
            raise TableError(f"unknown log entry {row.kind!r}")

    # ------------------------------------------------------------------ requests
    def act(self, seat: str | None, action: str, version: int | None) -> LogRow:
        """Apply a legal action for ``seat``: 403 if not theirs to take, 409 if stale, 422
        (with the rule) if illegal."""
        with self.lock:
            if seat is None:
                raise Forbidden("spectators watch; a seat link is needed to act")
            self._check_version(version)
            self._check_act(seat)
            text = " ".join(action.split())
            legal = {a.text for a in self.state.legal_actions()}
            if text not in legal:  # a retired text a script still sends: its current one
                text = next((t for t in self.game.retired.candidates(text) if t in legal), text)
            if text not in legal:
                # The game names the broken rule; state untouched.
                try:
                    self.state.clone().apply(text)
                except IllegalAction as e:
                    raise TableError(str(e)) from None
                raise TableError(f"{text!r} is not a legal action now")
            # The step belongs to the seat whose decision it was (undo asks that seat), even
            # when another seat's holder took it for them.
            owner = self.owner()
            actor = seat if owner in (PLAYERS, CHANCE) or owner is None else owner
            data: dict[str, Any] = {"action": text}
            if actor != seat:
                data["by"] = seat
            return self.record("act", actor, data)

    def concede(self, seat: str | None, reason: str, version: int | None) -> LogRow:
        with self.lock:
            self._check_version(version)
            if seat is None:
                raise Forbidden("spectators cannot concede; a seat link is needed")
            if self.state.outcome().over:
                raise TableError(f"the game is over ({self.state.outcome().reason})")
            return self.record("concede", seat, {"reason": reason})

    def undo_steps_for(self, seat: str) -> int:
        """How many steps the plain Undo button takes back for ``seat``: back to before its
        own last step, or one step if it has none to take back."""
        for n, i in enumerate(reversed(self.effective), 1):
            if self.journal[i]["seat"] == seat:
                return n
        return 1

    def undo(self, seat: str | None, steps: int | None, version: int | None) -> LogRow:
        """Take back steps at once, or propose it to the other seats whose steps it takes back."""
        with self.lock:
            self._check_version(version)
            if seat is None:
                raise Forbidden("spectators cannot undo; a seat link is needed")
            n = steps if steps is not None else self.undo_steps_for(seat)
            available = self.history.undoable()
            if n < 1 or n > available:
                raise TableError(
                    "nothing to undo since the last random event (dice, cards and reveals stay "
                    "as they fell)" if available == 0 else
                    f"only {available} step(s) can be undone since the last random event")
            others = [] if self.row.practice else self._consent_needed(n, seat)
            if others:
                return self.record("propose", seat, {"steps": n, "need": others})
            return self.record("undo", seat, {"steps": n})

    def _consent_needed(self, n: int, asking: str) -> list[str]:
        """The seats whose steps undoing ``n`` steps takes back and who must agree first: a
        step is its seat's own unless the asking seat took it for them, and a seat handed to
        a bot or to another player gives no consent for its owner (docs/server.md, Undo).
        A practice table needs no one's consent."""
        need: set[str] = set()
        for i in self.effective[max(0, len(self.effective) - n):]:
            e = self.journal[i]
            owner = e.get("seat", "")
            if owner != asking and owner in self.holders and e.get("by") != asking:
                need.add(owner)
        # Steps of the undo history the journal does not know (an imported game's own).
        extra = n - min(n, len(self.effective))
        if extra:
            need |= {s for s in self.history.seats_since(n) if s in self.holders} - {asking}
        return sorted(need)

    def answer(self, seat: str | None, agree: bool, version: int | None) -> LogRow:
        with self.lock:
            self._check_version(version)
            if seat is None:
                raise Forbidden("spectators cannot answer an undo proposal")
            p = self.proposal
            if p is None:
                raise TableError("there is no undo proposal to answer")
            if seat not in p.need:
                raise Forbidden(f"{self._who(seat)} is not asked: the proposal waits for "
                                + join(self._who(s) for s in p.need if s not in p.agreed))
            return self.record("answer", seat, {"agree": agree, "by": p.by})

    def hand_over(self, seat: str | None, target: str, holder: str, version: int | None,
                  present: Callable[[str], bool]) -> LogRow:
        """Give seat ``target`` to a bot (``bot:random``), to another seat's holder
        (``seat:<id>``), or back to its own person (``""``)."""
        with self.lock:
            self._check_version(version)
            if seat is None:
                raise Forbidden("spectators cannot hand over seats")
            if target not in self.holders:
                raise NotFound(f"no seat {target!r} at this table (seats: "
                               f"{', '.join(self.seats)})")
            if holder.startswith("bot:"):
                try:
                    table_bot_spec(holder[4:])
                except BotError as e:
                    raise TableError(str(e)) from None
            elif holder.startswith("seat:"):
                if holder[5:] not in self.holders or holder[5:] == target:
                    raise TableError(f"{holder!r} names no other seat of this table")
            elif holder != "":
                raise TableError("holder must be '' (the seat's own person), 'bot:<name>' or "
                                 "'seat:<seat>'")
            if target != seat and present(target) and holder != "":
                raise Stale(f"{possessive(seat_name(self.game, target))} seat is at the table: "
                            "only its holder can hand it over")
            if self.holders[target] == holder:
                raise TableError(f"{possessive(seat_name(self.game, target))} seat is already "
                                 f"played by {holder_name(holder, target, self.game)}")
            return self.record("seat", seat, {"seat": target, "holder": holder})

    # ------------------------------------------------------------------ bots
    def _seat_bots(self) -> dict[str, Bot]:
        """The bots holding seats now, each built once and seeded from the table and seat."""
        out: dict[str, Bot] = {}
        for seat in self.seats:
            holder = self.holders.get(seat, "")
            if not holder.startswith("bot:"):
                continue
            spec = holder[4:]
            bot = self.bots.get(seat)
            if bot is None or getattr(bot, "spec", spec) != spec:
                try:
                    bounded = table_bot_spec(spec, clamp=True)
                except MeadhallError:
                    continue  # a holder no bot of today answers to: its people take over
                bot = self.bots[seat] = make_bot(
                    bounded, (self.row.seed * 1_000_003 + zlib.crc32(seat.encode()))
                    & 0x7FFFFFFF)
                bot.spec = spec  # the holder's name for it, even when its budget was cut
            out[seat] = bot
        return out

    def wants_bot(self) -> bool:
        """Whether a bot answers the decision now (see :func:`meadhall.bots.seats.bot_to_move`:
        a hero's decision goes to its seat's bot, a players' choice to a bot only when bots
        hold every seat, table-mode dice always to the people)."""
        with self.lock:
            return bot_to_move(self.state, self._seat_bots()) is not None

    def bot_move(self) -> LogRow | None:
        """Let the bot whose turn it is act (one step). It thinks on a copy, outside the
        table's lock, and its action is refused like anyone's if the table moved meanwhile."""
        with self.lock:
            turn = bot_to_move(self.state, self._seat_bots())
            if turn is None:
                return None
            seat, bot = turn
            state, version = self.state.clone(), self.version
        action = bot.choose(state)
        with self.lock:
            if self.version != version or self.holders.get(seat) != f"bot:{bot_name(bot)}":
                return None  # the table moved, or the seat was taken back, meanwhile
            owner = self.owner()
            actor = seat if owner in (PLAYERS, CHANCE) or owner is None else owner
            return self.record("act", actor, {"action": action.text, "bot": bot_name(bot)})

    # ------------------------------------------------------------------ reading
    def at_question(self) -> GameState:
        """The game to show: while table mode waits for a result, the table as the automated
        steps left it when the question was asked (``GameState.at_question``: enemies already
        moved); otherwise the game itself. Computed once per version."""
        if self.state.pending is None:
            return self.state
        key = (self.version, id(self.state))
        if self._shown is None or self._shown[0] != key:
            self._shown = (key, self.state.at_question() or self.state)
        return self._shown[1]

    def question(self) -> dict[str, Any] | None:
        """What table mode asks now: the roll or draw (naming what it decides), its rulebook
        section, the step it belongs to, and each possible result with its chance."""
        p = self.state.pending
        if p is None:
            return None
        r = p.request
        if p.action == START:
            step = "the table's setup"
        else:
            try:
                step = self.state.describe(p.action).label
            except Exception:  # noqa: BLE001 - a label is for people; the text will do
                step = p.action
        return {"what": r.what, "section": r.section, "action": p.action, "step": step,
                "odds": [{"result": o, "chance": c} for o, c in r.odds()],
                "entered": list(p.results)}

    def snapshot_for(self, seat: str | None, journal: int = JOURNAL_SHOWN) -> dict[str, Any]:
        """What a seat (or a spectator) sees: the ``GET /api/tables/{id}`` reply."""
        with self.lock:
            d = self.state.decision()
            can = self.may_act(seat)
            actions = [a.to_json() for a in self.state.described_actions()] if can else []
            owner = self.owner()
            return {
                "id": self.row.id, "game": self.row.game, "title": self.game.title,
                "version": self.version, "seat": seat,
                "seats": [{"seat": s, "holder": self.holders[s],
                           "holder_name": holder_name(self.holders[s], s)} for s in self.seats],
                "view": self.at_question().view(seat),
                "decision": ({**d.to_json(), "owner": owner} if d else None),
                "question": self.question(),
                "can_act": can,
                "actions": actions,
                "outcome": self.state.outcome().to_json(),
                "journal": self.journal[-journal:] if journal else [],
                "undo": {"available": self.history.undoable(),
                         "mine": self.undo_steps_for(seat) if seat else 0,
                         "practice": self.row.practice,
                         "proposal": self.proposal.to_json() if self.proposal else None},
                "setup": self.row.setup, "chance": self.row.chance,
            }

    def save(self, full: bool = False) -> dict[str, Any]:
        """The position JSON of docs/formats.md, with the undo history and the journal: a
        seat's download, without the seed and the generator's state (whoever holds them could
        foresee every roll and draw; resumed elsewhere, the game draws its own future).
        ``full`` keeps them (the server's own copies)."""
        with self.lock:
            data = self.state.to_json()
            data["history"] = self.history.to_json()
            data["journal"] = [{"action": e.get("label") or e.get("action") or e.get("text"),
                                "events": [_event_line(x) for x in e.get("events", [])]}
                               for e in self.journal if not e["undone"]][-200:]
            return data if full else without_future(data)

    def replay_line(self) -> list[dict[str, Any]]:
        """The steps in effect from the start (undone ones left out), for the replay page."""
        with self.lock:
            undone_steps = {e["seq"] for e in self.journal if e.get("undone")}
            return [e for e in self.journal if e["kind"] in ("act", "concede")
                    and e["seq"] not in undone_steps]


def _detach(history: History) -> History:
    """Give the history a base of its own: a game's ``to_json`` may share lists with the live
    state (battleforge's does), and the state moving on must not change the base."""
    history.base = json.loads(json.dumps(history.base))
    return history


def _event_line(e: dict[str, Any]) -> str:
    return f"{e['text']} — {e['section']}" if e.get("section") else str(e.get("text", ""))


def bot_name(bot: Bot) -> str:
    """The spec that built a bot (``random``, ``mcts:1s``)."""
    return str(bot.spec)


def seat_name(game: Game | None, seat: str) -> str:
    """A seat as players call it: its hero's name (``Lagertha``), "the players" for a
    players' choice; never the seat's id."""
    if seat == PLAYERS:
        return "the players"
    if seat == CHANCE:
        return "the table's dice"
    names = {h.id: h.name for h in game.heroes()} if game is not None else {}
    if seat in names:
        return names[seat]
    words = seat.replace("_", " ").replace("-", " ")
    return f"the {words}" if words.endswith("player") else f"the {words} player"


def holder_name(holder: str, seat: str, game: Game | None = None) -> str:
    """Who plays a seat, in words."""
    if holder.startswith("bot:"):
        return bot_label(holder[4:])
    if holder.startswith("seat:"):
        return f"the player of {seat_name(game, holder[5:])}"
    return "its own player"


class Tables:
    """Every table of one database, loaded on first use, with the bot runner."""

    def __init__(self, store: Store, bot_delay: float = 0.5) -> None:
        self.store = store
        self.live: dict[str, Table] = {}
        self.lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}
        self.listeners: list[Callable[[str, int], None]] = []
        self.bot_delay = bot_delay
        self._bot_wake = threading.Condition()
        self._bot_queue: set[str] = set()
        self._bot_busy: set[str] = set()
        self._bot_again: set[str] = set()
        self._bot_pool: ThreadPoolExecutor | None = None
        self._stop = False
        self._bot_thread: threading.Thread | None = None

    def get(self, table_id: str) -> Table:
        """The table, loaded on first use (from its latest snapshot and the rows after it).
        Loading one table holds up only the requests for that table."""
        with self.lock:
            t = self.live.get(table_id)
            if t is not None:
                return t
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:
            with self.lock:
                t = self.live.get(table_id)
            if t is not None:
                return t
            row = self.store.table(table_id)
            if row is None:
                raise NotFound(f"no table {table_id!r}")
            t = Table.load(row, self.store)
            with self.lock:
                self.live[table_id] = t
                self._loading.pop(table_id, None)
            return t

    def resume_all(self) -> int:
        """Wake the bots of the stored tables where a bot holds a seat (those tables are
        loaded; every other table waits until someone asks for it); returns how many."""
        n = 0
        for tid in self.store.with_bots():
            try:
                t = self.get(tid)
            except MeadhallError:
                log.exception("table %s could not be loaded", tid)
                continue
            n += 1
            if t.wants_bot():
                self.wake(tid)
        return n

    def resume_in_background(self) -> threading.Thread:
        """:meth:`resume_all` in a thread of its own, so the server answers at once."""
        th = threading.Thread(target=self.resume_all, name="meadhall-resume", daemon=True)
        th.start()
        return th

    def create(self, game_id: str, setup: dict[str, Any] | None, seed: int | None,
               practice: bool = False, chance: str = "seeded", auto_choices: bool = False,
               base: dict[str, Any] | None = None, public: bool = False) -> Table:
        """Set up a new table (never touching another); refuses a bad setup with 422."""
        try:
            game = games.get(game_id)
        except games.UnknownGame as e:
            raise TableError(str(e)) from None
        if setup is not None and len(json.dumps(setup)) > MAX_SETUP:
            raise TableError(f"setup: too large (at most {MAX_SETUP} characters of JSON; a "
                             "setup names a scenario, heroes and a few options)")
        s = seed if seed is not None else secrets.randbelow(2**31)
        start: list[dict[str, Any]] | None = None
        try:
            if base is not None:
                state = GameState.from_json(base, "import")
            else:
                state, events = game.start(setup, s, chance, auto_choices)  # type: ignore[arg-type]
                start = [e.to_json() for e in events]
        except MeadhallError as e:
            raise TableError(str(e)) from None
        except (KeyError, TypeError, ValueError) as e:
            raise TableError(f"setup refused: {type(e).__name__}: {e}") from None
        t_now = now()
        row = TableRow(new_table_id(), game.id, state.setup, state.seed, state.chance.mode,
                       practice, state.auto_choices, base,
                       {seat: _new_token() for seat in state.seats()}, t_now, t_now, 0,
                       state.outcome().result, "", start, public)
        self.store.create(row)
        table = Table(row, self.store)
        with self.lock:
            self.live[row.id] = table
        return table

    def changed(self, table_id: str, version: int) -> None:
        """Tell the live pages and the bot runner that a table moved."""
        for f in list(self.listeners):
            f(table_id, version)
        self.wake(table_id)

    # ------------------------------------------------------------------ bot runner
    def wake(self, table_id: str) -> None:
        with self._bot_wake:
            self._bot_queue.add(table_id)
            self._bot_wake.notify()

    def start_bots(self) -> None:
        if self._bot_thread is None:
            self._stop = False
            self._bot_pool = ThreadPoolExecutor(BOT_WORKERS, thread_name_prefix="meadhall-bot")
            self._bot_thread = threading.Thread(target=self._bot_loop, name="meadhall-bots",
                                                daemon=True)
            self._bot_thread.start()

    def stop_bots(self) -> None:
        with self._bot_wake:
            self._stop = True
            self._bot_wake.notify()
        if self._bot_thread is not None:
            self._bot_thread.join(timeout=5)
            self._bot_thread = None
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=False, cancel_futures=True)
            self._bot_pool = None

    def _bot_loop(self) -> None:
        """Hand each table whose bot is to move to a worker thread, one move per table at a
        time: a bot thinking long at one table never holds up the bots of another."""
        while True:
            with self._bot_wake:
                while not self._bot_queue and not self._stop:
                    self._bot_wake.wait()
                if self._stop:
                    return
                ids = [t for t in self._bot_queue if t not in self._bot_busy]
                self._bot_again |= self._bot_queue & self._bot_busy
                self._bot_queue.clear()
                self._bot_busy |= set(ids)
            pool = self._bot_pool
            for tid in ids:
                try:
                    assert pool is not None
                    pool.submit(self._bot_step, tid)
                except (RuntimeError, AssertionError):  # shutting down
                    return

    def _bot_step(self, tid: str) -> None:
        row = None
        again = False
        try:
            t = self.get(tid)
            if t.wants_bot():
                if self.bot_delay:
                    time.sleep(self.bot_delay)
                row = t.bot_move()
                again = row is None and t.wants_bot()  # the table moved while it thought
        except Exception:  # noqa: BLE001 - one table's failure must not stop the others
            log.exception("the bot at table %s could not move", tid)
        finally:
            with self._bot_wake:
                self._bot_busy.discard(tid)
                again = again or tid in self._bot_again
                self._bot_again.discard(tid)
        if row is not None:
            self.changed(tid, row.seq)
        elif again:
            self.wake(tid)


def parse_import(data: Any) -> dict[str, Any]:
    """A save to import, checked: it must load, and its history (if any) must lead to it."""
    if not isinstance(data, dict):
        raise TableError("import: a save must be a JSON object")
    unseeded = data.get("seed", 0) is None
    data = fresh_future(data)
    try:
        state = GameState.from_json(data, "import")
    except MeadhallError as e:
        raise TableError(f"import refused: {e}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise TableError(f"import refused: the save is corrupt ({type(e).__name__}: {e})"
                         ) from None
    try:
        # Everything the table will ask of it must work, or a corrupt save would fail later.
        d = state.decision()
        state.described_actions()
        for seat in [None, *state.seats()]:
            games.get(state.game).draw(state.view(seat))
        if d is not None:
            state.seat_of(d.seat)
        state.outcome()
        # Every action offered now can be carried out (on a copy): a mutated position that
        # would fail inside a rule later is refused here instead.
        for a in state.legal_actions()[:IMPORT_TRIES]:
            with contextlib.suppress(RuleNotImplemented):  # loud, and no corruption
                state.clone().apply(a.text)
    except MeadhallError as e:
        raise TableError(f"import refused: {e}") from None
    except Exception as e:  # noqa: BLE001 - any failure of a mutated save is its corruption
        raise TableError(f"import refused: the save is corrupt ({type(e).__name__}: {e})"
                         ) from None
    hist = data.get("history")
    if hist is not None:
        try:
            h = History.from_json(hist, "import")
            if isinstance(h.base, dict) and h.base.get("state_version") == \
                    state.STATE_VERSION:
                check_complete(h.base, GameState.from_json(h.base, "import: history.base"),
                               "import: history.base")
        except ContentError as e:
            raise TableError(f"import refused: {e}") from None
        if not h.follows(state):
            if not (unseeded and h.practice and any(st.random for st in h.steps)):
                raise TableError("import refused: the save's undo history does not lead to "
                                 "its position (inconsistent save)")
            # A practice table's download: its history ran through rolls of a future it no
            # longer holds. Undo starts afresh from here.
            data = {k: v for k, v in data.items() if k != "history"}
    return data
