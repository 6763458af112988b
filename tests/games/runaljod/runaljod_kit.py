"""Helpers for Runaljod rule tests: a state on a hand-drawn tile, heroes, enemies and runes."""

from __future__ import annotations

from meadhall.core import grid
from meadhall.core.deck import Deck
from meadhall.games.runaljod import GAME
from meadhall.games.runaljod.content import TileData
from meadhall.games.runaljod.model import Enemy, PlacedTile, Rune
from meadhall.games.runaljod.state import RunaljodState


def make(rows: list[str] | None = None, heroes: tuple[str, ...] = ("berserk", "volva"),
         seed: int = 0, card: str = "i_shore") -> RunaljodState:
    """A state in the actions phase on one tile (``rows`` drawn by the test, else the hall),
    every hero off the board with all runes face up in the destiny pool and no enemy."""
    content = GAME.content
    tile = "hall"
    if rows is not None:
        content = content.model_copy(update={"tiles": {**content.tiles,
                                                       "test": TileData(name="Test",
                                                                        rows=rows)}})
        tile = "test"
    setup = {"scenario": "adventure", "heroes": list(heroes), "players": len(heroes),
             "level": 1}
    st = RunaljodState(content, setup, seed)
    st.tiles = [PlacedTile(tile, card, 0)]
    st.cards_played = [card]
    st.active_card = ""
    st.altar = [["tyr", "up"], ["freyja", "up"], ["thor", "up"], ["odin", "up"]]
    st.exploration = Deck("exploration", ["s_ford", "s_barrow"], bottom=["c_hall"],
                          reshuffle=False)
    st.phase = "actions"
    st.round = 2
    for h in st.heroes.values():
        for r in h.runes:
            r.side, r.place = "up", "pool"
    st.active = heroes[0]
    return st


def put(st: RunaljodState, hero: str, at: str) -> None:
    st.heroes[hero].at = grid.sq(at)


def foe(st: RunaljodState, kind: str, at: str) -> Enemy:
    st.next_uid += 1
    e = Enemy(st.next_uid, kind, grid.sq(at))
    st.enemies.append(e)
    return e


def runes(st: RunaljodState, hero: str, **sides: str) -> None:
    """Set rune orientations (``uruz="side"``); ``used`` moves a rune out of the pool."""
    h = st.heroes[hero]
    for icon, side in sides.items():
        r = h.rune(icon)
        if r is None:
            r = Rune(icon)
            h.runes.append(r)
        if side == "used":
            r.place = "move1"
        else:
            r.side, r.place = side, "pool"


def texts(st: RunaljodState) -> list[str]:
    return [a.text for a in st.legal_actions()]


def sq(name: str) -> tuple[int, int]:
    return grid.sq(name)


def greedy_play(game, setup: dict, seed: int, samples: int = 1,
                max_steps: int = 3000) -> RunaljodState:
    """Play one game with a one-ply greedy policy on ``game.evaluate``: each legal action is
    applied to ``samples`` determinized clones and the best average wins (ties: the order of
    ``game.order_actions``)."""
    from meadhall.core.rng import Rng

    st = game.new_game(setup, seed)
    rng = Rng(seed + 1000)
    for _ in range(max_steps):
        if st.decision() is None:
            break
        acts = game.order_actions(st, st.legal_actions())
        best, value = acts[0], -1.0
        for a in acts if len(acts) > 1 else ():
            v = 0.0
            for _ in range(samples):
                c = st.determinize(rng)
                c.apply(a)
                v += game.evaluate(c)
            if v > value + 1e-9:
                best, value = a, v
        st.apply(best)
    return st


def position(heroes: dict[str, dict], enemies: list[dict] | None = None,
             setup_heroes: tuple[str, ...] | None = None, seed: int = 0,
             **fields: object) -> RunaljodState:
    """A state loaded from a hand-written position (docs/formats/runaljod.md) through
    ``GameState.from_json``: round 2's actions phase on the Jotun's Hall (``hall``, columns
    A-H) unless ``fields`` say otherwise; heroes not given stand off the board."""
    from meadhall.core.protocol import GameState

    names = setup_heroes or tuple(heroes)
    pos: dict = {"round": 2, "phase": "actions", "time": 2, "end": 12,
                 "altar": [["tyr", "up"], ["freyja", "up"], ["thor", "up"], ["odin", "up"]],
                 "tiles": [{"tile": "hall", "card": "i_shore", "x": 0}],
                 "cards_played": ["i_shore"], "active_card": "",
                 "decks": {"exploration": {"name": "exploration",
                                           "pile": ["s_ford", "s_barrow"],
                                           "bottom": ["c_hall"], "reshuffle": False}},
                 "heroes": heroes, "enemies": enemies or []}
    pos.update(fields)
    st = GameState.from_json({"format": "meadhall/position", "version": 1, "game": "runaljod",
                              "setup": {"scenario": "adventure", "heroes": list(names),
                                        "players": len(names)},
                              "seed": seed, "position": pos})
    assert isinstance(st, RunaljodState)
    return st


def pool(*runes: str, side: str = "up") -> list[list[str]]:
    """Runes in the destiny pool, all lying ``side``."""
    return [[r, side, "pool"] for r in runes]
