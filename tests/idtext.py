"""The pattern of identifiers that must never reach a text a player reads (issue 19, "Words for
people"): snake_case words (``throwing_knives``), dotted ids (``harkon.item.throwing_axe``) and
hyphenated ids with a number after them (``keep-the-roll 3``, ``frida-running 6 MP``).

One place for every test that checks texts: the browser's layout tests read what the page
shows, the games' text tests read labels, event sentences and sheets.
"""

from __future__ import annotations

import re

ID_PATTERN = re.compile(
    r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b"          # snake_case
    r"|\b[a-z][a-z0-9]*\.[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*\b"  # dotted ids
    r"|\b[a-z]+(?:-[a-z]+)+ \d")              # seat-intent 3
"""What an identifier looks like in a text meant for people."""


def ids_in(text: str) -> list[str]:
    """The identifiers ``text`` shows (empty: it reads as words).

    >>> ids_in("Frida moves to E5 (2 MP)")
    []
    >>> ids_in("buys throwing_knives; harkon.item.throwing_axe; keep-the-roll 3")
    ['throwing_knives', 'harkon.item.throwing_axe', 'keep-the-roll 3']
    """
    return [m.group(0) for m in ID_PATTERN.finditer(text)]
