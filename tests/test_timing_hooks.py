"""The timing hooks: an edition may resolve surrounds after each tile and stop the game the
moment the end is triggered (RULES.md "What differs by edition": the original edition's column).

A test plugin registered after ffg2015 decides both timings, on the tiny map.
"""

from __future__ import annotations

import types

import pytest

from samurai import EndTurn, PlaceTile
from samurai.hookspecs import hookimpl
from samurai.plugins import Edition, make_plugin_manager, register_plugin

from helpers import KITA, KITA_LAND, KITA_SEA, captured, figures_at, hand, setup_tiny


def timing_plugin() -> types.ModuleType:
    module = types.ModuleType("immediate_timing")

    @hookimpl
    def samurai_resolution_timing(edition, options):
        return "each_tile"

    @hookimpl
    def samurai_end_check_timing(edition, options):
        return "immediate"

    module.samurai_resolution_timing = samurai_resolution_timing
    module.samurai_end_check_timing = samurai_end_check_timing
    return module


@pytest.fixture(scope="module")
def immediate(tiny):
    pm = make_plugin_manager(("ffg2015",))
    register_plugin(pm, timing_plugin(), "immediate-timing")
    return Edition(tiny.manifest, pm, tiny.map)


def test_the_latest_registered_plugin_decides(immediate):
    rules = immediate.rules(2)
    assert rules.resolve_each_tile and rules.end_immediate


def test_surrounds_can_resolve_immediately_after_each_tile(immediate):
    hands = {0: ("castle-2", "samurai-1", "ship-2", "ronin", "move"),
             1: ("samurai-1", "ship-2", "ship-1", "ronin", "move")}
    game = setup_tiny(immediate, hands=hands)
    game.apply(PlaceTile("castle-2", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # castle 2 against 1: resolved at once
    assert figures_at(game, KITA) == []
    game.apply(PlaceTile("ship-2", KITA_SEA[0]))  # too late to change anything
    game.apply(EndTurn())
    assert captured(game, 0)["castle"] == 1
    assert captured(game, 1)["castle"] == 0


def test_play_can_stop_the_moment_the_end_is_triggered(immediate):
    hands = {0: ("samurai-1", "castle-2", "ship-2", "ronin", "move"),
             1: ("samurai-1", "castle-2", "ship-2", "ronin", "move")}
    game = setup_tiny(immediate, hands=hands, options={"removed_to_end": 1})
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # 1 against 1: the tie that ends the game
    assert game.is_over
    assert game.result.end_reason == "removed_by_ties"
    assert len(hand(game, 1)) == 4  # stopped at once: no refill
