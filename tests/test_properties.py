"""Properties of random games for 2, 3 and 4 players (Hypothesis).

The game always ends; figures and tiles are conserved; no hand exceeds five;
the engine's bookkeeping matches the board; an action is accepted exactly when
``legal_actions`` lists it, and a refused one changes nothing; the same seed
and actions give the same game. Games are played through the game protocol
(``samurai_plugins.knizia.adapters.game_state``) or ``Game``, and the position is only read, so
the properties hold for whichever engine plays.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import samurai
from samurai import ChooseTile, EndTurn, MoveTile, PlaceFigure, PlaceTile, SwitchFigures
from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.core.state import EMPTY, OVER

from helpers import assert_refused_unchanged

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

PLAYERS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
FIXTURES = [HealthCheck.function_scoped_fixture]
TILES_PER_SEAT = 20


def check_invariants(rules, s):
    n = rules.players
    board = rules.board
    for caste in range(3):
        captured = sum(s.captured[seat * 3 + caste] for seat in range(n))
        assert s.on_board[caste] + captured + s.removed[caste] + s.supply[caste] == rules.figures_per_caste
        assert s.on_board[caste] == sum(1 for mask in s.figures if mask >> caste & 1)
    assert s.removed_total == sum(s.removed)
    for seat in range(n):
        on_board = sum(1 for owner in s.tile_owner if owner == seat)
        held = len(s.pools[seat]) + len(s.hands[seat]) + len(s.stacks[seat])
        assert held + on_board + s.spent[seat] == TILES_PER_SEAT
        assert len(s.hands[seat]) <= rules.hand_size
    assert sorted(s.empty_land) == [h for h in board.land_hexes if s.tile_owner[h] == EMPTY]
    assert sorted(s.empty_sea) == [h for h in board.sea_hexes if s.tile_owner[h] == EMPTY]
    for number, land in enumerate(board.settlement_land):
        assert s.empty_around[number] == sum(1 for h in land if s.tile_owner[h] == EMPTY)
        if s.phase != OVER and not s.pending:
            assert not (s.empty_around[number] == 0 and s.figures[number])  # surrounded ones resolve


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_random_games_end_and_conserve_figures_tiles_and_hand_size(ffg, players, seed, bot_seed):
    position = start(ffg, players, seed)
    rng = random.Random(bot_seed)
    for _ in range(10_000):
        if position.is_over:
            break
        action = position.sample_action(rng)
        assert position.check(action) is None  # sampling only ever draws legal actions
        position.apply(action)
        check_invariants(position.rules, position.state)
    assert position.is_over
    s = position.state
    assert s.result is not None and s.result.winners and s.end_reason in samurai.END_REASONS


def random_candidates(game, rng):
    """Actions of every kind with random (mostly wrong) arguments."""
    rules = game.rules
    coords = list(rules.board.coords) + [(99, 99)]
    tiles = list(rules.tile_index) + ["dragon-7"]
    castes = list(samurai.CASTES) + ["ninja"]
    pick = rng.choice
    return [ChooseTile(pick(tiles)), PlaceFigure(pick(castes), pick(coords)), PlaceTile(pick(tiles), pick(coords)),
            MoveTile(pick(coords), pick(coords)), EndTurn(),
            SwitchFigures(pick(coords), pick(castes), pick(coords), pick(castes))]


@settings(max_examples=12, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_apply_accepts_exactly_the_listed_actions_and_a_refusal_changes_nothing(ffg, players, seed, bot_seed):
    game = samurai.new_game(ffg, players=players, seed=seed)
    rng = random.Random(bot_seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal == sorted(set(legal))
        for candidate in random_candidates(game, rng) + [rng.choice(legal)]:
            if candidate in legal:
                trial = game.copy()
                trial.apply(candidate)
                continue
            assert_refused_unchanged(game, candidate)  # not in legal_actions(), so refused
        game.apply(rng.choice(legal))
    assert game.result is not None


@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS, bot_seed=SEEDS)
def test_same_seed_and_actions_give_the_same_game(ffg, players, seed, bot_seed):
    game = samurai.new_game(ffg, players=players, seed=seed)
    rng = random.Random(bot_seed)
    midway = None
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        if midway is None and game.phase == "play":
            midway = game.copy()
    replay = samurai.new_game(ffg, players=players, seed=seed)
    for action in game.history:
        replay.apply(action)
    assert replay.state.fingerprint() == game.state.fingerprint()
    assert replay.result == game.result
    assert replay.events() == game.events()
    # A copy made midway continues exactly as the original did.
    for action in game.history[len(midway.history):]:
        midway.apply(action)
    assert midway.state.fingerprint() == game.state.fingerprint()


@settings(max_examples=10, deadline=None, suppress_health_check=FIXTURES)
@given(players=PLAYERS, seed=SEEDS)
def test_games_driven_only_through_the_api_always_end_with_a_result(ffg, players, seed):
    game = samurai.new_game(ffg, players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        assert game.current_player in range(players)
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < 5000
    with pytest.raises(samurai.SamuraiError):
        game.current_player  # noqa: B018 (once over, no seat is to act)
    result = game.result
    assert result is not None and result.winners and result.explanation and result.end_reason

