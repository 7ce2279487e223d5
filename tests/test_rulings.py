"""Every ruling is overridable by an edition (docs/rules/samurai.md#rulings: "Every ruling is an option or a hook of an
edition, so a variant can change it").

- The ruling for every figure setup ("a placement is legal only if the figures still in the supply
  can still fill every open slot"): ``SetupProcedure.figures_must_fit`` from the
  ``samurai_setup_procedure`` hook, True by default.
- The rulings docs/rules/samurai.md#ruling-nobody-can-play and docs/rules/samurai.md#passing ("The game also ends
  when no player can play a tile"; "A player who cannot play a tile ... passes"): the ``samurai_cannot_play``
  hook, ``"pass"`` by default, ``"end"`` to end the game as soon as the seat to act cannot play.
"""

from __future__ import annotations

import random
import types

import pytest

import samurai
from samurai import ChooseTile, DataError, EndTurn, IllegalAction, PlaceFigure, PlaceTile
from samurai.catalog.editions import Edition, make_plugin_manager, register_plugin
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.editions.setup import SetupProcedure
from samurai_plugins.knizia.engine.edition import KniziaEdition

from helpers import DATA, HIGASHI, KITA, MACHI, MINAMI, NISHI, tiny_scenario

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

HAND = ("castle-2", "castle-3", "castle-4", "samurai-1", "samurai-2")


def with_plugin(base: Edition, base_plugins: tuple[str, ...], name: str, **hooks) -> Edition:
    """``base``'s manifest and map with its plugins, and a test plugin of ``hooks`` registered last."""
    module = types.ModuleType(name)
    for hook_name, hook in hooks.items():
        setattr(module, hook_name, hookimpl(hook))
    pm = make_plugin_manager(base_plugins)
    register_plugin(pm, module, name)
    return KniziaEdition(base.manifest, pm, base.map, game=base.game)


@pytest.fixture(scope="module")
def loose_setup(tiny_core):
    """The engine's any-order figure setup without the fit ruling."""
    return with_plugin(tiny_core, (), "loose-setup",
                       samurai_setup_procedure=lambda edition, players, options: SetupProcedure(figures_must_fit=False))


@pytest.fixture(scope="module")
def end_when_stuck(tiny):
    """FFG 2015 on the tiny map, ending the game when the seat to act cannot play."""
    return with_plugin(tiny, ("ffg2015",), "end-when-stuck", samurai_cannot_play=lambda edition, options: "end")


def _choose_hands(game: samurai.Game) -> None:
    for _seat in range(game.players):
        for tile in HAND:
            game.apply(ChooseTile(tile))


# --- the figure setup ruling (docs/rules/samurai.md#ruling-figures-fit) --------------

def test_by_default_a_placement_must_leave_figures_that_fill_every_slot(tiny_core):
    assert tiny_core.rules(2).setup.figures_must_fit
    game = samurai.new_game(tiny_core, players=2, seed=1)
    _choose_hands(game)
    for caste, at in (("castle", KITA), ("castle", HIGASHI), ("buddha", NISHI)):
        game.apply(PlaceFigure(caste, at))
    with pytest.raises(IllegalAction, match="cannot fill"):
        game.apply(PlaceFigure("buddha", MINAMI))


def test_an_edition_without_the_fit_ruling_may_paint_the_setup_into_a_corner(loose_setup):
    # Buddha in the last village leaves rice, rice for the city Machi: one fits, the other has no
    # place and stays out of play; Machi keeps an empty slot and play begins.
    game = samurai.new_game(loose_setup, players=2, seed=1)
    _choose_hands(game)
    for caste, at in (("castle", KITA), ("castle", HIGASHI), ("buddha", NISHI), ("buddha", MINAMI)):
        game.apply(PlaceFigure(caste, at))
    assert game.phase == "place_figures"
    assert game.legal_actions() == [PlaceFigure("rice", MACHI)]
    game.apply(PlaceFigure("rice", MACHI))
    assert game.phase == "play" and game.current_player == 0
    view = game.view(0)
    assert view["supply"] == {"buddha": 0, "rice": 1, "castle": 0}
    machi = next(s for s in view["board"]["settlements"] if tuple(s["at"]) == MACHI)
    assert machi["figures"] == ["rice"]


def test_without_the_fit_ruling_random_distribution_and_play_still_end_and_conserve_figures(tiny_core):
    deal = with_plugin(tiny_core, (), "loose-random", samurai_setup_procedure=lambda edition, players, options:
                       SetupProcedure(hands="random", figures="random", figures_must_fit=False))
    per_caste = deal.manifest.players[2].figures_per_caste
    for seed in range(40):
        position = start(deal, 2, seed)
        assert position.view(0)["phase"] == "play" and position.move_number == 0  # dealt and distributed
        rng = random.Random(seed)
        while not position.is_over:
            position.apply(position.sample_action(rng))
        view = position.view(0)  # every capture shows once the game is over
        for caste in samurai.CASTES:
            on_board = sum(caste in settlement["figures"] for settlement in view["board"]["settlements"])
            captured = sum(seat["captured"][caste] for seat in view["seats"])
            assert on_board + captured + view["removed"][caste] + view["supply"][caste] == per_caste


