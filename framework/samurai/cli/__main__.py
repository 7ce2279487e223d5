"""``python -m samurai.cli`` runs the command line, as ``python -m samurai`` and the ``samurai`` script do."""

from .program import run

run()
