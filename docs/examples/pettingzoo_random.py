"""Masked random agents play Samurai to the end through PettingZoo (needs the `rl` extra).

    python docs/examples/pettingzoo_random.py
"""

from __future__ import annotations

import numpy as np

from samurai_plugins.knizia.adapters.pettingzoo import SamuraiEnv


def play(seed: int = 1, players: int = 3) -> dict[str, float]:
    """One game between masked random agents; each agent's total reward."""
    env = SamuraiEnv("ffg2015", players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


if __name__ == "__main__":
    print(play())
