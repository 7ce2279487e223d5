"""Games: what an edition manifest's ``game`` key names, contributed through the ``samurai_games`` hook.

A ``GameDefinition`` is everything the layers above the games (records,
``simulate``, ``compare``, the conformance kit, ``render``) need from one game
beyond the game protocol (``samurai.protocol``): a few fields every game gives (its name, how its board is read,
how a position starts, how a seat's view is drawn) and its own conformance checks, then groups a game may leave
out: how its editions are read and equipped with hooks and core plugins (``GameEditions``), how it shows itself
in words, on the web page and to learning libraries (``GameFaces``), how the one runner plays it (``GameRunner``),
what ``samurai compare`` measures in it (``GameMeasures``), its records (``GameRecords``) and the commands only it
can do (``GameCommands``). Every game is contributed by a plugin returning its definition from ``samurai_games()``,
registered under the ``samurai`` entry-point group (``samurai_plugins.knizia.plugin`` and
``samurai_plugins.daimyo``; see docs/designing-games.md); a manifest's own plugins may contribute one too. The
framework names no game: a manifest without a ``game`` key plays the one installed game whose definition says it is
the default (``default_game``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import DataError
from ..hooks.calls import (
    Field,
    HookResult,
    call_hook,
    instance_of,
    list_of,
    optional_function,
    record_problem,
)

if TYPE_CHECKING:
    from types import ModuleType

    import pluggy

    from ..protocol import Bot, GameState, Move
    from .manifests import EditionManifest

__all__ = ["GameDefinition", "GameEditions", "GameFaces", "GameRunner", "GameMeasures", "GameRecords", "game_of",
           "games_of", "default_game", "GameCommands", "BenchRequest", "PlayedScenario", "Edition", "GAMES_RESULT"]


def _no_checks() -> Sequence[Any]:
    return ()


_NO_BOTS: Mapping[str, Any] = MappingProxyType({})
"""A game without bots of its own (one shared, read-only mapping)."""


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
    final: Callable[[Any, Edition, str], GameState] | None = None
    """``(record, edition, source) -> position``: a finished game's record replayed under ``edition`` and checked,
    its final position on the protocol (``samurai simulate --resume`` sums up the games a run saved); None: the
    game's runs cannot be resumed."""
    moves: Callable[[Any, str, Any, Path | None], tuple[GameState, list[Move]]] | None = None
    """``(record, source, trust, folder) -> (start, moves)``: a record replayed and checked (it must match its
    check), as its start position on the protocol and its actions as the protocol's moves, to be replayed move by
    move on copies of the start (``samurai analyse-game``); None: the game's records cannot be analysed."""


