"""The ``samurai`` command: simulate, compare, analyse, tournament, replay, render, play-scenario, score,
editions, new-edition, bench, serve.

Bad arguments or input print one line, ``samurai: error: ...``, and exit
with code 2; no traceback. Ctrl-C or SIGTERM stops a run cleanly (see
``samurai.interrupts``): one line, ``samurai: interrupted; ...``, exit code 130.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from . import seeds as game_seeds
from .errors import DataError, SamuraiError
from .files.reading import parse_json
from .runs.summary import print_summary

__all__ = ["main"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def run() -> NoReturn:
    """The ``samurai`` program: ``main`` with the process's arguments, then exit with its code.

    An interrupted run has stopped and joined its workers and said so in one
    line; it then leaves without the interpreter's exit hooks, because
    CPython 3.11's process-pool hook can write to a pipe the stopped pool has
    already closed and print a traceback after that line.
    """
    code = main()
    if code == EXIT_INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from .interrupts import interruptible

    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        with interruptible():  # SIGTERM stops a run as cleanly as Ctrl-C
            return int(args.run(args) or 0)
    except SamuraiError as exc:
        print(f"samurai: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"samurai: interrupted{_kept(args)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``samurai editions | head``): stop quietly.
        sys.stdout = None
        return 0
    except Exception as exc:
        from .hooks.calls import plugin_failure

        failure = plugin_failure(exc)  # a plugin's bug anywhere in play: name the plugin, not a traceback
        if failure is not None:
            print(f"samurai: error: {failure}", file=sys.stderr)
        elif isinstance(exc, ValueError):
            print(f"samurai: error: {exc}", file=sys.stderr)
        elif isinstance(exc, OSError):  # a file that cannot be written or read: say which, no traceback
            print(f"samurai: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        else:
            raise
        return EXIT_USAGE


def _build_parser() -> _Parser:
    parser = _Parser(prog="samurai", description="Reiner Knizia's Samurai: simulate, score and inspect editions.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    sim = commands.add_parser("simulate", help="play many seeded games between bots and summarise them",
                              description="Play many seeded games between bots; print wins by seat, shared "
                                          "wins, game lengths and end reasons.")
    _edition_args(sim)
    _run_args(sim)
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--save-dir", metavar="DIR", help="write DIR/run.json, then each game's record to "
                                                       "DIR/game-NNNNN.json (DIR must not hold a run already)")
    sim.add_argument("--force", action="store_true", help="replace the run already saved in --save-dir")
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    _executor_args(sim)
    sim.set_defaults(run=_simulate)

    cmp = commands.add_parser("compare", help="compare two editions on paired seeded games",
                              description="Play game i under edition A and under edition B with the same seed "
                                          "and bots; print each metric with its 95%% confidence interval and "
                                          "the difference B - A.")
    cmp.add_argument("edition_a", metavar="A", help="edition id or manifest path")
    cmp.add_argument("edition_b", metavar="B", help="edition id or manifest path")
    _run_args(cmp)
    cmp.add_argument("--option-a", action="append", default=[], metavar="NAME=VALUE",
                     help="set an option of edition A (repeatable; VALUE read as JSON when it can be)")
    cmp.add_argument("--option-b", action="append", default=[], metavar="NAME=VALUE",
                     help="set an option of edition B (repeatable)")
    _executor_args(cmp)
    _output_args(cmp)
    cmp.add_argument("--plot", metavar="FILE", help="draw the main metrics to FILE.png or FILE.svg (needs matplotlib)")
    cmp.add_argument("--save-dir", metavar="DIR", help="write DIR/run.json, then keep every game's record in "
                                                       "DIR/a and DIR/b (DIR must not hold a run already)")
    cmp.add_argument("--force", action="store_true", help="overwrite existing output files and a run in --save-dir")
    cmp.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    cmp.set_defaults(run=_compare)

    ana = commands.add_parser("analyse", help="compute the comparison metrics again from saved records",
                              description="Read DIR/a and DIR/b (written by compare --save-dir) and print the "
                                          "same metrics, from the records alone.")
    ana.add_argument("folder", metavar="DIR")
    _trust_args(ana)
    _output_args(ana)
    ana.add_argument("--partial", action="store_true",
                     help="analyse a run that was cut short (fewer games than its run.json asked for)")
    ana.add_argument("--force", action="store_true", help="overwrite existing output files")
    ana.set_defaults(run=_analyse)

    tour = commands.add_parser("tournament", help="rate bots in a seat-balanced tournament",
                               description="Play every table of bots in every seat order equally often; print "
                                           "each bot's win rate with its 95% interval and Bradley-Terry ratings "
                                           "with 95% intervals.")
    tour.add_argument("--bots", default="random,greedy",
                      help="comma-separated bots (random, greedy, easy, medium, hard, mcts:N); each table seats "
                           "PLAYERS of them (name a bot twice to seat it twice; default random,greedy)")
    tour.add_argument("--players", action="append", default=None, metavar="N[,N...]",
                      help="player counts, e.g. 2 or 3,4 (repeatable; default 2)")
    tour.add_argument("--games", type=_whole(1, MAX_GAMES), default=100,
                      help="games per table, a multiple of its seat orders (default 100)")
    tour.add_argument("--seed", type=_whole(0, MAX_SEED), default=1,
                      help="seed of the run; round r is dealt from a seed derived from it")
    tour.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="set an edition option (repeatable); VALUE is read as JSON when it can be")
    tour.add_argument("--anchor", default=None, help="the bot rated 0 (default random when it plays, else the "
                                                     "first bot)")
    tour.add_argument("--bootstrap", type=_whole(1, 100_000), default=1000,
                      help="bootstrap replicates for the rating intervals (default 1000)")
    tour.add_argument("--json", metavar="FILE", help="write ratings, win rates, tables and every game as JSON")
    tour.add_argument("--csv", metavar="FILE", help="write one row per seat of every game as CSV")
    tour.add_argument("--force", action="store_true", help="overwrite existing --json/--csv files")
    tour.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    _executor_args(tour)
    tour.set_defaults(run=_tournament)

    rep = commands.add_parser("replay", help="tell a saved game action by action",
                              description="Replay a record (JSON or TOML): who played what where, each capture "
                                          "and tie, the refills and the final explanation.")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--to", type=_whole(0, 10**6), metavar="N", help="stop after action N and print the position")
    _trust_args(rep)
    rep.set_defaults(run=_replay)

    ren = commands.add_parser("render", help="draw the board of a record or scenario as SVG or PNG",
                              description="Draw the position of a game record (after its last action, or "
                                          "action N) or a scenario: the board, figures, tiles and the table "
                                          "as SEAT may see it (without --seat: public information only; a "
                                          "finished game shows every seat's captures).")
    ren.add_argument("file", metavar="FILE", help="a game record (.json or .toml) or a scenario (.toml)")
    ren.add_argument("-o", "--output", required=True, metavar="OUT", help="the picture: OUT.svg or OUT.png")
    ren.add_argument("--to", type=_whole(0, 10**6), metavar="N",
                     help="draw the position after action N (default: the last)")
    ren.add_argument("--seat", type=_whole(0, 99), metavar="S", help="draw what seat S may know (default: a spectator)")
    ren.add_argument("--width", type=_whole(1, 20_000), metavar="PX", help="width of the picture in pixels "
                                                                          "(default: its natural size)")
    ren.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    _trust_args(ren)
    ren.set_defaults(run=_render)

    ps = commands.add_parser("play-scenario", help="play bots from a hand-written position to the end",
                             description="Start from a scenario file (TOML), let bots play it out and tell the "
                                         "game action by action.")
    ps.add_argument("file", metavar="FILE")
    ps.add_argument("--edition", default=None, help="edition id or manifest path (default: the scenario's, or "
                                                    "ffg2015); a path given here is trusted")
    _trust_args(ps)
    ps.add_argument("--bots", default="random", help="comma-separated bots by seat (random, greedy, easy, medium, "
                                                   "hard, mcts:N, mcts:Xs)")
    ps.add_argument("--seed", type=_whole(0, MAX_SEED), default=1, help="seed of the draws and the bots")
    ps.add_argument("--save", metavar="FILE", help="save the game's record (.json or .toml; not the scenario itself)")
    ps.add_argument("--force", action="store_true", help="overwrite an existing --save file")
    ps.set_defaults(run=_play_scenario)

    sc = commands.add_parser("score", help="score captured figures with an edition's rules",
                             description="Score captured figures; prints JSON with winners, reason, explanation.")
    _edition_args(sc)
    sc.add_argument("--captured", required=True,
                    help='JSON: {"0": {"buddha": 3, "rice": 1, "castle": 4}, "1": {...}}')
    sc.set_defaults(run=_score)

    eds = commands.add_parser("editions", help="list installed editions, their plugins and hooks",
                              description="List editions with their plugins (package and version), the hooks "
                                          "each implements, and their options.")
    eds.add_argument("edition", nargs="*", help="edition ids or manifest paths to show (default: every installed one)")
    eds.set_defaults(run=_editions)

    new = commands.add_parser("new-edition", help="write a starter manifest and plugin for a variant",
                              description="Write NAME.toml (extending another edition) and NAME.py (a plugin "
                                          "with one hook to start from) that load and play at once.")
    new.add_argument("name", metavar="NAME", help="the new edition's id, e.g. open-screens")
    new.add_argument("--extends", default="ffg2015", help="the edition it varies (default ffg2015)")
    new.add_argument("--dir", default=".", help="folder to write the files into (default: here)")
    new.add_argument("--force", action="store_true", help="overwrite existing files")
    new.set_defaults(run=_new_edition)

    bench = commands.add_parser("bench", help="measure full random games per second",
                                description="Time full random games for each player count, then a position "
                                            "copy and Game.legal_actions at a 4-player opening, and compare "
                                            "on one core.")
    bench.add_argument("--edition", default="ffg2015", help="edition id (default ffg2015)")
    bench.add_argument("--games", type=_whole(1, MAX_GAMES), default=2000,
                       help="games per player count (default 2000)")
    bench.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    bench.add_argument("--seed", type=_whole(0, MAX_SEED), default=1)
    bench.add_argument("--no-paths", action="store_true", help="skip the copy and legal-actions timings")
    bench.add_argument("--compare-games", type=_whole(0, MAX_GAMES), default=200, metavar="N",
                       help="paired games of the compare timing (default 200; 0 skips it)")
    bench.add_argument("--compare-with", default="original", metavar="EDITION",
                       help="edition B of the compare timing (default original)")
    bench.add_argument("--mcts", action="store_true",
                       help="measure MCTS simulations per second instead (one core, full rollouts, from the first "
                            "turn of play and from mid-game; --players 2 unless given)")
    bench.add_argument("--simulations", type=_whole(1, 10**7), default=2000,
                       help="with --mcts: simulations per decision (default 2000)")
    bench.add_argument("--decisions", type=_whole(1, 10**5), default=5,
                       help="with --mcts: decisions timed per kind of position (default 5)")
    bench.set_defaults(run=_bench)

    serve = commands.add_parser("serve", help="a local web page to play against bots and friends, and replay games",
                                description="Serve the page and its JSON API (docs/http-api.md); games are kept "
                                            "in DIR/games.sqlite3 and survive a restart. Needs the web extra.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--data-dir", metavar="DIR", help="where games are kept (default: the user's data folder, "
                                                         "$XDG_DATA_HOME/samurai or ~/.local/share/samurai)")
    serve.add_argument("--edition", action="append", default=[], metavar="MANIFEST",
                       help="also offer the edition of this manifest (repeatable); installed ones are always offered")
    serve.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                       help="pause before each bot move so people can follow (default 0.6)")
    serve.add_argument("--bot-workers", type=_whole(1, 256), default=None, metavar="N",
                       help="worker processes for the bots' searches: at most N search at once (default: the "
                            "machine's cores)")
    serve.add_argument("--bot-searches-per-client", type=_whole(1, 256), default=None, metavar="N",
                       help="at most N searches at once for the games one address started (default: half the "
                            "workers, at least 1)")
    serve.add_argument("--games-per-minute", type=_whole(1, 100_000), default=None, metavar="N",
                       help="games one address may start in any minute (default 30; more: 429)")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="URL",
                       help="also take game starts and record uploads from the page at URL, e.g. a reverse "
                            "proxy's https://games.example.org (repeatable)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="also take requests whose Host header is NAME, e.g. a reverse proxy's (repeatable)")
    serve.set_defaults(run=_serve)
    return parser


def _edition_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an edition option (repeatable); VALUE is read as JSON when it can be")


def _run_args(parser: argparse.ArgumentParser) -> None:
    """The arguments of a run of seeded games: players, games, seed and bots."""
    parser.add_argument("--players", type=_whole(0, 99), default=_DEFAULT_PLAYERS,
                        help="number of players (default 4, or the fewest the edition's game allows)")
    parser.add_argument("--games", type=_whole(1, MAX_GAMES), default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=_whole(0, MAX_SEED), default=1,
                        help="seed of the run; game i uses a seed derived from it")
    parser.add_argument("--bots", default="random",
                        help="comma-separated bots, assigned to seats in turn (random, greedy, easy, medium, hard, "
                             "mcts:N simulations, mcts:Xs seconds; default random)")


def _executor_args(parser: argparse.ArgumentParser) -> None:
    """Where a run's batches are played: ``--workers``, ``--backend``, ``--scheduler`` (see
    ``samurai.runs.executors``)."""
    parser.add_argument("--workers", type=_whole(1, 256), default=None,
                        help="worker processes (default: the machine's cores, at most 8; with --backend dask and no "
                             "--scheduler, the local cluster's)")
    parser.add_argument("--backend", default="local", metavar="NAME",
                        help="where the games are played: local worker processes (default), dask, or an executor a "
                             "plugin contributes; the results are the same on every backend")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --backend dask: the scheduler of a running cluster, e.g. tcp://HOST:8786 "
                             "(default: start a local cluster); see docs/scale.md")


def _trust_args(parser: argparse.ArgumentParser) -> None:
    """``--trust``: the manifests and maps a record, scenario or folder may use beyond installed ones."""
    parser.add_argument("--trust", action="append", default=[], metavar="PATH",
                        help="an edition manifest (or map file) you vouch for, so the file may use it; a manifest's "
                             "plugins are code: trust only what you would run (repeatable)")


def _output_args(parser: argparse.ArgumentParser) -> None:
    """Where a comparison's metrics are written besides the table."""
    parser.add_argument("--json", metavar="FILE", help="write every metric with its intervals as JSON")
    parser.add_argument("--csv", metavar="FILE", help="write one row per metric as CSV")


