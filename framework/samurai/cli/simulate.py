"""``samurai simulate``: play many seeded games between bots and summarise them."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..errors import DataError
from ..runs.matches import InterruptedRun
from ..runs.summary import print_summary
from .arguments import edition_args, executor_args, parse_options, players_of, run_args, trust_args
from .common import run_executor
from .progress import progress_bar


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate`` to the command line's commands."""
    sim = commands.add_parser("simulate", help="play many seeded games between bots and summarise them",
                              description="Play many seeded games between bots; print wins by seat, shared "
                                          "wins, game lengths and end reasons.")
    edition_args(sim)
    run_args(sim)
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--save-dir", metavar="DIR", help="write DIR/run.json, then each game's record to "
                                                       "DIR/game-NNNNN.json (DIR must not hold a run already)")
    sim.add_argument("--force", action="store_true", help="replace the run already saved in --save-dir")
    sim.add_argument("--resume", metavar="DIR",
                     help="carry on the run saved in DIR (by --save-dir) that was cut short: its run.json gives the "
                          "edition, players, games, seed, bots and options; the games it lacks are played and saved, "
                          "and the summary is the whole run's")
    trust_args(sim)
    sim.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    executor_args(sim)
    sim.set_defaults(run=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition

    if args.resume is not None:
        return _resume(args)
    return _simulate_through_protocol(args, load_edition(args.edition))


_RUN_SETTINGS = {"--edition": ("edition", "ffg2015"), "--option": ("option", []), "--players": ("players", None),
                 "--games": ("games", 1000), "--seed": ("seed", 1), "--bots": ("bots", "random"),
                 "--save-dir": ("save_dir", None), "--force": ("force", False)}
"""What ``--resume`` takes from the saved run instead of the command line: flag -> (argument, its default)."""


def _resume(args: argparse.Namespace) -> int:
    """``simulate --resume DIR``: the run saved in DIR carried on to its end, then summed up as a whole."""
    from ..runs.folders import games_asked, saved_games
    from ..runs.matches import resume_matches, run_summary
    from .arguments import DEFAULT_PLAYERS

    for flag, (name, default) in _RUN_SETTINGS.items():
        value = getattr(args, name)
        if (value is not DEFAULT_PLAYERS if name == "players" else value != default):
            raise DataError(f"the run's settings come from {args.resume}/run.json: drop {flag}", source="--resume")
    asked = games_asked(args.resume) or 0
    with run_executor(args) as executor:
        args.prepared, args.save_dir, args.games = True, args.resume, asked  # an interrupt says what DIR keeps
        with progress_bar("simulating", asked, not args.no_progress) as advance:
            try:
                edition, summary = resume_matches(args.resume, trust=args.trust, progress=advance, executor=executor)
            except DataError:
                args.prepared = False  # refused before a game was played: nothing to report kept
                raise
            except InterruptedRun as stopped:
                _print(args, run_summary(stopped.edition, stopped.partial), partial=stopped.games_asked)
                raise
    _print(args, run_summary(edition, summary))
    print(f"samurai: resumed {args.resume}: {saved_games(args.resume)} of {asked} games saved", file=sys.stderr)
    return 0


def _simulate_through_protocol(args: argparse.Namespace, edition: Any) -> int:
    """``simulate`` for any game, on the one runner (``samurai.runs.matches``, through the game's accelerator when
    it has one); without ``--players``, 4 where the edition allows it, else the fewest players it allows."""
    from ..runs.matches import check_bots_play, run_summary, simulate_matches

    bots = check_bots_play(edition.game, args.bots)
    options = parse_options(args.option)
    players = players_of(args.players, edition)
    edition.start(players, 0, options)  # refuse bad players or options before the progress bar starts
    try:
        summary = run_summary(edition, _simulating(args, lambda advance, executor: simulate_matches(
            edition, players, args.games, args.seed, bots, options=options, progress=advance, save_dir=args.save_dir,
            executor=executor)))
    except InterruptedRun as stopped:  # the games that finished are summed up, marked partial, before the exit
        if stopped.partial.games:
            _print(args, run_summary(stopped.edition, stopped.partial), partial=stopped.games_asked)
        raise
    _print(args, summary)
    return 0


def _print(args: argparse.Namespace, summary: Any, *, partial: int | None = None) -> None:
    """The summary as a table, or as JSON with ``--json``; ``partial``: the games asked for of a run cut short."""
    if args.json:
        data = summary.to_dict()
        if partial is not None:
            data["partial"] = {"games_asked": partial}
        print(json.dumps(data, indent=2), flush=True)
        return
    if partial is not None:
        print(f"Partial summary: {len(summary.games)} of the {partial} games asked for finished before the run was "
              f"stopped")
    print_summary(summary.table())
    sys.stdout.flush()


def _simulating(args: argparse.Namespace, run: Callable[[Any, Any], Any]) -> Any:
    """``run(progress, executor)`` on the executor of the arguments, after preparing ``--save-dir``, with a
    progress bar; the executor starts before the save folder is touched (a backend that cannot start loses
    nothing) and is closed whatever happens."""
    with run_executor(args) as executor:
        if args.save_dir is not None:
            from ..runs.folders import prepare_save_dir

            prepare_save_dir(args.save_dir, force=args.force)
            args.prepared = True
        with progress_bar("simulating", args.games, not args.no_progress) as advance:
            return run(advance, executor)

