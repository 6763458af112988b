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


def _plain_copy(state: GameState, gen: Rng) -> GameState:
    """What :func:`search_copy` gives for a game with no hidden information of its own, the
    generator ``gen`` already split from the bot's."""
    copy = state.clone()
    copy.chance.rng = gen
    copy._checkpoint = None
    copy.chance.mode = "seeded"
    copy.chance.queue.clear()
    copy._scratch = True
    copy.log = []
    copy._legal_memo = state._legal_memo  # as determinizing keeps it (GameState.determinize)
    return copy


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
        n = len(actions)
        totals = [0.0] * n
        first = [0.0] * n
        # A look-ahead that drew no random number (no die, no card) comes out the same on
        # every sampled future (they differ only in what chance decides), so it is run once
        # and its value counted for each sample: the same sums, a fraction of the work.
        fixed = [False] * n
        # Without hidden information of its own, a game's sampled futures differ only in the
        # generator (determinizing just reseeds it): an action whose own steps drew nothing
        # leads to the same position on every future, so later samples start from a copy of
        # it with their generator instead of applying the action again; a sample with
        # nothing left to look at only advances the bot's generator as determinizing would,
        # so that its later choices stay the same.
        plain = type(state)._determinize is GameState._determinize
        settled: list[GameState | None] = [None] * n
        for k in range(self.samples):
            todo = [i for i in range(n) if not fixed[i]]
            if plain:
                gen = self.rng.split()
                base: GameState | None = None
            else:
                base = search_copy(state, self.rng)
            fresh = [i for i in todo if settled[i] is None]
            last = fresh[-1] if fresh else -1
            for i in range(n):
                if fixed[i]:
                    totals[i] += first[i]
                    continue
                ready = settled[i]
                drawn = Rng.draws
                if ready is not None:
                    look = ready.clone() if k < self.samples - 1 else ready
                    look.chance.rng = gen.clone()
                else:
                    if base is None:
                        base = _plain_copy(state, gen)
                    look = base.clone() if i != last else base
                    look.apply(actions[i])
                    follow_defaults(look)
                own = Rng.draws == drawn
                v = game.evaluate(look)  # never changes the state (Game.evaluate)
                if k == 0:
                    first[i] = v
                    fixed[i] = Rng.draws == drawn
                    if plain and own and not fixed[i] and self.samples > 1:
                        settled[i] = look
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
