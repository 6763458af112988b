"""Rule fidelity, third pass (issue 20): interim supplies, runestones on either readied weapon,
found runestones, a wounded huskarl's phial throw, deviation onto dotted-red terrain, covering
phial throws, maps without their spawn squares, and the worked examples of Adjacency and of the
sling's range modifier. Each test starts from a hand-written position."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.core.errors import ContentError
from meadhall.games.niflheim import GAME, campaign, combat
from meadhall.games.niflheim.testkit import legal, open_map, position


def camp(scenario: str, heroes: dict[str, Any], **kw: Any) -> Any:
    chars = [h for h in heroes if h in GAME.content.characters]
    p: dict[str, Any] = {"scenario": scenario, "heroes": heroes, "undead": [], "items": {},
                         "active": next(iter(heroes)), "coin_used": True,
                         "campaign": campaign.new_record()}
    p.update(kw)
    s = GAME.from_json({"game": "niflheim", "setup": {"scenario": scenario, "heroes": chars,
                                                      "campaign": True}, "position": p})
    campaign.remember_start(s)
    return s


def interim(scenario: str = "4", **heroes: Any) -> Any:
    """Scenario 4 won: Frida leaves at the exit with the prisoner rescued; the interim stage."""
    frida = {"at": "N9", "intent": "walking", "mp": 3, **heroes.pop("frida", {})}
    s = camp(scenario, {"frida": frida, **heroes}, done=["J", "O2"])
    s.apply("exit E")
    assert s.segment == "interim"
    return s


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        scenario: str = "3", **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {},
                         "done": ["O1", "O2", "O3", "J"], "pool": {"draugr": 2},
                         "coin_used": True, "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


def gives(s: Any) -> set[str]:
    """The interim stage's offers to give a supply (every offer also gets a label)."""
    assert all(a.label and a.label != a.text for a in s.described_actions())
    return {a for a in legal(s) if a.startswith("give a ")}


def labels(s: Any) -> dict[str, str]:
    return {a.text: a.label for a in s.described_actions()}


# ----------------------------------------------------------------------------- interim stage
@pytest.mark.rule("niflheim", "Interim Stages and Interim Scenarios")
@pytest.mark.rule("niflheim", "Huskarl")
def test_interim_supplies_move_between_heroes_and_a_salve_heals_the_wounded() -> None:
    """"Rearrange weapons, gear, supplies, and other items between heroes" (ruling 25): a salve
    passes to the wounded huskarl, who heals with it; projectiles never pass to or from a
    huskarl and a huskarl never holds more than 3 salves or 3 phials."""
    s = interim(frida={"supplies": {"healing_salves": 1, "projectiles": 2, "holy_water": 1}},
                gunnar={"at": "B2", "health": 1,
                        "supplies": {"healing_salves": 0, "holy_water": 3}})
    assert "heal gunnar" not in legal(s)  # he has no salve of his own
    assert gives(s) == {"give a healing salve from frida to gunnar",
                        "give a holy water phial from gunnar to frida"}
    assert labels(s)["give a healing salve from frida to gunnar"] == (
        "Frida gives a healing salve to Gunnar (0 left; Gunnar then has 1)")
    s.apply("give a healing salve from frida to gunnar")
    f, g = s.heroes["frida"], s.heroes["gunnar"]
    assert (f.supplies["healing_salves"], g.supplies["healing_salves"]) == (0, 1)
    assert "heal gunnar" in legal(s)
    s.apply("heal gunnar")
    assert g.health == 2 and g.supplies["healing_salves"] == 0
    assert gives(s) == {"give a holy water phial from gunnar to frida"}
    # Between characters, every supply passes, projectiles included.
    s = interim(frida={"supplies": {"healing_salves": 0, "projectiles": 1, "holy_water": 0}},
                killian={"at": "B2", "health": 2, "supplies": {"healing_salves": 2}})
    assert gives(s) == {"give a projectile from frida to killian",
                        "give a healing salve from killian to frida"}


