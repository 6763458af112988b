"""``python -m meadhall.adapters.layouts [GAME ...]``: rewrite the shipped layouts."""

from __future__ import annotations

import sys

from meadhall.adapters.layouts import write, write_all

if __name__ == "__main__":
    for path in [write(g) for g in sys.argv[1:]] if sys.argv[1:] else write_all():
        print(path)
