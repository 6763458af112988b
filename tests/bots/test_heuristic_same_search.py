"""The heuristic bot's faster search (issue 21) scores every candidate exactly as the plain
search does: each action applied on each of the sampled determinizations, the players'
defaults followed, the result evaluated. Same scores, same generator afterwards, so the same
choices in every game."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.bots import HeuristicBot, RandomBot
from meadhall.bots.base import game_of, search_copy
from meadhall.core.protocol import PLAYERS, Action, Game, GameState


def plain_scores(bot: HeuristicBot, state: GameState) -> list[tuple[str, float]]:
    """The search as it was written at ea89f14 (with its own legality-checked defaults)."""
    game = game_of(state)
    actions = state.legal_actions()
    if len(actions) > 1 and type(game).order_actions is not Game.order_actions:
        actions = game.order_actions(state, actions)[: bot.width]
    totals = [0.0] * len(actions)
    for _ in range(bot.samples):
        base = search_copy(state, bot.rng)
        for i, action in enumerate(actions):
            look = base.clone() if i < len(actions) - 1 else base
            look.apply(Action(action.text))
            for _ in range(64):
                d = look.decision()
                if d is None or d.seat != PLAYERS or d.default is None:
                    break
                look.apply(d.default)
            totals[i] += game.evaluate(look)
    return [(a.text, t / bot.samples) for a, t in zip(actions, totals, strict=True)]


@pytest.mark.parametrize("game_id", ["niflheim", "battleforge", "midhalla", "runaljod", "toy"])
def test_the_same_scores_as_the_plain_search(game_id: str) -> None:
    game = games.get(game_id)
    checked = 0
    for seed in range(3):
        state = game.new_game(None, seed)
        walker = RandomBot(seed)
        for step in range(40):
            if state.decision() is None:
                break
            if len(state.legal_actions()) > 1 and step % 3 == 0:
                fast, plain = HeuristicBot(seed * 100 + step), HeuristicBot(seed * 100 + step)
                got = [(a.text, v) for a, v in fast.scores(state)]
                assert got == plain_scores(plain, state)
                assert fast.rng.state == plain.rng.state  # later choices stay the same too
                checked += 1
            state.apply(walker.choose(state))
    assert checked >= 3
