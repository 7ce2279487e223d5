"""``samurai sweep``: an edition's options swept over their values on paired seeded games, every metric under every
setting with its 95% interval, and whether it changes with the value beyond chance (``samurai.runs.sweep``)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DataError
from .arguments import _executor_args, _player_counts, _run_args, _trust_args, _typed_options
from .common import _default_bots, _paired_command, _play_paired

_DESCRIPTION = (
    "Play every combination of the values given (a setting; the first values of every option make the first "
    "setting) at every player count, game i dealt alike under every setting (the same seed and bots), and print a "
    "table per player count: each metric of the game under each setting with its 95% interval, and whether it "
    "changes with the value beyond chance. The test: for each metric and each setting after the first, a "
    "two-sided z-test that its mean paired difference from the first setting is 0, Holm-corrected over every test "
    "of the player count's table (its metrics times the settings after the first) at a 5% familywise level. "
    "Values are read as the option's type: true or false, a number, or one of its choices.")


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``sweep`` to the command line's commands."""
    sweep = commands.add_parser("sweep", help="sweep edition options over their values on paired seeded games",
                                description=_DESCRIPTION)
    sweep.add_argument("edition", metavar="EDITION", nargs="?",
                       help="edition id or manifest path (left out with --resume, whose run names it)")
    sweep.add_argument("--option", action="append", default=[], metavar="NAME=V1,V2,...",
                       help="an option of the edition and the values to sweep it over, comma-separated, read as the "
                            "option's type (repeatable: every combination of the values is played; one value sets "
                            "the option in every setting); at least one is needed")
    sweep.add_argument("--players", type=_player_counts, default=None, metavar="2,3,4",
                       help="comma-separated player counts (default: every count the edition's game allows)")
    _run_args(sweep, bots=None, bots_default="greedy where the game has it, else random; medium plays well",
              players=False, games="games per player count, each played under every setting")
    _executor_args(sweep)
    sweep.add_argument("--json", metavar="FILE",
                       help="write every metric under every setting, with intervals and p-values, as JSON")
    sweep.add_argument("--csv", metavar="FILE", help="write one row per player count, metric and setting as CSV")
    sweep.add_argument("--plot", metavar="FILE",
                       help="draw each metric against the value, with its 95%% band, to FILE.png or FILE.svg "
                            "(needs matplotlib)")
    sweep.add_argument("--save-dir", metavar="DIR",
                       help="write DIR/run.json, then keep every game's record in DIR/players-P/setting-K (DIR must "
                            "not hold a run already)")
    sweep.add_argument("--resume", metavar="DIR",
                       help="carry on the sweep saved in DIR (by --save-dir) that was cut short: its run.json gives "
                            "the edition, options, players, games, seed and bots; the games it lacks are played and "
                            "saved, and the tables are the whole run's")
    _trust_args(sweep)
    sweep.add_argument("--force", action="store_true", help="overwrite existing output files and a run in --save-dir")
    sweep.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    sweep.set_defaults(run=_sweep, command="sweep")


def _sweep(args: argparse.Namespace) -> int:
    from ..runs.plot import plot_sweep
    from ..runs.report import print_sweep
    from ..runs.sweep import resume_sweep, sweep_of

    return _paired_command(args, label="sweeping", start=lambda args: sweep_of(_play_sweep(args)),
                           resume=resume_sweep, show=print_sweep, plot=plot_sweep)


def _play_sweep(args: argparse.Namespace) -> Any:
    """A new sweep: the edition, options, players and bots checked before a worker starts or a folder is touched."""
    from ..catalog.editions import load_edition
    from ..runs.sweep import plan_sweep

    if args.edition is None:
        raise DataError("name the EDITION to sweep (an id or a manifest path), or --resume DIR", source="sweep")
    edition = load_edition(args.edition)
    options = _typed_options(args.option, edition, several=True)
    if not options:
        raise DataError("name an option to sweep and its values, --option NAME=V1,V2,...", source="--option")
    bots = args.bots if args.bots is not None else _default_bots(edition, say=False)
    run = plan_sweep(edition, options, players=args.players, games=args.games, seed=args.seed, bots=bots.split(","))
    if args.bots is None:
        _default_bots(edition, "sweeping")  # now that the run is sound, the note on the bots it plays
    return _play_paired(args, edition, run, "sweeping")
