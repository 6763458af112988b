"""The enemies' turn: time, events, AI activation, enemy attack, movement, sight
(Enemies Turn; Enemy Actions; Clarifications; Special Enemies; Victory or Defeat)."""

from __future__ import annotations

import pytest
from runaljod_kit import foe, make, put, sq, texts

from meadhall.core import grid
from meadhall.core.deck import Deck
from meadhall.core.protocol import PLAYERS


def two(rows=None):
    st = make(rows or ["........", "........", "........", "........"])
    put(st, "berserk", "A1")
    put(st, "volva", "A4")
    return st


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_time_phase_on_a_snake_discards_the_active_card() -> None:
    st = two()
    st.active_card = "s_ford"
    st.time = 3
    st.time_phase([])
    assert st.time == 4 and st.active_card == ""


@pytest.mark.rule("runaljod", "Victory or Defeat")
def test_time_token_overlapping_the_end_marker_loses() -> None:
    st = two()
    st.time = st.end - 1
    st.time_phase([])
    assert st.outcome().result == "loss"


@pytest.mark.rule("runaljod", "Victory or Defeat")
@pytest.mark.rule("runaljod", "Goal of the Game")
def test_defeating_the_final_enemy_of_the_stage_card_wins() -> None:
    st = two()
    st.cards_played.append("c_hall")
    e = foe(st, "jotun", "B1")
    st.hurt_enemy(e, 99, st.heroes["berserk"], "test", "test", [])
    assert st.outcome().result == "win"


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_event_phase_only_without_an_active_exploration_card() -> None:
    st = two()
    st.active_card = "s_ford"
    ev = []
    st.event_phase(ev)
    assert len(st.event_deck.discard) == 0
    st.active_card = ""
    st.force("blessing")
    st.heroes["berserk"].damage = 2
    st.event_phase([])
    assert st.heroes["berserk"].damage == 1 and st.event_deck.discard == ["blessing"]


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_or_cards_apply_the_top_only_with_enemies_in_play() -> None:
    st = two()
    st.force("ill_omen")
    st.event_phase([])  # no enemy: bottom half, every hero gains 1 glory
    assert st.heroes["berserk"].glory == 1 and st.time == 0
    foe(st, "clan_warrior", "H4")
    st.force("ill_omen")
    st.event_deck = Deck("event", ["ill_omen"])
    st.event_phase([])
    assert st.time == 1


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_event_with_circles_stays_until_resolved_once_per_circle() -> None:
    st = two()
    st.event_deck = Deck("event", ["long_night", "blessing"])
    st.force("long_night")
    st.event_phase([])
    assert st.active_event == ["long_night", 1]
    st.heroes["berserk"].conditions.clear()
    st.event_phase([])
    assert st.active_event == [] and st.event_deck.discard == ["long_night"]
    assert "frozen" in st.heroes["berserk"].conditions


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_activation_follows_the_ai_card_groups_and_players_choose_within_a_group() -> None:
    st = two()
    foe(st, "clan_warrior", "H1")
    foe(st, "clan_warrior", "H4")
    foe(st, "northern_wolf", "G2")
    st.ai_deck = Deck("enemy AI", ["ai1"])
    st.phase, st.estage = "enemies", "activation"
    st.force("blank")  # not needed: keep rolls explicit below
    st.chance.queue.clear()
    st.active = ""
    st._advance([])
    # ai1: wolves first (the players pick among equally good spaces), then clan warriors
    assert st.decision().prompt.startswith("Northern Wolf 3 at G2 toward Volva")
    ev = st.apply(st.decision().default)
    assert any(e.kind == "move" and "Northern Wolf" in e.text for e in ev)
    d = st.decision()
    assert d.seat == PLAYERS and d.kind == "choice"
    assert texts(st) == ["activate clan warrior at H1", "activate clan warrior at H4"]
    assert d.default in texts(st)


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_condition_tokens_on_enemies_apply_when_activated() -> None:
    st = two()
    e = foe(st, "clan_warrior", "H1")
    e.conditions = ["stun", "wound"]
    st.begin_activation(e, ev := [])
    assert "stunned" in st.ai_flags and e.damage == 2 and e.conditions == []
    assert any("stunned" in x.text for x in ev)


@pytest.mark.rule("runaljod", "Enemies Turn")
def test_impossible_actions_are_skipped_and_the_ai_deck_reshuffles() -> None:
    st = two()
    foe(st, "clan_hunter", "H4")
    st.ai_deck = Deck("enemy AI", [], discard=["ai5"])
    st.phase, st.estage = "enemies", "activation"
    st.force("blank", "blank")
    ev: list = []
    st.activation_phase(ev)
    assert st.ai_deck.discard == ["ai5"]  # reshuffled and drawn again


