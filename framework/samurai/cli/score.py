"""``samurai score``: score captured figures with an edition's rules (``GameCommands.score`` of its game)."""

from __future__ import annotations

import argparse
import json

from ..errors import DataError
from .arguments import edition_args, json_argument
from .common import not_offered


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` to the command line's commands."""
    sc = commands.add_parser("score", help="score captured figures with an edition's rules",
                             description="Score captured figures; prints JSON with winners, reason, explanation.")
    edition_args(sc)
    sc.add_argument("--captured", required=True,
                    help='JSON: {"0": {"buddha": 3, "rice": 1, "castle": 4}, "1": {...}}')
    sc.set_defaults(run=_score)


def _score(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition

    captured = json_argument(args.captured, "--captured")
    if args.option:
        raise DataError("score takes no options", source="--option")
    edition = load_edition(args.edition)
    commands = edition.game.commands
    if commands is None or commands.score is None:
        raise not_offered(edition, "score")
    try:
        result = commands.score(edition, captured)
    except DataError as exc:
        if exc.source != "captured":
            raise
        raise DataError(exc.message, source="--captured", key=exc.key) from None
    print(json.dumps(dict(result), indent=2))
    return 0

