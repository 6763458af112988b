"""Forgiving typing: what a person typed, matched to a legal action or to a listed choice.

Case never matters and a unique beginning is enough (``move d5`` for ``move D5``, ``nif`` for
Niflheim, ``att tr`` for ``attack troll``, ``pl 3`` for ``place in space 3``); text that matches nothing is answered with the
closest legal actions (``did you mean ...``), never with an unrelated rule. Used by the
terminal (``meadhall act`` and ``meadhall play``) for every game alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from meadhall.core.errors import ContentError, IllegalAction, MeadhallError
from meadhall.core.protocol import CHANCE, RESULT, Action, GameState

SHOWN = 6
"""How many candidates an ambiguity or a suggestion lists at most."""


def normalise(text: str) -> str:
    """Case-folded, with runs of white space made single spaces."""
    return " ".join(text.split()).casefold()


def _word_prefix(typed: str, name: str) -> bool:
    """Every typed word begins the name's word at the same place (``att tr`` → ``attack
    troll``); the name may have more words."""
    t, n = typed.split(), name.split()
    return len(t) <= len(n) and all(b.startswith(a) for a, b in zip(t, n, strict=False))


def _word_subsequence(typed: str, name: str) -> bool:
    """The typed words begin some of the name's words, in order (``pl 3`` → ``place in
    space 3``)."""
    words = iter(name.split())
    return all(any(w.startswith(t) for w in words) for t in typed.split())


def _matches(typed: str, names: Sequence[Sequence[str]]) -> list[int]:
    """Indices of the options ``typed`` picks: an exact (case-insensitive) name wins, then a
    unique beginning of a name, then word-by-word beginnings, then beginnings of some of the
    words in order."""
    t = normalise(typed)
    folded = [[normalise(n) for n in option] for option in names]
    for test in (lambda n: n == t, lambda n: n.startswith(t), lambda n: _word_prefix(t, n),
                 lambda n: _word_subsequence(t, n)):
        found = [i for i, option in enumerate(folded) if any(test(n) for n in option)]
        if found:
            return found
    return []


def _listing(items: Sequence[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def suggest(typed: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """The candidates closest to ``typed`` (difflib's ratio, case-insensitive), best first.

    >>> suggest("mvoe b1", ["move B1", "move A2", "wait"])
    ['move B1', 'move A2']
    """
    folded = {normalise(c): c for c in candidates}
    close = difflib.get_close_matches(normalise(typed), list(folded), n=n, cutoff=0.5)
    return [folded[c] for c in close]


def match_choice(typed: str, options: Sequence[Sequence[str]], what: str,
                 field: str = "") -> int:
    """The index of the option ``typed`` names; each option is given by its names (an id and
    a title, say). Raises :class:`ContentError` naming ``what`` for no match or several.

    >>> match_choice("nif", [("niflheim", "Gates of Niflheim"), ("toy", "Troll Chase")], "game")
    0
    >>> match_choice("gates of niflheim", [("niflheim", "Gates of Niflheim")], "game")
    0
    """
    typed = " ".join(typed.split())
    if not typed:
        raise ContentError("your answer", field or what, f"no {what} given")
    found = _matches(typed, options)
    ids = [o[0] for o in options]
    if len(found) == 1:
        return found[0]
    if found:
        raise ContentError("your answer", field or what, f"{typed!r} fits several: "
                           f"{_listing([ids[i] for i in found])}; type more of it")
    close = suggest(typed, [n for o in options for n in o])
    hint = f"did you mean {_either(list(dict.fromkeys(close)))}?" if close else \
        f"choose from {_listing(ids)}"
    raise ContentError("your answer", field or what, f"unknown {what} {typed!r}; {hint}")


def _either(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _verbs(texts: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(t.split()[0].casefold() for t in texts if t.split()))


def resolve_action(state: GameState, typed: str) -> Action:
    """The legal action ``typed`` means: its number in the list, its text in any case, or a
    unique beginning of it; for a table-mode roll the result itself (``4``). Raises
    :class:`IllegalAction` saying which actions fit, or which come closest.
    """
    text = " ".join(typed.split())
    acts = state.legal_actions()
    if not acts:
        outcome = state.outcome()
        if outcome.over:
            raise IllegalAction(state.game, None, f"the game is over: {outcome.result} — "
                                f"{outcome.reason}")
        raise IllegalAction(state.game, None, "there is nothing to decide now")
    if not text:
        raise IllegalAction(state.game, None, "nothing typed: type an action's number or "
                            "its text")
    d = state.decision()
    texts = [a.text for a in acts]
    if d is not None and d.seat == CHANCE:
        # A table-mode roll: "4" is the result 4, not the fourth result in the list.
        values = [t[len(RESULT):] for t in texts]
        for v, a in zip(values, acts, strict=True):
            if normalise(v) == normalise(text):
                return a
    if text.isdigit():
        i = int(text)
        if not 1 <= i <= len(acts):
            raise IllegalAction(state.game, None, f"there is no action number {i} "
                                f"(1 to {len(acts)})")
        return acts[i - 1]
    if text in texts:
        return acts[texts.index(text)]
    found = _matches(text, [(t,) for t in texts])
    if len(found) == 1:
        return acts[found[0]]
    if found:
        raise IllegalAction(state.game, None, f"{text!r} fits {len(found)} actions: "
                            f"{_listing([texts[i] for i in found])}; type more of it or "
                            "its number")
    close = suggest(text, texts)
    did_you_mean = f"did you mean {_either(close)}?" if close else \
        f"the actions now begin with {_listing(_verbs(texts))}"
    if text.split()[0].casefold() in _verbs(texts):
        # The right kind of action with a wrong detail: the game's rule-naming reason helps.
        try:
            state.clone().apply(text)
        except IllegalAction as e:
            raise IllegalAction(state.game, e.section, f"{e.reason}; {did_you_mean}") from None
        except MeadhallError:
            pass
    raise IllegalAction(state.game, None, f"{text!r} is not an action now; {did_you_mean}")
