"""The end of the game (docs/rules/samurai.md#end, docs/rules/samurai.md#end-check).

The ruling "it also ends when no player can play a tile", and "a player who
cannot play passes", start from scenarios (``helpers.tiny_scenario``) whose hands
and stacks are already empty: no short sequence of legal moves reaches them on a
real board. The end rule itself is checked over random games played through the
game protocol, against an oracle of its own that reads only the seats' views.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

import samurai
from samurai import EndTurn, PlaceTile
from samurai_plugins.knizia.adapters.game_state import HexGameState, start

from helpers import tiny_scenario

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

NORMAL_PREFIXES = ("castle-", "buddha-", "rice-", "samurai-")
"""The normal tiles a Move may take (docs/rules/samurai.md#move-tile: caste or Samurai tiles)."""


def test_a_player_who_cannot_play_passes(tiny):
    game = tiny_scenario(tiny, players=3, hands={1: []}, stacks={1: []})
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.current_player == 2  # seat 1 had nothing to play and passed
    assert {"event": "pass", "seat": 1} in game.events()


def _many_ships(tmp_path: Path) -> samurai.Edition:
    """FFG 2015 on the tiny map with 13 ship tiles of influence 1 a seat (named ``ship``, the one value of its
    kind), enough for the 23 sea hexes between two seats."""
    manifest = tmp_path / "many-ships.toml"
    manifest.write_text(textwrap.dedent("""\
        id = "many-ships"
        name = "many ships"
        version = "1.0.0"
        extends = "ffg2015"
        map = "tiny"
        """) + "".join(f'[players.{n}]\npieces = ["west", "east"]\nfigures_per_caste = 3\n' for n in (2, 3, 4))
                        + textwrap.dedent(f"""\
        [tiles.ship]
        influence = {[1] * 13}
        counts_for = ["buddha", "rice", "castle"]
        fast = true
        on = "sea"
        """))
    return samurai.load_edition(str(manifest))


def test_a_player_holding_only_ships_with_no_empty_sea_passes(tmp_path):
    edition = _many_ships(tmp_path)
    sea = sorted(at for at, terrain in edition.map.terrain.items() if terrain == "sea")
    assert len(sea) == 23
    ships = [(at, "ship", 0 if number < 13 else 1) for number, at in enumerate(sea)]  # every sea hex is taken
    game = tiny_scenario(edition, tiles=ships, hands={0: ["castle-4", "samurai-1", "ronin", "move", "rice-2"],
                                                       1: ["ship", "ship"]}, stacks={1: []})
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.current_player == 0  # seat 1 held two ships and no sea was left for them
    assert {"event": "pass", "seat": 1} in game.events()
    assert game.view(1)["hand"] == ["ship", "ship"] and not game.is_over


def test_the_game_ends_when_no_player_can_play(tiny):
    game = tiny_scenario(tiny, hands={0: ["ronin"], 1: []}, stacks={0: [], 1: []})
    game.apply(PlaceTile("ronin", (4, 2)))  # seat 0's last tile
    game.apply(EndTurn())
    assert game.is_over
    assert game.result.end_reason == "no_tiles"


def could_play(view: dict[str, Any], land: Collection[tuple[int, int]], sea: Collection[tuple[int, int]]) -> bool:
    """Whether the seat of ``view`` could start a turn now: some tile in its hand has a target
    (docs/rules/samurai.md#passing).

    A land tile needs empty land and a ship empty sea; a Move needs empty land and one of the seat's normal
    tiles on the board (at the start of a turn every tile there was placed on an earlier turn); a Switch needs
    two settlements whose figures of different castes may change places without either holding two of a caste.
    """
    taken = {tuple(tile["at"]) for tile in view["board"]["tiles"]}
    empty_land = any(at not in taken for at in land)
    empty_sea = any(at not in taken for at in sea)
    own_normal = any(tile["owner"] == view["seat"] and tile["tile"].startswith(NORMAL_PREFIXES)
                     for tile in view["board"]["tiles"])
    held = [set(s["figures"]) for s in view["board"]["settlements"] if s["figures"]]
    can_switch = any(a - b and b - a for a in held for b in held)
    for tile in view["hand"]:
        if tile == "move":
            if empty_land and own_normal:
                return True
        elif tile == "switch":
            if can_switch:
                return True
        elif tile.startswith("ship-"):
            if empty_sea:
                return True
        elif empty_land:
            return True
    return False


def _random_game_checking_each_turn(edition: samurai.Edition, players: int, seed: int) -> HexGameState:
    """Play a random game through the protocol; after every turn check the FFG end rule held at that moment."""
    position = start(edition, players, seed)
    board = edition.rules(players).board
    land = [board.coords[h] for h in board.land_hexes]
    sea = [board.coords[h] for h in board.sea_hexes]
    limit = edition.manifest.options["removed_to_end"].default
    rng = random.Random(seed)
    while not position.is_over:
        action = position.sample_action(rng)
        ends_turn = position.describe(action)["action"] == "EndTurn"
        position.apply(action)
        if not position.is_over and not ends_turn:
            continue  # FFG: nothing ends mid-turn
        views = [position.view(seat) for seat in range(players)]
        if views[0]["phase"] not in ("play", "over"):
            continue
        on_board = {caste: 0 for caste in samurai.CASTES}
        for settlement in views[0]["board"]["settlements"]:
            for caste in settlement["figures"]:
                on_board[caste] += 1
        exhausted = min(on_board.values()) == 0
        ties = sum(views[0]["removed"].values()) >= limit
        nobody = not any(could_play(view, land, sea) for view in views)
        if position.is_over:
            expected = ("caste_exhausted" if exhausted else "removed_by_ties" if ties else "no_tiles")
            assert views[0]["result"]["end_reason"] == expected
            if expected == "no_tiles":
                assert nobody
            return position
        assert not exhausted and not ties and not nobody
    raise AssertionError("unreachable")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_exactly_when_a_caste_runs_out_or_the_fourth_tie_falls(ffg, players):
    reasons = {_random_game_checking_each_turn(ffg, players, seed).view(0)["result"]["end_reason"]
               for seed in range(60)}
    assert {"caste_exhausted", "removed_by_ties"} <= reasons


def test_caste_exhausted_counts_captured_and_removed_figures_alike(ffg):
    per_caste = ffg.manifest.players[2].figures_per_caste
    for seed in range(200):
        view = _random_game_checking_each_turn(ffg, 2, seed).view(0)  # every capture shows once the game is over
        if view["result"]["end_reason"] == "caste_exhausted":
            standing = {caste for settlement in view["board"]["settlements"] for caste in settlement["figures"]}
            caste = next(caste for caste in samurai.CASTES if caste not in standing)
            taken = sum(seat["captured"][caste] for seat in view["seats"]) + view["removed"][caste]
            assert taken == per_caste
            return
    raise AssertionError("no game ended by an exhausted caste in 200 seeds")
