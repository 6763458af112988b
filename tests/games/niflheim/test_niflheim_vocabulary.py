"""The action vocabulary: finite, fixed order, every legal action in it; undead numbers bounded
by the scenario's forces."""

from __future__ import annotations

from typing import Any

from meadhall.games.niflheim import GAME, campaign
from meadhall.games.niflheim.testkit import open_map, position
from meadhall.games.niflheim.vocabulary import max_undead


def test_vocabulary_is_fixed_finite_and_unique() -> None:
    v = GAME.action_vocabulary(None)
    assert v == GAME.action_vocabulary({"scenario": "1"})
    assert len(v) == len(set(v)) and len(v) < 20_000
    assert v[:4] == ["declare stationary", "declare walking", "declare running",
                     "end activation"]
    assert all(t == " ".join(t.split()) and not t.startswith("!") for t in v)
    assert len({t.lower() for t in v}) == len(v)
    camp = GAME.action_vocabulary({"campaign": True})
    assert set(v) <= set(camp) and "play scenario 5" in camp
    assert "end the interim stage" not in v


def test_vocabulary_covers_attacks_with_skills_cover_and_co_op() -> None:
    setup = {"scenario": "5", "heroes": ["frida", "killian"],
             "players": {"ann": ["frida"], "bo": ["killian"]}}
    v = set(GAME.action_vocabulary(setup))
    assert "cover: shield maiden attack undead 3 with seax (off hand) using blade flurry" in v
    assert "bo controls gunnar" in v and "pass a holy water phial to shield maiden" in v
    top = max_undead(GAME.content.scenarios["5"])
    assert f"activate undead {top}" in v and f"activate undead {top + 1}" not in v


def test_every_legal_action_of_hand_built_positions_is_in_the_vocabulary() -> None:
    p: dict[str, Any] = {"map": open_map(10, 8, {"D3": "+"}),
                         "heroes": {"frida": {"at": "C3", "intent": "stationary", "mp": 0,
                                              "ready": "seax", "off_hand": "seax",
                                              "glory": 3, "skills": ["Blade Flurry"],
                                              "gear": ["throwing_knives"],
                                              "supplies": {"projectiles": 1,
                                                           "holy_water": 1,
                                                           "healing_salves": 1}},
                                    "gunnar": {"at": "B3", "marker": "cover walking",
                                               "ready": "sling"}},
                         "undead": [{"id": 1, "kind": "draugr", "at": "C4"},
                                    {"id": 2, "kind": "draugr", "at": "H6"}],
                         "active": "frida", "pool": {"draugr": 1}, "done": [],
                         "coin_used": True}
    s = position(p, scenario="3")
    v = set(GAME.action_vocabulary(s.setup))
    legal = [a.text for a in s.legal_actions()]
    assert any("using blade flurry" in t for t in legal)
    assert any(t.startswith("cover: gunnar") for t in legal)
    assert set(legal) <= v


def test_new_markers_take_the_lowest_free_number() -> None:
    from meadhall.games.niflheim import undead

    p: dict[str, Any] = {"map": open_map(8, 8),
                         "heroes": {"frida": {"at": "A1"}},
                         "undead": [{"id": 1, "kind": "draugr", "at": "H8"},
                                    {"id": 3, "kind": "draugr", "at": "H7"}],
                         "active": "frida", "pool": {"draugr": 2}, "coin_used": True}
    s = position(p, scenario="2")
    assert undead.place_marker(s, (5, 5), [], "Spawning") == 2
    assert undead.place_marker(s, (5, 6), [], "Spawning") == 4


def test_campaign_vocabulary_has_the_interim_stage() -> None:
    v = set(GAME.action_vocabulary({"campaign": True}))
    assert {campaign.END_INTERIM, campaign.RETRY, campaign.GIVE_UP, "heal frida",
            "inscribe black runestone on ulf's axe", "unlock shield wall for gunnar",
            "recruit ragnhild"} <= v


def test_player_names_make_canonical_texts() -> None:
    import pytest

    from meadhall.core.errors import ContentError

    for bad in ("", " ann", "ann  bo", "!ann", "ann controls bo"):
        with pytest.raises(ContentError):
            GAME.new_game({"scenario": "5", "heroes": ["frida", "killian"],
                           "players": {bad: ["frida"], "bo": ["killian"]}}, 1)
