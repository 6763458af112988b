"""The browser table in Debian's Chromium, driven by Playwright: every game from the lobby,
clicks on the board, the step log, undo, reload; two seats live; a spectator; offline and back;
keyboard only; every target named in the accessibility tree.

One server and one browser serve the whole module. Screenshots of each table go to
``$MEADHALL_SHOTS`` (``docs/img`` when refreshing the README's pictures) or a temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from meadhall import games
from meadhall.core.protocol import Game

from .serverproc import CHROMIUM, launched, require_chromium, served

require_chromium()

from playwright.sync_api import Browser, expect  # noqa: E402

from .browserplay import (  # noqa: E402
    LINES,
    click_centre,
    decide,
    play_to_end,
    settled,
    show_tab,
    start_from_lobby,
    take_seats,
    version,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = Path(os.environ.get("MEADHALL_SHOTS") or tmp_path_factory.mktemp("shots"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def draws(g: Game) -> bool:
    return type(g).draw is not Game.draw


@pytest.mark.parametrize("gid", games.ids())
def test_each_game_from_the_lobby_to_its_end(gid: str, server: str, browser: Browser,
                                             shots: Path) -> None:
    """Each game started from the lobby and played to its end by clicks alone (a board
    target, or an action's button when the action has no place on the board), the page
    offering exactly the engine's actions at every step and showing the outcome; then undo (a
    practice table rewinds anything) and a reload show the same table. The line of play of
    each game is in tests/server/browserplay.py (LINES); benchmarks/browser_endgames.py plays
    the same games against a fresh server and prints the figures."""
    assert gid in LINES, f"no line of play for {gid}: add one to tests/server/browserplay.py"
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        played = play_to_end(page, server, LINES[gid], practice=True,
                             shot=(12, shots / f"table-{gid}.png"))
        assert played.result in ("win", "loss")
        if draws(games.get(gid)):
            assert played.board >= 10, played
        # the step log shows the automated steps with their rulebook sections
        expect(page.locator("#log .ev .section").first).to_be_attached()
        # undo (a practice table rewinds anything): the game goes on again
        v = settled(page)
        page.locator("#undo").click()
        settled(page, v)
        expect(page.locator("#log .undone").first).to_be_attached()
        assert page.locator("#state").get_attribute("data-result") == "ongoing"
        # a reload shows the same table
        v = settled(page)
        board = page.locator(".board-area").inner_html()
        log_len = page.locator("#log > li").count()
        page.reload()
        assert settled(page) == v
        assert page.locator(".board-area").inner_html() == board
        assert page.locator("#log > li").count() == log_len
        assert not errors, errors
    finally:
        ctx.close()


def two_seat_table(server: str, scenario: str = "chase") -> dict[str, Any]:
    r = httpx.post(f"{server}/api/tables", json={"game": "toy", "setup": {
        "scenario": scenario, "heroes": ["ada", "bo"]}, "seed": 11})
    assert r.status_code == 201
    return r.json()


def test_two_seats_see_each_other_live_and_a_spectator_cannot_act(
        server: str, browser: Browser) -> None:
    t = two_seat_table(server)
    a_ctx, b_ctx, s_ctx = (browser.new_context() for _ in range(3))
    try:
        a, b, s = a_ctx.new_page(), b_ctx.new_page(), s_ctx.new_page()
        a.goto(t["links"]["ada"])
        b.goto(t["links"]["bo"])
        s.goto(t["spectator"])
        for p in (a, b, s):
            p.wait_for_function("document.getElementById('main').dataset.live === '1'")
        expect(b.locator(".decision")).to_contain_text("Waiting for Ada")
        settled(a)
        click_centre(a, '[data-target="square:B1"]')
        settled(b, 0)
        settled(s, 0)
        expect(b.locator("#log")).to_contain_text("Ada moves to B1")
        expect(b.locator(".decision")).to_contain_text("Your decision")
        # bo acts; ada sees it live
        v = settled(a)
        b.locator("button.act", has_text="waits").click()
        settled(a, v)
        expect(a.locator("#log")).to_contain_text("Bo waits")
        # the spectator sees everything but has nothing to click, and the API refuses it
        expect(s.locator("#log")).to_contain_text("Bo waits")
        assert s.locator("[data-target]").count() == 0
        assert s.locator("button.act").count() == 0
        status = s.evaluate("""async (id) => (await fetch(`/api/tables/${id}/actions`, {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({action: 'wait', version: 0})})).status""", t["id"])
        assert status == 403
    finally:
        for c in (a_ctx, b_ctx, s_ctx):
            c.close()


def test_offline_and_back_resyncs(server: str, browser: Browser) -> None:
    t = two_seat_table(server)
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        a.goto(t["links"]["ada"])
        b.goto(t["links"]["bo"])
        b.wait_for_function("document.getElementById('main').dataset.live === '1'")
        b_ctx.set_offline(True)
        expect(b.locator("#net")).to_contain_text("ffline")
        h = {"Authorization": f"Bearer {t['seats']['ada']}"}
        r = httpx.post(f"{server}/api/tables/{t['id']}/actions", headers=h,
                       json={"action": "move B1", "version": 0})
        assert r.status_code == 200
        assert version(b) == 0  # offline: nothing arrived
        expect(b.locator("#net")).to_contain_text("ffline")
        b_ctx.set_offline(False)
        settled(b, 0)
        expect(b.locator("#log")).to_contain_text("Ada moves to B1")
        expect(b.locator(".decision")).to_contain_text("Your decision")
    finally:
        a_ctx.close()
        b_ctx.close()


def test_keyboard_only_and_accessible_names(server: str, browser: Browser) -> None:
    t = two_seat_table(server, "open")  # the open field: the troll is far enough for 4 moves
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(t["links"]["ada"])
        take_seats(page)
        # every target of a legal action is a named button in the accessibility tree
        targets = page.locator("[data-target]")
        assert targets.count() >= 1
        for i in range(targets.count()):
            expect(targets.nth(i)).to_have_accessible_name(re.compile(r"\S.*: \S"))
            expect(targets.nth(i)).to_have_role("button")
        # keyboard only: Tab to the board, arrows between targets, Enter picks
        played = 0
        for _ in range(4):
            v = settled(page)
            assert page.locator("#state").get_attribute("data-result") == "ongoing"
            if page.locator("[data-target]").count() == 0:
                for _ in range(60):  # no board target: Tab to an action's button
                    page.keyboard.press("Tab")
                    if page.evaluate("!!(document.activeElement && "
                                     "document.activeElement.classList.contains('act'))"):
                        break
                assert page.evaluate("document.activeElement.classList.contains('act')")
                page.keyboard.press("Enter")
            else:
                for _ in range(60):
                    page.keyboard.press("Tab")
                    if page.evaluate("!!(document.activeElement && "
                                     "document.activeElement.dataset.target)"):
                        break
                assert page.evaluate("!!document.activeElement.dataset.target")
                page.keyboard.press("ArrowDown")
                page.keyboard.press("Enter")
                if page.locator("#chooser").is_visible():
                    page.keyboard.press("Enter")
            try:
                settled(page, v)
            except Exception:
                page.screenshot(path="/tmp/kb-fail.png")
                print("ACTIVE", page.evaluate("document.activeElement.outerHTML.slice(0, 300)"))
                print("MSG", page.locator("#msg").text_content())
                raise
            played += 1
        assert played == 4
        expect(page.locator("#log")).to_contain_text("moves to")
    finally:
        ctx.close()


def test_screenshot_lobby_phone(server: str, browser: Browser, shots: Path) -> None:
    """The lobby and a table fit a phone-sized screen (no sideways page scroll)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    try:
        page = ctx.new_page()
        start_from_lobby(page, server, "toy", practice=False)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, width
        v = settled(page)
        page.locator("[data-target]").first.tap()
        page.wait_for_function(
            "v => parseInt(document.getElementById('state').dataset.version, 10) > v "
            "|| !document.getElementById('chooser').hidden", arg=v)
        page.screenshot(path=str(shots / "table-phone.png"))
    finally:
        ctx.close()


