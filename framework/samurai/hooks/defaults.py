"""The framework's own answers to its hooks, registered ``trylast`` in every plugin manager as ``samurai.defaults``.

They name no game: the manifests shipped in the distribution's ``editions/`` folder (whatever games they play).
Each game's own answers to its hooks are that game's core plugins (``GameDefinition.editions.plugins``: Knizia's are
``samurai_plugins.knizia.editions.defaults`` and ``samurai_plugins.knizia.engine.special_tiles``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..data import bundled_editions
from .specs import hookimpl

__all__: list[str] = []


@hookimpl(trylast=True)
def samurai_edition_manifests() -> Sequence[Any]:
    """The manifests shipped in the engine's ``editions/`` folder."""
    return bundled_editions()
