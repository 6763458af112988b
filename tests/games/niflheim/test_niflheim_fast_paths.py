"""The fast paths of the fourth speed round answer what the plain computations answer, at
every step of random games in every scenario: ``has_steps`` and ``only_end`` what the listed
steps and actions say, ``NiflheimState.take_default`` what the kernel's ``take_default``
does (on the game's own state and on search copies), ``repetition_text`` the kernel's text;
and the positions search copies borrow from never change."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from meadhall.bots import HeuristicBot
from meadhall.bots.base import search_copy
from meadhall.bots.random import RandomBot
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng
from meadhall.games.niflheim import GAME
from meadhall.games.niflheim.evaluation import _under_way, _under_way_now
from meadhall.games.niflheim.heroes import _legal, has_steps, only_end, steps
from meadhall.games.niflheim.state import _OWNER, NiflheimState, _Draw, _HeroesWon
from meadhall.games.niflheim.undead import closest, move_choice

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "1"}, range(6)),
    ({"scenario": "1", "heroes": ["frida", "killian"]}, range(6)),
    ({"scenario": "2", "heroes": ["frida", "killian"]}, range(4)),
    ({"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]}, range(3)),
    ({"scenario": "4"}, range(3)),
    ({"scenario": "33"}, range(2)),
    ({"scenario": "5", "heroes": ["frida", "killian"]}, range(3)),
    ({"campaign": True}, range(2)),
]


def _fresh(s: NiflheimState) -> NiflheimState:
    """A copy that remembers nothing of the position."""
    c = s.clone()
    NiflheimState.moved(c)
    c._legal_memo = None
    return c


def _same_default(a: NiflheimState, b: NiflheimState) -> bool:
    """Take the default on ``a`` with the kernel's method and on ``b`` with the game's; both
    must do the same. Returns whether a default was taken."""
    ea = GameState.take_default(a)
    eb = b.take_default()
    assert (ea is None) == (eb is None)
    if ea is None:
        return False
    assert [e.text for e in ea] == [e.text for e in eb]  # type: ignore[union-attr]
    assert a.to_json() == b.to_json()
    assert a.chance.rng.state == b.chance.rng.state
    return True


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_fast_paths_answer_as_plain_computations(setup: dict[str, Any], seeds: range) -> None:
    asked = taken = 0
    for seed in seeds:
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for step in range(300):
            if s.decision() is None:
                break
            h = s.heroes.get(s.active or "")
            if h is not None and h.on_map and s.choice is None:
                fresh = _fresh(s)
                fh = fresh.heroes[h.id]
                assert has_steps(s, h) == bool(steps(fresh, fh)), (seed, s.log)
                if h.intent is not None:
                    asked += 1
                    assert only_end(s, h) == (next(_legal(fresh, fh)) == "end activation"), \
                        (seed, s.log)
            assert s.repetition_text() == GameState.repetition_text(s), (seed, s.log)
            assert _under_way_now(s) == _under_way(s), (seed, s.log)
            fresh = _fresh(s)
            for u in list(s.undead.values()):
                # (asked twice: the second answer is the remembered one)
                assert closest(s, u) == closest(s, u) == closest(fresh, fresh.undead[u.id])
                assert move_choice(s, u) == move_choice(_fresh(s), u), (seed, s.log)
            taken += _same_default(s.clone(), s.clone())
            # search copies (quiet steps, shared chance trees) take the same defaults too
            rng = Rng(seed * 1000 + step)
            a, b = search_copy(s, rng.clone()), search_copy(s, rng.clone())
            _same_default(a, b)
            choice, copies = s.choice, [s.clone() for _ in range(2)]
            was = copy.deepcopy(choice)
            s.apply(bot.choose(s))
            copies[0].apply(copies[0].legal_actions()[0])
            # a choice is never changed in place (clones share it), whatever is answered
            assert choice == was, (seed, s.log)
    assert asked and taken  # the paths were exercised


def _remembered(memo: dict[Any, Any], out: dict[int, NiflheimState], seen: set[int]) -> None:
    """Every position the memo ``memo`` and the memos of its positions remember, by id."""
    if id(memo) in seen:
        return
    seen.add(id(memo))
    todo: list[Any] = list(memo.values())
    while todo:
        x = todo.pop()
        if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], NiflheimState):
            todo.append(x[0])
        elif isinstance(x, _Draw):
            todo.extend(x.kids.values())
            if x.before is not None:
                todo.append(x.before)
        elif isinstance(x, _HeroesWon):
            todo.append(x.before)
            _remembered(x._forks, out, seen)
        elif isinstance(x, NiflheimState):
            forks = x.__dict__.get("_forks")
            if forks is not None and _OWNER in forks:
                continue  # the copy that reached it, still there (it moves on)
            out[id(x)] = x
            if forks is not None:
                _remembered(forks, out, seen)


@pytest.mark.parametrize("setup", [{"scenario": "1"}, {"scenario": "2", "heroes": ["frida",
                                   "killian"]}, {"scenario": "3"}, {"scenario": "5"}], ids=str)
def test_remembered_positions_never_change(setup: dict[str, Any]) -> None:
    """Search copies borrow the parts of remembered positions (``NiflheimState._borrow``)
    and make them their own before the rules run: a second search over the same memos (other
    sampled futures: other branches of the chance trees, the remembered ones taken) leaves
    every position the first search remembered exactly as it was."""
    checked = 0
    for seed in range(2):
        s = GAME.new_game(setup, seed)
        walker = RandomBot(seed)
        for step in range(60):
            if s.decision() is None:
                break
            if len(s.legal_actions()) > 1 and step % 2 == 0:
                HeuristicBot(seed * 100 + step).scores(s)
                kept: dict[int, NiflheimState] = {}
                _remembered(s.__dict__.get("_forks") or {}, kept, set())
                before = {k: (x.to_json(), x.__dict__.get("_forks")) for k, x in kept.items()}
                HeuristicBot(seed * 100 + step + 1).scores(s)
                for k, x in kept.items():
                    assert (x.to_json(), x.__dict__.get("_forks")) == before[k], (seed, s.log)
                checked += len(kept)
            s.apply(walker.choose(s))
    assert checked


@pytest.mark.parametrize("setup", [{"scenario": "1"}, {"scenario": "2", "heroes": ["frida",
                                   "killian"]}, {"scenario": "4"}], ids=str)
def test_an_evaluation_leaves_the_search_copy_as_it_was(setup: dict[str, Any]) -> None:
    """``settled_value`` runs the end of the activation on a copy that borrows the evaluated
    copy's parts: the evaluated copy (and the position it came from) stay exactly as they
    were, and a second evaluation on another sampled future scores as a fresh copy does."""
    from meadhall.bots.base import follow_defaults

    scored = 0
    for seed in range(3):
        s = GAME.new_game(setup, seed)
        walker = RandomBot(seed)
        for step in range(80):
            if s.decision() is None:
                break
            for i, a in enumerate(s.legal_actions()):
                look = search_copy(s, Rng(seed * 7919 + step * 31 + i))
                look.apply(a.text)
                follow_defaults(look)
                was = look.to_json()
                other = look.clone()
                GAME.evaluate(look)
                assert look.to_json() == was, (seed, s.log, a.text)
                other.chance.rng = Rng(step)
                again = other.clone()
                again.__dict__.pop("_forks", None)
                assert GAME.evaluate(other) == GAME.evaluate(again), (seed, s.log, a.text)
                scored += 1
            s.apply(walker.choose(s))
    assert scored
