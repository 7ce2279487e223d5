"""The MCTS bot and the bot names (issue 9 items 3, 4 and 7)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samurai import DataError
from samurai.catalog.editions import load_edition
from samurai.search.bots import FINISH_SHARE, LEVELS, REPLY_WORLDS, MCTSBot
from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.adapters.runner import play_game
from samurai_plugins.knizia.adapters.search_bots import GreedyBot, make_bot, parse_bots
from samurai_plugins.knizia.engine.backends import native_module

from helpers import position_and_twin, randomly_played

EDITIONS = ("ffg2015", "ffg2015-beginner", "original")



SEARCHES = {"plain": {}, "replies": {"replies": True, "worlds": 3}}
"""The MCTS bot's two ways of scoring a leaf: the estimate at once, or after the policy's replies on common
worlds."""


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_mcts_plays_only_legal_actions_in_every_phase_edition_and_player_count(edition, players, search):
    # Small budgets, whole games: every decision of every seat is checked before it is applied.
    decisions, phases, seed = 0, set(), 0
    while decisions < 300:  # about 2,700 decisions over the nine games' kinds, for each search
        seed += 1
        state = start(edition, players, seed=seed)
        bots = [MCTSBot(seed * 10 + seat, simulations=6, **SEARCHES[search]) for seat in range(players)]
        while not state.is_over:
            phases.add(state.state.phase)
            action = state.ask(bots[state.to_act])
            assert state.check(action) is None, (action, state.state.phase)
            state.apply(action)
            decisions += 1
        assert sum(state.returns()) == pytest.approx(1.0)
    expected = {2} if edition == "ffg2015-beginner" else {0, 1, 2}  # beginner: hands and figures are random
    assert phases == expected


bot_names = st.sampled_from(["random", "greedy", "mcts:12", "mcts-replies:12", "mcts-finish:6", "mcts-rollouts:8"])


ENGINES = ("python", "native") if native_module() is not None else ("python",)
"""The engines a search runs on here: on the native one the whole search is native (``search_natively``)."""


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(EDITIONS), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 150),
       bot_names, st.integers(0, 2**32), st.sampled_from(ENGINES))
def test_a_bot_never_peeks(edition, players, seed, actions, name, twin_draw, engine):
    # Two games identical in all the seat to act knows, different in what it cannot know
    # (other seats' tiles, the order of every stack, the game's generator): the same decision, on both engines.
    found = position_and_twin(edition, players, seed, actions, twin_draw, engine)
    if found is None:
        return
    state, twin, seat = found
    assert make_bot(name, seed).act(state.knowledge(seat)) == make_bot(name, seed).act(twin.knowledge(seat))
    assert state.ask(make_bot(name, seed)) == twin.ask(make_bot(name, seed))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(EDITIONS), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 150),
       st.integers(0, 2**32), st.sampled_from(ENGINES), st.sampled_from([0.0, FINISH_SHARE]))
def test_searching_with_replies_never_peeks(edition, players, seed, actions, twin_draw, engine, finish):
    # The replies (and with finish the play to the end) are played in drawn positions, by the policy on each
    # seat's knowledge there: what the searching seat cannot know still does not change its decision, on both
    # engines.
    found = position_and_twin(edition, players, seed, actions, twin_draw, engine)
    if found is None:
        return
    state, twin, seat = found
    options = {"simulations": 20, "replies": True, "worlds": 4, "finish": finish}
    first = MCTSBot(seed, **options).act(state.knowledge(seat))
    assert first == MCTSBot(seed, **options).act(twin.knowledge(seat))


@pytest.mark.parametrize("engine", ENGINES)
def test_finish_scores_a_leaf_by_its_share_of_the_end_and_the_rest_of_the_estimate(engine):
    # The same replies and the same quick game to the end (one generator's draws): the estimate after the
    # replies with finish 0, the returns at the end with 1, and 0.15 is 0.85 of the one and 0.15 of the other.
    state = randomly_played("ffg2015", 3, 8, 45, engine)
    seat = state.to_act
    scores = {share: MCTSBot(1, simulations=1, replies=True, finish=share)._play_out(state.copy(), random.Random(5),
                                                                                       seat)
              for share in (0.0, 1.0, 0.15)}
    after_replies, played = state.copy(), random.Random(5)
    while after_replies.to_act == seat:
        after_replies.apply(after_replies.policy_action(played))
    while after_replies.to_act != seat:
        after_replies.apply(after_replies.policy_action(played))
    assert scores[0.0] == after_replies.evaluate() and not after_replies.is_over
    while not after_replies.is_over:
        after_replies.apply(after_replies.policy_action(played))
    assert scores[1.0] == after_replies.returns() and sum(scores[1.0]) == pytest.approx(1.0)
    assert scores[0.15] == tuple(0.85 * e + 0.15 * r for e, r in zip(scores[0.0], scores[1.0], strict=True))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(EDITIONS), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 150),
       st.integers(0, 2**32), st.integers(0, 2**32))
def test_the_policy_action_is_the_greedy_players_on_the_seats_knowledge(edition, players, seed, actions, twin_draw,
                                                                        tie_draw):
    state = randomly_played(edition, players, seed, actions)
    if state.is_over:
        return
    seat = state.to_act
    action = state.policy_action(random.Random(tie_draw))
    assert state.check(action) is None
    assert action == GreedyBot(tie_draw).act(state.knowledge(seat))
    twin = state.determinize(seat, random.Random(twin_draw))
    assert twin.policy_action(random.Random(tie_draw)) == action


class _CountingKnowledge:
    """A seat's knowledge that counts how many positions are drawn from it."""

    def __init__(self, knowledge):
        self.knowledge, self.draws = knowledge, 0
        self.seat = knowledge.seat

    def legal_actions(self):
        return self.knowledge.legal_actions()

    def determinize(self, rng):
        self.draws += 1
        return self.knowledge.determinize(rng)


