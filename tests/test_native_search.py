"""The information-set search inside the native engine makes the Python search's decisions (issue 23 point 2).

``HexSeatKnowledge.search_natively`` runs ``samurai.search.mcts.MCTSBot``'s search in Rust when the knowledge is
of a native position. With a budget of simulations it must choose exactly the action the Python search chooses for
the same knowledge, seed and budget, drawing the same numbers from the bot's generator: the Python engine's
knowledge of the same position runs the Python search, the reference. Compared here on a corpus of positions
from every phase, both editions and every player count, for every kind of search (the estimate at the leaf,
random actions before it, random playouts to the end, the quick player's replies on common worlds, those mixed
with its play to the end), and on whole seeded games between searching bots.
"""

from __future__ import annotations

import random

import pytest
from native_pairs import scaled

from samurai.search.bots import FINISH_SHARE, REPLY_WORLDS, MCTSBot
from samurai_plugins.knizia.adapters.game_state import HexGameState, start
from samurai_plugins.knizia.adapters.search_bots import make_bot
from samurai_plugins.knizia.core.state import FIGURES, HANDS, PLAY
from samurai_plugins.knizia.engine.backends import native_module

from helpers import write_plugin_edition

pytestmark = pytest.mark.skipif(native_module() is None, reason="the native engine is not built here")

SEARCHES = {
    "estimate": {"playout": 0},
    "random-actions": {"playout": 3},
    "rollouts": {"playout": None},
    "replies": {"replies": True, "worlds": REPLY_WORLDS},
    "replies-fresh-worlds": {"replies": True},
    "replies-finish": {"replies": True, "worlds": REPLY_WORLDS, "finish": FINISH_SHARE},
}
"""Every way ``MCTSBot`` scores a leaf, the replies with and without a pool of common worlds."""

CASES = [(edition, players) for edition in ("ffg2015", "original") for players in (2, 3, 4)]


def _pairs(edition: str, players: int, seed: int, count: int) -> list[tuple[HexGameState, HexGameState]]:
    """``count`` positions of one random game, each on both engines (the native one first), setup included."""
    native, python = start(edition, players, seed, engine="native"), start(edition, players, seed, engine="python")
    rng = random.Random(seed)
    picked: list[tuple[HexGameState, HexGameState]] = []
    # A few of each setup phase the edition plays (where it plays them), the rest from the play phase.
    wanted = {HANDS: 2, FIGURES: 2, PLAY: count - 4}
    while not native.is_over and len(picked) < count:
        phase = native.state.phase
        if wanted[phase] and rng.random() < 0.3:
            wanted[phase] -= 1
            picked.append((native.copy(), python.copy()))
        action = native.sample_action(rng)
        native.apply(action)
        python.apply(action)
    return picked


def _decide(bot: MCTSBot, state: HexGameState) -> tuple[tuple[int, ...], object, int]:
    action = bot.act(state.knowledge(state.to_act))  # type: ignore[arg-type]
    return action, bot.rng.getstate(), bot.last_simulations


@pytest.mark.parametrize("case", CASES, ids=[f"{e}-{p}p" for e, p in CASES])
def test_the_native_search_decides_as_the_python_search(case):
    """Per position and kind of search: the same action, the bot's generator left in the same state, the same
    number of simulations. Over the corpus: positions of every phase the edition plays, for every search."""
    edition, players = case
    compared, phases = 0, set()
    for seed in range(scaled(4)):
        for native, python in _pairs(edition, players, 40 + seed, 8):
            phases.add(native.state.phase)
            for number, (name, options) in enumerate(SEARCHES.items()):
                simulations = 25 + 17 * ((seed + number) % 3)
                bot_seed = seed * 100 + number
                mine = _decide(MCTSBot(bot_seed, simulations=simulations, **options), native)
                reference = _decide(MCTSBot(bot_seed, simulations=simulations, **options), python)
                assert mine == reference, (name, native.state.phase, native.state.turn)
                compared += 1
    assert compared >= 100
    assert phases == {HANDS, FIGURES, PLAY}


@pytest.mark.parametrize("players", [2, 4])
def test_seeded_games_between_searching_bots_are_the_same_on_both_engines(players):
    """A tournament's game, seat by seat: every bot decides the same on both engines, so the games are the same
    action for action and end the same."""
    names = ["mcts-replies:40", "mcts-finish:12", "mcts:30", "easy", "mcts-rollouts:12"][:players]
    for seed in range(scaled(2)):
        games = {}
        for engine in ("native", "python"):
            state = start("ffg2015", players, 500 + seed, engine=engine)
            bots = [make_bot(names[seat], seed * 10 + seat) for seat in range(players)]
            actions = []
            while not state.is_over:
                action = state.ask(bots[state.to_act])
                actions.append(action)
                state.apply(action)
            games[engine] = (actions, state.returns())
        assert games["native"] == games["python"]


def test_a_time_budget_searches_natively_too():
    """``mcts:Xs`` runs the native search for about that long: it reports the simulations it ran (a multiple of
    the clock's check interval) and plays a legal action."""
    state = start("ffg2015", 3, 9, engine="native")
    rng = random.Random(2)
    while state.state.phase != PLAY:
        state.apply(state.sample_action(rng))
    bot = MCTSBot(3, seconds=0.05, replies=True, worlds=REPLY_WORLDS)
    action = bot.act(state.knowledge(state.to_act))  # type: ignore[arg-type]
    assert state.check(action) is None
    assert bot.last_simulations >= 16 and bot.last_simulations % 16 == 0


