"""Bots and simulation runs (issue points 7 and 8)."""

from __future__ import annotations

import pytest

from samurai import DataError
from samurai.search.bots import RandomBot, parse_bots
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters.runner import play_game, simulate
from samurai_plugins.knizia.adapters.search_bots import GreedyBot, Observation
from samurai_plugins.knizia.core.state import OVER
from samurai_plugins.knizia.engine import reference as engine


@pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_only_choose_legal_actions(ffg, bot_class, players):
    rules = ffg.rules(players)
    for seed in range(3):
        st = engine.new_state(rules, seed)
        bots = [bot_class(seed * 10 + seat) for seat in range(players)]
        while st.phase != OVER:
            action = bots[st.current].act(Observation(rules, st, st.current))
            assert engine.check(rules, st, action) is None, action
            engine.apply(rules, st, action)


def test_greedy_beats_random_most_of_the_time(ffg):
    summary = simulate(ffg, 2, 60, seed=3, bots=["random", "greedy"])
    assert summary.wins[1] > 2 * summary.wins[0]


def test_a_simulation_is_the_same_for_the_same_seed_and_differs_for_another(ffg):
    first = simulate(ffg, 3, 20, seed=5, bots=["random"])
    assert first == simulate(ffg, 3, 20, seed=5, bots=["random"])
    assert first.games != simulate(ffg, 3, 20, seed=6, bots=["random"]).games


def test_game_i_of_a_run_can_be_replayed_alone(ffg):
    summary = simulate(ffg, 4, 5, seed=9, bots=["random", "greedy"])
    third = summary.games[2]
    assert third.seed == derive_seed(9, 2)
    st = play_game(ffg.rules(4), third.seed, ["random", "greedy"])
    assert (st.result.winners, st.turn) == (third.winners, third.turns)


def test_summary_counts_wins_shared_wins_and_reasons(ffg):
    summary = simulate(ffg, 4, 40, seed=1, bots=["random"])
    data = summary.to_dict()
    assert sum(summary.wins) + summary.shared_games == 40
    assert sum(data["end_reasons"].values()) == 40
    assert sum(data["win_reasons"].values()) == 40
    assert [seat["bot"] for seat in data["seats"]] == ["random"] * 4


def test_unknown_bots_are_refused():
    with pytest.raises(DataError, match="unknown bot 'clever'"):
        parse_bots("random,clever")


def test_derived_seeds_differ_between_runs_and_games():
    seeds = {derive_seed(run, game) for run in range(20) for game in range(50)}
    assert len(seeds) == 1000
