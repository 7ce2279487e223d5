"""``samurai play-scenario``: play bots from a hand-written position to the end."""

from __future__ import annotations

import argparse

from ..errors import DataError
from .arguments import BOT_KINDS, MAX_SEED, trust_args, whole_number_in
from .outputs import check_outputs, check_record_name, manifest_paths


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play-scenario`` to the command line's commands."""
    ps = commands.add_parser("play-scenario", help="play bots from a hand-written position to the end",
                             description="Start from a scenario file (TOML), let bots play it out and tell the "
                                         "game action by action.")
    ps.add_argument("file", metavar="FILE", help="the scenario: a TOML file of a written position")
    ps.add_argument("--edition", default=None, help="edition id or manifest path (default: the scenario's, or "
                                                    "ffg2015); a path given here is trusted")
    trust_args(ps)
    ps.add_argument("--bots", default="random", help=f"comma-separated bots by seat: {BOT_KINDS} (default random)")
    ps.add_argument("--seed", type=whole_number_in(0, MAX_SEED), default=1,
                    help="seed of the draws and the bots (default 1)")
    ps.add_argument("--save", metavar="FILE", help="save the game's record (.json or .toml; not the scenario itself)")
    ps.add_argument("--force", action="store_true", help="overwrite an existing --save file")
    ps.set_defaults(run=_play_scenario)


def _play_scenario(args: argparse.Namespace) -> int:
    from ..search.bots import parse_bots
    from .common import file_game

    game = file_game()  # a scenario file names no game
    commands = game.commands
    if commands is None or commands.play_scenario is None:
        raise DataError(f"the game {game.name!r} of scenario files does not offer samurai play-scenario",
                        source=args.file)
    bots = parse_bots(args.bots, game)
    if args.save:
        check_record_name(args.save)
        check_outputs([("--save", args.save)], force=args.force, inputs=[args.file, *manifest_paths(args.edition)])
    played = commands.play_scenario(args.file, args.edition, bots, args.seed, args.trust)
    print("\n".join(played.lines))
    if args.save:
        print(f"saved: {played.save(args.save)}")
    return 0
