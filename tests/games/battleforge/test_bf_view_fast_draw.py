"""The drawing's fourth-round fast paths (the last map recognised by one comparison, whole runs
of board tokens kept, the champion panel's tracks kept whole, the printed parts of a champion's
board numbered) draw exactly what a from-scratch build draws (``bf_reference``, the code
before any cache, and :mod:`.drawing` with its caches emptied), at every step of random games
of every scenario (and solo play), with games interleaved so the caches hold pieces of other
games; a caller changing a view it drew (even its map and champions) changes nothing drawn
later; and unchanged parts come back as the very same objects (what makes encoding cheap)."""

from __future__ import annotations

import json
from typing import Any

import bf_reference
from bf_helpers import GAME

from meadhall.bots.random import RandomBot
from meadhall.games.battleforge import drawing
from meadhall.testing import mutate_everything

SETUPS: list[dict[str, Any]] = [
    {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]},
    {"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"]},
    {"scenario": "forge_of_doom", "heroes": ["ragnar", "lynxshade"]},
    {"scenario": "last_flame", "heroes": ["siegfried", "lagertha"], "players": 1},
]


def interleaved(seed: int) -> Any:
    """Every position of one random game per setup, the games taking turns."""
    games = [(GAME.new_game(setup, seed + i), RandomBot(seed + i))
             for i, setup in enumerate(SETUPS)]
    live = list(games)
    for _ in range(3000):
        if not live:
            return
        for g in list(live):
            s, bot = g
            d = s.decision()
            yield s, d
            if d is None:
                live.remove(g)
            else:
                s.apply(bot.choose(s))


def test_scenes_equal_a_from_scratch_drawing_at_every_step() -> None:
    n = 0
    for s, d in interleaved(11):
        seat = d.seat if d is not None and d.seat in s.seats() else None
        for who in {None, seat}:
            v = s.view(who)
            fast = GAME.draw(v)
            assert fast == bf_reference.scene(GAME.title, bf_reference.view(s, who)), s.log[-3:]
            n += 1
            if n % 5 == 0:  # the caches emptied: the same scene built afresh
                drawing.forget()
                assert drawing.scene(GAME.title, v) == fast
    assert n > 400


def test_a_view_changed_after_drawing_changes_nothing_drawn_later() -> None:
    for k, (s, d) in enumerate(interleaved(5)):
        if k % 3:
            continue
        seat = d.seat if d is not None and d.seat in s.seats() else None
        v = s.view(seat)
        GAME.draw(v)
        # What the caller may do to its view once drawn: change its map, champions, ...
        v["map"]["rows"][0] = "# " * 20
        v["map"]["walls"].append(["A1", "A2"])
        for c in v["champions"].values():
            c["spaces"][0].append("melee")
            c["human_form"]["text"] = "changed"
            c["name"] = "Other"
        mutate_everything(v)
        again = s.view(seat)
        assert GAME.draw(again) == bf_reference.scene(GAME.title, bf_reference.view(s, seat))


def test_unchanged_parts_are_drawn_as_the_same_objects() -> None:
    s = GAME.new_game(SETUPS[1], 3)
    bot = RandomBot(3)
    same_cells = same_panels = 0
    for _ in range(200):
        d = s.decision()
        if d is None:
            break
        a, b = GAME.draw(s.view(None)), GAME.draw(s.view(None))
        assert a == b
        assert a.boards[0].cells is not b.boards[0].cells  # each scene has its own lists
        same_cells += all(x is y for x, y in zip(a.boards[0].cells, b.boards[0].cells,
                                                      strict=True))
        assert all(x is y for x, y in zip(a.boards[0].tokens, b.boards[0].tokens, strict=True))
        same_panels += all(x is y for x, y in zip(a.panels, b.panels, strict=True))
        s.apply(bot.choose(s))
    assert same_cells > 100 and same_panels > 100


def test_a_view_from_json_draws_the_same() -> None:
    for s, _d in interleaved(2):
        v = s.view(None)
        assert drawing.scene(GAME.title, json.loads(json.dumps(v))) == GAME.draw(v)
        if len(s.log) > 60:
            break


def _reordered(d: dict[str, Any]) -> dict[str, Any]:
    return dict(reversed(list(d.items())))


def test_a_view_with_its_dicts_in_another_order_draws_as_from_scratch() -> None:
    """Values recognised by ``==`` (which ignores dicts' order) are drawn in their own
    order."""
    for k, (s, _d) in enumerate(interleaved(7)):
        if k % 11 or k > 600:
            continue
        v = s.view(None)
        GAME.draw(v)  # the usual order seen last
        w = json.loads(json.dumps(v))
        w["thor"]["faces"] = _reordered(w["thor"]["faces"])
        w["map"]["spawns"] = _reordered(w["map"]["spawns"])
        w["minion_cards"] = _reordered(w["minion_cards"])
        for c in w["champions"].values():
            c["human_form"]["upgrades"] = _reordered(c["human_form"]["upgrades"])
            c["berserker_form"]["upgrades"] = _reordered(c["berserker_form"]["upgrades"])
        fast = GAME.draw(w)
        ref = bf_reference.scene(GAME.title, w)
        assert fast == ref
        assert [t.id for t in fast.panels[0].tokens] == [t.id for t in ref.panels[0].tokens]
        assert [list(t.marks.items()) for p in fast.panels for t in p.tracks] == \
            [list(t.marks.items()) for p in ref.panels for t in p.tracks]
