"""Open screens: captured figures are visible to every player, whatever the player count.

FFG 2015 hides them behind screens (seed 000 §7); the original edition shows
them only with two players (seed 001). This variant always shows them, to
measure how much the hidden information matters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.editions import EditionManifest
from samurai.hookspecs import hookimpl


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Every seat sees every seat's captured figures."""
    return True
