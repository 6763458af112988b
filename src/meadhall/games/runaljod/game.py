"""The Runaljod entry in the game registry: setups, heroes, content schemas."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from meadhall.core.chance import ChanceMode
from meadhall.core.content import ContentModel, check_choice, check_choices, validate
from meadhall.core.draw import Scene
from meadhall.core.errors import ContentError, RuleNotImplemented
from meadhall.core.protocol import Action, Game, GameState, Info

from . import evaluation, vocabulary
from .content import (
    FILE_MODELS,
    CardsFile,
    RunaljodContent,
    TilesFile,
    check_elements,
    load,
    load_content,
)
from .drawing import draw_scene
from .state import RunaljodState

SCENARIOS = {
    "adventure": ("Adventure (level 1)", 1),
    "adventure-level2": ("Level 2 adventure", 2),
}

NOT_PRINTED = {"campaign": "Campaign Mode", "epic-campaign": "Epic Campaigns"}


class Setup(ContentModel):
    """``heroes``: 2-4 hero ids; ``players``: one per hero, or 1 for a single player with two
    heroes (Setup step 4; Single-Player Game); ``level`` follows the scenario."""

    scenario: str = "adventure"
    heroes: list[str] = Field(default_factory=lambda: ["berserk", "volva"], min_length=2,
                              max_length=4)
    players: int | None = Field(default=None, ge=1, le=4)
    level: int = Field(default=0, ge=0, le=2)


class RunaljodGame(Game):
    id = "runaljod"
    title = "Runaljod: The Sound of the Runes"
    state_cls = RunaljodState

    content: RunaljodContent

    def load_content(self) -> RunaljodContent:
        return load_content()

    def scenarios(self) -> list[Info]:
        return [Info(k, v[0], "authored exploration cards") for k, v in SCENARIOS.items()]

    def heroes(self) -> list[Info]:
        return [Info(k, v.name, "authored board") for k, v in self.content.heroes.items()]

    def default_setup(self) -> dict[str, Any]:
        """Berserk and Volva at level 1; without ``players`` (normalise_setup derives it from
        the heroes: two heroes are a single player's), so that a setup changing only the
        heroes stays valid."""
        return {"scenario": "adventure", "heroes": ["berserk", "volva"]}

    def normalise_setup(self, setup: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults; without ``players``, two heroes are a single player's, more are one each."""
        given = dict(setup or {})
        base = self.default_setup()
        base.update(given)
        if "players" not in given:
            base["players"] = 1 if len(base["heroes"]) == 2 else len(base["heroes"])
        return base

    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> RunaljodState:
        s = validate(Setup, setup, "setup")
        if s.scenario in NOT_PRINTED:
            raise RuleNotImplemented(self.id, NOT_PRINTED[s.scenario], "the campaign sections "
                                     "are not contained in the rulebook")
        check_choice("scenario", s.scenario, SCENARIOS, "scenario")
        check_choices("heroes", s.heroes, self.content.heroes, "hero")
        d = s.model_dump()
        d["level"] = SCENARIOS[s.scenario][1]
        if d["players"] is None:
            d["players"] = 1 if len(s.heroes) == 2 else len(s.heroes)
        if d["players"] != len(s.heroes) and not (d["players"] == 1 and len(s.heroes) == 2):
            raise ContentError("setup", "players", f"{d['players']} player(s) for "
                               f"{len(s.heroes)} heroes: each player chooses a hero (Setup), "
                               "and a single player plays two heroes (Single-Player Game)")
        return RunaljodState(self.content, d, seed, chance, auto_choices)

    def retired_names(self) -> Mapping[str, str]:
        """Ids of items, skills and enemies and the lower-case names today's texts use
        (``valis_bow`` → ``vali's bow``; retired.json)."""
        from .names import Names

        n = Names.of(self.content)
        return {**n.enemy, **n.skill, **n.item}

    def content_models(self) -> dict[str, type[Any]]:
        return dict(FILE_MODELS)

    def check_content(self, path: str, model: Any) -> None:
        """The checks load_content makes beyond the schemas: exploration cards' elements on
        open spaces of their tiles (the tiles of a ``tiles.json`` beside the file, else the
        game's own)."""
        if not isinstance(model, CardsFile):
            return
        tiles = dict(self.content.tiles)
        sibling = Path(path).parent / "tiles.json"
        if sibling.is_file():
            tiles = dict(load(TilesFile, sibling).tiles)
        bad = check_elements(model.exploration, tiles)
        if bad is not None:
            raise ContentError(path, *bad)

    def health(self, state: GameState) -> dict[str, float]:
        """Heroes' health and the enemies' (see :func:`.evaluation.health_left`)."""
        return evaluation.health_left(state)  # type: ignore[arg-type]

    def evaluate(self, state: GameState) -> float:
        """The party's prospects, 0 to 1: exploration cards played, enemies' and the final
        enemy's life removed, heroes where they are needed, their life, the time left
        (evaluation.py)."""
        assert isinstance(state, RunaljodState)
        return evaluation.evaluate(state)

    def order_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """Attacks first, passing last; face down runes spent first (evaluation.py)."""
        assert isinstance(state, RunaljodState)
        return evaluation.order_actions(state, actions)

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Every action text a game with ``setup`` can offer, in the order documented in
        docs/formats/runaljod.md (vocabulary.py)."""
        s = self.normalise_setup(setup)
        self.blank_state(dict(s), 0)  # refuses a bad setup with the same message
        return vocabulary.vocabulary(self.content, s)

    def draw(self, view: Mapping[str, Any]) -> Scene:
        """The table from a seat's view: tiles, figures, the altar and time track, each hero's
        board with its runes, the active cards and the decks (drawing.py)."""
        return draw_scene(self.content, self.title, view)


GAME = RunaljodGame()
