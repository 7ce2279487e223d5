"""The ``samurai`` command: simulate, compare, analyse, tournament, replay, play-scenario, score, editions,
new-edition, bench.

Bad arguments or input print one line, ``samurai: error: ...``, and exit
with code 2; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .errors import DataError, SamuraiError

__all__ = ["main"]

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (SamuraiError, ValueError) as exc:
        print(f"samurai: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("samurai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``samurai editions | head``): stop quietly.
        sys.stdout = None
        return 0
    except OSError as exc:  # a file that cannot be written or read: say which, no traceback
        print(f"samurai: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
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
    sim.add_argument("--save-dir", metavar="DIR", help="write each game's record to DIR/game-NNNNN.json")
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
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
    cmp.add_argument("--workers", type=_positive, default=None,
                     help="worker processes (default: the machine's cores, at most 8)")
    _output_args(cmp)
    cmp.add_argument("--plot", metavar="FILE", help="draw the main metrics to FILE.png or FILE.svg (needs matplotlib)")
    cmp.add_argument("--save-dir", metavar="DIR", help="keep every game's record in DIR/a and DIR/b")
    cmp.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    cmp.set_defaults(run=_compare)

    ana = commands.add_parser("analyse", help="compute the comparison metrics again from saved records",
                              description="Read DIR/a and DIR/b (written by compare --save-dir) and print the "
                                          "same metrics, from the records alone.")
    ana.add_argument("folder", metavar="DIR")
    _output_args(ana)
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
    tour.add_argument("--games", type=_positive, default=100,
                      help="games per table, a multiple of its seat orders (default 100)")
    tour.add_argument("--seed", type=int, default=1, help="seed of the run; round r is dealt from a seed derived "
                                                          "from it")
    tour.add_argument("--workers", type=_positive, default=None,
                      help="worker processes (default: the machine's cores, at most 8)")
    tour.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="set an edition option (repeatable); VALUE is read as JSON when it can be")
    tour.add_argument("--anchor", default=None, help="the bot rated 0 (default random when it plays, else the "
                                                     "first bot)")
    tour.add_argument("--bootstrap", type=_positive, default=1000,
                      help="bootstrap replicates for the rating intervals (default 1000)")
    tour.add_argument("--json", metavar="FILE", help="write ratings, win rates, tables and every game as JSON")
    tour.add_argument("--csv", metavar="FILE", help="write one row per seat of every game as CSV")
    tour.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    tour.set_defaults(run=_tournament)

    rep = commands.add_parser("replay", help="tell a saved game action by action",
                              description="Replay a record (JSON or TOML): who played what where, each capture "
                                          "and tie, the refills and the final explanation.")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--to", type=int, metavar="N", help="stop after action N and print the position")
    rep.set_defaults(run=_replay)

    ps = commands.add_parser("play-scenario", help="play bots from a hand-written position to the end",
                             description="Start from a scenario file (TOML), let bots play it out and tell the "
                                         "game action by action.")
    ps.add_argument("file", metavar="FILE")
    ps.add_argument("--edition", default=None, help="edition id or manifest path (default: the scenario's, or "
                                                    "ffg2015)")
    ps.add_argument("--bots", default="random", help="comma-separated bots by seat (random, greedy, easy, medium, "
                                                   "hard, mcts:N, mcts:Xs)")
    ps.add_argument("--seed", type=int, default=1, help="seed of the draws and the bots")
    ps.add_argument("--save", metavar="FILE", help="save the game's record (.json or .toml)")
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
    bench.add_argument("--games", type=_positive, default=2000, help="games per player count (default 2000)")
    bench.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--mcts", action="store_true",
                       help="measure MCTS simulations per second instead (one core, full rollouts, from the first "
                            "turn of play and from mid-game; --players 2 unless given)")
    bench.add_argument("--simulations", type=_positive, default=2000,
                       help="with --mcts: simulations per decision (default 2000)")
    bench.add_argument("--decisions", type=_positive, default=5,
                       help="with --mcts: decisions timed per kind of position (default 5)")
    bench.add_argument("--no-paths", action="store_true", help="skip the copy and legal-actions timings")
    bench.add_argument("--compare-games", type=int, default=200, metavar="N",
                       help="paired games of the compare timing (default 200; 0 skips it)")
    bench.add_argument("--compare-with", default="original", metavar="EDITION",
                       help="edition B of the compare timing (default original)")
    bench.set_defaults(run=_bench)
    return parser


def _edition_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an edition option (repeatable); VALUE is read as JSON when it can be")


def _run_args(parser: argparse.ArgumentParser) -> None:
    """The arguments of a run of seeded games: players, games, seed and bots."""
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run; game i uses a seed derived from it")
    parser.add_argument("--bots", default="random",
                        help="comma-separated bots, assigned to seats in turn (random, greedy, easy, medium, hard, "
                             "mcts:N simulations, mcts:Xs seconds; default random)")


def _output_args(parser: argparse.ArgumentParser) -> None:
    """Where a comparison's metrics are written besides the table."""
    parser.add_argument("--json", metavar="FILE", help="write every metric with its intervals as JSON")
    parser.add_argument("--csv", metavar="FILE", help="write one row per metric as CSV")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise DataError(f"expected NAME=VALUE, got {pair!r}", source="--option")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def _simulate(args: argparse.Namespace) -> int:
    from .plugins import load_edition
    from .simulate import parse_bots, simulate

    edition = load_edition(args.edition)
    bots = parse_bots(args.bots)
    options = _options(args.option)
    edition.rules(args.players, options)  # refuse bad players or options before the progress bar starts
    with _progress_bar("simulating", args.games, not args.no_progress) as advance:
        summary = simulate(edition, args.players, args.games, args.seed, bots, options=options, progress=advance,
                           save_dir=args.save_dir)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        _print_summary(summary.to_dict())
    return 0