def test_the_native_search_refuses_what_is_not_a_knowledge():
    """Malformed input from Python is a ValueError naming the problem, never a crash."""
    from samurai_plugins.knizia.engine.backends import native_rules

    state = start("ffg2015", 2, 1, engine="native")
    knowledge = state.knowledge(state.to_act)
    module = native_module()
    assert module is not None
    hand_sizes, pool_sizes, _ = knowledge._sizes
    hidden = knowledge._hidden_tiles()
    args = (native_rules(state.rules), knowledge._pos, knowledge.seat)
    options = {"simulations": 5, "seconds": None, "exploration": 0.35, "playout": 0, "replies": False,
               "worlds": None}
    with pytest.raises(ValueError, match="seats"):
        module.search_decision(*args, hidden[:1], hand_sizes, pool_sizes, random.Random(1), **options)
    with pytest.raises(ValueError, match="tile type"):
        module.search_decision(*args, [list(hidden[0]), [999] * len(hidden[1])], hand_sizes, pool_sizes,
                               random.Random(1), **options)
    with pytest.raises(ValueError, match="unseen"):
        module.search_decision(*args, hidden, [99, 99], pool_sizes, random.Random(1), **options)
    with pytest.raises(ValueError, match="simulations"):
        module.search_decision(*args, hidden, hand_sizes, pool_sizes, random.Random(1),
                               **{**options, "simulations": None})
    waiting = state.knowledge(1 - state.to_act)
    with pytest.raises(ValueError, match="not to act"):
        module.search_decision(native_rules(state.rules), waiting._pos, waiting.seat, waiting._hidden_tiles(),
                               *waiting._sizes[:2], random.Random(1), **options)


MOST_RICE = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result


@hookimpl
def samurai_score(edition, captured, options):
    most = max(castes["rice"] for castes in captured.values())
    winners = tuple(sorted(seat for seat, castes in captured.items() if castes["rice"] == most))
    return Result(winners, "most_rice", f"the most rice fields captured: {most}")
'''


def test_an_edition_that_scores_in_python_is_searched_in_python(tmp_path):
    """The search must score the games it finishes: with an edition's own scoring hook the native engine's
    knowledge declines (``search_natively`` gives None) and the Python search decides, on the native positions,
    as it decides on the Python engine."""
    import samurai

    manifest = write_plugin_edition(tmp_path / "rice", MOST_RICE, key="rice", name="Most rice")
    edition = samurai.load_edition(str(manifest))
    native, python = start(edition, 2, 3, engine="native"), start(edition, 2, 3, engine="python")
    rng = random.Random(3)
    while native.state.phase != PLAY:
        action = native.sample_action(rng)
        native.apply(action)
        python.apply(action)
    knowledge = native.knowledge(native.to_act)
    assert knowledge.search_natively(random.Random(1), simulations=5, seconds=None, exploration=0.35, playout=None,
                                     replies=False, worlds=None) is None
    options = {"simulations": 30, "playout": None}
    assert _decide(MCTSBot(4, **options), native) == _decide(MCTSBot(4, **options), python)


@pytest.mark.parametrize("case", [("ffg2015", 2), ("ffg2015", 4), ("original", 3)], ids=lambda c: f"{c[0]}-{c[1]}p")
def test_the_native_search_gives_the_python_search_root_statistics(case):
    """``MCTSBot.statistics`` (issue 25): per tried root action the same visits and the same mean returns of every
    seat, to the last bit, on both engines; the same decision as ``act`` and the generator left as ``act`` leaves
    it. The mover's mean is the value the search chose by."""
    edition, players = case
    compared = 0
    for seed in range(2):
        for native, python in _pairs(edition, players, 70 + seed, 6):
            for number, name in enumerate(("estimate", "replies", "replies-finish")):
                options = SEARCHES[name]
                simulations = 30 + 11 * number
                found = [MCTSBot(seed + number, simulations=simulations, **options).statistics(
                    state.knowledge(state.to_act)) for state in (native, python)]
                assert found[0] == found[1], (name, native.state.phase)
                acting = MCTSBot(seed + number, simulations=simulations, **options)
                assert acting.act(native.knowledge(native.to_act)) == found[0].chosen
                stats = found[0]
                if stats.forced:
                    continue
                assert sum(row.visits for row in stats.actions) == simulations
                assert all(len(row.means) == players and 0.0 <= min(row.means) for row in stats.actions)
                best = max(stats.actions, key=lambda row: row.visits)
                assert best.visits == stats.of(stats.chosen).visits
                compared += 1
    assert compared >= 20


LONG_SEARCH = '''
import random, sys
from samurai_plugins.knizia.engine.backends import native_module, native_rules
from samurai_plugins.knizia.adapters.game_state import start

state = start("ffg2015", 2, 1, engine="native")
knowledge = state.knowledge(state.to_act)
hand_sizes, pool_sizes, _ = knowledge._sizes
print("searching", flush=True)
try:
    native_module().search_decision(native_rules(state.rules), knowledge._pos, knowledge.seat,
                                    knowledge._hidden_tiles(), hand_sizes, pool_sizes, random.Random(1),
                                    simulations=10**12, seconds=None, exploration=0.35, playout=0, replies=False,
                                    worlds=None)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
print("finished", flush=True)
'''


def test_ctrl_c_ends_a_long_native_search():
    """A native search with a budget of hours ends at SIGINT with KeyboardInterrupt, as the Python search does."""
    import signal
    import subprocess
    import sys
    import time

    child = subprocess.Popen([sys.executable, "-c", LONG_SEARCH], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "searching"
        time.sleep(1.0)  # well into the search
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
    assert child.returncode == 130, err
    assert out.strip() == "interrupted"
