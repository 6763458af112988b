"""Every game as a single-agent Gymnasium environment: one seat learns, bots play the others.

>>> from meadhall.adapters.gym import make_env
>>> env = make_env("toy", seat="ada", others="random")
>>> obs, info = env.reset(seed=7)
>>> int(info["action_mask"].sum()) > 0
True

Each game is registered as ``meadhall/<game>-v0`` (``gymnasium.make("meadhall/niflheim-v0",
setup={"scenario": "1"})`` once this module is imported, or
``gymnasium.make("meadhall.adapters.gym:meadhall/niflheim-v0")``). docs/adapters.md describes
rewards, the action mask, illegal actions and truncation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, SupportsInt

from meadhall import games
from meadhall.adapters import missing
from meadhall.adapters.bots import Bot, Others, make_bot
from meadhall.adapters.observation import (
    Encoder,
    describe_layout,
    layout_of,
    position_key,
    text_view,
)
from meadhall.adapters.table import Table, TableError
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.core.protocol import Action, Event, GameState, Outcome

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("gymnasium", e) from None

ILLEGAL_REWARD = -0.1
"""Reward for an action the mask forbids (the state is left exactly as it was)."""
DEFAULT_OTHERS = "random"
"""Who plays the seats that do not learn, unless told: the random bot (fast; ``"heuristic"``
plays a stronger party)."""
RUNAWAY = 100_000
"""Bot decisions in a row after which the environment gives up (a game that never ends)."""


class MeadhallEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of a meadhall game; the other seats (and players' choices the seat does not
    answer) are played by ``others``. Rewards: +1 when the party wins, -1 when it loses."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_id: str, setup: Mapping[str, Any] | None = None,
                 seat: str | None = None, others: Others = DEFAULT_OTHERS, *,
                 choices_by: str | None = None, max_steps: int | None = None,
                 illegal_reward: float = ILLEGAL_REWARD,
                 vocabulary_file: str | Path | None = None,
                 render_mode: str | None = None, shaping: bool | float = False) -> None:
        table = Table.of(game_id, setup, choices_by)
        self.seat = table.seats[0] if seat is None else seat
        if self.seat not in table.seats:
            raise TableError(f"{game_id}: seat must be one of {', '.join(table.seats)}, "
                             f"not {seat!r}")
        if choices_by is None:
            # The learning seat answers the party's choices unless told otherwise.
            table = dataclasses.replace(table, choices_seat=self.seat)
        if max_steps is not None and max_steps < 1:
            raise TableError(f"max_steps must be a positive number of steps, not {max_steps}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.table = table
        self.vocabulary = Vocabulary.of(table.game, table.setup)
        self.layout = layout_of(table)
        if vocabulary_file is not None:
            self.vocabulary.check_file(vocabulary_file, describe_layout(self.layout))
        self.encoder = Encoder(table, self.layout)
        self.others = others
        self.max_steps = max_steps
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.action_space = spaces.Discrete(len(self.vocabulary))
        self.observation_space = self.layout.space()
        self.state: GameState | None = None
        self._bot: Bot | None = None
        self._steps = 0
        self._seed = 0
        self._legal_at: tuple[Any, ...] = (None, None)
        """The state object and position (``position_key``) that ``_legal`` belongs to."""
        self._legal: dict[int, Action] = {}
        self._potential = 0.0

    # ------------------------------------------------------------ the Gymnasium API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                              dict[str, Any]]:
        """A new game: the seed is the game's seed (``meadhall new ... --seed``) when given,
        else drawn from the environment's generator. ``options={"state": s}`` starts from a
        copy of the meadhall state ``s`` instead (same game and setup)."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31 - 1))
        bot_seed = int(self.np_random.integers(2**31 - 1))
        start = (options or {}).get("state")
        if start is not None:
            if not isinstance(start, GameState) or start.game != self.table.game.id:
                raise ValueError(f"options['state'] must be a {self.table.game.id} game state")
            self.state = start.clone()
            game_seed = start.seed
        else:
            self.state = self.table.new_state(game_seed)
        self._seed = game_seed
        self._bot = make_bot(self.others, bot_seed, self.table.game)
        self._steps = 0
        state = self.state
        events = self._advance(state)
        if self.shaping:
            self._potential = self.table.game.evaluate(state)
        return self._observe(state), self._info(state, events, state.outcome())

    def step(self, action: SupportsInt) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                                 dict[str, Any]]:
        """Play the vocabulary action ``action`` for the seat, then let the bots play until the
        seat decides again or the game ends."""
        state = self._live()
        index = int(action)
        self._steps += 1
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        # The Action object the mask came from: applying it skips checking the rules again.
        # The legal actions by index are the mask (an index outside them is masked out).
        act = self._current_legal(state).get(index)
        if act is None:
            info = self._info(state, [], state.outcome())
            info["illegal_action"] = (self.vocabulary.text(index)
                                      if 0 <= index < len(self.vocabulary) else str(index))
            return self._observe(state), self.illegal_reward, False, truncated, info
        events = state.apply(act)
        events += self._advance(state)
        outcome = state.outcome()
        over = outcome.over
        reward = self.table.returns(state) if over else 0.0
        info = self._info(state, events, outcome)
        if self.shaping:
            # Potential-based shaping: the change in the game's own evaluation since the
            # seat's last decision (summed over an episode: end minus start).
            potential = self.table.game.evaluate(state)
            info["shaping"] = self.shaping * (potential - self._potential)
            reward += info["shaping"]
            self._potential = potential
        return self._observe(state), reward, over, truncated and not over, info

    def render(self) -> str | None:
        """The seat's text view: returned with ``render_mode="ansi"``, printed with
        ``"human"``."""
        if self.render_mode not in ("ansi", "human"):
            return None
        text = text_view(self._live(allow_over=True), self.seat, self.vocabulary, self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None

    # ------------------------------------------------------------ helpers
    def action_masks(self) -> np.ndarray:
        """The current action mask as booleans (the name sb3-contrib's MaskablePPO calls)."""
        return self.vocabulary.mask(self._live(allow_over=True)).astype(bool)

    def _current_legal(self, state: GameState) -> dict[int, Action]:
        """The legal actions of ``state`` by vocabulary index, computed once per position
        (``step`` and the info of the step before share them)."""
        at = self._legal_at
        if at[0] is not state or at[1] != position_key(state):
            self._legal = self.vocabulary.legal(state)
            self._legal_at = (state, position_key(state))
        return self._legal

    def _live(self, allow_over: bool = False) -> GameState:
        if self.state is None:
            raise RuntimeError("call reset() before step() or render()")
        if not allow_over and self.state.outcome().over:
            raise RuntimeError(f"the game is over ({self.state.outcome().reason}): call reset()")
        return self.state

    def _advance(self, state: GameState) -> list[Event]:
        """Let the bots decide until the seat must decide or the game is over."""
        assert self._bot is not None
        events: list[Event] = []
        decider_of, seat, choose = self.table.decider_of, self.seat, self._bot.choose
        for _ in range(RUNAWAY):
            decider = decider_of(state, state.decision())
            if decider is None or decider == seat:
                return events
            events += state.apply(choose(state))
        raise RuntimeError(f"{self.table.game.id}: the other seats took {RUNAWAY} decisions "
                           "in a row without the game ending")

    def _observe(self, state: GameState) -> dict[str, np.ndarray]:
        return self.encoder.encode(state, self.seat)

    def _info(self, state: GameState, events: list[Event], outcome: Outcome) -> dict[str, Any]:
        """The step's info: a fresh mask (the agent may keep or change it), the seed, the
        events and, once the game is over, the outcome's reason."""
        legal = self._current_legal(state)
        mask = np.zeros(len(self.vocabulary), np.int8)
        if legal:
            mask[list(legal)] = 1
        info: dict[str, Any] = {"action_mask": mask, "seed": self._seed,
                                "events": [str(e) for e in events]}
        if outcome.over:
            info["outcome"] = outcome.reason
        return info


def make_env(game_id: str, setup: Mapping[str, Any] | None = None, seat: str | None = None,
             others: Others = DEFAULT_OTHERS, **kwargs: Any) -> MeadhallEnv:
    """A Gymnasium environment for ``seat`` (default: the first) of ``game_id`` with ``setup``
    (default: the game's), the other seats played by ``others`` (a bot spec, a bot or a
    function; default ``"random"``). Keyword options: ``choices_by``, ``max_steps``,
    ``illegal_reward``, ``vocabulary_file``, ``render_mode``, ``shaping`` (docs/adapters.md)."""
    env = MeadhallEnv(game_id, setup, seat, others, **kwargs)
    # The spec lets gymnasium (and check_env) rebuild the same environment, as gymnasium.make
    # would have recorded it.
    made = {k: v for k, v in kwargs.items() if k != "render_mode"}
    env.spec = dataclasses.replace(
        gymnasium.spec(env_id(game_id)),
        kwargs={"game_id": game_id, "setup": setup, "seat": seat, "others": others, **made})
    return env


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``meadhall/<game>-v0``."""
    return f"meadhall/{game_id}-v0"


def register() -> list[str]:
    """Register every game with Gymnasium (idempotent); returns the ids. The game packages are
    not imported (a registered id builds its game when made)."""
    ids = []
    for game_id in games.packages():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point="meadhall.adapters.gym:MeadhallEnv",
                               kwargs={"game_id": game_id}, nondeterministic=False)
        ids.append(name)
    return ids


register()
