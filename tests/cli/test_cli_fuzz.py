"""No command prints a traceback or hangs, whatever is in the file (issue 13).

Hypothesis feeds every game's saves and content files, mutated (keys deleted, wrong types,
out-of-range numbers, unknown ids, reordered keys), to ``GameState.from_json``, ``meadhall
validate``, ``meadhall show`` and 40 steps of ``meadhall play``. Each engine bug it found is a
:class:`Finding` in fuzz_findings.py: tolerated by the property test, and pinned by an
``xfail(strict=True)`` reproduction that turns red once the bug is fixed (then delete the
finding). ``MEADHALL_FUZZ_EXAMPLES=200 MEADHALL_FUZZ_RANDOM=1`` runs a longer, random search.
"""

from __future__ import annotations

import json
import os

import pytest
from fuzz_findings import FINDINGS, Finding, known
from fuzzing import (
    KINDS,
    OUT_OF_RANGE,
    STEPS,
    TARGETS,
    UNKNOWN_IDS,
    WRONG_TYPES,
    Failure,
    base_save,
    check_content,
    check_position,
    content_files,
    mutate,
    paths,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from meadhall import games

EXAMPLES = int(os.environ.get("MEADHALL_FUZZ_EXAMPLES", "6"))
RANDOM = bool(os.environ.get("MEADHALL_FUZZ_RANDOM"))

fuzz_settings = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=not RANDOM,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the findings are shrunk by hand
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def mutations(draw: st.DrawFn, base: object) -> list[tuple[str, tuple[str | int, ...], object]]:
    """One to three mutations of the JSON document ``base``, each at a place it still has."""
    doc, muts = base, []
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.sampled_from(list(paths(doc))))
        kind = draw(st.sampled_from(KINDS))
        value = draw(st.sampled_from({"wrong_type": WRONG_TYPES, "out_of_range": OUT_OF_RANGE,
                                      "unknown_id": UNKNOWN_IDS}.get(kind, [None])))
        doc = mutate(doc, kind, at, value)
        muts.append((kind, at, value))
    return muts


def apply_all(doc: object, muts: list[tuple[str, tuple[str | int, ...], object]]) -> object:
    for kind, at, value in muts:
        doc = mutate(doc, kind, at, value)
    return doc


def unknown(failures: list[Failure]) -> list[Failure]:
    return [f for f in failures if not known(f.signature)]


@pytest.mark.parametrize("game_id", games.ids())
@fuzz_settings
@given(data=st.data())
def test_mutated_saves_never_give_a_traceback_nor_hang(game_id: str, data: st.DataObject
                                                       ) -> None:
    steps = data.draw(st.sampled_from(STEPS), "decisions before the save")
    base = json.loads(base_save(game_id, steps))
    muts = data.draw(mutations(base), "mutations")
    keys = data.draw(st.sampled_from(["1", "2", ""]), "keys typed in play")
    what = f"Case({game_id!r}, '', {steps}, {muts!r}, {keys!r})"
    new = unknown(check_position(game_id, apply_all(base, muts), what, keys))
    assert not new, "\n\n".join(map(str, new))


@pytest.mark.parametrize("game_id", games.ids())
@fuzz_settings
@given(data=st.data())
def test_mutated_content_never_gives_a_traceback_nor_hangs(game_id: str,
                                                           data: st.DataObject) -> None:
    name, text = data.draw(st.sampled_from(content_files(game_id)), "file")
    base = json.loads(text)
    muts = data.draw(mutations(base), "mutations")
    what = f"Case({game_id!r}, {name!r}, 0, {muts!r})"
    new = unknown(check_content(game_id, name, apply_all(base, muts), what))
    assert not new, "\n\n".join(map(str, new))


@pytest.mark.parametrize("game_id", games.ids())
def test_an_untouched_save_and_content_pass(game_id: str) -> None:
    assert check_position(game_id, json.loads(base_save(game_id, 3)), "untouched") == []
    for name, text in content_files(game_id):
        assert check_content(game_id, name, json.loads(text), name) == []


@pytest.mark.parametrize("finding", [
    pytest.param(f, id=f"{f.signature[0]}-{f.signature[1]}-{f.signature[2]}",
                 marks=pytest.mark.xfail(strict=True, reason=f.error))
    for f in FINDINGS])
def test_known_finding_is_still_there(finding: Finding) -> None:
    """Fails (as expected) while the engine bug is there; passes once it is fixed, which the
    strict xfail turns into a failure: then delete the finding from fuzz_findings.py."""
    targets = (finding.target,) if finding.target else TARGETS
    found = [f for f in finding.case.run(targets) if f.signature == finding.signature]
    assert not found, str(found[0])
