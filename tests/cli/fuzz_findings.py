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
]

_SIGNATURES = {f.signature for f in FINDINGS}
