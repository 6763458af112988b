"""Hostile input the table server must answer with a clear 4xx, never a 500 (issue 18, "The
table server" items 1-4; issue 19 item 11)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meadhall.server.app import MAX_BODY, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.sqlite3", bot_delay=0)) as c:
        yield c


def _stored(client: TestClient) -> int:
    """How many tables the database holds (the listing shows only public and own ones)."""
    return len(client.app.state.store.tables())  # type: ignore[attr-defined]


def _table(client: TestClient) -> dict:
    r = client.post("/api/tables", json={"game": "toy", "seed": 7})
    assert r.status_code == 201
    return r.json()


# ------------------------------------------------------------------ 1: non-ASCII tokens
@pytest.mark.parametrize("token", ["é", "%C3%A9", "\u2603" * 10, "tok\u00ffen"])
def test_a_non_ascii_token_is_refused_everywhere(client: TestClient, token: str) -> None:
    t = _table(client)
    tid = t["id"]
    assert client.get(f"/api/tables/{tid}/save", params={"token": token}).status_code == 403
    assert client.get(f"/t/{tid}", params={"token": token}).status_code == 403
    assert client.get(f"/t/{tid}/fragment", params={"token": token}).status_code == 403
    assert client.get(f"/t/{tid}/replay", params={"token": token}).status_code == 403
    raw = token.encode("utf-8")  # a header as a client sends it: bytes, not ASCII
    headers = [(b"authorization", b"Bearer " + raw)]
    for method, path, body in [("GET", f"/api/tables/{tid}", None),
                               ("GET", f"/api/tables/{tid}/save", None),
                               ("GET", f"/api/tables/{tid}/replay", None),
                               ("POST", f"/api/tables/{tid}/actions",
                                {"action": "wait", "version": 0}),
                               ("POST", f"/api/tables/{tid}/undo", {"version": 0})]:
        r = client.request(method, path, headers=headers, json=body)
        assert r.status_code in (401, 403), (path, r.status_code, r.text)
    with pytest.raises(WebSocketDisconnect) as e, \
            client.websocket_connect(f"/api/tables/{tid}/live?token={token}") as ws:
        ws.receive_json()
    assert e.value.code == 4403


# ------------------------------------------------------------------ 2: NaN and Infinity
@pytest.mark.parametrize("body", ['{"game": "toy", "seed": NaN}',
                                  '{"game": "toy", "seed": Infinity}',
                                  '{"game": "toy", "seed": -Infinity}',
                                  '{"game": "toy", "setup": {"x": NaN}}'])
def test_nan_and_infinity_are_refused_on_create(client: TestClient, body: str) -> None:
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert "not a number JSON can carry" in r.json()["detail"]


def test_nan_and_infinity_are_refused_on_play(client: TestClient) -> None:
    t = _table(client)
    tid, h = t["id"], {"Authorization": f"Bearer {t['seats']['ada']}",
                       "content-type": "application/json"}
    for path, body in [("actions", '{"action": "wait", "version": Infinity}'),
                       ("undo", '{"version": 0, "steps": NaN}'),
                       ("concede", '{"version": NaN}'),
                       ("seats/ada", '{"version": NaN, "holder": ""}')]:
        r = client.post(f"/api/tables/{tid}/{path}", content=body, headers=h)
        assert r.status_code == 422, (path, r.text)
    r = client.post("/api/tables/import", content='{"game": "toy", "seed": NaN}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422


# ------------------------------------------------------------------ 3: lone surrogates
def test_a_lone_surrogate_is_refused(client: TestClient) -> None:
    t = _table(client)
    tid, tok = t["id"], t["seats"]["ada"]
    h = {"Authorization": f"Bearer {tok}", "content-type": "application/json"}
    cases = [("/api/tables", '{"game": "\\ud800"}'),
             (f"/api/tables/{tid}/actions", '{"action": "move \\ud800", "version": 0}'),
             (f"/api/tables/{tid}/concede", '{"version": 0, "reason": "\\udfff"}'),
             ("/api/tables/import", '{"game": "toy", "setup": {"\\ud800": 1}}')]
    for path, body in cases:
        r = client.post(path, content=body, headers=h)
        assert r.status_code == 422, (path, r.text)
        assert "lone surrogate" in r.json()["detail"]
    # nothing was done
    assert client.get(f"/api/tables/{tid}").json()["version"] == 0


# ------------------------------------------------------------------ 4: the body limit
def test_a_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        yield b'{"game": "toy", "junk": "'
        for _ in range(48):
            sent += 1
            yield b"x" * (1024 * 1024)
        yield b'"}'

    r = client.post("/api/tables/import", content=chunks(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert _stored(client) == 0


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = b'{"game": "toy", "seed": 3, "setup": {}, "pad": "' + b"x" * (MAX_BODY - 100) + b'"}'
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422  # read whole, then refused by the schema: 'pad' is unknown
    assert "pad" in r.json()["detail"]


# ------------------------------------------------------------------ issue 19, item 11
def test_a_json_syntax_error_names_line_and_column(client: TestClient) -> None:
    r = client.post("/api/tables/import", content=b'{\n  "game": "toy",\n  "log": [\n',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert "line 4 column 1" in r.json()["detail"]


# ------------------------------------------------------------------ 6: undo consent
TWO = {"scenario": "chase", "heroes": ["ada", "bo"]}


def _two(client: TestClient, practice: bool = False) -> dict:
    r = client.post("/api/tables", json={"game": "toy", "seed": 7, "setup": TWO,
                                         "practice": practice})
    assert r.status_code == 201
    return r.json()


def _post(client: TestClient, t: dict, seat: str, path: str, body: dict) -> dict:
    r = client.post(f"/api/tables/{t['id']}/{path}", json=body,
                    headers={"Authorization": f"Bearer {t['seats'][seat]}"})
    assert r.status_code == 200, r.text
    return r.json()["state"]


@pytest.mark.parametrize("holder", ["bot:random", "seat:bo"])
def test_a_handed_over_seat_gives_no_consent_to_undo_its_owners_steps(
        client: TestClient, holder: str) -> None:
    t = _two(client)
    _post(client, t, "ada", "actions", {"action": "move B1", "version": 0})
    _post(client, t, "bo", "seats/ada", {"version": 1, "holder": holder})
    s = _post(client, t, "bo", "undo", {"version": 2, "steps": 1})
    assert s["undo"]["proposal"] is not None and s["undo"]["proposal"]["waiting"] == ["ada"]
    assert s["view"] == _post(client, t, "ada", "undo/answer",
                              {"version": 3, "agree": False})["view"]  # nothing taken back
    journal = client.get(f"/api/tables/{t['id']}").json()["journal"]
    assert not any(e.get("undone") for e in journal)


def test_steps_taken_for_another_seat_are_the_takers_to_undo(client: TestClient) -> None:
    t = _two(client)
    _post(client, t, "bo", "seats/ada", {"version": 0, "holder": "seat:bo"})
    _post(client, t, "bo", "actions", {"action": "move B1", "version": 1})  # for ada
    s = _post(client, t, "bo", "undo", {"version": 2, "steps": 1})
    assert s["undo"]["proposal"] is None and s["decision"]["owner"] == "ada"


def test_a_practice_table_rewinds_freely(client: TestClient) -> None:
    t = _two(client, practice=True)
    _post(client, t, "ada", "actions", {"action": "move B1", "version": 0})
    s = _post(client, t, "bo", "undo", {"version": 1, "steps": 1})
    assert s["undo"]["proposal"] is None and s["decision"]["owner"] == "ada"


# ------------------------------------------------------------------ 7: a seat's save
def _keys(x: object, out: list) -> list:
    if isinstance(x, dict):
        for k, v in x.items():
            out.append((k, v))
            _keys(v, out)
    elif isinstance(x, list):
        for v in x:
            _keys(v, out)
    return out


def test_a_seats_save_holds_no_seed_or_generator_state(client: TestClient) -> None:
    t = _two(client)
    _post(client, t, "ada", "actions", {"action": "move B1", "version": 0})
    save = client.get(f"/api/tables/{t['id']}/save",
                      headers={"Authorization": f"Bearer {t['seats']['bo']}"}).json()
    found = _keys(save, [])
    assert all(v is None for k, v in found if k == "seed")
    assert not [k for k, _ in found if k == "rng"]
    assert save["history"]["base"]["seed"] is None
    # imported twice, each copy draws a future of its own; undo still works
    seeds = set()
    for _ in range(2):
        r = client.post("/api/tables/import", json=save)
        assert r.status_code == 201, r.text
        t2 = r.json()
        seeds.add(client.app.state.tables.get(t2["id"]).state.seed)  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{t2['id']}").json()["undo"]["available"] == 1
    assert len(seeds) == 2


def test_a_save_without_seed_loads_in_the_terminal(tmp_path: Path) -> None:
    from meadhall import games
    from meadhall.core import saves
    from meadhall.core.protocol import without_future

    s = games.get("niflheim").new_game(None, 3)
    s.apply(s.legal_actions()[0])
    p = tmp_path / "seat.json"
    data = without_future(saves.Save.new(s).to_json())
    p.write_text(__import__("json").dumps(data))
    loaded = saves.open_save(p)
    assert loaded.state.seed != s.seed and loaded.state.log == s.log
    assert loaded.history.follows(loaded.state)


# ------------------------------------------------------------------ 5: bots at tables
@pytest.mark.parametrize("spec", ["mcts:99999999s", "mcts:999999999999", "heuristic:500",
                                  "mcts:10:depth=999"])
def test_a_bot_budget_beyond_the_limit_is_refused(client: TestClient, spec: str) -> None:
    t = _two(client)
    r = client.post(f"/api/tables/{t['id']}/seats/bo", json={"version": 0, "holder": f"bot:{spec}"},
                    headers={"Authorization": f"Bearer {t['seats']['ada']}"})
    assert r.status_code == 422, r.text
    assert "at most" in r.json()["detail"]


def test_a_stored_bot_beyond_the_limit_is_cut_to_it() -> None:
    from meadhall.server.tables import BOT_MAX_SECONDS, table_bot_spec

    assert table_bot_spec("mcts:99999999s", clamp=True) == f"mcts:{BOT_MAX_SECONDS:g}s"
    assert table_bot_spec("mcts:1s:c=0.2") == "mcts:1s:c=0.2"
    assert table_bot_spec("heuristic:3") == "heuristic:3"


def test_a_slow_bot_never_stalls_another_table(tmp_path: Path) -> None:
    import threading
    import time

    from meadhall.server.store import Store
    from meadhall.server.tables import Table, Tables

    tables = Tables(Store(tmp_path / "b.sqlite3"), bot_delay=0)
    slow = tables.create("toy", TWO, 7)
    fast = tables.create("toy", TWO, 7)
    for t in (slow, fast):
        for seat in t.seats:
            t.hand_over(seat, seat, "bot:random", t.version, lambda s: False)
    release = threading.Event()
    thinking = threading.Event()
    real = Table.bot_move

    def bot_move(self: Table) -> object:
        if self is slow:
            thinking.set()
            release.wait(30)
        return real(self)

    Table.bot_move = bot_move  # type: ignore[method-assign]
    try:
        tables.start_bots()
        tables.wake(slow.row.id)
        assert thinking.wait(10)
        tables.wake(fast.row.id)
        deadline = time.monotonic() + 60
        while fast.state.decision() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fast.state.decision() is None  # the fast table played to its end
        assert slow.version == len(slow.seats)  # while the slow one still thinks
    finally:
        release.set()
        Table.bot_move = real  # type: ignore[method-assign]
        tables.stop_bots()


# ------------------------------------------------------------------ 8 and issue 19 item 11
NOW = Path(__file__).parent.parent / "fixtures" / "versions" / "2026-12-01"


def _import(client: TestClient, save: object) -> tuple[int, str]:
    r = client.post("/api/tables/import", json=save)
    return r.status_code, r.json().get("detail", "") if r.status_code != 201 else ""


def test_a_setup_is_validated_by_its_game_before_anything_is_stored(
        client: TestClient) -> None:
    for setup, word in [({"party": {"blob": "x" * 1000}}, "party.blob"),
                        ({"party": {"unlocks": {"items": ["nothing"]}}}, "party.unlocks"),
                        ({"party": "x" * (1024 * 1024)}, "setup: too large"),
                        ({"heroes": ["harkon"] * 3}, "heroes")]:
        r = client.post("/api/tables", json={"game": "midhalla", "setup": setup})
        assert r.status_code == 422, (setup, r.text[:200])
        assert word in r.json()["detail"]
    assert _stored(client) == 0


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(format=3), "format"),
    (lambda d: d.update(version="1"), "version"),
    (lambda d: d.pop("setup"), "setup"),
    (lambda d: d["chance"].pop("mode"), "chance.mode"),
    (lambda d: d.pop("position") and d.pop("log"), "position"),
])
def test_a_damaged_save_is_refused_naming_the_field(client: TestClient, mutate: object,
                                                     field: str) -> None:
    import json

    data = json.loads((NOW / "midhalla-1.json").read_text())
    mutate(data)  # type: ignore[operator]
    status, detail = _import(client, data)
    assert status == 422 and field in detail, detail
    assert _stored(client) == 0


def test_a_save_missing_a_field_of_its_position_is_refused(client: TestClient) -> None:
    import json

    data = json.loads((NOW / "battleforge-1.json").read_text())
    minion = next(iter(data["position"]["minions"].values())) \
        if isinstance(data["position"]["minions"], dict) else data["position"]["minions"][0]
    del minion["damage"]
    status, detail = _import(client, data)
    assert status == 422 and "position.minions." in detail and "damage" in detail, detail


def test_a_gutted_save_is_refused_by_the_server_and_the_terminal(
        client: TestClient, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from meadhall.cli import app

    gutted = {"format": "meadhall/position", "version": 1, "game": "niflheim"}
    status, detail = _import(client, gutted)
    assert status == 422 and "position: missing" in detail
    f = tmp_path / "gutted.json"
    f.write_text(json.dumps(gutted))
    r = CliRunner().invoke(app, ["show", str(f)])
    assert r.exit_code == 1 and "gutted.json: position: missing" in r.output
    f.write_text('{"game": "toy",\n "log": [')
    r = CliRunner().invoke(app, ["show", str(f)])
    assert r.exit_code == 1 and "line 2 column" in r.output


def test_a_save_whose_action_would_fail_in_a_rule_is_refused_on_import(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutated position that loads but breaks a rule once played on (the issue saw Midhalla's
    position.enemies.* end in a ValueError inside apply) is refused on import, not later."""
    import json

    from meadhall.games.toy.game import ToyState

    data = json.loads((NOW / "toy-1.json").read_text())
    real = ToyState._apply

    def broken(self: ToyState, action: str, events: list) -> None:
        if action == "wait":
            raise ValueError("a rule met a value it cannot use")
        real(self, action, events)

    monkeypatch.setattr(ToyState, "_apply", broken)
    status, detail = _import(client, data)
    assert status == 422 and "corrupt" in detail and "ValueError" in detail
    assert _stored(client) == 0


