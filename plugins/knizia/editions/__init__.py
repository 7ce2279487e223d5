"""What an edition of Knizia's game decides, and the one import line of an edition's plugin.

Modules: ``hookspecs`` (the game's hooks, pluggy only), ``defaults`` (the game's own answers), ``hook_results``
(what each hook must return), ``manifest_keys`` (the keys a manifest of this game adds), ``setup`` (the set-up
procedures), ``native_scoring`` (scorings the native engine decides itself), ``rules`` (an edition compiled into
``Rules``, and ``TileBehaviour``, what a special tile must do).

An edition's plugin imports what it needs from here
(``from samurai_plugins.knizia.editions import hookimpl, Result``): the names in ``__all__`` are loaded when first
used, so ``import samurai_plugins.knizia.editions.hookspecs`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, typed, for mypy
    from samurai.hooks.specs import hookimpl
    from samurai_plugins.knizia.core.actions import Action
    from samurai_plugins.knizia.core.result import END_REASONS, Result, seats_text
    from samurai_plugins.knizia.core.tiles import CASTES
    from samurai_plugins.knizia.editions.native_scoring import native_scoring
    from samurai_plugins.knizia.editions.rules import Rules, TileBehaviour
    from samurai_plugins.knizia.editions.setup import SetupProcedure

_EXPORTS = {
    "hookimpl": "samurai.hooks.specs",
    "CASTES": "samurai_plugins.knizia.core.tiles",
    "Action": "samurai_plugins.knizia.core.actions",
    "Result": "samurai_plugins.knizia.core.result",
    "END_REASONS": "samurai_plugins.knizia.core.result",
    "seats_text": "samurai_plugins.knizia.core.result",
    "SetupProcedure": "samurai_plugins.knizia.editions.setup",
    "native_scoring": "samurai_plugins.knizia.editions.native_scoring",
    "Rules": "samurai_plugins.knizia.editions.rules",
    "TileBehaviour": "samurai_plugins.knizia.editions.rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
