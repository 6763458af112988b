"""The speed-ups of issues 21 and 22 give exactly what the plain code gave: each fast path is
compared with a from-scratch reference over positions of random games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import runaljod_drawing_reference as reference
import runaljod_evaluation_reference as reference_evaluation

from meadhall.bots.base import search_copy
from meadhall.bots.random import RandomBot
from meadhall.core import grid
from meadhall.core.grid import Sq
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng
from meadhall.games.runaljod import GAME, evaluation
from meadhall.games.runaljod.model import Hero
from meadhall.games.runaljod.state import ENEMY_LETTERS, LETTERS, RunaljodState

KEYWORDS: tuple[tuple[str, ...], ...] = ((), ("quick",), ("jump",))


def positions(seeds: int = 4, steps: int = 250) -> Iterator[RunaljodState]:
    """Every position of a few random games (both scenarios)."""
    for seed in range(seeds):
        setup = {"scenario": "adventure-level2"} if seed % 2 else None
        st = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(steps):
            if st.decision() is None:
                break
            assert isinstance(st, RunaljodState)
            yield st
            st.apply(bot.choose(st))


def reference_reachable(st: RunaljodState, h: Hero, points: int,
                        keywords: tuple[str, ...]) -> set[Sq]:
    """The squares a movement can end on, one rule question per step (as before issue 21)."""
    assert h.at is not None
    seen = {h.at: points}
    frontier = [h.at]
    out = {h.at} if st.hero_can_end(h, h.at) else set()
    while frontier:
        s = frontier.pop()
        for n in grid.neighbours(s, diagonal=True):
            c = st.hero_step_cost(h, s, n, keywords)
            if c is None or c > seen[s] or seen.get(n, -1) >= seen[s] - c:
                continue
            seen[n] = seen[s] - c
            frontier.append(n)
            if st.hero_can_end(h, n):
                out.add(n)
    return out


def test_reachable_squares_are_those_of_the_step_rules() -> None:
    checked = 0
    for i, st in enumerate(positions()):
        if i % 5:
            continue
        for h in st.standing_heroes():
            for points in (0, 1, 3, 6):
                for kw in KEYWORDS:
                    assert evaluation._reachable(st, h, points, kw) == \
                        reference_reachable(st, h, points, kw)
                    checked += 1
    assert checked > 500


def test_the_drawn_scene_is_the_one_built_from_scratch() -> None:
    checked = 0
    for setup in (None, {"scenario": "adventure-level2"},
                  {"heroes": ["volva", "berserk", "hunter", "warrior"]}):
        for seed in range(2):
            st = GAME.new_game(setup, seed)
            bot = RandomBot(seed)
            for step in range(400):
                for seat in [*st.seats(), None] if step % 3 == 0 else []:
                    view = st.view(seat)
                    fast = GAME.draw(view).to_json()
                    assert fast == reference.draw_scene(GAME.content, GAME.title, view).to_json()
                    assert GAME.draw(view).to_json() == fast  # drawn again from the pieces
                    checked += 1
                if st.decision() is None:
                    break
                st.apply(bot.choose(st))
    assert checked > 500


def reference_board_rows(st: RunaljodState) -> list[str]:
    """The board as text, every square looked up (as before issue 22)."""
    t = st.terrain
    if not t:
        return []
    x0 = min(x for x, _ in t)
    x1 = max(x for x, _ in t)
    h = max(y for _, y in t) + 1
    marks: dict[Sq, str] = {}
    for s in st.search_tokens:
        marks[s] = "?"
    for s in st.bonfires:
        marks[s] = "^"
    for e in st.enemies:
        for q in e.squares:
            marks[q] = ENEMY_LETTERS.get(e.kind, "E")
    for hero in st.heroes.values():
        if hero.at is not None:
            letter = LETTERS.get(hero.id, "?")
            marks[hero.at] = letter.lower() if hero.fallen else letter
    return ["".join(marks.get((x, y), t.get((x, y), " ")) for x in range(x0, x1 + 1))
            for y in range(h)]


def reference_hero_view(st: RunaljodState, h: Hero) -> dict[str, Any]:
    """A hero's view with every derived value computed again (as before issue 22)."""
    out = st._hero_json(h)
    hd = st.content.heroes[h.id]
    bonus = st.move_bonus(h)
    out["life"] = st.hero_life(h)
    out["defence"] = st.hero_defence(h)
    out["move"] = {s: hd.move[i] + bonus for i, s in enumerate(("move1", "move2"))}
    out["checks"] = {k: st.check_dice(h, k) for k in ("physical", "spiritual")}
    out["coloured_available"] = st.coloured_available(h)
    return out