@pytest.mark.rule("runaljod", "Enemy Actions")
def test_targets_follow_the_hero_icons_in_order() -> None:
    st = two()
    e = foe(st, "clan_warrior", "B2")  # adjacent to the Berserk at A1 only
    assert st.attack_target(e, ["volva", "berserk"]).id == "berserk"  # Volva not adjacent
    put(st, "volva", "C2")
    assert st.attack_target(e, ["volva", "berserk"]).id == "volva"
    assert st.move_target(e, ["hunter", "volva"]).id == "volva"  # Hunter not in play


@pytest.mark.rule("runaljod", "Movement")
def test_example_clan_warrior_moves_through_an_allied_miniature() -> None:
    """Rulebook example: the clan warrior's route runs through another enemy (an ally)."""
    st2 = make(["#.#.....", "#.#.....", "#.#....."])
    put(st2, "berserk", "B1")
    put(st2, "volva", "H3")
    foe(st2, "clan_warrior", "B2")
    mover = foe(st2, "clan_warrior", "B3")
    opts, why = st2.move_options(mover, ["berserk"])
    assert opts == [(sq("B3"),)] and "no route" in why  # it cannot end on its ally: stays
    st3 = make(["#.#.....", "#.#.....", "#.#.....", "#.#....."])
    put(st3, "berserk", "B1")
    put(st3, "volva", "H4")
    foe(st3, "clan_warrior", "B3")  # ally in the one-square corridor
    mover = foe(st3, "clan_warrior", "B4")
    opts, why = st3.move_options(mover, ["berserk"])
    assert opts == [(sq("B2"),)]  # through the ally to the space next to the Berserk


@pytest.mark.rule("runaljod", "Clarifications")
def test_enemies_end_next_to_the_most_heroes_and_players_break_ties() -> None:
    st = make(["......", "......", "......", "......"])
    put(st, "berserk", "A1")
    put(st, "volva", "C1")
    e = foe(st, "clan_warrior", "B4")
    opts, _ = st.move_options(e, ["berserk"])
    assert opts == [(sq("B2"),)]  # adjacent to both heroes
    st2 = make(["......", "......", "......", "......"])
    put(st2, "berserk", "C1")
    put(st2, "volva", "F4")
    e2 = foe(st2, "clan_warrior", "C4")
    opts, _ = st2.move_options(e2, ["berserk"])
    assert opts == [(sq("B2"),), (sq("C2"),), (sq("D2"),)]
    st2.enemy_action(e2, st2.content.ai_decks["common"]["ai1"].groups[1].actions[0], [])
    assert st2.decision().seat == PLAYERS and st2.decision().default == "move clan warrior to B2"


@pytest.mark.rule("runaljod", "Movement")
def test_enemies_never_move_through_damaging_spaces() -> None:
    st = make(["#.#...", "#.#...", "#.#...", "#.#..."])
    put(st, "berserk", "B1")
    put(st, "volva", "F4")
    st.bonfires = [sq("B3")]
    e = foe(st, "clan_warrior", "B4")
    opts, why = st.move_options(e, ["berserk"])
    assert opts == [(sq("B4"),)] and "no route" in why  # the only route crosses the bonfire


@pytest.mark.rule("runaljod", "Movement")
def test_far_target_moves_as_close_as_possible_along_the_shortest_route() -> None:
    st = make(["..........", "..........", ".........."])
    put(st, "berserk", "A1")
    put(st, "volva", "A3")
    e = foe(st, "clan_warrior", "J1")
    opts, _ = st.move_options(e, ["berserk"])
    # 3 spaces closer on any row; every one equally close to both heroes: players choose
    assert opts == [(sq("G1"),), (sq("G2"),), (sq("G3"),)]


@pytest.mark.rule("runaljod", "Sight")
def test_sight_moves_to_the_nearest_space_seeing_the_target_and_skips_if_seen() -> None:
    st = make(["......", "..#...", "......"])
    put(st, "berserk", "A2")
    put(st, "volva", "F3")
    e = foe(st, "clan_hunter", "E2")
    assert not st.sees(e.at, sq("A2"))  # the rocks at C2
    opts, why = st.sight_options(e, ["berserk"])
    reach = st.reach(e)
    seeing = [s for s in reach if st.enemy_can_end(e, s) and st.sees(s, sq("A2"))]
    best = min(reach[s] for s in seeing)
    assert opts and all(st.sees(o, sq("A2")) and reach[o] == best for (o,) in opts)
    e.at = opts[0][0]
    assert st.sight_options(e, ["berserk"]) == ([], "it already sees Berserk")
    st2 = make(["..#...", "..#...", "..#..."])
    put(st2, "berserk", "A2")
    put(st2, "volva", "A3")
    h = foe(st2, "clan_hunter", "E2")
    opts, why = st2.sight_options(h, ["berserk"])
    assert opts == [] and "no space" in why


