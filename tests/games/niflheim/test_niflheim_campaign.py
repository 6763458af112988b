"""The campaign: interim stages, retrying lost scenarios, party limits, new character, skills,
glory, runestones, lost memory motes."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import grid
from meadhall.core.errors import IllegalAction
from meadhall.games.niflheim import GAME, campaign
from meadhall.games.niflheim.testkit import legal


def camp(scenario: str, heroes: dict[str, Any], record: dict | None = None,
         **kw: Any) -> Any:
    chars = [h for h in heroes if h in GAME.content.characters]
    p: dict[str, Any] = {"scenario": scenario, "heroes": heroes, "undead": [], "items": {},
                         "active": next(iter(heroes)), "coin_used": True,
                         "campaign": {**campaign.new_record(), **(record or {})}}
    p.update(kw)
    s = GAME.from_json({"game": "niflheim", "setup": {"scenario": scenario, "heroes": chars,
                                                      "campaign": True}, "position": p})
    campaign.remember_start(s)
    return s


def act(s: Any, action: str) -> None:
    """Apply an action and keep every roll the Coin of Fate is offered for."""
    s.apply(action)
    while s.decision() is not None and s.decision().section == "Coin of Fate":
        s.apply("keep the roll")


def win_scenario_1(**frida: Any) -> Any:
    f = {"at": "L7", "intent": "walking", "mp": 3, "gear": ["torch"], **frida}
    s = camp("1", {"frida": f}, done=["J"])
    s.apply("exit E")
    return s


@pytest.mark.rule("niflheim", "Interim Stages and Interim Scenarios")
def test_scenario_won_leads_to_interim_stage_then_next_scenario() -> None:
    s = win_scenario_1(health=3, supplies={"healing_salves": 2, "projectiles": 0,
                                           "holy_water": 0})
    assert not s.outcome().over and s.segment == "interim"
    assert s.camp["played"] == ["1"]
    assert s.decision().default == "end the interim stage"
    assert "heal frida" in legal(s)
    s.apply("heal frida")
    assert s.heroes["frida"].health == 4 and "heal frida" not in legal(s)  # once per stage
    act(s, "end the interim stage")
    assert s.scenario_id == "2" and s.heroes["frida"].at == grid.sq("B2")
    assert s.heroes["frida"].gear == ["torch"] and s.heroes["frida"].xp == 1


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_lost_scenario_retried_from_its_beginning() -> None:
    s = camp("2", {"frida": {"at": "C3", "intent": "walking", "mp": 3, "health": 1,
                             "locked_by": 1, "xp": 4}},
             undead=[{"id": 1, "kind": "draugr", "at": "C4"}], done=["O2"])
    s.camp["start"]["heroes"]["frida"]["health"] = 4
    s.camp["start"]["heroes"]["frida"]["xp"] = 2
    s.apply("end activation")
    assert s.decision().section == "Losing a Scenario"
    assert legal(s) == ["retry the scenario", "give up the campaign"]
    act(s, "retry the scenario")
    f = s.heroes["frida"]
    assert (f.health, f.xp, f.status) == (4, 2, "active") and s.round == 1
    assert s.items[grid.sq("E4")] == ["sling", "seax"]
    s2 = camp("2", {"frida": {"at": "C3", "intent": "walking", "mp": 3, "health": 1,
                              "locked_by": 1}},
              undead=[{"id": 1, "kind": "draugr", "at": "C4"}])
    s2.apply("end activation")
    s2.apply("give up the campaign")
    assert s2.outcome().result == "loss"


@pytest.mark.rule("niflheim", "Party Control Sheet")
@pytest.mark.rule("niflheim", "Party Control Sheet (PCS)")
def test_pcs_records_scenarios_and_fallen_heroes() -> None:
    s = camp("3", {"frida": {"at": "N10", "intent": "walking", "mp": 3},
                   "gunnar": {"at": None, "status": "dead", "health": 0}}, done=["O1", "O2"])
    s.apply("exit E")
    assert s.camp["played"] == ["3"] and "gunnar" not in s.heroes
    assert s.camp["notes"] == ["Gunnar fell in scenario 3: Salvage"]
    assert "Party Control Sheet" in s.render()


@pytest.mark.rule("niflheim", "Your Party")
@pytest.mark.rule("niflheim", "Huskarl")
def test_party_limits_extras_leave() -> None:
    s = camp("4", {"frida": {"at": "N9", "intent": "walking", "mp": 3},
                   "gunnar": {"at": "B2"}, "archer": {"at": "C2"},
                   "shield_maiden": {"at": "D2"}}, done=["J", "O2"])
    s.apply("exit E")
    assert {h for h in s.heroes} == {"frida", "gunnar", "archer", "shield_maiden"}
    assert campaign.HUSKARL_LIMIT == 4 and campaign.CHARACTER_LIMIT == 4


@pytest.mark.rule("niflheim", "Scenario Forces")
@pytest.mark.rule("niflheim", "Game Structure")
def test_choice_of_next_scenario_after_2_and_interim_scenario_after_3() -> None:
    s = camp("2", {"frida": {"at": "N8", "intent": "walking", "mp": 3, "ready": "sling"}},
             done=["O2"])
    s.apply("exit E")
    act(s, "end the interim stage")
    assert legal(s) == ["play scenario 3", "play scenario 4"]
    act(s, "play scenario 4")
    assert s.scenario_id == "4"
    s = camp("3", {"frida": {"at": "N10", "intent": "walking", "mp": 3}}, done=["O1"])
    s.apply("exit E")
    act(s, "end the interim stage")
    assert s.scenario_id == "33"


@pytest.mark.rule("niflheim", "New Character")
def test_new_character_joins_scenario_5_with_highest_xp() -> None:
    s = camp("33", {"frida": {"at": "L6", "intent": "walking", "mp": 3, "xp": 7}},
             done=["O1"])
    s.apply("exit E")
    assert s.camp["interim_counts"] == {"33": 1}
    act(s, "end the interim stage")
    act(s, "play scenario 5")
    assert s.decision().section == "New Rules for Scenario 5: Shield Brother"
    assert set(legal(s)) == {"recruit killian", "recruit ragnhild", "recruit ulf"}
    act(s, "recruit killian")
    assert s.heroes["killian"].xp == 8 == s.heroes["frida"].xp  # 7 + 1 for completing 33
    assert s.scenario_id == "5" and s.heroes["killian"].on_map


@pytest.mark.rule("niflheim", "Go Forth Warrior")
def test_campaign_complete_after_scenario_5() -> None:
    s = camp("5", {"frida": {"at": "N8", "intent": "walking", "mp": 3},
                   "killian": {"at": "B2"}}, done=["O2"])
    s.apply("exit E")
    act(s, "end the interim stage")
    assert s.outcome().result == "win" and "campaign is complete" in s.outcome().reason


@pytest.mark.rule("niflheim", "Interim Stages and Interim Scenarios")
def test_rearrange_gear_and_inscribe_runestones() -> None:
    s = win_scenario_1()
    s.heroes["frida"].ready = "seax"
    s.camp["runestones"] = ["white"]
    campaign.ask_interim(s)
    assert "inscribe white runestone on frida's seax" in legal(s)
    s.apply("inscribe white runestone on frida's seax")
    assert s.heroes["frida"].runes == {"seax": "white"} and not s.camp["runestones"]


@pytest.mark.rule("niflheim", "Unlocking Huskarl Skills")
def test_skills_need_xp_and_the_preceding_level_huskarls_two() -> None:
    s = win_scenario_1(xp=11)
    assert "unlock preferred weapon for frida" in legal(s)
    assert "unlock keen edge for frida" not in legal(s)
    s.apply("unlock preferred weapon for frida")
    s.apply("unlock keen edge for frida")
    assert s.heroes["frida"].xp == 6 and "unlock blade flurry for frida" in legal(s)
    s.apply("unlock blade flurry for frida")
    assert s.heroes["frida"].xp == 0
    s = camp("4", {"frida": {"at": "N9", "intent": "walking", "mp": 3},
                   "gunnar": {"at": "B2", "xp": 10}}, done=["J", "O2"])
    s.apply("exit E")
    opts = [a for a in legal(s) if a.endswith("for gunnar")]
    assert len(opts) == 4  # the authored huskarl skills, Preferred Weapon among them
    s.apply(opts[0])
    s.apply([a for a in legal(s) if a.endswith("for gunnar")][0])
    assert not [a for a in legal(s) if a.endswith("for gunnar")]  # at most 2


@pytest.mark.rule("niflheim", "Glory Cost of Skills Example")
def test_blade_flurry_glory_example() -> None:
    """Frida has 1 Glory; Blade Flurry / 2: Corruption 1, then 3, then 5 (-1 MP)."""
    s = camp("2", {"frida": {"at": "C3", "glory": 1, "intent": None}, "killian": {"at": "B2"}})
    f = s.heroes["frida"]
    cost = GAME.content.skills["Blade Flurry"].glory
    campaign.spend_glory(f, cost)
    assert f.corruption == 1
    campaign.spend_glory(f, cost)
    assert f.corruption == 3
    campaign.spend_glory(f, cost)
    assert f.corruption == 5
    s.apply("declare running")
    assert f.mp == 5
    f.glory = -9
    with pytest.raises(IllegalAction):
        campaign.spend_glory(f, cost)  # at most 10 Corruption


@pytest.mark.rule("niflheim", "Additional Rules")
def test_glory_lost_when_a_huskarl_dies() -> None:
    s = camp("3", {"frida": {"at": "C3", "intent": "walking", "mp": 3, "glory": 2},
                   "gunnar": {"at": "B4", "health": 1, "locked_by": 1, "activated": True}},
             undead=[{"id": 1, "kind": "draugr", "at": "B5"}], pool={"draugr": 0})
    s.force(12, 1)
    s.apply("end activation")
    assert s.heroes["gunnar"].status == "dead" and s.heroes["frida"].glory == -1


@pytest.mark.rule("niflheim", "Lost Memory Motes")
def test_lost_memory_mote_drawn_recorded_and_reshuffled() -> None:
    s = win_scenario_1()
    events: list = []
    s.force(3)
    assert campaign.draw_mote(s, s.heroes["frida"], events) == 3
    assert s.camp["motes"] == [3] and "skald" in events[0].text
    s.camp["motes"] = list(range(1, 61))
    campaign.draw_mote(s, s.heroes["frida"], events)
    assert len(s.camp["motes"]) == 1  # all found: shuffled back into the pool


@pytest.mark.rule("niflheim", "Weapons and Gear")
def test_zero_space_and_small_keywords() -> None:
    arm = GAME.content.armoury
    assert arm["torch"].small and arm["holy_water"].small
    assert (arm["sling"].ad, arm["sling"].r, arm["sling"].h2h, arm["sling"].pbr,
            arm["sling"].rm) == (1, (7, 10), (9, 11), 4, 3)
    assert (arm["throwing_knives"].r, arm["throwing_knives"].pbr,
            arm["throwing_knives"].rm) == ((8, 10), 4, 2)
    assert arm["holy_water"].aoe == (6, 9) and arm["seax"].h2h == (4, 7)


def test_campaign_saves_and_resumes_between_scenarios() -> None:
    s = win_scenario_1()
    back = GAME.from_json(s.to_json())
    assert back == s and back.segment == "interim"
    act(back, "end the interim stage")
    assert back.scenario_id == "2"
    again = GAME.from_json(back.to_json())
    assert again == back


@pytest.mark.parametrize("seed", range(3))
def test_random_play_through_interim_keeps_protocol_promises(seed: int) -> None:
    """From a won scenario 1, random actions through the interim stage and scenario 2 keep
    every promise of the generic conformance check."""
    from meadhall.bots.random import RandomBot
    from meadhall.testing import check_step

    s = win_scenario_1(health=3, xp=5, supplies={"healing_salves": 1, "projectiles": 0,
                                                 "holy_water": 0})
    s.camp["runestones"] = ["blue"]
    bot = RandomBot(seed)
    for step in range(150):
        if step % 5 == 0:
            check_step(GAME, s, seed, step)
        if s.decision() is None:
            break
        s.apply(bot.choose(s))
    assert s.camp["played"][0] == "1"


@pytest.mark.rule("niflheim", "Additional Rules")
def test_only_heroes_present_gain_completion_xp_and_glory() -> None:
    s = camp("2", {"frida": {"at": "N8", "intent": "walking", "mp": 3, "ready": "sling"},
                   "gunnar": {"status": "reserve", "at": None}}, done=["O2"])
    s.apply("exit E")
    assert s.heroes["frida"].xp == 2 and s.heroes["gunnar"].xp == 0


@pytest.mark.rule("niflheim", "Interim Scenarios")
def test_optional_interim_scenario_then_back_to_the_campaign() -> None:
    s = camp("33", {"frida": {"at": "L6", "intent": "walking", "mp": 3}}, done=["O1"],
             record={"resume": None})
    s.apply("exit E")
    act(s, "end the interim stage")
    assert legal(s) == ["play scenario 5", "play scenario 33"]
    act(s, "play scenario 33")  # once more, optionally
    assert s.scenario_id == "33" and s.camp["resume"] == ["5"]
    s = camp("33", {"frida": {"at": "L6", "intent": "walking", "mp": 3}}, done=["O1"],
             record={"resume": ["5"]})
    s.apply("exit E")
    act(s, "end the interim stage")
    act(s, "recruit ulf")
    assert s.scenario_id == "5"
    # After scenario 4 the interim scenario is the instructed next one: no extra choice.
    s = camp("4", {"frida": {"at": "N9", "intent": "walking", "mp": 3}}, done=["J", "O2"])
    s.apply("exit E")
    act(s, "end the interim stage")
    assert s.scenario_id == "33"


@pytest.mark.rule("niflheim", "Losing a Scenario")
def test_retry_default_gives_up_after_three_retries() -> None:
    s = GAME.new_game({"scenario": "1", "heroes": ["frida"], "campaign": True}, seed=0,
                      auto_choices=True)
    from meadhall.bots.random import RandomBot
    bot = RandomBot(5)
    for _ in range(5000):
        if s.decision() is None:
            break
        s.apply(bot.choose(s))
    assert s.outcome().result == "loss" and s.camp["retries"] == {"1": 3}


@pytest.mark.rule("niflheim", "Glory Cost of Skills Example")
def test_corruption_never_passes_10_when_a_huskarl_dies() -> None:
    """"You can have a maximum of 10 Corruption": Glory lost for a huskarl's death stops there."""
    s = camp("3", {"frida": {"at": "C3", "intent": "walking", "mp": 3, "glory": -9},
                   "gunnar": {"at": "B4", "health": 1, "locked_by": 1, "activated": True}},
             undead=[{"id": 1, "kind": "draugr", "at": "B5"}], pool={"draugr": 0})
    s.force(12, 1)
    s.apply("end activation")
    assert s.heroes["gunnar"].status == "dead" and s.heroes["frida"].corruption == 10
