"""Skills in play (authored effects: the Tome of Knowledge is not printed), the Blade Flurry
worked example, and Greek fire phials."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.games.niflheim import campaign, combat
from meadhall.games.niflheim.game import GAME
from meadhall.games.niflheim.testkit import legal, open_map, position

MAP = open_map(10, 10)


def pos(heroes: dict[str, Any], ud: list[dict] | None = None, scenario: str = "3",
        **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": MAP, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {},
                         "done": ["O1", "O2", "O3", "J"], "pool": {"draugr": 2},
                         "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


DRAUGR = [{"id": 1, "kind": "draugr", "at": "D4"}]


def test_every_unlockable_skill_has_an_authored_effect() -> None:
    c = GAME.content
    names = [n for ch in c.characters.values() for v in ch.skills.values() for n in v]
    for n in [*names, *c.huskarl_skills]:
        assert c.skills[n].authored and c.skills[n].text
    assert c.skills["Blade Flurry"].glory == 2  # printed: "Blade Flurry / 2"


@pytest.mark.rule("niflheim", "Glory Cost of Skills Example")
def test_blade_flurry_example_in_play() -> None:
    """Frida has 1 Glory; each use of Blade Flurry / 2 costs 2: Corruption 1, then 3, then 5
    (-1 MP); the skill is offered only while the cost can be covered (at most 10 Corruption)."""
    s = pos({"frida": {"at": "D5", "ready": "seax", "glory": 1,
                       "skills": ["Preferred Weapon", "Keen Edge", "Blade Flurry"]}}, DRAUGR)
    f = s.heroes["frida"]
    flurry = "attack undead 1 with seax using blade flurry"
    attacks = {a for a in legal(s) if a.startswith("attack")}
    assert attacks == {"attack undead 1 with seax", flurry}
    seen = []
    for want in (1, 3, 5):
        s.force(1, 1)  # two attack dice (1 AD + 1 for the flurry), both natural 1s
        ev = s.apply(flurry)
        seen.append(f.corruption)
        assert sum(1 for e in ev if e.kind == "roll") == 2
        assert any(e.kind == "skill" and e.section == "Glory Cost of Skills Example" for e in ev)
        assert f.corruption == want
        f.marker, f.intent = None, "walking"  # a fresh activation for the next use
    assert seen == [1, 3, 5]
    f.intent = None
    s.apply("declare running")
    assert f.mp == 5  # 5 Corruption: -1 MP
    f.glory = -9
    f.marker = None
    assert flurry not in legal(s)  # 11 Corruption is over the maximum of 10
    with pytest.raises(IllegalAction):
        campaign.spend_glory(f, 2)


@pytest.mark.rule("niflheim", "Glory Cost of Skills Example")
def test_used_skills_need_the_fate_track() -> None:
    """Ruling: a skill with a Glory cost is used only while the Fate track is in use
    (from scenarios 3 and 4 on)."""
    s = pos({"frida": {"at": "D5", "ready": "seax", "skills": ["Blade Flurry"]}}, DRAUGR,
            scenario="2", done=["O2"])
    assert not [a for a in legal(s) if "using" in a]


@pytest.mark.rule("niflheim", "Die Roll Modifiers (DRM)")
def test_passive_skill_drms() -> None:
    s = pos({"frida": {"at": "D5", "ready": "seax", "skills": ["Keen Edge"]}}, DRAUGR)
    h = s.heroes["frida"]
    p = next(p for p in combat.plans(s, h) if p.undead == 1)
    assert (1, "skill Keen Edge") in combat.modifiers(s, h, s.undead[1], p, None)
    s = pos({"frida": {"at": "D8", "ready": "sling", "skills": ["Preferred Weapon", "Keen Edge"]}},
            DRAUGR)
    h = s.heroes["frida"]
    p = next(p for p in combat.plans(s, h) if p.undead == 1)
    m = combat.modifiers(s, h, s.undead[1], p, None)
    assert (1, "skill Preferred Weapon") in m and (1, "preferred weapon") not in m
    assert (1, "skill Keen Edge") not in m  # ranged: Keen Edge is H2H only


@pytest.mark.rule("niflheim", "Die Roll Modifiers (DRM)")
def test_boost_skill_adds_its_drm_and_costs_glory() -> None:
    s = pos({"killian": {"at": "D5", "ready": "axe", "glory": 3, "skills": ["Smite"]}}, DRAUGR)
    h = s.heroes["killian"]
    p = next(p for p in combat.plans(s, h) if p.skill == "Smite")
    assert (2, "skill Smite") in combat.modifiers(s, h, s.undead[1], p, None)
    s.force(3)
    s.apply(p.text)
    assert h.glory == 2


@pytest.mark.rule("niflheim", "Unlocking Huskarl Skills")
def test_huskarl_shield_wall_and_toughened() -> None:
    """Shield Wall (authored): adjacent heroes count as carrying a shield: +1 to break a lock;
    Toughened (authored): +1 to break a lock."""
    s = pos({"frida": {"at": "D5", "ready": "seax", "intent": None, "mp": 0, "locked_by": 1},
             "shield_maiden": {"at": "C5", "skills": ["Shield Wall"], "ready": "spear"}},
            [{"id": 1, "kind": "draugr", "at": "D4"}])
    s.force(4)  # 4 + 2 (stationary) + 1 (Shield Wall) = 7
    ev = s.apply("declare stationary")
    assert any(e.kind == "unlock" and "modified 7" in e.text for e in ev)
    s = pos({"gunnar": {"at": "D5", "ready": "axe", "intent": None, "mp": 0, "locked_by": 1,
                        "skills": ["Toughened"]}, "frida": {"at": "J10"}}, [{"id": 1, "kind": "draugr", "at": "D4"}])
    s.force(2)
    ev = s.apply("declare stationary")
    assert any("modified 5" in e.text for e in ev)  # 2 + 2 stationary + 1 Toughened


@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_greek_fire_is_thrown_used_up_and_burns_heroes_too() -> None:
    """A Greek Fire Phial (authored values) can be thrown like holy water; it is used up and,
    unlike holy water, its burst also attacks heroes."""
    s = pos({"frida": {"at": "D8", "gear": ["greek_fire"]}, "killian": {"at": "E5"}},
            [{"id": 1, "kind": "draugr", "at": "D4"}])
    assert "throw greek fire at D5" in legal(s)
    assert not [a for a in legal(s) if a.startswith("throw holy water")]
    s.force(12, 12, 12)  # on target; the draugr; Killian
    ev = s.apply("throw greek fire at D5")
    f, k = s.heroes["frida"], s.heroes["killian"]
    assert not f.carries("greek_fire")
    assert 1 not in s.undead or s.undead[1].wounds == 1
    assert k.health == k.max_health - 1
    assert all(e.section for e in ev)


@pytest.mark.rule("niflheim", "Co-op Play")
def test_coop_each_player_controls_their_character() -> None:
    """Each player selects one character; decisions carry the controlling player's seat; a hero
    found later (here a huskarl) is assigned by the players, with a default."""
    from meadhall.core.errors import ContentError

    setup = {"scenario": "3", "heroes": ["frida", "killian"], "huskarls": ["gunnar"],
             "players": {"ann": ["frida"], "bo": ["killian"]}}
    s = GAME.new_game(setup, seed=1, auto_choices=False)
    seen = set()
    for _ in range(60):
        d = s.decision()
        if d is None or s.outcome().over:
            break
        if d.prompt.startswith("Who controls Gunnar"):
            assert d.seat == "players" and d.section == "Co-op Play"
            assert {a.text for a in s.legal_actions()} == {"ann controls gunnar",
                                                           "bo controls gunnar"}
            assert d.default == "ann controls gunnar"
            s.apply("bo controls gunnar")
            continue
        if d.kind != "choice":
            h = s.active
            seen.add((h, d.seat))
        s.apply(d.default if d.default else s.legal_actions()[-1].text)
    assert ("frida", "ann") in seen and ("killian", "bo") in seen and ("gunnar", "bo") in seen
    t = GAME.from_json(s.to_json())
    assert t.control == s.control
    with pytest.raises(ContentError):
        GAME.new_game({**setup, "players": {"ann": ["frida", "killian"]}}, seed=1)


@pytest.mark.rule("niflheim", "Huskarl")
def test_wounded_huskarl_phial_burst_attacks_take_minus_2() -> None:
    """"Wounded huskarls receive a -2 DRM when performing an attack": phial bursts too."""
    s = pos({"gunnar": {"at": "D8", "health": 1, "supplies": {"holy_water": 1}},
             "frida": {"at": "J10"}}, [{"id": 1, "kind": "draugr", "at": "D4"}])
    s.force(12, 8)  # on target; 8 + 0 (walking) - 2 (wounded) = 6: a stun, not a wound (9)
    ev = s.apply("throw holy water at D5")
    assert any("modified 6" in e.text and "stun" in e.text for e in ev)
    assert s.undead[1].stunned and s.undead[1].wounds == 0
