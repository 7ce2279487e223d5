"""Knizia's game as a plugin of the framework: its definition (``GAME``, with what ``samurai compare`` measures,
``MEASURES``) and the ``samurai_games`` hook that contributes it. Registered in the ``samurai`` entry-point group as
``knizia``, exactly as ``samurai_plugins.daimyo`` registers Daimyo.

The definition is the top of the game's package: it names the modules that do each job (the position, the
editions, the checks, the fast runner, the web face, the commands), so none of those need to know it. The game's
hooks, defaults and special tiles reach each of its editions through the definition (``editions``: its
``hookspecs`` and ``plugins``); the editions shipped in the distribution's ``editions/`` folder are contributed by
the framework's defaults (``samurai.hooks.defaults``), which list the folder whatever games it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from samurai.catalog.editions import Edition
from samurai.catalog.games import GameDefinition, GameEditions, GameFaces, GameMeasures, GameRunner
from samurai.hooks.specs import hookimpl
from samurai.protocol import Move
from samurai_plugins.knizia.adapters.commands import COMMANDS
from samurai_plugins.knizia.adapters.conformance import CHECKS, check_hook_answer, hook_arguments
from samurai_plugins.knizia.adapters.features import FEATURE_VERSION, seat_features
from samurai_plugins.knizia.adapters.game_state import HexGameState, start
from samurai_plugins.knizia.adapters.measures import play_pairs
from samurai_plugins.knizia.adapters.records import RECORDS
from samurai_plugins.knizia.adapters.runner import outcome_of, play_batch, summary_of
from samurai_plugins.knizia.adapters.search_bots import GAME_BOTS
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.editions import defaults, hookspecs
from samurai_plugins.knizia.editions.hook_results import KNIZIA_HOOK_RESULTS
from samurai_plugins.knizia.editions.manifest_keys import MANIFEST_KEYS, check_extends, read_manifest
from samurai_plugins.knizia.engine import special_tiles
from samurai_plugins.knizia.engine.edition import knizia_edition, open_edition, resolve_map

__all__ = ["GAME", "MEASURES", "PANELS", "samurai_games"]


def _start_of(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None) -> HexGameState:
    return start(edition, players, seed, options=options)


def _render(state: Any, view: Mapping[str, Any]) -> str:
    from samurai_plugins.knizia.play.render import draw_view

    if not isinstance(state, HexGameState):
        raise TypeError(f"Knizia's game draws a HexGameState, not {type(state).__name__}")
    return draw_view(view, state.rules)


def _render_moves(state: Any, view: Mapping[str, Any], played: Move, preferred: Move | None) -> str:
    from samurai_plugins.knizia.play.render import draw_view, move_marks

    if not isinstance(state, HexGameState):
        raise TypeError(f"Knizia's game draws a HexGameState, not {type(state).__name__}")
    rules = state.rules
    return draw_view(view, rules, marks=move_marks(rules, played),
                     preferred=() if preferred is None else move_marks(rules, preferred))


def _load_map(name: str, manifest: str) -> Any:
    return resolve_map(name, relative_to=manifest)


def _web(manifests: Sequence[str]) -> Any:
    from samurai_plugins.knizia.adapters.web import SamuraiDefinition

    return SamuraiDefinition(manifests)


def _interop(edition: Edition, players: int, options: Mapping[str, Any] | None) -> Any:
    # numpy comes with the interop extras only: the encoding is imported when an environment asks for it.
    from samurai_plugins.knizia.adapters.encoding import encoding

    return encoding(edition, players, options)


def _checks() -> Any:
    return CHECKS


def _outcome(state: Any) -> Any:
    if not isinstance(state, HexGameState):
        raise TypeError(f"Knizia's game reads a HexGameState, not {type(state).__name__}")
    return outcome_of(state.state, state.players)


def _facts_watch(edition: Edition, players: int) -> Any:
    from samurai_plugins.knizia.core.facts import PositionFactsWatch

    return PositionFactsWatch(players)


def _metrics(editions: Sequence[Edition], players: int, options: Sequence[Mapping[str, Any]], a: Sequence[Any],
             b: Sequence[Any]) -> Any:
    from samurai_plugins.knizia.adapters.measures import knizia_metrics

    return knizia_metrics(editions, players, options, a, b)


PANELS = (
    ("Who wins (share of games; first player's edge)", ("win_rate_seat_", "first_player_advantage",
                                                         "shared_win_rate")),
    ("How games end (share of games)", ("end_",)),
    ("Game length (per game)", ("turns", "tiles_played")),
    ("Figures (per game)", ("figures_captured", "figures_removed")),
    ("Decisiveness and scoring (share)", ("decisiveness", "scoring_disagreement")),
)
"""What ``samurai compare --plot`` draws of Knizia's game: each panel's title and its metric names (or prefixes)."""

MEASURES = GameMeasures(watch=_facts_watch, metrics=_metrics, panels=PANELS, play_pairs=play_pairs)
"""What ``samurai compare`` measures in Knizia's game: its facts
(``samurai_plugins.knizia.core.facts.PositionFactsWatch``, on its positions), the engine's and the plugins' per-game
metrics, decisiveness and scoring disagreement (``samurai_plugins.knizia.adapters.measures.knizia_metrics``); the paired
games are played on the fast engine."""

GAME = GameDefinition(
    name=KNIZIA,
    title="Samurai (Reiner Knizia): hex tile placement",
    load_board=_load_map,
    player_counts=lambda edition: tuple(knizia_edition(edition).manifest.players),
    start=_start_of,
    render=_render,
    default_game=True,
    checks=_checks,
    bots=GAME_BOTS,
    editions=GameEditions(
        manifest_keys=MANIFEST_KEYS,
        read_manifest=read_manifest,
        check_extends=check_extends,
        open_edition=open_edition,
        hookspecs=(hookspecs,),
        plugins=(("samurai_plugins.knizia.editions.defaults", defaults),
                 ("samurai_plugins.knizia.engine.special_tiles", special_tiles)),
        hook_results=KNIZIA_HOOK_RESULTS,
        hook_arguments=hook_arguments,
        check_hook_answer=check_hook_answer,
    ),
    faces=GameFaces(render_moves=_render_moves, web=_web, interop=_interop, interop_edition="ffg2015",
                    features=seat_features, feature_version=FEATURE_VERSION),
    runner=GameRunner(play_batch=play_batch, outcome=_outcome, summary=summary_of, bot_seed_offset=0),
    measures=MEASURES,
    records=RECORDS,
    commands=COMMANDS,
)
"""Knizia's game as the framework sees it (``samurai.catalog.games``), contributed by its plugin
(this module): the default game, of every manifest without a ``game`` key."""


@hookimpl
def samurai_games() -> list[GameDefinition]:
    """Contribute Knizia's game, ``"knizia"``: the default game."""
    return [GAME]
