"""A test plugin with its own special tile and action: Relocate, a Move under another name.

Records of games that play it must be readable: the action type comes from the edition.
"""

from __future__ import annotations

from typing import Any

import attrs

from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.actions import Action
from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour, MoveTile


@attrs.frozen(order=False)
class Relocate(MoveTile):
    """Play the Relocate tile: like Move."""


class RelocateBehaviour(MoveBehaviour):
    """Move's rules under the name "relocate", with its own action type."""

    name = "relocate"
    action_type = Relocate

    def to_action(self, rules: Any, tile: int, params: tuple[int, ...]) -> Action:
        return Relocate(rules.board.coords[params[0]], rules.board.coords[params[1]])


@hookimpl
def samurai_tile_behaviours() -> list[RelocateBehaviour]:
    return [RelocateBehaviour()]
