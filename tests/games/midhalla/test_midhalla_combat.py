"""Phase 3: Combat - enemies, bosses, traps, heroes, attacks, damage and keywords."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import IllegalAction
from meadhall.games.midhalla.heroes import REPLAY
from meadhall.games.midhalla.testkit import combat, legal, line, paused

G = games.get("midhalla")
R = "midhalla"


def state(n_tiles: int = 3, fortified: int = 1, heroes=None, enemies=None, traps=None,
          players=("harkon", "enyk"), **pos):
    """A combat position; players not given in ``heroes`` are off the board (so enemy HP
    follows the player count)."""
    heroes = {**{h: {} for h in players}, **(heroes or {})}
    return paused(
        {"scenario": "chapter1", "heroes": list(players)}, phase="combat",
        tiles=pos.pop("tiles", None) or line(n_tiles, fortified),
        heroes=heroes, enemies=enemies or {}, traps=traps or {}, **pos)


def texts(events) -> str:
    return "\n".join(e.text for e in events)


# ------------------------------------------------------------------ 3.1 enemy turns
@pytest.mark.rule("midhalla", "Activating an Enemy")
def test_enemy_without_target_moves_one_tile_toward_the_gate() -> None:
    st = state(heroes={"harkon": {"tile": "G"}, "enyk": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    ev = combat(st)
    assert st.enemies["e1"].tile == "t2"
    assert any(e.kind == "move" for e in ev)
    assert st.decision().section == "3.3 Hero Turns"  # no trap: straight to hero turns


@pytest.mark.rule("midhalla", "Target Check")
def test_players_choose_which_hero_is_attacked() -> None:
    st = state(heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}})
    combat(st)
    assert st.decision().seat == "players"
    assert legal(st) == ["e1 attacks Harkon", "e1 attacks Enyk"]
    st.apply("e1 attacks Enyk")
    assert st.heroes["enyk"].hp == 3 and st.heroes["harkon"].hp == 6


@pytest.mark.rule("midhalla", "Target Check")
def test_trap_targeting_enemy_takes_the_lowest_hp_trap_and_never_heroes() -> None:
    st = state(fortified=3, heroes={"harkon": {"tile": "t2"}},
               enemies={"e1": {"card": "root_spawn", "tile": "t2"}},
               traps={"t5": {"kind": "spike", "tile": "t2", "hp": 3},
                      "t6": {"kind": "spike", "tile": "t2", "hp": 2}})
    ev = combat(st)
    assert st.traps["t6"].hp == 1 and st.traps["t5"].hp == 3
    assert st.heroes["harkon"].hp == 6
    assert "attacks Spike Trap 6" in texts(ev)


@pytest.mark.rule("midhalla", "Target Check")
def test_any_target_lets_players_pick_among_every_type_in_range() -> None:
    st = state(fortified=3, heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "troll_brute", "tile": "t1"}},
               traps={"t5": {"kind": "spike", "tile": "t1"}})
    combat(st)
    assert legal(st) == ["e1 attacks Harkon", "e1 attacks trap t5"]


@pytest.mark.rule("midhalla", "Gate Check")
def test_gate_check_only_when_no_preferred_target() -> None:
    # A hero-targeting enemy on the gate tile with no hero in range attacks the gate.
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "G"}})
    combat(st)
    assert st.gate_hp == 19
    assert st.enemies["e1"].tile == "G"  # on the gate tile it never moves
    st2 = state(heroes={"harkon": {"tile": "G"}},
                enemies={"e1": {"card": "kobold_warrior", "tile": "G"}})
    combat(st2)
    assert st2.gate_hp == 20 and st2.heroes["harkon"].hp == 5


@pytest.mark.rule("midhalla", "Gate Check")
def test_ranged_enemy_attacks_the_gate_from_an_adjacent_tile() -> None:
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"}})
    combat(st)
    assert st.gate_hp == 19 and st.enemies["e1"].tile == "t1"


@pytest.mark.rule("midhalla", "Activating an Enemy")
def test_move_ties_are_a_players_choice() -> None:
    # Two equally short ways around a square: G-a-b and G-c-b.
    from meadhall.games.midhalla.testkit import layout
    tiles = layout({"G": (0, 0), "a": (1, 0), "b": (1, 1), "c": (0, 1)},
                   [("G", "a"), ("a", "b"), ("b", "c"), ("c", "G")], {"G"})
    st = state(tiles=tiles, heroes={"harkon": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "b"}})
    combat(st)
    assert legal(st) == ["e1 steps to a", "e1 steps to c"]
    assert st.decision().default == "e1 steps to a"
    st.apply("e1 steps to c")
    assert st.enemies["e1"].tile == "c"


@pytest.mark.rule("midhalla", "3.1 Enemy Turns")
def test_enemies_activate_in_tao_once_each_and_players_order_a_shared_tile() -> None:
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t2"},
                        "e2": {"card": "draugr", "tile": "t2"},
                        "e3": {"card": "kobold_warrior", "tile": "t1"}})
    ev = combat(st)
    # e3 (t1) moves onto G first; then the players order e1 and e2 on t2.
    assert st.enemies["e3"].tile == "G"
    assert legal(st) == ["activate e1", "activate e2"]
    ev = st.apply("activate e2")
    moves = [e.data["enemy"] for e in ev if e.kind == "move"]
    assert moves == ["e2", "e1"]  # e1 moved onto t1 - already activated - but acts once


@pytest.mark.rule("midhalla", "Fast")
def test_fast_enemy_attacks_after_moving() -> None:
    st = state(heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "demon_hound", "tile": "t2"}})
    combat(st)
    assert st.enemies["e1"].tile == "t1"
    assert st.heroes["harkon"].hp == 5


@pytest.mark.rule("midhalla", "Activating an Enemy")
def test_enemy_that_moves_does_not_attack_unless_fast() -> None:
    st = state(heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t2"}})
    combat(st)
    assert st.enemies["e1"].tile == "t1" and st.heroes["harkon"].hp == 6


@pytest.mark.rule("midhalla", "Bleed X")
def test_bleed_deals_damage_at_end_of_each_turn_and_stacks() -> None:
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "draugr", "tile": "t2", "bleed": 2}})
    ev = combat(st)
    assert st.enemies["e1"].hp == 4 - 2  # damage, not an attack: armor does not reduce it
    assert "bleeds for 2" in texts(ev)


@pytest.mark.rule("midhalla", "Evasion")
def test_evasion_absorbs_the_first_attack_of_a_multi_attack() -> None:
    # The rulebook: Harkon's Cleave (2*Attack 1) on a Kobold Warrior with Evade.
    st = state(heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t1", "evasion": True}})
    combat(st, "heroes")
    st.apply("next hero Harkon")
    st.apply("skill top 1 Cleave")
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 3 and not st.enemies["e1"].evasion
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 2


@pytest.mark.rule("midhalla", "Evasion")
def test_evasion_is_regained_at_the_end_of_the_enemy_turn() -> None:
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t2", "evasion": False}})
    combat(st)
    assert st.enemies["e1"].evasion


@pytest.mark.rule("midhalla", "Armor X")
def test_enemy_armor_reduces_every_attack_and_pierce_ignores_it() -> None:
    st = state(players=("tora",), heroes={"tora": {"tile": "t1"}},
               enemies={"e1": {"card": "draugr", "tile": "t1"}})
    combat(st, "heroes")
    st.apply("skill top 1 Shield Bash")  # Attack 1 vs armor 1: 0 damage
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 3
    st2 = state(players=("tora",), heroes={"tora": {"tile": "t1"}},
                enemies={"e1": {"card": "draugr", "tile": "t1"}})
    combat(st2, "heroes")
    st2.apply("skill top 2 Spear Thrust")  # Pierce, Attack 2: armor ignored this turn
    st2.apply("attack e1")
    assert st2.enemies["e1"].hp == 1


@pytest.mark.rule("midhalla", "Armor X")
def test_hero_armor_lasts_until_the_beginning_of_the_next_turn_and_does_not_stack() -> None:
    st = state(players=("tora",), heroes={"tora": {"tile": "t1", "armor": 1}},
               enemies={"e1": {"card": "kobold_chieftain", "tile": "t1"}})
    combat(st, "heroes")
    assert st.heroes["tora"].armor == 0  # expired as her turn begins
    st.apply("skill top 3 Sprint")
    st.apply("stay")
    st.apply("skill bottom 2 Brace")
    assert st.heroes["tora"].armor == 2
    st.apply("use ultimate Unbreakable")
    assert st.heroes["tora"].armor == 3  # doesn't stack: the highest counts
    st.apply("end turn")
    # the chieftain attacks for 2 and bleeds her; armor 3 stops the attack
    assert st.heroes["tora"].hp == 5
    assert st.heroes["tora"].bleed == 1


@pytest.mark.rule("midhalla", "Damage (DMG) vs. Attack")
def test_retaliate_is_damage_and_ignores_armor() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1", "retaliate": 1}},
               enemies={"e1": {"card": "kobold_chieftain", "tile": "t1"}})
    combat(st)
    # retaliate lasts until the beginning of Harkon's next turn: the chieftain (armor 1) takes 1
    assert st.enemies["e1"].hp == 5 - 1
    assert st.heroes["harkon"].hp == 4


@pytest.mark.rule("midhalla", "Exhaust")
def test_exhaust_blocks_a_skill_of_the_players_choice_max_two() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "shaman", "tile": "t1"}})
    combat(st)
    assert st.decision().section == "Exhaust"
    st.apply("exhaust top 1 Cleave")
    assert st.heroes["harkon"].exhausted == ["top:0"]
    assert "skill top 1 Cleave" not in legal(st)
    st.heroes["harkon"].exhausted = ["top:0", "top:1"]
    ev: list = []
    st._exhaust("harkon", ev)
    assert "ignored" in ev[0].text and st.choice["kind"] == "hero"


# ------------------------------------------------------------------ bosses
@pytest.mark.rule("midhalla", "Activating Bosses")
def test_boss_rotation_starts_top_left_and_goes_clockwise() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "demon_bear", "tile": "t1"}})
    ev = combat(st)
    assert st.enemies["e1"].rotation == 0 and "Maul" in texts(ev)
    assert st.heroes["harkon"].hp == 6 - 3
    st.enemies["e1"].rotation = 1  # next: box 3 (Lumber: move 1, attack 2 targeting the gate)
    ev = combat(st)
    assert "Lumber" in texts(ev)
    assert st.enemies["e1"].tile == "G" and st.gate_hp == 18


@pytest.mark.rule("midhalla", "Activating Bosses")
def test_boss_default_move_is_zero() -> None:
    st = state(n_tiles=4, players=("harkon",), heroes={"harkon": {"tile": "G"}},
               enemies={"e1": {"card": "demon_bear", "tile": "t4"}})
    combat(st)  # Maul: hero target not in range, gate not in range, move 0
    assert st.enemies["e1"].tile == "t4"


# ------------------------------------------------------------------ 3.2 trap turns
@pytest.mark.rule("midhalla", "3.2 Trap Turns")
def test_trap_must_attack_and_players_choose_the_target() -> None:
    st = state(fortified=3, heroes={"harkon": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"},
                        "e2": {"card": "kobold_slinger", "tile": "t1"}},
               traps={"t5": {"kind": "spike", "tile": "t1"}})
    combat(st, "traps")
    assert legal(st) == ["t5 attacks e1",
                         "t5 attacks e2"]
    st.apply("t5 attacks e2")
    assert st.enemies["e2"].hp == 1


@pytest.mark.rule("midhalla", "3.2 Trap Turns")
def test_traps_never_target_enemies_on_the_gate_tile() -> None:
    st = state(fortified=3, heroes={"harkon": {"tile": "t2"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "G"}},
               traps={"t5": {"kind": "arrow_tower", "tile": "t1"}})
    ev = combat(st, "traps")
    assert st.enemies["e1"].hp == 2 and "no enemy in range" in texts(ev)


@pytest.mark.rule("midhalla", "Hitpoints (HP), KO, destroyed & defeated")
def test_destroyed_trap_stays_but_never_activates_and_cannot_be_repaired() -> None:
    st = state(fortified=3, players=("enyk",), heroes={"enyk": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"}},
               traps={"t5": {"kind": "spike", "tile": "t1", "hp": 0}})
    combat(st, "traps")
    assert st.decision().seat == "enyk" and "t5" in st.traps
    st.apply("skill top 1 Thorn Dart")
    st.apply("skip attack")
    assert not any(a.startswith("repair") for a in legal(st))
    st.apply("skill bottom 3 Tinker")  # no repairable trap: the effect has no target
    assert legal(st)[0] == "end turn"


# ------------------------------------------------------------------ 3.3 hero turns
@pytest.mark.rule("midhalla", "3.3 Hero Turns")
def test_heroes_act_in_any_order_chosen_by_the_players() -> None:
    st = state(heroes={"harkon": {"tile": "G"}, "enyk": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    combat(st, "heroes")
    assert legal(st) == ["next hero Harkon", "next hero Enyk"]
    st.apply("next hero Enyk")
    assert st.decision().seat == "enyk"


@pytest.mark.rule("midhalla", "Hero Turn and activating Skills")
def test_top_row_then_bottom_row_and_occupied_slots_are_unavailable() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "G", "top_at": 1,
                                                       "bottom_at": 0}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    combat(st, "heroes")
    acts = legal(st)
    assert "skill top 2 Strike" not in acts  # its token is there: occupied
    assert not any(a.startswith("skill bottom") for a in acts)  # top row first
    st.apply("skill top 1 Cleave")
    acts = legal(st)
    assert acts[:2] == ["skill bottom 2 Guard", "skill bottom 3 Defiance"]
    st.apply("skill bottom 2 Guard")
    assert legal(st)[0] == "end turn"
    assert st.heroes["harkon"].top_at == 0 and st.heroes["harkon"].bottom_at == 1


@pytest.mark.rule("midhalla", "Activating Ultimate Abilities and Items")
def test_items_and_ultimates_are_free_actions_exhausted_after_use() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1", "items": ["throwing_axe"]}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t2", "evasion": False}})
    combat(st, "heroes")
    st.apply("use item Throwing Axe")
    assert "use item Throwing Axe" not in legal(st)  # no free action within an effect
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 1
    assert "use item Throwing Axe" not in legal(st)  # exhausted for this phase
    assert "use ultimate Berserk Fury" in legal(st)


@pytest.mark.rule("midhalla", "Move")
def test_move_up_to_value_or_not_at_all() -> None:
    st = state(n_tiles=4, players=("tora",), heroes={"tora": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t4"}})
    combat(st, "heroes")
    st.apply("skill top 3 Sprint")
    assert legal(st)[:3] == ["move to t1", "move to t2", "stay"]


@pytest.mark.rule("midhalla", "Range")
def test_range_counts_tiles_anywhere_reaches_all_and_zero_is_the_same_tile() -> None:
    st = state(n_tiles=4, players=("ylva",), heroes={"ylva": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3"},
                        "e2": {"card": "kobold_warrior", "tile": "t4"}})
    combat(st, "heroes")
    st.apply("skill top 1 Arrow")  # range 2 reaches t3, not t4
    assert legal(st) == ["attack e1", "skip attack"]
    st.apply("skip attack")
    st.apply("skill bottom 1 Scout")
    st.apply("stay")
    st.apply("use ultimate Snipe")  # range anywhere
    assert legal(st)[:2] == ["attack e1",
                             "attack e2"]


@pytest.mark.rule("midhalla", "Targeting")
def test_linked_effects_apply_to_the_attacks_target() -> None:
    st = state(players=("enyk",), heroes={"enyk": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t2", "evasion": False}})
    combat(st, "heroes")
    st.apply("skill top 3 Venom Dart")
    st.apply("attack e1")
    assert st.enemies["e1"].bleed == 1 and st.enemies["e1"].hp == 1


@pytest.mark.rule("midhalla", "Slow")
def test_slow_stops_the_next_move_then_flips_to_slow_immune() -> None:
    st = state(heroes={"harkon": {"tile": "G"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3", "slow": "slowed"}})
    combat(st)
    assert st.enemies["e1"].tile == "t3" and st.enemies["e1"].slow == "immune"


@pytest.mark.rule("midhalla", "Dealing Damage to Enemies")
def test_defeated_enemy_goes_to_its_discard_pile() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"},
                        "e2": {"card": "kobold_warrior", "tile": "t3"}})
    combat(st, "heroes")
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert "e1" not in st.enemies and st.decks["enemy"].discard == ["kobold_slinger"]


@pytest.mark.rule("midhalla", "Phase 3: Combat")
def test_combat_ends_at_the_end_of_3_3_when_every_enemy_is_defeated() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"}})
    combat(st, "heroes")
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert st.phase == "combat"  # heroes still finish step 3.3
    st.apply("skill bottom 1 Advance")
    st.apply("stay")
    st.apply("end turn")
    assert st.phase == "rewards"


@pytest.mark.rule("midhalla", "Goal")
def test_the_chapter_is_lost_when_the_gate_reaches_zero() -> None:
    st = state(heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "draugr", "tile": "G"}}, gate_hp=2)
    combat(st)
    assert st.outcome().result == "loss" and "gate" in st.outcome().reason


@pytest.mark.rule("midhalla", "Hitpoints (HP), KO, destroyed & defeated")
def test_all_heroes_ko_loses_and_ko_heroes_leave_the_board() -> None:
    st = state(heroes={"harkon": {"tile": "t1", "hp": 1}, "enyk": {"tile": "t3", "hp": 0}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}})
    combat(st)
    assert st.heroes["harkon"].tile is None
    assert st.outcome().result == "loss" and "KO" in st.outcome().reason


@pytest.mark.rule("midhalla", "Horde")
def test_horde_reduces_attacks_for_each_other_horde_enemy_on_the_tile() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "demon_hound", "tile": "t1"},
                        "e2": {"card": "demon_hound", "tile": "t1"}})
    combat(st, "heroes")
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 2 - 1


@pytest.mark.rule("midhalla", "Dealing Damage to Enemies")
def test_hp_above_ten_is_shown_as_tokens_on_the_ten() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "G"}},
               enemies={"e1": {"card": "troll_brute", "tile": "t3", "hp": 20, "max_hp": 20},
                        "e2": {"card": "demon_bear", "tile": "t2", "hp": 13, "max_hp": 15}})
    board = st.render()
    assert "20/20 HP [HP tokens on the 10: 1x10, token at 10]" in board
    assert "13/15 HP [second HP bar at 1x10, token at 3]" in board


@pytest.mark.rule("midhalla", "3.3 Hero Turns")
def test_players_may_replay_step_3_3_until_step_3_1_starts() -> None:
    # "they may want to replay said actions in a different way instead ... as long as the
    # next step 3.1 has not started yet"
    st = state(heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_slinger", "tile": "t1"},
                        "e2": {"card": "kobold_warrior", "tile": "t3"}})
    combat(st, "heroes")
    start = st.to_json()["position"]
    st.apply("next hero Harkon")
    st.apply("skill top 2 Strike")
    assert REPLAY not in legal(st)  # not within a skill
    st.apply("attack e1")
    st.apply("skill bottom 1 Advance")
    st.apply("move to t2")
    assert legal(st)[0] == "end turn" and REPLAY not in legal(st)  # Enyk has not acted yet
    st.apply("end turn")
    assert "e1" not in st.enemies and st.heroes["harkon"].tile == "t2"
    st.apply("skill top 1 Thorn Dart")  # Enyk: nothing left in range
    st.apply("skill bottom 1 Wander")
    st.apply("stay")
    assert legal(st)[-1] == REPLAY  # the last turn of the step is ending
    ev = st.apply(REPLAY)  # Harkon's turn is taken back too: the whole step
    assert any(e.kind == "replay" and e.section == "3.3 Hero Turns" for e in ev)
    assert {k: v for k, v in st.to_json()["position"].items() if k not in ("choice", "tally")
            } == {k: v for k, v in start.items() if k not in ("choice", "tally")}
    assert st.replays == 1  # counted, so a bot that weighs positions sees the replay's cost
    assert legal(st) == ["next hero Harkon", "next hero Enyk"]  # a different order now
    st.apply("next hero Enyk")
    st.apply("skill top 1 Thorn Dart")
    st.apply("attack e1")
    st.apply("skill bottom 1 Wander")
    st.apply("stay")
    st.apply("end turn")
    st.apply("skill top 1 Cleave")  # Harkon
    st.apply("skip attack")
    st.apply("skill bottom 1 Advance")
    st.apply("stay")
    ev = st.apply("end turn")  # the last turn ends: 3.1 starts, the actions are final
    assert any(e.section == "3.1 Enemy Turns" for e in ev)
    with pytest.raises(IllegalAction) as err:
        st.apply(REPLAY)
    assert err.value.section == "3.3 Hero Turns"


@pytest.mark.rule("midhalla", "3.3 Hero Turns")
def test_the_saved_start_of_3_3_never_shows_deck_contents_in_view() -> None:
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
               enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    combat(st, "heroes")
    assert st.cb["snapshot"]  # kept for a replay
    v = st.view()
    assert "pile" not in str(v["combat"]) and "pile" not in str(v["decks"])


@pytest.mark.rule("midhalla", "Activating Bosses")
def test_boss_on_activation_effects_come_first_even_before_a_moving_action(monkeypatch) -> None:
    # "On Activation Effects (always)" - "All rules for enemies apply to bosses". The authored
    # bear has none, so give it a heal on activation for this test.
    cat = G.content.cat
    bear = cat.enemies["demon_bear"]
    healer = bear.model_copy(update={"on_activation": cat.enemies["troll_brute"].on_activation})
    monkeypatch.setitem(cat.enemies, "demon_bear", healer)
    st = state(players=("harkon",), heroes={"harkon": {"tile": "t3"}},
               enemies={"e1": {"card": "demon_bear", "tile": "t1", "hp": 10, "rotation": 1}})
    ev = combat(st)  # box 3, Lumber, moves first
    kinds = [e.kind for e in ev if e.kind in ("heal", "boss", "move")]
    assert kinds == ["heal", "boss", "move"]
    assert st.enemies["e1"].hp == 11


@pytest.mark.rule("midhalla", "3.3 Hero Turns")
def test_the_setup_may_bound_the_replays_of_step_3_3_per_chapter() -> None:
    # ruling 33a: a bound for bots and search; the default (-1) is the rulebook's "as often
    # as the players like", and a setup without the key is the rulebook's game
    from meadhall.games.midhalla.game import GAME

    assert GAME.new_game(None, 0).setup.get("replay_limit") is None
    assert GAME.default_setup()["replay_limit"] == -1

    def last_turn(st):
        st.apply("next hero Harkon")
        st.apply("skill top 2 Strike")
        st.apply("attack e1")
        st.apply("skill bottom 1 Advance")
        st.apply("stay")
        st.apply("end turn")
        st.apply("skill top 1 Thorn Dart")
        st.apply("skill bottom 1 Wander")
        st.apply("stay")

    def bounded(limit):
        st = state(heroes={"harkon": {"tile": "t1"}, "enyk": {"tile": "t1"}},
                   enemies={"e1": {"card": "kobold_slinger", "tile": "t1"},
                            "e2": {"card": "kobold_warrior", "tile": "t3"}})
        st.setup = {**st.setup, "replay_limit": limit}
        combat(st, "heroes")
        return st

    st = bounded(2)
    for n in (1, 2):
        last_turn(st)
        st.apply(REPLAY)
        assert st.replays == n
    last_turn(st)
    assert REPLAY not in legal(st) and legal(st)[0] == "end turn"
    with pytest.raises(IllegalAction, match="replay_limit") as err:
        st.apply(REPLAY)
    assert err.value.section == "3.3 Hero Turns"
    st = bounded(0)
    last_turn(st)
    assert REPLAY not in legal(st)
    st = bounded(-1)
    for _ in range(5):
        last_turn(st)
        st.apply(REPLAY)
    assert st.replays == 5


def test_a_replay_limit_outside_its_range_is_refused() -> None:
    from meadhall.core.errors import ContentError
    from meadhall.games.midhalla.game import GAME

    with pytest.raises(ContentError, match="replay_limit"):
        GAME.new_game({"replay_limit": -2}, 0)
    st = GAME.new_game({"replay_limit": 3}, 0)
    assert st.setup["replay_limit"] == 3
    assert GAME.from_json(st.to_json()).setup["replay_limit"] == 3
