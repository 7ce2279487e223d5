"""``samurai render``: draw the board of a record or scenario as SVG or PNG.

A protocol record (``samurai.records``) is replayed here and drawn by its game's ``render``; any other file (a
record of a game's own format, a scenario) is drawn by the game that reads files naming no game
(``GameCommands.render_file``)."""

from __future__ import annotations

import argparse

from ..errors import DataError
from .arguments import trust_args, whole_number_in
from .common import file_game
from .outputs import check_outputs
from .replay import play_record_at


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``render`` to the command line's commands."""
    ren = commands.add_parser("render", help="draw the board of a record or scenario as SVG or PNG",
                              description="Draw the position of a game record (after its last action, or "
                                          "action N) or a scenario: the board, figures, tiles and the table "
                                          "as SEAT may see it (without --seat: public information only; a "
                                          "finished game shows every seat's captures).")
    ren.add_argument("file", metavar="FILE", help="a game record (.json or .toml) or a scenario (.toml)")
    ren.add_argument("-o", "--output", required=True, metavar="OUT", help="the picture: OUT.svg or OUT.png")
    ren.add_argument("--to", type=whole_number_in(0, 10**6), metavar="N",
                     help="draw the position after action N (default: the last)")
    ren.add_argument("--seat", type=whole_number_in(0, 99), metavar="S",
                     help="draw what seat S may know (default: a spectator)")
    ren.add_argument("--width", type=whole_number_in(1, 20_000), metavar="PX", help="width of the picture in pixels "
                                                                          "(default: its natural size)")
    ren.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    trust_args(ren)
    ren.set_defaults(run=_render)


def _render(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..files.svg import svg_to_png
    from ..files.writing import write_atomically

    target = Path(args.output)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise DataError(f"the picture is written as .svg or .png, not {suffix or 'no suffix'!r}", source="-o")
    check_outputs([("-o", args.output)], force=args.force, inputs=[args.file, *args.trust])
    play_record = play_record_at(args.file)
    if play_record is not None:  # a protocol record: its game draws a seat's view of the replayed position
        from ..catalog.trust import Trust
        from ..records import replayed

        trust = Trust(args.trust)
        state = replayed(play_record, source=args.file, trust=trust, folder=Path(args.file).parent, to=args.to)
        if args.seat is not None and not 0 <= args.seat < state.players:
            raise DataError(f"the game has seats 0 to {state.players - 1}, not {args.seat}", source="--seat")
        edition = trust.edition(play_record.edition, source=args.file, folder=Path(args.file).parent)
        svg = edition.game.render(state, state.view(args.seat or 0))
    else:
        game = file_game()
        if game.commands is None or game.commands.render_file is None:
            raise DataError(f"the game {game.name!r} does not draw files that are not protocol records",
                            source=args.file)
        svg = game.commands.render_file(args.file, args.to, args.seat, args.width, args.trust)
    data = svg_to_png(svg, width=args.width) if suffix == ".png" else svg.encode("utf-8")
    write_atomically(target, data)
    print(f"wrote {target}")
    return 0

