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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .editions import EditionManifest
    from .game_metrics import GameMetric
    from .result import Result
    from .setup_rules import SetupProcedure
    from .special_tiles import TileBehaviour

hookspec = pluggy.HookspecMarker("samurai")
hookimpl = pluggy.HookimplMarker("samurai")

__all__ = ["hookspec", "hookimpl"]


# --- discovery -------------------------------------------------------------------------

@hookspec
def samurai_edition_manifests() -> Sequence[Any] | None:
    """Contribute edition manifest files (paths or importlib Traversables).

    A third-party package adds an edition by shipping a manifest and a plugin
    that returns it here, registered under the ``samurai`` entry-point group.
    """


# --- setup -----------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_setup_procedure(edition: EditionManifest, players: int,
                            options: Mapping[str, Any]) -> SetupProcedure | None:
    """Decide how a game is set up: the order of the setup phases, whether
    starting hands are chosen or dealt, how figures are distributed (in which
    stages of settlement kinds, or at random) and who goes first."""


# --- turn ------------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str | None:
    """Decide when surrounded settlements resolve: ``"end_of_turn"`` (after all
    of the turn's tiles) or ``"each_tile"`` (immediately after each tile)."""


@hookspec(firstresult=True)
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str | None:
    """Decide when the end of the game is checked: ``"end_of_turn"`` (after
    placement, capture and refill) or ``"immediate"`` (play stops the moment
    the end is triggered)."""


@hookspec
def samurai_tile_behaviours() -> Sequence[TileBehaviour] | None:
    """Contribute special tile behaviours (see ``samurai.special_tiles.TileBehaviour``).

    A tile whose manifest entry says ``special = "move"`` is played through the
    behaviour named ``"move"``: it lists and checks the tile's targets and
    applies its effect.
    """


# --- information -----------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool | None:
    """Decide whether every player may see the figures each player has captured
    (otherwise each seat sees only its own)."""


# --- scoring ---------------------------------------------------------------------------

@hookspec(firstresult=True)
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result | None:
    """Decide the winner from the captured figures, ``{seat: {caste: count}}``.

    Return a ``Result`` with the winning seats, a short reason code and a
    plain-language explanation (``end_reason`` is filled in by the engine).
    The explanation may be given as a function returning the text: playouts
    score many games and never read it, so it is then written only when read.
    """


# --- analysis --------------------------------------------------------------------------

@hookspec
def samurai_game_metrics(players: int, first_player: int) -> Sequence[GameMetric] | None:
    """Contribute per-game metrics for ``samurai compare`` (see ``samurai.game_metrics.GameMetric``).

    Each metric maps a finished game's facts to a number; compare shows its
    average under both editions with intervals and the paired difference.
    Metrics of both editions are shown, each name once.
    """