@pytest.mark.rule("niflheim", "Runestones")
@pytest.mark.rule("niflheim", "Attack Action")
@pytest.mark.rule("niflheim", "Interim Stages and Interim Scenarios")
def test_runestones_on_either_readied_weapon_and_the_off_hand_readied_in_the_interim() -> None:
    """"Heroes can affix a runestone to a readied weapon"; "A weapon is readied if it is in
    either the Ready Weapon or Off Hand slot". The interim stage readies either slot."""
    s = interim(frida={"ready": "sling", "gear": ["seax", "axe"]})
    s.camp["runestones"] = ["black"]
    campaign.ask_interim(s)
    readies = {a for a in legal(s) if a.startswith("ready ")}
    assert readies == {"ready seax for frida", "ready axe for frida",
                       "ready seax and axe off hand for frida",
                       "ready axe and seax off hand for frida"}  # the sling is two-handed
    assert {a for a in legal(s) if a.startswith("inscribe")} == {
        "inscribe black runestone on frida's sling"}
    assert labels(s)["ready seax and axe off hand for frida"] == (
        "Frida readies the Seax and the Axe in the off hand")
    s.apply("ready seax for frida")
    f = s.heroes["frida"]
    assert (f.ready, f.off_hand, sorted(f.gear)) == ("seax", None, ["axe", "sling"])
    assert {a for a in legal(s) if a.startswith("ready ")} == {
        "ready axe for frida", "ready sling for frida", "ready axe off hand for frida",
        "ready axe and seax off hand for frida"}
    assert labels(s)["ready axe off hand for frida"] == "Frida readies the Axe in the off hand"
    s.apply("ready axe off hand for frida")
    assert (f.ready, f.off_hand, f.gear) == ("seax", "axe", ["sling"])
    assert {a for a in legal(s) if a.startswith("inscribe")} == {
        "inscribe black runestone on frida's seax", "inscribe black runestone on frida's axe"}
    s.apply("inscribe black runestone on frida's axe")
    assert f.runes == {"axe": "black"} and s.camp["runestones"] == []


@pytest.mark.rule("niflheim", "Runestones")
@pytest.mark.rule("niflheim", "Special Actions")
def test_a_runestone_found_in_a_search_reaches_the_campaign() -> None:
    """Scenario 4's guard room (O2) holds a black runestone: the search gives it to the party,
    and the interim stage offers to inscribe it ("only during the Interim stage")."""
    s = camp("4", {"frida": {"at": "B10", "intent": "stationary", "mp": 0, "ready": "sling"}},
             done=["J"])
    assert "search O2" in legal(s)
    events = s.apply("search O2")
    assert s.camp["runestones"] == ["black"]
    assert any("a black runestone (kept by the party" in e.text for e in events)
    assert s.heroes["frida"].runes == {}  # not affixed during the scenario
    # A retry restores the runestones of the scenario's beginning.
    assert s.camp["start"]["runestones"] == []
    # Outside a campaign the search says what it found and that no interim stage follows.
    s1 = position({"heroes": {"frida": {"at": "B10", "intent": "stationary", "mp": 0}},
                   "active": "frida", "undead": [], "coin_used": True, "done": ["J"]},
                  scenario="4")
    events = s1.apply("search O2")
    assert any("a black runestone (a single scenario has no interim stage" in e.text
               for e in events)


