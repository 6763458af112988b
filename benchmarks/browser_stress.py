"""Run the browser tests again and again while busy loops load the CPU: they must never fail.

    python benchmarks/browser_stress.py --runs 10 --busy 2

Each run is ``pytest tests/server/test_browser.py`` in a fresh process; ``--busy`` background
processes spin at full speed meanwhile (one per core loads the machine as an overloaded
shared host does) and are killed at the end, whatever happens. Prints each run's result and
duration, and exits non-zero if any run failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def spin() -> None:
    """Burn one core until killed."""
    x = 0
    while True:
        x = (x * 1_103_515_245 + 12_345) & 0x7FFFFFFF


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--busy", type=int, default=2, help="busy-loop processes to run meanwhile")
    ap.add_argument("tests", nargs="*", default=["tests/server/test_browser.py"])
    a = ap.parse_args(argv)
    loops = [multiprocessing.Process(target=spin, daemon=True) for _ in range(a.busy)]
    for p in loops:
        p.start()
    failed = 0
    try:
        for i in range(1, a.runs + 1):
            t0 = time.monotonic()
            r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                *a.tests], cwd=ROOT, capture_output=True, text=True)
            took = time.monotonic() - t0
            last = (r.stdout.strip().splitlines() or ["?"])[-1]
            print(f"run {i}: {'ok' if r.returncode == 0 else 'FAILED'} in {took:.0f} s — {last}",
                  flush=True)
            if r.returncode != 0:
                failed += 1
                print(r.stdout[-6000:], flush=True)
    finally:
        for p in loops:
            p.kill()
            p.join()
    print(f"{a.runs - failed}/{a.runs} runs passed with {a.busy} busy loops")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
