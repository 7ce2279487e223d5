"""The hooks an edition plugin may implement, grouped by when the engine calls them.

Hooks that *decide* are ``firstresult``: the first implementation that returns
something other than None wins. The edition's plugins are registered after the
engine's own defaults (which are ``trylast``), and a manifest that ``extends``
another registers its own plugins after its parent's, so the most specific
edition decides. Hooks that *contribute* collect a list from every plugin.

Each game's edition gets its own plugin manager holding only the engine
defaults and the plugins its manifest names, so two editions never see each
other's hooks. Every hook is called once when an edition's rules are compiled
for a player count and options, never inside the playout loop.

Each hook's docstring says what it must return; the engine checks every
answer against that (``samurai.hooks.calls.HOOK_RESULTS``) where it uses it and
refuses a wrong one as one line naming the plugin, the hook and the value, so
an answer like ``"no"`` where ``False`` is meant never flips a rule. A deciding
hook may return None for "no answer". A list may also be a tuple, never a string.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ..catalog.manifests import EditionManifest
    from ..knizia.result import Result
    from ..knizia.setup_rules import SetupProcedure
    from ..knizia.special_tiles import TileBehaviour
    from ..runs.executors import ExecutorFactory
    from ..runs.statistics import GameMetric

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


# --- setup -----------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_setup_procedure(edition: EditionManifest, players: int,
                            options: Mapping[str, Any]) -> SetupProcedure | None:
    """Decide how a game is set up: the order of the setup phases, whether
    starting hands are chosen or dealt, how figures are distributed (in which
    stages of settlement kinds, or at random), who goes first, and whether
    the ruling for every figure setup holds (``figures_must_fit``, default
    True: a placement must leave the supply able to fill every open slot;
    False lets a placement paint the setup into a corner, and figures with
    no place left stay out of play). See ``samurai.knizia.setup_rules.SetupProcedure``.

    Must return a ``SetupProcedure`` whose ``order`` names ``"hands"`` and
    ``"figures"`` once each, ``hands`` and ``figures`` ``"choose"`` or
    ``"random"``, ``figure_stages`` a list of lists and ``prefilled`` a list of
    settlement kinds, ``first_player`` a seat (a whole number below
    ``players``) and ``figures_must_fit`` ``True`` or ``False``."""


# --- turn ------------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str | None:
    """Decide when surrounded settlements resolve: ``"end_of_turn"`` (after all
    of the turn's tiles) or ``"each_tile"`` (immediately after each tile); nothing else."""


@hookspec(firstresult=True)
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str | None:
    """Decide when the end of the game is checked: ``"end_of_turn"`` (after
    placement, capture and refill) or ``"immediate"`` (play stops the moment
    the end is triggered); nothing else."""


@hookspec(firstresult=True)
def samurai_cannot_play(edition: EditionManifest, options: Mapping[str, Any]) -> str | None:
    """Decide what happens when the seat to act cannot play a tile (empty hand,
    or only tiles without a legal target): ``"pass"`` (the engine's default,
    the ruling of RULES.md "End": the seat passes, and the game ends when no
    player can play) or ``"end"`` (the game ends at once); nothing else. Either
    way the end reason is ``"no_tiles"``."""


@hookspec
def samurai_tile_behaviours() -> Sequence[TileBehaviour] | None:
    """Contribute special tile behaviours (see ``samurai.knizia.special_tiles.TileBehaviour``).

    A tile whose manifest entry says ``special = "move"`` is played through the
    behaviour named ``"move"``: it lists and checks the tile's targets and
    applies its effect. Must return a list of behaviours, each with a non-empty
    ``name``, an ``action_type`` that is a ``samurai.knizia.actions.Action`` class, and
    every method of ``TileBehaviour``.
    """


# --- information -----------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool | None:
    """Decide whether every player may see the figures each player has captured
    (otherwise each seat sees only its own). Must return exactly ``True`` or
    ``False``: ``1``, ``0`` or ``"no"`` are refused, not read as true or false."""


# --- scoring ---------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result | None:
    """Decide the winner from the captured figures, ``{seat: {caste: count}}``.

    Return a ``Result`` with the winning seats, a short reason code and a
    plain-language explanation (``end_reason`` is filled in by the engine).
    The explanation may be given as a function returning the text: playouts
    score many games and never read it, so it is then written only when read.
    The ``Result``'s winners must be a tuple of one or more distinct seats of
    ``captured`` (whole numbers, not bools), its reason a non-empty text and its
    ``end_reason`` None.
    """


# --- analysis --------------------------------------------------------------------------

@hookspec
def samurai_game_metrics(players: int, first_player: int) -> Sequence[GameMetric] | None:
    """Contribute per-game metrics for ``samurai compare`` (see ``samurai.runs.statistics.GameMetric``).

    Each metric maps a finished game's facts to a number; compare shows its
    average under both editions with intervals and the paired difference.
    Metrics of both editions are shown, each name once. Must return a list of
    ``GameMetric`` with a non-empty ``name``, a text ``label``, ``kind``
    ``"rate"`` or ``"mean"`` and a callable ``value`` giving a finite number.
    """


# --- running many games ----------------------------------------------------------------

@hookspec
def samurai_executors() -> Sequence[ExecutorFactory] | None:
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
    on the web page, and what the conformance kit checks for it. The engine
    contributes Knizia's hex tile-placement game (``"knizia"``, the game of a
    manifest without a ``game`` key); ``samurai_plugins.daimyo`` contributes
    ``"daimyo"``. Must return a list of ``GameDefinition`` whose fields have
    their documented types.
    """
