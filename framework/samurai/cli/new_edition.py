"""``samurai new-edition``: write a starter manifest and plugin for a variant."""

from __future__ import annotations

import argparse


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``new-edition`` to the command line's commands."""
    new = commands.add_parser("new-edition", help="write a starter manifest and plugin for a variant",
                              description="Write NAME.toml (extending another edition) and NAME.py (a plugin "
                                          "with one hook to start from) that load and play at once.")
    new.add_argument("name", metavar="NAME", help="the new edition's id, e.g. open-screens")
    new.add_argument("--extends", default="ffg2015", help="the edition it varies (default ffg2015)")
    new.add_argument("--dir", default=".", help="folder to write the files into (default: here)")
    new.add_argument("--force", action="store_true", help="overwrite existing files")
    new.set_defaults(run=_new_edition)


def _new_edition(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..catalog.editions import load_edition
    from ..scaffold import write_starter_edition

    manifest, plugin = write_starter_edition(args.name, args.extends, Path(args.dir), force=args.force)
    counts = load_edition(str(manifest)).player_counts
    players = 3 if 3 in counts else counts[0]  # a count the variant's game plays (Daimyo: 2)
    print(f"wrote {manifest} and {plugin}")
    print(f"try it: samurai simulate --edition {manifest} --players {players} --games 100")
    return 0