def test_chromium_is_debian_s() -> None:
    """The browser used is the machine's own Chromium (no downloaded build)."""
    out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30)
    assert "Chromium" in out.stdout


def test_table_mode_asks_for_each_result_with_its_odds(server: str, browser: Browser) -> None:
    """Roll your own dice: the table shows the question (what the result decides), one button
    per result with its chance, and any seat enters it; "Roll it for me" rolls with the odds."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        start_from_lobby(page, server, "toy", practice=False, table_mode=True)
        entered = 0
        for _ in range(20):
            if page.locator(".decision.question").count() == 0:
                decide(page)
                continue
            expect(page.locator(".decision.question")).to_contain_text("The table rolls:")
            faces = page.locator("button.act.face")
            assert faces.count() >= 2
            expect(page.locator(".actions.roll")).to_contain_text("%")
            v = settled(page)
            if entered == 0:
                faces.first.click()
            else:
                page.locator("#roll-for-me").click()
            settled(page, v)
            entered += 1
            if entered == 2:
                break
        assert entered == 2
        expect(page.locator("#log")).to_contain_text("wind")
    finally:
        ctx.close()


def test_a_campaign_from_the_lobby(server: str, browser: Browser) -> None:
    """Midhalla's campaign is offered in the lobby (its setup takes it) and starts a campaign
    table with its campaign sheet."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.select_option("#game", "midhalla")
        expect(page.locator("#setup-campaign")).not_to_be_checked()
        page.check("#setup-campaign")
        page.click("#start")
        page.wait_for_url(re.compile(r"/t/\w+\?token="))
        settled(page)
        expect(page.locator("header.top")).to_contain_text("campaign")
        page.get_by_role("link", name="campaign sheet").click()
        expect(page.locator("main.sheet")).to_be_visible()
        page.goto(server + "/")
        page.select_option("#game", "battleforge")
        expect(page.locator("#setup-campaign")).to_have_count(0)
    finally:
        ctx.close()


