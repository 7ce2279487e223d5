"""What a game supplies to take part in ``samurai.interop``: its actions as numbers, a seat's observation as a tensor.

A ``GameEncoding`` is made for one edition, player count and options (``GameDefinition.faces.interop``), because the
set of actions a game could ever allow depends on them (the board, the tiles), never on a position: a trained
agent's action 17 is the same action in every position of that edition. Observations are computed from a seat's
view (``GameState.view``) and nothing else, so hidden information stays hidden by construction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from ..protocol import GameState, Move

__all__ = ["GameEncoding", "information_state", "legal_indices", "public_view_string"]


class GameEncoding(Protocol):
    """A game's fixed numbering of its actions and a seat's observation as numbers (OpenSpiel's ``Game`` and
    observer, PettingZoo's spaces)."""

    @property
    def num_distinct_actions(self) -> int:
        """How many action numbers there are: actions are ``0 .. num_distinct_actions - 1``."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``observation``'s tensor."""

    @property
    def max_game_length(self) -> int:
        """More actions than any game of this edition can take."""

    def index(self, action: Move) -> int:
        """The number of an action of the game; ``ValueError`` for a tuple that is none."""

    def action(self, index: int) -> Move:
        """The action numbered ``index``; ``ValueError`` outside ``0 .. num_distinct_actions - 1``."""

    def observation(self, view: Mapping[str, Any]) -> NDArray[np.float32]:
        """A seat's view (``GameState.view``) as a float32 tensor of ``observation_shape``."""

    def seen(self, actor: int, action: Move, seat: int) -> str:
        """What ``seat`` saw of ``actor``'s ``action``, as a short string (the action itself when it is public)."""

    def private_string(self, view: Mapping[str, Any]) -> str:
        """What a seat's view holds that the actions seen do not tell (its own secrets), as a short string."""

    def action_string(self, action: Move) -> str:
        """An action in the game's words, for people."""


def legal_indices(encoding: GameEncoding, state: GameState, seat: int) -> list[int]:
    """The numbers of ``seat``'s legal actions in ``state``, ascending; none when another seat is to act."""
    if state.to_act != seat:
        return []
    return sorted(encoding.index(action) for action in state.legal_actions())


def information_state(encoding: GameEncoding, seat: int, view: Mapping[str, Any],
                      seen: Sequence[tuple[int, Move]]) -> str:
    """What ``seat`` knows, as one string: its secrets now (``private_string`` of its view) and every action so
    far as it saw it. Two positions that ``seat`` cannot tell apart give the same string."""
    steps = [f"{actor}:{encoding.seen(actor, action, seat)}" for actor, action in seen]
    return f"seat {seat} {encoding.private_string(view)} | " + " ".join(steps)


def public_view_string(view: Mapping[str, Any]) -> str:
    """A view as sorted JSON: what a game whose seats hold no secret of their own gives as ``private_string``."""
    return json.dumps(view, sort_keys=True)