class _Default(int):
    """An int default that can be told from the same number given on the command line."""


_DEFAULT_PLAYERS = _Default(4)

MAX_GAMES = 10_000_000
"""The most games one run may ask for (a million takes hours already)."""
MAX_SEED = game_seeds.MAX_SEED
"""Seeds are 63-bit (the engine's and the records' range, ``samurai.knizia.game.MAX_SEED``)."""


def _whole(low: int, high: int) -> Any:
    """An argument type: a whole number from ``low`` to ``high`` in plain ASCII digits.

    ``int()`` alone would take ``"٣"``, ``"+3"``, ``" 3"`` and ``"1_000"``; a
    command line number is digits, with a minus sign only to be refused clearly.
    """
    def whole(text: str) -> int:
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
        return value

    whole.__name__ = "whole number"  # argparse names the type in its messages
    return whole


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise DataError(f"expected NAME=VALUE, got {pair!r}", source="--option")
        if name in options:
            raise DataError(f"option {name!r} is given twice", source="--option", key=name)
        try:
            options[name] = parse_json(raw, source="--option")
        except DataError:  # not JSON (or JSON no file may hold): the text itself, checked against the option
            options[name] = raw
    return options


def _simulate(args: argparse.Namespace) -> int:
    from .catalog.editions import load_edition

    return _simulate_through_protocol(args, load_edition(args.edition))


