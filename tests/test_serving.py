"""Serving one game to several players (README "Standards": hidden information stays hidden).

An illegal action's message must not tell the caller anything about a hand
other than its own: a seat that is not to act learns only whose turn it is,
and the acting seat's messages depend on nothing it cannot see. A ``Game``
is not thread-safe; ``Game.version`` and ``apply(action, seat=, version=)``
are what a server needs to serialise the actions of several clients.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import samurai
from samurai import ChooseTile, EndTurn, IllegalAction, MoveTile, PlaceFigure, PlaceTile, SwitchFigures

from helpers import DATA, KITA_LAND, TINY_EDITION, assert_refused_unchanged, setup_tiny

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def test_a_seat_not_to_act_learns_only_whose_turn_it_is_while_hands_are_chosen(ffg):
    game = samurai.new_game(ffg, players=2, seed=1)
    for tile in ("castle-2", "castle-3", "castle-4"):
        game.apply(ChooseTile(tile), seat=0)
    # Seat 1 asks for a tile seat 0 has just taken: the trusted path would say seat 0 has none left.
    assert_refused_unchanged(game, ChooseTile("castle-4"), match="no castle-4 tile left")
    before = game.state.fingerprint()
    with pytest.raises(IllegalAction) as refused:
        game.apply(ChooseTile("castle-4"), seat=1)
    assert str(refused.value) == "it is seat 0's turn, not seat 1's"
    assert game.state.fingerprint() == before and game.version == 3


def test_a_seat_not_to_act_learns_only_whose_turn_it_is_during_play(tiny):
    game = setup_tiny(tiny)
    for action in (PlaceTile("castle-4", KITA_LAND[0]), PlaceTile("dragon-9", (0, 0)),
                   MoveTile(KITA_LAND[0], KITA_LAND[1]), EndTurn(), [1, 2]):
        before = game.state.fingerprint()
        with pytest.raises(IllegalAction) as refused:
            game.apply(action, seat=1)  # type: ignore[arg-type]
        assert str(refused.value) == "it is seat 0's turn, not seat 1's"
        assert game.state.fingerprint() == before
    game.apply(PlaceTile("castle-4", KITA_LAND[0]), seat=0)
    game.apply(EndTurn(), seat=0)
    assert game.current_player == 1


def test_seat_must_be_a_seat_of_the_game(tiny):
    game = setup_tiny(tiny)
    with pytest.raises(IllegalAction, match="seat 2 is not a seat of this 2-player game"):
        game.apply(EndTurn(), seat=2)
    for wrong in ("0", True, 0.0):
        with pytest.raises(TypeError, match="seat must be a whole number"):
            game.apply(EndTurn(), seat=wrong)  # type: ignore[arg-type]


def test_version_counts_the_accepted_actions_and_a_copy_keeps_it(tiny):
    game = samurai.new_game(tiny, players=2, seed=1)
    assert game.version == 0
    game.apply(ChooseTile("castle-4"))
    with pytest.raises(IllegalAction):
        game.apply(ChooseTile("castle-4"))  # refused: the version stays
    assert game.version == 1 == len(game.history)
    assert game.copy().version == 1
    assert samurai.new_game(scenario=DATA / "scenarios" / "tiny-midgame.toml", trust=[TINY_EDITION]).version == 0


def test_a_stale_version_is_refused_and_changes_nothing(tiny):
    game = setup_tiny(tiny)
    seen = game.version
    game.apply(PlaceTile("castle-4", KITA_LAND[0]), version=seen)
    before = game.state.fingerprint()
    with pytest.raises(IllegalAction, match=f"chosen at version {seen}, but the game is at version {seen + 1}"):
        game.apply(EndTurn(), version=seen)
    assert game.state.fingerprint() == before
    with pytest.raises(TypeError, match="version must be a whole number"):
        game.apply(EndTurn(), version="1")  # type: ignore[arg-type]
    game.apply(EndTurn(), seat=0, version=seen + 1)
    assert game.current_player == 1 and game.version == seen + 2


def test_two_clients_acting_on_one_version_only_the_first_is_played(tiny):
    # A server under its per-game lock: both clients saw the same position; the second is stale.
    game = setup_tiny(tiny)
    seen = game.version
    game.apply(PlaceTile("ronin", (4, 2)), seat=0, version=seen)
    with pytest.raises(IllegalAction, match="look at the position again"):
        game.apply(PlaceTile("ronin", (4, 2)), seat=0, version=seen)
    assert [a for a in game.history if isinstance(a, PlaceTile)] == [PlaceTile("ronin", (4, 2))]


def test_the_game_documents_that_it_is_not_thread_safe():
    doc = samurai.Game.__doc__ or ""
    assert "not thread-safe" in doc and "lock" in doc and "version" in doc


def _twin_with_other_hidden_tiles(game: samurai.Game, rng: random.Random) -> samurai.Game:
    """A copy that agrees with everything the current seat knows, but deals the other seats'
    hidden tiles (hands, unchosen tiles, stacks) afresh and reseeds the generator."""
    twin = game.copy()
    st_ = twin.state
    for other in range(twin.players):
        if other == st_.current:
            continue
        tiles = st_.hands[other] + st_.pools[other] + st_.stacks[other]
        rng.shuffle(tiles)
        sizes = (len(st_.hands[other]), len(st_.pools[other]))
        st_.hands[other] = tiles[:sizes[0]]
        st_.pools[other] = tiles[sizes[0]:sizes[0] + sizes[1]]
        st_.stacks[other] = tiles[sizes[0] + sizes[1]:]
    st_.rng = random.Random(rng.random())
    return twin


def _outcome(game: samurai.Game, action: object) -> str:
    trial = game.copy()
    try:
        trial.apply(action)  # type: ignore[arg-type]
    except IllegalAction as refused:
        return f"refused: {refused}"
    return "accepted"


def _candidates(game: samurai.Game, rng: random.Random) -> list[object]:
    rules = game.rules
    coords = list(rules.board.coords)
    tiles = list(rules.tile_index)
    castes = list(samurai.CASTES)
    pick = rng.choice
    return [ChooseTile(pick(tiles)), PlaceFigure(pick(castes), pick(coords)), PlaceTile(pick(tiles), pick(coords)),
            MoveTile(pick(coords), pick(coords)), EndTurn(),
            SwitchFigures(pick(coords), pick(castes), pick(coords), pick(castes))]


@pytest.mark.usefixtures("python_engine")  # changes the Python State's lists in place
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edition=st.sampled_from(["ffg2015", "original"]), players=st.sampled_from([2, 3, 4]), seed=SEEDS)
def test_what_the_acting_seat_is_told_depends_only_on_what_it_may_know(edition, players, seed):
    # Hidden information: the reasons for refusals and the list of legal actions come out the
    # same in any position that agrees with what the seat to act can see.
    game = samurai.new_game(edition, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.2:
            twin = _twin_with_other_hidden_tiles(game, rng)
            assert twin.legal_actions() == game.legal_actions()
            for action in _candidates(game, rng):
                assert _outcome(twin, action) == _outcome(game, action)
        game.apply(rng.choice(game.legal_actions()))
