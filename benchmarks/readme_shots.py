"""The README's pictures of the browser table: each game at 1366×900 and at a 390×844 phone,
at its start, after an enemy turn (12 decisions in) and at its end, played by the lines of
tests/server/browserplay.py against a fresh ``meadhall serve``.

    python benchmarks/readme_shots.py docs/img        # table-<game>-<size>-<start|turn|end>.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.server.browserplay import LINES, play_to_end  # noqa: E402
from tests.server.serverproc import free_port, start, stop  # noqa: E402

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                   "has_touch": True}}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    games = sys.argv[2].split(",") if len(sys.argv) > 2 else [
        "niflheim", "battleforge", "midhalla", "runaljod"]
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(Path(tmp) / "tables.sqlite3", port)
        try:
            with sync_playwright() as pw:
                b = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                       args=["--no-sandbox", "--disable-gpu"])
                for gid in games:
                    for size, opts in SIZES.items():
                        ctx = b.new_context(**opts)
                        page = ctx.new_page()
                        stem = out / f"table-{gid}-{size}"
                        played = play_to_end(page, f"http://127.0.0.1:{port}", LINES[gid],
                                             shot=(12, Path(f"{stem}-turn.png")),
                                             start_shot=Path(f"{stem}-start.png"))
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=f"{stem}-end.png")
                        print(gid, size, played.result, played.decisions, flush=True)
                        ctx.close()
                b.close()
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
