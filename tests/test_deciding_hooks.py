"""Deciding hooks decided by a plugin registered after ffg2015: the timings
(docs/rules/samurai.md#edition-differences; the original edition's rules are tested in test_original.py) and dealing
hands and figures at random (the beginner setup, docs/rules/samurai.md#beginner-setup).
"""

from __future__ import annotations

import types

import pytest

import samurai
from samurai import EndTurn, PlaceTile
from samurai.catalog.editions import Edition, make_plugin_manager, register_plugin
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.editions.setup import SetupProcedure
from samurai_plugins.knizia.engine.edition import KniziaEdition

from helpers import CLOSING_HANDS, KITA, KITA_LAND, captured, figures_at, hand, setup_tiny

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def with_plugin(base: Edition, name: str, *hooks) -> Edition:
    """``base``'s manifest and map, with a test plugin of ``hooks`` registered after ffg2015."""
    module = types.ModuleType(name)
    for hook in hooks:
        setattr(module, hook.__name__, hookimpl(hook))
    pm = make_plugin_manager(("ffg2015",))
    register_plugin(pm, module, name)
    return KniziaEdition(base.manifest, pm, base.map, game=base.game)


def samurai_resolution_timing(edition, options):
    return "each_tile"


def samurai_end_check_timing(edition, options):
    return "immediate"


def samurai_setup_procedure(edition, players, options):
    return SetupProcedure(hands="random", figures="random", figure_stages=(("city",), ("village",)))


@pytest.fixture(scope="module")
def immediate(tiny):
    return with_plugin(tiny, "immediate-timing", samurai_resolution_timing, samurai_end_check_timing)


def test_the_latest_registered_plugin_decides(immediate):
    rules = immediate.rules(2)
    assert rules.resolve_each_tile and rules.end_immediate
    # In play: ffg2015 would wait for the end of the turn; the plugin registered after it resolves the
    # surround at once (castle 2 against 1), and with the end at the first tie play stops at that tile.
    game = setup_tiny(immediate, hands=CLOSING_HANDS)
    game.apply(PlaceTile("castle-2", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    assert figures_at(game, KITA) == [] and captured(game, 0)["castle"] == 1
    tie = setup_tiny(immediate, hands={seat: CLOSING_HANDS[1] for seat in (0, 1)}, options={"removed_to_end": 1})
    tie.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    tie.apply(EndTurn())
    tie.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # 1 against 1: the tie that ends the game
    assert tie.is_over and tie.result.end_reason == "removed_by_ties" and len(hand(tie, 1)) == 4  # no refill


@pytest.fixture(scope="module")
def dealt(ffg):
    return with_plugin(ffg, "random-setup", samurai_setup_procedure)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_setup_procedure_can_deal_hands_and_distribute_figures_at_random(dealt, players):
    game = samurai.new_game(dealt, players=players, seed=11)
    assert game.phase == "play" and game.history == ()
    view = game.view(0)
    assert len(view["hand"]) == 5 and view["seats"][0]["stack_size"] == 15
    assert view["supply"] == {"buddha": 0, "rice": 0, "castle": 0}
    for settlement in view["board"]["settlements"]:
        capacity = {"village": 1, "city": 2, "capital": 3}[settlement["kind"]]
        assert len(settlement["figures"]) == capacity == len(set(settlement["figures"]))
    again = samurai.new_game(dealt, players=players, seed=11)
    assert again.state.fingerprint() == game.state.fingerprint()
    other = samurai.new_game(dealt, players=players, seed=12)
    assert other.view(0)["board"] != view["board"] or other.view(0)["hand"] != view["hand"]
