"""Bots by name know no game: the framework's bots (random and the MCTS kinds) play every game, and a game adds its
own through its definition (``GameDefinition.bots``; Knizia's game adds ``greedy``) (issue 21, BOTS).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from samurai import DataError
from samurai.catalog.editions import load_edition
from samurai.search import bots
from samurai.search.mcts import MCTSBot
from samurai_plugins.daimyo import GAME as DAIMYO_GAME
from samurai_plugins.knizia.adapters import search_bots as seat_bots
from samurai_plugins.knizia.engine.greedy import GreedyBot
from samurai_plugins.knizia.plugin import GAME as KNIZIA_GAME


def test_the_framework_offers_random_and_the_searches_and_no_game_bot():
    assert set(bots.BOTS) == {"random"}
    assert "greedy" not in bots.BOT_NAMES
    assert isinstance(bots.make_bot("random", 3), bots.RandomBot)
    assert isinstance(bots.make_bot("medium", 3), MCTSBot)
    with pytest.raises(ValueError, match="unknown bot 'greedy'; bots are random, easy"):
        bots.make_bot("greedy", 3)


def test_a_game_offers_its_own_bots_beside_the_frameworks():
    assert dict(KNIZIA_GAME.bots) == {"greedy": GreedyBot}
    assert isinstance(bots.make_bot("greedy", 3, KNIZIA_GAME), GreedyBot)
    assert bots.bot_names(KNIZIA_GAME) == seat_bots.BOT_NAMES == (
        "random", "greedy", "easy", "medium", "hard", "expert", *bots.BUDGETED_NAMES)
    assert bots.parse_bots("random,greedy,hard", KNIZIA_GAME) == ("random", "greedy", "hard")
    assert seat_bots.parse_bots("greedy,mcts:40") == ("greedy", "mcts:40")


def test_a_bot_the_game_does_not_have_is_one_error_naming_the_game_and_its_bots():
    assert dict(DAIMYO_GAME.bots) == {}
    with pytest.raises(ValueError) as refused:
        bots.make_bot("greedy", 1, DAIMYO_GAME)
    message = str(refused.value)
    assert message.startswith("unknown bot 'greedy' for game 'daimyo'; its bots are random, easy, medium, hard")
    assert "\n" not in message and "greedy" not in message.removeprefix("unknown bot 'greedy'")
    with pytest.raises(DataError, match="--bots.*unknown bot 'greedy' for game 'daimyo'"):
        bots.parse_bots("random,greedy", DAIMYO_GAME)


def test_a_bot_of_the_game_is_seeded_like_before():
    # The same seed gives the same bot: greedy's ties and random's draws come from Random(seed).
    state = load_edition("ffg2015").start(2, 5)
    knowledge = state.knowledge(state.to_act)
    for name in ("random", "greedy"):
        assert seat_bots.make_bot(name, 11).act(knowledge) == seat_bots.make_bot(name, 11).act(knowledge)
    assert bots.make_bot("random", 11).act(knowledge) == bots.RandomBot(11).act(knowledge)


def test_importing_the_bots_loads_no_game_module():
    program = "import json, sys\nimport samurai.search.bots\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    loaded = json.loads(done.stdout)
    assert "samurai.search.bots" in loaded
    assert not [m for m in loaded if m.startswith(("samurai_plugins.knizia", "samurai_plugins"))]
