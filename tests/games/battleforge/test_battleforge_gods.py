"""Gods: Thor's moves (shortest path, ties to the First Champion, pushing, frantic), attacks
(straight line, adjacent, up to X areas, ties by turn order), effects and faces."""

from __future__ import annotations

import pytest
from bf_helpers import GAME, board_only, fresh, legal, settle, texts

G = "battleforge"
NO_DEFENSE = [[], ["c"], [], ["c"], [], ["c"]]


def resolve(s, steps: list[dict]) -> list:
    s.tasks = [{"t": "steps", "steps": steps, "sec": "2. God Activation"}, {"t": "turn"}]
    s.ask = None
    ev: list = []
    s.run(ev)
    return ev


def quiet(s) -> None:
    board_only(s, {"ragnar": NO_DEFENSE, "lagertha": NO_DEFENSE})
    s.champs["lagertha"].charges["human"] = 0


@pytest.mark.rule(G, "2. God Activation")
@pytest.mark.rule(G, "Attacking Thor")
def test_first_move_from_the_starting_area_and_tie_to_the_first_champion() -> None:
    s = fresh()
    quiet(s)
    s.champs["ragnar"].area = "D4"
    card = GAME.content.thor_cards["hammer_blow"]
    resolve(s, [dict(x) for x in card.steps])
    assert s.decision().seat == "ragnar"  # the First Champion chooses between equal areas
    assert legal(s) == ["Thor to D3", "Thor to E3"]
    ev = s.apply("Thor to E3")
    assert s.thor_area == "E3" and s.thor["activated"]
    assert s.face_dir("red") == s.board.direction("E3", "D4")
    assert s.champs["ragnar"].health == 8
    assert "Thor moves from D1 to E3" in texts(ev)


@pytest.mark.rule(G, "2. God Activation")
def test_frantic_god_moves_even_when_already_qualifying() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D3"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "D4"
    resolve(s, [{"op": "move", "adjacent_to": "closest", "face": "red", "toward": "closest"}])
    assert s.thor_area == "E3"  # D5 is farther; D3 itself is left (Frantic God)


@pytest.mark.rule(G, "2. God Activation")
def test_frantic_tie_and_staying_in_the_only_empty_qualifying_area() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "F6"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "G6"  # areas next to Ragnar: G7, F6 (Thor), G5
    s.champs["lagertha"].area = "E8"
    resolve(s, [{"op": "move", "adjacent_to": "closest", "face": "red", "toward": "closest"}])
    assert legal(s) == ["Thor to G5", "Thor to G7"]  # Frantic: leaves F6; tie to Ragnar
    s = fresh()
    quiet(s)
    s.thor["area"] = "F6"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "G6"
    s.champs["lagertha"].area = "E8"
    s.minions["A1"].area = "G5"
    s.minions["A2"].area = "G7"
    ev = resolve(s, [{"op": "move", "adjacent_to": "closest", "face": "red",
                      "toward": "closest"}])
    assert s.thor_area == "F6" and "stays in F6" in texts(ev)


@pytest.mark.rule(G, "2. God Activation")
def test_all_qualifying_areas_occupied_push_characters() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D2"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "G6"
    for a, m in zip(["G7", "F6", "G5"], ["A1", "A2", "D1"], strict=True):
        s.minions[m].area = a
    resolve(s, [{"op": "move", "adjacent_to": "closest", "face": "red", "toward": "closest"}])
    assert s.decision().seat == "ragnar"
    assert legal(s) == ["Thor to F6", "Thor to G5", "Thor to G7"]
    s.apply("Thor to G5")
    assert s.ask["h"] == "god_push"
    s.apply(legal(s)[0])
    assert s.thor_area == "G5" and s.minions["D1"].area != "G5"


@pytest.mark.rule(G, "2. God Activation")
def test_straight_line_passes_walls_adjacent_does_not() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D4"
    s.thor["activated"] = True
    s.set_face("red", 1)  # toward E4, across the wall D4|E4
    s.champs["ragnar"].area = "G4"
    s.champs["lagertha"].area = "E4"
    ev = resolve(s, [{"op": "attack", "target": {"line": "red"}, "damage": 3}])
    assert "Ragnar, Lagertha" in texts(ev)
    assert s.champs["ragnar"].health == 9 and s.champs["lagertha"].health == 9
    ev = resolve(s, [{"op": "attack", "target": {"adjacent": True}, "damage": 3}])
    assert "nobody is hit" in texts(ev)


@pytest.mark.rule(G, "2. God Activation")
def test_up_to_x_areas_counts_like_a_champion_moves() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D4"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "F4"   # 2 hexes away but 3 areas by walking (wall D4|E4)
    s.champs["lagertha"].area = "D6"  # 2 areas away
    ev = resolve(s, [{"op": "attack", "target": {"within": 2}, "damage": 1}])
    assert "(1 Damage): Lagertha —" in texts(ev)
    assert s.champs["ragnar"].health == 12 and s.champs["lagertha"].health == 11


