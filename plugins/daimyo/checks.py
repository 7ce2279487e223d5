"""Daimyo's own conformance check (``samurai.kit.conformance``): run by ``samurai check`` and the pytest kit for
every edition of this game, after the framework's general checks."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from samurai_plugins.daimyo.rules import BLACK, DAIMYO, EMPTY, WHITE, DaimyoState

if TYPE_CHECKING:
    from samurai.catalog.editions import Edition

__all__ = ["checks"]


def _check_tiles_conserved(edition: Edition, players: int, seed: int, games: int) -> None:
    """After every action of random games: face-down + face-up + Heiya removed + Engun tiles = the board's tile
    set (38 on the default board), at most two face up, and each seat's Daimyo on the board until the game ends
    by its capture."""
    from samurai.kit.conformance import ConformanceFailure
    from samurai.seeds import derive_seed

    rule = "tiles are conserved and the Daimyo stay on the board"
    for index in range(games):
        game_seed = derive_seed(seed, index)
        rng = random.Random(game_seed)
        state = edition.start(players, game_seed)
        assert isinstance(state, DaimyoState)
        for step in range(100_000):
            tiles = state.view(0)["tiles"]
            counted = tiles["face_down"] + tiles["face_up"] + tiles["heiya_removed"] + tiles["engun_tiles"]
            problem = None
            if counted != len(state.board.tiles):
                problem = (f"{tiles['face_down']} face down + {tiles['face_up']} face up + {tiles['heiya_removed']} "
                           f"Heiya removed + {tiles['engun_tiles']} Engun tiles = {counted}, "
                           f"not {len(state.board.tiles)}")
            elif tiles["face_up"] > 2:
                problem = f"{tiles['face_up']} tiles face up at once"
            elif state.reason != "daimyo_captured" and sorted(
                    code // 5 for code in state.piece if code != EMPTY and code % 5 == DAIMYO) != [WHITE, BLACK]:
                problem = "a Daimyo left the board without the game ending by its capture"
            if problem is not None:
                raise ConformanceFailure(rule, f"after {step} random actions: {problem}", edition=edition.reference,
                                         players=players, seed=game_seed, bots=("random",))
            if state.is_over:
                break
            state.apply(state.sample_action(rng))



def checks() -> list[Any]:
    """The checks this game adds to the conformance kit."""
    from samurai.kit.conformance import Check

    return [Check("tiles_conserved", "tiles are conserved and the Daimyo stay on the board",
                  _check_tiles_conserved)]
