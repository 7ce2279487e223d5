"""Knizia's game as numbers for learning libraries: its encoding (``samurai.interop.encoding.GameEncoding``), which
``GAME.faces.interop`` supplies to ``samurai.interop`` (needs ``numpy``, in the ``rl`` and ``openspiel`` extras).

Actions are the fixed numbering of ``samurai_plugins.knizia.adapters.action_space``; a seat's observation is one flat
vector built from that seat's view (``samurai_plugins.knizia.play.views.seat_view``: nothing it may not know); what a
seat saw of another's action hides which starting tile the other chose (``choose``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from samurai.catalog.editions import Edition
from samurai_plugins.knizia.adapters.action_space import ActionSpace
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.core.state import PHASE_NAMES
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.play.game import action_of, edition_of

__all__ = ["KniziaEncoding", "encoding", "observation_vector", "observation_size", "MAX_GAME_LENGTH", "SHORT_NAME"]

SHORT_NAME = KNIZIA
"""The name of Knizia's game in OpenSpiel (``pyspiel.load_game``, after ``import samurai.interop.openspiel``)."""

MAX_GAME_LENGTH = 1_000
"""More actions than any game takes (setup choices and figures, then at most two per tile)."""


def observation_size(rules: Rules) -> int:
    """The length of ``observation_vector`` under ``rules``."""
    players, tiles = rules.players, len(rules.tile_types)
    per_hex = (players + 1) + (tiles + 1)
    per_settlement = len(CASTES) + 1
    per_seat = 2 + len(CASTES) + 1
    return (rules.board.size * per_hex + len(rules.board.settlements) * per_settlement + 2 * tiles
            + players * per_seat + 2 * len(CASTES) + len(PHASE_NAMES) + players + 3)


def observation_vector(rules: Rules, view: Mapping[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A seat's view (``samurai_plugins.knizia.play.views.seat_view``) as one flat float vector.

    Seats are counted from the viewer (0 is the viewer, 1 the next seat ...),
    so one policy serves every seat. Blocks in order: per hex the owner
    (one-hot, last = empty) and the tile type (one-hot, last = none); per
    settlement its castes and its empty land around (/6); the viewer's hand
    and unchosen tiles (counts per tile type); per seat hand size, stack size
    (/20), captured figures per caste (when visible) and whether they are
    visible; supply and removed figures per caste; the phase (one-hot); the
    seat to act (one-hot, relative); tiles played this turn, whether the
    normal tile is down, and the turn (/100).
    """
    board, players, tiles = rules.board, rules.players, len(rules.tile_types)
    me = view["seat"]
    out = np.zeros(observation_size(rules), dtype=np.float32)
    per_hex = (players + 1) + (tiles + 1)
    for h in range(board.size):  # empty hexes by default
        out[h * per_hex + players] = 1.0
        out[h * per_hex + players + 1 + tiles] = 1.0
    for placed in view["board"]["tiles"]:
        h = board.index[tuple(placed["at"])]
        base = h * per_hex
        out[base + players] = 0.0
        out[base + (placed["owner"] - me) % players] = 1.0
        out[base + players + 1 + tiles] = 0.0
        out[base + players + 1 + rules.tile_index[placed["tile"]]] = 1.0
    at = board.size * per_hex
    for settlement in view["board"]["settlements"]:
        for caste in settlement["figures"]:
            out[at + CASTES.index(caste)] = 1.0
        out[at + len(CASTES)] = settlement["empty_land_around"] / 6.0
        at += len(CASTES) + 1
    for name in view["hand"]:
        out[at + rules.tile_index[name]] += 1.0
    at += tiles
    for name in view.get("unchosen", ()):
        out[at + rules.tile_index[name]] += 1.0
    at += tiles
    for entry in sorted(view["seats"], key=lambda e: (e["seat"] - me) % players):
        out[at] = entry["hand_size"] / rules.hand_size
        out[at + 1] = entry["stack_size"] / max(1, len(rules.player_tiles))
        if "captured" in entry:
            for c, caste in enumerate(CASTES):
                out[at + 2 + c] = entry["captured"][caste] / rules.figures_per_caste
            out[at + 2 + len(CASTES)] = 1.0
        at += 3 + len(CASTES)
    for c, caste in enumerate(CASTES):
        out[at + c] = view["supply"][caste] / rules.figures_per_caste
        out[at + len(CASTES) + c] = view["removed"][caste] / rules.figures_per_caste
    at += 2 * len(CASTES)
    out[at + PHASE_NAMES.index(view["phase"])] = 1.0
    at += len(PHASE_NAMES)
    if view["current_player"] is not None:
        out[at + (view["current_player"] - me) % players] = 1.0
    at += players
    out[at] = view["this_turn"]["tiles_played"] / 5.0
    out[at + 1] = float(view["this_turn"]["normal_tile_played"])
    out[at + 2] = view["turn"] / 100.0
    return out


class KniziaEncoding:
    """Knizia's game under one ``Rules`` as numbers (``samurai.interop.encoding.GameEncoding``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.space = ActionSpace(rules)

    @property
    def num_distinct_actions(self) -> int:
        """Every engine action under the rules (``ActionSpace.size``)."""
        return self.space.size

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One flat vector (``observation_size``)."""
        return (observation_size(self.rules),)

    @property
    def max_game_length(self) -> int:
        """``MAX_GAME_LENGTH``."""
        return MAX_GAME_LENGTH

    def index(self, action: tuple[int, ...]) -> int:
        """The action's number (``ActionSpace.index``)."""
        return self.space.index(action)

    def action(self, index: int) -> tuple[int, ...]:
        """The engine action numbered ``index`` (``ActionSpace.action``)."""
        return self.space.action(index)

    def observation(self, view: Mapping[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``observation_vector`` of the view."""
        return observation_vector(self.rules, view)

    def seen(self, actor: int, action: tuple[int, ...], seat: int) -> str:
        """The action as a list, except another seat's choice of a starting tile: only that it chose."""
        return "choose" if actor != seat and action[0] == engine.CHOOSE else str(list(action))

    def private_string(self, view: Mapping[str, Any]) -> str:
        """The seat's hand and unchosen tiles."""
        return f"hand {view['hand']} unchosen {view.get('unchosen', [])}"

    def action_string(self, action: tuple[int, ...]) -> str:
        """The friendly action (``samurai_plugins.knizia.play.game.action_of``)."""
        return str(action_of(self.rules, action))


def encoding(edition: str | Edition, players: int, options: Mapping[str, Any] | None = None) -> KniziaEncoding:
    """The encoding of ``edition`` for ``players`` and ``options`` (``GAME.faces.interop``)."""
    return KniziaEncoding(edition_of(edition).rules(players, options))