@pytest.mark.rule(G, "2. God Activation")
def test_tie_goes_to_the_champion_who_had_their_turn_first() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D4"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "D5"
    s.champs["lagertha"].area = "D3"
    s.first = 1
    resolve(s, [{"op": "attack", "target": {"champion": "closest", "within": 1}, "damage": 2,
                 "lose": True}])
    assert s.champs["lagertha"].health == 10 and s.champs["ragnar"].health == 12


@pytest.mark.rule(G, "Approaching and Distancing")
def test_ragnar_cannot_distance_without_approaching_first() -> None:
    """Printed example: the first step would bring Ragnar closer to Thor, so he stays."""
    s = fresh()
    quiet(s)
    s.thor["area"] = "F3"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "G2"
    ev = resolve(s, [{"op": "push", "who": "ragnar", "distance": 2}])
    assert s.champs["ragnar"].area == "G2"
    assert "cannot move away from Thor and stays in G2" in texts(ev)


@pytest.mark.rule(G, "Approaching and Distancing")
def test_approach_moves_closer_and_takes_token_effects() -> None:
    s = fresh()
    quiet(s)
    s.thor["area"] = "D2"
    s.thor["activated"] = True
    s.champs["ragnar"].area = "D4"
    s.tokens["D3"] = "freeze"
    s.tokens["E3"] = "freeze"
    resolve(s, [{"op": "pull", "who": "ragnar", "distance": 2}])
    assert legal(s) == ["shift to E3", "shift to D3"]
    s.apply("shift to D3")
    settle(s)
    r = s.champs["ragnar"]
    assert r.area == "D3"  # already adjacent to Thor: cannot get closer
    assert sum(sp.count("f") for sp in r.rondel) == 1 and "D3" not in s.tokens


@pytest.mark.rule(G, "Throwing")
def test_thrown_champion_lands_ignoring_the_path_and_takes_area_effects() -> None:
    s = fresh()
    quiet(s)
    s.champs["ragnar"].area = "E8"
    s.tokens["A2"] = "heat"
    resolve(s, [{"op": "throw", "who": "ragnar", "to": "spawn"}])
    settle(s)
    assert s.champs["ragnar"].area == "A2"  # this round's Spawning Area (triangle)
    assert s.champs["ragnar"].health == 8 and "A2" not in s.tokens
    assert s.reserve_temp == 3  # Heat that cost Health gives a Temporary Cube


@pytest.mark.rule(G, "The Faces of a God")
@pytest.mark.rule(G, "Reading God Status Cards")
def test_thor_status_card() -> None:
    god = GAME.content.god
    assert god.faces == ["orange", "red", "yellow", "green", "blue", "purple"]
    assert god.front == ["orange", "red", "yellow"] and god.back == ["green", "blue", "purple"]
    s = fresh("last_flame", ("ragnar", "lagertha", "gunnar"))
    assert s.face_health() == 6


@pytest.mark.rule(G, "3. God Card")
@pytest.mark.rule(G, "Reading the Confrontation Board")
def test_god_card_activates_minions_then_thor() -> None:
    s = fresh()
    quiet(s)
    s.god_deck.pile.remove("hammer_blow")
    s.god_deck.put_top("hammer_blow")
    s.tasks = [{"t": "god"}, {"t": "turn"}]
    s.ask = None
    ev: list = []
    s.run(ev)
    ev += settle(s)
    t = texts(ev)
    assert t.index("Minions 2") < t.index("Minions 3") < t.index("Thor moves")
    assert len(GAME.content.thor_cards) == 11
    assert all(len(c.activate) >= 2 for c in GAME.content.thor_cards.values())


@pytest.mark.rule(G, "Special Rules")
@pytest.mark.rule(G, "2. God Activation")
def test_an_ashfolk_pushed_by_thor_into_a_heat_area_removes_the_token() -> None:
    """"AshFolk 1-A that enter an Area with a Heat token immediately remove that token": being
    pushed in by the God is entering it too (The Last Flame). A DraugMech leaves it."""
    for pushed, kept in (("D1", True), ("A2", False)):
        s = fresh()
        quiet(s)
        s.thor["area"] = "D2"
        s.thor["activated"] = True
        s.champs["ragnar"].area = "G6"
        others = [m for m in ("A1", "A2", "D1") if m != pushed]
        for a, m in zip(["G5", "G7", "F6"], [pushed, *others], strict=True):
            s.minions[m].area = a
        s.tokens["G4"] = "heat"
        resolve(s, [{"op": "move", "adjacent_to": "closest", "face": "red",
                     "toward": "closest"}])
        s.apply("Thor to G5")
        name = s.minion_name(pushed)
        assert set(legal(s)) == {f"push {name} to {a}" for a in
                                 ("G4", "G6", "F6", "F5", "F4")}
        s.apply(f"push {name} to G4")
        assert (s.tokens.get("G4") == "heat") is kept
        assert s.thor_area == "G5"
