"""The hooks of Knizia's game: what an edition of it decides (setup, timing, what a stuck seat does, special
tiles, what every seat sees, scoring) and contributes (the metrics ``samurai compare`` shows).

Its game definition (``samurai_plugins.knizia.plugin.GAME``, field ``hookspecs``) adds these to the plugin manager of
each of its editions, beside the framework's hooks (``samurai.hooks.specs``); an edition of another game never
sees them. Plugins implement them with the one marker, ``samurai.hooks.specs.hookimpl``.

Hooks that *decide* are ``firstresult``: the first implementation that returns something other than None wins;
the game's own answers (``samurai_plugins.knizia.editions.defaults``) are registered ``trylast``. Every hook is called
once when an edition's rules are compiled for a player count and options, never inside the playout loop. Each answer is
checked against ``samurai_plugins.knizia.editions.hook_results.KNIZIA_HOOK_RESULTS`` where it is used, and a wrong one
refused as one line naming the plugin, the hook and the value, so an answer like ``"no"`` where ``False`` is meant never
flips a rule. A deciding hook may return None for "no answer".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from samurai.catalog.manifests import EditionManifest
    from samurai.runs.statistics import GameMetric
    from samurai_plugins.knizia.core.result import Result
    from samurai_plugins.knizia.editions.rules import TileBehaviour
    from samurai_plugins.knizia.editions.setup import SetupProcedure

hookspec = pluggy.HookspecMarker("samurai")

__all__ = ["hookspec"]


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
    no place left stay out of play). See ``samurai_plugins.knizia.editions.setup.SetupProcedure``.

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
    the ruling of docs/rules/samurai.md#passing: the seat passes, and the game ends when no
    player can play) or ``"end"`` (the game ends at once); nothing else. Either
    way the end reason is ``"no_tiles"``."""


@hookspec
def samurai_tile_behaviours() -> Sequence[TileBehaviour] | None:
    """Contribute special tile behaviours (see ``samurai_plugins.knizia.engine.special_tiles.TileBehaviour``).

    A tile whose manifest entry says ``special = "move"`` is played through the
    behaviour named ``"move"``: it lists and checks the tile's targets and
    applies its effect, and it owns the tile's faces (its words, clicks, marks,
    glyph and greedy worth; ``TileFaces`` gives their defaults). Must return a
    list of behaviours, each with a non-empty ``name``, an ``action_type`` that
    is a ``samurai_plugins.knizia.core.actions.Action`` class, a text ``title``
    and every method of ``TileBehaviour``.
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
