"""Other Rules, the Ironborn Phase, winning and losing, and the two scenarios' setups."""

from __future__ import annotations

import pytest
from bf_helpers import GAME, board_only, fresh, legal, pass_turn, restart_turn, settle, texts

G = "battleforge"
NO_DEFENSE = [[], ["c"], [], ["c"], [], ["c"]]


def run_tasks(s, tasks: list[dict]) -> list:
    s.tasks = [*tasks, {"t": "turn"}] if s.phase == "champions" else list(tasks)
    s.ask = None
    ev: list = []
    s.run(ev)
    return ev


@pytest.mark.rule(G, "Knocked Out")
def test_first_knockout_flips_marker_and_advances_twilight_second_loses() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "t"], [], [], [], [], ["f"]]})
    s.reserve_temp, s.reserve_frost = 3, 3
    s.champs["ragnar"].health = 2
    ev = run_tasks(s, [{"t": "lose", "c": "ragnar", "n": 3, "src": "test"}])
    r = s.champs["ragnar"]
    assert not s.marker_red and s.twilight == 1 and r.health == 12
    assert r.rondel[0] == ["c"] and r.rondel[5] == []  # conditions removed
    assert (s.reserve_temp, s.reserve_frost) == (4, 4)
    assert s.ask["h"] == "relocate" and "done relocating" in legal(s)  # free Relocate
    s.apply("done relocating")
    assert s.ask["h"] == "turn" and s.current() == "lagertha"  # Ragnar's turn ended
    assert "Knocked Out" in texts(ev)
    s.champs["lagertha"].health = 1
    run_tasks(s, [{"t": "lose", "c": "lagertha", "n": 1, "src": "test"}])
    assert s.outcome().result == "loss" and "second time" in s.outcome().reason


@pytest.mark.rule(G, "Dramatic Victory")
@pytest.mark.rule(G, "Winning and Losing")
def test_dramatic_victory_the_last_face_wins_despite_the_counterattack() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"] * 4, [], [], [], [], []]})
    s.marker_red = False  # a knockout would lose
    r = s.champs["ragnar"]
    r.health = 1
    r.area = "D3"
    s.thor.update(area="D2", activated=True, destroyed=["orange", "yellow", "green", "blue",
                                                        "purple"])
    s.set_face("red", 3)
    s.thor["damage"]["red"] = 3
    restart_turn(s)
    s.apply("melee space 1 at Thor's red face")
    s.force("counter", "double", "double", "double")
    settle(s)  # 6 Damage - 5 (Thor's Passive) destroys the last Face; the Counterattack is moot
    assert s.outcome().result == "win"


@pytest.mark.rule(G, "1. Advancing in Time")
@pytest.mark.rule(G, "Defeat Conditions")
def test_twilight_reaching_the_last_space_loses() -> None:
    s = fresh()
    s.twilight = len(GAME.content.round_track) - 2  # end of round 12
    s.phase = "ironborn"
    run_tasks(s, [{"t": "advance"}])
    assert s.outcome().result == "loss" and "Twilight" in s.outcome().reason


@pytest.mark.rule(G, "Stunned")
def test_stun_sets_two_cubes_aside_until_the_turn_passes_and_does_not_stack() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], ["c"], [], [], [], []]})
    run_tasks(s, [{"t": "stun", "c": "ragnar"}])
    assert s.ask["h"] == "stun_take"
    settle(s)
    r = s.champs["ragnar"]
    assert r.stunned and len(r.centre) == 2 and sum(map(len, r.rondel)) == 1
    ev = run_tasks(s, [{"t": "stun", "c": "ragnar"}])
    assert "already Stunned" in texts(ev) and len(r.centre) == 2
    pass_turn(s)
    assert s.ask["h"] == "place"  # recovers the 2 cubes wherever Ragnar wants
    settle(s)
    assert not r.stunned and sum(map(len, r.rondel)) == 3


@pytest.mark.rule(G, "Heat Tokens")
def test_heat_token_four_damage_temporary_cube_and_removal() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"], [], [], [], [], []]})
    s.champs["ragnar"].area = "D3"
    s.tokens["D4"] = "heat"
    restart_turn(s)
    s.apply("move space 1")
    s.apply("step to D4")
    settle(s)
    r = s.champs["ragnar"]
    assert r.health == 8 and "D4" not in s.tokens
    assert sum(sp.count("t") for sp in r.rondel) == 1


@pytest.mark.rule(G, "Heat Tokens")
@pytest.mark.rule(G, "Freeze Tokens")
def test_tokens_do_not_stack_nor_hurt_when_placed() -> None:
    s = fresh()
    s.champs["ragnar"].area = "D3"
    assert s.place_token("heat", "D3", "Heat Tokens", [])
    assert s.champs["ragnar"].health == 12
    assert not s.place_token("freeze", "D3", "Freeze Tokens", [])
    assert not s.place_token("heat", "C4", "Heat Tokens", [])  # inaccessible to all


