"""The front door serves every installed game (issue 38, point 5): ``samurai.new_game`` and ``samurai.load`` take any
game's editions and records, ``samurai.bot(name, seed).choose(game)`` is a bot's move for the seat to act (on its
knowledge only, the bot kept between moves, on both engines), and a finished game's result and a running game's
seat to act are not optional."""

from __future__ import annotations

import random
import shutil

import pytest
from conftest import ENGINES
from hypothesis import given, settings
from hypothesis import strategies as st

import samurai
from samurai.catalog.editions import available_editions, load_edition
from samurai.front import KniziaEditionId, OtherEditionId
from samurai.protocol import GameState
from samurai.search.bots import make_bot as make_any_bot
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.adapters.search_bots import make_bot

from helpers import ROOT


def played(game: samurai.Game | samurai.ProtocolGame, bot: samurai.BotPlayer, moves: int | None = None) -> None:
    """``bot`` plays every seat of ``game`` to the end, or for ``moves`` actions."""
    while not game.is_over and (moves is None or game.version < moves):
        game.apply(bot.choose(game))  # type: ignore[arg-type]


def test_the_typed_ids_of_the_bundled_editions_are_the_installed_editions_of_each_game():
    knizia = set(KniziaEditionId.__args__)
    others = set(OtherEditionId.__args__)
    games = {ident: load_edition(ident).game.name for ident in available_editions()}
    assert {ident for ident, game in games.items() if game == "knizia"} == knizia
    assert {ident for ident, game in games.items() if game != "knizia"} == others


@pytest.mark.parametrize("edition", ["daimyo", "daimyo-shinobi"])
def test_new_game_starts_another_games_edition_and_a_bot_plays_it_to_a_result(tmp_path, edition):
    game = samurai.new_game(edition, seed=3)
    assert isinstance(game, samurai.ProtocolGame) and game.players == 2 and game.current_player == 0
    played(game, samurai.bot("easy", seed=1))
    assert game.is_over and sum(game.result.returns) == pytest.approx(1.0)
    assert set(game.result.winners) <= {0, 1} and game.result.winners
    loaded = samurai.load(samurai.save(game, tmp_path / "game.json"))
    assert isinstance(loaded, samurai.ProtocolGame)
    assert loaded.history == game.history and loaded.result == game.result and loaded.edition == edition


def test_load_replays_a_daimyo_record_as_written(tmp_path):
    shutil.copy(ROOT / "docs" / "examples" / "daimyo-game.json", tmp_path / "daimyo-game.json")
    game = samurai.load(tmp_path / "daimyo-game.json")
    assert isinstance(game, samurai.ProtocolGame) and game.game == "daimyo" and game.is_over
    assert game.view(0)["game"] == "daimyo"


def test_a_protocol_game_refuses_an_illegal_action_and_stays_as_it_was():
    game = samurai.new_game("daimyo", seed=1)
    before = game.view(0)
    for wrong in [(9, 9), [0, 14], "flip"]:
        with pytest.raises(samurai.IllegalAction):
            game.apply(wrong)  # type: ignore[arg-type]
    with pytest.raises(samurai.IllegalAction, match="it is seat 0's turn, not seat 1's"):
        game.apply(game.legal_actions()[0], seat=1)
    with pytest.raises(samurai.IllegalAction, match="at version 3"):
        game.apply(game.legal_actions()[0], version=3)
    assert game.view(0) == before and game.version == 0


def test_knizias_arguments_are_refused_for_another_game_in_one_line():
    with pytest.raises(samurai.DataError, match="scenario is an argument of Knizia's game only; edition 'daimyo'"):
        samurai.new_game("daimyo", scenario="docs/examples/late-game.toml")


def test_result_before_the_end_and_the_seat_to_act_after_it_raise_for_both_kinds_of_game():
    for game in (samurai.new_game("ffg2015", players=2, seed=1), samurai.new_game("daimyo", seed=1)):
        with pytest.raises(samurai.SamuraiError, match="not over"):
            game.result  # noqa: B018
        played(game, samurai.bot("random", seed=2))
        with pytest.raises(samurai.SamuraiError, match="the game is over"):
            game.current_player  # noqa: B018
        with pytest.raises(samurai.SamuraiError, match="the game is over"):
            samurai.bot("random").choose(game)  # type: ignore[call-overload]


