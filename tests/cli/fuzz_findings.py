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
