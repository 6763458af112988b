"""What-if content overrides: new content objects, never a change to the shared one."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import ContentError
from meadhall.sim.whatif import (
    apply_overrides,
    authored,
    game_for,
    get_value,
    parse_override,
    with_content,
)

TOY = games.get("toy")


def test_parse_override_values_are_json_when_they_parse() -> None:
    assert parse_override("undead.draugr.mv=2") == ("undead.draugr.mv", 2)
    assert parse_override("a.b=1.5") == ("a.b", 1.5)
    assert parse_override("a.b=true") == ("a.b", True)
    assert parse_override("a.b=[1, 2]") == ("a.b", [1, 2])
    assert parse_override("a.b=Troll Chase") == ("a.b", "Troll Chase")
    for bad in ("a.b", "=2", "a..b=2"):
        with pytest.raises(ContentError, match="expected PATH=VALUE"):
            parse_override(bad)


def test_an_override_builds_new_content_and_shares_the_rest() -> None:
    before = TOY.content.model_dump()
    new = apply_overrides(TOY.content, [("scenarios.chase.rounds", 3)])
    assert new.scenarios["chase"].rounds == 3
    assert TOY.content.scenarios["chase"].rounds == 12
    assert TOY.content.model_dump() == before
    assert new.scenarios["open"] is TOY.content.scenarios["open"]
    assert new.heroes is not None and new.heroes["ada"] is TOY.content.heroes["ada"]


def test_lists_and_text_fields() -> None:
    new = apply_overrides(TOY.content, [("scenarios.chase.map.0", "..X.."),
                                        ("heroes.ada.name", 7)])
    assert new.scenarios["chase"].map[0] == "..X.." and new.heroes["ada"].name == "7"
    assert get_value(new, "wind_deck.2") == "gust"


@pytest.mark.parametrize(("path", "value", "message"), [
    ("scenarios.moon.rounds", 3, "scenarios has no key 'moon'; keys: chase, open"),
    ("scenarios.chase.turns", 3, "scenarios.chase has no field 'turns'; fields: name, map"),
    ("scenarios.chase.rounds", "many", "Input should be a valid integer"),
    ("scenarios.chase.rounds", 0, "Input should be greater than 0"),
    ("scenarios.chase.rounds.x", 1, "scenarios.chase.rounds is a value (12), not a table"),
    ("wind_deck.9", "calm", "wind_deck is a list of 4; '9' is not an index in it"),
])
def test_bad_overrides_name_the_problem(path: str, value: object, message: str) -> None:
    with pytest.raises(ContentError, match=message.replace("(", r"\(").replace(")", r"\)")) \
            as e:
        apply_overrides(TOY.content, [(path, value)])
    assert str(e.value).startswith(f"--content: {path}: ")


def test_the_game_with_overridden_content_plays_it() -> None:
    short = game_for("toy", (("scenarios.chase.rounds", 1),))
    assert short is not TOY and short is game_for("toy", (("scenarios.chase.rounds", 1),))
    assert game_for("toy") is TOY
    state = short.new_game(None, 1)
    while (d := state.decision()) is not None:
        state.apply(d.default or "wait")
    assert state.outcome().reason == "the last round ended before every hero escaped"
    assert TOY.new_game(None, 1).content.scenarios["chase"].rounds == 12
    again = short.replay(state.setup, state.seed, state.log)
    assert again == state


def test_with_content_starts_fresh_caches() -> None:
    bf = games.get("battleforge")
    copy = with_content(bf, bf.content)
    assert type(copy) is type(bf) and copy is not bf
    assert copy.content is bf.content


def test_authored_marks() -> None:
    assert authored(TOY.content, "scenarios.chase.rounds") is True
    assert authored(games.get("niflheim").content, "undead.draugr.mv") in (True, False, None)
