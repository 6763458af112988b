"""Undo that never goes back past a random event: a history of steps over a base position.

Dice rolled, cards drawn, markers revealed and runes thrown stay as they fell: a player may take
back their moves since the last random event, never the event itself (a ``practice`` history
allows a full rewind). The terminal and the browser table both keep a :class:`History` beside
their state and save it with the game, so undo still works after a resume.

>>> from meadhall import games
>>> state = games.get("toy").new_game({"scenario": "chase", "heroes": ["ada", "bo"]}, seed=7)
>>> h = History(state)
>>> _ = h.apply(state, "move B1")
>>> h.undoable()
1
>>> state = h.undo()
>>> state.legal_actions()[0].text
'move B1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meadhall.core.errors import ContentError, MeadhallError
from meadhall.core.fastcopy import fastcopy
from meadhall.core.protocol import CHANCE, RESULT, Action, Event, GameState


class UndoRefused(MeadhallError):  # noqa: N818 - reads as a sentence: "undo refused"
    """Undo asked for more steps than may be taken back."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing done to the game: an action (``kind`` ``act``), forced results (``force``)
    or conceding (``concede``); who did it and whether chance decided anything in it."""

    text: str
    seat: str
    random: bool
    kind: str = "act"

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "seat": self.seat, "random": self.random, "kind": self.kind}

    @classmethod
    def from_json(cls, d: Any, where: str) -> Step:
        if not isinstance(d, dict):
            raise ContentError(where, "", "a history step must be an object")
        text, seat, random, kind = d.get("text"), d.get("seat", ""), d.get("random"), \
            d.get("kind", "act")
        if not isinstance(text, str) or not isinstance(seat, str) or not isinstance(random, bool):
            raise ContentError(where, "", "a step needs text (string), seat (string) and "
                               "random (true/false)")
        if kind not in ("act", "force", "concede"):
            raise ContentError(where, "kind", f"unknown step kind {kind!r}")
        return cls(text, seat, random, kind)


class History:
    """The steps taken since ``base`` (a saved position), with what undo may take back.

    After a random step the history starts afresh from the position it produced (unless in
    practice mode), so it stays small and undo never replays through chance.
    """

    def __init__(self, state: GameState, practice: bool = False) -> None:
        self.practice = practice
        self.base: dict[str, Any] = fastcopy(state.to_json())  # never shares the live state
        self.steps: list[Step] = []

    # ------------------------------------------------------------------ recording
    def apply(self, state: GameState, action: Action | str, seat: str | None = None
              ) -> list[Event]:
        """Apply ``action`` to ``state`` (which must be the state this history follows) and
        record it; ``seat`` defaults to the seat of the current decision."""
        d = state.decision()
        who = seat if seat is not None else (d.seat if d else "")
        text = action.text if isinstance(action, Action) else " ".join(str(action).split())
        rng, queued = state.chance.rng.state, len(state.chance.queue)
        events = state.apply(action)
        random = (state.chance.rng.state != rng or len(state.chance.queue) < queued
                  or text.startswith(RESULT) or (d is not None and d.seat == CHANCE))
        self._record(state, Step(text, who, random))
        return events

    def force(self, state: GameState, *results: object, seat: str = "") -> None:
        """Queue results for the next random steps (a player's own dice), recorded."""
        state.force(*results)
        for r in results:
            self.steps.append(Step(str(r), seat, False, "force"))

    def concede(self, state: GameState, reason: str = "", seat: str = "") -> None:
        """The players give up the game (see :meth:`GameState.concede`), recorded."""
        state.concede(reason)
        self.steps.append(Step(reason, seat, False, "concede"))

    def _record(self, state: GameState, step: Step) -> None:
        if step.random and not self.practice:
            self.base = fastcopy(state.to_json())
            self.steps = []
        else:
            self.steps.append(step)

    # ------------------------------------------------------------------ undo
    def undoable(self) -> int:
        """How many of the last steps may be taken back (forced results count with the
        action they belong to, so they are not counted on their own)."""
        return sum(1 for s in self.steps if s.kind != "force")

    def seats_since(self, n: int) -> set[str]:
        """The seats whose steps undoing ``n`` steps would take back (for agreement)."""
        return {s.seat for s in self._tail(n) if s.seat}

    def _tail(self, n: int) -> list[Step]:
        out: list[Step] = []
        count = 0
        for s in reversed(self.steps):
            if count == n and s.kind != "force":
                break
            out.append(s)
            if s.kind != "force":
                count += 1
        return out

    def undo(self, n: int = 1) -> GameState:
        """The state ``n`` steps back, rebuilt by replaying from the base; the steps are
        dropped. Refused (:class:`UndoRefused`) past a random event."""
        if n < 1:
            raise UndoRefused("undo takes back at least one step")
        available = self.undoable()
        if n > available:
            if available == 0:
                raise UndoRefused("nothing to undo since the last random event (dice, cards "
                                  "and reveals stay as they fell)" if not self.practice
                                  else "nothing to undo")
            raise UndoRefused(f"only {available} step(s) can be undone since the last random "
                              "event")
        keep = len(self.steps) - len(self._tail(n))
        self.steps = self.steps[:keep]
        return self.rebuild()

    def rebuild(self) -> GameState:
        """The current state, rebuilt from the base and the recorded steps."""
        state = GameState.from_json(self.base, "<history base>")
        for s in self.steps:
            if s.kind == "force":
                state.force(s.text)
            elif s.kind == "concede":
                state.concede(s.text)
            else:
                state.apply(s.text)
        return state

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        return {"practice": self.practice, "base": self.base,
                "steps": [s.to_json() for s in self.steps]}

    @classmethod
    def from_json(cls, data: Any, source: str = "<history>") -> History:
        """Load a saved history; errors name the field."""
        if not isinstance(data, dict):
            raise ContentError(source, "history", "must be an object")
        base = data.get("base")
        steps = data.get("steps", [])
        if not isinstance(base, dict):
            raise ContentError(source, "history.base", "must be a saved position")
        if not isinstance(steps, list):
            raise ContentError(source, "history.steps", "must be a list")
        from meadhall import games

        h = cls.__new__(cls)
        h.practice = bool(data.get("practice", False))
        h.base = base
        h.steps = [Step.from_json(s, f"{source}: history.steps[{i}]")
                   for i, s in enumerate(steps)]
        game_id = base.get("game")
        if isinstance(game_id, str) and game_id in games.ids():
            retired = games.get(game_id).retired
            h.steps = [Step(retired.map(s.text), s.seat, s.random, s.kind)
                       if s.kind == "act" else s for s in h.steps]
        return h

    def follows(self, state: GameState) -> bool:
        """Whether replaying this history gives ``state`` (a save's history is checked on
        load; a history that does not fit is dropped rather than trusted)."""
        try:
            return self.rebuild() == state
        except MeadhallError:
            return False
