"""Games: what an edition manifest's ``game`` key names, contributed through the ``samurai_games`` hook.

A ``GameDefinition`` is everything the layers above the games (records,
``simulate``, ``compare``, the conformance kit, ``render``) need from one game
beyond the game protocol (``samurai.protocol``): how its manifests and boards
are checked, how a position starts, how a seat's view is drawn, how
``samurai serve`` offers it, what ``samurai compare`` measures in it (``GameMeasures``), and the game's own
conformance checks. The engine contributes Knizia's
hex tile-placement game (``KNIZIA``, the game of every manifest without a
``game`` key); a plugin contributes another by returning its definition from
``samurai_games()`` (``samurai_plugins.daimyo`` is the worked example, see
docs/designing-games.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import DataError
from ..hooks.calls import call_hook

if TYPE_CHECKING:
    import pluggy

    from ..protocol import GameState, Move
    from .editions import Edition
    from .manifests import EditionManifest

__all__ = ["KNIZIA", "GameDefinition", "GameMeasures", "GameRecords", "game_of", "games_of"]

KNIZIA = "knizia"
"""The name of Knizia's hex tile-placement game: the game of a manifest that names none."""


def _no_checks() -> Sequence[Any]:
    return ()


def _no_keys(manifest: EditionManifest, data: Mapping[str, Any], text: str) -> None:
    return None


@attrs.frozen
class GameMeasures:
    """What ``samurai compare`` measures in the games of one game's editions (``GameDefinition.measures``).

    Game ``i`` of a comparison is played under edition A and under edition B
    with the same seed and bots; a *watch* collects each game's facts as it is
    played (or as its record is replayed by ``samurai analyse``), and
    ``metrics`` turns the paired facts into ``samurai.runs.statistics.Metric`` values
    with their intervals (``samurai.runs.statistics.average_metrics`` averages per-game
    ``GameMetric`` values). Facts travel from worker processes and machines:
    they are plain data (numbers, strings, tuples, lists, dicts).
    """

    watch: Callable[[Edition, int], Any]
    """``(edition, players) -> watch``: a new watch for one game, with ``see(position)``, called before the first
    action and after each one, and ``facts(final position)``, the finished game's facts. Positions are the game
    protocol's ``GameState`` (a game with its own runner, ``play_pairs``, shows its watch what it plays on)."""
    metrics: Callable[[Sequence[Edition], int, Sequence[Mapping[str, Any]], Sequence[Any], Sequence[Any]],
                      Sequence[Any]]
    """``(editions A and B, players, options A and B, facts of A's games, facts of B's games) -> metrics``: a list
    of ``samurai.runs.statistics.Metric``; ``facts[i]`` of both sides are game ``i``, played with the same seed and
    bots."""
    panels: Sequence[tuple[str, Sequence[str]]] = ()
    """What ``samurai compare --plot`` draws: each panel's title and its metric names (a name ending in ``_`` is a
    prefix); empty: every metric in one panel."""
    play_pairs: Callable[[Any], Any] | None = None
    """An accelerator of ``samurai compare``'s one runner: the game's player of a chunk of paired games, a
    module-level function run on the executors, returning what ``samurai.runs.compare.play_pairs_on_protocol``
    returns for the chunk (Knizia's game plays on its fast engine); None: the games are played through the protocol
    (``samurai.runs.matches.play_match``). Either way the records are the game's (``GameDefinition.records``)."""


@attrs.frozen
class GameRecords:
    """How one game's records are made, written, read and replayed (``GameDefinition.records``).

    Every game's record has the same fields (``samurai.records``: schema, game, edition, edition_version,
    players, seed, options, actions, check, plus what the game adds to its start); the game supplies how its
    actions and its start are written and how its position is checked. ``samurai.records`` reads and writes every
    game's records through these, so ``samurai replay``, ``samurai compare --save-dir`` and ``samurai analyse``
    name no game.
    """

    record_of: Callable[[Edition, int, int, Mapping[str, Any] | None, Sequence[Move], GameState | None], Any]
    """``(edition, players, seed, options, actions, final position or None) -> record`` of a game played through
    the protocol; the final position adds the record's check."""
    write: Callable[[Any, Path], Path]
    """``(record, path) -> path``: the record written atomically."""
    read: Callable[[Mapping[str, Any], str, Any, Path | None], Any]
    """``(data, source, trust, folder) -> record``: a record's data checked (``DataError`` naming the field)."""
    replay_lines: Callable[[Any, str, Any, Path | None, int | None], Iterator[str]]
    """``(record, source, trust, folder, to) -> lines``: the game told action by action (``samurai replay``)."""
    facts: Callable[[Any, Edition, GameMeasures, str], Any]
    """``(record, edition, measures, source) -> facts``: a finished game's record replayed and what the measures'
    watch collects of it (``samurai analyse``)."""


