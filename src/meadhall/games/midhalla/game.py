"""The Midhalla entry in the game registry: setups, chapters, heroes, content schemas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt

from meadhall.core import draw
from meadhall.core.chance import ChanceMode
from meadhall.core.content import ContentModel, check_choice, check_choices, validate
from meadhall.core.errors import ContentError, RuleNotImplemented
from meadhall.core.protocol import Action, Game, GameState, Info
from meadhall.games.midhalla import evaluation
from meadhall.games.midhalla import sections as S
from meadhall.games.midhalla.content import (
    Catalogue,
    Chapter,
    Content,
    Printed,
    check_catalogue,
    check_chapter,
    check_printed,
    load_content,
)
from meadhall.games.midhalla.state import MidhallaState, new_party
from meadhall.games.midhalla.table import scene
from meadhall.games.midhalla.vocabulary import vocabulary

ID = "midhalla"


Id = Annotated[str, Field(min_length=1, max_length=60)]


class PartyOverrides(ContentModel):
    """``setup.party``: the party sheet's overrides for a chapter played on its own (The Party
    Sheet): unlocks by kind, the fate scale, the evolving event decks' changes, completed
    chapters. Every id must name content (checked in ``blank_state``)."""

    unlocks: dict[Literal["classes", "traps", "items", "components", "special_upgrades",
                          "chapters", "lore", "decisions"],
                  Annotated[list[Id], Field(max_length=200)]] = Field(default_factory=dict)
    fate: StrictInt = 0
    events: dict[Literal["tier1", "tier2"],
                 Annotated[dict[Annotated[str, Field(max_length=12)],
                                Annotated[str, Field(max_length=12)]],
                           Field(max_length=40)]] = Field(default_factory=dict)
    completed: Annotated[list[Id], Field(max_length=50)] = Field(default_factory=list)


NO_REPLAY_LIMIT = -1
"""``replay_limit`` for "as often as the players like" (the rulebook's 3.3; the default)."""


class Setup(ContentModel):
    """``scenario``: a chapter id; ``heroes``: 1-4 hero ids; ``campaign``: one state spans the
    chapters (party sheet, fate scale); ``party``: party-sheet overrides (unlocks, fate,
    events, completed) for a chapter played on its own; ``replay_limit``: how many times
    step 3.3 may be replayed in one chapter, -1 (the default) for no limit (ruling 33a: a
    bound for bots and search, which can replay forever)."""

    scenario: str = "chapter1"
    heroes: list[str] = Field(default_factory=lambda: ["harkon", "enyk"], min_length=1,
                              max_length=4)
    campaign: bool = False
    party: PartyOverrides = Field(default_factory=PartyOverrides)
    followers: Annotated[list[Id], Field(max_length=10)] = Field(default_factory=list)
    replay_limit: StrictInt = Field(NO_REPLAY_LIMIT, ge=NO_REPLAY_LIMIT, le=99999)


class MidhallaGame(Game):
    id = ID
    title = "Midhalla"
    state_cls = MidhallaState

    content: Content

    def load_content(self) -> Content:
        return load_content()

    def scenarios(self) -> list[Info]:
        return [Info(k, v.name, f"{v.kind} chapter, {v.cycles} cycles, authored")
                for k, v in self.content.chapters.items()]

    def heroes(self) -> list[Info]:
        return [Info(k, v.name, "authored stand-in") for k, v in self.content.cat.heroes.items()]

    def default_setup(self) -> dict[str, Any]:
        return {"scenario": "chapter1", "heroes": ["harkon", "enyk"],
                "replay_limit": NO_REPLAY_LIMIT}

    def blank_state(self, setup: dict[str, Any], seed: int, chance: ChanceMode = "seeded",
                    auto_choices: bool = False) -> MidhallaState:
        s = validate(Setup, setup, "setup")
        c = self.content
        if s.scenario not in c.chapters:
            if s.scenario.startswith("chapter"):
                raise RuleNotImplemented(ID, S.CAMPAIGN, f"{s.scenario} is not printed in this "
                                         "build")
            raise ContentError("setup", "scenario", f"unknown chapter {s.scenario!r}; choose "
                               f"from {', '.join(c.chapters)}")
        for f in s.followers:
            check_choice("followers", f, c.cat.followers, "follower")
        check_choices("heroes", s.heroes, c.cat.heroes, "hero")
        _check_party(c, s.party)
        d = s.model_dump()
        d["party"] = s.party.model_dump(exclude_unset=True)  # the overrides as given
        if s.replay_limit == NO_REPLAY_LIMIT:
            del d["replay_limit"]  # the rulebook's game: its setup (and saves) as before
        if s.campaign:
            party = new_party(c, d)
            locked = [h for h in s.heroes if h not in party["unlocks"]["classes"]]
            if locked:
                raise ContentError("setup", "heroes", f"class not unlocked on the party sheet: "
                                   f"{', '.join(locked)}")
            if s.scenario not in party["unlocks"]["chapters"]:
                raise ContentError("setup", "scenario", f"{s.scenario} is not unlocked on the "
                                   "party sheet")
        return MidhallaState(c, d, seed, chance, auto_choices)

    def draw(self, view: Mapping[str, Any]) -> draw.Scene:
        """The table from a seat's view: the dungeon, tracks, tableaus, cart, party sheet."""
        return scene(self.content, self.title, view)

    def health(self, state: GameState) -> dict[str, float]:
        """Heroes' health and the enemies' (see :func:`.evaluation.health_left`)."""
        return evaluation.health_left(state)  # type: ignore[arg-type]

    def evaluate(self, state: GameState) -> float:
        """The party's prospects (:func:`meadhall.games.midhalla.evaluation.evaluate`)."""
        return evaluation.evaluate(state)

    def order_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        return evaluation.order_actions(state, actions)

    def action_vocabulary(self, setup: Mapping[str, Any] | None = None) -> list[str]:
        """Every action text a game with ``setup`` can offer, in the order documented in
        docs/formats/midhalla.md (:func:`meadhall.games.midhalla.vocabulary.vocabulary`)."""
        s = validate(Setup, self.normalise_setup(setup), "setup")
        return vocabulary(self.content, s.model_dump())

    def check_content(self, path: str, model: Any) -> None:
        """What the game checks when it loads a file, beyond its schema: enemies, tiles,
        global events and skills that the file names must exist (same messages)."""
        c = self.content
        if isinstance(model, Chapter):
            check_chapter(c.cat, c.printed, model, path)
        elif isinstance(model, Catalogue):
            check_catalogue(model, c.printed, path)
        elif isinstance(model, Printed):
            check_printed(model, c.cat, path)

    def retired_names(self) -> Mapping[str, str]:
        """Ids of heroes, followers, items, traps, skills and ultimates and the printed names
        today's texts use (``runic_talisman`` → ``Runic Talisman``; retired.json)."""
        cat = self.content.cat
        out: dict[str, str] = {}
        for table in (cat.items, cat.traps, cat.skills, cat.ultimates, cat.components,
                      cat.followers):
            for k, v in table.items():
                name = getattr(v, "name", None)
                if isinstance(name, str):
                    out[k] = name
        for k, v in cat.heroes.items():
            out[k] = v.name.split(" the ")[0]
        return out

    def content_models(self) -> dict[str, type[Any]]:
        return {"printed.json": Printed, "catalogue.json": Catalogue, "chapter*.json": Chapter,
                "side_*.json": Chapter}


GAME = MidhallaGame()


def _check_party(c: Content, party: PartyOverrides) -> None:
    """The party overrides name content that exists and a fate within its scale."""
    cat = c.cat
    kinds: dict[str, Mapping[str, Any]] = {
        "classes": cat.heroes, "traps": cat.traps, "items": cat.items,
        "components": cat.components, "special_upgrades": cat.special_upgrades,
        "lore": cat.lore, "chapters": c.chapters}
    for kind, ids in party.unlocks.items():
        for x in ids:
            if kind in kinds and x not in kinds[kind]:
                raise ContentError("setup", f"party.unlocks.{kind}", f"unknown {kind} {x!r}")
    for x in party.completed:
        if x not in c.chapters:
            raise ContentError("setup", "party.completed", f"unknown chapter {x!r}")
    track = cat.fate_track
    if not track[0] <= party.fate <= track[-1]:
        raise ContentError("setup", "party.fate", f"the fate scale runs from {track[0]} to "
                           f"{track[-1]} ({S.FATE})")