def test_the_lobby_takes_heroes_in_turn_order_and_the_number_of_players(
        server: str, browser: Browser) -> None:
    """Heroes are numbered in the order they are ticked (the turn order); a game whose setup
    takes ``players`` offers it, and a solo BattleForge table has one seat."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.select_option("#game", "toy")
        page.uncheck('#heroes input[value="ada"]')
        page.check('#heroes input[value="bo"]')
        page.check('#heroes input[value="ada"]')
        expect(page.locator('.hero-n[data-hero="bo"]')).to_have_text("1")
        expect(page.locator('.hero-n[data-hero="ada"]')).to_have_text("2")
        page.click("#start")
        page.wait_for_url(re.compile(r"/t/\w+\?token="))
        settled(page)
        expect(page.locator("header.top")).to_contain_text("Bo, Ada")
        page.goto(server + "/")
        page.select_option("#game", "battleforge")
        page.fill("#setup-players", "1")
        page.click("#start")
        page.wait_for_url(re.compile(r"/t/\w+\?token="))
        settled(page)
        expect(page.locator("#who")).to_have_text("your seat: the solo player")
    finally:
        ctx.close()


def test_an_absent_seat_handed_to_a_bot_plays_itself(server: str, browser: Browser) -> None:
    """A seat's holder hands the absent seat to a bot chosen in the seat's list; the bot then
    takes that seat's decisions, and the log says so."""
    t = two_seat_table(server)
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(t["links"]["ada"])
        v = settled(page)
        show_tab(page, "seats")
        pick = page.get_by_label("the bot to play the seat of Bo", exact=True)
        pick.select_option("bot:heuristic")
        pick.locator("xpath=..").locator("button.seat-btn").click()
        settled(page, v)
        expect(page.locator(".seats")).to_contain_text("played by the heuristic bot")
        v = settled(page)
        click_centre(page, '[data-target="square:B1"]')
        expect(page.locator("#log")).to_contain_text("(by the heuristic bot)")
        expect(page.locator(".decision")).to_contain_text("Your decision")
    finally:
        ctx.close()
