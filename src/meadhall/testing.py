"""The generic conformance check every registered game must pass (used by the test suite).

It plays random games from many seeds and checks, at every step, what the protocol promises:
clones and JSON round-trips equal the state, replaying setup + seed + log gives the identical
state, an illegal action leaves the state untouched, views are JSON-ready and hide what
determinization resamples, and table mode asks for every random result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from meadhall.bots.random import RandomBot
from meadhall.core.errors import IllegalAction
from meadhall.core.protocol import CHANCE, Game, GameState
from meadhall.core.rng import Rng


class ConformanceError(AssertionError):
    pass


def _fail(game: Game, seed: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"{game.id} seed {seed} step {step}: {what}")


def check_step(game: Game, state: GameState, seed: int, step: int) -> None:
    """Every per-step promise of the protocol, on one state."""
    saved = state.to_json()
    if state.clone() != state:
        raise _fail(game, seed, step, "clone() differs from the state")
    text = json.dumps(saved)
    back = game.from_json(json.loads(text))
    if back != state:
        raise _fail(game, seed, step, "from_json(to_json()) differs from the state")
    if [a.text for a in back.legal_actions()] != [a.text for a in state.legal_actions()]:
        raise _fail(game, seed, step, "legal actions differ after a JSON round-trip")
    d = state.decision()
    acts = state.legal_actions()
    if d is not None and not acts:
        raise _fail(game, seed, step, f"decision {d} has no legal action")
    if d is None and not state.outcome().over:
        raise _fail(game, seed, step, "no decision but the game is not over")
    texts = [a.text for a in acts]
    if len(set(texts)) != len(texts):
        raise _fail(game, seed, step, "duplicate legal action texts")
    if any(t.startswith("!") or t != " ".join(t.split()) for t in texts):
        raise _fail(game, seed, step, "an action text starts with '!' (reserved for the log) "
                    "or has extra white space")
    try:
        state.apply("this is not an action")
    except IllegalAction:
        pass
    else:
        raise _fail(game, seed, step, "a nonsense action was accepted")
    if state.to_json() != saved:
        raise _fail(game, seed, step, "a rejected action changed the state")
    seats = [None, d.seat if d else None]
    for seat in seats:
        v1 = state.determinize(Rng(1)).view(seat)
        v2 = state.determinize(Rng(2)).view(seat)
        json.dumps(v1)
        if v1 != v2:
            raise _fail(game, seed, step, f"view({seat!r}) shows information that "
                        "determinize() resamples (hidden information leaks)")
    if state.to_json() != saved:
        raise _fail(game, seed, step, "determinize() or view() changed the state")


def _overrides(obj: object, base: type, name: str) -> bool:
    return getattr(type(obj), name) is not getattr(base, name)


def check_presentation(game: Game, state: GameState, seed: int, step: int,
                       vocabulary: set[str] | None = None) -> None:
    """The promises made to people and tools, for the hooks the game implements: every legal
    action has a label and names only targets the drawn scene shows (so a click can pick it),
    the scene is drawn from the seat's view, every legal action is in the game's action
    vocabulary, and ``measures()`` is JSON-ready with ``rounds``."""
    d = state.decision()
    seat = d.seat if d else None
    drawn: set[str] | None = None
    if _overrides(game, Game, "draw"):
        scene = game.draw(state.view(seat))
        json.dumps(scene.to_json())
        drawn = scene.targets()
    if _overrides(state, GameState, "_describe") and seat != CHANCE:
        for a in state.described_actions():
            if not a.label:
                raise _fail(game, seed, step, f"action {a.text!r} has no label")
            for t in a.targets:
                if drawn is not None and str(t) not in drawn:
                    raise _fail(game, seed, step, f"action {a.text!r} names target {t} that "
                                "the drawn scene does not show")
    if vocabulary is not None:
        for a in state.legal_actions():
            if a.text not in vocabulary and d is not None and d.seat != CHANCE:
                raise _fail(game, seed, step, f"action {a.text!r} is not in the game's "
                            "action vocabulary")
    if _overrides(state, GameState, "measures"):
        m = state.measures()
        json.dumps(m)
        if "rounds" not in m:
            raise _fail(game, seed, step, "measures() has no 'rounds'")
        if state.outcome().result == "loss" and "trigger" not in m:
            raise _fail(game, seed, step, "measures() of a lost game has no 'trigger'")


def play_random(game: Game, seed: int, setup: Mapping[str, Any] | None = None,
                max_steps: int = 2000, check_every: int = 1, chance: str = "seeded",
                auto_choices: bool = False) -> GameState:
    """Play one random game; checks every ``check_every`` steps (0: never). Returns the end state.

    Raises :class:`ConformanceError` if a promise is broken or the game does not end in
    ``max_steps`` decisions.
    """
    state = game.new_game(setup, seed, chance=chance, auto_choices=auto_choices)  # type: ignore[arg-type]
    bot = RandomBot(seed * 7919 + 1)
    vocabulary: set[str] | None = None
    if check_every and _overrides(game, Game, "action_vocabulary"):
        vocabulary = set(game.action_vocabulary(state.setup))
    for step in range(max_steps):
        if check_every and step % check_every == 0:
            check_step(game, state, seed, step)
            check_presentation(game, state, seed, step, vocabulary)
        if state.decision() is None:
            break
        d = state.decision()
        if d is not None and d.seat == CHANCE and chance != "table":
            raise _fail(game, seed, step, "a chance decision in seeded mode")
        state.apply(bot.choose(state))
    else:
        raise _fail(game, seed, max_steps, "the game did not end")
    replayed = game.replay(state.setup, state.seed, state.log, chance=state.chance.mode,
                           auto_choices=state.auto_choices)
    if replayed != state:
        raise _fail(game, seed, -1, "replaying setup + seed + log gave a different state")
    return state


def check_memos(game: Game, setup: Mapping[str, Any] | None, seeds: range,
                answers: Callable[[Any], Any], forget: Callable[[Any], None],
                max_steps: int = 400) -> None:
    """Memos answer what a fresh computation answers, at every step of random games.

    ``answers(state)`` asks the questions a game remembers per position; they are compared
    with the same questions asked of a clone whose memos ``forget(clone)`` dropped. Raises
    ``AssertionError`` naming the seed and the log of the first position that differs.
    """
    for seed in seeds:
        state = game.new_game(setup, seed)  # type: ignore[arg-type]
        bot = RandomBot(seed)
        for _ in range(max_steps):
            if state.decision() is None:
                break
            fresh = state.clone()
            forget(fresh)
            assert answers(state) == answers(fresh), (seed, state.log)
            state.apply(bot.choose(state))


def mutate_everything(obj: Any) -> None:
    """Change every dict and list inside ``obj`` in place (a key added, an item appended): what
    a caller may do to whatever ``to_json()`` or ``view()`` handed out, which must never reach
    the state, its clones or a fresh game."""
    if isinstance(obj, dict):
        for v in list(obj.values()):
            mutate_everything(v)
        obj["__mutated__"] = 1
    elif isinstance(obj, list):
        for v in list(obj):
            mutate_everything(v)
        obj.append("__mutated__")