@pytest.mark.rule(G, "Frostbite")
def test_frostbite_when_the_frost_reserve_is_empty() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["f"], [], [], [], [], []], "lagertha": [["f", "f"], [], [], [],
                                                                     [], []]})
    s.reserve_frost = 0
    run_tasks(s, [{"t": "gain", "c": "ragnar", "kind": "f", "n": 1}])
    assert s.champs["ragnar"].health == 10 and s.champs["lagertha"].health == 8
    assert s.reserve_frost == 3


@pytest.mark.rule(G, "Temporary Action Cubes")
def test_temporary_cubes_beyond_the_reserve_are_disregarded() -> None:
    s = fresh()
    s.reserve_temp = 1
    ev = run_tasks(s, [{"t": "gain", "c": "ragnar", "kind": "t", "n": 2}])
    assert "No Temporary Cube left" in texts(ev)
    settle(s)
    assert s.reserve_temp == 0


@pytest.mark.rule(G, "The Ironborn Phase")
@pytest.mark.rule(G, "2. Scenario Event")
@pytest.mark.rule(G, "Game Phases")
def test_ironborn_phase_order_and_the_first_champion_marker_passes() -> None:
    s = fresh()
    pass_turn(s)
    settle(s)
    ev = pass_turn(s)
    ev += settle(s)
    t = texts(ev)
    assert t.index("Twilight marker advances") < t.index("Event:") < t.index("God card:")
    assert s.round == 2 and s.turn_order()[0] == "lagertha"
    assert len(s.event_deck.discard) == 1 and len(s.god_deck.discard) == 1


@pytest.mark.rule(G, "Setup")
@pytest.mark.rule(G, "Scenario 1 - The Last Flame")
def test_last_flame_setup() -> None:
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha", "gunnar"]})
    b = s.board
    assert s.tokens == {a: "flame" for a in b.poi} and len(b.poi) == 6
    # Minions over triangle, square, circle in order, each type continuing after the last.
    sp = b.spawns
    assert [s.minions[m].area for m in ("A1", "A2", "A3", "D1", "D2", "D3", "T1", "T2", "T3")] \
        == [sp["triangle"], sp["square"], sp["circle"]] * 3
    assert s.minion_card(1).name == "AshFolk 1-A" and s.minion_card(2).name == "DraugMech 2-B"
    assert s.minion_card(3).name == "CannonTroll 3-B"
    assert (s.reserve_temp, s.reserve_frost) == (6, 6)
    assert len(s.event_deck) == 11 and len(s.god_deck) == 11
    assert s.twilight == 0 and s.thor_area == b.god_start
    s2 = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]})
    assert [s2.minions[m].area for m in ("A1", "A2", "D1", "D2", "T1", "T2")] == [
        sp["triangle"], sp["square"], sp["circle"], sp["triangle"], sp["square"], sp["circle"]]


@pytest.mark.rule(G, "Special Rules")
@pytest.mark.rule(G, "Victory Conditions")
def test_last_flame_sacred_flames_are_heat_and_losing_them_all_loses() -> None:
    s = fresh()
    board_only(s)
    s.tokens = {"F3": "flame"}
    s.minions["A1"].area = "E3"
    run_tasks(s, [{"t": "activate", "type": 1}])
    assert s.outcome().result == "loss" and "Heat" in s.outcome().reason


@pytest.mark.rule(G, "Scenario 2 - Forge of Doom")
@pytest.mark.rule(G, "Setup")
def test_forge_of_doom_setup_and_all_furnaces_lit_loses() -> None:
    s = fresh("forge_of_doom", ("ragnar", "lagertha"))
    assert s.furnaces == {a: 0 for a in s.board.poi} and len(s.furnaces) == 3
    assert "pile" not in s.view(None)["furnace_pool"]  # numbers stay hidden
    assert s.minion_card(2).name == "DraugMech 2-A" and s.minion_card(3).name == "IronTroll 3-A"
    board_only(s)
    s.furnaces = {"B4": 1, "F5": 2, "D7": 0}
    s.furnace_pool.pile = ["3"]
    s.minions["A1"].area = "D7"
    run_tasks(s, [{"t": "activate", "type": 1}])
    assert s.outcome().result == "loss" and "Furnace" in s.outcome().reason
    assert s.overheated["3"]


@pytest.mark.rule(G, "Scenario 2 - Forge of Doom")
@pytest.mark.rule(G, "Setup")
@pytest.mark.rule(G, "Dice")
def test_forge_of_doom_step_14_eight_sided_dice_are_the_attack_dice() -> None:
    """Step 14 places "the 8-sided dice" by the play area: no rule rolls any other die, and
    every attack die has exactly 8 printed sides (ruling); the scenario data says so."""
    c = GAME.content
    items = {i.item: i for i in c.scenarios["forge_of_doom"].table_items}
    assert set(items) >= {"8-sided dice", "Heat tokens", "Damage tokens", "Destroyed Face tokens"}
    assert all(i.step == 14 for i in items.values())
    assert items["8-sided dice"].read_by == "Dice"
    assert {k: len(v.faces) for k, v in c.dice.items()} == {"white": 8, "red": 8, "green": 8}
    s = fresh("forge_of_doom", ("ragnar", "lagertha"))
    assert set(s.dice) == {"white", "red", "green"}
    # Frost Cube Reserve: not in this setup, but Frostbite's 2 per Champion applies (ruling).
    assert s.reserve_frost == 4 and s.reserve_temp == 4


