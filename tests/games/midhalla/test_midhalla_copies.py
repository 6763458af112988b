"""Copies share what is immutable, and the drawing remembers what content alone decides:
neither may change what a state, a view or a scene holds (issue 21/22 speed-ups)."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from meadhall import games
from meadhall.core import words
from meadhall.games.midhalla import memo, render, table
from meadhall.games.midhalla.pieces import Decks
from meadhall.games.midhalla.state import DECKS

GAME = games.get("midhalla")
SETUPS = [None, {"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]},
          {"scenario": "side_loot_den", "heroes": ["ylva"]},
          {"scenario": "chapter1", "heroes": ["harkon", "enyk"], "campaign": True}]


def _games(n_seeds: int = 2, steps: int = 160):
    """(state, rng) at every decision of random games of every setup above."""
    for i, setup in enumerate(SETUPS):
        for seed in range(n_seeds):
            s = GAME.new_game(setup, seed)
            r = random.Random(100 * i + seed)
            for _ in range(steps):
                if s.decision() is None:
                    break
                yield s, r
                acts = s.legal_actions()
                s.apply(acts[r.randrange(len(acts))])


def _from_scratch_view(st, seat=None):
    """The view as it was built before the fast path: the whole position, then the public
    decks and the 3.3 snapshot replaced."""
    pos = st._dump()
    pos["decks"] = {n: st.decks.read(n).public() for n in DECKS}
    if pos["combat"] and pos["combat"].get("snapshot"):
        pos["combat"]["snapshot"] = "the position at the start of step 3.3"
    pos["outcome"] = st.outcome().to_json()
    return pos


def _forget() -> None:
    """Empty every cache the drawing and the rules keep (a from-scratch build)."""
    for cache in (table._MEMO, table._TAO, table._SPACES, table._TILES, table._KEPT,
                  render._EFFECT_TEXT,
                  memo._DUMPS,
                  memo._ONE, memo._SHORT):
        cache.clear()
    words.plural_of.cache_clear()


def test_a_look_ahead_on_a_copy_never_changes_the_original() -> None:
    """Tiles, the party sheet and the decks are shared by copies until one changes them."""
    seen = 0
    for s, r in _games():
        before = json.dumps(s.to_json(), sort_keys=True)
        for a in s.legal_actions()[:3]:
            c = s.clone()
            c.apply(a)
            for _ in range(3):  # and a little further, where cards are drawn
                acts = c.legal_actions()
                if not acts:
                    break
                c.apply(acts[r.randrange(len(acts))])
            seen += 1
        assert json.dumps(s.to_json(), sort_keys=True) == before
    assert seen > 500


def test_a_copy_replays_to_the_same_game_as_the_original() -> None:
    for s, r in _games(1, 120):
        if r.random() < 0.9:
            continue
        c = s.clone()
        acts = s.legal_actions()
        a = acts[r.randrange(len(acts))]
        assert s.apply(a) == c.apply(a)
        assert s.to_json() == c.to_json()


def test_the_fast_view_and_scene_equal_a_from_scratch_build() -> None:
    n = 0
    handed: list[tuple[dict, str]] = []
    for s, _ in _games(2, 200):
        for seat in (None, *s.seats()):
            v = s.view(seat)
            # same keys in the same order, same types (True is not 1 in JSON)
            assert json.dumps(v) == json.dumps(_from_scratch_view(s, seat))
            warm = GAME.draw(v)
            if n % 7 == 0:
                _forget()
                assert GAME.draw(v) == warm
            if n % 13 == 0:
                handed.append((v, json.dumps(v)))
            n += 1
    assert n > 1000
    # views share parts: none handed out was changed by the play after it
    assert all(json.dumps(v) == text for v, text in handed)


def _reversed(d: dict) -> dict:
    return dict(reversed(list(d.items())))


def test_the_drawing_is_not_fooled_by_a_view_changed_after_drawing() -> None:
    """The drawing keeps copies of what it read: a view a caller changes and draws again is
    drawn anew, exactly as from scratch; so is an equal view whose dicts run in another
    order, and views of different games drawn in turn."""
    rows = [s.view(None) for s, r in _games(1, 120) if r.random() < 0.2]
    r = random.Random(5)
    for _ in range(300):
        v = json.loads(json.dumps(rows[r.randrange(len(rows))]))  # a caller's own copy
        warm = GAME.draw(v)
        heroes = v["heroes"]
        hid = r.choice(list(heroes))
        heroes[hid]["hp"] = max(0, heroes[hid]["hp"] - 1)
        heroes[hid]["acted"] = not heroes[hid]["acted"]
        v["silver"] += 1
        v["party"]["fate"] = -v["party"]["fate"]
        v["party"]["events"] = {"tier1": {"a": "b", "c": "d"}, "tier2": {"e": "f"}}
        for e in v["enemies"].values():
            e["hp"] += 1
        changed = GAME.draw(v)
        w = json.loads(json.dumps(v))
        for k in ("tiles", "heroes", "enemies", "traps", "decks"):
            w[k] = _reversed(w[k])
        w["party"]["events"] = {k: _reversed(x) for k, x in w["party"]["events"].items()}
        turned = GAME.draw(w)
        _forget()
        assert changed == GAME.draw(v)
        _forget()
        assert turned == GAME.draw(w)
        assert warm != changed


def test_decks_are_copied_when_first_used_and_survive_pickling() -> None:
    s = GAME.new_game(None, 3)
    c = s.clone()
    assert isinstance(c.decks, Decks) and not c.decks.owned and not s.decks.owned
    assert c.decks.read("enemy") is s.decks.read("enemy")  # shared until used
    c.decks["enemy"].draw(c.chance)
    assert len(c.decks.read("enemy")) == len(s.decks.read("enemy")) - 1
    assert c.decks.get("nothing") is None and c.decks.get("tier1") is c.decks["tier1"]
    back = pickle.loads(pickle.dumps(s))
    assert back.to_json() == s.to_json() and isinstance(back.decks, Decks)


@pytest.mark.parametrize("field", ["top", "bottom", "exhausted", "ults_used", "items",
                                   "used_items"])
def test_a_hero_copy_owns_its_lists_of_ids(field: str) -> None:
    s = GAME.new_game(None, 0)
    h = next(iter(s.heroes.values()))
    c = s.clone()
    getattr(next(iter(c.heroes.values())), field).append("x")
    assert "x" not in getattr(h, field)
    for v in vars(h).values():  # the hand-written copy assumes ids and plain values only
        assert v is None or isinstance(v, int | str | bool) or (
            isinstance(v, list) and all(isinstance(x, str) for x in v))


def test_only_the_option_kinds_have_option_targets() -> None:
    """The drawing looks for option cards in choices of ``OPTION_KINDS`` only."""
    from meadhall.games.midhalla.describe import OPTION_KINDS, option_target

    kinds = set()
    for s, _ in _games(1, 200):
        ch = s.choice
        kinds.add(ch.kind)
        if ch.kind not in OPTION_KINDS:
            assert all(option_target(ch.kind, p) is None for _, p in ch.options)
    assert len(kinds) > 10
    for kind in OPTION_KINDS:
        assert option_target(kind, ["add", "x"]) is not None


def test_the_snapshot_of_step_3_3_shares_the_party_sheet_and_keeps_it() -> None:
    """The 3.3 snapshot shares the party sheet (changed only through a copy): a change after
    it never reaches the snapshot, and going back gives the sheet as it was."""
    s = GAME.new_game(None, 0)
    before = json.dumps(s.party)
    attrs = s._capture()
    assert attrs["party"] is s.party
    s._party_w()["fate"] = s.party["fate"] + 1
    s._party_w()["unlocks"]["lore"].append("x")
    assert json.dumps(attrs["party"]) == before
    s._restore(attrs)
    assert json.dumps(s.party) == before
    s._party_w()["new"].append(["lore", "y"])
    assert json.dumps(attrs["party"]) == before


def test_the_repetition_text_is_the_json_text_of_the_view() -> None:
    """``repetition_text`` (put together from remembered parts) writes exactly what
    ``Repetition.key`` writes from the view, so the heuristic bot's keys stay the same."""
    n = 0
    for s, _ in _games(2, 200):
        d = s.decision()
        slow = json.dumps([d.to_json() if d else None, s.view(None)], sort_keys=True,
                          default=str, separators=(",", ":"), check_circular=False)
        assert s.repetition_text() == slow
        n += 1
    assert n > 1000


