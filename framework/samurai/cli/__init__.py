"""The ``samurai`` command line: a package of thin commands, each parsing its arguments, calling the layers below and
printing. No game logic is here and no game is named.

- ``program``: the parser, ``main(argv)`` and ``run()`` (the console script), and how errors end a command;
- ``arguments``, ``outputs``, ``progress``, ``common``: the argument groups and readers several commands share, the
  checks of output files, progress on stderr, the executor of a run and the way to a game's own work;
- one module per command: ``simulate``, ``compare`` (with ``analyse``), ``tournament``, ``replay``, ``render``,
  ``play_scenario``, ``score``, ``editions``, ``new_edition``, ``bench``, ``serve``.

What only a game can do (score captured figures, draw a file of its own format, time its engine, try its end-of-game
hooks) the command reaches through the edition's game definition, ``GameDefinition.commands``
(``samurai.catalog.games.GameCommands``); a game that leaves one out gets one line, ``samurai: error: ...``, exit
code 2. Fields of the definition rather than a hook that adds subcommands (datasette's ``register_commands``): every
game is served by the same commands with the same flags, so ``samurai --help`` and each command's arguments stay
the same whichever games are installed and are read before any game is loaded; the game supplies only the work.
"""

from __future__ import annotations

from .program import EXIT_INTERRUPTED, EXIT_USAGE, main, run

__all__ = ["main", "run", "EXIT_USAGE", "EXIT_INTERRUPTED"]
