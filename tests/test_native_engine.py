"""The native engine plays exactly the games the Python engine plays (issue 22, point 2).

For the same edition, options, seed and actions both engines list the same legal actions in the same order, draw
the same random actions from equal generators, reach the same position after every action (the game's generator
included), log the same events and end with the same result (winners, reason, explanation, end reason). Compared:
random games action by action and whole (``play_random``), greedy games, whole native games (``play_games``)
against ``simulate.play_game``, every option of the shipped manifests, scenarios for what random games seldom reach
(the greedy player's hands of special tiles among them), illegal actions, positions carried from one engine to the
other, copies, and the native scorings against the editions' scoring hooks.

Every shipped edition of Knizia's game (``editions/*.toml``) is played with 2, 3 and 4 players, and the tiny test
editions (``tests/data``) too: on six settlements ends by exhausted castes, ties and passes come often; and two
test variants whose rules no shipped edition has (``VARIANTS``: fast Move tiles, no passing). The default
run plays some 20,000 games in about a minute; ``SAMURAI_DIFF_SCALE=N`` (a whole number) plays N times as
many of every kind, for a long run before a release::

    SAMURAI_DIFF_SCALE=20 .venv/bin/python -m pytest tests/test_native_engine.py -q
"""

from __future__ import annotations

import copy
import random
import threading
import time
from collections import Counter
from typing import Any

import pytest
from native_pairs import (
    DATA,
    assert_same_position,
    assert_same_result,
    assert_same_verdict,
    edition,
    play_pair,
    require_native,
    rules_of,
    scaled,
    shipped_knizia_editions,
)

import samurai
from samurai.errors import DataError, IllegalAction
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters import runner as simulate
from samurai_plugins.knizia.adapters.game_state import decide
from samurai_plugins.knizia.core.facts import FactsWatch
from samurai_plugins.knizia.core.state import HANDS, OVER, PLAY, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.backends import NATIVE, PYTHON, native_result, native_rules
from samurai_plugins.knizia.engine.greedy import GreedyPlayer
from samurai_plugins.knizia.engine.reference import CHOOSE, END, FIGURE, PLACE, SPECIAL
from samurai_plugins.knizia.play.knowledge import LeftGame

from helpers import TINY_CORE_EDITION, TINY_EDITION, TINY_ORIGINAL_EDITION

native = require_native()

SHIPPED = shipped_knizia_editions()
TINY = [TINY_EDITION, TINY_ORIGINAL_EDITION, TINY_CORE_EDITION, str(DATA / "tiny-few-tiles.toml"),
        str(DATA / "tiny-bounds.toml")]
"""Test editions on the tiny map: the three setups of scoring (leader tokens, majorities, most figures) and one
whose seats own six tiles each, so games end when nobody can play, and one at every bound a manifest allows."""

VARIANTS = [str(DATA / "tiny-fast-move.toml"), str(DATA / "end-when-stuck" / "tiny-end-when-stuck.toml")]
"""Test variants for rule paths no shipped edition takes (issue 38, point 4): fast Move tiles, two a seat; and a
game that ends when the seat to act cannot play, where the others pass that seat (hook ``samurai_cannot_play``)."""

CASES = [(name, players) for name in SHIPPED for players in (2, 3, 4)]
TINY_CASES = [(name, players) for name in TINY for players in edition(name).manifest.players]
VARIANT_CASES = [(name, players) for name in VARIANTS for players in edition(name).manifest.players]


def _id(name: str) -> str:
    return edition(name).id


def _case_id(case: tuple[str, int]) -> str:
    return f"{_id(case[0])}-{case[1]}p"


def _seeds(tag: str, count: int) -> list[int]:
    """``count`` game seeds of their own for one test (``tag``), so no two tests replay the same games."""
    base = sum(ord(c) * 131**i for i, c in enumerate(tag)) % 2**61
    return [derive_seed(base, i) for i in range(count)]


def _new_pair(rules: Rules, seed: int, *, trace: bool = False) -> tuple[State, Any]:
    return PYTHON.new_state(rules, seed, trace=trace), NATIVE.new_state(rules, seed, trace=trace)


