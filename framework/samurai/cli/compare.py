"""``samurai compare`` (two editions on paired seeded games) and ``samurai analyse`` (the same
metrics again from a comparison's saved records)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .arguments import executor_args, parse_options, output_args, players_of, run_args, trust_args
from .common import default_bots, run_executor
from .outputs import check_outputs, check_plot, manifest_paths
from .progress import progress_bar


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``compare`` and ``analyse`` to the command line's commands."""
    cmp = commands.add_parser("compare", help="compare two editions on paired seeded games",
                              description="Play game i under edition A and under edition B with the same seed "
                                          "and bots; print each metric with its 95% confidence interval and "
                                          "the difference B - A.")
    cmp.add_argument("edition_a", metavar="A", help="edition id or manifest path")
    cmp.add_argument("edition_b", metavar="B", help="edition id or manifest path")
    run_args(cmp, bots=None, bots_default="greedy where the game has it, else random")
    cmp.add_argument("--option-a", action="append", default=[], metavar="NAME=VALUE",
                     help="set an option of edition A (repeatable; VALUE read as JSON when it can be)")
    cmp.add_argument("--option-b", action="append", default=[], metavar="NAME=VALUE",
                     help="set an option of edition B (repeatable)")
    executor_args(cmp)
    output_args(cmp)
    cmp.add_argument("--plot", metavar="FILE", help="draw the main metrics to FILE.png or FILE.svg (needs matplotlib)")
    cmp.add_argument("--save-dir", metavar="DIR", help="write DIR/run.json, then keep every game's record in "
                                                       "DIR/a and DIR/b (DIR must not hold a run already)")
    cmp.add_argument("--force", action="store_true", help="overwrite existing output files and a run in --save-dir")
    cmp.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    cmp.set_defaults(run=_compare)

    ana = commands.add_parser("analyse", help="compute the comparison metrics again from saved records",
                              description="Read DIR/a and DIR/b (written by compare --save-dir) and print the "
                                          "same metrics, from the records alone.")
    ana.add_argument("folder", metavar="DIR", help="the --save-dir of a samurai compare run")
    trust_args(ana)
    output_args(ana)
    ana.add_argument("--partial", action="store_true",
                     help="analyse a run that was cut short (fewer games than its run.json asked for)")
    ana.add_argument("--force", action="store_true", help="overwrite existing output files")
    ana.set_defaults(run=_analyse)


def _compare(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition
    from ..runs.compare import compare, measures_of
    from ..runs.matches import check_bots_play

    check_outputs([("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)], force=args.force,
                  inputs=manifest_paths(args.edition_a, args.edition_b), run_dir=args.save_dir)
    if args.plot:
        check_plot(args.plot)
    options_a, options_b = parse_options(args.option_a), parse_options(args.option_b)
    # Refuse bad editions (two games), options and bots before a cluster starts or a save folder is touched.
    editions = [load_edition(args.edition_a), load_edition(args.edition_b)]
    measures = measures_of(editions)
    players = players_of(args.players, editions[0])
    for edition, options in zip(editions, (options_a, options_b), strict=True):
        edition.start(players, 0, options)
    if args.bots is None:
        args.bots = default_bots(editions[0])
    check_bots_play(editions[0].game.name, args.bots.split(","))
    with run_executor(args) as executor:
        if args.save_dir is not None:
            from ..runs.folders import prepare_save_dir

            prepare_save_dir(args.save_dir, sides=("a", "b"), force=args.force)
            args.prepared = True
        with progress_bar("comparing", args.games, not args.no_progress) as advance:
            comparison = compare(args.edition_a, args.edition_b, players=players, games=args.games,
                                 seed=args.seed, bots=args.bots.split(","), save_dir=args.save_dir,
                                 options_a=options_a, options_b=options_b, progress=advance, executor=executor)
    _report(comparison, args)
    if args.plot:
        from ..runs.plot import plot_comparison

        print(f"plot: {plot_comparison(comparison, args.plot, measures.panels)}")
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from ..runs.compare import analyse_records

    check_outputs([("--json", args.json), ("--csv", args.csv)], force=args.force, run_dir=args.folder)
    comparison = analyse_records(args.folder, partial=args.partial, trust=args.trust)
    if comparison.games_asked is not None and comparison.games < comparison.games_asked:
        print(f"samurai: warning: {args.folder} holds {comparison.games} of the {comparison.games_asked} paired "
              f"games its run asked for (cut short); analysing those", file=sys.stderr)
    _report(comparison, args)
    return 0


def _report(comparison: Any, args: argparse.Namespace) -> None:
    from ..runs.report import print_comparison

    print_comparison(comparison)
    if args.json:
        comparison.write_json(args.json)
    if args.csv:
        comparison.write_csv(args.csv)

