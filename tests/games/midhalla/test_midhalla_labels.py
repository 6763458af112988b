"""Labels and board targets of legal actions: readable sentences with the rules' numbers."""

from __future__ import annotations

from meadhall import games
from meadhall.bots.random import RandomBot
from meadhall.games.midhalla.testkit import combat, line, paused, run

G = games.get("midhalla")


def described(st) -> dict[str, tuple[str, list[str]]]:
    return {a.text: (a.label, [f"{t}|{t.note}" for t in a.targets])
            for a in st.described_actions()}


def test_hero_attack_label_gives_armor_damage_and_what_is_left() -> None:
    st = paused(
        phase="combat", tiles=line(2, 2),
        heroes={"harkon": {"tile": "t1", "top": ["strike", "cleave", "charge"]},
                "enyk": {"tile": "G"}},
        enemies={"e1": {"card": "draugr", "tile": "t1", "hp": 4},
                 "e2": {"card": "kobold_warrior", "tile": "t1"}})
    combat(st, "heroes")
    st.apply("next hero Harkon")
    st.apply("skill top 1 Strike")
    d = described(st)
    assert d["attack e1"] == (
        "Harkon the Drengr attacks Draugr 1 on t1 (4/4 HP) with Strike: Attack 2 - armor 1 = "
        "1 damage, 3 HP left", ["figure:e1|1 dmg"])
    assert d["attack e2"][0].endswith("evasion absorbs it (0 damage)")
    assert d["attack e2"][1] == ["figure:e2|evaded"]
    assert d["skip attack"] == ("Harkon the Drengr skips the attack of Strike", [])


def test_preparation_labels_name_costs_and_cards() -> None:
    st = paused(phase="preparation", tiles=line(2, 2), silver=6,
                              runestones=5, components=["gear"])
    run(st)
    d = described(st)
    assert d["fortify t2"] == ("Fortify map tile t2 for 3 runestones", ["tile:t2|3 rs"])
    assert d["build Spike Trap on t1"] == (
        "Build a Spike Trap on map tile t1 for 3 silver (3 HP, Attack 1)",
        ["tile:t1|3 silver", "card:trap.spike|"])
    buy = next(t for t in d if t.startswith("buy Iron Shield for Harkon"))
    assert d[buy][1] == ["card:cart.iron_shield|3 silver", "hero:harkon|"]


def test_every_action_of_random_games_has_a_label_and_targets_of_known_kinds() -> None:
    for seed in range(2):
        st = G.new_game({"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora"]}, seed)
        bot = RandomBot(seed)
        for _ in range(400):
            if st.decision() is None:
                break
            for a in st.described_actions():
                assert a.label and a.label != a.text or a.text in ("end turn", "stay")
                assert all(t.kind in ("tile", "space", "figure", "hero", "card", "option")
                           for t in a.targets)
            st.apply(bot.choose(st))
