"""Deciding hooks decided by a plugin registered after ffg2015: the timings (RULES.md "What
differs by edition"; the original edition's rules are tested in test_original.py) and dealing
hands and figures at random (the beginner setup, seed 000 §1).
"""

from __future__ import annotations

import types

import pytest

import samurai
from samurai.catalog.editions import Edition, make_plugin_manager, register_plugin
from samurai.hooks.specs import hookimpl
from samurai.knizia.editions import KniziaEdition
from samurai.knizia.setup_rules import SetupProcedure


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
