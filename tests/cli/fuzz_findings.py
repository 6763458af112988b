"""Engine bugs the fuzz tests found (issue 13), one reproduction each.

Each :class:`Finding` names the failure's signature (game, exception, innermost meadhall
function), a :class:`~fuzzing.Case` that reproduces it, and the error. The game's engineer (or
the lead, for ``core/``) fixes the bug; the strict xfail in test_cli_fuzz.py then fails, and
the finding is deleted here. Found with ``python tests/cli/fuzzing.py collect GAME N SEED``.
"""

from __future__ import annotations

from dataclasses import dataclass

from fuzzing import Case


@dataclass(frozen=True)
class Finding:
    signature: tuple[str, ...]
    case: Case
    error: str
    target: str = ""
    """What fails: ``from_json``, ``validate``, ``show`` or ``play`` (empty: any)."""


def known(signature: tuple[str, ...]) -> bool:
    """Whether a failure with ``signature`` is a recorded finding."""
    return signature in _SIGNATURES


FINDINGS: list[Finding] = [
    Finding(('niflheim', 'IndexError', 'games/niflheim/present.py:_choice'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'script', 0), None)], keys=''),
            'IndexError: list index out of range', 'play'),
    Finding(('niflheim', 'KeyError', 'games/niflheim/present.py:_choice'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'kind'), None)], keys=''),
            "KeyError: 'kind'", 'play'),
    Finding(('niflheim', 'TypeError', 'games/niflheim/present.py:_choice'),
            Case(game='niflheim', file='', steps=0, mutations=[('out_of_range', ('position', 'choice', 'script'), -1000000000000000000000000000000)], keys='1'),
            "TypeError: 'int' object is not subscriptable", 'play'),
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:<dictcomp>'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'kind'), None)], keys=''),
            "KeyError: 'kind'", 'from_json'),
    Finding(('niflheim', 'RuntimeError', 'games/niflheim/state.py:_advance'),
            Case(game='niflheim', file='', steps=0, mutations=[('wrong_type', ('position', 'segment'), {'x': 1})], keys='1'),
            'RuntimeError: niflheim: the round structure did not reach a decision', 'play'),
    Finding(('niflheim', 'ValueError', 'games/niflheim/state.py:_apply_choice'),
            Case(game='niflheim', file='', steps=0, mutations=[('out_of_range', ('position', 'choice', 'kind'), 99)], keys=''),
            'ValueError: 99', 'play'),
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:_coin'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'action'), None)], keys=''),
            "KeyError: 'action'", 'play'),
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:_decision'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'default'), None)], keys=''),
            "KeyError: 'default'", 'from_json'),
    Finding(('niflheim', 'AssertionError', 'games/niflheim/state.py:_undead_step'),
            Case(game='niflheim', file='', steps=12, mutations=[('delete', ('position', 'undead_activation'), None)], keys='1'),
            'AssertionError', 'play'),
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:_undead_step'),
            Case(game='niflheim', file='', steps=12, mutations=[('delete', ('position', 'undead_activation', 'moves'), None)], keys='1'),
            "KeyError: 'moves'", 'play'),
    Finding(('niflheim', 'AttributeError', 'games/niflheim/state.py:_undead_turn'),
            Case(game='niflheim', file='', steps=12, mutations=[('unknown_id', ('position', 'spawn_queue'), 'ZZ1')], keys=''),
            "AttributeError: 'str' object has no attribute 'pop'", 'play'),
    Finding(('niflheim', 'TypeError', 'games/niflheim/state.py:scenario_outcome'),
            Case(game='niflheim', file='', steps=3, mutations=[('out_of_range', ('position', 'result'), 1000000000000000000000000000000)], keys=''),
            "TypeError: 'int' object is not subscriptable", 'from_json'),
    Finding(('runaljod', 'AttributeError', 'games/runaljod/describe.py:_describe'),
            Case(game='runaljod', file='', steps=0, mutations=[('unknown_id', ('position', 'ask', 'kind'), '')], keys='1'),
            "AttributeError: 'RunaljodState' object has no attribute '_describe_'", 'play'),
    Finding(('runaljod', 'AttributeError', 'games/runaljod/model.py:god'),
            Case(game='runaljod', file='', steps=3, mutations=[('wrong_type', ('position', 'heroes', 'berserk', 'runes', 3, 0), 3)], keys='1'),
            "AttributeError: 'int' object has no attribute 'startswith'", 'from_json'),
    Finding(('runaljod', 'RuntimeError', 'games/runaljod/state.py:_advance'),
            Case(game='runaljod', file='', steps=3, mutations=[('wrong_type', ('position', 'phase'), None)], keys='1'),
            'RuntimeError: runaljod: the round loop did not reach a decision', 'play'),
    Finding(('runaljod', 'KeyError', 'games/runaljod/state.py:_decision'),
            Case(game='runaljod', file='', steps=0, mutations=[('delete', ('position', 'ask', 'seat'), None)], keys='1'),
            "KeyError: 'seat'", 'from_json'),
    Finding(('runaljod', 'TypeError', 'games/runaljod/state.py:_decision'),
            Case(game='runaljod', file='', steps=12, mutations=[('out_of_range', ('position', 'ask'), 1000000000000000000000000000000)], keys='1'),
            "TypeError: 'int' object is not subscriptable", 'from_json'),
    Finding(('runaljod', 'KeyError', 'games/runaljod/state.py:render'),
            Case(game='runaljod', file='', steps=12, mutations=[('unknown_id', ('position', 'active_card'), 'ZZ1'), ('delete', ('journal', 5, 'action'), None), ('wrong_type', ('position', 'decks', 'special', 'jotun', 'top', 0), '3')], keys='1'),
            "KeyError: 'ZZ1'", 'from_json'),
    Finding(('runaljod', 'TypeError', 'play.py:print_decision'),
            Case(game='runaljod', file='', steps=12, mutations=[('out_of_range', ('position', 'ask', 'seat'), 1e+308)], keys='1'),
            "TypeError: expected string or bytes-like object, got 'float'", 'show'),
]

_SIGNATURES = {f.signature for f in FINDINGS}
