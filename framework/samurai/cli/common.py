"""What several commands share beyond their arguments: the executor a run plays on, and how a command reaches the
work only a game can do (``samurai.catalog.games.GameCommands``).

The names are shared by the commands of ``samurai.cli`` (which exports only ``main`` and ``run``): public within
the package, so no module reaches for another's private names, but not part of the API.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import DataError

if TYPE_CHECKING:
    from ..catalog.editions import Edition
    from ..catalog.games import GameDefinition


@contextlib.contextmanager
def run_executor(args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--backend``, ``--workers`` and ``--scheduler``, started (a local pool starts lazily), and
    closed when the block ends, whatever happens: the one set-up of every command that plays on workers."""
    from ..runs.executors import default_workers, make_executor

    executor = make_executor(args.backend, workers=args.workers or default_workers(), scheduler=args.scheduler)
    try:
        yield executor
    finally:
        executor.close()


def not_offered(edition: Edition, command: str) -> DataError:
    """The one-line refusal of ``samurai COMMAND`` for an edition whose game does not offer it."""
    return DataError(f"the game {edition.game.name!r} of edition {edition.id!r} does not offer samurai {command}",
                     source="--edition")


def file_game() -> GameDefinition:
    """The game that reads a record or scenario file naming no game: the installed default game."""
    from ..catalog.editions import installed_games
    from ..catalog.games import default_game

    return default_game(installed_games(), source="file")


def default_bots(edition: Edition, doing: str = "comparing", *, say: bool = True) -> str:
    """The bots of a run that measures rules (``compare``, ``sweep``, ``balance``) when none are given: the game's
    quick player that plays well (``greedy``) where it has one, for rules measured as players would play them; else
    random, said on standard error unless not ``say`` (what the run is ``doing``, "comparing", with them)."""
    from ..search.bots import bot_names

    if "greedy" in bot_names(edition.game):
        return "greedy"
    if say:
            print(f"samurai: note: the game {edition.game.name!r} has no greedy bot: {doing} with random bots, which "
              f"measure aimless play (give --bots medium, say, for good play)", file=sys.stderr)
    return "random"


def _drop_with_resume(args: argparse.Namespace, given: dict[str, bool]) -> None:
    """``--resume DIR`` takes the run's settings from ``DIR/run.json``: refuse, in one line, any of them ``given``
    on the command line as well (argument name -> whether it was given)."""
    for flag, present in given.items():
        if present:
            raise DataError(f"the run's settings come from {args.resume}/run.json: drop {flag}", source="--resume")


def _kept_note(args: argparse.Namespace, folder: str, command: str) -> None:
    """From now on an interrupt of ``args``' paired run says what ``folder`` keeps and how to carry the run on."""
    from ..runs.paired import saved_pairs

    def note() -> str:
        kept, asked = saved_pairs(folder)
        each = " (each under every setting)" if command == "sweep" else ""
        return (f"; {folder} keeps the {kept} finished games of the {asked} asked for{each}; "
                f"samurai {command} --resume {folder} carries the run on")

    args.prepared, args.kept_note = True, note


def _play_paired(args: argparse.Namespace, edition: Edition, run: Any, label: str) -> Any:
    """Play the paired ``run`` (``samurai.runs.paired.plan_paired``) of ``edition`` on the executor of the
    arguments, after preparing ``--save-dir``, with a progress bar: its ``PairedFacts``. The executor starts before
    the save folder is touched (a backend that cannot start loses nothing)."""
    from ..runs.paired import play_paired, prepare_paired_folder
    from .progress import progress_bar

    with run_executor(args) as executor:
        if args.save_dir is not None:
            prepare_paired_folder(args.save_dir, run, force=args.force)
            _kept_note(args, args.save_dir, run.command)
        with progress_bar(label, run.games * len(run.players), not args.no_progress) as advance:
            return play_paired(edition, run, save_dir=args.save_dir, progress=advance, executor=executor)


def _resume_paired(args: argparse.Namespace, command: str, label: str, resume: Any) -> Any:
    """``samurai COMMAND --resume DIR``: ``resume(DIR, trust=..., progress=..., executor=...)`` on the executor of
    the arguments, with a progress bar, then a line on standard error saying so."""
    from ..runs.paired import saved_pairs
    from .progress import progress_bar

    _, asked = saved_pairs(args.resume)
    with run_executor(args) as executor:
        _kept_note(args, args.resume, command)
        with progress_bar(label, asked, not args.no_progress) as advance:
            result = resume(args.resume, trust=args.trust, progress=advance, executor=executor)
    print(f"samurai: resumed {args.resume}: {saved_pairs(args.resume)[0]} of {asked} games saved", file=sys.stderr)
    return result


def paired_command(args: argparse.Namespace, *, label: str, start: Any, resume: Any, show: Any, plot: Any) -> int:
    """The whole of ``samurai sweep`` and ``samurai balance``: the outputs checked before any work, then a new run
    (``start(args)``, its result) or ``--resume DIR`` (``resume``, that command's resume function), printed
    (``show``) and written to ``--json``, ``--csv`` and ``--plot`` (``plot(result, path)``)."""
    from .outputs import check_outputs, check_plot, manifest_paths

    check_outputs([("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)], force=args.force,
                  inputs=manifest_paths(args.edition), run_dir=args.resume or args.save_dir)
    if args.plot:
        check_plot(args.plot)
    if args.resume is not None:
        _drop_with_resume(args, {"EDITION": args.edition is not None, "--option": bool(args.option),
                                 "--players": args.players is not None, "--games": args.games != 1000,
                                 "--seed": args.seed != 1, "--bots": args.bots is not None,
                                 "--save-dir": args.save_dir is not None})
        result = _resume_paired(args, args.command, label, resume)
    else:
        result = start(args)
    show(result)
    if args.json:
        result.write_json(args.json)
    if args.csv:
        result.write_csv(args.csv)
    if args.plot:
        print(f"plot: {plot(result, args.plot)}")
    return 0


def new_paired(args: argparse.Namespace, *, several: bool, doing: str, plan: Any) -> Any:
    """A new run of ``sweep`` or ``balance``: the edition loaded, its ``--option`` values read as their types
    (``several`` values each for a sweep), the bots, and the run planned (``plan(edition, options, bots)``, every
    setting checked by the edition), all before a worker starts or a folder is touched; then played (what the run
    is ``doing``, for the progress bar and the note on random bots)."""
    from ..catalog.editions import load_edition
    from .arguments import typed_options

    if args.edition is None:
        raise DataError("name the EDITION (an id or a manifest path), or --resume DIR", source=args.command)
    edition = load_edition(args.edition)
    options = typed_options(args.option, edition, several=several)
    bots = args.bots if args.bots is not None else default_bots(edition, say=False)
    run = plan(edition, options, bots.split(","))
    if args.bots is None:
        default_bots(edition, doing)  # now that the run is sound, the note on the bots it plays
    return _play_paired(args, edition, run, doing)