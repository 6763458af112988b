"""Gates of Niflheim as a registered game: scenarios, characters, setup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from meadhall.core.chance import ChanceMode
from meadhall.core.content import ContentModel, check_choice, check_choices, validate
from meadhall.core.draw import Scene
from meadhall.core.errors import ContentError
from meadhall.core.protocol import Action, Game, GameState, Info
from meadhall.games.niflheim import drawing, evaluation, vocabulary
from meadhall.games.niflheim import sections as S
from meadhall.games.niflheim.content import NiflheimContent, load_content
from meadhall.games.niflheim.state import NiflheimState


class Setup(ContentModel):
    scenario: str = "1"
    heroes: list[str] = Field(default_factory=lambda: ["frida"], min_length=1, max_length=4)
    huskarls: list[str] = Field(default_factory=list, max_length=4)
    campaign: bool = False
    players: dict[str, list[str]] = Field(default_factory=dict)
    """Co-op Play: player name -> the heroes they control (each selects one character at the
    start; heroes found later are assigned by the players when they first activate)."""


class NiflheimGame(Game):
    id = S.ID
    title = "Gates of Niflheim"
    state_cls = NiflheimState

    content: NiflheimContent

    def load_content(self) -> NiflheimContent:
        return load_content()

    def scenarios(self) -> list[Info]:
        out = [Info(k, f"Scenario {v.number}: {v.name}", "authored map")
               for k, v in self.content.scenarios.items()]
        return out

    def heroes(self) -> list[Info]:
        chars = [Info(k, v.name, "character (authored sheet)")
                 for k, v in self.content.characters.items()]
        return chars + [Info(k, v.name, "huskarl: choose with setup key huskarls")
                        for k, v in self.content.huskarls.items()]

    def default_setup(self) -> dict[str, Any]:
        return {"scenario": "1", "heroes": ["frida"], "campaign": False}

    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> NiflheimState:
        s = validate(Setup, setup, "setup")
        check_choice("scenario", s.scenario, self.content.scenarios, "scenario")
        sc = self.content.scenarios[s.scenario]
        check_choices("heroes", s.heroes, self.content.characters, "character")
        check_choices("huskarls", s.huskarls, self.content.huskarls, "huskarl")
        if s.huskarls and sc.party != "heroes":
            raise ContentError("setup", "huskarls", f"scenario {sc.number}'s party is "
                               "characters only")
        if s.players:
            for p in s.players:
                if not p or p != " ".join(p.split()) or p.startswith("!") or " controls " in p:
                    raise ContentError("setup", "players", f"player name {p!r}: one or more "
                                       "words, single-spaced, not starting with '!' (action "
                                       "texts name players)")
            chosen = [h for v in s.players.values() for h in v]
            if len(set(chosen)) != len(chosen):
                raise ContentError("setup", "players", "a hero is controlled by one player only")
            for p, ids in s.players.items():
                chars = [h for h in ids if h in s.heroes]
                if len(chars) != 1 or any(h not in s.heroes + s.huskarls for h in ids):
                    raise ContentError("setup", "players", f"player {p!r}: each player selects "
                                       "one of the setup's characters (Co-op Play)")
            if set(s.heroes) - set(chosen):
                raise ContentError("setup", "players", "every character of the setup needs a "
                                   "player (Co-op Play)")
        if len(s.heroes) > sc.max_characters:
            raise ContentError("setup", "heroes", f"scenario {sc.number} takes at most "
                               f"{sc.max_characters} characters")
        return NiflheimState(self.content, s.model_dump(), seed, chance, auto_choices)

    def retired_names(self) -> Mapping[str, str]:
        """Ids of weapons, gear, heroes and skills and the lower-case names today's texts use
        (``throwing_knives`` → ``throwing knives``; retired.json)."""
        from meadhall.games.niflheim.names import names

        n = names(self.content)
        return {**n.skill, **n.hero, **n.item}

    def content_models(self) -> dict[str, type[Any]]:
        return {"niflheim.json": NiflheimContent}

    def position_model(self) -> type[Any] | None:
        """The schema of a Niflheim ``position`` (docs/formats/niflheim.md)."""
        from meadhall.games.niflheim.position import NiflheimPosition

        return NiflheimPosition

    def check_content(self, path: str, model: Any) -> None:
        """The checks made when the content loads (squares figures must stand on, red
        lines), with the same messages."""
        from meadhall.games.niflheim.content import check

        check(model, path)

    def health(self, state: GameState) -> dict[str, float]:
        """Heroes' health and the enemies' (see :func:`.evaluation.health_left`)."""
        return evaluation.health_left(state)  # type: ignore[arg-type]

    def evaluate(self, state: GameState) -> float:
        """The party's prospects (see :mod:`.evaluation`): objective progress by walking
        distance, health, safety; 1 won, 0 lost."""
        assert isinstance(state, NiflheimState)
        return evaluation.evaluate(state)

    def order_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """Objective steps first, then attacks, then moves toward the objective."""
        assert isinstance(state, NiflheimState)
        return evaluation.order_actions(state, actions)

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Every action text a game with this setup can offer, in the order documented in
        docs/formats/niflheim.md (:mod:`.vocabulary`)."""
        s = validate(Setup, self.normalise_setup(setup), "setup")
        check_choice("scenario", s.scenario, self.content.scenarios, "scenario")
        return vocabulary.vocabulary(self.content, s.model_dump())

    def draw(self, view: Mapping[str, Any]) -> Scene:
        """The map, figures, markers, round track, dashboards and campaign sheet of a view."""
        return drawing.scene(self.content, self.title, view)


GAME = NiflheimGame()
