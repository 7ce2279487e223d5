"""The framework's hooks: the ones every edition's plugin manager holds, whatever game it plays.

A plugin contributes edition manifests (``samurai_edition_manifests``), executors (``samurai_executors``) and
games (``samurai_games``). Each game adds the hooks its editions decide through, in its own specification
module (``GameDefinition.editions.hookspecs``: Knizia's are ``samurai_plugins.knizia.editions.hookspecs``), and
an edition's plugin manager holds the framework's hooks and those of its game only, so two games never see each
other's hooks.

Hooks that *decide* are ``firstresult``: the first implementation that returns
something other than None wins. The edition's plugins are registered after the
engine's own defaults (which are ``trylast``), and a manifest that ``extends``
another registers its own plugins after its parent's, so the most specific
edition decides. Hooks that *contribute* collect a list from every plugin.

Each hook's docstring says what it must return; the engine checks every
answer against that (``samurai.hooks.calls.HOOK_RESULTS``, and a game's ``GameDefinition.editions.hook_results`` for its
own hooks) where it uses it and refuses a wrong one as one line naming the plugin, the hook and the value. A
list may also be a tuple, never a string.

``hookimpl`` is the one marker of every hook implementation, the framework's and every game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("samurai")
hookimpl = pluggy.HookimplMarker("samurai")

__all__ = ["hookspec", "hookimpl"]


# --- discovery -------------------------------------------------------------------------

@hookspec
def samurai_edition_manifests() -> Sequence[Any] | None:
    """Contribute edition manifest files (paths or importlib Traversables).

    A third-party package adds an edition by shipping a manifest and a plugin
    that returns it here, registered under the ``samurai`` entry-point group.
    Must return a list of paths (``str``, ``os.PathLike`` or an importlib ``Traversable``).
    """


# --- running many games ----------------------------------------------------------------

@hookspec
def samurai_executors() -> Sequence[Any] | None:
    """Contribute executors: where ``simulate``, ``compare`` and ``tournament`` play their batches.

    Each ``samurai.runs.executors.ExecutorFactory`` has a name (``--backend NAME``)
    and builds an executor from a worker count and an optional scheduler
    address. An executor maps a module-level function over plain-data batches
    and yields the results in the batches' order, so every executor gives the
    same numbers. The engine contributes ``local`` and ``dask``. Must return a
    list of ``ExecutorFactory`` (a non-empty ``name``, a text ``description``,
    a callable ``make``).
    """


# --- games -----------------------------------------------------------------------------

@hookspec
def samurai_games() -> Sequence[Any] | None:
    """Contribute games (``samurai.catalog.games.GameDefinition``): what an edition manifest's ``game`` key names.

    A game definition says how to validate the game's manifests and board,
    start a position on the game protocol, draw a seat's view, offer the game
    on the web page, what the conformance kit checks for it, and which hooks and
    core plugins its editions get. Knizia's game is contributed by its plugin
    (``samurai_plugins.knizia.plugin``, the game whose definition says it is the default:
    the game of a manifest without a ``game`` key); ``samurai_plugins.daimyo``
    contributes ``"daimyo"``. Must return a list of ``GameDefinition`` whose fields have
    their documented types.
    """
