"""The table for people, at a desktop's 1366×900 and a phone's 390×844 (touch), in Debian's
Chromium (issue 19, "Done when"): each of the four games started alone from the lobby and
played for at least :data:`DECISIONS` decisions, and after every one of them

* every legal action can be taken from an element fully inside the viewport, without
  scrolling (a board target or a button of the action bar), at least 24×24 px (WCAG 2.5.8),
  and is taken that way;
* no visible text renders below 12 CSS px (SVG text at the scale the board is drawn at);
* on the phone the page has no horizontal overflow and the board fits its width;
* no visible text looks like an identifier (``tests/textcheck.py``);
* the table never waits on another seat (one person plays every seat from one page).

One server and one browser serve the whole module; the decisions are bounded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meadhall import games
from textcheck import id_leaks

from .serverproc import launched, require_chromium, served

require_chromium()

from playwright.sync_api import Browser, Page  # noqa: E402

from .browserplay import LINES, actions, result, settled, start_from_lobby  # noqa: E402

DECISIONS = 12
GAMES = ["niflheim", "battleforge", "midhalla", "runaljod"]
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

WORDS_PENDING: dict[str, str] = {}
"""Games whose own texts still show identifiers: the test expects the failure (and fails
when it is gone) so that it is never silently weakened."""

# What the page shows, measured in the page: for each legal action the elements that take it
# and whether one is fully in the viewport and on top there; every visible text below 12 px;
# the page's and the board's widths; the visible texts.
MEASURE = """() => {
  const W = innerWidth, H = innerHeight;
  const acts = JSON.parse(document.getElementById('actions-json').textContent || '[]');
  const inView = (el) => {
    if (!el.checkVisibility({checkVisibilityCSS: true})) return null;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return null;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) return null;
    const xs = [0.5, 0.3, 0.7, 0.15, 0.85];
    for (const fy of xs) for (const fx of xs) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (!hit) continue;
      const t = hit.closest('[data-target], button');
      if (t === el || (!t && el.contains(hit))) return [x, y];
    }
    return null;
  };
  const unreachable = [];
  const tiny = [];
  const how = {};
  acts.forEach((a, i) => {
    const els = [];
    for (const t of a.targets) {
      for (const el of document.querySelectorAll(`[data-target="${CSS.escape(t.ref)}"]`)) els.push(el);
    }
    for (const el of document.querySelectorAll(`button.act[data-action="${CSS.escape(a.text)}"]`)) els.push(el);
    for (const el of document.querySelectorAll(`button.act-group[data-acts~="${i}"]`)) els.push(el);
    let point = null, at = null;
    for (const el of els) { point = inView(el); if (point) { at = el; break; } }
    if (point) how[a.text] = point; else unreachable.push(a.label);
    if (at) {
      const r = at.getBoundingClientRect();
      if (r.width < 23.5 || r.height < 23.5) tiny.push(`${a.label} (${r.width.toFixed(0)}x${r.height.toFixed(0)})`);
    }
  });
  const small = [];
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim();
    if (!s) continue;
    const el = n.parentElement;
    if (!el || el.closest('script, style, title, [hidden], #log-src, .mh-defs')) continue;
    if (!el.checkVisibility({checkVisibilityCSS: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
      px = parseFloat(el.style.fontSize || el.getAttribute('font-size') || px) *
           svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    }
    if (px < 11.95) small.push(`${s.slice(0, 30)} (${px.toFixed(1)} px)`);
    texts.push(s);
  }
  const vp = document.querySelector('.viewport');
  const stage = vp && vp.querySelector('.stage');
  return {unreachable, how, tiny, small: small.slice(0, 12), texts,
          pageWidth: document.documentElement.scrollWidth, width: W,
          viewport: vp ? vp.getBoundingClientRect().toJSON() : null,
          stage: stage ? stage.getBoundingClientRect().toJSON() : null,
          canAct: document.getElementById('state').dataset.canAct,
          decision: (document.querySelector('[data-part=bar] .decision') || {}).textContent || ''};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "layout")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