# ------------------------------------------------------------------ 10: who sees which tables
def test_tables_are_listed_to_their_seats_and_public_ones_to_everyone(
        client: TestClient) -> None:
    own = _two(client)
    other = _two(client)
    r = client.post("/api/tables", json={"game": "toy", "seed": 1, "public": True})
    public = r.json()
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [public["id"]] and listed[0]["public"]
    mine = client.get("/api/tables", headers={"X-Meadhall-Seats": own["seats"]["bo"]}).json()
    assert {t["id"]: t["seat"] for t in mine} == {own["id"]: "bo", public["id"]: None}
    assert other["id"] not in client.get("/").text  # nor in the lobby page
    # a spectator cannot list a table; a seat can, and take it back
    path = f"/api/tables/{other['id']}/public"
    assert client.post(path, json={"public": True}).status_code == 403
    r = client.post(path, json={"public": True},
                    headers={"Authorization": f"Bearer {other['seats']['ada']}"})
    assert r.status_code == 200 and r.json()["public"]
    assert other["id"] in {t["id"] for t in client.get("/api/tables").json()}
    assert other["id"] in client.get("/").text
    # the spectator link still watches an unlisted table
    assert client.get(f"/t/{own['id']}").status_code == 200


# ------------------------------------------------------------------ 9: restarts
def test_a_restart_loads_only_the_tables_with_bots(tmp_path: Path) -> None:
    from meadhall.server.store import Store
    from meadhall.server.tables import Tables

    db = tmp_path / "r.sqlite3"
    tables = Tables(Store(db), bot_delay=0)
    plain = [tables.create("toy", TWO, i) for i in range(4)]
    botted = tables.create("toy", TWO, 9)
    botted.hand_over("bo", "bo", "bot:random", 0, lambda s: False)
    tables.store.close()
    again = Tables(Store(db), bot_delay=0)
    assert again.resume_all() == 1
    assert set(again.live) == {botted.row.id}
    assert again.get(plain[2].row.id).version == 0  # loaded when asked for
    again.store.close()