def test_worlds_draw_that_many_positions_a_decision_and_every_root_action_meets_them_in_turn():
    state = randomly_played("ffg2015", 2, 4, 30)
    plain, pooled = (_CountingKnowledge(state.knowledge(state.to_act)) for _ in range(2))
    simulations = 10 * len(plain.legal_actions())
    MCTSBot(1, simulations=simulations).act(plain)
    MCTSBot(1, simulations=simulations, worlds=5).act(pooled)
    assert plain.draws == simulations and pooled.draws == 5
    # World 0 first for every root action: with one visit each, the root's actions are all scored on it.
    one = _CountingKnowledge(state.knowledge(state.to_act))
    MCTSBot(1, simulations=len(one.legal_actions()), worlds=5).act(one)
    assert one.draws == 1


@pytest.mark.parametrize("players", [2, 4])
def test_with_replies_a_nodes_first_child_is_the_quick_players_action(players):
    state = randomly_played("ffg2015", players, 6, 40)
    knowledge = state.knowledge(state.to_act)
    legal = knowledge.legal_actions()
    bot = MCTSBot(3, simulations=len(legal) + 1, replies=True, worlds=1)
    root = bot.search(knowledge, legal)
    # Every root action once, then one of them again: that second visit expands its first child.
    (action, again), = ((a, child) for a, child in root.children.items() if child.visits == 2)
    world, seed = bot._pool[0]
    after = world.copy()
    after.apply(action)
    assert list(again.children) == [after.policy_action(random.Random(seed))]


def test_a_simulation_budget_makes_the_bot_deterministic_for_its_seed():
    rules = load_edition("ffg2015").rules(2)
    first = play_game(rules, 5, ["mcts:10", "greedy"])
    second = play_game(rules, 5, ["mcts:10", "greedy"])
    assert first.fingerprint() == second.fingerprint()
    state = randomly_played("ffg2015", 2, 3, 40)
    decisions = {MCTSBot(seed, simulations=40).act(state.knowledge(state.to_act)) for seed in range(6)}
    assert len(decisions) > 1  # the seed does matter


def test_a_time_budget_searches_until_the_time_is_up():
    state = randomly_played("ffg2015", 3, 2, 40)
    bot = make_bot("mcts:0.05s", 1)
    assert isinstance(bot, MCTSBot)
    action = bot.act(state.knowledge(state.to_act))
    assert state.check(action) is None and bot.last_simulations >= 16


def test_even_a_small_search_beats_random_play():
    rules = load_edition("ffg2015").rules(2)
    wins = 0
    for seed in range(4):
        bots = ["mcts:30", "random"] if seed % 2 else ["random", "mcts:30"]
        game = play_game(rules, 100 + seed, bots)
        wins += game.result is not None and bots.index("mcts:30") in game.result.winners
    assert wins >= 3


