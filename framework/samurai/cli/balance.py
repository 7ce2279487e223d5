"""``samurai balance``: one edition's balance report, per player count: every seat's wins against par with a
verdict, the first player's edge, shared wins, game length, how games end and the game's own measures, each with
its 95% interval (``samurai.runs.balance``)."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import paired_args
from .common import new_paired, paired_command

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
    paired_args(bal, option=("NAME=VALUE", "set an edition option, VALUE read as the option's type: true or "
                             "false, a number, or one of its choices (repeatable)"),
                games="games per player count",
                outputs=("write every metric, seat and verdict as JSON",
                         "write one row per player count and metric, then per seat, as CSV",
                         "draw each seat's share of the wins against par to FILE.png or FILE.svg (needs "
                         "matplotlib)"),
                folders="DIR/players-P", result="the report is")
    bal.set_defaults(run=_balance, command="balance")


def _balance(args: argparse.Namespace) -> int:
    from ..runs.balance import balance_of, plan_balance, resume_balance
    from ..runs.plot import plot_balance
    from ..runs.report import print_balance

    def plan(edition: Any, options: dict[str, list[Any]], bots: list[str]) -> Any:
        chosen = {name: values[0] for name, values in options.items()}
        return plan_balance(edition, options=chosen, players=args.players, games=args.games, seed=args.seed,
                            bots=bots)

    return paired_command(args, label="playing",
                          start=lambda args: balance_of(new_paired(args, several=False, doing="playing", plan=plan)),
                          resume=resume_balance, show=print_balance, plot=plot_balance)
