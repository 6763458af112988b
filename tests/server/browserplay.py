"""Playing the browser table the way a person does, for the browser tests and
``benchmarks/browser_endgames.py``: start from the lobby, wait for the page to settle, pick each
decision by clicking a board target (or the action's button), and play a game to its end.

Every wait is for something the page shows (a version, ``#main[data-idle=1]``), never a sleep.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from meadhall import games
from meadhall.bots.registry import make_bot
from meadhall.core.protocol import Action


def version(page: Page) -> int:
    return int(page.locator("#state").get_attribute("data-version") or "-1")


def settled(page: Page, above: int = -1, timeout: float = 20_000) -> int:
    """Wait until the page shows a version above ``above`` with no fetch, request or swap
    pending (``#main[data-idle=1]``), and return that version: what the test reads next is
    what the page shows and will keep showing until something acts."""
    page.wait_for_function(
        """v => document.getElementById('main').dataset.idle === '1'
               && parseInt(document.getElementById('state').dataset.version, 10) > v""",
        arg=above, timeout=timeout)
    return version(page)


def actions(page: Page) -> list[dict[str, Any]]:
    return json.loads(page.locator("#actions-json").text_content() or "[]")


def result(page: Page) -> str:
    return page.locator("#state").get_attribute("data-result") or ""


def last_action(page: Page) -> str | None:
    """The text of the last action the table took (read through the API, as this seat)."""
    return page.evaluate("""async () => {
        const m = document.getElementById('main');
        const r = await fetch(`/api/tables/${m.dataset.table}`,
                              {headers: {Authorization: `Bearer ${m.dataset.token}`}});
        const acts = (await r.json()).journal.filter(e => e.kind === 'act');
        return acts.length ? acts[acts.length - 1].action : null; }""")


def click_centre(page: Page, selector: str) -> None:
    """A real mouse click on the element where nothing else that can be clicked covers it:
    its centre, or the first point of a grid over it whose topmost target is the element
    itself (a figure drawn on a square is a target of its own). Playwright's own click wants
    the element itself under the pointer, so it would wait for a figure to move."""
    loc = page.locator(selector).first
    loc.scroll_into_view_if_needed()
    point = loc.evaluate("""el => {
        const r = el.getBoundingClientRect();
        const mine = (x, y) => {
            const hit = document.elementFromPoint(x, y);
            const t = hit && hit.closest('[data-target]');
            return t === el || (!t && hit && el.contains(hit));
        };
        const xs = [0.5, 0.3, 0.7, 0.15, 0.85], ys = [0.5, 0.3, 0.7, 0.15, 0.85];
        for (const fy of ys) for (const fx of xs) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            if (mine(x, y)) return [x, y];
        }
        return [r.left + r.width / 2, r.top + r.height / 2];
    }""")
    page.mouse.click(point[0], point[1])


def start_from_lobby(page: Page, server: str, game: str, practice: bool = True,
                     seed: int = 7, heroes: list[str] | None = None,
                     table_mode: bool = False, ask_us: bool = False) -> None:
    """Start ``game`` from the lobby with a fixed seed (the same game every run), the given
    heroes ticked (default: the lobby's), and wait for its table. ``ask_us``: the table asks
    the players' choices instead of taking their defaults (the lobby's default)."""
    page.goto(server + "/")
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    if heroes is not None:  # untick all, then tick in turn order
        for box in page.locator("#heroes input[name=hero]").all():
            box.set_checked(False)
        for h in heroes:
            page.locator(f'#heroes input[value="{h}"]').check()
    if practice:
        page.check("#practice")
    if table_mode:
        page.check("#table_mode")
    if ask_us:
        page.check("#ask_us")
    page.click("#start")
    page.wait_for_url(re.compile(r"/t/\w+\?token="))
    settled(page)


def show_tab(page: Page, tab: str) -> None:
    """Open one of the table's panels (``sheets``, ``log``, ``seats``) where they are tabs."""
    t = page.locator(f'.tabs [data-tab="{tab}"]')
    if t.count() and t.is_visible():
        t.click()


def take_seats(page: Page) -> None:
    """Play the table's other seats from this page too ("Play it myself")."""
    for _ in range(8):
        v = settled(page)
        btn = page.locator("button.seat-btn[data-holder^='seat:']")
        if not btn.count():
            return
        show_tab(page, "seats")
        btn.first.click()
        settled(page, v)


