"""The table's HTTP API through FastAPI's TestClient: seats, versions, undo, import, restarts."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meadhall import games
from meadhall.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0)) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, game: str = "toy", **kw: Any) -> dict[str, Any]:
    body = {"game": game, "setup": kw.pop("setup", {}), "seed": kw.pop("seed", 7), **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(client: TestClient, t: dict[str, Any], seat: str | None = None) -> dict[str, Any]:
    h = auth(t["seats"][seat]) if seat else {}
    r = client.get(f"/api/tables/{t['id']}", headers=h)
    assert r.status_code == 200, r.text
    return r.json()


def act(client: TestClient, t: dict[str, Any], seat: str, action: str, version: int) -> Any:
    return client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["seats"][seat]),
                       json={"action": action, "version": version})


TWO = {"scenario": "chase", "heroes": ["ada", "bo"]}


def test_games_registry(client: TestClient) -> None:
    r = client.get("/api/games").json()
    ids = {g["id"] for g in r}
    assert ids == set(games.ids())
    toy = next(g for g in r if g["id"] == "toy")
    assert toy["setup"] == {"scenario": "chase", "heroes": ["ada"]}
    assert {"id", "name", "note"} <= set(toy["heroes"][0])


def test_games_offer_campaign_where_their_setup_accepts_it(client: TestClient) -> None:
    """Midhalla's default setup leaves ``campaign`` out, but its setup takes it: the registry
    offers it (off), as Niflheim's; games whose setup has no campaign do not."""
    setup = {g["id"]: g["setup"] for g in client.get("/api/games").json()}
    assert setup["midhalla"]["campaign"] is False and setup["niflheim"]["campaign"] is False
    assert "campaign" not in setup["toy"] and "campaign" not in setup["battleforge"]
    # players: offered (left out unless given) where the setup takes a number of players
    assert setup["battleforge"]["players"] is None and setup["runaljod"]["players"] is None
    assert "players" not in setup["niflheim"] and "players" not in setup["toy"]
    t = new_table(client, "midhalla", setup={"campaign": True})
    s = state(client, t)
    assert s["setup"]["campaign"] is True
    assert "campaign sheet" in client.get(f"/t/{t['id']}").text


def test_create_returns_seat_tokens_and_spectator_link(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    assert set(t["seats"]) == {"ada", "bo"}
    assert len(set(t["seats"].values())) == 2 and all(len(x) >= 20 for x in t["seats"].values())
    assert t["spectator"].endswith(f"/t/{t['id']}")
    s = state(client, t, "ada")
    assert s["version"] == 0 and s["seat"] == "ada" and s["can_act"]
    assert {"text", "label", "targets"} <= set(s["actions"][0])
    assert s["decision"]["owner"] == "ada" and s["outcome"]["result"] == "ongoing"
    spectator = state(client, t)
    assert spectator["seat"] is None and not spectator["can_act"] and spectator["actions"] == []


def test_bad_setups_are_422_with_a_message(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "nope", "setup": {}})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "toy", "setup": {"heroes": ["zed"]}})
    assert r.status_code == 422 and "zed" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "toy", "setup": {"scenario": 5}})
    assert r.status_code == 422
    r = client.post("/api/tables", json={"game": "toy", "extra": 1})
    assert r.status_code == 422


