"""Every game played to its end in the browser, by clicks only, against a fresh server.

    python benchmarks/browser_endgames.py                  # all games
    python benchmarks/browser_endgames.py midhalla toy     # some

Each game starts from the lobby with the setup and seed of ``tests/server/browserplay.LINES``;
every decision is a click on a board target (or on the action's button when the action has
no place on the board) until the page shows the outcome. Prints, per game, the result, the
decisions taken (by board and by button) and the time; exits non-zero on any failure. The
test suite plays some of these games the same way (tests/server/test_browser.py); the
figures are in docs/server.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.server.browserplay import LINES, play_to_end  # noqa: E402
from tests.server.serverproc import free_port, start, stop  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=[g for g in LINES if g != "toy"])
    ap.add_argument("--shots", type=Path, help="save a screenshot of each finished table here")
    a = ap.parse_args(argv)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start(Path(tmp) / "tables.sqlite3", port)
        url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for gid in a.games:
                    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = ctx.new_page()
                    try:
                        p = play_to_end(page, url, LINES[gid])
                        print(f"{gid}: {p.result} after {p.decisions} decisions ({p.board} on "
                              f"the board, {p.button} by button) in {p.seconds:.0f} s",
                              flush=True)
                        if a.shots:
                            a.shots.mkdir(parents=True, exist_ok=True)
                            page.screenshot(path=str(a.shots / f"end-{gid}.png"))
                    except Exception as e:  # noqa: BLE001 - report every game
                        failed += 1
                        print(f"{gid}: FAILED: {e}", flush=True)
                    finally:
                        ctx.close()
                browser.close()
        finally:
            stop(server)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