def test_the_view_is_the_one_built_from_scratch() -> None:
    checked = 0
    for st in positions():
        assert st.board_rows() == reference_board_rows(st)
        for h in st.heroes.values():
            assert st._hero_view(h) == reference_hero_view(st, h)
        checked += 1
    assert checked > 500


def reference_view(st: RunaljodState) -> dict[str, Any]:
    """The whole view with every part built from scratch (as before this round's view)."""
    return {
        "game": "runaljod", "round": st.round, "phase": st.phase,
        "time": st.time, "end": st.end, "snakes": list(st.content.altar.snakes),
        "track": st.content.altar.track,
        "altar": [list(p) for p in st.altar],
        "board": reference_board_rows(st),
        "tiles": [[t.tile, t.card, t.x] for t in st.tiles],
        "terrain": {t.tile: list(st.content.tiles[t.tile].rows) for t in st.tiles},
        "heroes": {k: reference_hero_view(st, h) for k, h in st.heroes.items()},
        "active": st.active,
        "seats": {h: st.seat_of(h) for h in st.heroes},
        "enemies": [{"uid": e.uid, "kind": e.kind, "at": grid.name(e.at),
                     "also": grid.name(e.also) if e.also else None,
                     "damage": e.damage, "conditions": list(e.conditions),
                     "life": st.enemy_data(e).life, "defence": st.enemy_defence(e),
                     "holding": e.holding, "captor": e.captor}
                    for e in st.enemies],
        "search_tokens": [grid.name(s) for s in st.search_tokens],
        "bonfires": [grid.name(s) for s in st.bonfires],
        "starts": [grid.name(s) for s in getattr(st, "starts", [])]
        if st.phase == "setup" else [],
        "active_card": st.active_card, "active_event": list(st.active_event),
        "ai_cards": [list(x) for x in st.ai_cards],
        "two_player_card": st.two_player_card(),
        "two_player_used": st.two_player_used,
        "decks": {k: {**d.public(), "known_top": list(d.top)}
                  for k, d in st.decks().items()},
        "outcome": st.outcome().to_json(),
    }


def test_the_whole_view_is_the_one_built_from_scratch() -> None:
    checked = 0
    for setup in (None, {"scenario": "adventure-level2"},
                  {"heroes": ["volva", "berserk", "hunter", "warrior"]}, {"players": 2}):
        for seed in range(2):
            st = GAME.new_game(setup, seed)
            bot = RandomBot(seed)
            for _ in range(300):
                assert isinstance(st, RunaljodState)
                view = st.view()
                assert view == reference_view(st)
                # a view handed out is the caller's: the next one shares nothing mutable
                assert st.view() == view and st.view()["board"] is not view["board"]
                checked += 1
                if st.decision() is None:
                    break
                st.apply(bot.choose(st))
    assert checked > 1000


def test_the_remembered_equip_texts_are_those_built_afresh() -> None:
    checked = 0
    items = [i for i, it in GAME.content.items.items() if it.slot != "misc"]
    for i, st in enumerate(positions()):
        for h in st.heroes.values():
            for item in dict.fromkeys([*h.misc, *(items if i % 25 == 0 else [])]):
                if GAME.content.items[item].slot == "misc":
                    continue
                fresh = [f"equip {st.iname(item)}{c}" for c in st.equip_choices(h, item)]
                assert st.equip_texts(h, item) == fresh
                assert st.equip_texts(h, item) == fresh  # remembered
                checked += 1
    assert checked > 200


def test_the_evaluation_is_the_one_computed_from_scratch() -> None:
    checked = 0
    for st in positions(seeds=6, steps=400):
        assert GAME.evaluate(st) == reference_evaluation.evaluate(st)
        finals = [e for e in st.enemies if st.enemy_data(e).final]
        for ranged in (False, True):
            assert evaluation._compute_goal_field(st, finals, ranged) == \
                reference_evaluation._compute_goal_field(st, finals, ranged)
        checked += 1
    assert checked > 1000


