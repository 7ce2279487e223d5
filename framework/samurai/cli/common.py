"""What several commands share beyond their arguments: the executor a run plays on, and how a command reaches the
work only a game can do (``samurai.catalog.games.GameCommands``).

The names are the ``samurai.cli`` package's own (underscored: not part of the public API).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import DataError

if TYPE_CHECKING:
    from ..catalog.editions import Edition
    from ..catalog.games import GameDefinition


@contextlib.contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--backend``, ``--workers`` and ``--scheduler``, started (a local pool starts lazily), and
    closed when the block ends, whatever happens: the one set-up of every command that plays on workers."""
    from ..runs.executors import default_workers, make_executor

    executor = make_executor(args.backend, workers=args.workers or default_workers(), scheduler=args.scheduler)
    try:
        yield executor
    finally:
        executor.close()


def _not_offered(edition: Edition, command: str) -> DataError:
    """The one-line refusal of ``samurai COMMAND`` for an edition whose game does not offer it."""
    return DataError(f"the game {edition.game.name!r} of edition {edition.id!r} does not offer samurai {command}",
                     source="--edition")


def _file_game() -> GameDefinition:
    """The game that reads a record or scenario file naming no game: the installed default game."""
    from ..catalog.editions import installed_games
    from ..catalog.games import default_game

    return default_game(installed_games(), source="file")
