"""``samurai replay``: tell a saved game action by action."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import _trust_args, _whole


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay`` to the command line's commands."""
    rep = commands.add_parser("replay", help="tell a saved game action by action",
                              description="Replay a record (JSON or TOML): who played what where, each capture "
                                          "and tie, the refills and the final explanation.")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--to", type=_whole(0, 10**6), metavar="N", help="stop after action N and print the position")
    _trust_args(rep)
    rep.set_defaults(run=_replay)


def _replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..catalog.trust import Trust
    from ..knizia.records import from_record, read_record
    from ..knizia.replays import replay_lines

    trust = Trust(args.trust)
    folder = Path(args.file).parent
    play_record = _play_record(args.file)
    if play_record is not None:  # a record of a game other than Knizia's, told through the protocol
        from ..records import play_replay_lines

        print("\n".join(play_replay_lines(play_record, source=args.file, trust=trust, folder=folder, to=args.to)))
        return 0
    record = read_record(args.file, trust=trust)
    # The whole record must replay and match its check before we tell it.
    from_record(record, source=args.file, trust=trust, folder=folder)
    lines = list(replay_lines(record, source=args.file, to=args.to, trust=trust, folder=folder))
    print("\n".join(lines))
    return 0


def _play_record(path: str) -> Any:
    """The record at ``path`` when it is of a game other than Knizia's (``samurai.records``), else None."""
    from ..files.reading import read_data
    from ..records import is_play_record, play_record_from_dict

    if not path.lower().endswith((".json", ".toml")):
        return None
    data, _ = read_data(path)
    return play_record_from_dict(data, source=path) if is_play_record(data) else None

