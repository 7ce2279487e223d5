"""The ``samurai`` program: its parser (every command's, in the order ``samurai --help`` lists them), ``main`` and
``run``, and how an error, an interruption or a closed pipe ends a command.

Bad arguments or input print one line, ``samurai: error: ...``, and exit
with code 2; no traceback. Ctrl-C or SIGTERM stops a run cleanly (see
``samurai.interrupts``): one line, ``samurai: interrupted; ...``, exit code 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import SamuraiError
from . import (
    analyse_game,
    balance,
    bench,
    compare,
    editions,
    new_edition,
    play_scenario,
    render,
    replay,
    score,
    serve,
    simulate,
    sweep,
    tournament,
    train,
)

__all__ = ["main", "run", "EXIT_USAGE", "EXIT_INTERRUPTED"]

EXIT_USAGE = 2
"""The exit code of a command refused: bad arguments or input."""
EXIT_INTERRUPTED = 130
"""The exit code of a run stopped by Ctrl-C or SIGTERM."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``samurai: error: ...``, and exit code 2.

    The commands' parsers are of this class too (argparse makes them so), and say ``samurai:`` as well rather than
    their own ``samurai COMMAND:``: every refusal of the program reads the same.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"samurai: error: {message}\n")


def run() -> NoReturn:
    """The ``samurai`` program: ``main`` with the process's arguments, then exit with its code.

    An interrupted run has stopped and joined its workers and said so in one
    line; it then leaves without the interpreter's exit hooks, because
    CPython 3.11's process-pool hook can write to a pipe the stopped pool has
    already closed and print a traceback after that line.
    """
    code = main()
    if code == EXIT_INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from ..interrupts import interruptible

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with interruptible():  # SIGTERM stops a run as cleanly as Ctrl-C
            return int(args.run(args) or 0)
    except SamuraiError as exc:
        print(f"samurai: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"samurai: interrupted{_kept(args)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``samurai editions | head``): stop quietly.
        sys.stdout = None
        return 0
    except Exception as exc:
        from ..hooks.calls import plugin_failure

        failure = plugin_failure(exc)  # a plugin's bug anywhere in play: name the plugin, not a traceback
        if failure is not None:
            print(f"samurai: error: {failure}", file=sys.stderr)
        elif isinstance(exc, ValueError):
            print(f"samurai: error: {exc}", file=sys.stderr)
        elif isinstance(exc, OSError):  # a file that cannot be written or read: say which, no traceback
            print(f"samurai: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        else:
            raise
        return EXIT_USAGE


class _Version(argparse._VersionAction):
    """``--version``: the package's version and, after it, what each installed game says of its engine
    (``GameCommands.engine_note``), e.g. ``samurai 0.1.0 (engine: native; native engine built)``; the games are
    asked only when ``--version`` is given."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from ..catalog.editions import installed_games

        notes = [game.commands.engine_note() for game in installed_games().values()
                 if game.commands is not None and game.commands.engine_note is not None]
        print(f"{self.version} ({'; '.join(notes)})" if notes else self.version)  # one line, never wrapped
        parser.exit()


def build_parser() -> _Parser:
    """The parser of every command; each command's module adds its own."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        __version__ = version("samurai-engine")
    except PackageNotFoundError:  # run from a source tree that was never installed
        __version__ = "unknown (not installed)"
    parser = _Parser(prog="samurai", description="Reiner Knizia's Samurai: simulate, score and inspect editions.")
    parser.add_argument("--version", action=_Version, version=f"samurai {__version__}",
                        help="print the version of samurai-engine and the engine in use, and exit")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for module in (simulate, compare, sweep, balance, tournament, replay, analyse_game, render, play_scenario, score,
                   editions, new_edition, bench, serve, train):
        module.add_command(commands)
    return parser


def _kept(args: argparse.Namespace) -> str:
    """For a run with a save folder stopped early: what the folder keeps."""
    from pathlib import Path

    from ..runs.folders import saved_games

    if not getattr(args, "prepared", False):
        return ""
    note = getattr(args, "kept_note", None)  # a command that says itself what its folder keeps (sweep, balance)
    if note is not None:
        return str(note())
    paired = args.run is compare._compare  # a comparison keeps side A's games in DIR/a
    try:
        kept = saved_games(Path(args.save_dir) / "a" if paired else args.save_dir)
    except OSError:
        return ""
    hint = (f"; samurai analyse {args.save_dir} --partial reads them" if paired
            else f"; samurai simulate --resume {args.save_dir} carries the run on")
    return f"; {args.save_dir} keeps the {kept} finished games of the {args.games} asked for{hint}"
