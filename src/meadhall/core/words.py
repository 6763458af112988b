"""English for the texts players read: articles, plurals, possessives, lists and thresholds.

One place for every game, so that "a Arrow Tower", "1 cubes" and "the undead' turn" cannot
happen in one game and not in another.

>>> a("Arrow Tower"), a("Spike Trap"), a("undead"), a("Unicorn"), a("hour")
('an Arrow Tower', 'a Spike Trap', 'an undead', 'a Unicorn', 'an hour')
>>> a("8"), a("11"), a("12"), a("+1 Spawn token"), a("Elite Spawn token")
('an 8', 'an 11', 'a 12', 'a +1 Spawn token', 'an Elite Spawn token')
>>> plural(1, "cube"), plural(2, "cube"), plural(3, "die"), plural(0, "enemy"), plural(2, "undead")
('1 cube', '2 cubes', '3 dice', '0 enemies', '2 undead')
>>> plural(2, "Draugr"), plural(6, "MP"), plural(2, "Clan Warrior"), plural(2, "curse marker")
('2 Draugr', '6 MP', '2 Clan Warriors', '2 curse markers')
>>> possessive("Frida"), possessive("the undead"), possessive("the heroes"), possessive("Thor")
("Frida's", "the undead's", "the heroes'", "Thor's")
>>> join(["Frida"]), join(["Frida", "Ulf"]), join(["a", "b", "c"], "or")
('Frida', 'Frida and Ulf', 'a, b or c')
>>> humanise("spared_scout"), humanise("chapter12"), humanise("tier1")
('spared scout', 'chapter 12', 'tier 1')
>>> needs(7, 12), needs(13, 12), needs(1, 12)
('7+', 'cannot succeed (13+ needed on a d12)', 'always succeeds')
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

IRREGULAR = {
    "die": "dice", "undead": "undead", "draugr": "draugr", "wolf": "wolves", "dwarf": "dwarves",
    "elf": "elves", "man": "men", "woman": "women", "foot": "feet", "sheep": "sheep",
    "life": "lives", "knife": "knives", "staff": "staves", "thief": "thieves", "mp": "mp",
    "hp": "hp", "xp": "xp", "ap": "ap", "fury": "fury", "silver": "silver", "gold": "gold",
    "corruption": "corruption", "glory": "glory", "damage": "damage", "health": "health",
    "ammunition": "ammunition",
}
"""Plurals that the rules below get wrong; a word keeps its case (``Draugr``)."""

_AN_EXCEPTIONS = ("uni", "use", "usu", "eu", "one", "once", "ur")
_AN_SILENT_H = ("hour", "honest", "honour", "honor", "heir")


def article(word: str) -> str:
    """``a`` or ``an`` for ``word`` by its first sound (``an Arrow Tower``, ``a Unicorn``)."""
    w = word.strip().lower()
    if not w:
        return "a"
    if w[0].isdigit():  # said as a number: "an 8", "an 11", "an 18", "a 12"
        n = w[:len(w) - len(w.lstrip("0123456789"))]
        return "an" if n[0] == "8" or n in ("11", "18") else "a"
    if w.startswith(_AN_SILENT_H):
        return "an"
    if w[0] in "aeiou" and not w.startswith(_AN_EXCEPTIONS):
        return "an"
    if len(w) > 1 and w[0] in "fhlmnrsx" and (w[1] == " " or w[1].isdigit()):
        return "an"  # a letter said on its own: "an F", "an M5"
    return "a"


def a(noun: str, cap: bool = False) -> str:
    """``noun`` with its indefinite article: ``an Arrow Tower``, ``a Draugr``; ``cap`` for the
    first word of a sentence (``An Arrow Tower``)."""
    art = article(noun)
    return f"{art.capitalize() if cap else art} {noun}"


@lru_cache(maxsize=4096)  # a pure function of the word, asked for the same few words
def plural_of(word: str) -> str:
    """The plural of one noun (``cube`` -> ``cubes``, ``enemy`` -> ``enemies``); a phrase gets its
    last word pluralised (``Clan Warrior`` -> ``Clan Warriors``)."""
    head, _, last = word.rpartition(" ")
    low = last.lower()
    if low in IRREGULAR:
        out = IRREGULAR[low]
        if len(last) > 1 and last.isupper():
            out = out.upper()
        elif last[:1].isupper():
            out = out.capitalize()
    elif low.endswith(("s", "x", "z", "ch", "sh")):
        out = last + "es"
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        out = last[:-1] + "ies"
    else:
        out = last + "s"
    return f"{head} {out}" if head else out


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 cube``, ``2 cubes``, ``3 dice``; ``many`` overrides the plural form."""
    return f"{n} {word if n == 1 else (many or plural_of(word))}"


def possessive(name: str) -> str:
    """``Frida's``, ``the undead's``, ``the heroes'``: a plural ending in *s* takes only the
    apostrophe. A singular name ending in *s* is told apart only when it is a known word, so
    pass names ending in *s* that are singular (``Jens``) as ``Jens's`` yourself."""
    last = name.rpartition(" ")[2].lower()
    if last.endswith("s") and last not in ("thomas", "boss", "moss", "loss"):
        return name + "'"
    return name + "'s"


def join(items: Iterable[str], last: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    xs = [str(x) for x in items]
    if len(xs) <= 1:
        return "".join(xs)
    return f"{', '.join(xs[:-1])} {last} {xs[-1]}"


def humanise(ident: str) -> str:
    """A content id said in words, for content that prints no name of its own:
    ``spared_scout`` -> ``spared scout``, ``chapter12`` -> ``chapter 12``, ``level-2`` ->
    ``level 2``."""
    import re

    out = re.sub(r"[_\-.]+", " ", ident)
    return re.sub(r"(?<=[a-z])(?=\d)", " ", out).strip()


def needs(target: int, top: int, die: str | None = None, low: int = 1) -> str:
    """A roll's threshold as players read it: ``7+``; ``always succeeds`` when even the
    lowest face (``low``) meets it; ``cannot succeed (13+ needed on a d12)`` when the highest
    face (``top``) cannot reach it. ``die`` names the die or dice (default ``d<top>``)."""
    if target > top:
        return f"cannot succeed ({target}+ needed on {a(die or f'd{top}')})"
    if target <= low:
        return "always succeeds"
    return f"{target}+"