def _simulate_through_protocol(args: argparse.Namespace, edition: Any) -> int:
    """``simulate`` for any game, on the one runner (``samurai.runs.matches``, through the game's accelerator when
    it has one); without ``--players``, 4 where the edition allows it, else the fewest players it allows."""
    from .runs.matches import check_bots_play, run_summary, simulate_matches

    bots = check_bots_play(edition.game.name, args.bots)
    options = _options(args.option)
    players = _players_of(args.players, edition)
    edition.start(players, 0, options)  # refuse bad players or options before the progress bar starts
    summary = run_summary(edition, _simulating(args, lambda advance, executor: simulate_matches(
        edition, players, args.games, args.seed, bots, options=options, progress=advance, save_dir=args.save_dir,
        executor=executor)))
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        print_summary(summary.table())
    return 0


def _simulating(args: argparse.Namespace, run: Callable[[Any, Any], Any]) -> Any:
    """``run(progress, executor)`` on the executor of the arguments, after preparing ``--save-dir``, with a
    progress bar; the executor starts before the save folder is touched (a backend that cannot start loses
    nothing) and is closed whatever happens."""
    with _executor(args) as executor:
        if args.save_dir is not None:
            from .runs.folders import prepare_save_dir

            prepare_save_dir(args.save_dir, force=args.force)
            args.prepared = True
        with _progress_bar("simulating", args.games, not args.no_progress) as advance:
            return run(advance, executor)