def shared_parts(a: Any, b: Any, path: str = "state") -> Iterator[str]:
    """Where ``b`` holds the same mutable object as ``a`` (a copy that is not independent)."""
    if a.__class__ in (int, float, str, bool, type(None), frozenset) or \
            getattr(a, "__shared__", False):
        return
    if isinstance(a, tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from shared_parts(x, y, f"{path}[{i}]")
        return
    if a is b:
        yield path
        return
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from shared_parts(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        for k in a:
            yield from shared_parts(a[k], b[k], f"{path}[{k!r}]")
    else:
        names = list(getattr(a, "__dict__", {})) or [
            n for c in type(a).__mro__ for n in getattr(c, "__slots__", ())]
        for n in names:
            yield from shared_parts(getattr(a, n), getattr(b, n), f"{path}.{n}")


def test_a_clone_is_an_equal_and_independent_copy() -> None:
    checked = 0
    for i, st in enumerate(positions()):
        if i % 3:
            continue
        copy = st.clone()
        assert copy.to_json() == st.to_json()
        kernel = GameState.clone(st)  # the generic copy the state's own replaces
        assert copy.__dict__.keys() == kernel.__dict__.keys()
        assert copy.__dict__.get("_legal_memo") is kernel.__dict__.get("_legal_memo")
        skip = st._shared | {"_checkpoint"}
        for k, v in st.__dict__.items():
            if k not in skip and k != "_legal_memo":
                assert not list(shared_parts(v, copy.__dict__[k], k))
        checked += 1
    assert checked > 200


def test_look_ahead_copies_keep_the_legal_actions_they_have() -> None:
    """A determinized copy and the clones of a search copy remember the legal actions of the
    position they copy (applying one is not checked again): they are the copies' own."""
    checked = 0
    rng = Rng(5)
    for i, st in enumerate(positions()):
        if i % 4:
            continue
        st.legal_actions()
        look = search_copy(st, rng)
        assert look._legal_memo == set(look._legal()) == set(st._legal())
        assert look.clone()._legal_memo == look._legal_memo
        assert "_legal_memo" not in st.clone().__dict__ or st.clone()._legal_memo is None
        checked += 1
    assert checked > 100


def test_the_enemies_remembered_choices_are_those_computed_afresh() -> None:
    checked = 0
    for setup in (None, {"heroes": ["volva", "berserk", "hunter", "warrior"]}):
        for seed in range(3):
            st = GAME.new_game(setup, seed)
            bot = RandomBot(seed)
            for step in range(600):
                if st.decision() is None:
                    break
                if st.phase == "enemies" or step % 4 == 0:
                    for e in st.enemies:
                        for targets in [[h.id] for h in st.standing_heroes()] + [[]]:
                            first = st.move_choices(e, targets)
                            assert st.move_choices(e, targets) == first == \
                                st._move_choices(e, targets)
                            first_sight = st.sight_options(e, targets)
                            assert st.sight_options(e, targets) == first_sight == \
                                st._sight_options(e, targets)
                            checked += 1
                st.apply(bot.choose(st))
    assert checked > 300


def test_the_remembered_ai_card_words_are_those_built_afresh() -> None:
    st = GAME.new_game(None, 0)
    assert isinstance(st, RunaljodState)
    for deck, cards in GAME.content.ai_decks.items():
        for card in cards:
            assert st.describe_ai(deck, card) == st._describe_ai(deck, card)
            assert st.describe_ai(deck, card) == st._describe_ai(deck, card)  # remembered


def test_a_rune_throw_is_the_rune_die_roll() -> None:
    """``throw_rune`` (its die remembered, its name written only when it may be read) rolls
    what ``rune_die(content).roll`` rolls, from the same generator state."""
    from meadhall.core.chance import Chance
    from meadhall.games.runaljod.dice_rules import rune_die, throw_rune

    content = GAME.content
    for seed in range(20):
        a, b, c = (Chance("runaljod", Rng(seed)) for _ in range(3))
        for i in range(30):
            want = rune_die(content).roll(a, f"throw {i}", "2. Destiny Phase")
            assert throw_rune(content, b, f"throw {i}", "2. Destiny Phase") == want
            assert throw_rune(content, c, "", "2. Destiny Phase") == want
        assert a.rng.state == b.rng.state == c.rng.state
    forced = Chance("runaljod", Rng(0))
    forced.force("side")
    assert throw_rune(content, forced, "a forced throw", "2. Destiny Phase") == "side"


def test_a_search_copy_plays_the_same_game_as_a_plain_copy() -> None:
    """Search copies skip what nobody reads of them (the words of some events, the names of
    rune throws): the positions and generators they reach are a plain copy's."""
    checked = 0
    for i, st in enumerate(positions(seeds=4, steps=300)):
        if i % 5:
            continue
        plain, scratch = st.clone(), st.clone()
        scratch._scratch = True
        scratch.log = []
        bot = RandomBot(i)
        for _ in range(12):
            if plain.decision() is None:
                break
            action = bot.choose(plain)
            plain.apply(action.text)
            scratch.apply(action.text)
            assert scratch.to_json()["position"] == plain.to_json()["position"]
            assert scratch.chance.rng.state == plain.chance.rng.state
            checked += 1
    assert checked > 500
