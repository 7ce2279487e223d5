"""Any game that supplies an encoding (``GameDefinition.faces.interop``) as a PettingZoo AEC environment (optional extra
``rl``: ``pip install "samurai-engine[rl]"``).

::

    from samurai.interop.pettingzoo import GameEnv

    env = GameEnv("daimyo", players=2)          # any edition of a game with an encoding; Knizia's: "ffg2015"
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        env.step(None if termination or truncation else int(env.action_space(agent).sample(mask)))

Agents are ``seat_0`` .. ``seat_{n-1}``; the agent to act is the protocol's seat to act (a turn may be several
actions by one seat). Actions are the game's fixed numbering (``GameEncoding.index``); each observation is a dict
of the game's ``observation`` tensor, built only from that seat's view (``GameState.view``: nothing it may not
know), and the ``action_mask`` of its legal actions. Rewards come at the end: the protocol's returns (1 for a
sole win, 1/k for a win shared by k, else 0). ``reset(seed=s)`` starts the game of seed ``s``; without a seed,
the next seed is drawn from the last one, so a run of resets is reproducible. The game is played through the
protocol only: ``edition.start``, ``legal_actions``, ``check``, ``apply``, ``view``, ``returns``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..catalog.editions import Edition, load_edition
from ..protocol import GameState
from ..runs.matches import result_reason
from .encoding import GameEncoding, legal_indices

__all__ = ["GameEnv", "encoding_of"]


def encoding_of(edition: Edition, players: int, options: Mapping[str, Any] | None = None) -> GameEncoding:
    """The encoding of ``edition``'s game for ``players`` and ``options``; ``ValueError`` naming the game when it
    supplies none."""
    make = edition.game.faces.interop
    if make is None:
        raise ValueError(f"game {edition.game.name!r} supplies no encoding of its actions and observations "
                         f"(GameFaces.interop), so it has no PettingZoo or OpenSpiel environment")
    encoding: GameEncoding = make(edition, players, options)
    return encoding


class GameEnv(AECEnv):  # type: ignore[misc]
    """An edition of any game with an encoding as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {"name": "game_v0", "render_modes": [], "is_parallelizable": False}
    """PettingZoo's metadata; an environment's ``name`` is its game's, ``knizia_v0`` or ``daimyo_v0``."""

    def __init__(self, edition: str | Edition, players: int = 2, *, options: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.edition = edition if isinstance(edition, Edition) else load_edition(edition)
        self.players = players
        self.options = options
        self.encoding = encoding_of(self.edition, players, options)
        self.metadata = {**GameEnv.metadata, "name": f"{self.edition.game.name}_v0"}
        self.edition.start(players, 0, options)  # bad players or options are refused here, not at reset
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=-1.0, high=np.inf, shape=self.encoding.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.encoding.num_distinct_actions,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(self.encoding.num_distinct_actions)
        self._seeds = random.Random(0)
        self.position: GameState | None = None
        """The position in play (set by ``reset``)."""
        self.seed_used: int | None = None
        """The seed of the game in play (set by ``reset``)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: the game's observation tensor and an action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: ``Discrete(num_distinct_actions)``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start the game of ``seed`` (or of the next seed drawn from the last one)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
            self._seeds = random.Random(seed)
        else:
            seed = self._seeds.randrange(2**63)
        self.seed_used = seed
        self.position = self.edition.start(self.players, seed, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_action()

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat may know, as the game's tensor, and its legal actions as a mask."""
        seat = self.possible_agents.index(agent)
        position = self._started()
        mask = np.zeros(self.encoding.num_distinct_actions, dtype=np.int8)
        mask[legal_indices(self.encoding, position, seat)] = 1
        return {"observation": self.encoding.observation(position.view(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for the agent to act (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        position = self._started()
        if action is None:
            raise ValueError(f"{agent} must act: an action number is required")
        move = self.encoding.action(int(action))
        reason = position.check(move)
        if reason is not None:
            raise ValueError(f"action {action} is illegal for {agent}: {reason}")
        position.apply(move)
        self._cumulative_rewards[agent] = 0.0
        self._after_action()

    def final_info(self, position: GameState) -> dict[str, Any]:
        """What every agent's ``info`` holds once the game is over: why it ended (a game's env may say more)."""
        return {"reason": result_reason(position)}

    def _after_action(self) -> None:
        position = self._started()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if position.is_over:
            for agent, value in zip(self.possible_agents, position.returns(), strict=True):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {agent: self.final_info(position) for agent in self.agents}
            self.agent_selection = self.agents[0]
        else:
            seat = position.to_act
            assert seat is not None  # a game that is not over has a seat to act
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()

    def _started(self) -> GameState:
        if self.position is None:
            raise RuntimeError("call reset() before playing")
        return self.position

    def render(self) -> None:
        """No rendering here: ``samurai render`` draws positions."""

    def close(self) -> None:
        """Nothing to release."""
