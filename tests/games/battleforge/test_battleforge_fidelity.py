"""Rule fidelity, second pass (issue 14): each situation built from a hand-written position
loaded through ``GameState.from_json`` and checked against the rulebook's text."""

from __future__ import annotations

import pytest
from bf_helpers import GAME, ironborn, legal, minions_at, position, settle, texts

G = "battleforge"
EMPTY = ["", "", "", "", "", ""]
ALL_MINIONS = ("A1", "A2", "D1", "D2", "T1", "T2")


def card_steps(card: str) -> list[dict]:
    return [dict(st) for st in GAME.content.thor_cards[card].steps]


@pytest.mark.rule(G, "Destroying a Minion")
@pytest.mark.rule(G, "The Faces of a God")
def test_a_minion_stands_next_to_its_spawning_area_when_thor_occupies_it() -> None:
    """"place this Minion's model on the Spawning Area ... in the standing position", but
    "Gods occupy an entire Area. Champions and Minions can pass through, but never stop in an
    Area occupied by them": with Thor on the square Spawning Area (G2) the DraugMech Stands
    next to it, where the First Champion chooses (ruling 41)."""
    s = position(minions=minions_at(lying={"D1": "square", "D2": "circle"}),
                 thor={"area": "G2", "activated": True})
    ironborn(s, [{"t": "activate", "type": 2}], wait=True)
    assert s.decision().seat == "ragnar"  # the First Champion
    assert set(legal(s)) == {"DraugMech A to G3", "DraugMech A to F2"}
    ev = s.apply("DraugMech A to F2")
    assert s.minions["D1"].area == "F2" and s.thor_area == "G2"
    assert "DraugMech A Stands in the Area F2" in texts(ev)
    assert all(m.area != "G2" for m in s.minions.values())


@pytest.mark.rule(G, "Minion Movement")
@pytest.mark.rule(G, "The Faces of a God")
def test_a_minion_crosses_thors_area_but_never_attacks_from_it_or_stays() -> None:
    """An Overheated CannonTroll (2 Actions, range 2) whose only shortest path to Ragnar runs
    through Thor's Area: it enters Thor's Area and must leave it with its second Action,
    so it cannot attack from there (Ragnar would be 2 Areas away)."""
    s = position(minions=minions_at(T1="C2"),
                 overheated={"3": True}, thor={"area": "D2", "activated": True},
                 champions={"ragnar": {"area": "F2"}, "lagertha": {"area": "B8"}})
    ev = ironborn(s, [{"t": "activate", "type": 3}])
    t = texts(ev)
    assert "IronTroll A moves from C2 to D2" in t and "IronTroll A moves from D2 to E2" in t
    assert "Attacks" not in t
    assert s.minions["T1"].area == "E2" and s.champs["ragnar"].health == 12


@pytest.mark.rule(G, "Special Rules")
@pytest.mark.rule(G, "Minion Attacks")
def test_ashfolk_attacks_when_no_point_of_interest_can_be_reached() -> None:
    """AshFolk 1-A "attacks a Champion in its Area only when no Point of Interest can be
    reached" (its card, authored; ruling 25): the only Sacred Flame lies under Thor."""
    s = position(minions=minions_at(A1="B4"),
                 replace={"tokens": {"E6": "flame"}},
                 thor={"area": "E6", "activated": True},
                 champions={"ragnar": {"area": "B4", "rondel": ["", "ccc", "", "ccc", "", ""]},
                            "lagertha": {"area": "B8", "charges": {"human": 0}}})
    ev = ironborn(s, [{"t": "activate", "type": 1}])
    assert texts(ev).count("AshFolk A Attacks Ragnar") == 2  # 2 Actions, 2 Attacks
    assert s.tokens == {"E6": "flame"}


@pytest.mark.rule(G, "Frost Cubes")
@pytest.mark.rule(G, "Moving")
def test_frost_cubes_cost_their_health_after_the_move_action() -> None:
    """"3. Perform the Action and/or Reaction normally; 4. Return Frost Cubes to the Reserve
    and Lose 2 Health Points for each": at 2 Health, Ragnar still moves, then is Knocked
    Out."""
    s = position(champions={"ragnar": {"area": "D6", "health": 2,
                                       "rondel": ["cf", "", "", "", "", ""]}},
                 minions=minions_at(), reserves={"frost": 3})
    s.apply("move space 1")
    assert legal(s) == ["Action Cube to space 2", "discarded cube to space 2"]
    s.apply("Action Cube to space 2")
    assert s.champs["ragnar"].health == 2 and s.turn["move"] == 2
    s.apply("step to D5")
    ev = s.apply("step to D4")
    ev += settle(s)
    assert s.champs["ragnar"].area == "D4"
    t = texts(ev)
    assert "Ragnar loses 2 Health Points (1 Frost Cube returned" in t
    assert "Ragnar is Knocked Out" in t and s.knockouts == 1