def test_acting_seats_tokens_and_versions(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    # bo cannot act on ada's turn; a wrong token is refused; spectators cannot act
    r = act(client, t, "bo", "move B1", 0)
    assert r.status_code == 403 and "Ada's decision" in r.json()["detail"]
    r = client.post(f"/api/tables/{t['id']}/actions", headers=auth("nonsense"),
                    json={"action": "move B1", "version": 0})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{t['id']}/actions", json={"action": "move B1", "version": 0})
    assert r.status_code == 403 and "spectator" in r.json()["detail"]
    # an illegal action names the rule and changes nothing
    r = act(client, t, "ada", "move E5", 0)
    assert r.status_code == 422 and "Hero Turn" in r.json()["detail"]
    assert state(client, t, "ada")["version"] == 0
    r = act(client, t, "ada", "move B1", 0)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["state"]["version"] == 1
    assert body["events"][0]["text"] == "Ada moves to B1"
    assert body["events"][0]["section"] == "Hero Turn"
    # a stale version is 409 with the current state
    r = act(client, t, "bo", "wait", 0)
    assert r.status_code == 409
    assert r.json()["state"]["version"] == 1 and r.json()["state"]["seat"] == "bo"
    journal = state(client, t, "bo")["journal"]
    assert journal[-1]["label"] == "Ada moves to B1" and journal[-1]["seat"] == "ada"


def test_unknown_table_404(client: TestClient) -> None:
    assert client.get("/api/tables/nosuch").status_code == 404
    r = client.post("/api/tables/nosuch/actions", json={"action": "x", "version": 0})
    assert r.status_code == 404


def test_two_seats_at_once_neither_lose_nor_duplicate(client: TestClient) -> None:
    """Many requests at the same version: exactly one is accepted, the rest get 409."""
    t = new_table(client, setup={"scenario": "chase", "heroes": ["ada"]})
    token = t["seats"]["ada"]
    results: list[int] = []
    barrier = threading.Barrier(8)

    def go(action: str) -> None:
        barrier.wait()
        r = client.post(f"/api/tables/{t['id']}/actions", headers=auth(token),
                        json={"action": action, "version": 0})
        results.append(r.status_code)

    threads = [threading.Thread(target=go, args=(a,)) for a in ["move B1", "wait"] * 4]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [200] + [409] * 7
    s = state(client, t, "ada")
    assert s["version"] == 1 and len([e for e in s["journal"] if e["kind"] == "act"]) == 1


def players_choice_save() -> dict[str, Any]:
    """A toy position where the players must choose the troll's step (found by random play)."""
    from meadhall.bots.random import RandomBot
    from meadhall.core.protocol import PLAYERS

    g = games.get("toy")
    for seed in range(200):
        st = g.new_game(TWO, seed)
        bot = RandomBot(seed)
        for _ in range(80):
            d = st.decision()
            if d is None:
                break
            if d.seat == PLAYERS:
                return st.to_json()
            st.apply(bot.choose(st))
    raise AssertionError("no players' choice in 200 random toy games")


def test_players_choice_any_seat(client: TestClient) -> None:
    r = client.post("/api/tables/import", json=players_choice_save())
    assert r.status_code == 201, r.text
    t = r.json()
    for seat in ("ada", "bo"):
        s = state(client, t, seat)
        assert s["decision"]["owner"] == "players" and s["can_act"]
        assert s["decision"]["default"] in {a["text"] for a in s["actions"]}
    r = act(client, t, "bo", s["actions"][0]["text"], s["version"])
    assert r.status_code == 200, r.text


def test_undo_own_step_and_proposal_for_others(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    assert act(client, t, "ada", "move B1", 0).status_code == 200
    # ada takes her own step back at once
    r = client.post(f"/api/tables/{t['id']}/undo", headers=auth(t["seats"]["ada"]),
                    json={"version": 1})
    assert r.status_code == 200
    s = r.json()["state"]
    assert s["version"] == 2 and s["decision"]["owner"] == "ada" and s["undo"]["available"] == 0
    assert any(e.get("undone") for e in s["journal"])
    # ada moves, then bo asks to undo: ada's step is taken back only if ada agrees
    assert act(client, t, "ada", "move A2", 2).status_code == 200
    r = client.post(f"/api/tables/{t['id']}/undo", headers=auth(t["seats"]["bo"]),
                    json={"version": 3, "steps": 1})
    assert r.status_code == 200
    s = r.json()["state"]
    assert s["undo"]["proposal"]["waiting"] == ["ada"] and s["decision"]["owner"] == "bo"
    r = client.post(f"/api/tables/{t['id']}/undo/answer", headers=auth(t["seats"]["bo"]),
                    json={"version": 4, "agree": True})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{t['id']}/undo/answer", headers=auth(t["seats"]["ada"]),
                    json={"version": 4, "agree": True})
    assert r.status_code == 200
    s = r.json()["state"]
    assert s["decision"]["owner"] == "ada" and s["undo"]["proposal"] is None
    # a declined proposal changes nothing
    assert act(client, t, "ada", "wait", 5).status_code == 200
    client.post(f"/api/tables/{t['id']}/undo", headers=auth(t["seats"]["bo"]),
                json={"version": 6, "steps": 1})
    r = client.post(f"/api/tables/{t['id']}/undo/answer", headers=auth(t["seats"]["ada"]),
                    json={"version": 7, "agree": False})
    assert r.json()["state"]["decision"]["owner"] == "bo"


def test_undo_never_past_a_random_event(client: TestClient) -> None:
    t = new_table(client)
    s = state(client, t, "ada")
    # the solo hero's turn ends the round: the wind card is drawn (random)
    r = act(client, t, "ada", "wait", s["version"])
    assert r.status_code == 200 and any(e["kind"] == "wind" for e in r.json()["events"])
    r = client.post(f"/api/tables/{t['id']}/undo", headers=auth(t["seats"]["ada"]),
                    json={"version": r.json()["state"]["version"]})
    assert r.status_code == 422 and "random event" in r.json()["detail"]


def test_practice_table_rewinds_past_chance(client: TestClient) -> None:
    t = new_table(client, practice=True)
    r = act(client, t, "ada", "wait", 0)
    assert any(e["kind"] == "wind" for e in r.json()["events"])
    r = client.post(f"/api/tables/{t['id']}/undo", headers=auth(t["seats"]["ada"]),
                    json={"version": 1})
    assert r.status_code == 200 and r.json()["state"]["view"]["round"] == 1


def test_bot_takes_a_seat_and_gives_it_back(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    r = client.post(f"/api/tables/{t['id']}/seats/bo", headers=auth(t["seats"]["ada"]),
                    json={"version": 0, "holder": "bot:random"})
    assert r.status_code == 200, r.text
    assert act(client, t, "ada", "wait", 1).status_code == 200
    # the bot plays bo's turn by itself (bot runner, no delay in tests)
    import time

    for _ in range(100):
        s = state(client, t, "ada")
        if any(e["kind"] == "act" and e["seat"] == "bo" for e in s["journal"]):
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bot did not play bo's turn")
    r = client.post(f"/api/tables/{t['id']}/seats/bo", headers=auth(t["seats"]["bo"]),
                    json={"version": s["version"], "holder": ""})
    assert r.status_code in (200, 409)
    r = client.post(f"/api/tables/{t['id']}/seats/bo", headers=auth(t["seats"]["ada"]),
                    json={"version": state(client, t, "ada")["version"],
                          "holder": "bot:nobody"})
    assert r.status_code == 422 and "unknown bot" in r.json()["detail"]
    assert set(client.get("/api/bots").json()) >= {"random", "heuristic"}


def test_every_seat_to_bots_plays_the_game_to_its_end(client: TestClient) -> None:
    """Bots in every seat (the heuristic one included) play a game through, players'
    choices too."""
    import time

    t = new_table(client, setup=TWO)
    v = 0
    for seat, spec in (("bo", "random"), ("ada", "heuristic")):
        r = client.post(f"/api/tables/{t['id']}/seats/{seat}", headers=auth(t["seats"]["ada"]),
                        json={"version": v, "holder": f"bot:{spec}"})
        assert r.status_code == 200, r.text
        v = r.json()["state"]["version"]
    for _ in range(600):
        s = state(client, t, "ada")
        if s["outcome"]["result"] != "ongoing":
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bots did not finish the game")
    bys = {e.get("by") for e in s["journal"] if e["kind"] == "act"}
    assert "the heuristic bot" in bys


def test_concede_is_a_table_command(client: TestClient) -> None:
    t = new_table(client)
    r = client.post(f"/api/tables/{t['id']}/concede", headers=auth(t["seats"]["ada"]),
                    json={"version": 0, "reason": "too hard"})
    assert r.status_code == 200
    s = r.json()["state"]
    assert s["outcome"]["result"] == "loss" and "too hard" in s["outcome"]["reason"]
    assert s["actions"] == [] and s["decision"] is None
    assert act(client, t, "ada", "wait", s["version"]).status_code == 422


def test_restart_resumes_every_table(db: Path) -> None:
    with TestClient(create_app(db, bot_delay=0)) as c:
        t = new_table(c, setup=TWO)
        version = 0
        for i in range(30):  # past a snapshot
            s = state(c, t, "ada")
            d = s["decision"]
            if d is None:
                break
            seat = d["owner"] if d["owner"] in t["seats"] else "ada"
            s = state(c, t, seat)
            r = act(c, t, seat, s["actions"][i % len(s["actions"])]["text"], s["version"])
            assert r.status_code == 200
            version = r.json()["state"]["version"]
        before = state(c, t, "ada")
        save = c.get(f"/api/tables/{t['id']}/save", headers=auth(t["seats"]["ada"])).json()
    with TestClient(create_app(db, bot_delay=0)) as c:
        after = state(c, t, "ada")
        assert after["version"] == version
        assert after["view"] == before["view"] and after["journal"] == before["journal"]
        assert c.get(f"/api/tables/{t['id']}/save",
                     params={"token": t["seats"]["bo"]}).json() == save


def test_save_and_import(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    act(client, t, "ada", "move B1", 0)
    assert client.get(f"/api/tables/{t['id']}/save").status_code == 403  # spectators
    save = client.get(f"/api/tables/{t['id']}/save", headers=auth(t["seats"]["bo"])).json()
    assert save["format"] == "meadhall/position" and save["log"] == ["move B1"]
    assert save["history"]["steps"][0]["text"] == "move B1"
    r = client.post("/api/tables/import", json=save)
    assert r.status_code == 201, r.text
    t2 = r.json()
    s = state(client, t2, "bo")
    assert s["view"] == state(client, t, "bo")["view"] and s["can_act"]
    # the imported history still allows undo
    r = client.post(f"/api/tables/{t2['id']}/undo", headers=auth(t2["seats"]["bo"]),
                    json={"version": 0, "steps": 1})
    assert r.status_code == 200 and r.json()["state"]["undo"]["proposal"] is not None
    n_tables = len(client.app.state.store.tables())  # type: ignore[attr-defined]
    # corrupt, foreign and inconsistent saves are refused, nothing touched
    for bad, word in [({"game": "chess"}, "chess"), ([1, 2], "dictionary"),
                      ({**save, "position": {"heroes": 5}}, "position"),
                      ({**save, "history": {**save["history"], "steps": []}}, "inconsistent")]:
        r = client.post("/api/tables/import", json=bad)
        assert r.status_code == 422, (bad, r.text)
        assert word in r.json()["detail"]
    assert len(client.app.state.store.tables()) == n_tables  # type: ignore[attr-defined]


def test_replay_steps_through_a_table(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    act(client, t, "ada", "move B1", 0)
    r = client.get(f"/api/tables/{t['id']}/replay", params={"step": 1}).json()
    assert r["steps"] == 1 and r["entry"]["label"] == "Ada moves to B1"
    assert r["view"]["heroes"]["ada"] == "B1"
    r0 = client.get(f"/api/tables/{t['id']}/replay", params={"step": 0}).json()
    assert r0["entry"] is None and r0["view"]["heroes"]["ada"] == "A1"
    page = client.get(f"/t/{t['id']}/replay?step=1")
    assert page.status_code == 200 and "Ada moves to B1" in page.text


def test_live_socket_pushes_versions(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    with client.websocket_connect(f"/api/tables/{t['id']}/live?token={t['seats']['bo']}") as ws:
        first = ws.receive_json()
        assert first["seat"] == "bo"
        # presence of bo is published too; then ada's move arrives
        act(client, t, "ada", "move B1", state(client, t, "ada")["version"])
        seen = [ws.receive_json()["version"] for _ in range(2)]
        assert state(client, t, "bo")["version"] in seen
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect(f"/api/tables/{t['id']}/live?token=bad") as ws:
        ws.receive_json()


def test_pages_render(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    lobby = client.get("/")
    assert lobby.status_code == 200 and "New game" in lobby.text
    page = client.get(f"/t/{t['id']}?token={t['seats']['ada']}")
    assert page.status_code == 200 and 'data-target="square:B1"' in page.text
    assert 'aria-live="polite"' in page.text
    spectator = client.get(f"/t/{t['id']}")
    assert 'data-target="' not in spectator.text and "Waiting for" in spectator.text
    assert client.get(f"/t/{t['id']}?token=wrong").status_code == 403
    assert client.get("/static/table.js").status_code == 200


def test_body_size_limit(client: TestClient) -> None:
    r = client.post("/api/tables/import", content=b"{" + b" " * (5 * 1024 * 1024) + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_a_seat_handed_to_another_holder(client: TestClient) -> None:
    """Ada plays absent Bo's seat: the step is recorded as Bo's, taken by Ada; Bo takes it back."""
    t = new_table(client, setup=TWO)
    r = client.post(f"/api/tables/{t['id']}/seats/bo", headers=auth(t["seats"]["ada"]),
                    json={"version": 0, "holder": "seat:ada"})
    assert r.status_code == 200
    assert act(client, t, "ada", "move B1", 1).status_code == 200
    s = state(client, t, "ada")
    assert s["can_act"] and s["decision"]["owner"] == "bo"
    r = act(client, t, "ada", "wait", s["version"])
    assert r.status_code == 200
    entry = r.json()["state"]["journal"][-1]
    assert entry["seat"] == "bo" and entry["by"] == "ada"
    # bo comes back: takes the seat back, and ada can no longer act for it
    r = client.post(f"/api/tables/{t['id']}/seats/bo", headers=auth(t["seats"]["bo"]),
                    json={"version": 3, "holder": ""})
    assert r.status_code == 200


def test_replay_link_and_campaign_sheet(client: TestClient) -> None:
    t = new_table(client, setup=TWO)
    act(client, t, "ada", "move B1", 0)
    page = client.get(f"/t/{t['id']}?token={t['seats']['ada']}").text
    assert f"/t/{t['id']}/replay?token={t['seats']['ada']}&amp;seq=1" in page
    r = client.get(f"/t/{t['id']}/replay?seq=1")
    assert r.status_code == 200 and "step 1 of 1" in r.text
    campaigns = [g for g in games.all_games() if "campaign" in g.default_setup()]
    for g in campaigns:
        c = new_table(client, g.id, setup={"campaign": True})
        page = client.get(f"/t/{c['id']}").text
        assert "campaign sheet" in page
        sheet = client.get(f"/t/{c['id']}/sheet")
        assert sheet.status_code == 200 and "campaign sheet" in sheet.text


@pytest.mark.parametrize("gid", games.ids())
def test_each_game_played_to_its_end_at_the_table(client: TestClient, gid: str) -> None:
    """Every seat handed to the random bot: the game runs to its end through the table, and
    its replay's last step shows the same table."""
    import time

    t = new_table(client, gid, seed=5)
    first = next(iter(t["seats"]))
    for seat in t["seats"]:
        for _ in range(50):  # the bots already seated may move meanwhile: retry on 409
            v = state(client, t)["version"]
            r = client.post(f"/api/tables/{t['id']}/seats/{seat}", headers=auth(
                t["seats"][first]), json={"version": v, "holder": "bot:random"})
            if r.status_code != 409:
                break
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        s = state(client, t)
        if s["outcome"]["result"] != "ongoing":
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"{gid}: the bots did not finish the game in 120 s")
    assert s["decision"] is None and s["outcome"]["reason"]
    steps = client.get(f"/api/tables/{t['id']}/replay", params={"step": 10**6}).json()
    assert steps["steps"] > 0 and steps["view"] == s["view"]


def test_table_mode_any_seat_enters_the_result(client: TestClient) -> None:
    """Table mode: the table asks for the wind card; the events before the question arrive
    with it, and any seat may answer."""
    t = new_table(client, setup=TWO, table_mode=True)
    assert act(client, t, "ada", "wait", 0).status_code == 200
    r = act(client, t, "bo", "wait", 1)
    assert r.status_code == 200
    assert [e["text"] for e in r.json()["events"]] == ["Bo waits"]
    s = state(client, t, "ada")
    assert s["decision"]["owner"] == "chance" and s["can_act"]
    texts = [a["text"] for a in s["actions"]]
    assert texts and all(x.startswith("result ") for x in texts)
    assert "wind" in s["actions"][0]["label"].lower()
    r = act(client, t, "ada", texts[0], s["version"])
    assert r.status_code == 200
    assert any(e["kind"] == "wind" for e in r.json()["events"])


def test_a_failed_commit_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """If the database cannot be written, the action is refused (503) and the table in
    memory is exactly as before."""
    from meadhall.server.store import Store, StoreError

    t = new_table(client, setup=TWO)
    before = state(client, t, "ada")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(Store, "append", broken)
    r = act(client, t, "ada", "move B1", 0)
    assert r.status_code == 503 and "disk full" in r.json()["detail"]
    assert state(client, t, "ada") == before
    monkeypatch.undo()
    assert act(client, t, "ada", "move B1", 0).status_code == 200


def test_import_of_a_save_that_only_breaks_later_is_refused(client: TestClient) -> None:
    """A mutated save that loads but breaks when its actions are described is refused at
    import (found by the terminal's fuzzing of midhalla saves)."""
    g = games.get("midhalla")
    from meadhall.bots.random import RandomBot

    st = g.new_game(g.default_setup(), 3)
    bot = RandomBot(3)
    for _ in range(12):
        st.apply(bot.choose(st))
    save = st.to_json()
    choice = save["position"].get("choice")
    if not (isinstance(choice, dict) and choice.get("options")):
        pytest.skip("this midhalla position has no choice options to break")
    opts = choice["options"]
    opts[0] = [{"x": 1} if i else x for i, x in enumerate(opts[0])] \
        if isinstance(opts[0], list) else {"x": 1}
    r = client.post("/api/tables/import", json=save)
    assert r.status_code == 422, r.text
    assert "import refused" in r.json()["detail"]


def test_setup_events_are_the_first_step_and_survive_a_restart(db: Path) -> None:
    """Game.start's events (Niflheim: the scenario, the first reveal, the initiative roll)
    are the table's first step in the journal, the page's log and replay step 0."""
    _, events = games.get("niflheim").start({"scenario": "1", "heroes": ["frida"]}, 3)
    expected = [e.to_json() for e in events]
    assert expected
    with TestClient(create_app(db, bot_delay=0)) as c:
        t = new_table(c, "niflheim", setup={"scenario": "1", "heroes": ["frida"]}, seed=3)
        first = state(c, t, "frida")["journal"][0]
        assert first["kind"] == "start" and first["seq"] == 0
        assert first["events"] == expected
        s = state(c, t, "frida")
        assert act(c, t, "frida", s["actions"][0]["text"], 0).status_code == 200
    with TestClient(create_app(db, bot_delay=0)) as c:
        journal = state(c, t, "frida")["journal"]
        assert journal[0]["events"] == expected and journal[1]["kind"] == "act"
        page = c.get(f"/t/{t['id']}?token={t['seats']['frida']}").text
        assert "Setup:" in page and _html_text(expected[0]["text"]) in page
        r0 = c.get(f"/api/tables/{t['id']}/replay", params={"step": 0}).json()
        assert r0["entry"]["events"] == expected
        assert _html_text(expected[-1]["text"]) in c.get(f"/t/{t['id']}/replay?step=0").text
        # the undo history never reaches into the setup
        assert state(c, t, "frida")["undo"]["available"] <= 1


def test_a_database_from_before_setup_events_opens_and_shows_them(db: Path) -> None:
    """A table stored without setup events (an older database) gets them recomputed from its
    setup and seed; the column is added on opening."""
    import sqlite3

    with TestClient(create_app(db, bot_delay=0)) as c:
        t = new_table(c, "niflheim", setup={"scenario": "1", "heroes": ["frida"]}, seed=3)
        expected = state(c, t)["journal"][0]["events"]
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE tables DROP COLUMN start")
    con.commit()
    con.close()
    with TestClient(create_app(db, bot_delay=0)) as c:
        assert state(c, t)["journal"][0]["events"] == expected


def _html_text(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


def test_table_mode_shows_the_table_at_the_question(client: TestClient) -> None:
    """While table mode waits for a result, the view is the table as the automated steps left
    it (GameState.at_question), and the question names the roll, its section and each result's
    chance (ChanceRequest.odds)."""
    setup = {"scenario": "1", "heroes": ["frida"]}
    t = new_table(client, "niflheim", setup=setup, seed=3, table_mode=True)
    local = games.get("niflheim").new_game(setup, 3, chance="table")
    s = state(client, t, "frida")
    for _ in range(40):  # on to a question asked after something moved
        if s["question"] and local.at_question().view("frida") != local.view("frida"):
            break
        a = s["actions"][0]["text"]
        r = act(client, t, "frida", a, s["version"])
        assert r.status_code == 200, r.text
        local.apply(a)
        s = r.json()["state"]
    q = s["question"]
    assert q is not None and s["decision"]["owner"] == "chance"
    assert s["view"] == local.at_question().view("frida") != local.view("frida")
    request = local.pending.request
    assert q["what"] == request.what and q["section"] == request.section
    assert [(o["result"], o["chance"]) for o in q["odds"]] == request.odds()
    assert abs(sum(o["chance"] for o in q["odds"]) - 1) < 1e-9
    page = client.get(f"/t/{t['id']}/fragment?token={t['seats']['frida']}").text
    assert "The table rolls:" in page and 'id="roll-for-me"' in page
    assert page.count('class="act face"') == len(q["odds"])
    assert "Each result: 1 in 12 (8%)" in page  # a d12's faces
    assert q["step"] == "the table's setup"  # the first initiative roll is part of the setup
