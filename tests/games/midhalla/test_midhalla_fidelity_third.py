"""Rule fidelity, third pass (issue 20): each situation built by hand through the position
format and compared with the rulebook text; each test names the class it pins."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import ContentError
from meadhall.games.midhalla.heroes import REPLAY
from meadhall.games.midhalla.testkit import combat, legal, line, paused, position, run

G = games.get("midhalla")
R = "midhalla"
HP_KO = "Hitpoints (HP), KO, destroyed & defeated"


def fight(players=("harkon", "enyk"), heroes=None, enemies=None, traps=None, step="heroes",
          tiles=None, **pos):
    heroes = {**{h: {} for h in players}, **(heroes or {})}
    st = paused({"scenario": "chapter1", "heroes": list(players)}, phase="combat",
                tiles=tiles or line(3, 1), heroes=heroes, enemies=enemies or {},
                traps=traps or {}, **pos)
    ev = combat(st, step)
    return st, ev


# ------------------------------------------------------------------ a KO hero does nothing
@pytest.mark.rule(R, HP_KO)
@pytest.mark.rule(R, "Retaliate")
def test_a_hero_the_attack_ko_d_deals_no_retaliate_damage() -> None:
    # "A hero with 0 HP will never participate or join in combat"
    st, ev = fight(heroes={"harkon": {"tile": "t1", "hp": 1, "retaliate": 1},
                           "enyk": {"tile": "G"}},
                   enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}}, step="enemies")
    assert st.heroes["harkon"].ko
    assert st.enemies["e1"].hp == st.enemies["e1"].max_hp  # no retaliate from the KO hero
    assert not any(e.kind == "retaliate" for e in ev)
    # the same attack on a hero who stays up is answered
    st, ev = fight(heroes={"harkon": {"tile": "t1", "hp": 2, "retaliate": 1},
                           "enyk": {"tile": "G"}},
                   enemies={"e1": {"card": "kobold_warrior", "tile": "t1"}}, step="enemies")
    assert st.heroes["harkon"].hp == 1 and st.enemies["e1"].hp == st.enemies["e1"].max_hp - 1


@pytest.mark.rule(R, HP_KO)
@pytest.mark.rule(R, "Exhaust")
def test_no_exhaust_question_for_a_hero_the_attack_ko_d() -> None:
    # the shaman (range 2, Attack 1, linked exhaust) reaches only Harkon on t1
    st, ev = fight(heroes={"harkon": {"tile": "t1", "hp": 1}, "enyk": {"tile": "G"}},
                   enemies={"e1": {"card": "shaman", "tile": "t3"}}, step="enemies")
    assert st.heroes["harkon"].ko and st.heroes["harkon"].exhausted == []
    assert st.decision().section == "Hero Turn and activating Skills"  # Enyk's turn, no ask
    assert legal(st)[:3] == ["skill top 1 Thorn Dart", "skill top 2 Mend",
                             "skill top 3 Venom Dart"]
    # a hero who stays up is asked which skill is blocked, among all six
    st, _ = fight(heroes={"harkon": {"tile": "t1", "hp": 3}, "enyk": {"tile": "G"}},
                  enemies={"e1": {"card": "shaman", "tile": "t3"}}, step="enemies")
    assert legal(st) == ["exhaust top 1 Cleave", "exhaust top 2 Strike", "exhaust top 3 Charge",
                         "exhaust bottom 1 Advance", "exhaust bottom 2 Guard",
                         "exhaust bottom 3 Defiance"]


@pytest.mark.rule(R, HP_KO)
@pytest.mark.rule(R, "Retaliate")
def test_an_enemy_the_attack_defeated_does_not_retaliate() -> None:
    # "Once a unit's HP reach 0, it becomes inactive": the troll brute (Retaliate 1) that
    # Harkon's Strike defeats answers nothing; one that survives does
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "troll_brute", "tile": "t1", "hp": 2}})
    st.apply("skill top 2 Strike")
    ev = st.apply("attack e1")
    assert "e1" not in st.enemies and st.heroes["harkon"].hp == 6
    assert not any(e.kind == "retaliate" for e in ev)
    st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                  enemies={"e1": {"card": "troll_brute", "tile": "t1", "hp": 5}})
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 3 and st.heroes["harkon"].hp == 5


# ------------------------------------------------------------------ replaying 3.3
def _enyk_passes(st) -> None:
    st.apply("next hero Enyk")
    st.apply("skill top 1 Thorn Dart")
    st.apply("skip attack")
    st.apply("skill bottom 1 Wander")
    st.apply("stay")
    st.apply("end turn")


@pytest.mark.rule(R, "3.3 Hero Turns")
@pytest.mark.rule(R, HP_KO)
def test_replay_is_offered_when_the_last_hero_is_ko_d_during_his_own_turn() -> None:
    # "as long as the next step 3.1 has not started yet": a KO ends the turn, not the step
    st, _ = fight(heroes={"harkon": {"tile": "t1", "hp": 1}, "enyk": {"tile": "G"}},
                  enemies={"e1": {"card": "troll_brute", "tile": "t1", "hp": 5}})
    start = st.to_json()["position"]
    _enyk_passes(st)
    st.apply("skill top 2 Strike")
    ev = st.apply("attack e1")  # the troll's retaliate KOs Harkon, the last hero to act
    assert st.heroes["harkon"].ko and not any(e.section == "3.1 Enemy Turns" for e in ev)
    assert legal(st) == ["end turn", REPLAY]
    assert st.decision().section == "3.3 Hero Turns"
    st.apply(REPLAY)
    assert {k: v for k, v in st.to_json()["position"].items() if k not in ("choice", "tally")
            } == {k: v for k, v in start.items() if k not in ("choice", "tally")}
    assert legal(st) == ["next hero Harkon", "next hero Enyk"]
    # played the same way again and ended: 3.1 starts
    _enyk_passes(st)
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    ev = st.apply("end turn")
    assert any(e.section == "3.1 Enemy Turns" for e in ev)


@pytest.mark.rule(R, "3.3 Hero Turns")
def test_a_hero_ko_d_before_the_last_turn_just_hands_over() -> None:
    st, _ = fight(heroes={"harkon": {"tile": "t1", "hp": 1}, "enyk": {"tile": "G"}},
                  enemies={"e1": {"card": "troll_brute", "tile": "t1", "hp": 5}})
    st.apply("next hero Harkon")
    st.apply("skill top 2 Strike")
    st.apply("attack e1")
    assert st.heroes["harkon"].ko
    assert legal(st)[:3] == ["skill top 1 Thorn Dart", "skill top 2 Mend",
                             "skill top 3 Venom Dart"]  # Enyk's turn begins at once


# ------------------------------------------------------------------ global events
def global_event(n: str, setup=None, **pos):
    pos.setdefault("here", "L")
    st = G.from_json(position(setup, phase="exploration", explored_in_cycle=0, **pos))
    st.script = [{"op": "global", "n": n}]
    ev = run(st)
    return st, ev


@pytest.mark.rule(R, "Global Events")
@pytest.mark.rule(R, HP_KO)
def test_global_19_the_lowest_hp_includes_the_ko_d_hero() -> None:
    # "All but the hero with the lowest HP suffer one damage": a KO hero has 0 HP
    setup = {"scenario": "chapter1", "heroes": ["harkon", "enyk", "tora"]}
    st, _ = global_event("19", setup, silver=0, heroes={
        "harkon": {"hp": 0}, "enyk": {"hp": 2}, "tora": {"hp": 2}})
    assert [st.heroes[h].hp for h in ("harkon", "enyk", "tora")] == [0, 1, 1]
    # two KO heroes tie at 0: nothing to choose, both standing heroes suffer the damage
    st, _ = global_event("19", setup, silver=0, heroes={
        "harkon": {"hp": 0}, "enyk": {"hp": 0}, "tora": {"hp": 3}})
    assert not any(a.startswith("spare") for a in legal(st))
    assert st.heroes["tora"].hp == 2


@pytest.mark.rule(R, "Global Events")
@pytest.mark.rule(R, "Building Traps")
def test_global_19_never_builds_a_third_trap_on_a_tile() -> None:
    # "ignoring normal placement rules" - but "There can never be more than two traps on one
    # map tile" (Building Traps)
    st, ev = global_event("19", silver=5, heroes={"harkon": {"hp": 4}, "enyk": {"hp": 3}},
                          traps={"t1": {"kind": "spike", "tile": "L"},
                                 "t2": {"kind": "arrow_tower", "tile": "L"}})
    assert not any(a.startswith("build") for a in legal(st))
    assert any("never be more than two traps" in e.text for e in ev)
    # one standing trap (and one destroyed, which no longer counts): the spike trap is offered
    st, _ = global_event("19", silver=5, heroes={"harkon": {"hp": 4}, "enyk": {"hp": 3}},
                         traps={"t1": {"kind": "spike", "tile": "L"},
                                "t2": {"kind": "arrow_tower", "tile": "L", "hp": 0}})
    assert legal(st) == ["build Spike Trap on L for 3 silver", "do not build"]
    # the gate map tile: "You can never build traps on the gate map tile"
    st, ev = global_event("19", here="G", silver=5,
                          heroes={"harkon": {"hp": 4}, "enyk": {"hp": 3}})
    assert not any(a.startswith("build") for a in legal(st))


@pytest.mark.rule(R, "Building Traps")
def test_a_save_with_three_traps_on_a_tile_is_refused_naming_the_field() -> None:
    bad = position(phase="preparation", traps={
        "t1": {"kind": "spike", "tile": "L"}, "t2": {"kind": "spike", "tile": "L"},
        "t3": {"kind": "arrow_tower", "tile": "L"}})
    with pytest.raises(ContentError, match=r"traps.*more than 2 traps on map tile L"):
        G.from_json(bad)


@pytest.mark.rule(R, "Global Events")
@pytest.mark.rule(R, "Followers")
def test_global_10_and_12_send_the_cub_away() -> None:
    # 10: "walks back into the tunnels, not to be seen again"; 12: "disappearing into the
    # darkness"
    for n in ("10", "12"):
        st, ev = global_event(n, script=[])
        st.script = [{"op": "follower", "id": "cub"}, {"op": "global", "n": n}]
        ev = run(st)
        assert "cub" not in st.heroes
        assert any(e.text == "Demon Cub leaves the party and is no longer a follower"
                   for e in ev)
    # through Tier 2 event 3: the cub joins, then global 10 sends it away
    st, _ = global_event("18")
    st.script = [{"op": "draw_event", "deck": "tier2"}]
    st.decks["tier2"].pile = ["3"]
    run(st)
    st.apply("protect the cub (it follows you this chapter; read global event 10)")
    assert set(st.heroes) == {"harkon", "enyk"}


@pytest.mark.rule(R, "Global Events")
def test_content_refuses_an_unknown_follower() -> None:
    from meadhall.games.midhalla.content import Op, check_ops
    with pytest.raises(ContentError, match="unknown follower 'wolf'"):
        check_ops(G.content.cat, G.content.printed, "test",
                  [Op.model_validate({"op": "follower_leaves", "id": "wolf"})])


@pytest.mark.rule(R, "Events, Global Events, Quests and the Quest Board")
@pytest.mark.rule(R, "2.2 Spawn Enemies")
def test_tier1_event_11_fight_takes_the_root_spawn_card_from_the_enemy_deck() -> None:
    st, _ = global_event("18")
    st.decks["enemy"].pile = ["kobold_warrior", "root_spawn", "root_spawn"]
    st.decks["tier1"].pile = ["11"]
    st.script = [{"op": "draw_event", "deck": "tier1"}]
    run(st)
    ev = st.apply("fight it")
    assert [e.card for e in st.enemies.values()] == ["root_spawn"]
    assert sorted(st.decks["enemy"].pile) == ["kobold_warrior", "root_spawn"]
    assert any(e.text == "The Root Spawn card is taken from the enemy deck" for e in ev)
    # defeated, its card goes to the discard: the deck still holds two Root Spawn cards
    (eid,) = st.enemies
    st._damage_enemy(eid, 99, [], "test")
    assert st.decks["enemy"].cards().count("root_spawn") + st.decks["enemy"].discard.count(
        "root_spawn") == 2


@pytest.mark.rule(R, "2.2 Spawn Enemies")
def test_a_named_spawn_with_no_card_left_spawns_nothing() -> None:
    st, _ = global_event("18", enemies={"e1": {"card": "root_spawn", "tile": "L"},
                                        "e2": {"card": "root_spawn", "tile": "L"}})
    st.decks["enemy"].pile = ["kobold_warrior"]
    st.decks["enemy"].discard = []
    st.script = [{"op": "spawn", "enemy": "root_spawn", "where": "here"}]
    ev = run(st)
    assert len(st.enemies) == 2
    assert any("No Root Spawn card is left" in e.text for e in ev)
    # from the discard pile when the draw pile has none
    st, _ = global_event("18")
    st.decks["enemy"].pile = ["kobold_warrior"]
    st.decks["enemy"].discard = ["root_spawn"]
    st.script = [{"op": "spawn", "enemy": "root_spawn", "where": "here"}]
    run(st)
    assert st.decks["enemy"].discard == [] and len(st.enemies) == 1


# ------------------------------------------------------------------ worked examples
@pytest.mark.rule(R, "Turns")
@pytest.mark.rule(R, "Pierce")
def test_pierce_example_lasts_for_later_attacks_of_the_turn_and_is_gone_when_a_trap_activates(
) -> None:
    # "the Pierce effect lasts until the end of the turn, allowing a hero or trap using it to
    # ignore armor until the end of their individual turn. Once any other hero or trap
    # activates, the pierce effect is gone." The draugr has armor 1.
    st, _ = fight(players=("tora",), tiles=line(3, 3),
                  heroes={"tora": {"tile": "t2", "items": ["throwing_axe"]}},
                  enemies={"e1": {"card": "draugr", "tile": "t2", "hp": 9, "max_hp": 9}},
                  traps={"t1": {"kind": "arrow_tower", "tile": "t1"}})
    st.apply("skill top 2 Spear Thrust")
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 7  # Attack 2, armor pierced
    st.apply("skill bottom 1 Stride")
    st.apply("stay")
    st.apply("use item Throwing Axe")  # a later attack of the same turn
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 6  # Attack 1, still pierced: 1 damage
    ev = st.apply("end turn")
    # 3.1: the draugr (target: gate) steps to t1; 3.2: the arrow tower activates and its
    # Attack 1 meets the armor again - Tora's pierce is gone
    assert st.enemies["e1"].tile == "t1" and st.enemies["e1"].hp == 6
    assert any(e.text == "Arrow Tower 1 attacks Draugr 1 for 1 (armor 1): 0 damage" for e in ev)


@pytest.mark.rule(R, "Attacks")
@pytest.mark.rule(R, "Targeting")
def test_cleave_2_attack_1_offers_both_live_enemies_to_each_attack() -> None:
    # "He must choose a target for each of the attacks, which could be the same or different
    # targets" (Attacks); "2*Attack 1 ... Each of these can be targeting a different or the
    # same enemy" (Targeting)
    def start():
        st, _ = fight(players=("harkon",), heroes={"harkon": {"tile": "t1"}},
                      enemies={"e1": {"card": "draugr", "tile": "t1", "hp": 3, "max_hp": 3},
                               "e2": {"card": "root_spawn", "tile": "t1", "hp": 2,
                                      "max_hp": 2}})
        st.apply("skill top 1 Cleave")
        return st
    st = start()
    assert legal(st) == ["attack e1", "attack e2", "skip attack"]  # the first Attack 1
    st.apply("attack e2")
    assert st.enemies["e2"].hp == 1
    assert legal(st) == ["attack e1", "attack e2", "skip attack"]  # the second Attack 1
    st.apply("attack e1")
    assert st.enemies["e1"].hp == 3 and st.enemies["e2"].hp == 1  # the draugr's armor 1
    st = start()
    st.apply("attack e2")
    st.apply("attack e2")  # the same target twice
    assert "e2" not in st.enemies
    assert legal(st)[:3] == ["skill bottom 1 Advance", "skill bottom 2 Guard",
                             "skill bottom 3 Defiance"]