def test_figures_must_fit_must_be_a_bool(tiny_core):
    odd = with_plugin(tiny_core, (), "odd-setup", samurai_setup_procedure=lambda edition, players, options:
                      SetupProcedure(figures_must_fit="no"))  # type: ignore[arg-type]
    with pytest.raises(DataError, match="plugin odd-setup: samurai_setup_procedure returned a SetupProcedure whose "
                                        "figures_must_fit is 'no', not True or False"):
        odd.rules(2)


# --- who cannot play (docs/rules/samurai.md#passing) -------------------------------

def _seat_1_has_nothing(edition: Edition) -> samurai.Game:
    """The default tiny position for three seats, seat 1 with an empty hand and an empty stack."""
    return tiny_scenario(edition, players=3, hands={1: []}, stacks={1: []})


def test_by_default_a_seat_that_cannot_play_passes(tiny):
    assert tiny.rules(3).pass_when_unable
    game = _seat_1_has_nothing(tiny)
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.current_player == 2 and not game.is_over


def test_an_edition_may_end_the_game_when_the_seat_to_act_cannot_play(end_when_stuck):
    assert not end_when_stuck.rules(3).pass_when_unable
    game = _seat_1_has_nothing(end_when_stuck)
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.is_over and game.result.end_reason == "no_tiles"
    assert {"event": "pass", "seat": 1} not in game.events()


def test_through_legal_play_the_game_ends_where_the_default_would_pass():
    # The same play as test_rule_cases.test_a_player_who_cannot_play_passes_...: there seat 0 passes
    # and seat 1 plays on; here the game ends at that moment.
    from test_rule_cases import play_until_dry

    few = samurai.load_edition(str(DATA / "tiny-few-tiles.toml"))
    passing = samurai.new_game(few, players=2, seed=3)
    first_pass = play_until_dry(passing)[0][0]
    stuck = with_plugin(few, ("ffg2015",), "few-end-when-stuck", samurai_cannot_play=lambda edition, options: "end")
    game = samurai.new_game(stuck, players=2, seed=3)
    assert play_until_dry(game) == [(first_pass, {"event": "end", "reason": "no_tiles"})]
    assert game.history == passing.history[:first_pass]
    assert game.view(0)["seats"][1]["hand_size"] > 0  # seat 1 still held a tile


def test_cannot_play_answers_are_checked(tiny):
    odd = with_plugin(tiny, ("ffg2015",), "odd-stuck", samurai_cannot_play=lambda edition, options: "skip")
    with pytest.raises(DataError, match="plugin odd-stuck: samurai_cannot_play returned 'skip', not one of 'pass', "
                                        "'end'"):
        odd.rules(2)


# --- scenarios under an edition without the fit ruling (samurai_plugins.knizia.play.scenarios) -------------------

LEFT_OVER = {"players": 2, "to_act": 0,
             "figures": {"Kita": ["castle"], "Higashi": ["castle"], "Miyako": ["buddha", "rice", "castle"],
                         "Machi": ["rice"], "Nishi": ["buddha"], "Minami": ["buddha"]},
             "seats": [{"hand": list(HAND)}, {"hand": list(HAND)}]}
"""The position the corner-painting setup above leads to: Machi half full, one rice figure left over."""


def test_a_scenario_may_leave_figures_out_only_under_an_edition_without_the_fit_ruling(tiny_core, loose_setup):
    game = samurai.new_game(loose_setup, scenario=LEFT_OVER)
    assert game.view(0)["supply"]["rice"] == 1
    with pytest.raises(DataError, match="Machi is a city of 2 figures and holds 1") as refused:
        samurai.new_game(tiny_core, scenario=LEFT_OVER)
    assert refused.value.key == "figures.Machi"


# --- setup order with dealt or chosen phases (docs/rules/samurai.md#setup-order) -----------

@pytest.mark.parametrize("hands", ["choose", "random"])
@pytest.mark.parametrize("figures", ["choose", "random"])
def test_figures_first_then_hands_works_with_dealt_and_chosen_phases(tiny, hands, figures):
    def procedure(edition, players, options):
        return SetupProcedure(order=("figures", "hands"), hands=hands, figures=figures,
                              figure_stages=(("city",), ("village",)), first_player=options["first_player"])

    edition = with_plugin(tiny, ("ffg2015",), f"figures-first-{hands}-{figures}", samurai_setup_procedure=procedure)
    game = samurai.new_game(edition, players=3, seed=5, options={"first_player": 2})
    phases = []
    rng = random.Random(5)
    while game.phase != "play":
        if not phases or phases[-1] != game.phase:
            phases.append(game.phase)
            assert game.current_player == 2  # the first player starts every phase
        if game.phase == "place_figures":
            assert all(s["hand_size"] == 0 and s["stack_size"] == 20 for s in game.view(0)["seats"])
        game.apply(rng.choice(game.legal_actions()))
    expected = [name for name, how in (("place_figures", figures), ("choose_hands", hands)) if how == "choose"]
    assert phases == expected
    assert game.current_player == 2 and game.turn == 1
    view = game.view(0)
    assert view["supply"] == {"buddha": 0, "rice": 0, "castle": 0}
    assert [(s["hand_size"], s["stack_size"]) for s in view["seats"]] == [(5, 15)] * 3
