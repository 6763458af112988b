"""Dice in events (docs/architecture.md, "Dice in events"): every event that rolls dice or throws
runes carries ``data["dice"]``, one ``{"kind", "face", "modifier"}`` per die in the order rolled
(a die's colour; a rune by its name, showing how it lies), besides the keys it had before."""

from __future__ import annotations

import random
from typing import Any

import pytest
from runaljod_kit import foe, make, put

from meadhall.core import dice as core_dice
from meadhall.core.protocol import Event
from meadhall.games.runaljod import GAME


def die(kind: str, face: str) -> dict[str, Any]:
    return {"kind": kind, "face": face, "modifier": 0}


def rolled(events: list[Event]) -> list[dict[str, Any]]:
    return [d for e in events for d in e.data.get("dice", [])]


@pytest.mark.rule("runaljod", "The Dice")
def test_a_hero_attack_shows_each_die_colour_and_face() -> None:
    st = make(["....", "....", "...."])
    put(st, "berserk", "A1")
    put(st, "volva", "D3")
    foe(st, "clan_warrior", "B1")
    st.force("double_axe", "dagger", "blank")  # bearded axe 2 black + Fury black
    st.apply("attack using uruz")
    events = st.apply("attack B1 with bearded axe")
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["dice"] == [die("black", "double axe"), die("black", "dagger"),
                                 die("black", "blank")]
    assert roll.data["faces"] == ["double_axe", "dagger", "blank"]  # still there for readers


@pytest.mark.rule("runaljod", "Enemy Actions")
def test_an_enemy_attack_shows_its_dice() -> None:
    st = make(["....", "....", "...."])
    put(st, "berserk", "A1")
    e = foe(st, "clan_hunter", "C1")
    st.force("axe", "upgrade")
    events: list[Event] = []
    st.enemy_attack(e, st.heroes["berserk"], events, "Attack")
    att = next(ev for ev in events if ev.kind == "enemy-attack")
    assert att.data["dice"] == [die("black", "axe"), die("white", "upgrade")]
    assert att.data["faces"] == ["axe", "upgrade"]


@pytest.mark.rule("runaljod", "Perform Checks")
def test_a_check_shows_its_dice() -> None:
    st = make()
    h = st.heroes["volva"]
    dice = st.check_dice(h, "spiritual")  # two white, and Second Sight's white
    assert dice == ["white", "white", "white"]
    st.force("upgrade", "blank", "dagger")
    events: list[Event] = []
    ok, _ = st.check(h, "spiritual", "ansuz", events)
    assert ok and events[-1].data["dice"] == [die("white", "upgrade"), die("white", "blank"),
                                              die("white", "dagger")]


@pytest.mark.rule("runaljod", "2. Destiny Phase")
def test_the_destiny_throw_shows_each_rune_and_how_it_lies() -> None:
    st = make(heroes=("berserk", "volva"))
    for h in st.heroes.values():
        for r in h.runes:
            r.place = "move1"  # used: thrown again
    st.force(*(["side", "up", "down"] * 10))
    events: list[Event] = []
    st.destiny_phase(events)
    throw = next(e for e in events if e.kind == "destiny")
    h = st.heroes[throw.data["hero"]]
    assert [d["kind"] for d in throw.data["dice"]] == [st.rname(r) for r in h.runes]
    assert [d["face"] for d in throw.data["dice"]][:3] == ["sideways", "up", "down"]
    assert throw.data["runes"] == [[r.icon, r.side] for r in h.runes]


@pytest.mark.rule("runaljod", "Activate the God's Rune")
def test_the_altar_throw_shows_each_gods_rune() -> None:
    st = make()
    st.force("up", "side", "down", "up")
    events: list[Event] = []
    st.throw_altar(events, "a test")
    altar = next(e for e in events if e.kind == "altar")
    assert altar.data["dice"] == [die("tyr's rune", "up"), die("freyja's rune", "sideways"),
                                  die("thor's rune", "down"), die("odin's rune", "up")]


def test_every_die_rolled_in_random_games_is_in_an_event(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Each die rolled or rune thrown by a step appears in exactly one of its events' dice,
    with the face it showed, in the order rolled; the dice follow the convention's shape."""
    faces: list[str] = []
    roll = core_dice.Die.roll

    def counting(self: core_dice.Die, *args: Any, **kwargs: Any) -> Any:
        face = roll(self, *args, **kwargs)
        faces.append(str(face))
        return face

    monkeypatch.setattr(core_dice.Die, "roll", counting)
    shown = {"side": "sideways"}
    for party, seeds in ((None, range(6)), (["volva", "berserk", "hunter", "warrior"], range(3))):
        setup = None if party is None else {**GAME.default_setup(), "heroes": party}
        for seed in seeds:
            s = GAME.new_game(setup, seed)
            rng = random.Random(seed)
            while s.decision() is not None:
                faces.clear()
                acts = s.legal_actions()
                events = s.apply(acts[rng.randrange(len(acts))])
                dice = rolled(events)
                assert all(set(d) == {"kind", "face", "modifier"} and d["kind"]
                           and isinstance(d["face"], str) and d["modifier"] == 0
                           for d in dice), dice
                assert [d["face"] for d in dice] == [
                    shown.get(f, f.replace("_", " ")) for f in faces], (seed, s.log[-1])