@pytest.mark.rule(G, "Frost Cubes")
@pytest.mark.rule(G, "Reroll")
def test_frost_cubes_of_a_reroll_reaction_cost_health_before_the_attack_resolves() -> None:
    s = position(champions={"ragnar": {"area": "B4", "health": 9,
                                       "rondel": ["ccc", "", "", "", "", "cf"]}},
                 minions=minions_at(T1="B4"),
                 reserves={"frost": 3})
    s.apply("melee space 1 at IronTroll A")
    s.force("miss", "miss", "miss", "miss")
    ev = s.apply("roll 3 white 0 red 0 green")
    ev += s.apply("reroll with space 6")
    if "Action Cube to space 1" in legal(s):
        ev += s.apply("Action Cube to space 1")
    ev += s.apply("reroll die 1")
    s.force("damage")
    ev += s.apply("reroll die 2")
    ev += settle(s)
    t = texts(ev)
    assert t.index("Ragnar loses 2 Health Points (1 Frost Cube returned") < t.index(
        "Ragnar deals 1 Damage to IronTroll A")


@pytest.mark.rule(G, "Champion Preparation")
@pytest.mark.rule(G, "Boons")
def test_the_starting_boon_uses_one_boon_token() -> None:
    """"Take the indicated Boon token ... and place it on a Rondel Space": one token of the
    7, not two."""
    s = position()
    board0 = GAME.content.boards[0].boon_tokens
    tokens = list(s.champs["ragnar"].tokens_left)
    assert len(tokens) == 6 and tokens.count("melee") == board0.count("melee") - 1
    la = s.champs["lagertha"]  # Starting Boon and the extra Boon (or a flip)
    used = 7 - len(la.tokens_left)
    assert used == sum(1 for b in la.boons if b)


@pytest.mark.rule(G, "2. God Activation")
def test_hammer_blow_strikes_the_champion_thor_moved_next_to() -> None:
    """"Move adjacent to the closest Champion, Red Face toward them; that Champion takes 4
    Damage": Ragnar (F4) is closest; once Thor stands in F3, Lagertha (E4) is as close and
    had her Turn first, yet the Red Face and the blow still go to Ragnar."""
    s = position(first_champion="lagertha", minions=minions_at(),
                 thor={"area": "G2", "activated": True},
                 champions={"ragnar": {"area": "F4", "rondel": ["", "ccc", "", "", "", "cc"]},
                            "lagertha": {"area": "E4", "charges": {"human": 0}}})
    ev = ironborn(s, [{"t": "steps", "steps": card_steps("hammer_blow"),
                       "sec": "2. God Activation"}])
    t = texts(ev)
    assert "Thor moves from G2 to F3" in t and "Thor turns his red Face toward Ragnar" in t
    assert s.face_dir("red") == s.board.direction("F3", "F4")
    assert "Ragnar loses 4 Health Point" in t and s.champs["lagertha"].health == 12


@pytest.mark.rule(G, "2. God Activation")
def test_mjolnirs_flight_turns_the_yellow_face_toward_the_champion_it_moved_to() -> None:
    s = position(first_champion="lagertha", minions=minions_at(),
                 thor={"area": "G2", "activated": True},
                 champions={"ragnar": {"area": "F4"}, "lagertha": {"area": "E4"}})
    # Ragnar (F4) and Lagertha (E4) are equally far from G2 and she had her Turn first: Thor
    # moves next to her; the Yellow Face turns toward her, the champion he moved to.
    ev = ironborn(s, [{"t": "steps", "steps": card_steps("mjolnir_throw")[:1],
                       "sec": "2. God Activation"}])
    t = texts(ev)
    moved_to = s.thor_area
    assert "Thor turns his yellow Face toward Lagertha" in t
    assert s.face_dir("yellow") == s.board.toward(moved_to, "E4")


