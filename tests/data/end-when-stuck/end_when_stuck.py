"""A test edition's ruling: the game ends as soon as the seat to act cannot play, where the engine's default
passes that seat (hook ``samurai_cannot_play``; docs/rules/samurai.md#ruling-nobody-can-play)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl


@hookimpl
def samurai_cannot_play(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """End the game: nobody passes."""
    return "end"
