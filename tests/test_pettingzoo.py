"""Samurai as a PettingZoo AEC environment (samurai_plugins.knizia.adapters.pettingzoo, over samurai.interop.pettingzoo)
and its fixed action space.

PettingZoo's own API and seed tests pass; the action numbering is a bijection that depends only
on the rules; the mask is exactly the legal actions; observations come from the seat's view only.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import samurai
from samurai_plugins.knizia.adapters.action_space import ActionSpace
from samurai_plugins.knizia.adapters.encoding import observation_vector
from samurai_plugins.knizia.adapters.pettingzoo import SamuraiEnv
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.play.views import seat_view

# api_test warns that dict observations are unusual; they are PettingZoo's own convention for action masks.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "pettingzoo_random.py"


@pytest.mark.parametrize("edition,players", [("ffg2015", 2), ("original", 3), ("ffg2015-beginner", 4)])
def test_pettingzoo_api_test_passes(edition, players):
    api_test(SamuraiEnv(edition, players=players), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    seed_test(lambda: SamuraiEnv("ffg2015", players=2), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_numbers_and_engine_actions_are_one_to_one(players):
    rules = samurai.load_edition("ffg2015").rules(players)
    space = ActionSpace(rules)
    seen = set()
    for index in range(space.size):
        action = space.action(index)
        assert space.index(action) == index
        seen.add(action)
    assert len(seen) == space.size
    with pytest.raises(ValueError):
        space.action(space.size)
    with pytest.raises(ValueError):
        space.index((engine.PLACE, len(rules.tile_types), 0))


def test_the_mask_is_exactly_the_legal_actions_along_a_game():
    env = SamuraiEnv("ffg2015", players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = engine.legal_actions(env.rules, env._state)
        assert sorted(np.flatnonzero(observation["action_mask"])) == sorted(env.space.index(a) for a in legal)
        for other in env.possible_agents:  # only the agent to act has legal actions
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_an_illegal_action_number_is_refused_and_changes_nothing():
    env = SamuraiEnv("ffg2015", players=2)
    env.reset(seed=2)
    before = env._state.fingerprint()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)
    with pytest.raises(ValueError):
        env.step(env.space.size)
    assert env._state.fingerprint() == before


@pytest.mark.usefixtures("python_engine")  # changes the Python State's lists in place
def test_observations_depend_only_on_the_seats_view():
    game = samurai.new_game("ffg2015", players=2, seed=4)
    samurai.play_bots(game, ["random"], seed=4, actions=80)
    other = game.copy()
    s = other.state
    held = s.stacks[1] + s.hands[1]  # the same tiles, dealt differently between seat 1's hand and stack
    s.hands[1], s.stacks[1] = held[:len(s.hands[1])], held[len(s.hands[1]):]
    assert game.state.hands[1] != s.hands[1]
    assert game.view(0) == other.view(0)  # seat 1's tiles changed: seat 0 cannot tell
    assert np.array_equal(observation_vector(game.rules, seat_view(game.rules, game.state, 0)),
                          observation_vector(other.rules, seat_view(other.rules, other.state, 0)))


def test_the_game_ends_with_the_protocols_returns_as_rewards():
    env = SamuraiEnv("ffg2015", players=2)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    winners = env._state.result.winners
    assert totals == {f"seat_{s}": (1 / len(winners) if s in winners else 0.0) for s in range(2)}


def test_the_example_plays_masked_random_agents_to_the_end():
    totals = runpy.run_path(str(EXAMPLE))["play"](seed=3, players=3)
    assert sum(totals.values()) == pytest.approx(1.0)
