"""``samurai analyse-game``: why a game was won, move by move (``samurai.runs.analysis``), as an HTML report,
JSON and a PNG of the graph."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DataError
from .arguments import MAX_SEED, trust_args, whole_number_in


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``analyse-game`` to the command line's commands."""
    ana = commands.add_parser("analyse-game", help="judge every move of a saved game: chances, mistakes, turning "
                                                   "points",
                              description="Search every decision of a record from the mover's own knowledge "
                                          "(what that seat knew then): each seat's estimated chance to win before "
                                          "and after the move played, the move the search preferred, the mistakes "
                                          "(docs/analysis.md) and the turning points. Writes a self-contained "
                                          "HTML report, JSON and a PNG of the graph on request.")
    ana.add_argument("file", metavar="RECORD", help="a game record (.json or .toml)")
    ana.add_argument("--level", default=None, help="the level whose search judges the moves: easy, medium, hard "
                                                   "or expert (default hard, unless --bot)")
    ana.add_argument("--bot", default=None, metavar="BOT",
                     help="judge with this search instead of a level: mcts-replies:N, mcts:N, ... (default none: "
                          "the level)")
    ana.add_argument("--seat", type=whole_number_in(0, 99), default=None, metavar="S",
                     help="judge only seat S's moves (default: every seat's)")
    ana.add_argument("--seed", type=whole_number_in(0, MAX_SEED), default=1,
                     help="seed of the searches; decision i's search uses a seed derived from it (default 1)")
    ana.add_argument("-o", "--output", default=None, metavar="REPORT",
                     help="write the HTML report to REPORT.html (default: none)")
    ana.add_argument("--json", default=None, metavar="FILE", help="write the figures as JSON (default: none)")
    ana.add_argument("--png", default=None, metavar="FILE",
                     help="write the graph as PNG; needs the png extra (default: none)")
    ana.add_argument("--force", action="store_true", help="overwrite output files that exist (default: refuse)")
    trust_args(ana)
    ana.set_defaults(run=_analyse_game)


def _analyse_game(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from ..catalog.trust import Trust
    from ..files.writing import write_atomically
    from ..records import read_record_file, record_moves
    from ..runs.analysis import DEFAULT_BOT, analyse_moves, search_bot
    from ..runs.analysis_report import describe_text, graph_svg, report_html
    from ..search.bots import LEVELS
    from .outputs import check_outputs
    from .progress import progress_bar

    if args.level is not None and args.bot is not None:
        raise DataError("give --level or --bot, not both", source="--bot")
    if args.output is not None and not args.output.lower().endswith((".html", ".htm")):
        raise DataError(f"the report is written as .html, not {args.output!r}", source="-o")
    if args.png is not None and not args.png.lower().endswith(".png"):
        raise DataError(f"the graph is written as .png, not {args.png!r}", source="--png")
    if args.png is not None:
        import importlib.util

        if importlib.util.find_spec("resvg_py") is None:  # said before the analysis, not after it
            raise DataError('the graph as PNG needs resvg-py: pip install "samurai-engine[png]"', source="--png")
    if args.level is not None and args.level not in LEVELS:
        raise DataError(f"no level {args.level!r}; levels: {', '.join(LEVELS)} (--bot takes any search by name)",
                        source="--level")
    check_outputs([("-o", args.output), ("--json", args.json), ("--png", args.png)], force=args.force,
                  inputs=[args.file, *args.trust])
    bot = args.bot or args.level or DEFAULT_BOT
    trust = Trust(args.trust)
    folder = Path(args.file).parent
    read = read_record_file(args.file, trust=trust)
    edition = trust.edition(read.record.edition, source=args.file, folder=folder)
    try:
        search_bot(bot, 0, edition.game)
    except ValueError as exc:
        raise DataError(str(exc), source="--level" if args.level else "--bot") from None
    start, moves = record_moves(read, source=args.file, trust=trust, folder=folder)
    if args.seat is not None and not 0 <= args.seat < start.players:
        raise DataError(f"the game has seats 0 to {start.players - 1}, not {args.seat}", source="--seat")
    with progress_bar("analysing", len(moves), True) as advance:
        analysis = analyse_moves(start, moves, bot=bot, seed=args.seed, game=edition.game,
                                 seats=None if args.seat is None else (args.seat,), progress=advance)
    # The positions again, to say every move in the game's words and draw the board after it as its mover saw it.
    words: dict[int, tuple[str, str]] = {}
    described: dict[int, tuple[object, object]] = {}
    boards: dict[int, str] = {}
    judged = {d.number: d for d in analysis.decisions}
    state = start.copy()
    for number, action in enumerate(moves):
        decision = judged.get(number)
        mover = state.to_act
        preferred = None if decision is None or decision.preferred is None else decision.preferred.action
        described[number] = (state.describe(action), None if preferred is None else state.describe(preferred))
        words[number] = (describe_text(described[number][0]),
                          "" if preferred is None else describe_text(described[number][1]))
        state.apply(action)
        if args.output is not None and mover is not None:
            boards[number] = _board(edition.game, state, mover, action, preferred)
    if args.json is not None:
        data = analysis.to_dict(lambda number, action: described[number][
            0 if action == judged[number].played else 1])
        data["record"] = str(args.file)
        write_atomically(Path(args.json), (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        print(f"wrote {args.json}")
    if args.output is not None:
        title = f"Analysis of {Path(args.file).name}"
        page = report_html(analysis, title=title, moves=len(moves), boards=boards, words=words)
        write_atomically(Path(args.output), page.encode("utf-8"))
        print(f"wrote {args.output}")
    if args.png is not None:
        from ..files.svg import svg_to_png

        write_atomically(Path(args.png), svg_to_png(graph_svg(analysis, len(moves)), width=1520))
        print(f"wrote {args.png}")
    counts = analysis.mistakes_by_seat()
    print(f"{len(analysis.decisions)} decisions judged by {bot}; mistakes by seat: "
          + ", ".join(f"{seat}: {count}" for seat, count in enumerate(counts))
          + "; turning points at moves " + ", ".join(str(d.number) for d, _ in analysis.turning_points))
    return 0


def _board(game: Any, state: Any, mover: int, played: Any, preferred: Any) -> str:
    """The board after a move as its mover saw it, the move played (and the preferred one) marked where the game
    draws moves (``GameDefinition.faces.render_moves``)."""
    view = state.view(mover)
    if game.faces.render_moves is None:
        return str(game.render(state, view))
    return str(game.faces.render_moves(state, view, played, preferred))