@attrs.frozen
class GameEditions:
    """How an edition of one game is read, checked and equipped (``GameDefinition.editions``): the game's own
    manifest keys, the hooks its editions decide through, the core plugins that answer them, and what the
    conformance kit asks of those hooks. Every field may be left out: a game whose editions have the common manifest
    keys and the framework's hooks alone gives none (``GameEditions()``, the default)."""

    check_manifest: Callable[[EditionManifest, Mapping[str, Any], str], None] = _no_keys
    """``(manifest, merged data, text)``: the game's own checks of a manifest, beyond the common keys."""
    manifest_keys: frozenset[str] = frozenset()
    """Top-level manifest keys this game adds to the common ones."""
    read_manifest: Callable[[EditionManifest, Mapping[str, Any], str], EditionManifest] | None = None
    """``(common manifest, merged data, text) -> manifest``: the game's own keys (``manifest_keys``) read into a
    subclass of ``EditionManifest`` (Knizia's: ``samurai_plugins.knizia.editions.manifest_keys.KniziaManifest``);
    None: the common manifest is the edition's."""
    check_extends: Callable[[Mapping[str, Any], Mapping[str, Any], str, str], None] | None = None
    """``(child data, parent's merged data, child path, child text)``: the game's check of one ``extends`` step,
    before the two are merged (Knizia's: a tile table the base lacks describes a whole new kind); None: none."""
    open_edition: Callable[[GameDefinition, EditionManifest, pluggy.PluginManager, Any, str], Edition] | None = None
    """``(the game's definition, manifest, plugin manager, board, manifest text) -> edition``: the game's own
    edition object, a subclass of ``samurai.catalog.editions.Edition``, checked as it loads (Knizia's:
    ``samurai_plugins.knizia.engine.edition.open_edition`` compiles its rules for every player count); None: a
    plain ``Edition``."""
    hookspecs: Sequence[ModuleType] = ()
    """The modules of hook specifications the plugin manager of each edition of this game gets beside the
    framework's (``samurai.hooks.specs``): the hooks its editions decide through (Knizia's:
    ``samurai_plugins.knizia.editions.hookspecs``)."""
    plugins: Sequence[tuple[str, Any]] = ()
    """The core plugins (name, module) registered in each edition's plugin manager before the manifest's own: the
    game's answers to its own hooks (Knizia's: ``samurai_plugins.knizia.editions.defaults``,
    ``samurai_plugins.knizia.engine.special_tiles``)."""
    hook_results: Mapping[str, HookResult] = MappingProxyType({})
    """What each of this game's own hooks must return, by hook name (``samurai.hooks.calls.HookResult``), held
    against every answer where the hook is called; the framework's hooks are checked against
    ``samurai.hooks.calls.HOOK_RESULTS``."""
    hook_arguments: Callable[[Edition, int, int], Mapping[str, Sequence[Mapping[str, Any]]]] | None = None
    """``(edition, players, seed) -> {hook name: argument sets}``: how the conformance kit's first rule
    (``samurai.kit.conformance.check_hook_results``) asks the game's hooks that take more than the edition's
    manifest, the player count and the options (Knizia's game: a few captures to score); None: those three."""
    check_hook_answer: Callable[[str, Any, Edition, int], None] | None = None
    """``(hook name, answer, edition, players)``: what the kit tries with a hook's answer beyond its specification,
    raising a ``samurai.errors.SamuraiError`` naming the plugin when it fails (Knizia's game: every contributed
    metric gives a number); None: nothing more."""


@attrs.frozen
class GameFaces:
    """How one game shows itself beyond a seat's view drawn (``GameDefinition.render``): in words, on a board with
    moves marked, in the browser and to learning libraries (``GameDefinition.faces``). Every field may be left out
    (``GameFaces()``, the default): the framework then shows the game as the protocol does, or says in one line
    that it cannot."""

    tell: Callable[[GameState, Move, GameState], list[str]] | None = None
    """``(before, action, after) -> lines``: what ``action`` caused, in words every seat may read (``samurai
    replay`` prints them under the action); None: the action's description alone."""
    render_moves: Callable[[GameState, Mapping[str, Any], Move, Move | None], str] | None = None
    """``(state, view, played, preferred) -> SVG``: ``render`` with the places of the action just played (``state``
    is the position after it) outlined, and those of another action of that decision marked apart (``samurai
    analyse-game``'s boards: the move the search preferred); None: ``render`` alone."""
    web: Callable[[Sequence[str]], Any] | None = None
    """``manifests -> samurai.web.games.GameDefinition``: how ``samurai serve`` offers this game, given the
    manifest paths named on its command line that play it (besides the installed editions); None: it does not."""
    interop: Callable[[Edition, int, Mapping[str, Any] | None], Any] | None = None
    """``(edition, players, options) -> samurai.interop.encoding.GameEncoding``: the game's fixed numbering of its
    actions and a seat's observation as a tensor, from its view only, for that edition, player count and options;
    with it the game is a PettingZoo and an OpenSpiel environment (``samurai.interop``). None: it is neither."""
    interop_edition: str = ""
    """The edition ``samurai.interop`` plays when none is named (OpenSpiel's ``edition`` parameter); empty with
    ``interop`` None."""
    features: Callable[[GameState], list[list[int]]] | None = None
    """``position -> per seat, a vector of whole numbers`` from that seat's point of view (its own numbers first,
    the others' in turn order from it), every vector of one length for a player count: what a value model
    (``samurai.learn``) judges a position by. It reads the whole position, as a search's determinized ones are.
    None: the game cannot be learned (``samurai train`` says so)."""
    feature_version: str = ""
    """The version of ``features``: a model file names the one it was trained on, and refuses another; empty with
    ``features`` None."""


