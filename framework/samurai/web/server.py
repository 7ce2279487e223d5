"""``samurai serve``: the web application under uvicorn, games kept in the user's data folder."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError

__all__ = ["serve", "default_data_dir", "web_definitions"]


def default_data_dir() -> Path:
    """The folder ``samurai serve`` keeps its games in without ``--data-dir``: the platform's user data folder.

    From ``platformdirs``: on Linux ``$XDG_DATA_HOME/samurai`` (when absolute, as XDG asks), else
    ``~/.local/share/samurai``, the same folder as before ``platformdirs`` was used, so no existing player's
    games are lost; on macOS ``~/Library/Application Support/samurai``; on Windows ``%APPDATA%\\samurai``
    (roaming, no author folder: the folder used before too).
    """
    import platformdirs  # the web extra's; ``serve`` reports it missing with the rest of that extra

    return Path(platformdirs.user_data_dir("samurai", appauthor=False, roaming=True))


def web_definitions(manifests: Sequence[str] = ()) -> list[Any]:
    """The web definitions of every game with an installed edition or a manifest in ``manifests``, each given
    the manifests that play it (``GameDefinition.faces.web``, ``samurai.catalog.games``), in the order the games are
    contributed."""
    from ..catalog.editions import available_editions, installed_plugins, load_edition, make_plugin_manager
    from ..catalog.games import games_of

    played = {load_edition(ident).game.name for ident in available_editions()}
    given: dict[str, list[str]] = {}
    extra = {}
    for path in manifests:
        edition = load_edition(path)
        given.setdefault(edition.game.name, []).append(path)
        extra[edition.game.name] = edition.game
    games = {**games_of(make_plugin_manager(tuple(installed_plugins()), source="installed plugins")), **extra}
    return [game.faces.web(given.get(name, ())) for name, game in games.items()
            if game.faces.web is not None and (name in played or name in given)]


def serve(*, host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None,
          manifests: Sequence[str] = (), bot_delay: float = 0.6, bot_workers: int | None = None,
          searches_per_client: int | None = None, games_per_minute: int | None = None,
          allowed_origins: Sequence[str] = (), allowed_hosts: Sequence[str] = (),
          analysis_bot: str | None = None) -> int:
    """Run the server until interrupted (Ctrl-C); returns the exit code.

    ``bot_workers`` and ``searches_per_client`` bound the bots' searches (``samurai.web.host.SearchLimits``),
    ``games_per_minute`` the games one address may start a minute; ``allowed_origins`` and ``allowed_hosts``
    are what a reverse proxy in front shows besides the address listened on (``samurai.web.app.RequestChecks``);
    ``analysis_bot`` the search that judges finished games and gives hints (None: each game's own).
    """
    try:
        import uvicorn

        from .app import RequestChecks, create_app
        from .host import GAMES_PER_MINUTE, SearchLimits

        folder = Path(data_dir) if data_dir else default_data_dir()
    except ImportError as exc:
        raise DataError(f'samurai serve needs the web extra ({exc.name} is missing): '
                        f'pip install "samurai-engine[web]"', source="serve") from None
    try:
        checks = RequestChecks.served(host, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins)
    except ValueError as exc:
        raise DataError(str(exc), source="--allowed-origin") from None
    if analysis_bot is not None:
        from ..runs.analysis import search_bot

        try:
            search_bot(analysis_bot, 0)
        except ValueError as exc:
            raise DataError(str(exc), source="--analysis-bot") from None
    limits = SearchLimits() if bot_workers is None else SearchLimits(bot_workers)
    limits = SearchLimits(limits.workers, searches_per_client)
    definitions = web_definitions(manifests)
    if folder.exists() and not folder.is_dir():
        raise DataError("the data directory is a file, not a folder", source=str(folder))
    app = create_app(definitions, str(folder), bot_delay=bot_delay, limits=limits,
                     games_per_minute=games_per_minute or GAMES_PER_MINUTE, checks=checks, analysis_bot=analysis_bot)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"samurai: warning: listening on {host}: anyone who can reach this machine there can start games "
              f"and replay finished ones (seats still need their secret links)", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host
    print(f"samurai: serving http://{shown}:{port}/ (games kept in {folder / 'games.sqlite3'}); Ctrl-C stops",
          file=sys.stderr, flush=True)
    # No access log: event-stream URLs carry seat tokens.
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning", timeout_keep_alive=30)
    return 0
