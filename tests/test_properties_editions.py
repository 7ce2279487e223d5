"""The random-game invariants of test_properties.py for the original edition and for 4 players.

The original edition resolves after each tile and stops at once
(docs/rules/samurai.md#edition-differences); its setup places figures before hands. Its random games must keep the same
conservation and bookkeeping invariants as FFG 2015's, and so must 4-player games of both.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import FIXTURES, PLAYERS, SEEDS, check_invariants, random_candidates

import samurai
from samurai_plugins.knizia.adapters.game_state import start

from helpers import assert_refused_unchanged

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def _play_checking_invariants(edition, players, seed, bot_seed):
    position = start(edition, players, seed)
    rules = position.rules
    rng = random.Random(bot_seed)
    for _ in range(10_000):
        if position.is_over:
            break
        action = position.sample_action(rng)
        assert position.check(action) is None
        position.apply(action)
        check_invariants(rules, position.state)
        if rules.resolve_each_tile:
            assert not position.state.pending  # docs/rules/samurai.md#resolution-timing: immediately after each tile
    assert position.is_over
    s = position.state
    assert s.result is not None and s.result.winners and s.end_reason in samurai.END_REASONS
    return s


@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_random_original_games_end_and_conserve_figures_tiles_and_hand_size(original, players, seed, bot_seed):
    s = _play_checking_invariants(original, players, seed, bot_seed)
    if s.end_reason == "removed_by_ties":
        assert s.removed_total >= original.rules(players).removed_limit


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURES)
@given(edition=st.sampled_from(["ffg2015", "original"]), seed=SEEDS, bot_seed=SEEDS)
def test_random_four_player_games_end_and_conserve_figures_tiles_and_hand_size(edition, seed, bot_seed):
    _play_checking_invariants(samurai.load_edition(edition), 4, seed, bot_seed)


@settings(max_examples=8, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_original_apply_accepts_exactly_the_listed_actions_and_a_refusal_changes_nothing(original, players, seed,
                                                                                         bot_seed):
    game = samurai.new_game(original, players=players, seed=seed)
    assert game.phase == "place_figures"  # docs/rules/samurai.md#setup-order: figures first
    rng = random.Random(bot_seed)
    while not game.is_over:
        legal = game.legal_actions()
        for candidate in random_candidates(game, rng):
            if candidate in legal:
                continue
            assert_refused_unchanged(game, candidate)  # not in legal_actions(), so refused
        game.apply(rng.choice(legal))
        if game.phase == "play":
            check_invariants(game.rules, game.state)
    assert game.result is not None
