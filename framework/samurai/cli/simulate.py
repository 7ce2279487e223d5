"""``samurai simulate``: play many seeded games between bots and summarise them."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from ..runs.summary import print_summary
from .arguments import _edition_args, _executor_args, _options, _players_of, _run_args
from .common import _executor
from .progress import _progress_bar


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate`` to the command line's commands."""
    sim = commands.add_parser("simulate", help="play many seeded games between bots and summarise them",
                              description="Play many seeded games between bots; print wins by seat, shared "
                                          "wins, game lengths and end reasons.")
    _edition_args(sim)
    _run_args(sim)
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--save-dir", metavar="DIR", help="write DIR/run.json, then each game's record to "
                                                       "DIR/game-NNNNN.json (DIR must not hold a run already)")
    sim.add_argument("--force", action="store_true", help="replace the run already saved in --save-dir")
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    _executor_args(sim)
    sim.set_defaults(run=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition

    return _simulate_through_protocol(args, load_edition(args.edition))


def _simulate_through_protocol(args: argparse.Namespace, edition: Any) -> int:
    """``simulate`` for any game, on the one runner (``samurai.runs.matches``, through the game's accelerator when
    it has one); without ``--players``, 4 where the edition allows it, else the fewest players it allows."""
    from ..runs.matches import check_bots_play, run_summary, simulate_matches

    bots = check_bots_play(edition.game, args.bots)
    options = _options(args.option)
    players = _players_of(args.players, edition)
    edition.start(players, 0, options)  # refuse bad players or options before the progress bar starts
    summary = run_summary(edition, _simulating(args, lambda advance, executor: simulate_matches(
        edition, players, args.games, args.seed, bots, options=options, progress=advance, save_dir=args.save_dir,
        executor=executor)))
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        print_summary(summary.table())
    return 0


def _simulating(args: argparse.Namespace, run: Callable[[Any, Any], Any]) -> Any:
    """``run(progress, executor)`` on the executor of the arguments, after preparing ``--save-dir``, with a
    progress bar; the executor starts before the save folder is touched (a backend that cannot start loses
    nothing) and is closed whatever happens."""
    with _executor(args) as executor:
        if args.save_dir is not None:
            from ..runs.folders import prepare_save_dir

            prepare_save_dir(args.save_dir, force=args.force)
            args.prepared = True
        with _progress_bar("simulating", args.games, not args.no_progress) as advance:
            return run(advance, executor)

