"""The designer's bot: the heuristic's screen, then a few decisions of look-ahead for the best
candidates.

Every legal action is first scored as the heuristic bot scores it (``samples`` sampled futures,
one decision ahead). The ``top`` best are then played on: on ``rollouts`` fresh
determinizations each, the action is applied and the party goes on for ``depth`` more
decisions with a quick heuristic policy (one sample, the game's ``width`` most promising
actions), and the position reached is scored by ``Game.evaluate``. The candidate with the best
mean of those deeper values is chosen (the screen's score breaks ties). A one-ply bot spends a
champion's first action without seeing the second and third; the deeper look sees a whole turn.
Like every searching bot it looks ahead only on :func:`~meadhall.bots.base.search_copy`
copies, so hidden information never steers it.
"""

from __future__ import annotations

from meadhall.bots.base import Repetition, follow_defaults, game_of, legal_or_fail, search_copy
from meadhall.bots.heuristic import TIE, HeuristicBot
from meadhall.core.protocol import Action, Game, GameState
from meadhall.core.rng import Rng


class DesignerBot:
    """Heuristic screen plus ``depth``-decision heuristic rollouts of the ``top`` candidates."""

    def __init__(self, seed: int = 0, top: int = 3, depth: int = 4, rollouts: int = 2,
                 samples: int = 3, width: int = 12, game: Game | None = None) -> None:
        self.rng = Rng(seed ^ 0x0DE5_1611)
        self.screen = HeuristicBot(seed, samples=samples, width=40, game=game)
        self.policy = HeuristicBot(seed ^ 0x9E37_79B9, samples=1, width=width, game=game)
        self.top, self.depth, self.rollouts = top, depth, rollouts
        self.game = game
        self.spec = "designer"
        self.repetition = Repetition()

    def deep_value(self, state: GameState, action: Action, game: Game) -> float:
        """The mean evaluation ``depth`` decisions after ``action``, over ``rollouts``
        determinizations."""
        total = 0.0
        for _ in range(self.rollouts):
            det = search_copy(state, self.rng)
            det.apply(next(a for a in det.legal_actions() if a.text == action.text))
            follow_defaults(det)
            for _ in range(self.depth):
                if det.decision() is None:
                    break
                det.apply(self.policy.choose(det))
                follow_defaults(det)
            total += game.evaluate(det)
        return total / self.rollouts

    def choose(self, state: GameState) -> Action:
        actions = legal_or_fail(state)
        if len(actions) == 1:
            return actions[0]
        game = self.game or game_of(state)
        key = self.repetition.key(state)
        scored = self.screen.scores(state, self.repetition.allowed(state, actions, key))
        order = sorted(range(len(scored)), key=lambda i: -scored[i][1])
        best_screen = scored[order[0]][1]
        cands = [i for i in order[: self.top]]
        if len(cands) == 1 or best_screen >= 1.0 - TIE:
            choice = scored[order[0]][0]
        else:
            self.policy.repetition = Repetition()  # rollouts never remember each other
            deep = {i: self.deep_value(state, scored[i][0], game) for i in cands}
            top = max(deep.values())
            ties = [i for i in cands if deep[i] >= top - TIE]
            choice = scored[max(ties, key=lambda i: (scored[i][1], -i))][0]
        self.repetition.record(state, choice, key)
        return choice