def _scratch(s):
    c = s.clone()
    c._scratch = True
    c.log = []
    return c


def test_a_search_copy_lists_its_options_when_read_and_the_same_ones() -> None:
    """A search copy's choice of 2.1 works out its options only when they are read
    (``Choice.lazy``): the same options as a played state, even when the copy's original
    (or a copy of the copy) moved on first, and they survive pickling."""
    lazy = 0
    for s, r in _games(2, 200):
        acts = s.legal_actions()
        a = acts[r.randrange(len(acts))]
        plain, look = s.clone(), _scratch(s)
        plain.apply(a)
        look.apply(a)
        ch = look.choice
        if ch is None or "_make" not in ch.__dict__:
            continue
        lazy += 1
        twin = look.clone()
        more = look.legal_actions() if r.random() < 0.5 else None  # read by the original
        if more:
            look.apply(more[r.randrange(len(more))])
        pickled = pickle.loads(pickle.dumps(twin.choice))
        assert twin.choice == plain.choice and twin.choice.options == plain.choice.options
        assert pickled == plain.choice and "_make" not in pickled.__dict__
        assert [x.text for x in twin.legal_actions()] == [x.text for x in plain.legal_actions()]
    assert lazy > 30


def test_a_choice_made_in_one_step_and_its_shared_decision_are_the_plain_ones() -> None:
    """``Choice.made`` fills what the dataclass's own ``__init__`` fills, and the shared
    Decision object of a choice is the one built afresh for it."""
    from meadhall.core.protocol import Decision
    from meadhall.games.midhalla.pieces import Choice

    checked = 0
    for s, _ in _games():
        ch = s.choice
        if ch is None:
            continue
        plain = Choice(ch.kind, ch.seat, ch.prompt, ch.section, tuple(ch.options), ch.default,
                       ch.ctx)
        assert ch == plain and ch.to_json() == plain.to_json()
        assert ch.__dict__.keys() - {"_decision", "_index"} == plain.__dict__.keys()
        fresh = Decision(ch.seat, ch.prompt, ch.section, "choice" if ch.default else "turn",
                         ch.default)
        assert ch.decision == fresh == plain.decision
        assert s.decision() == fresh
        checked += 1
    assert checked > 300


def test_the_pieces_to_act_listed_once_are_those_of_each_tile() -> None:
    """3.1 and 3.2 list the enemies and traps still to act once per step: for every map tile
    of the activation order they give what the per-tile listing gave."""
    checked = 0
    for s, _ in _games(3, 200):
        cb = s.cb
        if s.phase != "combat" or not cb or cb.get("step") not in ("enemies", "traps"):
            continue
        enemies, traps = s._enemies_to_act(), s._traps_to_act()
        for tid in cb["order"]:
            assert [e.id for e in enemies if e.tile == tid] == [
                e.id for e in s._enemies_sorted() if e.tile == tid and e.id not in cb["done"]]
            assert [t.id for t in traps if t.tile == tid] == [
                t.id for t in sorted(s.traps.values(), key=lambda t: int(t.id[1:]))
                if t.tile == tid and not t.destroyed and t.id not in cb["done"]]
            checked += 1
    assert checked > 200