def _random_picker(rules: Rules, seed: int, native_twister: bool) -> Any:
    """Each engine draws ``sample_action`` from its own generator seeded ``seed``; the native one from a
    ``MersenneTwister`` or from a ``random.Random`` (both paths of the native sampler)."""
    mine = random.Random(seed)
    theirs = native.MersenneTwister(seed) if native_twister else random.Random(seed)

    def pick(p: State, q: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return PYTHON.sample_action(rules, p, mine), NATIVE.sample_action(rules, q, theirs)

    pick.generators = (mine, theirs)  # type: ignore[attr-defined]
    return pick


# --- random games, position by position -------------------------------------------------------

@pytest.mark.parametrize("case", CASES + TINY_CASES + VARIANT_CASES, ids=_case_id)
def test_random_games_are_the_same_position_by_position(case):
    name, players = case
    rules = rules_of(name, players)
    ends: Counter[str] = Counter()
    count = scaled(200 if case in CASES else 60)
    for number, seed in enumerate(_seeds(f"random-{name}-{players}", count)):
        p, q = _new_pair(rules, seed, trace=number % 2 == 0)
        pick = _random_picker(rules, seed + 1, native_twister=number % 3 == 0)
        play_pair(rules, p, q, pick, where=f"{_id(name)} {players}p seed {seed}")
        mine, theirs = pick.generators
        assert theirs.getstate() == mine.getstate()
        ends[p.end_reason] += 1
    assert sum(ends.values()) == count


def test_the_tiny_games_reach_every_end_and_passes():
    """The tiny editions' random games end in every way the rules know, and seats pass, on both engines."""
    ends: Counter[str] = Counter()
    passes = 0
    for name, players in TINY_CASES:
        rules = rules_of(name, players)
        for seed in _seeds(f"ends-{name}-{players}", scaled(40)):
            p, q = _new_pair(rules, seed, trace=True)
            PYTHON.play_random(rules, p, [random.Random(seed + k) for k in range(players)])
            NATIVE.play_random(rules, q, [random.Random(seed + k) for k in range(players)])
            assert_same_position(p, q, f"{_id(name)} {players}p seed {seed}")
            assert_same_result(p, q)
            ends[p.end_reason] += 1
            passes += sum(1 for event in p.events if event[0] == "pass")
    assert set(ends) == {"caste_exhausted", "removed_by_ties", "no_tiles"}
    assert passes > 0


# --- whole random games ----------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES + TINY_CASES + VARIANT_CASES, ids=_case_id)
def test_whole_random_games_end_the_same(case):
    name, players = case
    rules = rules_of(name, players)
    for number, seed in enumerate(_seeds(f"whole-{name}-{players}", scaled(500))):
        p, q = _new_pair(rules, seed)
        if number % 4 == 0:  # a game with some actions played one by one first (the setup's, say)
            rng_p, rng_q = random.Random(seed), random.Random(seed)
            for _ in range(number % 37):
                if p.phase == OVER:
                    break
                PYTHON.apply(rules, p, PYTHON.sample_action(rules, p, rng_p))
                NATIVE.apply(rules, q, NATIVE.sample_action(rules, q, rng_q))
        mine = [random.Random(derive_seed(seed, k)) for k in range(players)]
        theirs = [random.Random(derive_seed(seed, k)) for k in range(players)]
        if number % 5 == 1:
            theirs = [native.MersenneTwister(derive_seed(seed, k)) for k in range(players)]
        if number % 7 == 2:  # two seats sharing one generator
            mine[1], theirs[1] = mine[0], theirs[0]
        where = f"{_id(name)} {players}p seed {seed}"
        if number % 3 == 0:
            seen_p: list[tuple[int, ...]] = []
            seen_q: list[tuple[int, ...]] = []
            assert NATIVE.play_random(rules, q, theirs, after=seen_q.append) == \
                PYTHON.play_random(rules, p, mine, after=seen_p.append), where
            assert seen_q == seen_p, where
        else:
            assert NATIVE.play_random(rules, q, theirs) == PYTHON.play_random(rules, p, mine), where
        assert_same_position(p, q, where)
        assert_same_result(p, q, where)
        assert [g.getstate() for g in theirs] == [g.getstate() for g in mine], where


# --- greedy games ----------------------------------------------------------------------------

def _greedy_picker(rules: Rules, seed: int, greedy: list[bool]) -> Any:
    """Each seat draws from a generator of its own seeded from ``seed``, equal on both engines: a greedy seat
    (``greedy[seat]``) asks the Python greedy player (through ``position.decide`` on its seat's knowledge) and the
    native one, any other seat samples a random action."""
    seats = [random.Random(derive_seed(seed, k)) for k in range(rules.players)]
    twins = [random.Random(derive_seed(seed, k)) for k in range(rules.players)]
    left = LeftGame()

    def pick(p: State, q: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        seat = p.current
        if greedy[seat]:
            return decide(GreedyPlayer(seats[seat]), rules, p, seat, left), NATIVE.greedy_action(rules, q, twins[seat])
        return PYTHON.sample_action(rules, p, seats[seat]), NATIVE.sample_action(rules, q, twins[seat])

    pick.generators = (seats, twins)  # type: ignore[attr-defined]
    return pick


@pytest.mark.parametrize("case", CASES + TINY_CASES[:3] + VARIANT_CASES, ids=_case_id)
def test_greedy_games_make_the_same_decisions(case):
    """The greedy player (Python, through ``position.decide`` on its seat's knowledge) and the native greedy
    player pick the same action from equal generators; mixed with random seats too."""
    name, players = case
    rules = rules_of(name, players)
    for number, seed in enumerate(_seeds(f"greedy-{name}-{players}", scaled(60))):
        greedy = [number % 2 == 0 or k % 2 == 0 for k in range(players)]  # every other game: greedy and random
        pick = _greedy_picker(rules, seed, greedy)
        p, q = _new_pair(rules, seed)
        play_pair(rules, p, q, pick, where=f"{_id(name)} {players}p greedy seed {seed}", legal=number == 0)
        seats, twins = pick.generators
        assert [g.getstate() for g in twins] == [g.getstate() for g in seats]


# --- whole native games against the runner's games -------------------------------------------

BOT_LINEUPS = (["random"], ["greedy"], ["greedy", "random"], ["random", "random", "greedy"])


@pytest.mark.parametrize("case", CASES + TINY_CASES[:3] + VARIANT_CASES, ids=_case_id)
def test_native_whole_games_are_the_games_simulate_plays(case):
    """``play_games`` (a whole game per seed in Rust) gives what ``simulate.play_game`` on the Python engine gives
    for the same seed and bots: winners, reason, end reason, turns, tiles played, captures, removals, every action
    and the leader after the middle turn that ``samurai compare``'s facts watch notes."""
    name, players = case
    rules = rules_of(name, players)
    for bots in BOT_LINEUPS:
        games = scaled(150 if bots == ["random"] else 12)
        seeds = _seeds(f"play-games-{name}-{players}-{bots}", games)
        for seed, row in zip(seeds, native.play_games(native_rules(rules), seeds, bots, True), strict=True):
            row_seed, winners, reason, returns, end_reason, turns, tiles, per_seat, removed, played, leader, \
                actions = row
            assert row_seed == seed and all(len(castes) == 3 for castes in per_seat)
            captured = [count for castes in per_seat for count in castes]
            expected: list[tuple[int, ...]] = []
            watch = FactsWatch(players)
            st = simulate.play_game(rules, seed, bots, actions=expected, watch=watch.see, engine="python")
            where = f"{_id(name)} {players}p {bots} seed {seed}"
            assert st.result is not None
            result = native_result(rules, captured, winners, reason, end_reason)
            assert (result.winners, result.reason, result.end_reason) == \
                (st.result.winners, st.result.reason, st.result.end_reason), where
            assert result.explanation == st.result.explanation, where
            assert (end_reason, turns, tiles, list(captured), removed) == \
                (st.end_reason, st.turn, st.tiles_played, st.captured, st.removed_total), where
            assert played == len(expected) and actions == expected, where
            assert leader == watch.facts(st).midpoint_leader, where
            assert returns == st.result.shares(players), where


def test_native_seeds_of_a_run_are_derive_seeds():
    """The seeds a native batch derives for a run's games are ``samurai.seeds.derive_seed``'s, for every run seed a
    run accepts (0 to 2**63 - 1) and large game numbers."""
    indices = [0, 1, 2, 999, 123_456_789, 2 ** 40]
    for seed in (0, 1, 17, 2 ** 32, 2 ** 63 - 1):
        assert native.derive_seeds(seed, indices) == [derive_seed(seed, i) for i in indices]
        assert [native.derive_seed(seed, i) for i in indices] == [derive_seed(seed, i) for i in indices]


def test_play_games_refuses_what_it_cannot_play():
    rules = rules_of("ffg2015", 2)
    with pytest.raises(ValueError, match="no native bot"):
        native.play_games(native_rules(rules), [1], ["mcts"])
    with pytest.raises(ValueError, match="no bots"):
        native.play_games(native_rules(rules), [1], [])
    assert native.play_games(native_rules(rules), [], ["random"]) == []



def test_a_long_native_batch_lets_other_threads_run():
    """``play_games`` and ``playouts`` release the GIL while they play: a Dask worker's event loop (heartbeats, the
    cluster's close) and a server's requests go on during a long batch. Another thread notes the time while a batch
    runs in a thread of its own; with the GIL held throughout, no note could fall strictly inside the call."""
    rules = rules_of("ffg2015", 4)
    _, state = _new_pair(rules, 5)
    calls = {"play_games": lambda: native.play_games(native_rules(rules), list(range(scaled(20000))), ["random"]),
             "playouts": lambda: state.playouts(random.Random(3), scaled(20000))}
    for name, call in calls.items():
        span: list[int] = []
        started = threading.Event()
        worker = threading.Thread(target=_timed, args=(call, started, span))
        worker.start()
        started.wait(timeout=60)
        notes = []
        while worker.is_alive() and len(notes) < 100_000:
            notes.append(time.perf_counter_ns())
            time.sleep(0.0005)
        worker.join(timeout=300)
        assert not worker.is_alive() and len(span) == 2, name
        inside = [t for t in notes if span[0] < t < span[1]]
        assert len(inside) >= 3, f"{name}: {len(inside)} notes in a call of {(span[1] - span[0]) / 1e6:.0f} ms"


def _timed(call: Any, started: threading.Event, span: list[int]) -> None:
    started.set()
    span.append(time.perf_counter_ns())
    call()
    span.append(time.perf_counter_ns())


# --- every option of the shipped manifests ---------------------------------------------------

def _option_values(name: str, option: str, players: int) -> list[Any]:
    spec = edition(name).manifest.options[option]
    if spec.choices:
        return list(spec.choices)
    if option == "first_player":
        return list(range(players))
    if option == "removed_to_end":
        return [1, 2, 3, 6, 50]
    raise AssertionError(f"option {option!r} of {name}: add the values to play it with here")


OPTION_CASES = sorted({(name, option, players, value)
                       for name in SHIPPED for option in edition(name).manifest.options for players in (2, 4)
                       for value in _option_values(name, option, players)}, key=str)


@pytest.mark.parametrize("case", OPTION_CASES, ids=lambda c: f"{_id(c[0])}-{c[1]}={c[3]}-{c[2]}p")
def test_every_option_plays_the_same_games(case):
    name, option, players, value = case
    rules = rules_of(name, players, ((option, value),))
    for number, seed in enumerate(_seeds(f"option-{case}", scaled(8))):
        p, q = _new_pair(rules, seed, trace=True)
        play_pair(rules, p, q, _random_picker(rules, seed, number % 2 == 1), where=f"{case} seed {seed}",
                  legal=number == 0)
    for seed in _seeds(f"option-whole-{case}", scaled(50)):
        p, q = _new_pair(rules, seed)
        assert NATIVE.play_random(rules, q, [random.Random(seed + k) for k in range(players)]) == \
            PYTHON.play_random(rules, p, [random.Random(seed + k) for k in range(players)])
        assert_same_position(p, q, f"{case} whole seed {seed}")
        assert_same_result(p, q)


def test_two_options_together_and_the_first_player_acts_first():
    rules = rules_of("ffg2015", 3, (("first_player", 2), ("removed_to_end", 2), ("starting_hands", "random")))
    p, q = _new_pair(rules, 5)
    assert p.current == q.current == 2 and q.phase != HANDS
    play_pair(rules, p, q, _random_picker(rules, 5, True))


# --- scenarios: what random games seldom reach -----------------------------------------------

EVERY_FIGURE = {"Kita": ["castle"], "Higashi": ["buddha"], "Miyako": ["buddha", "rice", "castle"],
                "Machi": ["buddha", "rice"], "Nishi": ["rice"], "Minami": ["castle"]}
"""The tiny map's nine figures (three of each caste). Kita (1, 1) is a castle village with two land hexes,
(2, 1) and (2, 2), and sea at (0, 1), (1, 0), (2, 0), (1, 2)."""
HAND = ["samurai-1", "samurai-2", "ronin", "ship-1", "move"]


def _scenario(name: str, players: int, *, to_act: int = 0, tiles: tuple[tuple[tuple[int, int], str, int], ...] = (),
              figures: dict[str, list[str]] | None = None, hands: dict[int, list[str]] | None = None,
              captured: dict[int, dict[str, int]] | None = None, removed: dict[str, int] | None = None,
              stacks: dict[int, list[str]] | None = None, options: dict[str, Any] | None = None,
              seed: int = 7) -> tuple[Rules, State, Any]:
    """A tiny-map scenario at turn 5 as a Python ``State`` and its native twin (``NATIVE.of_state``)."""
    data: dict[str, Any] = {
        "players": players, "to_act": to_act, "turn": 5, "figures": figures or EVERY_FIGURE,
        "tiles": [{"at": list(at), "tile": tile, "owner": owner} for at, tile, owner in tiles],
        "seats": [{"hand": (hands or {}).get(seat, HAND), "captured": (captured or {}).get(seat, {})}
                  for seat in range(players)],
        "removed": removed or {}}
    for seat, stack in (stacks or {}).items():
        data["seats"][seat]["stack"] = stack
    game = samurai.new_game(edition(name), seed=seed, scenario=data, options=options, trace=True, engine="python")
    st = game.state
    return game.rules, st.copy(), NATIVE.of_state(game.rules, st)


def _place(rules: Rules, tile: str, at: tuple[int, int]) -> tuple[int, ...]:
    return PLACE, rules.tile_index[tile], rules.board.index[at]


def _move(rules: Rules, source: tuple[int, int], target: tuple[int, int]) -> tuple[int, ...]:
    return SPECIAL, rules.tile_index["move"], rules.board.index[source], rules.board.index[target]


def _switch(rules: Rules, first: str, first_caste: str, second: str, second_caste: str) -> tuple[int, ...]:
    names = [s.name for s in rules.board.settlements]
    return (SPECIAL, rules.tile_index["switch"], names.index(first), CASTES.index(first_caste), names.index(second),
            CASTES.index(second_caste))


def _script(rules: Rules, p: State, q: Any, actions: list[tuple[int, ...]]) -> None:
    """Play ``actions`` on both engines, each legal on both, comparing the positions after each."""
    for action in actions:
        assert NATIVE.legal_actions(rules, q) == PYTHON.legal_actions(rules, p)
        assert assert_same_verdict(rules, p, q, action) is None, action
        PYTHON.apply(rules, p, action)
        NATIVE.apply(rules, q, action)
        assert_same_position(p, q, f"after {action}")


def _continue_randomly(rules: Rules, p: State, q: Any, games: int = 8) -> None:
    """Play on from the pair's position to the end, several random ways, on copies; compare throughout."""
    for seed in range(games):
        play_pair(rules, p.copy(), q.copy(), _random_picker(rules, seed, seed % 2 == 0), where=f"seed {seed}")


@pytest.mark.parametrize("name", [TINY_EDITION, TINY_ORIGINAL_EDITION], ids=_id)
def test_a_three_way_tie_for_highest_influence_removes_the_figure(name):
    # Kita's castle: seat 0 has samurai-2 on land, seat 1 a ship-2 at sea, seat 2 closes it with samurai-2: 2, 2, 2.
    rules, p, q = _scenario(name, 3, to_act=2, tiles=(((2, 1), "samurai-2", 0), ((0, 1), "ship-2", 1)))
    _script(rules, p, q, [_place(rules, "samurai-2", (2, 2)), (END,)])
    kita = [s.name for s in rules.board.settlements].index("Kita")
    castle = CASTES.index("castle")
    for st in (p, q):
        assert ("remove", kita, castle, (2, 2, 2)) in st.events
        assert st.removed[castle] == 1 and st.figures[kita] == 0 and sum(st.captured) == 0
    _continue_randomly(rules, p, q)


def test_a_four_way_tie_among_some_seats_and_a_lone_zero():
    # Four seats: three tie on 2, the fourth has nothing beside Kita: removed, not given to anyone.
    rules, p, q = _scenario(TINY_EDITION, 4, to_act=2, tiles=(((2, 1), "samurai-2", 0), ((0, 1), "ship-2", 1)))
    _script(rules, p, q, [_place(rules, "samurai-2", (2, 2)), (END,)])
    kita = [s.name for s in rules.board.settlements].index("Kita")
    assert ("remove", kita, CASTES.index("castle"), (2, 2, 2, 0)) in q.events
    _continue_randomly(rules, p, q, games=4)


ENDGAME_FIGURES = {"Kita": ["castle"], "Higashi": ["buddha"], "Miyako": ["buddha", "rice", "castle"],
                   "Minami": ["castle"]}
"""Three figures removed already (one buddha, two rice): six on the board."""


def test_the_original_ends_at_once_at_the_fourth_removed_figure():
    rules, p, q = _scenario(TINY_ORIGINAL_EDITION, 2, to_act=1, tiles=(((2, 1), "samurai-2", 0),),
                            figures=ENDGAME_FIGURES, removed={"buddha": 1, "rice": 2})
    action = _place(rules, "samurai-2", (2, 2))  # Kita tied 2 against 2: the fourth removed figure
    assert assert_same_verdict(rules, p, q, action) is None
    PYTHON.apply(rules, p, action)
    NATIVE.apply(rules, q, action)
    assert_same_position(p, q)
    assert q.phase == OVER and q.end_reason == "removed_by_ties" and q.removed_total == 4 and q.played == 1
    assert_same_result(p, q)


def test_ffg_ends_at_the_fourth_removed_figure_only_at_the_end_of_the_turn():
    rules, p, q = _scenario(TINY_EDITION, 2, to_act=1, tiles=(((2, 1), "samurai-2", 0),),
                            figures=ENDGAME_FIGURES, removed={"buddha": 1, "rice": 2})
    # Kita tied 2 against 2, then a fast tile far from Kita.
    _script(rules, p, q, [_place(rules, "samurai-2", (2, 2)), _place(rules, "ronin", (3, 2))])
    # Resolved at the end of the turn (docs/rules/samurai.md#resolution-timing).
    assert q.phase == PLAY and q.removed_total == 3
    _script(rules, p, q, [(END,)])
    assert q.phase == OVER and q.end_reason == "removed_by_ties" and q.removed_total == 4
    assert_same_result(p, q)


@pytest.mark.parametrize("name", [TINY_EDITION, TINY_ORIGINAL_EDITION, TINY_CORE_EDITION], ids=_id)
def test_a_caste_exhausted_ends_the_game(name):
    # Kita holds the last castle on the board; seat 1 captured the other two. Seat 0 surrounds and takes it.
    hand = HAND if name != TINY_CORE_EDITION else ["samurai-1", "samurai-2", "samurai-3", "castle-3", "castle-4"]
    rules, p, q = _scenario(name, 2, figures={"Kita": ["castle"], "Higashi": ["buddha"], "Machi": ["buddha", "rice"],
                                              "Nishi": ["rice"]}, tiles=(((2, 1), "castle-2", 0),),
                            hands={0: hand, 1: hand}, captured={1: {"castle": 2, "buddha": 1, "rice": 1}})
    _script(rules, p, q, [_place(rules, "samurai-1", (2, 2))])
    if q.phase != OVER:  # FFG and the default rules resolve at the end of the turn
        _script(rules, p, q, [(END,)])
    assert q.phase == OVER and q.end_reason == "caste_exhausted" and q.on_board[CASTES.index("castle")] == 0
    assert q.captured[CASTES.index("castle")] == 1
    assert_same_result(p, q)


def test_seats_that_cannot_play_pass_and_the_game_ends_when_none_can():
    # Seats 1 and 2 hold only Move with none of their tiles on the board, and empty stacks: they cannot play
    # and pass; seat 0 plays its last tile, then nobody can play: the game ends (no_tiles).
    rules, p, q = _scenario(TINY_EDITION, 3, hands={0: ["samurai-2", "samurai-1"], 1: ["move"], 2: ["move"]},
                            stacks={0: [], 1: [], 2: []})
    _script(rules, p, q, [_place(rules, "samurai-2", (3, 2)), (END,)])
    assert q.current == 0 and [e for e in q.events if e[0] == "pass"] == [("pass", 1), ("pass", 2)]
    _script(rules, p, q, [_place(rules, "samurai-1", (4, 2)), (END,)])
    assert q.phase == OVER and q.end_reason == "no_tiles"
    assert [e for e in q.events if e[0] == "pass"][2:] == [("pass", 1), ("pass", 2), ("pass", 0)]
    assert_same_result(p, q)


def _kita_move_scenario(name: str) -> tuple[Rules, State, Any]:
    """Seat 0's castle-4 beside Kita since an earlier turn, seat 1's samurai-2 at sea; seat 0 to act with Move."""
    return _scenario(name, 2, tiles=(((2, 1), "castle-4", 0), ((0, 1), "ship-2", 1), ((4, 4), "rice-4", 1)),
                     hands={0: ["move", "ronin", "samurai-1", "ship-1", "switch"]})


@pytest.mark.parametrize("name", [TINY_EDITION, TINY_ORIGINAL_EDITION], ids=_id)
def test_move_edge_cases_are_judged_and_played_alike(name):
    rules, p, q = _kita_move_scenario(name)
    bad = [
        _move(rules, (2, 2), (3, 2)),  # no tile at the source
        _move(rules, (4, 4), (3, 2)),  # an opponent's tile
        _move(rules, (0, 1), (3, 2)),  # an opponent's ship (not movable)
        _move(rules, (2, 1), (1, 0)),  # to a sea hex
        _move(rules, (2, 1), (4, 4)),  # to an occupied hex
        _move(rules, (2, 1), (1, 1)),  # to a settlement
        _move(rules, (2, 1), (2, 1)),  # onto itself
        (SPECIAL, rules.tile_index["move"], rules.board.index[(2, 1)]),  # one target short
        (SPECIAL, rules.tile_index["move"], 0, 1, 2),  # one target too many
        (SPECIAL, rules.tile_index["move"], rules.board.size, 0),  # off the board
        (PLACE, rules.tile_index["move"], rules.board.index[(3, 2)]),  # a special tile placed
    ]
    for action in bad:
        assert assert_same_verdict(rules, p, q, action) is not None, action
    # Ronin closes Kita (castle-4 + 1 against 2), then Move takes the castle-4 away before the turn's resolution.
    _script(rules, p, q, [_place(rules, "ronin", (2, 2))])
    moved_this_turn = _move(rules, (2, 2), (3, 2))  # the ronin is fast and placed this turn
    assert assert_same_verdict(rules, p, q, moved_this_turn) is not None
    _script(rules, p, q, [_move(rules, (2, 1), (3, 2))])
    assert assert_same_verdict(rules, p, q, _place(rules, "samurai-1", (4, 2))) is not None  # Move was the normal
    _script(rules, p, q, [(END,)])
    _continue_randomly(rules, p, q)


@pytest.mark.parametrize("name", [TINY_EDITION, TINY_ORIGINAL_EDITION], ids=_id)
def test_switch_edge_cases_are_judged_and_played_alike(name):
    rules, p, q = _kita_move_scenario(name)
    bad = [
        _switch(rules, "Kita", "castle", "Kita", "castle"),  # one settlement
        _switch(rules, "Kita", "castle", "Minami", "castle"),  # one caste
        _switch(rules, "Kita", "buddha", "Higashi", "castle"),  # no buddha in Kita
        _switch(rules, "Kita", "castle", "Higashi", "rice"),  # no rice in Higashi
        _switch(rules, "Kita", "castle", "Miyako", "buddha"),  # Miyako would hold two castles
        _switch(rules, "Machi", "rice", "Miyako", "castle"),  # Miyako would hold two rice... and Machi two castles
        (SPECIAL, rules.tile_index["switch"], 0, 0, 1),  # one number short
        (SPECIAL, rules.tile_index["switch"], 0, 2, 1, 0, 0),  # one too many
        (SPECIAL, rules.tile_index["switch"], 0, 3, 1, 0),  # caste 3
        (SPECIAL, rules.tile_index["switch"], len(rules.board.settlements), 0, 1, 1),  # no such settlement
        (SPECIAL, rules.tile_index["switch"], 1, 0, len(rules.board.settlements), 2),
    ]
    for action in bad:
        assert assert_same_verdict(rules, p, q, action) is not None, action
    # Switch is fast: after the normal tile, swap Kita's castle with Higashi's buddha, then into the capital.
    _script(rules, p, q, [_place(rules, "samurai-1", (3, 2)), _switch(rules, "Kita", "castle", "Higashi", "buddha")])
    kita, higashi = ([s.name for s in rules.board.settlements].index(n) for n in ("Kita", "Higashi"))
    assert q.figures[kita] == 1 << CASTES.index("buddha") and q.figures[higashi] == 1 << CASTES.index("castle")
    assert q.spent[0] == p.spent[0]
    _script(rules, p, q, [(END,)])
    _continue_randomly(rules, p, q)


LOSING_MOVES = {
    "a Move loses as much as a Switch": ((((4, 3), "samurai-1", 0),), ["move", "switch"], {"move", "switch"}),
    "every Move loses more than a Switch": ((((4, 3), "samurai-1", 0), ((4, 4), "samurai-1", 1)), ["move", "switch"],
                                            {"switch"}),
    "only Moves, each losing": ((((4, 3), "samurai-1", 0), ((4, 4), "samurai-1", 1)), ["move"], {"move"}),
}
"""Seat 0's hand of special tiles only (its stack empty), the tiles on the board, and the tiles among whose best
actions the greedy player draws. Seat 0's samurai-1 at (4, 3) counts for Miyako's three figures and Machi's two:
worth 5 there, it is worth less on any empty land hex (4 at (4, 4), by Minami, unless the opponent's tile stands
there; 3 at most elsewhere). With every Move losing, the greedy player weighs every legal action, each Switch at -1
(the native player leaves its one pass over the worths for that list; issue 38, point 4)."""


def _losing_moves(position: str) -> tuple[Rules, State, Any]:
    tiles, hand, _ = LOSING_MOVES[position]
    return _scenario(TINY_EDITION, 2, tiles=tiles, hands={0: hand}, stacks={0: []})


@pytest.mark.parametrize("position", LOSING_MOVES)
def test_the_greedy_players_decide_alike_when_every_move_loses(position):
    """Decision by decision on equal generators, and the ties drawn among are the rule's: a Move losing as much as
    a Switch ties with every Switch, a Switch beats Moves that lose more, Moves that lose alike tie."""
    rules, p, q = _losing_moves(position)
    picked: set[tuple[int, ...]] = set()
    for seed in range(60):
        mine, theirs = random.Random(seed), random.Random(seed)
        action = decide(GreedyPlayer(mine), rules, p, 0, LeftGame())
        assert NATIVE.greedy_action(rules, q, theirs) == action, f"{position} seed {seed}"
        assert theirs.getstate() == mine.getstate()
        picked.add(action)
    assert {rules.tile_types[action[1]].name for action in picked} == LOSING_MOVES[position][2]
    assert len(picked) > 1 and all(action[0] == SPECIAL for action in picked)


@pytest.mark.parametrize("position", LOSING_MOVES)
def test_greedy_games_from_hands_of_special_tiles_are_the_same(position):
    """Whole greedy games (and greedy against random) from those positions, compared action by action: seat 0
    holds only special tiles for the rest of the game."""
    rules, p, q = _losing_moves(position)
    for seed in range(scaled(12)):
        pick = _greedy_picker(rules, seed, [True, seed % 2 == 0])
        play_pair(rules, p.copy(), q.copy(), pick, where=f"{position} seed {seed}", legal=seed < 2)


# --- variants: fast Move tiles, and a game that ends when the seat to act cannot play -----------

def test_fast_moves_in_every_order_of_a_turn_play_alike():
    """The fast-Move variant's random games, compared action by action (as every game of ``VARIANT_CASES``), play
    a Move after the turn's normal tile, a normal tile after a Move, and a second Move in one turn."""
    rules = rules_of(VARIANTS[0], 3)
    move = rules.tile_index["move"]
    orders: Counter[str] = Counter()

    def noting(pick: Any) -> Any:
        def pick_and_note(p: State, q: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
            a, b = pick(p, q)
            # A Move played this turn left its tile on its source, placed this turn.
            moved = any(p.tile_type[h] == move and p.tile_turn[h] == p.turn for h in rules.board.land_hexes)
            if a[0] == SPECIAL and a[1] == move:
                orders["a Move after the normal tile"] += p.normal_played
                orders["a Move after a Move"] += moved
            elif a[0] == PLACE and not rules.tile_fast[a[1]]:
                orders["the normal tile after a Move"] += moved
            return a, b
        return pick_and_note

    for seed in _seeds("fast-move-orders", scaled(30)):
        play_pair(rules, *_new_pair(rules, seed), noting(_random_picker(rules, seed, seed % 2 == 0)),
                  where=f"fast move seed {seed}")
    assert len(+orders) == 3, orders


@pytest.mark.parametrize("players", (2, 3))
def test_where_a_seat_that_cannot_play_ends_the_game_nobody_passes(players):
    """The variant's random games, compared action by action, end at once when the seat to act cannot play: never a
    pass, and some end so while a seat still holds tiles (where the default would pass the seat and go on)."""
    rules = rules_of(VARIANTS[1], players)
    assert not rules.pass_when_unable
    ended_holding = 0
    for seed in _seeds(f"end-when-stuck-{players}", scaled(30)):
        p, q = _new_pair(rules, seed, trace=True)
        play_pair(rules, p, q, _random_picker(rules, seed, seed % 2 == 0), where=f"end when stuck seed {seed}")
        assert not [event for event in q.events if event[0] == "pass"]
        ended_holding += p.end_reason == "no_tiles" and any(p.hands)
    assert ended_holding > 0


@pytest.mark.parametrize("hand", [[], ["move"]], ids=["nothing", "a Move with nothing to take"])
def test_a_seat_left_with_nothing_to_play_ends_the_game_at_once_alike(hand):
    # Seat 1 holds nothing it can play (nothing, or a Move with none of its tiles on the board), its stack empty:
    # where the default passes it, this variant ends the game when seat 0 ends its turn.
    rules, p, q = _scenario(VARIANTS[1], 3, hands={0: ["samurai-2", "samurai-1"], 1: hand, 2: ["samurai-1"]},
                            stacks={0: [], 1: [], 2: []})
    _script(rules, p, q, [_place(rules, "samurai-2", (3, 2)), (END,)])
    assert q.phase == OVER and q.end_reason == "no_tiles" and not [e for e in q.events if e[0] == "pass"]
    assert_same_result(p, q)


# --- illegal actions -------------------------------------------------------------------------

def _bad_actions(rules: Rules, st: State) -> list[Any]:
    """A corpus of actions that are wrong now in some way, built from the position."""
    seat = st.current
    types, size, settlements = len(rules.tile_types), rules.board.size, len(rules.board.settlements)
    hand = st.hands[seat] if st.phase != OVER else []
    missing = [t for t in range(types) if t not in hand and t not in st.pools[seat]]
    occupied = [h for h in range(size) if st.tile_owner[h] >= 0]
    land = list(rules.board.land_hexes)
    sea = list(rules.board.sea_hexes)
    towns = [h for h in range(size) if rules.board.settlement_at[h] >= 0]
    land_tile = next((t for t in hand if rules.tile_on[t] == 0), 0)
    sea_tile = next((t for t in hand if rules.tile_on[t] == 1), rules.tile_index.get("ship-1", 0))
    special = [t for t in range(types) if rules.tile_on[t] == 2]
    corpus: list[Any] = [
        (), (CHOOSE,), (CHOOSE, 0, 0), (FIGURE, 0), (FIGURE, 0, 0, 0), (PLACE, land_tile), (PLACE, land_tile, 0, 0),
        (END, 0), (5,), (9, 1, 2), (SPECIAL,), [PLACE, land_tile, land[0]], "end", None, (END, None),
        (PLACE, True, land[0]), (PLACE, 1.0, land[0]), (-1,), (PLACE, -1, land[0]), (PLACE, land_tile, -1),
        (PLACE, 2**64, 0), (PLACE, land_tile, 2**70), (CHOOSE, 2**63), (CHOOSE, types), (CHOOSE, 2**40),
        (FIGURE, 3, 0), (FIGURE, 0, settlements), (FIGURE, 2**63, 2**63), (FIGURE, 0, 0), (FIGURE, 2, settlements - 1),
        (PLACE, types, land[0]), (PLACE, land_tile, size), (PLACE, land_tile, 2**50), (END,),
    ]
    corpus += [(PLACE, t, land[0]) for t in missing[:3]] + [(CHOOSE, t) for t in missing[:2]]
    corpus += [(PLACE, land_tile, h) for h in occupied[:3] + sea[:2] + towns[:2]]
    corpus += [(PLACE, sea_tile, h) for h in land[:2] + towns[:1] + [h for h in occupied if h in sea][:1]]
    for tile in special:
        corpus += [(SPECIAL, tile), (SPECIAL, tile, 0), (SPECIAL, tile, size, size), (SPECIAL, tile, 0, 0, 0, 0),
                   (SPECIAL, tile, *occupied[:1], *sea[:1]), (SPECIAL, tile, settlements, 0, 0, 1),
                   (SPECIAL, tile, 0, 3, 1, 0), (SPECIAL, tile, 0, 0, 0, 1), (PLACE, tile, land[0])]
    corpus += [(SPECIAL, t, 0, 1) for t in range(types) if rules.tile_on[t] != 2][:2]
    return corpus


@pytest.mark.parametrize("case", CASES + TINY_CASES[:3] + VARIANT_CASES, ids=_case_id)
def test_illegal_actions_are_refused_alike_and_change_nothing(case):
    name, players = case
    rules = rules_of(name, players)
    refused = Counter()
    for seed in _seeds(f"illegal-{name}-{players}", scaled(8)):
        p, q = _new_pair(rules, seed)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % (9 if p.phase == PLAY else 4) == 0:
                for action in _bad_actions(rules, p) + PYTHON.legal_actions(rules, p)[:3]:
                    refused[assert_same_verdict(rules, p, q, action) is not None] += 1
            if p.phase == OVER:
                break
            action = PYTHON.sample_action(rules, p, rng)
            PYTHON.apply(rules, p, action)
            NATIVE.apply(rules, q, action)
            step += 1
        assert_same_position(p, q)
    assert refused[True] > refused[False] > 0


def test_a_native_refusal_names_the_action_and_the_reason():
    rules = rules_of("ffg2015", 2, (("starting_hands", "random"), ("figure_distribution", "random")))
    q = NATIVE.new_state(rules, 3)
    with pytest.raises(IllegalAction, match="before ending the turn"):
        q.apply((END,))
    with pytest.raises(IllegalAction):
        q.apply((PLACE, 2**64, 0))
    with pytest.raises(IllegalAction):
        q.apply("end")
    tile = next(t for t in q.hands[q.current] if rules.tile_on[t] == 0)  # a land tile in hand
    assert NATIVE.check(rules, q, (PLACE, tile, rules.board.sea_hexes[0])) == \
        PYTHON.check(rules, PYTHON.new_state(rules, 3), (PLACE, tile, rules.board.sea_hexes[0])) is not None
    with pytest.raises(IndexError):  # where the Python engine indexes past the board
        NATIVE.check(rules, q, (PLACE, tile, rules.board.size))


# --- positions carried across engines, and copies --------------------------------------------

@pytest.mark.parametrize("case", CASES[::2] + TINY_CASES[:2], ids=_case_id)
def test_a_position_carried_to_the_native_engine_goes_on_as_the_python_one(case):
    name, players = case
    rules = rules_of(name, players)
    for number, seed in enumerate(_seeds(f"carry-{name}-{players}", scaled(6))):
        p = PYTHON.new_state(rules, seed, trace=number % 2 == 0)
        rng = random.Random(seed)
        for _ in range(seed % 150):  # anywhere: setup, play, or the game already over
            if p.phase == OVER:
                break
            PYTHON.apply(rules, p, PYTHON.sample_action(rules, p, rng))
        q = NATIVE.of_state(rules, p)
        assert_same_position(p, q)
        if p.phase == OVER:
            assert q.result == p.result
            continue
        play_pair(rules, p, q, _random_picker(rules, seed, number % 2 == 0), legal=number == 0)


@pytest.mark.parametrize("case", [("ffg2015", 4), ("original", 3), ("ffg2015", 2)], ids=_case_id)
def test_playouts_inside_the_engine_are_random_playouts_of_copies(case):
    """``NativeState.playouts(rng, n)`` (a search's rollouts with no Python between them) plays exactly the ``n``
    games that ``n`` Python-engine playouts of copies play: the same actions in all, the generator left in the same
    state, the position itself unchanged."""
    name, players = case
    rules = rules_of(name, players)
    p, q = _new_pair(rules, 23)
    rng = random.Random(4)
    while p.phase != PLAY or p.turn < 4:
        action = PYTHON.sample_action(rules, p, rng)
        PYTHON.apply(rules, p, action)
        NATIVE.apply(rules, q, action)
    before = q.fingerprint()
    for native_twister in (False, True):
        mine = random.Random(17)
        expected = sum(PYTHON.play_random(rules, p.copy(), [mine] * players) for _ in range(25))
        theirs = native.MersenneTwister(17) if native_twister else random.Random(17)
        assert q.playouts(theirs, 25) == expected
        assert theirs.getstate() == mine.getstate()
    assert q.fingerprint() == before == p.fingerprint()


def test_copies_are_independent_on_both_engines():
    rules = rules_of("ffg2015", 3)
    p, q = _new_pair(rules, 11)
    rng = random.Random(2)
    for _ in range(60):
        action = PYTHON.sample_action(rules, p, rng)
        PYTHON.apply(rules, p, action)
        NATIVE.apply(rules, q, action)
    before = q.fingerprint()
    for st, engine in ((p, PYTHON), (q, NATIVE)):
        twin = st.copy()
        engine.play_random(rules, twin, [random.Random(k) for k in range(3)])
        assert twin.phase == OVER and st.phase != OVER
        shared = random.Random(5)
        other = st.copy(rng=shared)
        assert other.rng.getstate() == shared.getstate() and other.fingerprint()[:-1] == st.fingerprint()[:-1]
        engine.play_random(rules, other, [random.Random(k) for k in range(3)])
    assert q.fingerprint() == before == p.fingerprint()
    # A copy goes on exactly as the original would.
    pc, qc = p.copy(), q.copy()
    play_pair(rules, p, q, _random_picker(rules, 8, True))
    play_pair(rules, pc, qc, _random_picker(rules, 8, False))
    assert qc.fingerprint() == q.fingerprint()
    # A native copy's generator is its own: drawing from the copy's changes nothing of the original's.
    drawn = q.rng
    drawn.random()
    assert q.fingerprint() == qc.fingerprint()


def test_a_python_position_the_native_engine_cannot_hold_is_refused_with_a_data_error():
    rules = rules_of("ffg2015", 2)
    p = PYTHON.new_state(rules, 1)
    p.tile_owner = p.tile_owner[:-1]
    with pytest.raises(DataError, match="tile_owner"):
        NATIVE.of_state(rules, p)


# --- scoring claims --------------------------------------------------------------------------

def _random_captures(rng: random.Random, players: int, most: int) -> list[int]:
    """Captured figures by seat and caste; small numbers, so ties at the top, among three and more, are common."""
    top = rng.choice((1, 2, 3, most))
    return [rng.randint(0, top) for _ in range(3 * players)]


@pytest.mark.parametrize("name", SHIPPED + [TINY_CORE_EDITION], ids=_id)
def test_the_native_scorings_decide_as_the_scoring_hooks(name):
    """The native decision of a finished game (``native_decision``) equals the edition's hook, on thousands of
    captured tables: random ones (ties among three and four seats included) and those of played games."""
    rng = random.Random(name)
    decided = Counter()
    for players in (2, 3, 4):
        if players not in edition(name).manifest.players:
            continue
        rules = rules_of(name, players)
        assert native_rules(rules).scoring != "python"
        # A finished game's position with any captured table in it, carried to the native engine.
        finished = PYTHON.new_state(rules, 1)
        PYTHON.play_random(rules, finished, [random.Random(k) for k in range(players)])
        for _ in range(scaled(1500)):
            captured = _random_captures(rng, players, rules.figures_per_caste)
            finished.captured = captured
            finished.result = None
            q = NATIVE.of_state(rules, finished)
            expected = rules.score(captured)
            assert q.native_decision() == (list(expected.winners), expected.reason), captured
            result = native_result(rules, captured, *q.native_decision(), "no_tiles")
            assert (result.winners, result.reason, result.explanation) == \
                (expected.winners, expected.reason, expected.explanation)
            decided[len(expected.winners)] += 1
        for row in native.play_games(native_rules(rules), _seeds(f"score-{name}", scaled(300)), ["random"]):
            _, winners, reason, *_ = row
            expected = rules.score([count for castes in row[7] for count in castes])
            assert (tuple(winners), reason) == (expected.winners, expected.reason)
    most = max(edition(name).manifest.players)
    assert decided[1] and decided[2] and (most < 3 or decided[3])  # sole wins, and wins shared by two and three


def test_a_game_in_play_has_no_native_decision():
    rules = rules_of("ffg2015", 2)
    assert NATIVE.new_state(rules, 1).native_decision() is None


def test_three_seats_tied_at_the_top_of_every_caste_share_the_win_natively():
    # Three seats tie at 2 in every caste, the fourth has 1 of each: nobody leads a caste, the three share the win.
    captures = {0: {"castle": 2, "buddha": 2, "rice": 2}, 1: {"castle": 2, "buddha": 2, "rice": 2},
                2: {"castle": 2, "buddha": 2, "rice": 2}, 3: {"castle": 1, "buddha": 1, "rice": 1}}
    for name in SHIPPED[:2]:
        rules = rules_of(name, 4)
        table = [captures[seat][caste] for seat in range(4) for caste in CASTES]
        finished = PYTHON.new_state(rules, 2)
        PYTHON.play_random(rules, finished, [random.Random(k) for k in range(4)])
        finished.captured = table
        q = NATIVE.of_state(rules, finished)
        expected = rules.score(table)
        assert len(expected.winners) == 3
        assert q.native_decision() == (list(expected.winners), expected.reason)


# --- one arithmetic (issue 38, point 2) ------------------------------------------------------

def test_influence_past_32_bits_in_sum_captures_alike():
    """Tables that bypass the manifest's bounds (a hook's) with influence at the 32-bit limit: summed, it would
    wrap in 32 bits and hand the figure to the wrong seat; both engines play the same games."""
    rules = copy.copy(edition("ffg2015").rules(2))  # not the cached rules other tests play
    rules.tile_value = tuple(2**31 - 1 if value else 0 for value in rules.tile_value)
    rules.native = None
    for seed in _seeds("huge-influence", scaled(10)):
        p, q = _new_pair(rules, seed, trace=True)
        play_pair(rules, p, q, _random_picker(rules, seed + 1, native_twister=True), where=f"seed {seed}")
        assert any(event[0] == "capture" and max(event[4]) > 2**31 for event in p.events)


def test_native_scoring_decisions_do_not_wrap():
    most = 2**63 - 1
    for name in SHIPPED[:2] + [TINY_CORE_EDITION]:
        rules = rules_of(name, 2)
        for captured in ([most, most, most, most, 0, 0], [most, 2, most, 1, most, most], [most] * 6):
            expected = rules.score(captured)
            scoring = native_rules(rules).scoring
            assert native.native_scoring_decision(scoring, captured, 2) == (list(expected.winners), expected.reason)
