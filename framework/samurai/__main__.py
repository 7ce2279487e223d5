"""``python -m samurai`` runs the command line."""

from .cli import run

run()
