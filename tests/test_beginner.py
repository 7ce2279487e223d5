"""The FFG 2015 beginner setup: random hands and random figure distribution
(docs/rules/samurai.md#beginner-setup), written as a manifest that only sets option defaults."""

from __future__ import annotations

import pytest

import samurai
from samurai import DataError
from samurai_plugins.knizia.adapters.runner import simulate

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

CAPACITY = {"village": 1, "city": 2, "capital": 3}


@pytest.fixture(scope="module")
def beginner():
    return samurai.load_edition("ffg2015-beginner")


def test_the_beginner_variant_is_ffg2015_with_two_option_defaults(beginner, ffg):
    assert beginner.manifest.extends == "ffg2015"
    assert beginner.manifest.plugins == ("ffg2015",)
    assert beginner.manifest.options["starting_hands"].default == "random"
    assert beginner.manifest.options["figure_distribution"].default == "random"
    assert beginner.manifest.tiles == ffg.manifest.tiles
    assert beginner.manifest.players == ffg.manifest.players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_are_dealt_and_figures_distributed_before_the_first_turn(beginner, players):
    game = samurai.new_game(beginner, players=players, seed=21)
    assert game.phase == "play" and game.history == () and game.current_player == 0
    view = game.view(0)
    assert len(view["hand"]) == 5
    assert all(seat["stack_size"] == 15 for seat in view["seats"])
    assert view["supply"] == {"buddha": 0, "rice": 0, "castle": 0}
    settlements = view["board"]["settlements"]
    for settlement in settlements:
        assert len(settlement["figures"]) == len(set(settlement["figures"])) == CAPACITY[settlement["kind"]]
    placed = [caste for s in settlements for caste in s["figures"]]
    per_caste = {2: 7, 3: 10, 4: 13}[players]
    assert sorted(placed) == sorted(["buddha", "rice", "castle"] * per_caste)


def test_the_deal_comes_from_the_game_seed(beginner):
    first = samurai.new_game(beginner, players=3, seed=8)
    again = samurai.new_game(beginner, players=3, seed=8)
    other = samurai.new_game(beginner, players=3, seed=9)
    assert first.state.fingerprint() == again.state.fingerprint()
    assert first.view(0) != other.view(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_beginner_variant_plays_complete_games(beginner, players):
    summary = simulate(beginner, players=players, games=20, seed=3, bots=("random", "greedy"))
    assert len(summary.games) == 20
    assert sum(summary.end_reasons().values()) == 20
    assert all(game.winners for game in summary.games)


def test_the_options_can_bring_back_either_choice(beginner):
    game = samurai.new_game(beginner, players=2, seed=1, options={"starting_hands": "choose"})
    assert game.phase == "choose_hands"
    game = samurai.new_game(beginner, players=2, seed=1, options={"figure_distribution": "choose"})
    assert game.phase == "place_figures"
    assert len(game.view(0)["hand"]) == 5


def test_an_option_value_outside_its_choices_is_refused(beginner):
    with pytest.raises(DataError, match="option 'starting_hands' must be one of 'choose', 'random', not 'draft'"):
        samurai.new_game(beginner, players=2, seed=1, options={"starting_hands": "draft"})
