"""The table page's pieces that need no server: the dice of the step log."""

from __future__ import annotations

import pytest

from meadhall.server.pages import event_dice, journal_html


@pytest.mark.parametrize(("data", "dice"), [
    # the protocol's convention (docs/architecture.md, "Dice in events")
    ({"dice": [{"kind": "d12", "face": "7", "modifier": 1}]},
     [{"kind": "d12", "face": "7", "modifier": 1}]),
    ({"dice": [{"kind": "white", "face": "miss"}, {"kind": "red", "face": "double",
                                                   "modifier": 0}]},
     [{"kind": "white", "face": "miss", "modifier": 0},
      {"kind": "red", "face": "double", "modifier": 0}]),
    # what the games emitted before it
    ({"roll": 7}, [{"kind": "", "face": "7", "modifier": 0}]),
    ({"roll": 6, "modifier": -2}, [{"kind": "", "face": "6", "modifier": -2}]),
    ({"dice": [["white", "miss"], ["red", "counter"]]},
     [{"kind": "white", "face": "miss", "modifier": 0},
      {"kind": "red", "face": "counter", "modifier": 0}]),
    ({"faces": ["axe", "double_axe"]},
     [{"kind": "", "face": "axe", "modifier": 0}, {"kind": "", "face": "double_axe",
                                                   "modifier": 0}]),
    ({"runes": [["thurisaz", "up"], ["uruz", "side"]]},
     [{"kind": "thurisaz", "face": "up", "modifier": 0},
      {"kind": "uruz", "face": "side", "modifier": 0}]),
    # not dice
    ({"result": "win"}, []), ({"roll": True}, []), ({"dice": 3}, []), ({"hero": "frida"}, []),
])
def test_event_dice_reads_the_convention_and_the_older_data(
        data: dict[str, object], dice: list[dict[str, object]]) -> None:
    assert event_dice(data) == dice


def test_the_step_log_draws_each_die_with_its_modifier() -> None:
    html = journal_html([{"seq": 1, "kind": "act", "seat": "frida", "label": "Attack",
                          "events": [{"kind": "attack", "text": "Frida attacks Draugr 1",
                                      "section": "Attacking", "data": {"dice": [
                                          {"kind": "d12", "face": "7", "modifier": 1},
                                          {"kind": "red", "face": "miss", "modifier": 0}]}}]}])
    assert html.count('class="die-mini"') == 2
    assert ">7</span>" in html and 'title="d12 showing 7, modifier +1 = 8"' in html
    assert "background:#c8413b" in html  # the red die drawn red, its face in words
    assert "Frida attacks Draugr 1" in html and "Attacking" in html


def test_the_ending_summary_counts_rounds_kills_knockouts_and_the_final_blow() -> None:
    from meadhall.server.pages import ending_summary

    ev = lambda kind, text="": {"kind": kind, "text": text or kind}  # noqa: E731
    journal = [
        {"kind": "start", "seq": 0, "events": [ev("round")]},
        {"kind": "act", "seq": 1, "events": [ev("kill"), ev("round"), ev("move"),
                                             ev("defeat", "the heroes lose")]},
        {"kind": "act", "seq": 2, "undone": True, "events": [ev("kill")]},
        {"kind": "act", "seq": 3, "events": [ev("damage", "Draugr 2 hits Frida"),
                                             ev("knockout"), ev("turn")]},
    ]
    sm = ending_summary(journal)
    assert sm == {"steps": 2, "rounds": 2, "kills": 1, "knockouts": 1, "final": "knockout"}


def test_the_last_turn_names_what_each_step_moved_or_hit() -> None:
    from meadhall.server.pages import story_html

    journal = [{"kind": "act", "seq": 4, "seat": "frida", "label": "Frida ends the turn",
                "events": [{"kind": "move", "text": "Draugr 2 moves to E5", "section": "Movement",
                            "data": {"from": "E4", "to": "E5"}},
                           {"kind": "attack", "text": "Draugr 2 hits Frida", "section": "Combat",
                            "data": {"hero": "frida", "dice": [{"kind": "d12", "face": "9"}]}}]}]
    from meadhall import games

    html = story_html(journal, games.get("niflheim"))
    assert 'data-from="E4" data-to="E5"' in html and 'data-to="frida"' in html
    assert "Draugr 2 hits Frida" in html and "die-mini" in html and "2 steps after Frida" in html
    assert story_html([]) == ""