@pytest.mark.rule("runaljod", "Special Enemies")
def test_special_enemies_use_their_own_ai_deck_after_the_common_card() -> None:
    st = two()
    foe(st, "jotun", "H2")
    foe(st, "clan_warrior", "H4")
    st.force("ai1", "jo2")
    st.chance.queue[:0] = []
    st.phase, st.estage = "enemies", "activation"
    ev: list = []
    st.force(*(["blank"] * 12))
    st.run_enemies(ev)
    while st.ask is not None and st.ask["seat"] == PLAYERS:
        ev += st.apply(st.decision().default)
    ai = [e.text for e in ev if e.kind == "ai"]
    assert [t.split(":")[0] for t in ai] == ["Enemy AI card 1",
                                             "Special enemy AI card 2 (frost jotun AI)"]
    assert ai[0].startswith("Enemy AI card 1: Northern Wolf: move (Hunter/Volva/Warrior/"
                            "Berserk), then attack (Hunter/Volva/Warrior/Berserk); Clan "
                            "Warrior: move")


@pytest.mark.rule("runaljod", "Keywords")
@pytest.mark.rule("runaljod", "Howl")
def test_howl_costs_heroes_within_three_spaces_a_life_point() -> None:
    st = make(["........", "........"])
    put(st, "berserk", "D1")
    put(st, "volva", "H2")
    e = foe(st, "northern_wolf", "A1")
    st.howl(e, [])
    assert st.heroes["berserk"].damage == 1 and st.heroes["volva"].damage == 0


@pytest.mark.rule("runaljod", "Victory or Defeat")
def test_end_marker_meeting_the_time_token_loses() -> None:
    st = two()
    h = st.heroes["berserk"]
    st.lose_life(h, 99, "test", "test", [])
    st.time = st.end - 1
    st.force("up", "up", "up", "up")
    st.raise_hero(h, 0, [], "test")
    assert st.end == st.time and st.outcome().result == "loss"


@pytest.mark.rule("runaljod", "Movement")
def test_large_enemy_counts_from_its_closer_space_and_stops_on_two_spaces() -> None:
    st = make(["..........", "..........", "..........", ".........."])
    put(st, "berserk", "A2")
    put(st, "volva", "A4")
    j = foe(st, "jotun", "H2")
    j.also = sq("I2")
    assert st.lead(j, sq("A2")) == sq("H2")
    opts, why = st.move_options(j, ["berserk"])
    # 3 movement points from H2: the closer space reaches E-column, the base must end on two
    # orthogonally adjacent free spaces
    assert opts and all(len(fp) == 2 and grid.manhattan(*fp) == 1 for fp in opts)
    # the counted space reaches column E (3 spaces); the rest of the base may lie beside it
    assert all(max(q[0] for q in fp) >= 4 for fp in opts)
    assert min(min(q[0] for q in fp) for fp in opts) == 3
    st.move_enemy(j, opts[0], why, [])
    assert st.enemy_at(opts[0][0]) is j and st.enemy_at(opts[0][1]) is j


@pytest.mark.rule("runaljod", "Terrain")
def test_large_enemies_ignore_difficult_terrain_unless_their_whole_base_is_on_it() -> None:
    st = make(["gg........", "gg........"])
    put(st, "berserk", "J1")
    put(st, "volva", "J2")
    j = foe(st, "jotun", "B1")
    j.also = sq("C1")
    cost = st.enemy_cost_fn(j)
    assert cost(sq("B1"), sq("B2")) == 1  # C1 is not difficult: not affected
    j.at, j.also = sq("A1"), sq("B1")
    cost = st.enemy_cost_fn(j)
    assert cost(sq("B1"), sq("C1")) == 2  # the whole base on difficult terrain
    w = foe(st, "clan_warrior", "A2")
    assert st.enemy_cost_fn(w)(sq("B2"), sq("C2")) == 2


@pytest.mark.rule("runaljod", "Attack")
def test_large_enemy_target_space_and_area_hit_it_once() -> None:
    st = make(["......", "......", "......"])
    put(st, "volva", "C3")
    put(st, "berserk", "F3")
    j = foe(st, "jotun", "C1")
    j.also = sq("D1")
    targets = st.attack_targets(st.heroes["volva"], "staff", [])
    assert targets == [sq("C1"), sq("D1")]
    st.force("axe", "axe")  # the staff's two white dice
    st.start_hero_attack(st.heroes["volva"], sq("D1"), "staff", False, [], ["area"], [])
    assert j.damage == 4 - 2  # once, although both of its spaces are in the area
