"""For people: action texts use names, labels carry the rules' numbers, targets name the table,
and the seats map people to champions."""

from __future__ import annotations

import re

import pytest
from bf_helpers import GAME, board_only, fresh, restart_turn

from meadhall.bots.random import RandomBot

G = "battleforge"
INTERNAL = re.compile(r"\b([ADT]\d|thor-\w+|ragnar|lagertha|gunnar|siegfried|lynxshade)\b")
AREA = re.compile(r"\bto [A-G]\d\b")  # area names (D7) look like minion ids (D1); areas follow "to"


def described(s) -> dict[str, tuple[str, list[str]]]:
    return {a.text: (a.label, [f"{t}|{t.note}" for t in a.targets])
            for a in s.described_actions()}


@pytest.mark.parametrize("scenario,heroes", [
    ("last_flame", ["ragnar", "lagertha"]),
    ("forge_of_doom", ["gunnar", "siegfried", "lynxshade"]),
])
def test_every_action_has_a_label_and_a_target_and_its_text_uses_names(
        scenario: str, heroes: list[str]) -> None:
    for seed in range(3):
        s = GAME.new_game({"scenario": scenario, "heroes": heroes}, seed)
        bot = RandomBot(seed)
        for _ in range(400):
            if s.decision() is None:
                break
            acts = s.described_actions()
            low = [a.text.lower() for a in acts]
            assert len(set(low)) == len(low), "texts must differ regardless of case"
            for a in acts:
                assert a.label and a.label != a.text, a.text
                assert a.targets, a.text
                assert not INTERNAL.search(AREA.sub("", a.text)), f"internal id in {a.text!r}"
            s.apply(bot.choose(s))


def test_attack_label_gives_the_dice_pool_and_the_targets_numbers() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c"] * 3, [], [], [], [], []]})
    s.champs["ragnar"].attrs["red"] = 1
    s.champs["ragnar"].boons[0] = {"symbol": "melee", "level": 1}
    s.minions["T1"].area = s.champs["ragnar"].area
    s.minions["T1"].damage = 2
    restart_turn(s)
    label, targets = described(s)["melee space 1 at IronTroll A"]
    assert label == ("Ragnar: melee Attack on IronTroll A with space 1 (3 cubes + 1 Boon): roll "
                     "4 white, 1 red dice; 3/5 Health left; Counterattack 1; 3 Fury if "
                     "Destroyed")
    assert targets == ["rondel:ragnar:1|4W+1R", "figure:T1|4W+1R"]


def test_attack_on_a_face_names_its_effect_and_thors_passive() -> None:
    s = fresh()
    board_only(s, {"ragnar": [[], ["c", "c"], [], [], [], []]})
    s.thor.update(area="D6", activated=True, destroyed=["blue"])
    s.champs["ragnar"].area = "D7"
    d = s.board.direction("D6", "D7")
    s.set_face("yellow", d)
    restart_turn(s)
    label, targets = described(s)["ranged space 2 at Thor's yellow face"]
    assert "roll 2 white dice" in label and "4/4 Health left" in label
    assert "Yellow: at most 2 Damage" in label and "Passive: -1 Damage" in label
    assert targets[1] == "figure:thor-yellow|2W"


def test_move_and_step_labels_give_movement_points() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], [], [], [], [], []]})
    s.champs["ragnar"].attrs["movement"] = 1
    s.champs["ragnar"].area = "D6"
    s.tokens["D5"] = "heat"
    restart_turn(s)
    label, targets = described(s)["move space 1"]
    assert label == ("Ragnar Moves with space 1 (2 cubes + 1 Movement Attribute): 3 Movement "
                     "Points")
    assert targets == ["rondel:ragnar:1|3 MP"]
    s.apply("move space 1")
    label, targets = described(s)["step to D5"]
    assert label == "Ragnar steps to D5 (1 MP; its Heat token deals 4 Damage; 2 left)"
    assert targets == ["area:D5|1 MP"]


def test_defense_label_gives_what_is_blocked() -> None:
    s = fresh()
    board_only(s, {"ragnar": [["c", "c"], [], [], [], [], []]})
    s.tasks = [{"t": "damage", "c": "ragnar", "n": 4, "src": "test", "stage": 1}]
    s.ask = None
    s.run([])
    label, targets = described(s)["defend with space 1"]
    assert label == ("Ragnar Defends with space 1 (2 cubes): blocks 2 of the 4 Damage "
                     "(Health 12 -> 10)")
    assert targets == ["rondel:ragnar:1|blocks 2"]
    assert described(s)["take 4 damage"][1] == ["option:take-4-damage|"]


def test_solo_player_has_one_seat_for_both_champions() -> None:
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"],
                       "players": 1}, 0)
    assert s.seats() == ["solo"]
    assert s.seat_of("ragnar") == s.seat_of("lagertha") == "solo"
    s = GAME.new_game({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, 0)
    assert s.seats() == ["ragnar", "lagertha"] and s.seat_of("lagertha") == "lagertha"
