"""samurai.interop for any game that supplies an encoding: Daimyo and Shinobi as a PettingZoo environment and an
OpenSpiel game, its fixed action numbering, observations that hide what no seat has seen, and Knizia's environment
pinned to the general protocol path (issue 21, INTEROP).
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import attrs
import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

import samurai.interop.openspiel as spiel
from samurai.catalog.editions import load_edition
from samurai.interop.pettingzoo import GameEnv, encoding_of
from samurai_plugins.daimyo import GAME as DAIMYO_GAME
from samurai_plugins.daimyo import DaimyoState
from samurai_plugins.knizia.adapters.pettingzoo import SamuraiEnv

# api_test warns that dict observations are unusual; they are PettingZoo's own convention for action masks.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")


@pytest.mark.parametrize("edition", ["daimyo", "daimyo-nobori"])
def test_pettingzoo_api_test_passes_for_daimyo(edition):
    api_test(GameEnv(edition, players=2), num_cycles=300)


def test_pettingzoo_seed_test_passes_for_daimyo():
    seed_test(lambda: GameEnv("daimyo", players=2), num_cycles=100)


def test_daimyos_action_numbers_and_actions_are_one_to_one():
    encoding = encoding_of(load_edition("daimyo"), 2)
    squares = 6 * 7
    assert encoding.num_distinct_actions == squares + squares * squares
    seen = set()
    for index in range(encoding.num_distinct_actions):
        action = encoding.action(index)
        assert encoding.index(action) == index
        seen.add(action)
    assert len(seen) == encoding.num_distinct_actions
    for bad in (encoding.num_distinct_actions, -1):
        with pytest.raises(ValueError):
            encoding.action(bad)
    for bad in ((0, squares), (1, 0), (2, 0, 0), (1, 0, -1)):
        with pytest.raises(ValueError):
            encoding.index(bad)


def test_daimyos_mask_is_exactly_the_legal_actions_along_a_game():
    env = GameEnv("daimyo", players=2)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            assert info == {"reason": env.position.view(0)["result"]["reason"]}
            env.step(None)
            continue
        legal = env.position.legal_actions()
        assert sorted(np.flatnonzero(observation["action_mask"])) == sorted(env.encoding.index(a) for a in legal)
        other = env.possible_agents[1 - env.possible_agents.index(agent)]
        assert not env.observe(other)["action_mask"].any()  # only the agent to act has legal actions
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert tuple(totals.values()) == env.position.returns() and sum(totals.values()) == pytest.approx(1.0)


def test_an_illegal_daimyo_action_number_is_refused_and_changes_nothing():
    env = GameEnv("daimyo", players=2)
    env.reset(seed=2)
    before = json.dumps(env.position.view(0), sort_keys=True)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="illegal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError):
        env.step(env.encoding.num_distinct_actions)
    assert json.dumps(env.position.view(0), sort_keys=True) == before


def _played(seed: int, actions: int) -> DaimyoState:
    state = load_edition("daimyo").start(2, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(state.sample_action(rng))
    assert isinstance(state, DaimyoState)
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_daimyo_observations_reveal_no_tile_nobody_has_seen(seed):
    # Two positions that differ only in the faces of tiles nobody has seen: the same observation for both seats.
    state = _played(seed, 25)
    encoding = encoding_of(load_edition("daimyo"), 2)
    differed = False
    for draw in range(5):
        other = state.determinize(0, random.Random(draw))
        differed |= other.tile != state.tile
        for seat in (0, 1):
            assert np.array_equal(encoding.observation(state.view(seat)), encoding.observation(other.view(seat)))
    assert differed  # the hidden faces were drawn anew, and nothing showed it


def test_the_observation_tells_a_seat_what_it_does_see():
    state = _played(4, 0)
    encoding = encoding_of(load_edition("daimyo"), 2)
    before = encoding.observation(state.view(0))
    flip = next(a for a in state.legal_actions() if a[0] == 0)
    state.apply(flip)
    assert not np.array_equal(before, encoding.observation(state.view(0)))  # the flipped face is seen
    assert before.shape == encoding.observation_shape


def test_openspiel_random_simulation_test_passes_for_daimyo():
    assert "daimyo" in spiel.REGISTERED
    game = pyspiel.load_game("daimyo", {"edition": "daimyo-shinobi", "seed": 5})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiels_random_bots_play_daimyo_to_the_end_and_resampling_keeps_what_a_seat_knows():
    game = pyspiel.load_game("daimyo", {"seed": 9})
    bots = [pyspiel.make_uniform_random_bot(seat, 100 + seat) for seat in range(2)]
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        if len(state.history()) == 30:
            sampled = state.resample_from_infostate(0, sampler)
            assert sampled.information_state_string(0) == state.information_state_string(0)
            assert sampled.observation_string(1) == state.observation_string(1)
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_an_edition_of_another_game_is_refused_by_openspiel():
    with pytest.raises(pyspiel.SpielError, match="plays 'knizia', not 'daimyo'"):
        pyspiel.load_game("daimyo", {"edition": "ffg2015"})


def test_a_game_without_an_encoding_has_no_environment():
    bare = SimpleNamespace(game=attrs.evolve(DAIMYO_GAME, faces=attrs.evolve(DAIMYO_GAME.faces, interop=None)))
    with pytest.raises(ValueError, match="game 'daimyo' supplies no encoding"):
        encoding_of(bare, 2)  # type: ignore[arg-type]


def test_knizias_environment_plays_as_the_general_one_does():
    # SamuraiEnv adds the engine's state and the winners to GameEnv: the same observations, masks and rewards.
    special, general = SamuraiEnv("original", players=3), GameEnv("original", players=3)
    special.reset(seed=8)
    general.reset(seed=8)
    rng = np.random.default_rng(8)
    for agent in special.agent_iter():
        assert agent == general.agent_selection
        ours, theirs = special.last(), general.last()
        assert np.array_equal(ours[0]["observation"], theirs[0]["observation"])
        assert np.array_equal(ours[0]["action_mask"], theirs[0]["action_mask"])
        assert ours[1:4] == theirs[1:4]
        if ours[2]:  # the end: the same reason, and Knizia's names the winners too
            assert ours[4] == {**theirs[4], "winners": list(special._state.result.winners)}
        action = None if ours[2] or ours[3] else int(rng.choice(np.flatnonzero(ours[0]["action_mask"])))
        special.step(action)
        general.step(action)
    assert special._state.fingerprint() == general.position.state.fingerprint()
