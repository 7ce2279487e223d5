"""``samurai serve``: a local web page to play against bots and friends, and replay games."""

from __future__ import annotations

import argparse

from ..errors import DataError
from .arguments import whole_number_in


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the command line's commands."""
    serve = commands.add_parser("serve", help="a local web page to play against bots and friends, and replay games",
                                description="Serve the page and its JSON API (docs/http-api.md); games are kept "
                                            "in DIR/games.sqlite3 and survive a restart. Needs the web extra.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--port", type=whole_number_in(0, 65535), default=8000, help="port, 0 to 65535 (default 8000)")
    serve.add_argument("--data-dir", metavar="DIR", help="where games are kept (default: the user's data folder, "
                                                         "$XDG_DATA_HOME/samurai or ~/.local/share/samurai)")
    serve.add_argument("--edition", action="append", default=[], metavar="MANIFEST",
                       help="also offer the edition of this manifest (repeatable); installed ones are always offered")
    serve.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                       help="the least time between a position and a bot's move on it, so people can follow; a "
                            "bot that thinks longer is shown at once (default 0.6)")
    serve.add_argument("--bot-workers", type=whole_number_in(1, 256), default=None, metavar="N",
                       help="worker processes for the bots' searches, 1 to 256: at most N search at once (default: "
                            "the machine's cores)")
    serve.add_argument("--bot-searches-per-client", type=whole_number_in(1, 256), default=None, metavar="N",
                       help="at most N searches at once for the games one address started, 1 to 256 (default: half "
                            "the workers, at least 1)")
    serve.add_argument("--games-per-minute", type=whole_number_in(1, 100_000), default=None, metavar="N",
                       help="games one address may start in any minute (default 30; more: 429)")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="URL",
                       help="also take game starts and record uploads from the page at URL, e.g. a reverse "
                            "proxy's https://games.example.org (repeatable)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="also answer requests whose Host header is NAME, e.g. a reverse proxy's; a request "
                            "naming a host not served gets 403 (repeatable)")
    serve.add_argument("--analysis-bot", default=None, metavar="BOT",
                       help="the search that judges finished games' moves and gives hints: a level or mcts-replies:N "
                            "(default: each game's own, hard for Samurai, medium for Daimyo and Shinobi)")
    serve.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    from ..web.server import serve

    if args.bot_delay < 0:
        raise DataError(f"must be 0 or more seconds, not {args.bot_delay}", source="--bot-delay")
    return serve(host=args.host, port=args.port, data_dir=args.data_dir, manifests=args.edition,
                 bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                 searches_per_client=args.bot_searches_per_client, games_per_minute=args.games_per_minute,
                 allowed_origins=args.allowed_origin, allowed_hosts=args.allowed_host,
                 analysis_bot=args.analysis_bot)

