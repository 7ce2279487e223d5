"""``samurai tournament``: rate bots in a seat-balanced tournament."""

from __future__ import annotations

import argparse

from ..errors import DataError
from .arguments import BOT_KINDS, MAX_GAMES, MAX_SEED, executor_args, parse_options, whole_number_in
from .common import run_executor
from .outputs import check_outputs
from .progress import progress_bar


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``tournament`` to the command line's commands."""
    tour = commands.add_parser("tournament", help="rate bots in a seat-balanced tournament",
                               description="Play every table of bots in every seat order equally often; print "
                                           "each bot's win rate with its 95% interval and Bradley-Terry ratings "
                                           "with 95% intervals.")
    tour.add_argument("--bots", default="random,greedy",
                      help=f"comma-separated bots: {BOT_KINDS}; each table seats PLAYERS of them (name a bot "
                           "twice to seat it twice; default random,greedy)")
    tour.add_argument("--players", action="append", default=None, metavar="N[,N...]",
                      help="player counts, e.g. 2 or 3,4 (repeatable; default 2)")
    tour.add_argument("--games", type=whole_number_in(1, MAX_GAMES), default=100,
                      help="games per table, a multiple of its seat orders (default 100)")
    tour.add_argument("--seed", type=whole_number_in(0, MAX_SEED), default=1,
                      help="seed of the run; round r is dealt from a seed derived from it (default 1)")
    tour.add_argument("--edition", default="ffg2015", help="edition id or manifest path (default ffg2015)")
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="set an edition option (repeatable); VALUE is read as JSON when it can be")
    tour.add_argument("--anchor", default=None, help="the bot rated 0 (default random when it plays, else the "
                                                     "first bot)")
    tour.add_argument("--bootstrap", type=whole_number_in(1, 100_000), default=1000,
                      help="bootstrap replicates for the rating intervals (default 1000)")
    tour.add_argument("--json", metavar="FILE", help="write ratings, win rates, tables and every game as JSON")
    tour.add_argument("--csv", metavar="FILE", help="write one row per seat of every game as CSV")
    tour.add_argument("--force", action="store_true", help="overwrite existing --json/--csv files")
    tour.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    executor_args(tour)
    tour.set_defaults(run=_tournament)


def _tournament(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition
    from ..runs.compare import default_workers
    from ..runs.matches import check_bots_play
    from ..runs.tournament import print_tournament, schedule, tournament

    check_outputs([("--json", args.json), ("--csv", args.csv)], force=args.force)
    counts: list[int] = []
    for text in args.players or ["2"]:
        for part in text.split(","):
            if not (part.isascii() and part.isdigit() and len(part) < 3) or int(part) < 1:
                raise DataError(f"expected player counts like 2 or 3,4, got {text!r}", source="--players")
            if int(part) not in counts:
                counts.append(int(part))
    edition = load_edition(args.edition)
    names = check_bots_play(edition.game, args.bots)  # a bot made for another game is refused in one line
    options = parse_options(args.option)
    for count in counts:
        edition.start(count, 0, options)  # refuse bad players or options before the progress bar starts
    total = len(schedule(names, counts, args.games)[1])  # and a schedule that cannot be balanced
    with run_executor(args) as executor:  # after every check: a cluster starts only for a run that can go
        with progress_bar("tournament", total, not args.no_progress) as advance:
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