@attrs.frozen
class GameDefinition:
    """One game as the framework sees it, contributed by ``samurai_games()``.

    The callables receive the loaded ``samurai.catalog.editions.Edition`` (its manifest,
    plugin manager and board), so a game reads its rulings from the edition's
    options and its board from the edition's board file.
    """

    name: str
    """What a manifest's ``game`` key says, e.g. ``"daimyo"``."""
    title: str
    load_board: Callable[[str, str], Any]
    """``(map entry, manifest path) -> board``: the manifest's ``map`` read as this game's board; ``DataError``
    naming the file for a bad one."""
    player_counts: Callable[[Edition], tuple[int, ...]]
    """The player counts an edition of this game is for."""
    start: Callable[[Edition, int, int, Mapping[str, Any] | None], GameState]
    """``(edition, players, seed, options) -> GameState``: a new game on the protocol; ``DataError`` naming the
    field for bad players, seed or options."""
    render: Callable[[GameState, Mapping[str, Any]], str]
    """``(state, view) -> SVG``: a seat's view (``GameState.view``) drawn; ``state`` supplies only what every
    player knows (the board's geometry, the tile set)."""
    check_manifest: Callable[[EditionManifest, Mapping[str, Any], str], None] = _no_keys
    """``(manifest, merged data, text)``: the game's own checks of a manifest, beyond the common keys."""
    manifest_keys: frozenset[str] = frozenset()
    """Top-level manifest keys this game adds to the common ones."""
    checks: Callable[[], Sequence[Any]] = _no_checks
    """The game's own conformance checks (``samurai.kit.conformance.Check`` values): one named like a check of the
    kit's ``PROTOCOL_CHECKS`` replaces it, the others run after them."""
    tell: Callable[[GameState, Move, GameState], list[str]] | None = None
    """``(before, action, after) -> lines``: what ``action`` caused, in words every seat may read (``samurai
    replay`` prints them under the action); None: the action's description alone."""
    web: Callable[[Sequence[str]], Any] | None = None
    """``manifests -> samurai.web.games.GameDefinition``: how ``samurai serve`` offers this game, given the
    manifest paths named on its command line that play it (besides the installed editions)."""
    measures: GameMeasures | None = None
    """What ``samurai compare`` and ``samurai analyse`` measure in this game's games; None: what the protocol
    shows of any game (``samurai.runs.compare.PROTOCOL_MEASURES``: wins by seat, draws, length, how games ended)."""
    earlier_views: Sequence[Callable[[Mapping[str, Any]], Mapping[str, Any]]] = ()
    """A seat's view as each earlier version of this game showed it: a record's ``check`` is a digest of the
    views, so a record saved by an earlier version is checked against the views it was saved with."""
    hook_arguments: Callable[[Edition, int, int], Mapping[str, Sequence[Mapping[str, Any]]]] | None = None
    """``(edition, players, seed) -> {hook name: argument sets}``: how the conformance kit's first rule
    (``samurai.kit.conformance.check_hook_results``) asks the game's hooks that take more than the edition's manifest,
    the player count and the options (Knizia's game: a few captures to score); None: those three."""
    check_hook_answer: Callable[[str, Any, Edition, int], None] | None = None
    """``(hook name, answer, edition, players)``: what the kit tries with a hook's answer beyond its specification,
    raising a ``samurai.errors.SamuraiError`` naming the plugin when it fails (Knizia's game: every contributed
    metric gives a number); None: nothing more."""
    play_batch: Callable[[Edition, Any], Sequence[tuple[int, Any, Any]] | None] | None = None
    """``(edition, batch) -> games``: an accelerator of the one runner (``samurai.runs.matches``) for a batch
    (``samurai.runs.matches.Batch``) of this game: each game's number, ``MatchGame`` and record (when the batch
    keeps them), exactly what the protocol path (``samurai.runs.matches.play_batch_on_protocol``) returns for it,
    only faster (Knizia's game: its fused random loop and engine); None from the call or no accelerator: the
    batch is played through the protocol."""
    outcome: Callable[[GameState], Any] | None = None
    """``final position -> facts``: what this game's run summary reads of each finished game beyond the protocol's
    returns and length (plain data, it travels from workers; Knizia's game: turns, tiles played, captures); None:
    nothing more."""
    summary: Callable[[Any], Any] | None = None
    """``samurai.runs.matches.MatchSummary -> summary``: the run's summary as this game shows it (with ``table()``
    and ``to_dict()``, what ``samurai simulate`` prints; Knizia's game: ``SimulationSummary``); None: the
    ``MatchSummary`` itself."""
    records: GameRecords | None = None
    """How this game's records are made, written, read and replayed (``samurai.records`` reads every game's
    through it); None: the protocol's record (``samurai.records.PROTOCOL_RECORDS``)."""
    bot_seed_offset: int = 1_000
    """Seat ``k``'s bot in a game of seed ``s`` is seeded with ``derive_seed(s, bot_seed_offset + k)``
    (``samurai.runs.matches.play_match``): each game keeps the seeding its earlier runs had, so they replay the same
    (Knizia's game: 0)."""


def games_of(pm: pluggy.PluginManager, *, source: str = "plugins") -> dict[str, GameDefinition]:
    """The games contributed by the plugins of ``pm`` (the engine's first), by name; a contribution that is not a
    list of ``GameDefinition`` is a ``DataError`` naming the plugin and ``source`` (the manifest that asked)."""
    found: dict[str, GameDefinition] = {}
    # Each contribution is checked (samurai.hooks.calls.HOOK_RESULTS); pluggy calls the last registered first.
    for contributed in reversed(call_hook(pm.hook.samurai_games, source=source)):
        for definition in contributed:
            found.setdefault(definition.name, definition)
    return found


def game_of(pm: pluggy.PluginManager, name: str, *, source: str) -> GameDefinition:
    """The game called ``name`` among those ``pm``'s plugins contribute; ``DataError`` naming the manifest
    when none does."""
    games = games_of(pm, source=source)
    if name not in games:
        raise DataError(f"no plugin of this edition plays game {name!r} (games: {', '.join(games)}); list the "
                        f"plugin that contributes it in 'plugins'", source=source, key="game")
    return games[name]