@attrs.frozen
class GameRunner:
    """How the one runner of every game (``samurai.runs.matches``, behind ``samurai simulate``) plays and sums up
    this game's games (``GameDefinition.runner``): an accelerator of a batch, the facts the run's summary reads of a
    game, the summary as the game shows it, and how bots are seeded. Every field may be left out (``GameRunner()``,
    the default): the games are then played through the protocol and summed up as any game's."""

    play_batch: Callable[[Edition, Any], Sequence[tuple[int, Any, Any]] | None] | None = None
    """``(edition, batch) -> games``: an accelerator of the one runner for a batch (``samurai.runs.matches.Batch``)
    of this game: each game's number, ``MatchGame`` and record (when the batch keeps them), exactly what the
    protocol path (``samurai.runs.matches.play_batch_on_protocol``) returns for it, only faster (Knizia's game: its
    fused random loop and engine); None from the call or no accelerator: the batch is played through the
    protocol."""
    outcome: Callable[[GameState], Any] | None = None
    """``final position -> facts``: what this game's run summary reads of each finished game beyond the protocol's
    returns and length (plain data, it travels from workers; Knizia's game: turns, tiles played, captures); None:
    nothing more."""
    summary: Callable[[Any], Any] | None = None
    """``samurai.runs.matches.MatchSummary -> summary``: the run's summary as this game shows it (with ``table()``
    and ``to_dict()``, what ``samurai simulate`` prints; Knizia's game: ``SimulationSummary``); None: the
    ``MatchSummary`` itself."""
    bot_seed_offset: int = 1_000
    """Seat ``k``'s bot in a game of seed ``s`` is seeded with ``derive_seed(s, bot_seed_offset + k)``
    (``samurai.runs.matches.play_match``): each game keeps the seeding its earlier runs had, so they replay the same
    (Knizia's game: 0)."""


@attrs.frozen
class GameDefinition:
    """One game as the framework sees it, contributed by ``samurai_games()``.

    A game must give the six fields without a default: its ``name`` and ``title``, how its board file is read
    (``load_board``), the player counts of an edition (``player_counts``), how a game starts on the protocol
    (``start``) and how a seat's view is drawn (``render``). Everything else is optional, and grouped by what it
    serves: ``editions`` (the edition machinery: manifest keys, hooks, core plugins), ``faces`` (words, marked
    boards, the web, PettingZoo and OpenSpiel), ``runner`` (the one runner's accelerator and summary), ``measures``
    (``samurai compare``), ``records`` and ``commands`` (the commands only a game can do).

    The callables receive the loaded ``samurai.catalog.editions.Edition`` (its manifest,
    plugin manager and board), so a game reads its rulings from the edition's
    options and its board from the edition's board file.
    """

    name: str
    """What a manifest's ``game`` key says, e.g. ``"daimyo"``."""
    title: str
    """The game's name as people read it, e.g. ``"Samurai: Daimyo and Shinobi"``."""
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
    default_game: bool = False
    """Whether this is the game of a manifest (or a record) that names none: True for exactly one installed game
    (Knizia's); none or two is a ``DataError`` when such a manifest loads."""
    checks: Callable[[], Sequence[Any]] = _no_checks
    """The game's own conformance checks (``samurai.kit.conformance.Check`` values): one named like a check of the
    kit's ``PROTOCOL_CHECKS`` replaces it, the others run after them."""
    earlier_views: Sequence[Callable[[Mapping[str, Any]], Mapping[str, Any]]] = ()
    """A seat's view as each earlier version of this game showed it: a record's ``check`` is a digest of the
    views, so a record saved by an earlier version is checked against the views it was saved with."""
    bots: Mapping[str, Callable[[int], Bot]] = attrs.field(default=_NO_BOTS, hash=False)
    """The game's own bots without a budget, by name, each made from a seed (Knizia's game: ``greedy``), offered
    beside the framework's (``random`` and the MCTS bots, ``samurai.search.bots``) wherever this game's bots are
    named; empty: the framework's alone."""
    editions: GameEditions = GameEditions()
    """How an edition of this game is read, checked and equipped (``GameEditions``): its own manifest keys, its
    hooks and core plugins; the default: the common manifest keys and the framework's hooks alone."""
    faces: GameFaces = GameFaces()
    """How this game shows itself beyond ``render`` (``GameFaces``): in words, with moves marked, on the web page,
    to PettingZoo and OpenSpiel; the default: none of them."""
    runner: GameRunner = GameRunner()
    """How the one runner plays and sums up this game's games (``GameRunner``); the default: through the protocol,
    summed up as any game's."""
    measures: GameMeasures | None = None
    """What ``samurai compare`` and ``samurai analyse`` measure in this game's games; None: what the protocol
    shows of any game (``samurai.runs.compare.PROTOCOL_MEASURES``: wins by seat, draws, length, how games ended)."""
    records: GameRecords | None = None
    """How this game's records are made, written, read and replayed (``samurai.records`` reads every game's
    through it); None: the protocol's record (``samurai.records.PROTOCOL_RECORDS``)."""
    commands: GameCommands | None = None
    """The work behind the commands only a game can do (``samurai score``, ``samurai render`` of a file that is not
    a protocol record, ``samurai bench``, the end-of-game hooks ``samurai editions`` tries): see ``GameCommands``;
    None: the game offers none of them, and each command says so in one line."""