def _progress_bar(label: str, total: int, enabled: bool) -> Any:
    """A rich progress bar on stderr (only on a terminal), as a context manager with ``advance_to(k)``."""
    import contextlib

    if not enabled or not sys.stderr.isatty():
        return contextlib.nullcontext(None)
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
    from .compare import compare, default_workers

    _check_writable(args.json, args.csv, args.plot, flags=("--json", "--csv", "--plot"))
    if args.plot:
        from .plot import plot_comparison  # fail on a missing matplotlib before the games, not after
    with _progress_bar("comparing", args.games, not args.no_progress) as advance:
        comparison = compare(args.edition_a, args.edition_b, players=args.players, games=args.games,
                             seed=args.seed, bots=args.bots.split(","), workers=args.workers or default_workers(),
                             save_dir=args.save_dir, options_a=_options(args.option_a),
                             options_b=_options(args.option_b), progress=advance)
    _report(comparison, args)
    if args.plot:
        print(f"plot: {plot_comparison(comparison, args.plot)}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from .compare import default_workers
    from .plugins import load_edition
    from .simulate import parse_bots
    from .tournament import print_tournament, schedule, tournament

    _check_writable(args.json, args.csv, flags=("--json", "--csv"))
    counts: list[int] = []
    for text in args.players or ["2"]:
        for part in text.split(","):
            if not part.strip().isdigit() or int(part) < 1:
                raise DataError(f"expected player counts like 2 or 3,4, got {text!r}", source="--players")
            if int(part) not in counts:
                counts.append(int(part))
    names = parse_bots(args.bots)
    options = _options(args.option)
    edition = load_edition(args.edition)
    for count in counts:
        edition.rules(count, options)  # refuse bad players or options before the progress bar starts
    total = len(schedule(names, counts, args.games)[1])  # and a schedule that cannot be balanced
    with _progress_bar("tournament", total, not args.no_progress) as advance:
        result = tournament(names, players=counts, games=args.games, seed=args.seed,
                            workers=args.workers or default_workers(), edition=args.edition,
                            options=options, bootstrap=args.bootstrap, anchor=args.anchor,
                            progress=advance)
    print_tournament(result)
    if args.json:
        result.write_json(args.json)
    if args.csv:
        result.write_csv(args.csv)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .records import from_record, read_record
    from .replays import replay_lines

    record = read_record(args.file)
    from_record(record, source=args.file)  # the whole record must replay and match its check before we tell it
    lines = list(replay_lines(record, source=args.file, to=args.to))
    print("\n".join(lines))
    return 0


def _play_scenario(args: argparse.Namespace) -> int:
    from .game import new_game
    from .records import record_of, write_record
    from .replays import replay_lines
    from .simulate import parse_bots, play_out

    bots = parse_bots(args.bots)
    game = new_game(args.edition, seed=args.seed, scenario=args.file, trace=False)
    actions: list[tuple[int, ...]] = []
    final = play_out(game.rules, game.state.copy(), args.seed, bots, actions=actions)
    record = record_of(game.rules, args.seed, actions, final=final, map_name=game.map_name,
                       scenario=game.scenario.data if game.scenario else None)
    print("\n".join(replay_lines(record, source=args.file)))
    if args.save:
        print(f"saved: {write_record(record, args.save)}")
    return 0


def _check_writable(*paths: str | None, flags: Sequence[str]) -> None:
    """Refuse an output file whose folder does not exist before the work starts, not after."""
    from pathlib import Path

    for path, flag in zip(paths, flags, strict=True):
        if path is not None and not Path(path).resolve().parent.is_dir():
            raise DataError(f"the folder of {path} does not exist", source=flag)


def _analyse(args: argparse.Namespace) -> int:
    from .compare import analyse_records

    _report(analyse_records(args.folder), args)
    return 0


def _report(comparison: Any, args: argparse.Namespace) -> None:
    from .tables import print_comparison

    print_comparison(comparison)
    if args.json:
        comparison.write_json(args.json)
    if args.csv:
        comparison.write_csv(args.csv)


def _print_summary(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from .result import END_REASONS

    console = Console()
    games = data["games"]
    seats = Table(title=f"Samurai {data['edition']}: {data['players']} players, {games} games, seed {data['seed']}")
    for column in ("seat", "bot", "wins", "shared wins", "win rate"):
        seats.add_column(column, justify="left" if column == "bot" else "right")
    for seat in data["seats"]:
        seats.add_row(str(seat["seat"]), seat["bot"], str(seat["wins"]), str(seat["shared_wins"]),
                      f"{seat['win_rate']:.1%}")
    console.print(seats)
    figures = Table(show_header=True)
    figures.add_column("per game")
    figures.add_column("value", justify="right")
    figures.add_row("shared wins", f"{data['shared_games']} games ({data['shared_games'] / games:.1%})")
    turns = data["turns"]
    figures.add_row("turns", f"mean {turns['mean']:.1f} (min {turns['min']}, max {turns['max']})")
    figures.add_row("tiles played", f"mean {data['tiles_played']['mean']:.1f}")
    figures.add_row("figures removed by ties", f"mean {data['removed_by_ties']['mean']:.2f}")
    for reason, count in data["end_reasons"].items():
        figures.add_row(f"ended: {END_REASONS.get(reason, reason)}", f"{count} ({count / games:.1%})")
    for reason, count in data["win_reasons"].items():
        figures.add_row(f"decided by: {reason.replace('_', ' ')}", f"{count} ({count / games:.1%})")
    console.print(figures)


def _score(args: argparse.Namespace) -> int:
    from .game import score

    try:
        captured = json.loads(args.captured)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc}", source="--captured") from None
    if args.option:
        raise DataError("score takes no options", source="--option")
    result = score(args.edition, captured)
    print(json.dumps({"winners": list(result.winners), "reason": result.reason,
                      "explanation": result.explanation}, indent=2))
    return 0


def _editions(args: argparse.Namespace) -> int:
    from .plugins import available_editions, installed_plugins, is_plugin_file, load_edition, plugin_hooks

    plugins = installed_plugins()
    for ident in args.edition or available_editions():
        edition = load_edition(ident)
        manifest = edition.manifest
        extends = f", extends {manifest.extends}" if manifest.extends else ""
        print(f"{manifest.id} {manifest.version}: {manifest.name}{extends}")
        print(f"  manifest: {manifest.path}")
        print(f"  players: {', '.join(map(str, manifest.players))}; map: {edition.map.name}")
        pm = edition.plugin_manager
        for name in ("samurai.defaults", "samurai.special_tiles", *manifest.plugins):
            plugin = pm.get_plugin(name)
            info = plugins.get(name)
            origin = f"{info.package} {info.version}" if info else "file" if is_plugin_file(name) else "engine"
            print(f"  plugin {name} ({origin}): {', '.join(plugin_hooks(pm, plugin))}")
        for option in manifest.options.values():
            print(f"  option {option.name} = {option.default!r}: {option.description}")
    return 0


def _new_edition(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .scaffold import write_starter_edition

    manifest, plugin = write_starter_edition(args.name, args.extends, Path(args.dir), force=args.force)
    print(f"wrote {manifest} and {plugin}")
    print(f"try it: samurai simulate --edition {manifest} --players 3 --games 100")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import run_bench, time_compare, time_paths
    from .plugins import load_edition

    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        raise DataError(f"expected player counts like 2,3,4, got {args.players!r}", source="--players") from None
    edition = load_edition(args.edition)
    for count in counts:
        edition.rules(count)
    if args.mcts:
        return _bench_mcts(args, edition, counts)
    if args.compare_games < 0:
        raise DataError(f"must be 0 or more, not {args.compare_games}", source="--compare-games")
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


def _bench_mcts(args: argparse.Namespace, edition: Any, counts: list[int]) -> int:
    from .bench import run_mcts_bench

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
