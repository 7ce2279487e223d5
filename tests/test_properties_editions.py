"""The random-game invariants of test_properties.py for the original edition and for 4 players.

The original edition resolves after each tile and stops at once (RULES.md "What differs by
edition"); its setup places figures before hands. Its random games must keep the same
conservation and bookkeeping invariants as FFG 2015's, and so must 4-player games of both.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import FIXTURES, PLAYERS, SEEDS, check_invariants, random_candidates

import samurai
from samurai.knizia import engine
from samurai.knizia.state import OVER, PLAY

from helpers import assert_refused_unchanged


def _play_checking_invariants(rules, seed, bot_seed):
    s = engine.new_state(rules, seed)
    rng = random.Random(bot_seed)
    for _ in range(10_000):
        if s.phase == OVER:
            break
        action = engine.sample_action(rules, s, rng)
        assert engine.check(rules, s, action) is None
        engine.apply(rules, s, action)
        check_invariants(rules, s)
        if rules.resolve_each_tile:
            assert not s.pending  # RULES.md original column: resolved immediately after each tile
    assert s.phase == OVER
    assert s.result is not None and s.result.winners and s.end_reason in samurai.END_REASONS
    return s


@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_random_original_games_end_and_conserve_figures_tiles_and_hand_size(original, players, seed, bot_seed):
    rules = original.rules(players)
    s = _play_checking_invariants(rules, seed, bot_seed)
    if s.end_reason == "removed_by_ties":
        assert s.removed_total >= rules.removed_limit


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURES)
@given(edition=st.sampled_from(["ffg2015", "original"]), seed=SEEDS, bot_seed=SEEDS)
def test_random_four_player_games_end_and_conserve_figures_tiles_and_hand_size(edition, seed, bot_seed):
    _play_checking_invariants(samurai.load_edition(edition).rules(4), seed, bot_seed)


@settings(max_examples=8, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_original_apply_accepts_exactly_the_listed_actions_and_a_refusal_changes_nothing(original, players, seed,
                                                                                         bot_seed):
    game = samurai.new_game(original, players=players, seed=seed)
    assert game.phase == "place_figures"  # RULES.md "setup order": figures first
    rng = random.Random(bot_seed)
    while not game.is_over:
        legal = game.legal_actions()
        for candidate in random_candidates(game, rng):
            if candidate in legal:
                continue
            assert_refused_unchanged(game, candidate)  # not in legal_actions(), so refused
        game.apply(rng.choice(legal))
        if game.state.phase == PLAY:
            check_invariants(game.rules, game.state)
    assert game.result is not None
