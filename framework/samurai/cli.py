"""The ``samurai`` command: simulate, score, editions, new-edition, bench.

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


def _build_parser() -> _Parser:
    parser = _Parser(prog="samurai", description="Reiner Knizia's Samurai: simulate, score and inspect editions.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    sim = commands.add_parser("simulate", help="play many seeded games between bots and summarise them",
                              description="Play many seeded games between bots; print wins by seat, shared "
                                          "wins, game lengths and end reasons.")
    _edition_args(sim)
    sim.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    sim.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the run; game i uses a seed derived from it")
    sim.add_argument("--bots", default="random",
                     help="comma-separated bots, assigned to seats in turn (random, greedy; default random)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    sim.set_defaults(run=_simulate)

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

    bench = commands.add_parser("bench", help="measure full random games per second")
    bench.add_argument("--edition", default="ffg2015", help="edition id (default ffg2015)")
    bench.add_argument("--games", type=_positive, default=2000, help="games per player count (default 2000)")
    bench.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(run=_bench)
    return parser


def _edition_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an edition option (repeatable); VALUE is read as JSON when it can be")


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
    show_progress = not args.no_progress and sys.stderr.isatty()
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            summary = simulate(edition, args.players, args.games, args.seed, bots, options=options,
                               progress=lambda done: bar.update(task, completed=done))
    else:
        summary = simulate(edition, args.players, args.games, args.seed, bots, options=options)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        _print_summary(summary.to_dict())
    return 0


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
    from .bench import run_bench
    from .plugins import load_edition

    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        raise DataError(f"expected player counts like 2,3,4, got {args.players!r}", source="--players") from None
    edition = load_edition(args.edition)
    for count in counts:
        edition.rules(count)
    print(f"{'players':>7} {'games':>6} {'seconds':>8} {'games/s':>9} {'games/cpu-s':>12}")
    for figure in run_bench(edition, counts, args.games, args.seed):
        print(f"{figure.players:>7} {figure.games:>6} {figure.seconds:>8.2f} {figure.games_per_second:>9.0f} "
              f"{figure.games_per_cpu_second:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
