"""Phase 2: Preparation - spending resources, traps, fortification, positioning."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.core.errors import IllegalAction
from meadhall.games.midhalla.testkit import legal, line, position

G = games.get("midhalla")
R = "midhalla"


def prep(n_tiles: int = 3, fortified: int = 2, players=("harkon", "enyk"), **pos):
    pos.setdefault("tiles", line(n_tiles, fortified))
    return G.from_json(position({"scenario": "chapter1", "heroes": list(players)},
                                phase="preparation", **pos))


@pytest.mark.rule("midhalla", "Buying, selling and exchanging Items")
def test_buy_sell_half_cost_rounded_down_and_exchange() -> None:
    st = prep(silver=6, cart=["iron_shield", "throwing_axe"])
    st.apply("buy Iron Shield for Harkon")
    assert st.silver == 3 and st.heroes["harkon"].items == ["iron_shield"]
    st.apply("sell Iron Shield from Harkon")
    assert st.silver == 4 and "iron_shield" in st.cart  # 3 // 2 = 1
    st.apply("buy Throwing Axe for Enyk")
    st.apply("give Throwing Axe from Enyk to Harkon")
    assert st.heroes["harkon"].items == ["throwing_axe"]


@pytest.mark.rule("midhalla", "Types of Items")
def test_unique_items_cannot_be_sold_but_can_be_exchanged() -> None:
    st = prep(heroes={"harkon": {"items": ["runic_talisman"]}, "enyk": {}})
    acts = legal(st)
    assert "sell Runic Talisman from Harkon" not in acts
    assert "give Runic Talisman from Harkon to Enyk" in acts
    with pytest.raises(IllegalAction) as err:
        st.apply("sell Runic Talisman from Harkon")
    assert err.value.section == "Types of Items" and "unique" in err.value.reason


@pytest.mark.rule("midhalla", "Fortifying Map Tiles")
def test_fortify_costs_one_plus_players_and_needs_a_fortified_neighbour() -> None:
    st = prep(n_tiles=3, fortified=2, runestones=7)
    acts = legal(st)
    assert "fortify t2" in acts and "fortify t3" not in acts
    with pytest.raises(IllegalAction, match="not adjacent"):
        st.apply("fortify t3")
    st.apply("fortify t2")
    assert st.runestones == 7 - 3 and st.tiles["t2"].fortified


@pytest.mark.rule("midhalla", "Fortifying Map Tiles")
def test_fortifying_a_cursed_tile_costs_one_more_and_lifts_the_curse() -> None:
    tiles = line(3, 2)
    tiles["t2"]["curses"] = 1
    st = prep(tiles=tiles, runestones=4)
    st.apply("fortify t2")
    assert st.runestones == 0 and st.tiles["t2"].curses == 0


@pytest.mark.rule("midhalla", "Building Traps")
def test_traps_only_on_fortified_non_gate_tiles_two_per_tile_within_stock() -> None:
    st = prep(n_tiles=3, fortified=2, silver=20)
    acts = legal(st)
    assert "build Spike Trap on t1" in acts
    assert "build Spike Trap on G" not in acts and "build Spike Trap on t2" not in acts
    with pytest.raises(IllegalAction, match="gate"):
        st.apply("build Spike Trap on G")
    with pytest.raises(IllegalAction, match="not fortified"):
        st.apply("build Spike Trap on t2")
    st.apply("build Spike Trap on t1")
    st.apply("build Spike Trap on t1")
    assert st.silver == 14 and st.traps["t1"].hp == 3
    assert "build Spike Trap on t1" not in legal(st)  # never more than two on one tile
    with pytest.raises(IllegalAction, match="two traps"):
        st.apply("build Spike Trap on t1")


@pytest.mark.rule("midhalla", "Building Traps")
def test_trap_stock_limits_building() -> None:
    tiles = line(3, 4)
    st = prep(tiles=tiles, silver=40)
    for where in ("t1", "t1", "t2"):
        st.apply(f"build Spike Trap on {where}")
    assert not any(a.startswith("build spike") for a in legal(st))  # stock 3


@pytest.mark.rule("midhalla", "Upgrading Traps")
def test_upgrades_are_consecutive_and_spend_components() -> None:
    st = prep(runestones=5, components=["gear", "rope", "crystal"],
              traps={"t1": {"kind": "spike", "tile": "t1"}})
    acts = legal(st)
    assert "upgrade t1 paying Gear" in acts
    assert not any("level 3" in a for a in acts)
    st.apply("upgrade t1 paying Gear")
    assert st.traps["t1"].level == 2 and st.runestones == 4
    assert st.components == ["rope", "crystal"]
    assert st.decks["components"].discard == ["gear"]
    assert not any(a.startswith("upgrade t1") for a in legal(st))  # level 3 needs gear+rope


@pytest.mark.rule("midhalla", "Using Trap Components")
def test_question_mark_component_is_any_component_even_special() -> None:
    st = prep(runestones=5, components=["crystal", "rope", "runic_core"],
              traps={"t1": {"kind": "arrow_tower", "tile": "t1", "level": 2}})
    ups = sorted(a for a in legal(st) if a.startswith("upgrade"))
    assert ups == ["upgrade t1 paying Crystal, Rope",
                   "upgrade t1 paying Crystal, Runic Core"]


@pytest.mark.rule("midhalla", "Using Trap Components")
def test_special_components_have_their_effect_in_preparation() -> None:
    st = prep(runestones=0, components=["runic_core"])
    st.apply("use Runic Core")
    assert st.runestones == 2 and st.components == []


@pytest.mark.rule("midhalla", "Upgrading Traps")
def test_special_upgrade_is_done_instead_of_upgrading() -> None:
    st = prep(runestones=5, components=["gear", "gear"],
              traps={"t1": {"kind": "spike", "tile": "t1"}})
    st.apply("special Serrated Blades on t1 paying Gear")
    assert st.traps["t1"].special == "serrated"
    assert not any(a.startswith("upgrade t1") for a in legal(st))


@pytest.mark.rule("midhalla", "Restoring Traps")
def test_restore_for_three_silver_even_destroyed() -> None:
    st = prep(silver=3, traps={"t1": {"kind": "spike", "tile": "t1", "hp": 0}})
    st.apply("restore t1")
    assert st.traps["t1"].hp == 3 and st.silver == 0


@pytest.mark.rule("midhalla", "Removing Traps")
def test_remove_any_trap_for_free_losing_upgrades() -> None:
    st = prep(silver=0, traps={"t1": {"kind": "spike", "tile": "t1", "hp": 0, "level": 2}})
    st.apply("remove t1")
    assert not st.traps and st.silver == 0


@pytest.mark.rule("midhalla", "Reviving/healing Heroes")
def test_one_silver_restores_a_hero_to_full_even_ko() -> None:
    st = prep(silver=2, heroes={"harkon": {"hp": 0}, "enyk": {"hp": 3}})
    st.apply("heal Harkon")
    st.apply("heal Enyk")
    assert st.heroes["harkon"].hp == 6 and st.heroes["enyk"].hp == 4 and st.silver == 0


@pytest.mark.rule("midhalla", "2.1 Spend Resources, exchange Items")
def test_resources_only_in_preparation() -> None:
    st = prep(silver=6)
    st.apply("done preparing")
    with pytest.raises(IllegalAction, match="preparation phase"):
        st.apply("heal Harkon")


@pytest.mark.rule("midhalla", "2.3 Position Heroes")
def test_heroes_are_positioned_on_fortified_tiles_only() -> None:
    st = prep(n_tiles=3, fortified=2, heroes={"harkon": {}, "enyk": {"hp": 0}},
              decks={"enemy": {"name": "enemy", "pile": []}})
    st.apply("done preparing")
    assert st.decision().seat == "harkon"  # the KO hero does not join combat
    assert legal(st) == ["position Harkon on G", "position Harkon on t1"]
    with pytest.raises(IllegalAction, match="fortified"):
        st.apply("position Harkon on t2")
    st.apply("position Harkon on t1")
    assert st.phase == "combat"


@pytest.mark.rule("midhalla", "Upgrading Traps")
def test_upgrade_raises_current_hp_by_the_max_hp_increase() -> None:
    st = prep(runestones=5, components=["gear"],
              traps={"t1": {"kind": "spike", "tile": "t1", "hp": 2}})
    st.apply("upgrade t1 paying Gear")
    assert st.traps["t1"].hp == 3  # max 3 -> 4: +1 (ruling 13)


@pytest.mark.rule("midhalla", "Building Traps")
def test_destroyed_traps_still_count_against_the_stock() -> None:
    tiles = line(3, 4)
    st = prep(tiles=tiles, silver=20, traps={
        "t1": {"kind": "arrow_tower", "tile": "t1", "hp": 0},
        "t2": {"kind": "arrow_tower", "tile": "t2"}})
    assert not any(a.startswith("build arrow_tower") for a in legal(st))
    st.apply("remove t1")
    assert "build Arrow Tower on t1" in legal(st)
