"""Every game as a PettingZoo AEC environment: one agent per seat, the mask in the observation.

>>> from meadhall.adapters.pettingzoo import env
>>> e = env("toy", {"scenario": "chase", "heroes": ["ada", "bo"]})
>>> e.reset(seed=7)
>>> e.agent_selection, sorted(e.last()[0])
('ada', ['action_mask', 'observation'])

Agents are the people's seats; the agent to act is the seat that answers the current decision
(players' choices go to ``choices_by``, the first seat by default). All agents share the party's
result: +1 each when it wins, -1 when it loses. docs/adapters.md has the details.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, SupportsInt

from meadhall.adapters import missing
from meadhall.adapters.gym import ILLEGAL_REWARD
from meadhall.adapters.observation import Encoder, describe_layout, layout_of, text_view
from meadhall.adapters.table import Table, TableError
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.core.protocol import GameState

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
    raise missing("pettingzoo", e) from None


RENDER_MODES = ("ansi", "human")


def _render(mode: str | None, state: GameState, seat: str, vocabulary: Vocabulary,
            table: Table) -> str | None:
    if mode not in RENDER_MODES:
        return None
    text = text_view(state, seat, vocabulary, table)
    if mode == "human":
        print(text)
        return None
    return text


class MeadhallAEC(AECEnv[str, dict[str, Any], int]):
    """A meadhall game as an agent-environment-cycle game, one agent per seat."""

    def __init__(self, game_id: str, setup: Mapping[str, Any] | None = None, *,
                 choices_by: str | None = None, max_steps: int | None = None,
                 illegal_reward: float = ILLEGAL_REWARD,
                 vocabulary_file: str | Path | None = None,
                 render_mode: str | None = None, flatten: bool = True,
                 shaping: bool | float = False) -> None:
        super().__init__()
        table = Table.of(game_id, setup, choices_by)
        if max_steps is not None and max_steps < 1:
            raise TableError(f"max_steps must be a positive number of steps, not {max_steps}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        # Not parallelizable by PettingZoo's converter (a seat may decide several times in a
        # row); parallel_env() is the turn-based parallel version.
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"meadhall_{game_id}_v0",
                         "is_parallelizable": False}
        self.table = table
        self.vocabulary = Vocabulary.of(table.game, table.setup)
        self.layout = layout_of(table)
        if vocabulary_file is not None:
            self.vocabulary.check_file(vocabulary_file, describe_layout(self.layout))
        self.encoder = Encoder(table, self.layout)
        self.max_steps = max_steps
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.possible_agents = list(table.seats)
        self.flatten = flatten
        self.shaping = float(shaping)
        self._potential = 0.0
        n = len(self.vocabulary)
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.layout.space(flat=flatten),
                            "action_mask": spaces.Box(0, 1, (n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_space = self.layout.space(flat=True)
        self.game_state: GameState | None = None
        self._rng: np.random.Generator | None = None
        self._steps = 0
        self.game_seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` is the game's seed (else drawn from the environment's
        generator)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng()
        self.game_seed = seed if seed is not None else int(self._rng.integers(2**31 - 1))
        self.game_state = self.table.new_state(self.game_seed)
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"events": []} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.table.decider(self.game_state) or self.agents[0]
        if self.shaping:
            self._potential = self.table.game.evaluate(self.game_state)
        if self.game_state.outcome().over:
            self._end(truncated=False)

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation (one flat vector, or the layout's arrays with
        ``flatten=False``) and its action mask (zeros unless the agent acts now)."""
        state = self._state()
        mask = (self.vocabulary.mask(state) if self.table.decider(state) == agent
                else np.zeros(len(self.vocabulary), np.int8))
        obs = (self.encoder.flat(state, agent) if self.flatten
               else self.encoder.encode(state, agent))
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state for centralised training: the flat observation of the public
        (spectator's) view — hidden information stays hidden here too."""
        return self.encoder.flat(self._state(), None)

    def step(self, action: SupportsInt | None) -> None:
        """The selected agent plays vocabulary action ``action`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        state = self._state()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {"events": []}
        index = int(action)
        legal = self.vocabulary.legal(state)
        mask = self.vocabulary.mask(state, legal)
        self._steps += 1
        if not 0 <= index < len(mask) or not mask[index]:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent]["illegal_action"] = (self.vocabulary.text(index)
                                                   if 0 <= index < len(mask) else str(index))
        else:
            # The Action object the mask came from: applying it skips checking the rules again.
            events = [str(e) for e in state.apply(legal[index])]
            for a in self.agents:
                self.infos[a]["events"] = [*self.infos[a]["events"], *events]
            if self.shaping:
                # Every seat shares the change in the game's own evaluation (docs/adapters.md).
                potential = self.table.game.evaluate(state)
                for a in self.agents:
                    self.rewards[a] += self.shaping * (potential - self._potential)
                self._potential = potential
        if state.outcome().over:
            self._end(truncated=False)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self._end(truncated=True)
        else:
            decider = self.table.decider(state)
            assert decider is not None
            self.agent_selection = decider
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The text view of the seat to act: returned with ``render_mode="ansi"``, printed
        with ``"human"``."""
        return _render(self.render_mode, self._state(), self.agent_selection, self.vocabulary,
                       self.table)

    def close(self) -> None:
        return None

    def _state(self) -> GameState:
        if self.game_state is None:
            raise RuntimeError("call reset() first")
        return self.game_state

    def _end(self, truncated: bool) -> None:
        """Every seat shares the party's result; each then steps ``None`` to leave."""
        state = self._state()
        value = 0.0 if truncated else self.table.returns(state)
        for a in self.agents:
            self.rewards[a] = self.rewards[a] + value
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            if not truncated:
                self.infos[a]["outcome"] = state.outcome().reason
        self._deads_step_first()


def raw_env(game_id: str, setup: Mapping[str, Any] | None = None,
            **kwargs: Any) -> MeadhallAEC:
    """The environment without PettingZoo's safety wrappers."""
    return MeadhallAEC(game_id, setup, **kwargs)


def env(game_id: str, setup: Mapping[str, Any] | None = None, **kwargs: Any) -> AECEnv:
    """A PettingZoo AEC environment for ``game_id`` with ``setup`` (default: the game's), with
    PettingZoo's order-enforcing and bounds-checking wrappers. Keyword options:
    ``choices_by``, ``max_steps``, ``illegal_reward``, ``vocabulary_file``, ``render_mode``,
    ``flatten``, ``shaping``."""
    e: AECEnv = raw_env(game_id, setup, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class MeadhallParallel(ParallelEnv[str, dict[str, Any], int]):
    """A meadhall game as a PettingZoo parallel environment, turn-based: every live agent
    passes an action each step, and only the seat that answers the current decision acts
    (the others' actions are ignored; their masks are all zeros). All agents share the
    party's result; when the game ends every agent is terminated and ``agents`` empties."""

    def __init__(self, game_id: str, setup: Mapping[str, Any] | None = None, *,
                 choices_by: str | None = None, max_steps: int | None = None,
                 illegal_reward: float = ILLEGAL_REWARD,
                 vocabulary_file: str | Path | None = None,
                 render_mode: str | None = None, flatten: bool = True,
                 shaping: bool | float = False) -> None:
        self.aec = MeadhallAEC(game_id, setup, choices_by=choices_by, max_steps=max_steps,
                               illegal_reward=illegal_reward, vocabulary_file=vocabulary_file,
                               render_mode=render_mode, flatten=flatten, shaping=shaping)
        self.metadata = {**self.aec.metadata, "is_parallelizable": True}
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> GameState | None:
        return self.aec.game_state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """A new game (``seed`` is the game's seed); every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        if self.aec.game_state is not None and self.aec.game_state.outcome().over:
            self.agents = []
        return ({a: self.aec.observe(a) for a in self.possible_agents if a in self.aec.agents},
                {a: dict(self.aec.infos[a]) for a in self.aec.agents})

    def step(self, actions: Mapping[str, SupportsInt | None]) -> tuple[
            dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """The deciding seat plays its action from ``actions`` (the others' are ignored)."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        aec = self.aec
        agent = aec.agent_selection
        if agent not in actions or actions[agent] is None:
            raise ValueError(f"{agent} decides now: actions must hold its action")
        live = list(self.agents)
        aec.step(actions[agent])
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in live}
        terms = {a: bool(aec.terminations.get(a, False)) for a in live}
        truncs = {a: bool(aec.truncations.get(a, False)) for a in live}
        infos = {a: dict(aec.infos.get(a, {})) for a in live}
        obs = {a: aec.observe(a) for a in live}
        if any(terms.values()) or any(truncs.values()):
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        """The text view of the seat to act (``"ansi"`` returns it, ``"human"`` prints it)."""
        return self.aec.render()

    def state(self) -> np.ndarray:
        """The global state: the flat observation of the spectator's view."""
        return self.aec.state()

    def close(self) -> None:
        self.aec.close()


def parallel_env(game_id: str, setup: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> MeadhallParallel:
    """A turn-based PettingZoo parallel environment for ``game_id`` with ``setup``: each step
    every live agent passes an action and the seat that decides plays its own. Keyword
    options as for :func:`env`."""
    return MeadhallParallel(game_id, setup, **kwargs)