def check(page: Page, phone: bool, step: int, ids: dict[str, str],
          known: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The assertions after a decision; returns the measure (with how to take each action)."""
    m = page.evaluate(MEASURE)
    where = f"decision {step} ({m['decision'][:90]!r})"
    assert not m["unreachable"], f"{where}: not on screen: {m['unreachable'][:6]}"
    assert not m["small"], f"{where}: text below 12 px: {m['small']}"
    assert not m["tiny"], f"{where}: targets smaller than 24x24 px: {m['tiny'][:6]}"
    if phone:
        assert m["pageWidth"] <= m["width"], f"{where}: the page is {m['pageWidth']} px wide"
        assert m["viewport"]["right"] <= m["width"] + 0.5, where
        assert m["stage"]["width"] <= m["viewport"]["width"] + 1, (
            f"{where}: the board ({m['stage']['width']:.0f} px) does not fit its width")
    assert m["canAct"] == "1" or result(page) != "ongoing", f"{where}: the table waits"
    assert "Waiting for" not in m["decision"], f"{where}: {m['decision']}"
    for s in m["texts"]:
        for hit in id_leaks(s, known):
            ids.setdefault(hit, s[:120])
    return m


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("gid", GAMES)
def test_every_choice_on_screen_legible_and_never_waiting(gid: str, size: str, server: str,
                                                          browser: Browser) -> None:
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    ids: dict[str, str] = {}
    try:
        line = LINES[gid]
        g = games.get(gid)
        known = frozenset({h.id for h in g.heroes()} | {sc.id for sc in g.scenarios()})
        start_from_lobby(page, server, gid, practice=False, seed=line.seed, heroes=line.heroes)
        made = 0
        while made < DECISIONS:
            v = settled(page)
            assert result(page) == "ongoing", f"{gid} ended after {made} decisions"
            m = check(page, size == "phone", made, ids, known)
            acts = actions(page)
            a = acts[(v * 5 + 1) % len(acts)]
            x, y = m["how"][a["text"]]
            page.mouse.click(x, y)
            page.wait_for_function(
                "v => parseInt(document.getElementById('state').dataset.version, 10) > v "
                "|| !document.getElementById('chooser').hidden", arg=v, timeout=15_000)
            chooser = page.locator("#chooser")
            if chooser.is_visible():
                box = chooser.bounding_box()
                height = SIZES[size]["viewport"]["height"]
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, box
                chooser.locator(f'button[data-action="{a["text"]}"]').click()
            settled(page, v)
            made += 1
        check(page, size == "phone", made, ids, known)
        assert not errors, errors
        if gid in WORDS_PENDING:
            # Loud, never silent: the game's own texts, which the words part of issue 19 fixes.
            assert ids, f"{gid} shows no identifier any more: take it out of WORDS_PENDING"
            pytest.xfail(f"{WORDS_PENDING[gid]}: {sorted(ids)[:8]}")
        assert not ids, f"{gid}: texts with identifiers (words for people): {ids}"
    finally:
        ctx.close()


def test_zoom_focus_after_an_action_and_the_last_turn_on_the_board(server: str,
                                                                   browser: Browser) -> None:
    """The board zooms with the keys (+, 0 fits it again); after an action the focus is back
    on the board (or the bar), never on the page's body; a step of the last turn marks on the
    board the square it names."""
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        start_from_lobby(page, server, "niflheim", practice=False, seed=1)
        width = lambda: page.locator(".stage").bounding_box()["width"]  # noqa: E731
        fitted = width()
        page.keyboard.press("+")
        assert width() > fitted * 1.2
        page.keyboard.press("0")
        assert abs(width() - fitted) < 1
        marked = False
        for _ in range(8):
            v = settled(page)
            m = page.evaluate(MEASURE)
            a = actions(page)[0]
            page.mouse.click(*m["how"][a["text"]])
            if page.locator("#chooser").is_visible():
                page.locator(f'#chooser button[data-action="{a["text"]}"]').click()
            settled(page, v)
            assert page.evaluate("""() => { const a = document.activeElement;
                return !!a && a !== document.body && !!(a.dataset.target || a.closest('.bar')
                       || a.closest('#chooser')); }"""), "focus fell back to the page's body"
            step = page.evaluate("""() => {
                const cells = new Set([...document.querySelectorAll('.board-area [data-cell]')]
                                      .map(c => c.dataset.cell));
                const lis = [...document.querySelectorAll('#story .story-steps li')];
                const i = lis.findIndex(li => (li.dataset.to || '').split(' ')
                                              .some(n => cells.has(n)));
                return i < 0 ? null : [i, lis[i].dataset.to.split(' ').find(n => cells.has(n))];
            }""")
            if step:
                page.locator("#story .story-steps li").nth(step[0]).click()
                assert page.locator(f'.board-area [data-cell="{step[1]}"].hl-to').count() == 1
                assert page.locator("#story .story-steps li.on").count() == 1
                marked = True
                break
        assert marked, "no step of the last turn named a square of the board"
    finally:
        ctx.close()