# ----------------------------------------------------------------------------- phials
@pytest.mark.rule("niflheim", "Huskarl")
@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_a_wounded_huskarls_phial_throw_takes_the_minus_2() -> None:
    """"Wounded huskarls receive a -2 DRM when performing an attack"; for the throw "All usual
    AMs and LOS AMs apply": range 5 needs 7+ from a wounded huskarl, and his burst rolls take
    the -2 too."""
    ud = [{"id": 1, "kind": "draugr", "at": "F6"}]
    s = pos(open_map(10, 10), {"gunnar": {"at": "A5", "health": 1,
                                          "supplies": {"holy_water": 2}},
                               "frida": {"at": "J10"}}, ud)
    assert "throw holy water at E6" in legal(s)  # range 4 + 1 = 5
    label = s.describe("throw holy water at E6").label
    assert "7+ lands on target" in label and "8+ stuns, 11+ wounds" in label
    s.force(6, 3, 10)  # 6 - 2 = 4 < 5: deviates right to F6; the burst: 10 - 2 = 8, a stun
    events = s.apply("throw holy water at E6")
    throw = next(e for e in events if e.kind == "phial")
    assert throw.data["drm"] == -2 and "deviates to F6" in throw.text
    assert "-2 wounded huskarl" in throw.text
    assert s.undead[1].stunned and s.undead[1].wounds == 0
    # Unwounded, the same 6 lands on target.
    s = pos(open_map(10, 10), {"gunnar": {"at": "A5", "supplies": {"holy_water": 2}},
                               "frida": {"at": "J10"}}, ud)
    s.force(6, 1)
    events = s.apply("throw holy water at E6")
    assert "on target" in next(e for e in events if e.kind == "phial").text


@pytest.mark.rule("niflheim", "Terrain")
@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_deviation_onto_dotted_red_obstructive_terrain_is_re_rolled() -> None:
    """"If the new target square is occupied by a wall, closed door or obstructive terrain,
    re-roll"; "Terrain with a dotted red outline blocks movement but does not hinder LOS": it
    is obstructive terrain all the same."""
    ud = [{"id": 1, "kind": "draugr", "at": "F6"}]
    s = pos(open_map(10, 10, {"E4": ":"}), {"killian": {"at": "E9",
                                                        "supplies": {"holy_water": 1}}}, ud)
    s.force(2, 1, 3, 1)  # miss; up onto E4 (dotted red): re-rolled; right: F5; burst misses
    events = s.apply("throw holy water at E5")
    throw = next(e for e in events if e.kind == "phial")
    assert "deviates to F5" in throw.text and len(throw.data["dice"]) == 3
    s.force(1, 3)
    assert combat.deviate(s, (4, 4)) == ((5, 4), [1, 3])
    # The walls, closed doors and locked doors the engine already re-rolled, and nothing else.
    for ch, again in (("#", True), ("+", True), ("L", True), (":", True), ("%", False),
                      ("/", False), ("^", False)):
        s = pos(open_map(10, 10, {"E4": ch}), {"killian": {"at": "E9"}}, ud)
        s.force(1, 3)
        assert combat.deviate(s, (4, 4)) == (((5, 4), [1, 3]) if again else ((4, 3), [1]))


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_a_covering_hero_may_interrupt_with_a_phial_throw() -> None:
    """A figure that does not use its attack is covering and may use "its attack action later":
    any attack she could have made, a phial throw included, at her Cover marker's AM."""
    ud = [{"id": 1, "kind": "draugr", "at": "E2"}]
    s = pos(open_map(10, 10), {"killian": {"at": "C6", "supplies": {"holy_water": 1}}}, ud)
    s.apply("end activation")
    assert s.heroes["killian"].marker == "cover walking"
    d = s.decision()
    assert d.section == "Covering" and d.default == "no cover attack"
    # No weapon reaches the draugr; every square whose burst reaches it does (range 4 to 8).
    assert all(a.label != a.text for a in s.described_actions())
    assert legal(s) == ["no cover attack"] + [
        f"cover: killian throw holy water at {q}"
        for q in ("D1", "E1", "F1", "D2", "E2", "F2", "D3", "E3", "F3")]
    label = s.describe("cover: killian throw holy water at E2").label
    assert "8+ lands on target" in label  # range 6 with the walking Cover marker's -2
    s.force(8, 11)  # 8 - 2 = 6: on target; the burst: 11 - 2 = 9, a wound (6/9)
    events = s.apply("cover: killian throw holy water at E2")
    assert any("interrupts with a covering attack" in e.text for e in events)
    assert "-2 walking Cover marker (AM)" in next(e for e in events if e.kind == "phial").text
    assert 1 not in s.undead and s.heroes["killian"].marker == "attacked"
    assert s.heroes["killian"].supplies["holy_water"] == 0


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_a_covering_throw_offers_the_coin_of_fate_on_each_roll() -> None:
    """"Once per scenario, you may flip the Coin of Fate if you are not satisfied with the
    outcome of any die roll": the covering throw's two rolls are each offered, and kept."""
    ud = [{"id": 1, "kind": "draugr", "at": "E2"}]
    s = pos(open_map(10, 10), {"killian": {"at": "C6", "supplies": {"holy_water": 1}}}, ud,
            coin_used=False)
    s.apply("end activation")
    s.force(8, 11)
    s.apply("cover: killian throw holy water at E2")
    assert s.decision().section == "Coin of Fate" and "phial throw" in s.decision().prompt
    s.apply("keep the roll")
    assert s.decision().section == "Coin of Fate" and "holy water against" in s.decision().prompt
    s.apply("keep the roll")
    assert 1 not in s.undead and s.heroes["killian"].supplies["holy_water"] == 0


