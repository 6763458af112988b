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


def known(signature: tuple[str, ...]) -> bool:
    """Whether a failure with ``signature`` is a recorded finding."""
    return signature in _SIGNATURES


FINDINGS: list[Finding] = [
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:<dictcomp>'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'kind'), None)], keys=''),
            "KeyError: 'kind'"),
    Finding(('niflheim', 'KeyError', 'games/niflheim/present.py:_choice'),
            Case(game='niflheim', file='', steps=0, mutations=[('delete', ('position', 'choice', 'kind'), None)], keys=''),
            "KeyError: 'kind'"),
    Finding(('niflheim', 'KeyError', 'games/niflheim/state.py:_undead_step'),
            Case(game='niflheim', file='', steps=12, mutations=[('delete', ('position', 'undead_activation', 'moves'), None)], keys='1'),
            "KeyError: 'moves'"),
    Finding(('battleforge', 'TypeError', 'games/battleforge/state.py:run'),
            Case(game='battleforge', file='', steps=3, mutations=[('out_of_range', ('position', 'tasks', 2, 't'), -1)], keys=''),
            'TypeError: can only concatenate str (not "int") to str'),
    Finding(('battleforge', 'KeyError', 'games/battleforge/presentation.py:render_champion'),
            Case(game='battleforge', file='', steps=12, mutations=[('delete', ('position', 'champions', 'lagertha', 'attributes', 'green'), None)], keys=''),
            "KeyError: 'green'"),
    Finding(('battleforge', 'TypeError', 'games/battleforge/presentation.py:<genexpr>'),
            Case(game='battleforge', file='', steps=0, mutations=[('unknown_id', ('position', 'thor', 'damage', 'purple'), '')], keys='1'),
            "TypeError: unsupported operand type(s) for -: 'int' and 'str'"),
    Finding(('battleforge', 'KeyError', 'games/battleforge/presentation.py:d_place'),
            Case(game='battleforge', file='', steps=0, mutations=[('unknown_id', ('position', 'tasks', 0, 'kinds', 0), 'ZZ1')], keys='1'),
            "KeyError: 'ZZ1'"),
    Finding(('battleforge', 'AttributeError', 'core/protocol.py:describe'),
            Case(game='battleforge', file='', steps=0, mutations=[('out_of_range', ('position', 'ask', 'options', 4), 2147483648)], keys='1'),
            "AttributeError: 'int' object has no attribute 'startswith'"),
    Finding(('battleforge', 'IndexError', 'games/battleforge/presentation.py:render_champion'),
            Case(game='battleforge', file='', steps=0, mutations=[('delete', ('position', 'champions', 'ragnar', 'boons', 3), None)], keys='1'),
            'IndexError: list index out of range'),
    Finding(('battleforge', 'AttributeError', 'games/battleforge/state.py:_apply'),
            Case(game='battleforge', file='', steps=3, mutations=[('unknown_id', ('position', 'ask', 'h'), 'Z99')], keys='1'),
            "AttributeError: 'BattleForgeState' object has no attribute 'ans_Z99'"),
    Finding(('midhalla', 'TypeError', 'games/midhalla/render.py:render'),
            Case(game='midhalla', file='', steps=3, mutations=[('out_of_range', ('position', 'components', 0), -1)], keys='1'),
            "TypeError: '<' not supported between instances of 'str' and 'int'"),
    Finding(('midhalla', 'KeyError', 'games/midhalla/render.py:<genexpr>'),
            Case(game='midhalla', file='', steps=12, mutations=[('out_of_range', ('position', 'cart', 4), 1e+308)], keys=''),
            'KeyError: 1e+308'),
    Finding(('midhalla', 'TypeError', 'games/midhalla/state.py:_dump'),
            Case(game='midhalla', file='', steps=3, mutations=[('wrong_type', ('position', 'story'), 2.5)], keys='1'),
            "TypeError: 'float' object is not iterable"),
    Finding(('midhalla', 'KeyError', 'games/midhalla/state.py:_iname'),
            Case(game='midhalla', file='', steps=0, mutations=[('wrong_type', ('position', 'gifts', 0), 2.5)], keys=''),
            'KeyError: 2.5'),
    Finding(('midhalla', 'KeyError', 'games/midhalla/describe.py:_label_prep'),
            Case(game='midhalla', file='', steps=12, mutations=[('delete', ('position', 'choice', 'options', 2, 1, 1), None)], keys='1'),
            "KeyError: 'harkon'"),
    Finding(('midhalla', 'KeyError', 'games/midhalla/state.py:_hname'),
            Case(game='midhalla', file='', steps=0, mutations=[('reorder', ('position', 'choice', 'options', 0), None)], keys=''),
            "KeyError: 'give Runic Talisman to Harkon'"),
    Finding(('midhalla', 'KeyError', 'games/midhalla/render.py:render_help'),
            Case(game='midhalla', file='', steps=12, mutations=[('wrong_type', ('position', 'party', 'unlocks', 'traps', 1), '3')], keys='1'),
            "KeyError: '3'"),
    Finding(('midhalla', 'TypeError', 'games/midhalla/render.py:render_help'),
            Case(game='midhalla', file='', steps=3, mutations=[('out_of_range', ('position', 'party', 'unlocks', 'special_upgrades'), 1e+308)], keys=''),
            "TypeError: 'float' object is not iterable"),
    Finding(('runaljod', 'KeyError', 'games/runaljod/state.py:_decision'),
            Case(game='runaljod', file='', steps=0, mutations=[('delete', ('position', 'ask', 'seat'), None)], keys='1'),
            "KeyError: 'seat'"),
    Finding(('runaljod', 'AttributeError', 'games/runaljod/describe.py:_describe'),
            Case(game='runaljod', file='', steps=0, mutations=[('unknown_id', ('position', 'ask', 'kind'), '')], keys='1'),
            "AttributeError: 'RunaljodState' object has no attribute '_describe_'"),
    Finding(('runaljod', 'AttributeError', 'games/runaljod/model.py:god'),
            Case(game='runaljod', file='', steps=3, mutations=[('wrong_type', ('position', 'heroes', 'berserk', 'runes', 3, 0), 3)], keys='1'),
            "AttributeError: 'int' object has no attribute 'startswith'"),
]

_SIGNATURES = {f.signature for f in FINDINGS}