class Edition:
    """An edition ready to play: its manifest, its own plugin manager, its game and its board.

    Every game starts through ``start(players, seed, options)`` on the game protocol. A game may open its
    editions as a subclass with more (``GameEditions.open_edition``: Knizia's ``samurai_plugins.knizia.engine.edition
    .KniziaEdition`` compiles its rules and holds its hex map).
    """

    def __init__(self, manifest: EditionManifest, plugin_manager: pluggy.PluginManager, board: Any = None, *,
                 reference: str | None = None, game: GameDefinition) -> None:
        self.manifest = manifest
        self.plugin_manager = plugin_manager
        self.board: Any = board
        """The edition's board as its game reads it (``GameDefinition.load_board``)."""
        self.reference = reference or manifest.id
        """How records name this edition: its id (a manifest's id must be vouched for to load a record)."""
        self.game = game
        """The game this edition plays (``samurai.catalog.games.GameDefinition``)."""

    @property
    def id(self) -> str:
        """The edition's id, e.g. ``"ffg2015"``."""
        return self.manifest.id

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this edition is for."""
        return self.game.player_counts(self)

    def start(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> GameState:
        """A new game of this edition on the game protocol (``samurai.protocol.GameState``)."""
        return self.game.start(self, players, seed, options)

    def __repr__(self) -> str:
        return f"<Edition {self.id} {self.manifest.version}>"


_PARTS: tuple[tuple[str, type, tuple[str, ...], tuple[str, ...]], ...] = (
    ("", GameDefinition, ("load_board", "player_counts", "start", "render", "checks"), ()),
    ("editions", GameEditions, ("check_manifest",), ("read_manifest", "check_extends", "open_edition",
                                                     "hook_arguments", "check_hook_answer")),
    ("faces", GameFaces, (), ("tell", "render_moves", "web", "interop", "features")),
    ("runner", GameRunner, (), ("play_batch", "outcome", "summary")),
)
"""The parts of a definition (the definition itself, then its groups by field name), each with its type, its
functions, and its functions that may be None."""


def _game_fields() -> tuple[Field, ...]:
    """Each field of a definition as ``record_problem`` checks it: the title, then part by part (a group's own type
    first, then its functions by their dotted place), then the data fields."""
    fields = [Field("title", instance_of(str), "a text")]
    for group, group_type, functions, optional_functions in _PARTS:
        place = f"{group}." if group else ""
        if group:
            fields.append(Field(group, instance_of(group_type), f"a {group_type.__name__}"))
        fields += [Field(place + name, callable, "a function") for name in functions]
        fields += [Field(place + name, optional_function, "a function or None") for name in optional_functions]
    return (
        *fields,
        Field("editions.manifest_keys",
              lambda keys: isinstance(keys, frozenset) and all(isinstance(key, str) for key in keys),
              "a frozenset of key names"),
        Field("measures", instance_of(GameMeasures, optional=True), "a GameMeasures or None"),
        Field("records", instance_of(GameRecords, optional=True), "a GameRecords or None"),
        Field("runner.bot_seed_offset", lambda offset: type(offset) is int and offset >= 0, "a whole number from 0"),
    )


_GAME_PROBLEM = record_problem(GameDefinition, "a text (what a manifest's game key says)", _game_fields())

GAMES_RESULT = list_of("GameDefinition", _GAME_PROBLEM)
"""What ``samurai_games`` must return: a list of ``GameDefinition`` whose fields have their documented types (the
framework's other hooks are checked against ``samurai.hooks.calls.HOOK_RESULTS`` and ``samurai_executors`` against
``samurai.runs.executors.EXECUTORS_RESULT``: each checker lives beside the type it checks)."""


def default_game(games: Mapping[str, GameDefinition], *, source: str) -> GameDefinition:
    """The one game of ``games`` whose definition says it is the default (the game of a manifest or record without
    ``game``); ``DataError`` naming ``source`` when none or more than one says so."""
    defaults = [definition for definition in games.values() if definition.default_game]
    if len(defaults) != 1:
        found = "no installed game says" if not defaults else \
            f"games {' and '.join(repr(d.name) for d in defaults)} both say"
        raise DataError(f"{found} it is the default game, the game of a manifest without 'game' (installed games: "
                        f"{', '.join(games) or 'none'}); name the game: game = \"NAME\"", source=source, key="game")
    return defaults[0]


_GAMES_CHECK = {"samurai_games": GAMES_RESULT}


def games_of(pm: pluggy.PluginManager, *, source: str = "plugins") -> dict[str, GameDefinition]:
    """The games contributed by the plugins of ``pm``, by name: the default game first, then in the order the
    plugins were registered; a contribution that is not a list of ``GameDefinition`` is a ``DataError`` naming the
    plugin and ``source`` (the manifest that asked)."""
    found: dict[str, GameDefinition] = {}
    # Each contribution is checked (samurai.hooks.calls.HOOK_RESULTS); pluggy calls the last registered first.
    for contributed in reversed(call_hook(pm.hook.samurai_games, source=source, hook_results=_GAMES_CHECK)):
        for definition in contributed:
            found.setdefault(definition.name, definition)
    return dict(sorted(found.items(), key=lambda item: not item[1].default_game))


def game_of(pm: pluggy.PluginManager, name: str, *, source: str,
            installed: Mapping[str, GameDefinition] | None = None) -> GameDefinition:
    """The game called ``name`` among the ``installed`` games and those ``pm``'s plugins contribute (installed ones
    first); ``DataError`` naming the manifest when none does."""
    games = {**games_of(pm, source=source), **(installed or {})}
    if name not in games:
        raise DataError(f"no plugin of this edition plays game {name!r} (games: {', '.join(games)}); list the "
                        f"plugin that contributes it in 'plugins'", source=source, key="game")
    return games[name]


@attrs.frozen
class BenchRequest:
    """What ``samurai bench`` asks a game to time: its command-line arguments, each already read and checked."""

    edition: str
    """``--edition`` as given (an id or a manifest path): edition A of the compare timing, named as the user did."""
    players: tuple[int, ...]
    """The player counts of ``--players`` (default 2, 3 and 4)."""
    players_given: bool
    """Whether ``--players`` named other counts than the default (``--mcts`` times 2 players unless it did)."""
    games: int
    """``--games``: full games timed per player count."""
    seed: int
    """``--seed``: the seed the timed games and positions are dealt from."""
    paths: bool
    """False with ``--no-paths``: skip the timings of the paths search uses (a position copy, its legal actions)."""
    compare_games: int
    """``--compare-games``: paired games of the ``samurai compare`` timing; 0 skips it."""
    compare_with: str
    """``--compare-with``: edition B of the compare timing."""
    mcts: bool
    """``--mcts``: time the MCTS bot's simulations per second instead."""
    simulations: int
    """``--simulations``: with ``mcts``, simulations per decision."""
    decisions: int
    """``--decisions``: with ``mcts``, decisions timed per kind of position."""
    engine: str | None = None
    """``--engine``: the one engine to time, for a game with several (Knizia's: python, native); None times each
    side by side."""
    levels: tuple[str, ...] = ()
    """``--levels``: the bot levels to time instead (whole games, every seat at the level); empty for none."""
    level_games: int = 2
    """``--level-games``: with ``levels``, games timed per level and player count."""


