"""Samurai as a PettingZoo AEC environment (optional extra ``rl``: ``pip install "samurai-engine[rl]"``).

::

    from samurai.pettingzoo_env import SamuraiEnv

    env = SamuraiEnv("ffg2015", players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        env.step(None if termination or truncation else int(env.action_space(agent).sample(mask)))

Agents are ``seat_0`` .. ``seat_{n-1}``; the agent to act is the engine's seat
to act (a Samurai turn may be several actions by one seat). Actions are the
fixed numbering of ``samurai.knizia.action_space``; each observation is a dict of a
flat ``observation`` vector, built only from that seat's view
(``samurai.knizia.views``: nothing it may not know), and the ``action_mask`` of its
legal actions. Rewards come at the end: the protocol's returns (1 for a sole
win, 1/k for a win shared by k, else 0). ``reset(seed=s)`` starts the game
of seed ``s``; without a seed, the next seed is drawn from the last one, so
a run of resets is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .catalog.editions import Edition
from .knizia import engine
from .knizia.action_space import ActionSpace
from .knizia.game import edition_of
from .knizia.position import returns_of
from .knizia.rules import Rules
from .knizia.state import OVER, PHASE_NAMES, State
from .knizia.tiles import CASTES
from .knizia.views import seat_view

__all__ = ["SamuraiEnv", "observation_vector", "observation_size"]


def observation_size(rules: Rules) -> int:
    """The length of ``observation_vector`` under ``rules``."""
    players, tiles = rules.players, len(rules.tile_types)
    per_hex = (players + 1) + (tiles + 1)
    per_settlement = len(CASTES) + 1
    per_seat = 2 + len(CASTES) + 1
    return (rules.board.size * per_hex + len(rules.board.settlements) * per_settlement + 2 * tiles
            + players * per_seat + 2 * len(CASTES) + len(PHASE_NAMES) + players + 3)


def observation_vector(rules: Rules, view: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A seat's view (``samurai.knizia.views.seat_view``) as one flat float vector.

    Seats are counted from the viewer (0 is the viewer, 1 the next seat ...),
    so one policy serves every seat. Blocks in order: per hex the owner
    (one-hot, last = empty) and the tile type (one-hot, last = none); per
    settlement its castes and its empty land around (/6); the viewer's hand
    and unchosen tiles (counts per tile type); per seat hand size, stack size
    (/20), captured figures per caste (when visible) and whether they are
    visible; supply and removed figures per caste; the phase (one-hot); the
    seat to act (one-hot, relative); tiles played this turn, whether the
    normal tile is down, and the turn (/100).
    """
    board, players, tiles = rules.board, rules.players, len(rules.tile_types)
    me = view["seat"]
    out = np.zeros(observation_size(rules), dtype=np.float32)
    per_hex = (players + 1) + (tiles + 1)
    for h in range(board.size):  # empty hexes by default
        out[h * per_hex + players] = 1.0
        out[h * per_hex + players + 1 + tiles] = 1.0
    for placed in view["board"]["tiles"]:
        h = board.index[tuple(placed["at"])]
        base = h * per_hex
        out[base + players] = 0.0
        out[base + (placed["owner"] - me) % players] = 1.0
        out[base + players + 1 + tiles] = 0.0
        out[base + players + 1 + rules.tile_index[placed["tile"]]] = 1.0
    at = board.size * per_hex
    for settlement in view["board"]["settlements"]:
        for caste in settlement["figures"]:
            out[at + CASTES.index(caste)] = 1.0
        out[at + len(CASTES)] = settlement["empty_land_around"] / 6.0
        at += len(CASTES) + 1
    for name in view["hand"]:
        out[at + rules.tile_index[name]] += 1.0
    at += tiles
    for name in view.get("unchosen", ()):
        out[at + rules.tile_index[name]] += 1.0
    at += tiles
    for entry in sorted(view["seats"], key=lambda e: (e["seat"] - me) % players):
        out[at] = entry["hand_size"] / rules.hand_size
        out[at + 1] = entry["stack_size"] / max(1, len(rules.player_tiles))
        if "captured" in entry:
            for c, caste in enumerate(CASTES):
                out[at + 2 + c] = entry["captured"][caste] / rules.figures_per_caste
            out[at + 2 + len(CASTES)] = 1.0
        at += 3 + len(CASTES)
    for c, caste in enumerate(CASTES):
        out[at + c] = view["supply"][caste] / rules.figures_per_caste
        out[at + len(CASTES) + c] = view["removed"][caste] / rules.figures_per_caste
    at += 2 * len(CASTES)
    out[at + PHASE_NAMES.index(view["phase"])] = 1.0
    at += len(PHASE_NAMES)
    if view["current_player"] is not None:
        out[at + (view["current_player"] - me) % players] = 1.0
    at += players
    out[at] = view["this_turn"]["tiles_played"] / 5.0
    out[at + 1] = float(view["this_turn"]["normal_tile_played"])
    out[at + 2] = view["turn"] / 100.0
    return out


class SamuraiEnv(AECEnv):  # type: ignore[misc]
    """Knizia's Samurai as a PettingZoo AEC environment (see the module's docstring)."""

    metadata = {"name": "samurai_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, edition: str | Edition = "ffg2015", players: int = 2, *,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.rules = edition_of(edition).rules(players, options)
        self.space = ActionSpace(self.rules)
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        size = observation_size(self.rules)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=-1.0, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(self.space.size)
        self._seeds = random.Random(0)
        self._state: State | None = None
        self.seed_used: int | None = None
        """The seed of the game in play (set by ``reset``)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: a flat vector and an action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: ``Discrete(ActionSpace(rules).size)``."""
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
        self._state = engine.new_state(self.rules, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_action()

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat may know, as a vector, and its legal actions as a mask."""
        seat = self.possible_agents.index(agent)
        st = self._started()
        mask = np.zeros(self.space.size, dtype=np.int8)
        if st.phase != OVER and st.current == seat:
            for action in engine.legal_actions(self.rules, st):
                mask[self.space.index(action)] = 1
        return {"observation": observation_vector(self.rules, seat_view(self.rules, st, seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for the agent to act (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._started()
        if action is None:
            raise ValueError(f"{agent} must act: an action number is required")
        move = self.space.action(int(action))
        reason = engine.check(self.rules, st, move)
        if reason is not None:
            raise ValueError(f"action {action} is illegal for {agent}: {reason}")
        engine.apply(self.rules, st, move)
        self._cumulative_rewards[agent] = 0.0
        self._after_action()

    def _after_action(self) -> None:
        st = self._started()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if st.phase == OVER:
            for agent, value in zip(self.possible_agents, returns_of(st, self.rules.players), strict=True):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
            if st.result is not None:
                self.infos = {agent: {"winners": list(st.result.winners), "reason": st.result.reason}
                              for agent in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[st.current]
        self._accumulate_rewards()

    def _started(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before playing")
        return self._state

    def render(self) -> None:
        """No rendering here: ``samurai render`` draws positions."""

    def close(self) -> None:
        """Nothing to release."""
