"""Keywords (rulebook list and player aid), the printed values, and the rules sections
that frame the others."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.games.midhalla.testkit import combat, legal, line, paused, position

G = games.get("midhalla")
R = "midhalla"


def fight(players=("harkon", "enyk"), heroes=None, enemies=None, traps=None, step="heroes",
          tiles=None, **pos):
    heroes = {**{h: {} for h in players}, **(heroes or {})}
    st = paused({"scenario": "chapter1", "heroes": list(players)},
                              phase="combat", tiles=tiles or line(3, 1),
                              heroes=heroes, enemies=enemies or {}, traps=traps or {}, **pos)
    ev = combat(st, step)
    return st, ev


@pytest.mark.rule("midhalla", "The Rules")
@pytest.mark.rule("midhalla", "Set up the Main Play Area")
def test_printed_values_are_exact() -> None:
    p = G.content.printed
    assert (p.gate_hp, p.start_silver, p.start_runestones, p.start_components,
            p.start_rare_items) == (20, 6, 5, 5, 2)
    assert (p.restore_cost, p.heal_cost, p.max_traps_per_tile, p.max_exhausted) == (3, 1, 2, 2)
    assert (p.enemy_move, p.boss_move, p.enemy_armor, p.blessing_silver) == (1, 0, 1, 2)


@pytest.mark.rule("midhalla", "Keywords")
def test_the_keyword_list_is_the_printed_one() -> None:
    assert list(G.content.printed.keywords) == [
        "Ally", "Anywhere", "Armor X", "Attack", "Basic Enemy", "Bleed X", "Damage / DMG",
        "Evasion", "Exhaust", "Explored", "Fast", "Fortified", "Follower"]
    assert G.content.printed.keywords["Exhaust"].endswith("Ignore any further exhausts.")


@pytest.mark.rule("midhalla", "Player Aid: Keywords")
@pytest.mark.rule("midhalla", "Follower")
@pytest.mark.rule("midhalla", "Followers")
def test_followers_take_a_turn_count_as_heroes_for_enemies_and_ignore_exhaust() -> None:
    st, ev = fight(players=("harkon",),
                   heroes={"harkon": {"tile": "G"}, "cub": {"tile": "t1"}},
                   enemies={"e1": {"card": "shaman", "tile": "t3"}}, step="enemies")
    assert st.heroes["cub"].follower and st._players() == 1
    # the shaman (targets heroes, range 2) reaches only the cub, which ignores its exhaust
    assert st.heroes["cub"].hp == 2 and st.heroes["harkon"].hp == 6
    assert st.heroes["cub"].exhausted == [] and any("immune" in e.text for e in ev)
    assert legal(st) == ["next hero Harkon", "next hero Demon Cub"]
    st.apply("next hero Demon Cub")
    assert st.decision().seat == "players" and st.decision().section == "Followers"
    assert legal(st) == ["skill top 1 Bite", "skill top 2 Pounce"]  # no items, no ultimates


@pytest.mark.rule("midhalla", "Followers")
def test_a_follower_alone_does_not_keep_the_chapter_going() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1", "hp": 1},
                                              "cub": {"tile": "G"}},
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}}, step="enemies")
    assert st.outcome().result == "loss"  # every hero is KO; the follower does not count


@pytest.mark.rule("midhalla", "Followers")
def test_an_event_can_bring_a_follower() -> None:
    st = G.from_json(position(phase="exploration"))
    st.script = [{"op": "follower", "id": "cub"}]
    from meadhall.games.midhalla.testkit import run
    run(st)
    assert st.heroes["cub"].follower and st.heroes["cub"].hp == 3


@pytest.mark.rule("midhalla", "Ally")
def test_ally_means_another_hero_not_self() -> None:
    st, _ = fight(players=("tora", "enyk"), heroes={"tora": {"tile": "G", "hp": 3},
                                                   "enyk": {"tile": "t1", "hp": 2}},
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    st.apply("next hero Tora")
    st.apply("skill top 3 Sprint")
    st.apply("stay")
    st.apply("skill bottom 3 Rally")  # Heal 1, range 1, ally
    assert legal(st) == ["heal Enyk", "skip heal"]


@pytest.mark.rule("midhalla", "Anywhere")
def test_anywhere_reaches_every_map_tile() -> None:
    st, _ = fight(players=("enyk",), heroes={"enyk": {"tile": "G", "hp": 1}},
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    st.apply("use ultimate Grove Blessing")  # Heal 3 anywhere, twice
    st.apply("heal Enyk")
    assert st.heroes["enyk"].hp == 4


@pytest.mark.rule("midhalla", "Attacks")
@pytest.mark.rule("midhalla", "Attack")
def test_each_attack_of_a_multi_attack_has_its_own_target() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "kobold_slinger", "tile": "t1"},
                           "e2": {"card": "kobold_warrior", "tile": "t1", "evasion": False}})
    st.apply("skill top 1 Cleave")
    st.apply("attack e1")
    assert "e1" not in st.enemies  # 1 HP for one player
    assert legal(st) == ["attack e2", "skip attack"]
    st.apply("attack e2")
    assert st.enemies["e2"].hp == 1


@pytest.mark.rule("midhalla", "Combat Terminology")
@pytest.mark.rule("midhalla", "Turns")
@pytest.mark.rule("midhalla", "Pierce")
def test_pierce_lasts_until_the_end_of_that_units_turn() -> None:
    st, _ = fight(players=("tora", "harkon"),
                  heroes={"tora": {"tile": "t1"}, "harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "draugr", "tile": "t1", "hp": 9, "max_hp": 9}})
    st.apply("next hero Tora")
    st.apply("skill top 2 Spear Thrust")
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 7  # armor pierced
    st.apply("skill bottom 1 Stride")
    st.apply("stay")
    st.apply("end turn")
    st.apply("skill top 2 Strike")  # Harkon's turn: the pierce effect is gone
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 6


@pytest.mark.rule("midhalla", "Retaliate")
def test_hero_retaliate_damages_the_attacking_enemy() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}})
    st.apply("skill top 1 Cleave")
    st.apply("skip attack")
    st.apply("skill bottom 3 Defiance")  # Retaliate 1
    ev = st.apply("end turn")  # 3.1: the warrior attacks Harkon and takes 1 damage back
    assert st.heroes["harkon"].hp == 5 and st.enemies["e1"].hp == 1
    assert any(e.kind == "retaliate" for e in ev)


@pytest.mark.rule("midhalla", "Damage / DMG")
def test_damage_is_not_modified_by_armor_or_evasion() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "G"}}, step="enemies",
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t3", "bleed": 1,
                                  "evasion": True}})
    assert st.enemies["e1"].hp == 1 and st.enemies["e1"].evasion


@pytest.mark.rule("midhalla", "Basic Enemy")
@pytest.mark.rule("midhalla", "Basic Enemies vs. Elite & Bosses")
def test_basic_elite_and_boss_cards_have_their_own_discard() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "kobold_chieftain", "tile": "t1", "hp": 1},
                           "e2": {"card": "kobold_warrior", "tile": "t3"}})
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert st.decks["elite"].discard == ["kobold_chieftain"] and not st.decks["enemy"].discard
    kinds = {e.kind for e in G.content.cat.enemies.values()}
    assert kinds == {"basic", "elite", "boss"}


@pytest.mark.rule("midhalla", "Enemy Cards")
def test_enemy_hp_follows_the_player_count() -> None:
    for n in range(1, 5):
        heroes = ["harkon", "enyk", "tora", "ylva"][:n]
        st = G.from_json(position({"scenario": "chapter1", "heroes": heroes},
                                  phase="preparation", tiles=line(2, 2)))
        st.apply("done preparing")
        (e,) = st.enemies.values()
        assert e.max_hp == G.content.cat.enemies[e.card].hp[n - 1]


@pytest.mark.rule("midhalla", "End of 3.1")
def test_after_every_enemy_the_traps_take_their_turns() -> None:
    st, ev = fight(heroes={"harkon": {"tile": "G"}}, step="enemies",
                   tiles=line(3, 2), enemies={"e1": {"card": "kobold_slinger", "tile": "t3"}},
                   traps={"t7": {"kind": "arrow_tower", "tile": "t1"}})
    kinds = [e.text for e in ev if e.kind == "step"]
    assert kinds[:3] == ["3.1 Enemy turns (tile activation order: G, t1, t2, t3)",
                         "Every enemy has activated",
                         "3.2 Trap turns (tile activation order: G, t1, t2, t3)"]
    assert st.enemies["e1"].hp == 1  # the arrow tower reached t2


@pytest.mark.rule("midhalla", "Player Activation token")
def test_activation_token_flips_when_a_hero_is_done() -> None:
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "G"}},
                  enemies={"e1": {"card": "kobold_warrior", "tile": "t3"}})
    st.apply("skill top 1 Cleave")
    st.apply("skill bottom 2 Guard")
    ev = st.apply("end turn")
    assert any("activation token inactive" in e.text for e in ev)


@pytest.mark.rule("midhalla", "Hero Tableau")
def test_hero_tableaus_have_rows_ultimates_and_an_hp_die() -> None:
    for h in G.content.cat.heroes.values():
        assert 1 <= h.max_hp <= 6  # a six-sided HP die
        assert h.top and h.bottom and h.ultimates
    names = [h.name for h in G.content.cat.heroes.values()]
    assert "Harkon the Drengr" in names and "Enyk the Herbalist" in names


@pytest.mark.rule("midhalla", "Explored")
def test_a_placed_map_tile_is_explored_and_its_path_is_closed() -> None:
    st = G.from_json(position(phase="exploration"))
    st.force("2")
    st.apply("explore A")
    assert "1A" in st.tiles and "explore A" not in legal(st)


@pytest.mark.rule("midhalla", "Fortified")
@pytest.mark.rule("midhalla", "Gate Map tile")
def test_gate_and_its_neighbours_start_fortified_and_no_spawn_there() -> None:
    st = G.from_json(position(phase="preparation"))
    st.apply("done preparing")
    assert not st.enemies  # only the dungeon board: all three tiles fortified
    assert legal(st) == ["position Harkon on G", "position Harkon on L", "position Harkon on R"]


@pytest.mark.rule("midhalla", "Curse")
def test_a_chapter_event_can_curse_the_tile_just_explored() -> None:
    st = G.from_json(position({"scenario": "chapter2", "heroes": ["harkon"]},
                              phase="exploration"))
    st.script = [{"op": "curse"}]
    st.here = "G"
    st.choice = None
    from meadhall.games.midhalla.testkit import run
    ev = run(st)
    assert st.tiles["G"].curses == 0 and "no effect" in ev[0].text  # fortified


@pytest.mark.rule("midhalla", "Dara's Cart")
def test_daras_cart_starts_with_all_commons_and_two_rares() -> None:
    st = G.new_game({"scenario": "chapter1", "heroes": ["harkon"]})
    commons = {i for i, d in G.content.cat.items.items() if d.kind == "common"}
    assert commons <= set(st.cart)
    rares = [i for i in st.party["unlocks"]["items"] if G.content.cat.items[i].kind == "rare"]
    assert len(st.decks["items"]) == len(rares) - 2


@pytest.mark.rule("midhalla", "Game Overview")
@pytest.mark.rule("midhalla", "Phase 2: Preparation")
@pytest.mark.rule("midhalla", "Phase 4: Rewards")
def test_a_whole_chapter_runs_through_the_four_phases_in_order() -> None:
    st = G.new_game({"scenario": "chapter1", "heroes": ["harkon"]}, seed=0,
                    auto_choices=True)
    phases: list[str] = []
    for _ in range(3000):
        if st.outcome().over:
            break
        if not phases or phases[-1] != st.phase:
            phases.append(st.phase)
        acts = legal(st)
        pick = next((a for a in acts if a.startswith("attack")), None) or next(
            (a for a in acts if a in ("done preparing", "end turn", "stay")), acts[0])
        st.apply(pick)
    assert phases == ["setup", "exploration", "preparation", "position", "combat", "rewards",
                      "exploration", "preparation", "position", "combat"]
    assert st.outcome().over
