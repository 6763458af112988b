"""The heuristic bot: one-step search scored by the game's own evaluation.

For each legal action (when the game orders actions, its ``width`` most promising ones) it
applies the action on a few determinized copies of the position, lets the engine run every
automated step and the players'-choice defaults up to the next hero decision, and scores the
result with ``Game.evaluate``. All actions are tried against the same copies
(common random numbers), so that the comparison is fair; ties go to the bot's seeded generator.
Coming back to a position it decided in before, it tries an action it has not chosen there
(:class:`~meadhall.bots.base.Repetition`), so free actions that undo each other cannot loop.
Each game contributes only its evaluation (and optionally an ordering) from its own package.
"""

from __future__ import annotations

from meadhall.bots.base import Repetition, follow_defaults, game_of, legal_or_fail, search_copy
from meadhall.core.protocol import Action, Game, GameState
from meadhall.core.rng import Rng

TIE = 1e-9


class HeuristicBot:
    """Greedy on ``Game.evaluate`` one decision ahead, averaged over ``samples`` futures."""

    def __init__(self, seed: int = 0, samples: int = 3, width: int = 40,
                 game: Game | None = None) -> None:
        if samples < 1:
            raise ValueError("the heuristic bot needs at least one sample per action")
        self.rng = Rng(seed)
        self.samples = samples
        self.width = width
        self.game = game
        self.spec = "heuristic" if samples == 3 else f"heuristic:{samples}"
        self.repetition = Repetition()

    def scores(self, state: GameState, actions: list[Action] | None = None
               ) -> list[tuple[Action, float]]:
        """Each candidate action (default: every legal one) with its mean evaluation over
        the sampled futures."""
        game = self.game or game_of(state)
        actions = actions or legal_or_fail(state)
        if len(actions) > 1 and type(game).order_actions is not Game.order_actions:
            # Only a game's own ordering says which actions are worth the search: without
            # one, every action is tried.
            actions = game.order_actions(state, actions)[: self.width]
        totals = [0.0] * len(actions)
        n = len(actions)
        first = [0.0] * n
        # A look-ahead that drew no random number (no die, no card) comes out the same on
        # every sampled future (they differ only in what chance decides), so it is run once
        # and its value counted for each sample: the same sums, a fraction of the work.
        fixed = [False] * n
        # Without hidden information of its own a game's sampled futures differ only in the
        # generator: a sample with nothing left to look at just advances the bot's generator
        # as determinizing would, so that its later choices stay the same.
        plain = type(state)._determinize is GameState._determinize
        for k in range(self.samples):
            todo = [i for i in range(n) if not fixed[i]]
            if not todo and plain:
                self.rng.split()
                for i in range(n):
                    totals[i] += first[i]
                continue
            base = search_copy(state, self.rng)
            last = todo[-1] if todo else -1
            for i in range(n):
                if fixed[i]:
                    totals[i] += first[i]
                    continue
                look = base.clone() if i != last else base
                drawn = Rng.draws
                look.apply(actions[i])
                follow_defaults(look)
                v = game.evaluate(look)
                if k == 0:
                    first[i] = v
                    fixed[i] = Rng.draws == drawn
                totals[i] += v
        return [(a, t / self.samples) for a, t in zip(actions, totals, strict=True)]

    def choose(self, state: GameState) -> Action:
        actions = legal_or_fail(state)
        if len(actions) == 1:
            return actions[0]
        key = self.repetition.key(state)
        scored = self.scores(state, self.repetition.allowed(state, actions, key))
        best = max(s for _, s in scored)
        ties = [a for a, s in scored if s >= best - TIE]
        choice = ties[0] if len(ties) == 1 else ties[self.rng.below(len(ties))]
        self.repetition.record(state, choice, key)
        return choice
