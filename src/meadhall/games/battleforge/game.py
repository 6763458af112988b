"""The BattleForge: Berserker entry in the game registry: content, scenarios, setup."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from meadhall.core.chance import ChanceMode
from meadhall.core.content import ContentModel, check_choice, check_choices, load, validate
from meadhall.core.draw import Scene
from meadhall.core.errors import ContentError
from meadhall.core.protocol import Action, Game, GameState, Info

from . import drawing, evaluation, vocabulary
from .basics import GAME_ID, Board
from .components import BattleForgeContent, check_content
from .positions import Position
from .state import BattleForgeState

CONTENT = Path(__file__).parent / "content" / "battleforge.json"


class Setup(ContentModel):
    """``scenario``; ``heroes``: 2 to 4 human forms (solo: one player controls two champions);
    ``berserkers``: optional berserker form per hero; ``players``: how many people play."""

    scenario: str = "last_flame"
    heroes: list[str] = Field(default_factory=lambda: ["ragnar", "lagertha"], min_length=2,
                              max_length=4)
    berserkers: list[str] = Field(default_factory=list)
    players: int | None = Field(None, ge=1, le=4)
    """None: one player per Champion; 1: solo, one player runs both Champions."""


class BattleForgeGame(Game):
    id = GAME_ID
    title = "BattleForge: Berserker"
    state_cls = BattleForgeState

    content: BattleForgeContent

    def __init__(self) -> None:
        self._boards: dict[str, Board] = {}

    def load_content(self) -> BattleForgeContent:
        content = load(BattleForgeContent, CONTENT)
        self.check_content(str(CONTENT), content)
        return content

    def check_content(self, path: str, model: Any) -> None:
        """What the game checks beyond the schema when it loads its content (the maps, the
        minion card slots, the card steps, the Rounds track); ``meadhall validate`` calls it
        too, so both refuse a file with the same message."""
        if isinstance(model, BattleForgeContent):
            check_content(path, model)

    def retired_names(self) -> Mapping[str, str]:
        """Champions' ids and the names texts use (``ragnar`` → ``Ragnar``; retired.json)."""
        return {k: v.name for k, v in self.content.human_forms.items()}

    def position_model(self) -> type[Any] | None:
        """The schema of a BattleForge ``position`` (docs/formats/battleforge.md)."""
        return Position

    def board(self, scenario: str) -> Board:
        if scenario not in self._boards:
            self._boards[scenario] = Board.build(self.content.scenarios[scenario].map,
                                                 str(CONTENT), f"scenarios.{scenario}.map")
        return self._boards[scenario]

    def scenarios(self) -> list[Info]:
        return [Info(k, v.name, "map authored") for k, v in self.content.scenarios.items()]

    def heroes(self) -> list[Info]:
        return [Info(k, v.name, "card authored") for k, v in self.content.human_forms.items()]

    def default_setup(self) -> dict[str, Any]:
        return {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}

    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> BattleForgeState:
        s = validate(Setup, setup, "setup")
        c = self.content
        check_choice("scenario", s.scenario, c.scenarios, "scenario")
        check_choices("heroes", s.heroes, c.human_forms, "champion")
        check_choices("berserkers", s.berserkers, c.berserker_forms, "berserker form")
        if s.players == 1 and len(s.heroes) != 2:
            raise ContentError("setup", "heroes", "in solo mode the player controls 2 Champions")
        if s.players not in (None, 1, len(s.heroes)):
            raise ContentError("setup", "players", "each player controls 1 Champion, or in "
                               "solo mode 2 (Game Overview): players is 1 or the number of "
                               "heroes")
        return BattleForgeState(c, s.model_dump(), seed, self.board(s.scenario), chance,
                                auto_choices)

    def content_models(self) -> dict[str, type[Any]]:
        return {"battleforge.json": BattleForgeContent}

    def health(self, state: GameState) -> dict[str, float]:
        """Heroes' health and the enemies' (see :func:`.evaluation.health_left`)."""
        return evaluation.health_left(state)  # type: ignore[arg-type]

    def evaluate(self, state: GameState) -> float:
        """The party's prospects, 0 (lost) to 1 (won): Thor's Faces, Points of Interest,
        Health, time, and what turns into Damage next (see :mod:`.evaluation`)."""
        assert isinstance(state, BattleForgeState)
        return evaluation.evaluate(state)

    def order_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """Attacks on Thor's Faces first, then other attacks, skills, healing, rituals, moves."""
        assert isinstance(state, BattleForgeState)
        return evaluation.order_actions(state, actions)

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Every action text a game with ``setup`` can offer, in the order documented in
        docs/formats/battleforge.md ("Action texts"); see :mod:`.vocabulary`."""
        st = self.blank_state(self.normalise_setup(setup), 0).setup
        return vocabulary.vocabulary(self.content, self.board(st["scenario"]), st)

    def draw(self, view: Mapping[str, Any]) -> Scene:
        """The table from a seat's view: map, figures, Thor's Faces, champions' boards, the
        Rounds track, the attack's dice and the decision (see :mod:`.drawing`)."""
        return drawing.scene(self.title, view)


GAME = BattleForgeGame()