@pytest.mark.rule(G, "Scenario 1 - The Last Flame")
@pytest.mark.rule(G, "Setup")
def test_the_last_flame_setup_with_two_champions() -> None:
    """The printed setup, step by step, with 2 Champions ("In a match with 2 Champions there
    will be 4 Temporary Action Cubes in the Reserve"; likewise 4 Frost Cubes)."""
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, 5)
    b = s.board
    assert s.tokens == {a: "flame" for a in b.poi} and len(b.poi) == 6  # step 2
    assert s.twilight == 0 and GAME.content.round_track[0] == "triangle"  # step 4
    assert len(s.event_deck) == 11 and not s.event_deck.discard  # step 5: 5 + 6 cards
    assert len(s.god_deck) == 11  # step 6
    assert [s.minion_card(k).name for k in (1, 2, 3)] == ["AshFolk 1-A", "DraugMech 2-B",
                                                          "CannonTroll 3-B"]  # step 7
    assert not any(s.overheated.values())
    assert s.thor_area == b.god_start and not s.thor["activated"]  # step 8
    sp = b.spawns  # steps 9-12: 2 of each type, triangle/square/circle in turn
    assert {m: s.minions[m].area for m in ALL_MINIONS} == {
        "A1": sp["triangle"], "A2": sp["square"], "D1": sp["circle"],
        "D2": sp["triangle"], "T1": sp["square"], "T2": sp["circle"]}
    assert (s.reserve_temp, s.reserve_frost) == (4, 4)  # steps 13 and 14
    assert s.face_health() == 4  # "twice the number of Champions"


@pytest.mark.rule(G, "The Faces of Thor")
def test_the_red_face_with_only_green_dice_is_ignored() -> None:
    """"If no die rolled has a Counterattack side (only Green Dice for example), this effect
    is ignored." Siegfried (1 green die) attacks the Red Face with 1 cube: every sub-pool is
    offered; rolling only the green die leaves nothing to turn."""
    s = position(heroes=("siegfried", "lagertha"),
                 champions={"siegfried": {"area": "D3", "rondel": ["c", "", "", "", "", ""]}},
                 minions=minions_at(),
                 thor={"area": "D2", "activated": True, "red_face": 3})
    assert "melee space 1 at Thor's red face" in legal(s)
    s.apply("melee space 1 at Thor's red face")
    assert legal(s) == ["roll 1 white 0 red 1 green", "roll 1 white 0 red 0 green",
                        "roll 0 white 0 red 1 green"]
    s.force("damage")
    ev = s.apply("roll 0 white 0 red 1 green")
    ev += settle(s)
    t = texts(ev)
    assert "Red Face: no die rolled has a Counterattack side; ignored" in t
    assert "Siegfried deals 1 Damage to Thor's red Face (1/4)" in t
    assert s.champs["siegfried"].health == 12  # no Counterattack


@pytest.mark.rule(G, "Defense")
def test_the_defense_sentence_says_what_defended() -> None:
    s = position(champions={"ragnar": {"rondel": ["cc", "", "cc", "", "", ""],
                                       "boons": [None, None, {"symbol": "defense", "level": 1},
                                                 None, None, None]}},
                 minions=minions_at())
    ironborn(s, [{"t": "damage", "c": "ragnar", "n": 4, "src": "a test", "stage": 1},
                 {"t": "damage", "c": "ragnar", "n": 4, "src": "a test", "stage": 1}],
             wait=True)
    ev = s.apply("defend with space 3")
    assert "Ragnar defends with space 3 (2 cubes + 1 Boon): 3 Damage blocked, 1 left" \
        in texts(ev)
    ev = s.apply("defend with space 1")
    assert "Ragnar defends with space 1 (2 cubes): 2 Damage blocked, 2 left" in texts(ev)


@pytest.mark.rule(G, "Knocked Out")
@pytest.mark.rule(G, "Crossing Areas with Enemies")
def test_a_champion_knocked_out_in_thors_area_is_pushed_out_of_it() -> None:
    """Crossing Thor's Area, Ragnar enters the Heat token under him and is Knocked Out: his
    turn ends, but "Champions and Minions can pass through, but never stop in an Area occupied
    by" a God, so he is pushed to a next Area the First Champion chooses (ruling 45)."""
    s = position(champions={"ragnar": {"area": "D6", "health": 3,
                                       "rondel": ["ccc", "", "", "", "", ""]},
                            "lagertha": {"charges": {"human": 0}}},
                 minions=minions_at(), thor={"area": "D5", "activated": True},
                 tokens={"D5": "heat"})
    s.apply("move space 1")
    s.apply("step to D5")
    s.apply("take 4 damage")
    s.apply("done relocating")
    assert s.ask["h"] == "god_push" and s.decision().seat == "ragnar"
    opts = legal(s)
    assert set(opts) == {f"push Ragnar to {a}" for a in s.board.adjacent("D5")}
    s.apply("push Ragnar to D4")
    assert s.champs["ragnar"].area == "D4" and s.current() == "lagertha"
