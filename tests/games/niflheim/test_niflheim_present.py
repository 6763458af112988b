"""What players read and click: action labels with the rules' costs and numbers, the board
targets of each action, and action texts that use names rather than internal ids."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.games.niflheim import GAME, campaign
from meadhall.games.niflheim.testkit import open_map, position


def described(s: Any) -> dict[str, tuple[str, list[str]]]:
    return {a.text: (a.label, [f"{t}{' ' + t.note if t.note else ''}" for t in a.targets])
            for a in s.described_actions()}


def pos(rows: list[str], heroes: dict[str, Any], ud: list[dict] | None = None,
        scenario: str = "2", **kw: Any) -> Any:
    hs = {h: {"intent": "walking", "mp": 3, **d} if i == 0 else d
          for i, (h, d) in enumerate(heroes.items())}
    p: dict[str, Any] = {"map": rows, "heroes": hs, "undead": ud or [],
                         "active": next(iter(heroes)), "items": {}, "done": ["O2"],
                         "pool": {"draugr": 2}, "coin_used": True,
                         "order": ["heroes", "undead"], "turn": 0}
    p.update(kw)
    return position(p, scenario=scenario)


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_attack_labels_give_the_numbers_needed_with_every_drm() -> None:
    """The rulebook's attack example: #1 7+/10+, #2 (hindering) 9+/12, #3 (range 6) 8+/11+."""
    rows = open_map(10, 10, {"E5": "%", "D4": "%", "D3": "%", "E7": "#", "C4": "#"})
    ud = [{"id": 1, "kind": "draugr", "at": "G5"}, {"id": 2, "kind": "draugr", "at": "D2"},
          {"id": 3, "kind": "draugr", "at": "G8"}]
    s = pos(rows, {"frida": {"at": "D5", "ready": "sling"}, "killian": {"at": "A10"}}, ud)
    d = described(s)
    assert d["attack undead 1 with sling"] == (
        "Frida attacks Draugr 1 with the sling (ranged, range 3): 7+ stuns, 10+ wounds",
        ["figure:undead1 7+/10+"])
    assert d["attack undead 2 with sling"][1] == ["figure:undead2 9+/12+"]
    assert d["attack undead 3 with sling"][1] == ["figure:undead3 8+/11+"]
    assert d["move D6"] == ("Frida moves to D6 (1 MP)", ["square:D6 1 MP"])
    assert d["move E6"] == ("Frida moves to E6 (2 MP)", ["square:E6 2 MP"])
    assert d["end activation"][0] == "Frida ends the activation and covers (-2 DRM)"


@pytest.mark.rule("niflheim", "Resolving an Attack")
def test_impossible_and_natural_one_limits_in_labels() -> None:
    """A natural 1 always misses (so at best 2+); beyond 12 nothing can be rolled."""
    ud = [{"id": 1, "kind": "draugr", "at": "C4", "stunned": True},
          {"id": 2, "kind": "troll", "at": "H3"}]
    s = pos(open_map(10, 8), {"frida": {"at": "C3", "ready": "seax", "intent": "stationary",
                                        "mp": 0}}, ud)
    d = described(s)
    # seax 4/7, +2 stationary, +3 stunned: modified 4 needs a natural 2 at least
    assert d["attack undead 1 with seax"][0].endswith("2+ stuns and wounds")
    assert d["attack undead 1 with seax"][1] == ["figure:undead1 2+"]


@pytest.mark.rule("niflheim", "Movement Actions (MA) - MP Cost")
def test_hero_action_labels_name_costs_and_use_names() -> None:
    rows = open_map(8, 8, {"D3": "+", "E4": "%"})
    s = pos(rows, {"frida": {"at": "C3", "ready": "sling", "gear": ["throwing_knives", "seax"],
                             "supplies": {"projectiles": 2, "healing_salves": 1,
                                          "holy_water": 0}},
                   "gunnar": {"at": "C4"}}, items={"B3": ["torch"]}, scenario="3")
    d = described(s)
    assert d["open door D3"] == ("Frida opens the door on D3 (1 MP)", ["square:D3 1 MP"])
    assert d["pick up B3"] == ("Frida picks up Torch from B3 (1 MP)", ["square:B3 1 MP"])
    assert d["ready throwing knives"] == (
        "Frida puts the Throwing Knives in the Ready Weapon slot (1 MP)",
        ["card:frida-throwing_knives 1 MP"])
    assert d["pass seax to gunnar"] == ("Frida passes the Seax to Gunnar (2 MP)",
                                        ["card:frida-seax 2 MP", "figure:gunnar"])
    assert d["pass a healing salve to gunnar"][0] == ("Frida passes a healing salve to Gunnar "
                                                      "(2 MP)")
    # Projectiles are never shared with huskarls; ids never appear in a text a player reads.
    assert not any("projectile" in t or "_" in t for t in d)
    # Running: doors and pick-ups cost the increased 2 MP.
    s.heroes["frida"].intent, s.heroes["frida"].mp = "running", 6
    assert described(s)["open door D3"][1] == ["square:D3 2 MP"]