def _players_of(given: int, edition: Any) -> int:
    """``--players`` as given, or by default 4 where the edition's game allows it, else the fewest it allows."""
    if given is not _DEFAULT_PLAYERS or 4 in edition.player_counts:
        return given
    return int(min(edition.player_counts))


@contextlib.contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--backend``, ``--workers`` and ``--scheduler``, started (a local pool starts lazily), and
    closed when the block ends, whatever happens: the one set-up of every command that plays on workers."""
    from .runs.executors import default_workers, make_executor

    executor = make_executor(args.backend, workers=args.workers or default_workers(), scheduler=args.scheduler)
    try:
        yield executor
    finally:
        executor.close()


_PROGRESS_LINE_SECONDS = 60.0
"""Off a terminal (a log, ``nohup``), how often at most a long run writes a line of progress to stderr."""


class _ProgressLines:
    """Progress as plain lines on ``stream`` (stderr), for a run whose stderr is not a terminal: at most one line
    every ``every`` seconds (``_PROGRESS_LINE_SECONDS``) of ``clock``, none for a run shorter than that (its
    output stays as it was)."""

    def __init__(self, label: str, total: int, *, every: float | None = None,
                 clock: Callable[[], float] | None = None, stream: Any = None) -> None:
        import time

        self.label, self.total = label, total
        self.every = _PROGRESS_LINE_SECONDS if every is None else every
        self.clock = clock or time.monotonic
        self.stream = stream
        self.started = self.last = self.clock()

    def __call__(self, done: int) -> None:
        """``done`` of ``total`` are finished: write a line if the last was ``every`` seconds ago."""
        now = self.clock()
        if now - self.last < self.every:
            return
        self.last = now
        minutes, seconds = divmod(int(now - self.started), 60)
        print(f"samurai: {self.label}: {done} of {self.total} done after {minutes} min {seconds:02d} s",
              file=self.stream or sys.stderr, flush=True)


def _progress_bar(label: str, total: int, enabled: bool) -> Any:
    """A rich progress bar on stderr, as a context manager yielding ``advance_to(k)``; off a terminal, a line
    now and then (``_ProgressLines``)."""
    import contextlib

    if not enabled:
        return contextlib.nullcontext(None)
    if not sys.stderr.isatty():
        return contextlib.nullcontext(_ProgressLines(label, total))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    @contextlib.contextmanager
    def bar() -> Any:
        with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(label, total=total)
            yield lambda done: progress.update(task, completed=done)

    return bar()


def _compare(args: argparse.Namespace) -> int:
    from .catalog.editions import load_edition
    from .runs.compare import compare, measures_of
    from .runs.matches import check_bots_play

    _check_outputs([("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)], force=args.force,
                   inputs=_manifest_paths(args.edition_a, args.edition_b), run_dir=args.save_dir)
    if args.plot:
        _check_plot(args.plot)
    options_a, options_b = _options(args.option_a), _options(args.option_b)
    # Refuse bad editions (two games), options and bots before a cluster starts or a save folder is touched.
    editions = [load_edition(args.edition_a), load_edition(args.edition_b)]
    measures = measures_of(editions)
    players = _players_of(args.players, editions[0])
    for edition, options in zip(editions, (options_a, options_b), strict=True):
        edition.start(players, 0, options)
    check_bots_play(editions[0].game.name, args.bots.split(","))
    with _executor(args) as executor:
        if args.save_dir is not None:
            from .runs.folders import prepare_save_dir

            prepare_save_dir(args.save_dir, sides=("a", "b"), force=args.force)
            args.prepared = True
        with _progress_bar("comparing", args.games, not args.no_progress) as advance:
            comparison = compare(args.edition_a, args.edition_b, players=players, games=args.games,
                                 seed=args.seed, bots=args.bots.split(","), save_dir=args.save_dir,
                                 options_a=options_a, options_b=options_b, progress=advance, executor=executor)
    _report(comparison, args)
    if args.plot:
        from .runs.plot import plot_comparison

        print(f"plot: {plot_comparison(comparison, args.plot, measures.panels)}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from .catalog.editions import load_edition
    from .runs.compare import default_workers
    from .runs.matches import check_bots_play
    from .runs.tournament import print_tournament, schedule, tournament
    from .search.bots import parse_bots

    _check_outputs([("--json", args.json), ("--csv", args.csv)], force=args.force)
    counts: list[int] = []
    for text in args.players or ["2"]:
        for part in text.split(","):
            if not (part.isascii() and part.isdigit() and len(part) < 3) or int(part) < 1:
                raise DataError(f"expected player counts like 2 or 3,4, got {text!r}", source="--players")
            if int(part) not in counts:
                counts.append(int(part))
    names = parse_bots(args.bots)
    options = _options(args.option)
    edition = load_edition(args.edition)
    check_bots_play(edition.game.name, names)  # a bot made for another game is refused in one line
    for count in counts:
        edition.start(count, 0, options)  # refuse bad players or options before the progress bar starts
    total = len(schedule(names, counts, args.games)[1])  # and a schedule that cannot be balanced
    with _executor(args) as executor:  # after every check: a cluster starts only for a run that can go
        with _progress_bar("tournament", total, not args.no_progress) as advance:
            result = tournament(names, players=counts, games=args.games, seed=args.seed,
                                workers=args.workers or default_workers(), edition=args.edition,
                                options=options, bootstrap=args.bootstrap, anchor=args.anchor,
                                progress=advance, executor=executor)
    print_tournament(result)
    if args.json:
        result.write_json(args.json)
    if args.csv:
        result.write_csv(args.csv)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .catalog.trust import Trust
    from .records import read_record_file, replay_lines

    trust = Trust(args.trust)
    read = read_record_file(args.file, trust=trust)
    # The whole record must replay and match its check before it is told (each game's replay_lines makes sure).
    print("\n".join(replay_lines(read.records, read.record, source=args.file, trust=trust,
                                 folder=Path(args.file).parent, to=args.to)))
    return 0


def _render(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .files.writing import write_atomically
    from .knizia.render import position_from_file, render_svg, svg_to_png

    target = Path(args.output)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise DataError(f"the picture is written as .svg or .png, not {suffix or 'no suffix'!r}", source="-o")
    _check_outputs([("-o", args.output)], force=args.force, inputs=[args.file, *args.trust])
    play_record = _play_record(args.file)
    if play_record is not None:  # a record of a game other than Knizia's: its game draws a seat's view
        from .catalog.trust import Trust
        from .records import replayed

        trust = Trust(args.trust)
        state = replayed(play_record, source=args.file, trust=trust, folder=Path(args.file).parent, to=args.to)
        if args.seat is not None and not 0 <= args.seat < state.players:
            raise DataError(f"the game has seats 0 to {state.players - 1}, not {args.seat}", source="--seat")
        edition = trust.edition(play_record.edition, source=args.file, folder=Path(args.file).parent)
        svg = edition.game.render(state, state.view(args.seat or 0))
        data = svg_to_png(svg, width=args.width) if suffix == ".png" else svg.encode("utf-8")
        write_atomically(target, data)
        print(f"wrote {target}")
        return 0
    game = position_from_file(args.file, args.to, trust=args.trust)
    if args.seat is not None and not 0 <= args.seat < game.players:
        raise DataError(f"the game has seats 0 to {game.players - 1}, not {args.seat}", source="--seat")
    svg = render_svg(game, args.seat, width=args.width)
    data = svg_to_png(svg, width=args.width) if suffix == ".png" else svg.encode("utf-8")
    write_atomically(target, data)
    print(f"wrote {target}")
    return 0


def _play_record(path: str) -> Any:
    """The record at ``path`` when it is of a game other than Knizia's (``samurai.records``), else None."""
    from .files.reading import read_data
    from .records import is_play_record, play_record_from_dict

    if not path.lower().endswith((".json", ".toml")):
        return None
    data, _ = read_data(path)
    return play_record_from_dict(data, source=path) if is_play_record(data) else None