def test_loading_one_table_holds_up_no_other(tmp_path: Path) -> None:
    import threading

    from meadhall.server.store import Store
    from meadhall.server.tables import Table, Tables

    db = tmp_path / "l.sqlite3"
    first = Tables(Store(db), bot_delay=0)
    slow_id = first.create("toy", TWO, 1).row.id
    fast_id = first.create("toy", TWO, 2).row.id
    first.store.close()
    tables = Tables(Store(db), bot_delay=0)
    release, started = threading.Event(), threading.Event()
    real = Table.load.__func__  # type: ignore[attr-defined]

    def load(cls: type[Table], row: object, store: object) -> Table:
        if row.id == slow_id:  # type: ignore[attr-defined]
            started.set()
            release.wait(30)
        return real(cls, row, store)

    Table.load = classmethod(load)  # type: ignore[assignment, method-assign]
    try:
        th = threading.Thread(target=tables.get, args=(slow_id,))
        th.start()
        assert started.wait(10)
        done = threading.Event()
        threading.Thread(target=lambda: (tables.get(fast_id), done.set())).start()
        assert done.wait(10), "the other table waited for the slow one"
        release.set()
        th.join(10)
    finally:
        release.set()
        Table.load = classmethod(real)  # type: ignore[assignment, method-assign]