def test_levels_and_budgets_are_bot_names():
    levels = {level: make_bot(level, 1) for level in LEVELS}
    assert all(isinstance(bot, MCTSBot) and bot.name == level for level, bot in levels.items())
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]  # weakest first
    # The three below expert differ by their budgets; expert by its judge (it plays on to the end).
    budgets = [levels[level].simulations for level in ("easy", "medium", "hard")]  # type: ignore[union-attr]
    assert budgets == sorted(budgets)
    assert levels["expert"].finish == FINISH_SHARE and not levels["hard"].finish  # type: ignore[union-attr]
    for level, spec in LEVELS.items():
        bot, named = make_bot(level, 1), make_bot(spec, 1)
        assert isinstance(bot, MCTSBot) and isinstance(named, MCTSBot)
        assert (bot.simulations, bot.replies, bot.worlds, bot.finish) == \
            (named.simulations, named.replies, named.worlds, named.finish)
    assert make_bot("mcts:2000", 1).simulations == 2000  # type: ignore[union-attr]
    assert make_bot("mcts:1.5s", 1).seconds == 1.5  # type: ignore[union-attr]
    replies = make_bot("mcts-replies:300", 1)
    assert isinstance(replies, MCTSBot) and replies.replies and replies.worlds == REPLY_WORLDS
    assert replies.name == "mcts-replies:300" and replies.simulations == 300
    finish = make_bot("mcts-finish:300", 1)
    assert isinstance(finish, MCTSBot) and finish.replies and finish.worlds == REPLY_WORLDS
    assert finish.finish == FINISH_SHARE and finish.name == "mcts-finish:300"
    assert parse_bots("random,greedy,easy,medium,hard,mcts:50,mcts:0.2s,mcts-replies:40") == \
        ("random", "greedy", "easy", "medium", "hard", "mcts:50", "mcts:0.2s", "mcts-replies:40")


@pytest.mark.parametrize("name", ["mcts", "mcts:", "mcts:0", "mcts:-5", "mcts:1e3", "mcts:abc", "mcts:0s",
                                  "mcts:-1s", "mcts:nans", "mcts:infs", "mcts:٣", "mcts-replies:", "mcts-replies:0",
                                  "hardest", ""])
def test_bad_bot_names_are_refused_in_one_line(name):
    with pytest.raises(DataError) as caught:
        parse_bots(name)
    assert "\n" not in str(caught.value) and "--bots" in str(caught.value)


def test_the_mcts_bot_refuses_a_missing_or_double_budget():
    with pytest.raises(ValueError, match="either"):
        MCTSBot(1)
    with pytest.raises(ValueError, match="either"):
        MCTSBot(1, simulations=5, seconds=1.0)
    with pytest.raises(ValueError, match="simulations"):
        MCTSBot(1, simulations=0)
    with pytest.raises(ValueError, match="replies"):
        MCTSBot(1, simulations=5, replies=True, playout=None)
    with pytest.raises(ValueError, match="worlds"):
        MCTSBot(1, simulations=5, worlds=0)
    with pytest.raises(ValueError, match="replies"):
        MCTSBot(1, simulations=5, finish=0.15)
    for share in (-0.1, 1.5, float("nan"), True, "0.1"):
        with pytest.raises(ValueError, match="finish"):
            MCTSBot(1, simulations=5, replies=True, finish=share)


def test_bench_mcts_prints_simulations_per_second_from_both_kinds_of_position(capsys):
    from samurai.cli import main

    assert main(["bench", "--mcts", "--simulations", "20", "--decisions", "1", "--engine", "python"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "sims/cpu-s" in lines[0]
    assert [line.split()[:4] for line in lines[1:]] == [
        ["2", "python", "rollouts", "first"], ["2", "python", "rollouts", "mid-game"],
        ["2", "python", "replies", "first"], ["2", "python", "replies", "mid-game"]]
    assert all(float(line.split()[-1]) > 0 for line in lines[1:])


@pytest.mark.skipif(native_module() is None, reason="the native engine is not built here")
def test_bench_mcts_prints_the_native_search_beside_the_python_search(capsys):
    from samurai.cli import main

    assert main(["bench", "--mcts", "--simulations", "20", "--decisions", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    searches = [(line.split()[1], line.split()[2]) for line in lines]
    assert searches == [("python", "rollouts")] * 2 + [("native", "rollouts")] * 2 + [("python", "replies")] * 2 + [
        ("native", "replies")] * 2
    assert all(line.endswith("the Python search") for line in lines if line.split()[1] == "native")


def test_bench_levels_times_whole_games_of_each_level(capsys):
    from samurai.cli import main

    assert main(["bench", "--levels", "easy", "--level-games", "1", "--players", "2,3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["level", "players"] and "min/1000" in lines[0]
    rows = [line.split() for line in lines[1:]]
    assert [(row[0], row[1], row[3]) for row in rows] == [("easy", "2", "1"), ("easy", "3", "1")]
    assert all(int(row[4]) > 0 and float(row[5]) > 0 and float(row[6]) > 0 for row in rows)
    assert main(["bench", "--levels", "easy,grandmaster"]) == 2
    assert "--levels: no level 'grandmaster'; the levels are easy, medium, hard" in capsys.readouterr().err


def test_simulate_and_compare_accept_levels_and_budgets(capsys):
    from samurai.cli import main

    assert main(["simulate", "--players", "2", "--games", "1", "--bots", "mcts:20,greedy"]) == 0
    assert "mcts:20" in capsys.readouterr().out
    assert main(["compare", "ffg2015", "original", "--players", "2", "--games", "2", "--bots", "mcts:10",
                 "--workers", "1"]) == 0