def _play_scenario(args: argparse.Namespace) -> int:
    from .catalog.trust import Trust
    from .knizia.game import edition_of, new_game
    from .knizia.records import record_of, write_record
    from .knizia.replays import replay_lines
    from .knizia.simulate import play_out
    from .search.bots import parse_bots

    bots = parse_bots(args.bots)
    if args.save:
        _check_record_name(args.save)
        _check_outputs([("--save", args.save)], force=args.force, inputs=[args.file, *_manifest_paths(args.edition)])
    trust = Trust(args.trust)
    if args.edition is not None:
        trust.also(edition_of(args.edition))  # the edition named on the command line is the user's own
    game = new_game(args.edition, seed=args.seed, scenario=args.file, trace=False, trust=trust)
    if game.map_name is not None and game.map_name.endswith(".toml"):
        trust.also(game.map_name)  # the map the scenario was allowed to use, for telling the game
    actions: list[tuple[int, ...]] = []
    final = play_out(game.rules, game.state.copy(), args.seed, bots, actions=actions)
    record = record_of(game.rules, args.seed, actions, final=final, map_name=game.map_name,
                       scenario=game.scenario.data if game.scenario else None)
    print("\n".join(replay_lines(record, source=args.file, trust=trust)))
    if args.save:
        print(f"saved: {write_record(record, args.save)}")
    return 0


