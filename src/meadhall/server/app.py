"""The FastAPI application: the HTTP API (``/api``), the live WebSocket and the pages.

``create_app(db)`` builds an app over one SQLite file; ``meadhall serve`` runs it with uvicorn.
Every request is validated (sizes, schema); meadhall's errors become one-line messages with the
right status (403 wrong seat, 404 unknown table, 409 stale version with the current state, 422
illegal action naming the rule); no input produces a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Body,
    Depends,
    FastAPI,
    Header,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from meadhall import games
from meadhall.core.errors import MeadhallError
from meadhall.server import pages, registry
from meadhall.server.store import Store, StoreError, default_path
from meadhall.server.tables import (
    BOTS,
    Forbidden,
    Stale,
    Table,
    TableError,
    Tables,
    parse_import,
)

MAX_BODY = 4 * 1024 * 1024
"""Largest request body accepted (an imported save of a long campaign fits easily)."""
STATIC = Path(__file__).parent / "static"

bearer = HTTPBearer(auto_error=False, description="The seat token returned when the table "
                    "was created; no token gives the spectator's view.")


# ----------------------------------------------------------------------------- API models
class GameInfo(BaseModel):
    id: str
    title: str
    scenarios: list[dict[str, str]]
    heroes: list[dict[str, str]]
    setup: dict[str, Any] = Field(description="the setup keys a table can set, with their "
                                  "defaults: the default setup and the optional keys (such "
                                  "as campaign, players) the game accepts; null: left out "
                                  "unless given")
    help: dict[str, str] = Field(default_factory=dict, description="what some setup keys do")


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=40)
    setup: dict[str, Any] = Field(default_factory=dict, description="setup keys; missing ones "
                                  "take the game's defaults")
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)
    practice: bool = Field(default=False, description="practice table: undo rewinds anything")
    table_mode: bool = Field(default=False, description="the players roll their own dice and "
                             "enter the results")
    auto_choices: bool = Field(default=False, description="take the players' choices' "
                               "automatic defaults")
    public: bool = Field(default=False, description="list the table to everyone (the "
                         "lobby, GET /api/tables); otherwise only browsers holding one of its "
                         "seats list it")


class Created(BaseModel):
    id: str
    seats: dict[str, str] = Field(description="one unguessable token per seat")
    spectator: str = Field(description="the read-only link")
    links: dict[str, str] = Field(description="each seat's table link")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=400, description="the action's text")
    version: int = Field(ge=0, le=2**31 - 1, description="the version the action was chosen on")


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, le=2**31 - 1)
    steps: int | None = Field(default=None, ge=1, le=10_000, description="how many steps; "
                              "default: back to before your own last step")


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, le=2**31 - 1)
    agree: bool


class ConcedeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, le=2**31 - 1)
    reason: str = Field(default="", max_length=200)


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0, le=2**31 - 1)
    holder: str = Field(max_length=60, description="'' for the seat's own player, "
                        "'bot:<name>' or 'seat:<seat>'")


class PublicIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    public: bool


class TableState(BaseModel):
    """What a seat or a spectator sees of a table."""

    id: str
    game: str
    title: str
    version: int
    seat: str | None
    seats: list[dict[str, Any]]
    view: dict[str, Any]
    decision: dict[str, Any] | None
    question: dict[str, Any] | None = Field(default=None, description="table mode's question "
                                            "while it waits for a result: {what, section, "
                                            "action, step, odds[{result, chance}], entered}")
    can_act: bool
    actions: list[dict[str, Any]] = Field(description="{text, label, targets[{kind, id, ref, "
                                          "note}]} for each legal action this seat may take")
    outcome: dict[str, str]
    journal: list[dict[str, Any]]
    undo: dict[str, Any]
    setup: dict[str, Any]
    chance: str


class StepResult(BaseModel):
    events: list[dict[str, Any]]
    state: TableState


class TableSummary(BaseModel):
    id: str
    game: str
    title: str
    version: int
    result: str
    updated: float
    setup: dict[str, Any]
    seats: list[str]
    public: bool = False
    seat: str | None = Field(default=None, description="the seat one of the given tokens "
                             "opens at this table (null: listed because it is public)")


class Problem(BaseModel):
    detail: str
    state: TableState | None = None


class ReplayStep(BaseModel):
    step: int
    steps: int
    entry: dict[str, Any] | None
    view: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "the body is not JSON"},
    403: {"model": Problem, "description": "not this seat's to do, or a wrong seat token"},
    404: {"model": Problem, "description": "no such table"},
    409: {"model": Problem, "description": "stale version: the current state is included"},
    413: {"model": Problem, "description": "request body too large"},
    422: {"model": Problem, "description": "refused, with the reason (the rule broken)"},
    503: {"model": Problem, "description": "the database could not be written: nothing done"},
}


# ----------------------------------------------------------------------------- live updates
class Hub:
    """The open WebSockets of each table (which seats are present) and their queues."""

    def __init__(self) -> None:
        self.subs: dict[str, set[tuple[asyncio.AbstractEventLoop,
                                       asyncio.Queue[dict[str, Any]]]]] = {}
        self.present: dict[str, Counter[str]] = {}

    def publish(self, table_id: str, version: int, presence: bool = False) -> None:
        """Called from any thread when a table reaches a new version (or a seat comes or
        goes: ``presence``)."""
        msg = {"version": version, "presence": presence}
        for loop, q in list(self.subs.get(table_id, ())):
            with contextlib.suppress(RuntimeError):  # loop closed: the socket is gone
                loop.call_soon_threadsafe(q.put_nowait, msg)

    def is_present(self, table_id: str, seat: str) -> bool:
        return self.present.get(table_id, Counter())[seat] > 0


def _token(cred: HTTPAuthorizationCredentials | None) -> str | None:
    return cred.credentials if cred else None


def create_app(db: str | Path | None = None, bot_delay: float = 0.5) -> FastAPI:
    """The whole server over the SQLite file ``db`` (default: the user's data folder)."""
    store = Store(db or default_path())
    tables = Tables(store, bot_delay)
    hub = Hub()
    tables.listeners.append(hub.publish)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        tables.start_bots()
        tables.resume_in_background()  # tables load on first use: the server answers at once
        yield
        tables.stop_bots()

    app = FastAPI(title="meadhall table", version="1", lifespan=lifespan,
                  description="Play meadhall's games at a shared table: seats with tokens, "
                  "versions, undo, live updates.")
    app.state.tables = tables
    app.state.store = store
    app.state.hub = hub

    # ------------------------------------------------------------------ errors
    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        body: dict[str, Any] = {"detail": str(exc)}
        if isinstance(exc, Stale):
            tid = request.path_params.get("table_id")
            if tid:
                t = tables.get(tid)
                seat = _seat_or_none(t, request.headers.get("authorization"))
                body["state"] = t.snapshot_for(seat)
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(MeadhallError)
    async def meadhall_error(request: Request, exc: MeadhallError) -> JSONResponse:
        if isinstance(exc, StoreError):
            # Nothing was accepted: the table in memory was rolled back with the transaction.
            return JSONResponse({"detail": f"not saved, so not done: {exc}"}, status_code=503)
        return JSONResponse({"detail": str(exc)}, status_code=422)

    app.add_middleware(BodyGuard)

    def seat_for(t: Table, cred: HTTPAuthorizationCredentials | None) -> str | None:
        return t.seat_of_token(_token(cred))

    def done(t: Table, version: int) -> None:
        tables.changed(t.row.id, version)

    # ------------------------------------------------------------------ API
    @app.get("/api/games", response_model=list[GameInfo], tags=["games"], responses=ERRORS)
    def list_games() -> list[dict[str, Any]]:
        """The registry: every game with its scenarios, heroes and the setup keys a table can
        set, with their defaults (the default setup, and the optional flags such as
        ``campaign`` that the game's setup accepts)."""
        return registry.all_info()

    @app.get("/api/bots", tags=["games"], responses=ERRORS)
    def list_bots() -> dict[str, str]:
        """Bots that can take a seat."""
        return dict(BOTS)

    @app.get("/api/tables", response_model=list[TableSummary], tags=["tables"],
             responses=ERRORS)
    def list_tables(limit: Annotated[int, Query(ge=1, le=500)] = 50,
                    seats: Annotated[str | None, Header(
                        alias="X-Meadhall-Seats", max_length=20_000,
                        description="the seat tokens this browser holds, comma-separated")
                    ] = None) -> list[dict[str, Any]]:
        """Recent tables this browser holds a seat at (the tokens of ``X-Meadhall-Seats``)
        and those a host made public; no seat tokens in the answer (joining needs a seat
        link). Without tokens: the public tables only."""
        tokens = {t.strip() for t in (seats or "").split(",") if t.strip()}
        out = []
        for r, seat in store.listed(tokens, limit):
            try:
                title = games.get(r.game).title
            except games.UnknownGame:
                title = r.game
            out.append({"id": r.id, "game": r.game, "title": title, "version": r.version,
                        "result": r.result, "updated": r.updated, "setup": r.setup,
                        "seats": list(r.tokens), "public": r.public, "seat": seat})
        return out

    @app.post("/api/tables/{table_id}/public", response_model=TableSummary, tags=["tables"],
              responses=ERRORS)
    def set_public(table_id: str, body: PublicIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """A seat lists the table to everyone (``public``: true) or only to the browsers
        holding its seats (false). Watching never needs it: the spectator link works either
        way."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        if seat is None:
            raise Forbidden("a seat link is needed to list a table to everyone")
        store.set_public(table_id, body.public)
        t.row.public = body.public
        r = t.row
        return {"id": r.id, "game": r.game, "title": t.game.title, "version": t.version,
                "result": r.result, "updated": r.updated, "setup": r.setup,
                "seats": list(r.tokens), "public": r.public, "seat": seat}

    @app.post("/api/tables", response_model=Created, status_code=201, tags=["tables"],
              responses=ERRORS)
    def create_table(body: NewTable, request: Request) -> dict[str, Any]:
        """Set up a new table; returns one token per seat and the spectator link."""
        t = tables.create(body.game, body.setup, body.seed, body.practice,
                          "table" if body.table_mode else "seeded", body.auto_choices,
                          public=body.public)
        return _created(t, str(request.base_url))

    @app.post("/api/tables/import", response_model=Created, status_code=201, tags=["tables"],
              responses=ERRORS)
    def import_table(request: Request, body: Annotated[dict[str, Any], Body(
            description="a save: the position JSON of docs/formats.md")]) -> dict[str, Any]:
        """Start a new table from a save; a corrupt, foreign or inconsistent save is refused
        and nothing existing is touched."""
        data = parse_import(body)
        hist = body.get("history")
        practice = bool(hist.get("practice", False)) if isinstance(hist, dict) else False
        t = tables.create(str(data["game"]), data.get("setup"), data.get("seed"), practice,
                          base=data)
        return _created(t, str(request.base_url))

    @app.get("/api/tables/{table_id}", response_model=TableState, tags=["tables"],
             responses=ERRORS)
    def get_table(table_id: str, cred: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(bearer)] = None) -> dict[str, Any]:
        """The table as this seat (or a spectator, without a token) sees it."""
        t = tables.get(table_id)
        return t.snapshot_for(seat_for(t, cred))

    @app.post("/api/tables/{table_id}/actions", response_model=StepResult, tags=["play"],
              responses=ERRORS)
    def act(table_id: str, body: ActionIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """Take one action; returns the events of that step and the new state."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        row = t.act(seat, body.action, body.version)
        done(t, row.seq)
        return {"events": row.data.get("events", []), "state": t.snapshot_for(seat)}

    @app.post("/api/tables/{table_id}/undo", response_model=StepResult, tags=["play"],
              responses=ERRORS)
    def undo(table_id: str, body: UndoIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """Take back steps, never past a random event (except at a practice table); taking
        back other seats' steps becomes a proposal they must all agree to."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        row = t.undo(seat, body.steps, body.version)
        done(t, row.seq)
        return {"events": [], "state": t.snapshot_for(seat)}

    @app.post("/api/tables/{table_id}/undo/answer", response_model=StepResult, tags=["play"],
              responses=ERRORS)
    def answer(table_id: str, body: AnswerIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """Agree to (or decline) another seat's undo proposal."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        row = t.answer(seat, body.agree, body.version)
        done(t, row.seq)
        return {"events": [], "state": t.snapshot_for(seat)}

    @app.post("/api/tables/{table_id}/concede", response_model=StepResult, tags=["play"],
              responses=ERRORS)
    def concede(table_id: str, body: ConcedeIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """The players give up this game: it ends as a loss (a table command, never an
        action)."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        row = t.concede(seat, body.reason, body.version)
        done(t, row.seq)
        return {"events": row.data.get("events", []), "state": t.snapshot_for(seat)}

    @app.post("/api/tables/{table_id}/seats/{target}", response_model=StepResult,
              tags=["play"], responses=ERRORS)
    def hand_over(table_id: str, target: str, body: SeatIn, cred: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)] = None) -> dict[str, Any]:
        """Hand a seat to a bot or to another seat's holder, or take it back (``""``)."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        row = t.hand_over(seat, target, body.holder, body.version,
                          lambda s: hub.is_present(table_id, s))
        done(t, row.seq)
        return {"events": [], "state": t.snapshot_for(seat)}

    @app.get("/api/tables/{table_id}/save", tags=["tables"], responses=ERRORS)
    def save(table_id: str, token: Annotated[str | None, Query(
                 max_length=200, description="a seat token (or the Authorization header)")
             ] = None, cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
             = None) -> JSONResponse:
        """The table's position (docs/formats.md) with its undo history and journal, for a
        seat: a save holds what the table hides (face-down markers), so spectators get 403."""
        t = tables.get(table_id)
        if t.seat_of_token(_token(cred) or token) is None:
            raise Forbidden("a save shows what the table hides: a seat link is needed")
        return JSONResponse(t.save(), headers={
            "Content-Disposition": f'attachment; filename="{t.row.game}-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay", response_model=ReplayStep, tags=["tables"],
             responses=ERRORS)
    def replay(table_id: str, step: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
               cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None
               ) -> dict[str, Any]:
        """The table after ``step`` steps from its start, with that step's events."""
        t = tables.get(table_id)
        seat = seat_for(t, cred)
        entry, state, n = pages.replay_state(t, step)
        return {"step": min(step, n), "steps": n, "entry": entry, "view": state.view(seat)}

    # ------------------------------------------------------------------ live
    @app.websocket("/api/tables/{table_id}/live")
    async def live(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes ``{"version": n}`` each time the table changes, with ``"presence": true``
        when a seat comes or goes (and once on connecting)."""
        try:
            t = tables.get(table_id)
            seat = t.seat_of_token(token)
        except TableError as e:
            await ws.close(code=4403 if e.status == 403 else 4404, reason=str(e)[:120])
            return
        await ws.accept()
        loop = asyncio.get_running_loop()
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sub = (loop, q)
        hub.subs.setdefault(table_id, set()).add(sub)
        pres = hub.present.setdefault(table_id, Counter())
        if seat:
            pres[seat] += 1
            hub.publish(table_id, t.version, presence=True)  # others see who is present
        try:
            await ws.send_json({"version": t.version, "seat": seat})
            receiver = asyncio.create_task(ws.receive_text())
            while True:
                getter = asyncio.create_task(q.get())
                finished, _ = await asyncio.wait({getter, receiver}, timeout=25,
                                                 return_when=asyncio.FIRST_COMPLETED)
                if receiver in finished:
                    receiver.result()  # raises on disconnect
                    receiver = asyncio.create_task(ws.receive_text())
                    await ws.send_json({"version": t.version, "seat": seat})
                if getter in finished:
                    await ws.send_json({**getter.result(), "seat": seat})
                else:
                    getter.cancel()
                    if not finished:
                        await ws.send_json({"ping": True, "version": t.version})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.subs.get(table_id, set()).discard(sub)
            if seat:
                pres[seat] -= 1
                hub.publish(table_id, t.version, presence=True)

    # ------------------------------------------------------------------ pages
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby(request: Request) -> str:
        return pages.lobby(tables, store)

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(table_id: str, token: str | None = None) -> str:
        t = tables.get(table_id)
        seat = t.seat_of_token(token)
        return pages.table(t, seat, token, lambda s: hub.is_present(table_id, s))

    @app.get("/t/{table_id}/fragment", response_class=HTMLResponse, include_in_schema=False)
    def fragment(table_id: str, token: str | None = None) -> str:
        t = tables.get(table_id)
        seat = t.seat_of_token(token)
        return pages.table_body(t, seat, token, lambda s: hub.is_present(table_id, s))

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    def replay_page(table_id: str, step: int = 0, seq: int | None = None,
                    token: str | None = None) -> str:
        t = tables.get(table_id)
        seat = t.seat_of_token(token)
        if seq is not None:
            line = t.replay_line()
            step = next((i + 1 for i, e in enumerate(line) if e["seq"] == seq), step)
        return pages.replay(t, seat, token, max(0, step))

    @app.get("/t/{table_id}/sheet", response_class=HTMLResponse, include_in_schema=False)
    def sheet_page(table_id: str, token: str | None = None) -> str:
        t = tables.get(table_id)
        return pages.sheet(t, t.seat_of_token(token), token)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid request')}",
                             "errors": _jsonable(exc.errors())}, status_code=422)

    return app


def _jsonable(errors: Any) -> Any:
    """Validation errors made safe to send back: the input they echo may hold what JSON
    cannot carry (NaN, Infinity, a lone surrogate), which is written out as text."""

    def clean(x: Any) -> Any:
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        if isinstance(x, str):
            return x.encode("utf-8", "backslashreplace").decode("utf-8")
        if isinstance(x, dict):
            return {clean(str(k)): clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        if x is None or isinstance(x, (bool, int)):
            return x
        return clean(str(x))

    return clean(errors)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON can carry")


def body_problem(body: bytes) -> str | None:
    """What makes a request body unfit, in a sentence naming where (None: it is fine): not
    UTF-8, a JSON syntax error (line and column), NaN or Infinity, or a lone surrogate."""
    if not body.strip():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"the body is not UTF-8 text (byte {e.start})"
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        return f"the body is not valid JSON: line {e.lineno} column {e.colno}: {e.msg}"
    except ValueError as e:
        return f"body: {e}"
    except RecursionError:
        return "body: nested too deeply"
    where = _surrogate_at(data, "body")
    return f"{where}: holds a lone surrogate (\\ud800-\\udfff), which is not text" \
        if where else None


def _surrogate_at(x: Any, path: str) -> str | None:
    stack = [(x, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return p
        elif isinstance(v, dict):
            for k, w in v.items():
                try:
                    k.encode("utf-8")
                except UnicodeEncodeError:
                    return p
                stack.append((w, f"{p}.{k}"))
        elif isinstance(v, list):
            stack.extend((w, f"{p}.{i}") for i, w in enumerate(v))
    return None


class BodyGuard:
    """Reads a request's body before the app does, on the stream (chunked or not): more than
    :data:`MAX_BODY` bytes is refused with 413 as soon as it is exceeded; a body that is not
    JSON a table can keep (a syntax error, NaN, Infinity, a lone surrogate) with 422 naming
    where. The app then reads the body from memory."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        size = dict(scope.get("headers") or []).get(b"content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            await _refuse(send, 413, f"request body too large (at most {MAX_BODY} bytes)")
            return
        chunks: list[bytes] = []
        total = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            part = msg.get("body", b"")
            total += len(part)
            if total > MAX_BODY:
                await _refuse(send, 413, f"request body too large (at most {MAX_BODY} bytes)")
                return
            chunks.append(part)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = body_problem(body)
        if problem is not None:
            await _refuse(send, 422, problem)
            return
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return dict(await receive())

        await self.app(scope, replay, send)


async def _refuse(send: Any, status: int, detail: str) -> None:
    payload = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": payload})


def _seat_or_none(t: Table, header: str | None) -> str | None:
    if not header or not header.lower().startswith("bearer "):
        return None
    try:
        return t.seat_of_token(header[7:].strip())
    except TableError:
        return None


def _created(t: Table, base_url: str) -> dict[str, Any]:
    base = base_url.rstrip("/")
    return {"id": t.row.id, "seats": dict(t.row.tokens),
            "spectator": f"{base}/t/{t.row.id}",
            "links": {s: f"{base}/t/{t.row.id}?token={tok}" for s, tok in t.row.tokens.items()}}