def decide(page: Page, pick: int | None = None) -> str:
    """One decision: click a board target of a legal action if there is one (choosing it in
    the little menu when several actions share the target), else the action's button.

    ``pick`` chooses the action by its index in the page's list (default: one that varies
    with the version, so that a game moves on rather than looping). Returns how."""
    v = settled(page)
    acts = actions(page)
    assert acts, "no action offered to this seat"
    drawn = set(page.locator("[data-target]").evaluate_all(
        "els => els.map(e => e.dataset.target)"))
    if pick is not None:
        order = [acts[pick % len(acts)]]
    else:
        order = acts[v % len(acts):] + acts[:v % len(acts)]
    for a in order:
        refs = [t["ref"] for t in a["targets"] if t["ref"] in drawn]
        if not refs:
            continue
        click_centre(page, f'[data-target="{refs[0]}"]')
        try:
            page.wait_for_function(
                "v => parseInt(document.getElementById('state').dataset.version, 10) > v "
                "|| !document.getElementById('chooser').hidden", arg=v, timeout=15_000)
        except Exception:  # noqa: BLE001 - report below with the page's message
            msg = page.locator("#msg").text_content()
            raise AssertionError(f"clicking {refs[0]} did nothing ({msg})") from None
        chooser = page.locator("#chooser")
        if chooser.is_visible():
            # the menu lists the actions sharing the target in the page's order
            same = [x for x in acts if any(t["ref"] == refs[0] for t in x["targets"])]
            chooser.locator("button[data-action]").nth(same.index(a)).click()
        settled(page, v)
        return "board"
    page.locator(f'button.act[data-action="{order[0]["text"]}"]').click()
    settled(page, v)
    return "button"


PASSIVE = re.compile(r"^(end turn|take \d+ damage|done|stop moving|stay|skip|pass|wait|leave)")


def passive(acts: list[Action], i: int) -> int:
    """A quick line of play: end the turn (or take the blow) whenever that is allowed, else
    a choice that varies with the step. Games played so end within a few dozen decisions."""
    for k, a in enumerate(acts):
        if PASSIVE.match(a.text):
            return k
    return (i * 7) % len(acts)


@dataclass(frozen=True, slots=True)
class Line:
    """A game to play to its end: setup, seed, and how decisions are chosen (``heuristic``:
    the heuristic bot's choice; ``passive``: :func:`passive`). Seeds are picked so that the
    game ends quickly; the page must show the outcome the engine reaches."""

    game: str
    seed: int
    policy: str
    heroes: list[str] | None = None


LINES: dict[str, Line] = {
    "niflheim": Line("niflheim", 1, "heuristic"),             # scenario 1, won in 46
    "midhalla": Line("midhalla", 3, "heuristic", ["harkon"]),  # chapter 1, won in 32
    "battleforge": Line("battleforge", 26, "passive"),         # The Last Flame, lost in 56
    "runaljod": Line("runaljod", 0, "passive"),                # the adventure, lost in 53
    "toy": Line("toy", 7, "heuristic"),
}


@dataclass(slots=True)
class Played:
    """What playing a game to its end in the page took."""

    game: str
    result: str
    decisions: int = 0
    board: int = 0
    button: int = 0
    seconds: float = 0.0


def play_to_end(page: Page, server: str, line: Line, limit: int = 400,
                practice: bool = False, shot: tuple[int, Path] | None = None,
                start_shot: Path | None = None) -> Played:
    """Start ``line``'s game from the lobby and make every decision in the page, by clicks,
    until the page shows the outcome. An in-process copy of the game, fed the same actions,
    chooses each one and checks that the page offers exactly the engine's actions.

    ``shot`` = (n, path): a screenshot of the top of the page after n decisions;
    ``start_shot``: one of the table as set up."""
    g = games.get(line.game)
    t0 = time.monotonic()
    # the players' choices asked, as the in-process copy of the game asks them
    start_from_lobby(page, server, line.game, practice=practice, seed=line.seed,
                     heroes=line.heroes, ask_us=True)
    take_seats(page)
    if start_shot:
        page.screenshot(path=str(start_shot))
    setup = page.evaluate("""async () => {
        const m = document.getElementById('main');
        return (await (await fetch(`/api/tables/${m.dataset.table}`)).json()).setup; }""")
    local = g.new_game(setup, line.seed)
    bot = make_bot("heuristic", line.seed) if line.policy == "heuristic" else None
    out = Played(line.game, "ongoing")
    while not local.outcome().over:
        assert out.decisions < limit, f"{line.game}: not over after {limit} decisions"
        acts = local.legal_actions()
        offered = [a["text"] for a in actions(page)]
        assert offered == [a.text for a in acts], (
            f"{line.game} step {out.decisions}: the page offers {offered[:6]}..., the engine "
            f"{[a.text for a in acts][:6]}...")
        chosen = bot.choose(local) if bot else acts[passive(acts, out.decisions)]
        how = decide(page, offered.index(chosen.text))
        took = last_action(page)
        assert took == chosen.text, (
            f"{line.game} step {out.decisions}: clicked for {chosen.text!r}, the table took "
            f"{took!r}")
        local.apply(chosen.text)
        out.decisions += 1
        if how == "board":
            out.board += 1
        else:
            out.button += 1
        if shot and out.decisions == shot[0]:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shot[1]))
    out.result = local.outcome().result
    assert result(page) == out.result
    expect(page.locator(".decision.over")).to_contain_text(
        "Victory" if out.result == "win" else "Defeat")
    assert page.locator("button.act").count() == 0
    out.seconds = time.monotonic() - t0
    return out
