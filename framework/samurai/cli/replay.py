"""``samurai replay``: tell a saved game action by action."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import trust_args, whole_number_in


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay`` to the command line's commands."""
    rep = commands.add_parser("replay", help="tell a saved game action by action",
                              description="Replay a record (JSON or TOML): who played what where, each capture "
                                          "and tie, the refills and the final explanation.")
    rep.add_argument("file", metavar="FILE", help="a game record (.json or .toml), as samurai simulate --save-dir "
                                                  "or samurai.save writes them")
    rep.add_argument("--to", type=whole_number_in(0, 10**6), metavar="N",
                     help="stop after action N and print the position")
    trust_args(rep)
    rep.set_defaults(run=_replay)


def _replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..catalog.trust import Trust
    from ..records import read_record_file, replay_lines

    trust = Trust(args.trust)
    read = read_record_file(args.file, trust=trust)
    # The whole record must replay and match its check before it is told (each game's replay_lines makes sure).
    print("\n".join(replay_lines(read.records, read.record, source=args.file, trust=trust,
                                 folder=Path(args.file).parent, to=args.to)))
    return 0


def play_record_at(path: str) -> Any:
    """The record at ``path`` when it is of a game other than Knizia's (``samurai.records``), else None."""
    from ..files.reading import read_data
    from ..records import is_play_record, play_record_from_dict

    if not path.lower().endswith((".json", ".toml")):
        return None
    data, _ = read_data(path)
    return play_record_from_dict(data, source=path) if is_play_record(data) else None

