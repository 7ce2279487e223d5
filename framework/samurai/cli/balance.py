"""``samurai balance``: one edition's balance report, per player count: every seat's wins against par with a
verdict, the first player's edge, shared wins, game length, how games end and the game's own measures, each with
its 95% interval (``samurai.runs.balance``)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DataError
from .arguments import _executor_args, _player_counts, _run_args, _trust_args, _typed_options
from .common import _default_bots, _paired_command, _play_paired

_DESCRIPTION = (
    "Play the edition at every player count and print every metric of its game with its 95% interval (who wins "
    "alone, the first player's edge, shared wins, game length, how games end, the game's own), each seat's share "
    "of the games won alone against par (1 / players), and a verdict line per player count. The test: each seat's "
    "share against par, a two-sided score test (its interval is Wilson's), Holm-corrected over the seats of the "
    "player count at a 5% familywise level.")


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``balance`` to the command line's commands."""
    bal = commands.add_parser("balance", help="is an edition fair to every seat, at every player count?",
                              description=_DESCRIPTION)
    bal.add_argument("edition", metavar="EDITION", nargs="?",
                     help="edition id or manifest path (left out with --resume, whose run names it)")
    bal.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="set an edition option, VALUE read as the option's type: true or false, a number, or "
                          "one of its choices (repeatable)")
    bal.add_argument("--players", type=_player_counts, default=None, metavar="2,3,4",
                     help="comma-separated player counts (default: every count the edition's game allows)")
    _run_args(bal, bots=None, bots_default="greedy where the game has it, else random; medium plays well",
              players=False, games="games per player count")
    _executor_args(bal)
    bal.add_argument("--json", metavar="FILE", help="write every metric, seat and verdict as JSON")
    bal.add_argument("--csv", metavar="FILE", help="write one row per player count and metric, then per seat, as CSV")
    bal.add_argument("--plot", metavar="FILE",
                     help="draw each seat's share of the wins against par to FILE.png or FILE.svg (needs matplotlib)")
    bal.add_argument("--save-dir", metavar="DIR",
                     help="write DIR/run.json, then keep every game's record in DIR/players-P (DIR must not hold a "
                          "run already)")
    bal.add_argument("--resume", metavar="DIR",
                     help="carry on the balance run saved in DIR (by --save-dir) that was cut short: its run.json "
                          "gives the edition, options, players, games, seed and bots; the games it lacks are played "
                          "and saved, and the report is the whole run's")
    _trust_args(bal)
    bal.add_argument("--force", action="store_true", help="overwrite existing output files and a run in --save-dir")
    bal.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    bal.set_defaults(run=_balance, command="balance")


def _balance(args: argparse.Namespace) -> int:
    from ..runs.balance import balance_of, resume_balance
    from ..runs.plot import plot_balance
    from ..runs.report import print_balance

    return _paired_command(args, label="playing", start=lambda args: balance_of(_play_balance(args)),
                           resume=resume_balance, show=print_balance, plot=plot_balance)


def _play_balance(args: argparse.Namespace) -> Any:
    """A new balance run: the edition, options, players and bots checked before a worker starts or a folder is
    touched."""
    from ..catalog.editions import load_edition
    from ..runs.balance import plan_balance

    if args.edition is None:
        raise DataError("name the EDITION to judge (an id or a manifest path), or --resume DIR", source="balance")
    edition = load_edition(args.edition)
    options = {name: values[0] for name, values in _typed_options(args.option, edition, several=False).items()}
    bots = args.bots if args.bots is not None else _default_bots(edition, say=False)
    run = plan_balance(edition, options=options, players=args.players, games=args.games, seed=args.seed,
                       bots=bots.split(","))
    if args.bots is None:
        _default_bots(edition, "playing")  # now that the run is sound, the note on the bots it plays
    return _play_paired(args, edition, run, "playing")