def test_a_bot_name_no_game_plays_is_refused_and_greedy_only_plays_knizias_game():
    with pytest.raises(samurai.DataError, match="unknown bot 'nonsense'"):
        samurai.bot("nonsense")
    with pytest.raises(samurai.DataError, match="mcts:N simulations"):
        samurai.bot("mcts:0")
    with pytest.raises(samurai.DataError, match="unknown bot 'greedy' for game 'daimyo'"):
        samurai.bot("greedy").choose(samurai.new_game("daimyo", seed=1))


@pytest.mark.parametrize("name", ["greedy", "mcts-replies:20"])
def test_the_same_seed_plays_the_same_game_on_either_engine(name):
    histories = []
    for engine in ENGINES:
        for _ in range(2):
            game = samurai.new_game("ffg2015", players=3, seed=5, engine=engine)
            played(game, samurai.bot(name, seed=9), moves=60)
            histories.append(game.history)
    assert all(history == histories[0] for history in histories) and len(histories[0]) == 60


@pytest.mark.parametrize("engine", ENGINES)
def test_the_bot_is_kept_between_moves(engine):
    # The same random bot asked move after move on the protocol: a bot made anew for each move would restart its
    # generator and play otherwise.
    game = samurai.new_game("ffg2015", players=2, seed=8, engine=engine)
    kept = make_bot("random", 4)
    expected = HexGameState.of_game(game)
    played(game, samurai.bot("random", seed=4), moves=40)
    for action in game.history:
        move = expected.ask(kept)
        assert expected.describe(move) == action.to_dict()
        expected.apply(move)
    daimyo = samurai.new_game("daimyo", seed=8)
    kept_there = make_any_bot("random", 4)
    state = daimyo.state.copy()
    played(daimyo, samurai.bot("random", seed=4), moves=30)
    for move in daimyo.history:
        assert state.ask(kept_there) == move
        state.apply(move)


def twin_of(game: samurai.Game | samurai.ProtocolGame, draw: int) -> samurai.Game | samurai.ProtocolGame:
    """A copy of ``game`` identical in all its seat to act knows, different in what that seat cannot know (other
    seats' tiles or pieces, the order of every stack, the game's generator)."""
    twin = game.copy()
    seat = game.current_player
    if isinstance(game, samurai.ProtocolGame):
        assert isinstance(twin, samurai.ProtocolGame)
        twin.state = game.state.determinize(seat, random.Random(draw))
    else:
        assert isinstance(twin, samurai.Game)
        twin.state = HexGameState.of_game(game).determinize(seat, random.Random(draw)).state
    assert twin.view(seat) == game.view(seat)
    return twin


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["ffg2015", "original", "daimyo"]), st.integers(0, 10_000), st.integers(0, 120),
       st.sampled_from(["random", "mcts:12", "mcts-replies:8"]), st.integers(0, 2**32), st.sampled_from(ENGINES))
def test_a_bot_choosing_in_a_game_never_peeks(edition, seed, actions, name, draw, engine):
    # Two games identical in all the seat to act knows, different in what it cannot know: the same move.
    game = samurai.new_game(edition, seed=seed) if edition == "daimyo" else \
        samurai.new_game(edition, players=3, seed=seed, engine=engine)
    played(game, samurai.bot("random", seed=seed), moves=actions)
    if game.is_over:
        return
    twin = twin_of(game, draw)
    assert samurai.bot(name, seed=1).choose(game) == samurai.bot(name, seed=1).choose(twin)  # type: ignore[call-overload]


def test_a_protocol_games_position_is_on_the_protocol():
    game = samurai.new_game("daimyo", seed=2)
    assert isinstance(game.state, GameState) and game.copy().history == game.history