@pytest.mark.rule("niflheim", "Action Phase")
def test_declaring_intent_names_mp_and_attack_modifier() -> None:
    s = pos(open_map(6, 6), {"frida": {"at": "C3", "intent": None, "mp": 0}})
    d = described(s)
    assert d["declare stationary"] == ("Frida declares stationary: 0 MP, attacks at +2",
                                       ["space:frida-stationary 0 MP"])
    assert d["declare running"] == ("Frida declares running: 6 MP, attacks at -2",
                                    ["space:frida-running 6 MP"])
    s.heroes["frida"].glory = -5
    assert described(s)["declare running"][0].startswith("Frida declares running: 5 MP")


@pytest.mark.rule("niflheim", "Coin of Fate")
def test_coin_of_fate_choice_names_the_roll_it_decides() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "intent": None, "mp": 0, "locked_by": 1}},
            [{"id": 1, "kind": "draugr", "at": "C4"}], coin_used=False)
    s.force(8)
    s.apply("declare walking")
    d = described(s)
    assert d["keep the roll"] == ("Keep the 8 of Frida's roll to break the lock (10+ breaks it)",
                                  ["option:keep-the-roll 8"])
    assert d["flip the coin of fate"][0].startswith("Flip the Coin of Fate (once per scenario)")


@pytest.mark.rule("niflheim", "Interim Stages and Interim Scenarios")
def test_interim_stage_labels_and_targets() -> None:
    f = {"at": "L7", "intent": "walking", "mp": 3, "gear": ["torch", "seax"], "health": 3,
         "xp": 5, "supplies": {"healing_salves": 1, "projectiles": 0, "holy_water": 0}}
    p: dict[str, Any] = {"scenario": "1", "heroes": {"frida": f}, "undead": [], "items": {},
                         "active": "frida", "coin_used": True, "done": ["J"],
                         "campaign": {**campaign.new_record(), "runestones": ["black"]}}
    s = GAME.from_json({"game": "niflheim", "setup": {"scenario": "1", "heroes": ["frida"],
                                                      "campaign": True}, "position": p})
    campaign.remember_start(s)
    s.apply("exit E")
    d = described(s)
    assert d["heal frida"] == ("Frida uses a healing salve: health 3 → 4",
                               ["hero:frida +1", "card:frida-healing_salves"])
    assert d["unlock preferred weapon for frida"][1] == [
        "card:frida-skill-preferred-weapon " + f"{GAME.content.skill_costs['1']} XP"]
    assert d["ready seax for frida"][0] == "Frida readies the Seax"
    assert d["end the interim stage"] == ("End the interim stage and go on",
                                          ["option:end-the-interim-stage"])


# ----------------------------------------------------------------------------- dice in events
def _die_ok(d: Any) -> bool:
    return (isinstance(d, dict) and d.get("kind") in ("d12", "coin")
            and isinstance(d.get("face"), str) and type(d.get("modifier")) is int
            and (d["kind"] == "coin" or 1 <= int(d["face"]) <= 12))


@pytest.mark.parametrize("setup", [{"scenario": "2", "heroes": ["frida", "killian"]},
                                   {"scenario": "3", "heroes": ["frida"], "huskarls": ["gunnar"]},
                                   {"scenario": "4"}, {"scenario": "5"}], ids=str)
def test_every_event_that_rolls_shows_its_dice(setup: dict[str, Any]) -> None:
    """docs/architecture.md "Dice in events": each die with its face and modifier; the
    older ``roll`` key stays where it was."""
    from meadhall.bots.random import RandomBot

    seen: set[str] = set()
    for seed in range(6):
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(300):
            if s.decision() is None:
                break
            for e in s.apply(bot.choose(s)):
                if "roll" in e.data or e.kind in ("initiative", "bow", "phial") and e.data:
                    assert e.data.get("dice") and all(_die_ok(d) for d in e.data["dice"]), e
                    seen.add(e.kind)
    assert {"initiative", "roll"} <= seen


def test_attack_dice_carry_the_drm_and_the_undead_initiative_its_minus_4() -> None:
    s = pos(open_map(8, 8), {"frida": {"at": "C3", "intent": "stationary", "mp": 0}},
            [{"id": 1, "kind": "draugr", "at": "C4"}])
    attack = next(a for a in s.legal_actions() if a.text.startswith("attack undead 1"))
    s.force(*[7] * 8)  # the attack dice, then the next round's initiative
    events = s.apply(attack)
    drm = next(e.data["drm"] for e in events if e.kind == "attack")
    rolls = [e for e in events if e.kind == "roll"]
    assert rolls and [d for e in rolls for d in e.data["dice"]] == \
        [{"kind": "d12", "face": "7", "modifier": drm}] * len(rolls)
    init = next(e for e in events if e.kind == "initiative" and "dice" in e.data)
    assert init.data["dice"] == [{"kind": "d12", "face": "7", "modifier": 0},
                                 {"kind": "d12", "face": "7", "modifier": -4}]
