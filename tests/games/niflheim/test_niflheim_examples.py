"""The rulebook's worked examples reproduced in full from hand-written positions, every outcome
a player's die or choice can give: Covering, Another Look at Range Modifiers, the phial throw
and burst, Recording Experience."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.games.niflheim import GAME, campaign
from meadhall.games.niflheim.testkit import legal, open_map, position


def pos(heroes: dict[str, Any], ud: list[dict] | None = None, scenario: str = "3",
        rows: list[str] | None = None, **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows or open_map(12, 10), "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {},
                         "done": ["O1", "O2", "O3", "J"], "pool": {"draugr": 2},
                         "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


# ----------------------------------------------------------------------------- covering
def covering_example(marker: str = "cover walking") -> Any:
    """Frida (seax readied) walked without attacking: a walking Cover marker. A draugr round
    the corner on E2, out of her sight behind the wall D2, moves to D3 next to her: the state at
    the moment she may interrupt."""
    s = pos({"frida": {"at": "C3", "ready": "seax"}}, [{"id": 1, "kind": "draugr", "at": "E2"}],
            scenario="2", rows=open_map(8, 8, {"D2": "#"}), done=["O2"])
    s.apply("end activation")
    s.heroes["frida"].marker = marker  # the cover value is read from the hero's marker
    return s


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
def test_covering_example_offer_and_numbers() -> None:
    """"The weapon's S/W value is 4/7 ... You must subtract 2 from her natural die roll. She
    needs to roll a 6+ to stun or a 9+ to wound the draugr." The offer comes when the draugr,
    having moved, stands exposed next to her; the value is read from her marker."""
    s = covering_example()
    assert s.undead[1].at == grid.sq("D3") and s.decision().section == "Covering"
    assert legal(s) == ["no cover attack", "cover: frida attack undead 1 with seax"]
    a = s.describe("cover: frida attack undead 1 with seax")
    assert a.label.endswith("6+ stuns, 9+ wounds")
    s = covering_example("cover running")  # a running Cover marker: -4
    assert s.describe("cover: frida attack undead 1 with seax").label.endswith(
        "8+ stuns, 11+ wounds")


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
@pytest.mark.parametrize("roll", range(1, 13))
def test_covering_example_every_roll(roll: int) -> None:
    """Natural 1-5 miss, 6-8 stun the draugr where it stands (it has no move left and, having
    moved, does not attack), 9-12 wound and eliminate it (HV 1); in every case the Cover
    marker becomes an Attacked marker and Frida is not locked."""
    s = covering_example()
    s.force(roll)
    s.apply("cover: frida attack undead 1 with seax")
    h = s.heroes["frida"]
    assert h.marker == "attacked" and h.locked_by is None
    if roll >= 9:
        assert 1 not in s.undead
    else:
        u = s.undead[1]
        assert u.at == grid.sq("D3") and u.stunned == (roll >= 6)


# ----------------------------------------------------------------------------- range modifiers
KNIVES = {2: (8, 10), 3: (8, 10), 4: (8, 10), 5: (9, 11), 6: (9, 11), 7: (10, 12), 8: (10, 12)}
"""Another Look at Range Modifiers: stun 8+ up to range 4, 9+ at 5-6, 10+ at 7-8; wound 10+,
11+, 12+."""


def knives_at(rng: int) -> Any:
    return pos({"frida": {"at": "A1", "ready": "throwing_knives",
                          "supplies": {"projectiles": 3, "healing_salves": 0, "holy_water": 0}},
                "killian": {"at": "A10"}},
               [{"id": 1, "kind": "draugr", "at": grid.name((rng, 0))}], scenario="2",
               done=["O2"])


@pytest.mark.rule("niflheim", "Another Look at Range Modifiers")
@pytest.mark.parametrize("rng", sorted(KNIVES))
def test_throwing_knives_range_example_through_real_attacks(rng: int) -> None:
    stun, wound = KNIVES[rng]
    label = knives_at(rng).describe("attack undead 1 with throwing knives").label
    assert label.endswith(f"{stun}+ stuns, {wound}+ wounds")
    for roll in range(2, 13):
        s = knives_at(rng)
        s.force(roll)
        s.apply("attack undead 1 with throwing knives")
        if roll >= wound:
            assert 1 not in s.undead, roll
        else:
            assert s.undead[1].stunned == (roll >= stun), roll


# ----------------------------------------------------------------------------- phials
def thrower(target: str, ud: list[dict[str, Any]], at: str = "A1") -> Any:
    return pos({"killian": {"at": at, "supplies": {"holy_water": 2, "projectiles": 0,
                                                   "healing_salves": 0}},
                "frida": {"at": "A10"}}, ud)


@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
@pytest.mark.parametrize("roll", range(1, 13))
def test_phial_throw_at_range_5_needs_5(roll: int) -> None:
    """"If the target is 5 squares away, you need to roll 5 or more on 1d12": below 5 it
    deviates (here two squares to the right, out of the draugr's reach)."""
    s = thrower("F1", [{"id": 1, "kind": "draugr", "at": "F1"}])
    assert s.describe("throw holy water at F1").targets[0].note == "5+"
    if roll >= 5:
        s.force(roll, 12)  # on target: the burst's one attack wounds the draugr
    else:
        s.force(roll, 10, 3)  # deviation: 9-12 = two squares, direction 3 = right -> H1
    events = s.apply("throw holy water at F1")
    text = " ".join(e.text for e in events)
    if roll >= 5:
        assert "on target" in text and 1 not in s.undead
    else:
        assert "deviates to H1" in text and s.undead[1].wounds == 0


@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_phial_burst_example_with_the_thrower_inside() -> None:
    """Phial AOE Example: the phial lands next to the thrower; 4 draugr in the 9 squares are
    each attacked with 1 AD at 6/9; "Killian does not need to roll an attack against himself
    here" (holy water affects only undead)."""
    ud = [{"id": i, "kind": "draugr", "at": q} for i, q in
          enumerate(["D5", "F4", "D6", "F6"], start=1)]
    s = thrower("E5", ud, at="E4")
    s.force(2, 9, 6, 5, 12)  # throw 2 >= range 1; then one roll per draugr, none for Killian
    events = s.apply("throw holy water at E5")
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 4 and all("Killian" not in e.text for e in rolls)
    assert 1 not in s.undead and s.undead[2].stunned and not s.undead[3].stunned
    assert 4 not in s.undead and s.heroes["killian"].health == 4
    assert not s.chance.queue  # exactly five rolls were used


# ----------------------------------------------------------------------------- experience
@pytest.mark.rule("niflheim", "Scenario 2: In the Mist")
def test_recording_experience_pegs() -> None:
    """Recording Experience: white peg on the ones, black peg on the tens from 10 XP on, and
    with matching digits, "say 55", the white peg goes into the red hole."""
    assert campaign.xp_pegs(0) == {"black": None, "white": 0, "red": False}
    assert campaign.xp_pegs(7) == {"black": None, "white": 7, "red": False}
    assert campaign.xp_pegs(10) == {"black": 1, "white": 0, "red": False}
    assert campaign.xp_pegs(23) == {"black": 2, "white": 3, "red": False}
    assert campaign.xp_pegs(55) == {"black": 5, "white": 5, "red": True}
    s = pos({"frida": {"at": "A1", "xp": 55}})
    panel = next(p for p in GAME.draw(s.view(None)).panels if p.id == "frida")
    xp = next(st.value for st in panel.stats if st.name == "XP")
    assert xp == "55 (black peg 5, white peg in the red hole)"
