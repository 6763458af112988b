"""Click-to-update at the browser table: how long from a click on the board (or on a button of
the action bar) until the page shows the new state and is idle again, per game.

    python benchmarks/click_to_update.py                 # 30 decisions a game, 1366x900
    python benchmarks/click_to_update.py --decisions 60 --games niflheim,runaljod

A fresh ``meadhall serve`` and Debian's Chromium; each game is started alone from the lobby
(one page plays every seat) and played by the same clicks as the layout tests
(tests/server/test_table_layout.py). The time is measured in the page: from the click's
``pointerdown`` to the moment ``#main[data-idle]`` turns back to 1 with a newer
``data-version`` (the fetch, the swap of the changed parts, the fit of the board). Prints the
median and the 90th percentile per game; docs/performance.md records them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.server.browserplay import LINES, actions, result, settled, start_from_lobby  # noqa: E402
from tests.server.serverproc import free_port, start, stop  # noqa: E402

WATCH = """() => {
  const main = document.getElementById('main');
  window.__down = null; window.__done = null;
  const v0 = parseInt(document.getElementById('state').dataset.version, 10);
  document.addEventListener('pointerdown', () => { window.__down = performance.now(); },
                            {capture: true, once: true});
  const mo = new MutationObserver(() => {
    const v = parseInt(document.getElementById('state').dataset.version, 10);
    if (main.dataset.idle === '1' && v > v0 && window.__done === null) {
      window.__done = performance.now(); mo.disconnect();
    }
  });
  mo.observe(main, {attributes: true, subtree: true, attributeFilter: ['data-idle', 'data-version']});
}"""

POINT = """(a) => {
  const els = [...a.targets.flatMap(t => [...document.querySelectorAll(`[data-target="${CSS.escape(t.ref)}"]`)]),
               ...document.querySelectorAll(`button.act[data-action="${CSS.escape(a.text)}"]`)];
  for (const g of document.querySelectorAll(`button.act-group`)) {
    if (g.dataset.acts.split(' ').includes(String(a.i))) els.push(g);
  }
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.bottom > innerHeight) continue;
    for (const f of [0.5, 0.3, 0.7]) {
      const x = r.left + r.width * f, y = r.top + r.height * f;
      const hit = document.elementFromPoint(x, y);
      const t = hit && hit.closest('[data-target], button');
      if (t === el || (!t && el.contains(hit))) return [x, y, el.dataset.action ? 1 : 0];
    }
  }
  return null;
}"""


def measure(server: str, browser, gid: str, decisions: int) -> list[float]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    line = LINES[gid]
    start_from_lobby(page, server, gid, practice=False, seed=line.seed, heroes=line.heroes)
    times: list[float] = []
    try:
        for _ in range(decisions):
            v = settled(page)
            if result(page) != "ongoing":
                break
            acts = actions(page)
            point = None
            for k in range(len(acts)):
                a = acts[(v * 5 + 1 + k) % len(acts)]
                point = page.evaluate(POINT, {**a, "i": (v * 5 + 1 + k) % len(acts)})
                if point:
                    break
            if not point:
                break
            page.evaluate(WATCH)
            page.mouse.click(point[0], point[1])
            page.wait_for_function(
                "v => parseInt(document.getElementById('state').dataset.version, 10) > v "
                "|| !document.getElementById('chooser').hidden", arg=v)
            chooser = page.locator("#chooser")
            if chooser.is_visible():
                # a menu: the time runs from the click that picks in it
                page.evaluate(WATCH)
                chooser.locator(f'button[data-action="{a["text"]}"]').click()
            settled(page, v)
            page.wait_for_function("window.__done !== null")
            times.append(page.evaluate("window.__done - window.__down"))
    finally:
        ctx.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=30)
    ap.add_argument("--games", default="niflheim,battleforge,midhalla,runaljod")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(Path(tmp) / "tables.sqlite3", port)
        try:
            with sync_playwright() as pw:
                b = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                       args=["--no-sandbox", "--disable-gpu"])
                print("| game | clicks | median | p90 | max |")
                print("|---|---|---|---|---|")
                for gid in args.games.split(","):
                    t = measure(f"http://127.0.0.1:{port}", b, gid, args.decisions)
                    if not t:
                        print(f"| {gid} | 0 | - | - | - |")
                        continue
                    q = statistics.quantiles(t, n=10, method="inclusive") if len(t) >= 2 else t * 9
                    print(f"| {gid} | {len(t)} | {statistics.median(t):.0f} ms | "
                          f"{q[8]:.0f} ms | {max(t):.0f} ms |", flush=True)
                b.close()
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