def _check_outputs(outputs: Sequence[tuple[str, str | None]], *, force: bool, inputs: Sequence[str] = (),
                   run_dir: str | None = None) -> None:
    """Refuse, before the work starts, an output file that cannot be written or would overwrite something.

    Every output (``--json``, ``--csv``, ``--plot``, ``--save``) follows one
    rule: an existing file is replaced only with ``--force``, and never when
    it is one of the command's inputs, the files of the run folder it reads or
    writes, or another output of the same command.
    """
    import os
    from pathlib import Path

    from .runs.folders import RUN_FILE

    taken = {Path(path).resolve(): "input" for path in inputs}
    run_files = set()
    if run_dir is not None:
        root = Path(run_dir).resolve()
        run_files = {root, root / "a", root / "b"}
        taken[root / RUN_FILE] = "run"
    for flag, path in outputs:
        if path is None:
            continue
        if not path.strip():
            raise DataError("name a file", source=flag)
        target = Path(path)
        resolved = target.resolve()
        if taken.get(resolved) == "input":
            raise DataError(f"{path} is an input of this command; write the output to another file", source=flag)
        if resolved.parent in run_files and resolved.name.startswith("game-"):
            raise DataError(f"{path} is a record file of the run folder; write the output to another file",
                            source=flag)
        if resolved in taken:
            raise DataError(f"{path} is also the {taken[resolved]} file", source=flag)
        taken[resolved] = flag
        if target.is_dir():
            raise DataError(f"{path} is a folder, not a file", source=flag)
        if not resolved.parent.is_dir():
            raise DataError(f"the folder of {path} does not exist", source=flag)
        if not os.access(resolved.parent, os.W_OK | os.X_OK):
            raise DataError(f"cannot write into the folder of {path}", source=flag)
        if target.exists() or target.is_symlink():
            if not force:
                raise DataError(f"{path} already exists; pass --force to overwrite it", source=flag)
            if not os.access(target, os.W_OK):
                raise DataError(f"{path} is not writable", source=flag)