@pytest.mark.rule("niflheim", "Attack Modifiers (AM)")
@pytest.mark.rule("niflheim", "Phial Weapon Attacks (Area of Effect Weapons)")
def test_covering_throws_among_the_active_heros_actions() -> None:
    """During the hero turn the covering heroes of the active hero's seat have their attacks,
    phial throws included, among its actions (ruling 10)."""
    ud = [{"id": 1, "kind": "draugr", "at": "E2"}]
    s = pos(open_map(10, 10), {"frida": {"at": "J10"},
                               "killian": {"at": "C6", "supplies": {"holy_water": 1},
                                           "intent": "walking", "marker": "cover walking",
                                           "activated": True}}, ud)
    covers = [a for a in legal(s) if a.startswith("cover: ")]
    assert covers == [f"cover: killian throw holy water at {q}"
                      for q in ("D1", "E1", "F1", "D2", "E2", "F2", "D3", "E3", "F3")]


# ----------------------------------------------------------------------------- locks
@pytest.mark.rule("niflheim", "Attack Action")
@pytest.mark.rule("niflheim", "Undead")
def test_breaking_a_lock_with_the_better_of_two_readied_weapons() -> None:
    """"use the H2H value of their readied weapon": either slot holds a readied weapon; the one
    needing the lower roll is used, the off hand with its -2 (ruling 17)."""
    ud = [{"id": 1, "kind": "draugr", "at": "C4"}]
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "intent": None, "mp": 0, "ready": "shield",
                                       "off_hand": "seax", "locked_by": 1}}, ud)
    s.force(5)  # seax 4 in the off hand: 5 + 1 (shield) - 2 (off hand) = 4; shield 8 fails
    events = s.apply("declare walking")
    assert s.heroes["frida"].locked_by is None
    assert any("breaks the lock" in e.text for e in events)


# ----------------------------------------------------------------------------- spawning
@pytest.mark.rule("niflheim", "Spawning")
def test_a_map_without_the_scenarios_spawn_square_is_refused() -> None:
    """"draw an undead marker ... and place it face-down on each matching spawn location on the
    map": a hand-drawn map lacking the S square is refused at load instead of moving the
    spawn in silence; it may name its own spawn squares."""
    p: dict[str, Any] = {"map": open_map(6, 6), "active": "frida", "undead": [],
                         "heroes": {"frida": {"at": "A1", "intent": "walking", "mp": 3}},
                         "pool": {"draugr": 1}, "coin_used": True}
    setup = {"scenario": "2", "heroes": ["frida"]}
    with pytest.raises(ContentError) as e:
        GAME.from_json({"game": "niflheim", "setup": setup, "position": p})
    assert e.value.field == "position.map" and "spawn location S" in e.value.reason
    with pytest.raises(ContentError) as e:
        GAME.from_json({"game": "niflheim", "setup": setup,
                        "position": {**p, "spawn": {"S": ["G9"]}}})
    assert e.value.field == "position.spawn" and "off the 6x6 map" in e.value.reason
    with pytest.raises(ContentError) as e:
        GAME.from_json({"game": "niflheim", "setup": setup,
                        "position": {**p, "spawn": {"X": ["F6"]}}})
    assert "'S'" in e.value.reason
    s = GAME.from_json({"game": "niflheim", "setup": setup,
                        "position": {**p, "spawn": {"S": ["F6"]}}})
    assert s.spawns() == {"S": ["F6"]}
    back = GAME.from_json(s.to_json())
    assert back == s and back.spawns() == {"S": ["F6"]}
    # The scenario's own map keeps its spawn squares, and its saves do not carry them.
    s = GAME.new_game(setup, 0)
    assert "spawn" not in s.to_json()["position"]


