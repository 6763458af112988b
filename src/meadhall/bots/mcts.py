"""Information-set Monte Carlo tree search (single-observer ISMCTS with UCT).

Every iteration starts from a determinization of the position (:func:`search_copy`): hidden
information is resampled and the engine's own seeded chance rolls the dice, so the tree holds
only what the players know and its statistics average over the futures they cannot see. A
determinization serves as many consecutive iterations as the root has actions (common random
numbers: the actions are compared against the same futures).
The tree is open-loop: a node is the sequence of actions from the root, whatever the dice did.
Selection is UCT with availability counts (an action legal in few determinizations is not
penalised for the others) on means normalised by the range of values seen in the search; a new node is expanded in the game's ``order_actions`` order; a
rollout plays ``depth`` decisions with the random or the heuristic policy and is scored by
``Game.evaluate`` (a finished game scores 1 for a win, 0 for a loss). The party cooperates,
so every decision, a hero's or the players', maximises the same value. Back in a position it
decided in before, it searches only the actions it has not chosen there yet
(:class:`~meadhall.bots.base.Repetition`).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG 2012).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

from meadhall.bots.base import (
    BotError,
    Repetition,
    follow_defaults,
    game_of,
    legal_or_fail,
    search_copy,
)
from meadhall.bots.heuristic import HeuristicBot
from meadhall.core.protocol import Action, Game, GameState
from meadhall.core.rng import Rng

MAX_DEPTH = 400
"""Tree descents stop here even if the game goes on (a safety net against endless games)."""


class SearchNode:
    """Statistics of one action sequence from the root (shared by the MCTS and designer bots)."""

    __slots__ = ("children", "visits", "total", "avail", "order", "allowed")

    def __init__(self) -> None:
        self.children: dict[str, SearchNode] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.order: list[str] | None = None
        self.allowed: set[str] | None = None


def ucb_select(children: dict[str, SearchNode], texts: Iterable[str], low: float,
               high: float, c: float) -> str:
    """The available child (of ``texts``, in their order) with the best UCB score; each
    counts one more availability (ISMCTS: only actions legal in this determinization)."""
    # Means are normalised by the range of values this search has seen (as MuZero does): a
    # game's evaluations often differ by a few hundredths, which a fixed exploration
    # constant would drown.
    span = high - low
    best_text, best_score = "", -math.inf
    for t in texts:
        ch = children.get(t)
        if ch is None:
            continue
        ch.avail += 1
        q = (ch.total / ch.visits - low) / span if span > 1e-12 else 0.5
        score = q + c * math.sqrt(math.log(ch.avail) / ch.visits)
        if score > best_score:
            best_text, best_score = t, score
    return best_text


def backup(path: list[SearchNode], value: float) -> None:
    """Count one visit of value ``value`` on every node of a descent."""
    for n in path:
        n.visits += 1
        n.total += value


class MCTSBot:
    """ISMCTS with a budget of ``iterations`` or of ``seconds`` per decision."""

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, rollout: str = "random", depth: int = 0,
                 c: float = 0.1, game: Game | None = None) -> None:
        if (iterations is None) == (seconds is None):
            raise BotError("mcts needs a budget: a number of iterations or of seconds")
        if iterations is not None and iterations < 1:
            raise BotError("mcts needs at least one iteration")
        if seconds is not None and seconds <= 0:
            raise BotError("mcts needs a positive time budget")
        if rollout not in ("random", "heuristic"):
            raise BotError(f"mcts rollout policy must be random or heuristic, not {rollout!r}")
        if depth < 0:
            raise BotError("mcts rollout depth must be 0 or more")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.rollout_policy = rollout
        self.depth = depth
        self.c = c
        self.game = game
        self._heuristic = HeuristicBot(seed ^ 0x5A5A5A5A, samples=1, game=game)
        budget = f"{seconds:g}s" if seconds is not None else str(iterations)
        extra = "" if rollout == "random" else f":rollout={rollout}"
        extra += "" if depth == 0 else f":depth={depth}"
        extra += "" if c == 0.1 else f":c={c:g}"
        self.spec = f"mcts:{budget}{extra}"
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.repetition = Repetition()
        self._low, self._high = math.inf, -math.inf

    # ------------------------------------------------------------------ the search
    def search(self, state: GameState, allowed: list[Action] | None = None) -> SearchNode:
        """Run the budget from ``state`` (at the root, only the ``allowed`` actions);
        returns the root of the tree."""
        game = self.game or game_of(state)
        root = SearchNode()
        self._low, self._high = math.inf, -math.inf
        if allowed is not None:
            root.allowed = {a.text for a in allowed}
        start = time.perf_counter()
        done = 0
        # Consecutive iterations share one determinization, as many as the root has actions:
        # the root's actions are first tried against the same hidden cards and dice (common
        # random numbers), so that they are compared on their merits, not on their luck.
        share = max(1, len(allowed) if allowed is not None else len(state.legal_actions()))
        base = state
        while True:
            if done % share == 0:
                base = search_copy(state, self.rng)
            self._iterate(base.clone(), root, game)
            done += 1
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() - start >= self.seconds:  # type: ignore[operator]
                break
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
        return root

    def _iterate(self, det: GameState, root: SearchNode, game: Game) -> None:
        node = root
        path = [root]
        c = self.c
        for _ in range(MAX_DEPTH):
            if det.decision() is None:
                break
            legal = det.legal_actions()
            # Applying the very Action objects legal_actions() returned skips a second
            # legality check (the protocol's fast path for bots).
            by_text = {a.text: a for a in legal}
            if node.allowed is not None:
                by_text = {t: a for t, a in by_text.items() if t in node.allowed} or by_text
            children = node.children
            if node.order is None:
                node.order = [a.text for a in game.order_actions(det, legal)] \
                    if len(legal) > 1 else list(by_text)
            new = None
            if any(t not in children for t in by_text):
                new = next((t for t in node.order if t not in children and t in by_text),
                           None) or next(t for t in by_text if t not in children)
            if new is not None:
                child = children[new] = SearchNode()
                for t in by_text:
                    ch = children.get(t)
                    if ch is not None:
                        ch.avail += 1
                det.apply(by_text[new])
                path.append(child)
                break
            best_text = ucb_select(children, by_text, self._low, self._high, c)
            det.apply(by_text[best_text])
            node = children[best_text]
            path.append(node)
        value = self._rollout(det, game)
        self._low = min(self._low, value)
        self._high = max(self._high, value)
        backup(path, value)

    def _rollout(self, det: GameState, game: Game) -> float:
        for _ in range(self.depth):
            if det.decision() is None:
                break
            if self.rollout_policy == "random":
                det.apply(self.rng.choice(det.legal_actions()))
            else:
                det.apply(self._heuristic.choose(det))
        # Like the heuristic bot, score a settled position: a players' choice still open
        # (which square a spawn takes...) is settled by its default first.
        follow_defaults(det)
        return game.evaluate(det)

    # ------------------------------------------------------------------ the choice
    def choose(self, state: GameState) -> Action:
        actions = legal_or_fail(state)
        if len(actions) == 1:
            return actions[0]
        allowed = self.repetition.allowed(state, actions)
        root = self.search(state, allowed)
        ranked = [(root.children[a.text].visits, root.children[a.text].total
                   / root.children[a.text].visits, a)
                  for a in allowed if a.text in root.children]
        if not ranked:
            choice = allowed[self.rng.below(len(allowed))]
        else:
            top = max((v, q) for v, q, _ in ranked)
            ties = [a for v, q, a in ranked if (v, q) == top]
            choice = ties[0] if len(ties) == 1 else ties[self.rng.below(len(ties))]
        self.repetition.record(state, choice)
        return choice
