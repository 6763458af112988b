"""The designer's bot: information-set MCTS seeded by the heuristic's screen.

Each decision starts with the heuristic bot's screen (every legal action on ``samples``
sampled futures, one decision ahead, scored by ``Game.evaluate``); the ``top`` best become the
root's children, each starting with ``prior`` visits at its screen value (a progressive bias:
few iterations are spent on what the screen already rules out). Then single-observer ISMCTS
(:mod:`meadhall.bots.mcts`) runs a budget that grows with the number of candidates
(``per`` iterations each, between ``low`` and ``high``): every iteration plays on a
determinization (:func:`~meadhall.bots.base.search_copy`, shared by as many iterations as the
root has candidates: common random numbers), descends by UCT on values normalised to the
search's range, and widens a node progressively (its first actions in the game's
``order_actions`` order, one more as its visits grow). Forced decisions (one legal action)
are played through without a node, so a champion's move of several steps costs no
iterations; a new leaf is settled by the players' defaults and scored by ``Game.evaluate``
(after ``depth`` decisions of one-sample heuristic play, when ``depth`` > 0). The child with
the most visits is chosen. A whole BattleForge turn (several decisions: move, steps, attack,
rerolls) is thus searched as one sequence, where the one-ply heuristic sees one decision.
"""

from __future__ import annotations

import math

from meadhall.bots.base import Repetition, follow_defaults, game_of, legal_or_fail, search_copy
from meadhall.bots.heuristic import TIE, HeuristicBot
from meadhall.bots.mcts import MAX_DEPTH, SearchNode, backup, ucb_select
from meadhall.core.protocol import Action, Game, GameState
from meadhall.core.rng import Rng


class DesignerBot:
    """ISMCTS whose root is the heuristic's screen; see the module docstring."""

    def __init__(self, seed: int = 0, per: int = 16, low: int = 32, high: int = 256,
                 top: int = 8, prior: int = 3, c: float = 0.25, depth: int = 0,
                 samples: int = 3, game: Game | None = None) -> None:
        self.rng = Rng(seed ^ 0x0DE5_1611)
        self.screen = HeuristicBot(seed, samples=samples, width=40, game=game)
        self.policy = HeuristicBot(seed ^ 0x9E37_79B9, samples=1, width=12, game=game)
        self.per, self.low, self.high = per, low, max(low, high)
        self.top, self.prior, self.c, self.depth = top, prior, c, depth
        self.game = game
        self.spec = "designer"
        self.repetition = Repetition()
        self.last_iterations = 0
        self._low, self._high = math.inf, -math.inf

    # ------------------------------------------------------------------ the search
    def budget(self, candidates: int) -> int:
        """Iterations for a decision with this many root candidates."""
        return max(self.low, min(self.high, self.per * candidates))

    def search(self, state: GameState, scored: list[tuple[Action, float]], game: Game
               ) -> SearchNode:
        """ISMCTS from ``state`` over the screened candidates ``scored``; returns the root."""
        root = SearchNode()
        root.order = [a.text for a, _ in scored]
        root.allowed = set(root.order)
        self._low = min(v for _, v in scored)
        self._high = max(v for _, v in scored)
        for a, v in scored:
            ch = root.children[a.text] = SearchNode()
            ch.visits = ch.avail = self.prior
            ch.total = v * self.prior
        share = len(scored)
        n = self.budget(len(scored))
        base = state
        for done in range(n):
            if done % share == 0:
                base = search_copy(state, self.rng)
            self._iterate(base.clone(), root, game)
        self.last_iterations = n
        return root

    def _select(self, node: SearchNode, by_text: dict[str, Action]) -> str:
        return ucb_select(node.children, by_text, self._low, self._high, self.c)

    def _iterate(self, det: GameState, root: SearchNode, game: Game) -> None:
        node = root
        path = [root]
        for _ in range(MAX_DEPTH):
            if det.decision() is None:
                break
            legal = det.legal_actions()
            if len(legal) == 1 and node is not root:
                # A forced decision is no choice: played through, it costs no node.
                det.apply(legal[0])
                continue
            by_text = {a.text: a for a in legal}
            if node.allowed is not None:
                by_text = {t: a for t, a in by_text.items() if t in node.allowed} or by_text
            if node.order is None:
                node.order = [a.text for a in game.order_actions(det, legal)]
            # Progressive widening: the node's first actions in the game's order, one more
            # each time its visits pass the next square.
            width = len(by_text) if node is root else 2 + int(math.sqrt(node.visits))
            new = None
            opened = 0
            for t in node.order:
                if t not in by_text:
                    continue
                if t not in node.children:
                    new = t
                    break
                opened += 1
                if opened >= width:
                    break
            if new is None and not any(t in node.children for t in by_text):
                new = next(iter(by_text))
            if new is not None:
                child = node.children[new] = SearchNode()
                for t in by_text:
                    ch = node.children.get(t)
                    if ch is not None:
                        ch.avail += 1
                det.apply(by_text[new])
                path.append(child)
                break
            t = self._select(node, by_text)
            det.apply(by_text[t])
            node = node.children[t]
            path.append(node)
        value = self._leaf(det, game)
        self._low = min(self._low, value)
        self._high = max(self._high, value)
        backup(path, value)

    def _leaf(self, det: GameState, game: Game) -> float:
        for _ in range(self.depth):
            if det.decision() is None:
                break
            det.apply(self.policy.choose(det))
        follow_defaults(det)
        return game.evaluate(det)

    # ------------------------------------------------------------------ the choice
    def choose(self, state: GameState) -> Action:
        actions = legal_or_fail(state)
        if len(actions) == 1:
            return actions[0]
        game = self.game or game_of(state)
        key = self.repetition.key(state)
        scored = self.screen.scores(state, self.repetition.allowed(state, actions, key))
        scored.sort(key=lambda p: -p[1])
        scored = scored[: self.top]
        if len(scored) == 1 or scored[0][1] >= 1.0 - TIE:
            choice = scored[0][0]
        else:
            self.policy.repetition = Repetition()  # rollouts never remember each other
            root = self.search(state, scored, game)
            rank = {a.text: i for i, (a, _) in enumerate(scored)}
            choice = max((a for a, _ in scored), key=lambda a: (
                root.children[a.text].visits,
                root.children[a.text].total / root.children[a.text].visits,
                -rank[a.text]))
        self.repetition.record(state, choice, key)
        return choice