# ----------------------------------------------------------------------------- examples
@pytest.mark.rule("niflheim", "Adjacency")
def test_adjacency_example_the_four_orthogonal_squares() -> None:
    """"a draugr is adjacent to a hero if it is in one of the four squares to the immediate
    left, right, in front of, or behind the hero": from each of the four it attacks and locks
    her without moving; from a diagonal square it is not adjacent, and moves next to her."""
    for q in ("D3", "F3", "E2", "E4"):
        s = pos(open_map(9, 9), {"frida": {"at": "E3"}},
                [{"id": 1, "kind": "draugr", "at": q}], scenario="2")
        s.apply("end activation")
        # Her unarmed covering attack reaches only an adjacent undead.
        assert legal(s) == ["no cover attack", "cover: frida attack undead 1 unarmed"], q
        s.apply("no cover attack")
        assert s.heroes["frida"].locked_by == 1 and s.undead[1].at == grid.sq(q), q
    for q, squares in (("D2", {"D3", "E2"}), ("F2", {"F3", "E2"}), ("D4", {"D3", "E4"}),
                       ("F4", {"F3", "E4"})):
        s = pos(open_map(9, 9), {"frida": {"at": "E3"}},
                [{"id": 1, "kind": "draugr", "at": q}], scenario="2")
        s.apply("end activation")  # no covering attack reaches a diagonal undead
        assert s.decision().section == "Movement - Undead"
        assert set(legal(s)) == {f"undead 1 to {x}" for x in squares}, q
        assert s.heroes["frida"].locked_by is None


SLING = {2: 0, 3: 0, 4: 0, 5: -1, 6: -1, 7: -1, 8: -2, 9: -2, 10: -2, 11: -3, 12: -3, 13: -3}
"""Range Modifier (RM): the sling (PBR 4, RM 3) "at range 5-7, the DRM would be -1; at range
8-11, the DRM would be -2": 4 + 3 + 3 = 10, so 11 takes a third RM (ruling 4)."""


def sling_at(rng: int) -> Any:
    return pos(open_map(14, 10), {"frida": {"at": "A1", "ready": "sling"},
                                  "killian": {"at": "A10"}},
               [{"id": 1, "kind": "draugr", "at": grid.name((rng, 0))}], scenario="2",
               done=["O2"])


@pytest.mark.rule("niflheim", "Die Roll Modifiers (DRM)")
@pytest.mark.rule("niflheim", "Another Look at Range Modifiers")
@pytest.mark.parametrize("rng", sorted(SLING))
def test_sling_range_modifier_example_through_real_attacks(rng: int) -> None:
    """The sling's R-S/W 7/10 at each range of the example and beyond: the label, the DRM the
    attack reports, and every natural roll's result (a natural 1 always misses)."""
    drm = SLING[rng]
    stun, wound = combat.needed(7, drm), combat.needed(10, drm)
    label = sling_at(rng).describe("attack undead 1 with sling").label
    assert f"range {rng}" in label
    assert label.endswith(f"{stun}+ stuns, {wound}+ wounds" if wound else f"{stun}+ stuns")
    for roll in range(1, 13):
        s = sling_at(rng)
        s.force(roll)
        events = s.apply("attack undead 1 with sling")
        attack = next(e for e in events if e.kind == "attack")
        assert attack.data["drm"] == drm
        if drm:
            assert f"{drm:+d} range {rng} beyond PBR 4 (RM 3)" in attack.text
        if roll != 1 and roll + drm >= 10:
            assert 1 not in s.undead, roll
        else:
            assert s.undead[1].stunned == (roll != 1 and roll + drm >= 7), roll