def _manifest_paths(*editions: str | None) -> list[str]:
    """The editions named by manifest path (inputs a command must not overwrite)."""
    return [name for name in editions if name is not None and name.endswith(".toml")]


def _check_record_name(path: str) -> None:
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix not in ("json", "toml"):
        raise DataError(f"a record file ends in .json or .toml, not {path!r}", source="--save")


def _check_plot(path: str) -> None:
    """A plot's file type and matplotlib, checked before the games rather than after them."""
    import importlib.util

    if not path.lower().endswith((".png", ".svg")):
        raise DataError(f"the plot is saved as .png or .svg, not {path!r}", source="--plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise DataError('--plot needs matplotlib: pip install "samurai-engine[plot]"', source="--plot")


def _analyse(args: argparse.Namespace) -> int:
    from .runs.compare import analyse_records

    _check_outputs([("--json", args.json), ("--csv", args.csv)], force=args.force, run_dir=args.folder)
    comparison = analyse_records(args.folder, partial=args.partial, trust=args.trust)
    if comparison.games_asked is not None and comparison.games < comparison.games_asked:
        print(f"samurai: warning: {args.folder} holds {comparison.games} of the {comparison.games_asked} paired "
              f"games its run asked for (cut short); analysing those", file=sys.stderr)
    _report(comparison, args)
    return 0


def _kept(args: argparse.Namespace) -> str:
    """For a run with a save folder stopped early: what the folder keeps."""
    from pathlib import Path

    from .runs.folders import saved_games

    if not getattr(args, "prepared", False):
        return ""
    compare = args.run is _compare
    try:
        kept = saved_games(Path(args.save_dir) / "a" if compare else args.save_dir)
    except OSError:
        return ""
    hint = f"; samurai analyse {args.save_dir} --partial reads them" if compare else ""
    return f"; {args.save_dir} keeps the {kept} finished games of the {args.games} asked for{hint}"


def _report(comparison: Any, args: argparse.Namespace) -> None:
    from .runs.report import print_comparison

    print_comparison(comparison)
    if args.json:
        comparison.write_json(args.json)
    if args.csv:
        comparison.write_csv(args.csv)


def _score(args: argparse.Namespace) -> int:
    from .knizia.game import score

    captured = _json_argument(args.captured, "--captured")
    if args.option:
        raise DataError("score takes no options", source="--option")
    try:
        result = score(args.edition, captured)
    except DataError as exc:
        if exc.source != "captured":
            raise
        raise DataError(exc.message, source="--captured", key=exc.key) from None
    print(json.dumps({"winners": list(result.winners), "reason": result.reason,
                      "explanation": result.explanation}, indent=2))
    return 0


def _json_argument(text: str, flag: str) -> Any:
    """A JSON value given on the command line; duplicate keys and endless numbers are refused, not guessed."""
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise DataError(f"key {key!r} is given twice", source=flag, key=key)
            seen[key] = value
        return seen

    def no_float(text: str) -> Any:
        raise DataError(f"{text} is not a whole number", source=flag)

    try:
        return json.loads(text, object_pairs_hook=unique, parse_float=no_float,
                          parse_constant=no_float)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc}", source=flag) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", source=flag) from None
    except ValueError as exc:  # an integer too long to convert
        if isinstance(exc, DataError):
            raise
        raise DataError("a number is too long (more than 4300 digits)", source=flag) from None


def _editions(args: argparse.Namespace) -> int:
    from .catalog.editions import available_editions, installed_plugins, is_plugin_file, load_edition, plugin_hooks

    plugins = installed_plugins()
    for ident in args.edition or available_editions():
        edition = load_edition(ident)
        manifest = edition.manifest
        extends = f", extends {manifest.extends}" if manifest.extends else ""
        print(f"{manifest.id} {manifest.version}: {manifest.name}{extends}")
        print(f"  game: {manifest.game} ({edition.game.title})")
        print(f"  manifest: {manifest.path}")
        board = getattr(edition.board, "name", manifest.map)
        print(f"  players: {', '.join(map(str, edition.player_counts))}; map: {board}")
        pm = edition.plugin_manager
        for name in ("samurai.defaults", "samurai.knizia.special_tiles", *manifest.plugins):
            plugin = pm.get_plugin(name)
            info = plugins.get(name)
            origin = f"{info.package} {info.version}" if info else "file" if is_plugin_file(name) else "engine"
            print(f"  plugin {name} ({origin}): {', '.join(plugin_hooks(pm, plugin))}")
        for option in manifest.options.values():
            print(f"  option {option.name} = {option.default!r}: {option.description}")
        for players in edition.player_counts:
            edition.start(players, 0)  # a game that cannot start is caught when its edition is listed
        if manifest.players:  # Knizia's hooks that run only at a game's end
            _try_play_time_hooks(edition)
    return 0