@attrs.frozen
class GameCommands:
    """The work behind the commands of ``samurai`` that only a game knows how to do (``GameDefinition.commands``).

    The command line (``samurai.cli``) parses and checks the arguments, loads the edition and prints; a game
    supplies what the command computes. A field left None is a command the game does not offer: the command
    refuses it in one line (``samurai: error: ...``, exit code 2).
    """

    score: Callable[[Edition, Any], Mapping[str, Any]] | None = None
    """``(edition, captured) -> {"winners", "reason", "explanation"}``, JSON-ready: ``samurai score``, the
    edition's scoring of ``--captured`` (the JSON given; ``DataError`` with source ``"captured"`` for a bad one)."""
    render_file: Callable[[str, int | None, int | None, int | None, Sequence[str]], str] | None = None
    """``(file, to, seat, width, trust) -> SVG``: ``samurai render`` of a file of this game that is not a protocol
    record (``samurai.records``), e.g. a record of the game's own or a scenario: the position after action ``to``
    (None: the last) as ``seat`` may see it (None: a spectator), ``width`` pixels wide (None: its natural size),
    with the manifests and maps of ``trust`` vouched for. Only the game of a file that names no game is asked."""
    bench: Callable[[Edition, BenchRequest], Iterable[str]] | None = None
    """``(edition, request) -> lines``: ``samurai bench``, the lines of its table as each figure is measured."""
    try_end_of_game_hooks: Callable[[Edition], None] | None = None
    """``(edition)``: call once per player count the hooks a game calls only at its end (scoring, metrics), so that
    ``samurai editions`` catches a plugin failing there when it lists the edition rather than after a long run."""
    starter_plugin: str | None = None
    """The plugin module ``samurai new-edition`` writes beside a new edition of this game: Python text in which
    ``{ident}`` (the new edition), ``{base}`` (the edition it extends), ``{game}`` and ``{hookspecs}`` are filled in;
    it must load as it is (its hooks return None). None: ``samurai.scaffold.STARTER_PLUGIN``."""
    play_scenario: Callable[[str, str | None, Sequence[str], int, Sequence[str]], PlayedScenario] | None = None
    """``(file, edition, bots, seed, trust) -> played``: ``samurai play-scenario``, bots playing a position of this
    game's scenario file to the end; ``edition`` (an id or a manifest path the user trusts; None: the scenario's
    own), ``bots`` by seat (already checked to be this game's), the seed of the draws and the bots, the manifests and
    maps of ``trust`` vouched for. Only the game of a file that names no game is asked."""
    edition_lines: Callable[[Edition], Iterable[str]] | None = None
    """``(edition) -> lines``: what ``samurai editions`` says of an edition beyond what every game has (Knizia's
    game: which engine plays it and, if the Python one, why)."""
    engine_note: Callable[[], str] | None = None
    """``() -> words``: what ``samurai --version`` says of the engine this game's games get, e.g. ``engine: native;
    native engine built`` (Knizia's game); None: nothing (a game with one engine)."""


@attrs.frozen
class PlayedScenario:
    """A scenario played out (``GameCommands.play_scenario``): the game told action by action, and how to save its
    record."""

    lines: Sequence[str]
    """What ``samurai replay`` would print of the game."""
    save: Callable[[str], str]
    """``(path) -> path written``: write the game's record (``.json`` or ``.toml``)."""
