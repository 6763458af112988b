"""Observations: fixed size, from the seat's view only, laid out as documented."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import json
from typing import Any

import gymnasium
import numpy as np
import pytest
from adapter_cases import Case

from meadhall import games
from meadhall.adapters.observation import (
    LIMIT,
    MAX_DICE,
    Encoder,
    Layout,
    describe_layout,
    layout_of,
    parse_stat,
    probe_states,
    text_view,
)
from meadhall.adapters.table import Table
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.bots.random import RandomBot
from meadhall.core import draw
from meadhall.core.rng import Rng

TOY = {"scenario": "chase", "heroes": ["ada", "bo"]}


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_observations_never_depend_on_hidden_information(drawn_case: Case) -> None:
    case = drawn_case
    table = Table.of(case.game, case.setup)
    encoder = Encoder(table, layout_of(table))
    layout = encoder.layout
    assert layout.grids or layout.tiles or any(n.startswith(("track:", "panel:"))
                                               for n in layout.vector), (
        f"{case.game}: the observation shows no board, track or panel (Game.draw)")
    space = layout.space()
    for seed in range(2):
        state, bot = table.new_state(seed), RandomBot(seed)
        for step in range(case.max_steps):
            if step % 5 == 0:
                for seat in (*table.seats, None):  # None: the global state
                    obs = encoder.encode(state, seat)
                    assert obs in space
                    for k in (1, 2):
                        # determinize() resamples everything the seats cannot see
                        assert _same(obs, encoder.encode(state.determinize(Rng(k)), seat)), (
                            f"{case.game} seed {seed} step {step}: {seat}'s observation "
                            "changes with hidden information")
            if state.decision() is None:
                break
            state.apply(bot.choose(state))


def test_flat_observation_is_the_pieces_in_layout_order(any_case: Case) -> None:
    case = any_case
    table = Table.of(case.game, case.setup)
    encoder = Encoder(table, layout_of(table))
    state = table.new_state(3)
    pieces = encoder.encode(state, table.seats[0])
    flat = encoder.flat(state, table.seats[0])
    assert flat.shape == (encoder.layout.size,) and flat.dtype == np.float32
    assert np.array_equal(flat, np.concatenate([pieces[n].ravel()
                                                for n in encoder.layout.shapes()]))
    space = encoder.layout.space()
    assert np.array_equal(flat, gymnasium.spaces.flatten(space, pieces))
    described = describe_layout(encoder.layout)
    assert list(described) == list(encoder.layout.shapes())
    assert described["vector"]["entries"] == list(encoder.layout.vector)


def test_toy_board_planes_show_the_figures_where_the_view_puts_them() -> None:
    table = Table.of("toy", TOY)
    layout = layout_of(table)
    state = table.new_state(1)
    obs = Encoder(table, layout).encode(state, "bo")
    grid = layout.grids[0]
    plane = obs[grid.name]
    ch = {c: i for i, c in enumerate(grid.channels)}
    assert plane.shape == (5, 5, len(grid.channels))
    # Ada at A1 and Bo at C1 (row 0); the troll at C3; B2 is a wall, E5 the exit.
    assert plane[0, 0, ch["side:hero"]] == 1 and plane[0, 0, ch["mine"]] == 0
    assert plane[0, 2, ch["side:hero"]] == 1 and plane[0, 2, ch["mine"]] == 1
    assert plane[2, 2, ch["side:enemy"]] == 1
    assert plane[1, 1, ch["terrain:#"]] == 1 and plane[4, 4, ch["terrain:X"]] == 1
    assert plane[:, :, ch["cell"]].sum() == 25
    vector = dict(zip(layout.vector, obs["vector"], strict=True))
    assert vector["seat:bo"] == 1 and vector["decider:ada"] == 1
    assert vector["decider:mine"] == 0 and vector["kind:turn"] == 1
    assert vector["track:round:value"] == 0 and vector["track:round:size"] == 12
    assert vector["cards:face_down"] == 1 and vector["unencoded"] == 0


def test_every_feature_has_its_real_bounds(drawn_case: Case) -> None:
    table = Table.of(drawn_case.game, drawn_case.setup)
    layout = layout_of(table)
    low, high = layout.bounds()
    names = dict(zip(layout.vector, range(layout.size - len(layout.vector), layout.size),
                     strict=True))
    wide = {n for n, i in names.items() if high[i] >= LIMIT}
    assert all(n.startswith("extra:") or n in ("overflow", "unencoded", "dice:extra")
               for n in wide)
    for n in ("seat:" + table.seats[0], "decider:mine", "outcome:win"):
        assert (low[names[n]], high[names[n]]) == (0.0, 1.0)
    assert layout.space() == layout_of(Table.of(drawn_case.game, drawn_case.setup)).space()
    # Raw values of games the layout never probed (seeds 50, 51) stay inside the bounds.
    encoder = Encoder(table, layout)
    for seed in (50, 51):
        state, bot = table.new_state(seed), RandomBot(seed)
        for _ in range(60):
            for seat in (*table.seats, None):
                scene = table.game.draw(state.view(seat))
                raw = encoder.encode_scene(scene, seat, table.heroes.get(seat, frozenset()))
                assert ((raw >= low) & (raw <= high)).all(), [
                    layout.vector[i - (layout.size - len(layout.vector))]
                    for i in np.flatnonzero((raw < low) | (raw > high))][:5]
            if state.decision() is None:
                break
            state.apply(bot.choose(state))


def test_every_drawn_thing_of_every_scenario_fits_the_layout(drawn_case: Case) -> None:
    """Random games of every scenario: nothing drawn is lost (unencoded stays 0)."""
    game = Table.of(drawn_case.game, drawn_case.setup).game
    for info in game.scenarios():
        setup = {**(drawn_case.setup or {}), "scenario": info.id}
        table = Table.of(game, setup)
        encoder = Encoder(table, layout_of(table))
        for seed in (7,):
            state, bot = table.new_state(seed), RandomBot(seed)
            for _ in range(40):
                for seat in (*table.seats, None):
                    encoder.encode(state, seat)
                    assert encoder.unencoded == [], (info.id, seed, encoder.unencoded)
                if state.decision() is None:
                    break
                state.apply(bot.choose(state))


@pytest.mark.parametrize(("value", "parsed"), [
    ("7/12", (7.0, 12.0, 0.0)), (3, (3.0, 0.0, 0.0)), ("-2 MP", (-2.0, 0.0, 0.0)),
    ("0 (next Upgrade at 2)", (0.0, 0.0, 0.0)), ("12 / 15", (12.0, 15.0, 0.0)),
    ("", (0.0, 0.0, 0.0)), (True, (1.0, 0.0, 0.0))])
def test_panel_stats_read_as_numbers(value: str | int, parsed: tuple[float, ...]) -> None:
    assert parse_stat(value) == parsed


def test_text_stats_get_a_stable_code() -> None:
    value, top, code = parse_stat("berserker")
    assert (value, top) == (0.0, 0.0) and 0 < code <= 1 and code == parse_stat("berserker")[2]
    assert code != parse_stat("human")[2]
    assert parse_stat("C8")[:2] == (0.0, 0.0) and parse_stat("C8")[2] > 0  # a place, not 8


def test_text_view_shows_the_decision_the_view_and_the_numbered_actions() -> None:
    table = Table.of("toy", TOY)
    state = table.new_state(1)
    v = Vocabulary.of("toy", TOY)
    mine = text_view(state, "ada", v, table)
    assert "Decision for you: Ada's turn" in mine
    assert f"[{v.id('wait')}] wait — Ada waits" in mine
    assert '"troll": {"at": "C3"' in mine
    theirs = text_view(state, "bo", v, table)
    assert "Decision for ada" in theirs and "Legal actions" not in theirs


@pytest.mark.parametrize("name", ["vocabulary", "gym", "pettingzoo", "openspiel"])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"meadhall.adapters.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0



def test_what_the_probe_games_never_showed_lands_in_the_hashed_places(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.of("toy", TOY)
    layout = Layout.build(table, probe_states(table, games=1, steps=3))
    encoder = Encoder(table, layout)
    plain = table.game.draw

    def with_a_surprise(view: Any) -> draw.Scene:
        scene = plain(view)
        scene.panels.append(draw.Panel("omen", "An omen", stats=[draw.Stat("dread", 3)]))
        scene.boards.append(draw.SquareGrid("elsewhere", 1, 1, [draw.Cell("A1", 0, 0)]))
        return scene

    monkeypatch.setattr(table.game, "draw", with_a_surprise)
    with pytest.warns(UserWarning, match=r"1 drawn thing\(s\) did not fit .*grid:elsewhere"):
        obs = encoder.encode(table.new_state(0), "ada")
    assert encoder.unencoded == ["grid:elsewhere"]
    assert encoder.overflow == ["panel:omen", "panel:omen:stat:dread"]
    vector = dict(zip(layout.vector, obs["vector"], strict=True))
    assert vector["unencoded"] == 1 and vector["overflow"] == 2
    assert sum(v for n, v in vector.items() if n.startswith("extra:stat:")) == 3
    assert sum(v for n, v in vector.items() if n.startswith("extra:panel:")
               and n.endswith(":shown")) == 1


def test_layout_cache_is_written_read_and_a_damaged_file_rebuilt_with_a_warning(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from meadhall.adapters import observation

    monkeypatch.setenv("MEADHALL_LAYOUT_CACHE", str(tmp_path))
    table = Table.of("toy", TOY)  # not the default setup, whose layout is shipped
    observation._layout.cache_clear()
    try:
        built = observation.layout_of(table)
        (path,) = tmp_path.glob("toy-*.json")
        observation._layout.cache_clear()
        assert observation.layout_of(table).to_json() == built.to_json()  # read back
        path.write_text("{not json")
        observation._layout.cache_clear()
        with caplog.at_level("WARNING", logger="meadhall.adapters"):
            again = observation.layout_of(table)
        assert again.to_json() == built.to_json()
        assert "unreadable" in caplog.text and "rebuilding" in caplog.text
    finally:
        observation._layout.cache_clear()


@pytest.mark.parametrize("game_id", games.ids())
def test_the_shipped_layout_of_each_default_setup_equals_a_fresh_probe(game_id: str) -> None:
    from meadhall.adapters import observation

    table = Table.of(game_id, None)
    path = observation.shipped_path(game_id)
    assert path.is_file(), f"{game_id}: no shipped layout: python -m meadhall.adapters.layouts"
    fresh = observation.shipped_json(table, observation.probed(table))
    assert json.loads(path.read_text()) == json.loads(json.dumps(fresh)), (
        f"{game_id}: the shipped layout is stale (the game draws differently now): "
        f"python -m meadhall.adapters.layouts {game_id}")


def test_a_default_setup_loads_the_shipped_layout_and_other_setups_probe(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from meadhall.adapters import observation

    monkeypatch.setenv("MEADHALL_LAYOUT_CACHE", str(tmp_path))
    probes: list[str] = []
    real = observation.probed

    def counting(table: Table) -> Layout:
        probes.append(json.dumps(table.setup, sort_keys=True))
        return real(table)

    monkeypatch.setattr(observation, "probed", counting)
    observation._layout.cache_clear()
    try:
        default = Table.of("toy", None)
        shipped = observation.layout_of(default)
        assert probes == [] and list(tmp_path.iterdir()) == []
        assert shipped.to_json() == real(default).to_json()
        other = Table.of("toy", TOY)
        assert other.setup != default.setup
        observation.layout_of(other)
        assert probes == [json.dumps(other.setup, sort_keys=True)]
        assert len(list(tmp_path.glob("toy-*.json"))) == 1  # the cache keeps other setups
    finally:
        observation._layout.cache_clear()


def test_each_seats_observation_brought_up_to_date_equals_one_encoded_afresh(
        drawn_case: Case) -> None:
    """The encoder re-encodes only the board parts that changed since a seat's last
    observation: over random games, in every seat and skipping positions, that gives the
    numbers of an encoding from scratch."""
    table = Table.of(drawn_case.game, drawn_case.setup)
    encoder, layout = Encoder(table, layout_of(table)), layout_of(table)
    for seed in range(2):
        state, bot = table.new_state(seed), RandomBot(seed)
        for step in range(drawn_case.max_steps):
            for seat in (*table.seats, None):
                if (step + len(str(seat))) % 3:
                    continue
                mine = table.heroes.get(seat, frozenset())
                scene = table.game.draw(state.view(seat))
                fresh = encoder._encode(scene, seat, mine, state)
                np.testing.assert_array_equal(encoder.flat(state, seat), fresh,
                                              err_msg=f"{seed}/{step}/{seat}")
                assert encoder.flat(state, seat).shape == (layout.size,)
            if state.decision() is None:
                break
            state.apply(bot.choose(state))


def test_boards_that_come_go_or_share_an_id_are_encoded_as_from_scratch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.of("toy", TOY)
    encoder = Encoder(table, layout_of(table))
    plain = table.game.draw
    variant = [0]

    def changed(view: Any) -> draw.Scene:
        scene = plain(view)
        if variant[0] == 1:
            scene.boards = []  # the board goes
        elif variant[0] == 2:
            scene.boards = scene.boards + scene.boards  # twice: its places sum
        return scene

    monkeypatch.setattr(table.game, "draw", changed)
    state, bot = table.new_state(3), RandomBot(3)
    for step in range(12):
        variant[0] = step % 3 if step < 6 else (step // 2) % 3
        got = encoder.flat(state, "ada")
        fresh = encoder._encode(changed(state.view("ada")), "ada", table.heroes["ada"], state)
        np.testing.assert_array_equal(got, fresh, err_msg=f"step {step}")
        if state.decision() is None:
            state = table.new_state(step)
        else:
            state.apply(bot.choose(state))


def test_vector_pieces_that_come_go_change_or_overflow_are_encoded_as_from_scratch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The vector reuses what remembered pieces (tracks and panels drawn as the same object as
    last time) added: pieces that vanish, come back, are drawn twice under one id, have ids that name another's
    places, tracks that share an id or a place the layout lacks, grow a stat the layout has no
    place for, or bring more dice or cards than it holds give the numbers of an encoding from
    scratch, the step they happen and the steps after."""
    table = Table.of("battleforge", None)
    encoder = Encoder(table, layout_of(table))
    plain = table.game.draw
    variant = [0]

    def changed(view: Any) -> draw.Scene:
        # A drawn scene is never changed in place (drawings share pieces): a copy is.
        scene = dataclasses.replace(plain(view))
        v = variant[0]
        panels = list(scene.panels)
        if v == 1 and panels:
            scene.panels = panels[1:]  # a panel goes
        elif v == 2 and panels:
            scene.panels = [*panels, panels[0]]  # twice under one id: its places sum
        elif v == 3 and panels:
            p = panels[0]
            scene.panels = [draw.Panel(p.id, p.title, p.seat,
                                       [*p.stats, draw.Stat("Unheard of", "3")], p.tracks,
                                       p.cards, p.tokens, p.dice), *panels[1:]]
        elif v == 4:
            scene.dice = [draw.Die("d6", str(1 + i % 6)) for i in range(MAX_DICE + 2)]
        elif v == 5:
            scene.cards = [*scene.cards, draw.Card("x", "A card never seen")]
            scene.tracks = scene.tracks[1:]  # a track goes
        elif v == 6 and panels:
            # an id that is another's and ":": their places could be the same names
            p = panels[0]
            scene.panels = [*panels, dataclasses.replace(p, id=f"{p.id}:stat")]
            scene.tracks = [*scene.tracks, *(dataclasses.replace(t, id=f"{t.id}:at")
                                             for t in scene.tracks[:1])]
        elif v == 7:
            # a panel whose tracks share an id, and one that grows a track
            scene.panels = [dataclasses.replace(p, tracks=[*p.tracks, *p.tracks[:1]])
                            if p.tracks else p for p in panels]
            if panels and scene.tracks:
                scene.panels[-1] = dataclasses.replace(
                    panels[-1], tracks=[*panels[-1].tracks, scene.tracks[0]])
        return scene

    monkeypatch.setattr(table.game, "draw", changed)
    state, bot = table.new_state(4), RandomBot(4)
    seat = table.seats[0]
    for step in range(60):
        variant[0] = (step * 7 // 3) % 8 if step % 4 else 0
        got = encoder.flat(state, seat)
        fresh = encoder._encode(changed(state.view(seat)), seat, table.heroes[seat], state)
        np.testing.assert_array_equal(got, fresh, err_msg=f"step {step}, variant {variant[0]}")
        if state.decision() is None:
            state = table.new_state(step)
        else:
            state.apply(bot.choose(state))