@pytest.mark.rule(G, "Game Overview")
def test_solo_controls_two_champions_and_setup_errors() -> None:
    from meadhall.core.errors import ContentError

    s = GAME.new_game({"scenario": "last_flame", "heroes": ["gunnar", "siegfried"],
                       "players": 1})
    assert s.decision().seat == "gunnar"
    with pytest.raises(ContentError):
        GAME.new_game({"scenario": "last_flame", "heroes": ["gunnar"]})
    with pytest.raises(ContentError):
        GAME.new_game({"scenario": "last_flame", "heroes": ["gunnar", "gunnar"]})


@pytest.mark.rule(G, "Components")
def test_content_counts() -> None:
    c = GAME.content
    assert len(c.minion_cards) == 6 and len(c.general_events) == 5
    assert all(len(v) == 6 for v in c.scenario_events.values())
    assert {"ragnar", "lagertha", "gunnar", "siegfried"} <= set(c.human_forms)


def test_position_format_example_loads() -> None:
    import json
    from pathlib import Path

    path = Path(__file__).parents[3] / "docs" / "formats" / "battleforge-example.json"
    s = GAME.from_json(json.loads(path.read_text()))
    assert s.champs["ragnar"].area == "D3" and s.thor_area == "D2"
    assert s.decision().seat == "ragnar" and "melee space 1 at Thor's red face" in legal(s)
    assert GAME.from_json(s.to_json()) == s


@pytest.mark.rule(G, "Victory Conditions")
def test_forge_of_doom_victory_needs_an_unlit_furnace() -> None:
    s = fresh("forge_of_doom")
    s.furnaces = {"B4": 1, "F5": 0, "D7": 2}
    s.thor["destroyed"] = list(GAME.content.god.faces)
    ev: list = []
    s.thor_defeated(ev)
    assert s.outcome().result == "win" and "Unlit" in s.outcome().reason


@pytest.mark.rule(G, "2. Scenario Event")
def test_event_card_activating_minions() -> None:
    s = fresh()
    board_only(s)
    s.tokens = {"F3": "flame", "B7": "flame"}
    s.minions["A1"].area = "D2"
    s.champs["ragnar"].area = "E3"
    s.event_deck.pile.remove("ash_storm")
    s.event_deck.put_top("ash_storm")
    ev = run_tasks(s, [{"t": "event"}])
    assert "Event: Ash Storm" in texts(ev) and "AshFolk A moves from D2 to E3" in texts(ev)


@pytest.mark.rule(G, "Game Overview")
def test_every_event_names_its_section_and_render_draws_the_board() -> None:
    from meadhall.bots.random import RandomBot

    for sc in ("last_flame", "forge_of_doom"):
        s = GAME.new_game({"scenario": sc, "heroes": ["gunnar", "siegfried", "lynxshade"]}, 4)
        bot = RandomBot(4)
        for _ in range(150):
            if s.outcome().over:
                break
            for e in s.apply(bot.choose(s)):
                assert e.section and e.text
        out = s.render()
        assert "Rounds track" in out and "Thor in" in out and "Gu" in out


@pytest.mark.rule(G, "Heat Tokens")
@pytest.mark.rule(G, "Defense")
def test_against_heat_the_champion_chooses_how_much_to_defend() -> None:
    """"The Champion can choose to Defend any amount of Damage between 1 and the number of
    Action Cubes used"; against a Heat token, losing Health brings a Temporary Cube, so every
    amount is offered (ruling 11). Defending 3 of the 4: 1 Health lost and 1 Temporary Cube."""
    s = fresh()
    board_only(s, {"ragnar": [["c"], [], ["c"] * 5, [], [], []]})  # space 3: ritual/defense
    s.champs["ragnar"].area = "D3"
    s.tokens["D4"] = "heat"
    s.champs["lagertha"].charges["human"] = 0
    restart_turn(s)
    s.apply("move space 1")
    s.apply("step to D4")
    assert legal(s) == ["defend with space 3", "take 4 damage"]
    s.apply("defend with space 3")
    assert s.decision().seat == "ragnar"
    assert legal(s) == ["defend 4 damage", "defend 3 damage", "defend 2 damage",
                        "defend 1 damage"]
    assert s.decision().default == "defend 4 damage"
    s.apply("defend 3 damage")
    settle(s)
    r = s.champs["ragnar"]
    assert r.health == 11 and sum(sp.count("t") for sp in r.rondel) == 1