def _try_play_time_hooks(edition: Any) -> None:
    """Call the hooks a game calls only at its end (scoring, metrics) once per player count, so a plugin that
    fails there is caught when its edition is listed rather than after a long run."""
    from .knizia.facts import GameFacts
    from .knizia.measures import contributed_metrics
    from .knizia.tiles import CASTES

    for players in edition.manifest.players:
        rules = edition.rules(players)
        captured = {seat: {caste: int(seat == 0) for caste in CASTES} for seat in range(players)}
        result = rules.scorer(captured)
        facts = GameFacts(winners=result.winners, end_reason="caste_exhausted", turns=players * 4,
                          tiles_played=players * 6, captured=tuple((1, 1, 1) if seat == 0 else (0, 0, 0)
                                                                   for seat in range(players)),
                          removed=0, midpoint_leader=0)
        for metric in contributed_metrics([edition], players, rules.setup.first_player):
            metric.value(facts)


def _new_edition(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .scaffold import write_starter_edition

    manifest, plugin = write_starter_edition(args.name, args.extends, Path(args.dir), force=args.force)
    print(f"wrote {manifest} and {plugin}")
    print(f"try it: samurai simulate --edition {manifest} --players 3 --games 100")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .catalog.editions import load_edition
    from .knizia.bench import run_bench, time_compare, time_paths

    parts = args.players.split(",")
    if not all(p.isascii() and p.isdigit() and len(p) < 3 for p in parts):
        raise DataError(f"expected player counts like 2,3,4, got {args.players!r}", source="--players")
    counts = [int(p) for p in parts]
    edition = load_edition(args.edition)
    for count in counts:
        edition.rules(count)
    if args.mcts:
        return _bench_mcts(args, edition, counts)
    compare_players = 3 if 3 in edition.manifest.players else min(edition.manifest.players)
    if args.compare_games:
        load_edition(args.compare_with).rules(compare_players)  # refuse a bad edition B before the timings
    print(f"{'players':>7} {'games':>6} {'seconds':>8} {'games/s':>9} {'games/cpu-s':>12}")
    for figure in run_bench(edition, counts, args.games, args.seed):
        print(f"{figure.players:>7} {figure.games:>6} {figure.seconds:>8.2f} {figure.games_per_second:>9.0f} "
              f"{figure.games_per_cpu_second:>12.0f}")
    if not args.no_paths:
        paths = time_paths(edition, 4 if 4 in edition.manifest.players else max(edition.manifest.players),
                           args.seed)
        print(f"position copy at a {paths.players}-player opening: {paths.copy_seconds * 1e6:.1f} us with its "
              f"generator, {paths.copy_given_rng_seconds * 1e6:.1f} us given one (copy(rng=...))")
        print(f"Game.legal_actions at a {paths.players}-player opening ({paths.actions} actions): "
              f"{paths.legal_actions_seconds * 1e3:.2f} ms")
    if args.compare_games:
        timed = time_compare(args.edition, args.compare_with, compare_players, args.compare_games, args.seed)
        print(f"compare {timed.edition_a} {timed.edition_b}, {timed.players} players, {timed.pairs} pairs on one "
              f"core: {timed.seconds:.2f} s, {timed.games_per_second:.0f} games/s")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .web.server import serve

    if not 0 <= args.port <= 65535:
        raise DataError(f"--port must be from 0 to 65535, not {args.port}", source="--port")
    if args.bot_delay < 0:
        raise DataError(f"--bot-delay must be 0 or more seconds, not {args.bot_delay}", source="--bot-delay")
    return serve(host=args.host, port=args.port, data_dir=args.data_dir, manifests=args.edition,
                 bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                 searches_per_client=args.bot_searches_per_client, games_per_minute=args.games_per_minute,
                 allowed_origins=args.allowed_origin, allowed_hosts=args.allowed_host)


def _bench_mcts(args: argparse.Namespace, edition: Any, counts: list[int]) -> int:
    from .knizia.bench import run_mcts_bench

    players = counts if args.players != "2,3,4" else [2]
    print(f"{'players':>7} {'position':>10} {'decisions':>9} {'simulations':>11} {'seconds':>8} {'sims/s':>8} "
          f"{'sims/cpu-s':>10}")
    for count in players:
        for figure in run_mcts_bench(edition, count, args.simulations, args.decisions, args.seed):
            print(f"{count:>7} {figure.position:>10} {figure.decisions:>9} {figure.simulations:>11} "
                  f"{figure.seconds:>8.2f} {figure.simulations_per_second:>8.0f} "
                  f"{figure.simulations_per_cpu_second:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
