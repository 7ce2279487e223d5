"""``samurai sweep``: an edition's options swept over their values on paired seeded games, every metric under every
setting with its 95% interval, and whether it changes with the value beyond chance (``samurai.runs.sweep``)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DataError
from .arguments import paired_args
from .common import new_paired, paired_command

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
    paired_args(sweep, option=("NAME=V1,V2,...", "an option of the edition and the values to sweep it over, "
                               "comma-separated, read as the option's type (repeatable: every combination of the "
                               "values is played; one value sets the option in every setting); at least one is "
                               "needed"),
                games="games per player count, each played under every setting",
                outputs=("write every metric under every setting, with intervals and p-values, as JSON",
                         "write one row per player count, metric and setting as CSV",
                         "draw each metric against the value, with its 95%% band, to FILE.png or FILE.svg (needs "
                         "matplotlib)"),
                folders="DIR/players-P/setting-K", result="the tables are")
    sweep.set_defaults(run=_sweep, command="sweep")


def _sweep(args: argparse.Namespace) -> int:
    from ..runs.plot import plot_sweep
    from ..runs.report import print_sweep
    from ..runs.sweep import plan_sweep, resume_sweep, sweep_of

    def plan(edition: Any, options: dict[str, list[Any]], bots: list[str]) -> Any:
        if not options:
            raise DataError("name an option to sweep and its values, --option NAME=V1,V2,...", source="--option")
        return plan_sweep(edition, options, players=args.players, games=args.games, seed=args.seed, bots=bots)

    return paired_command(args, label="sweeping",
                          start=lambda args: sweep_of(new_paired(args, several=True, doing="sweeping", plan=plan)),
                          resume=resume_sweep, show=print_sweep, plot=plot_sweep)
