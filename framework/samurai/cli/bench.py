"""``samurai bench``: measure full random games per second, or MCTS simulations per second; the
timings are the edition's game's (``GameCommands.bench``), printed line by line as they are measured."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DataError
from .arguments import MAX_GAMES, MAX_SEED, whole_number_in
from .common import not_offered


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench`` to the command line's commands."""
    bench = commands.add_parser("bench", help="measure full random games per second",
                                description="Time full random games for each player count, then a position "
                                            "copy and Game.legal_actions at a 4-player opening, and compare "
                                            "on one core.")
    bench.add_argument("--edition", default="ffg2015", help="edition id (default ffg2015)")
    bench.add_argument("--games", type=whole_number_in(1, MAX_GAMES), default=2000,
                       help="games per player count (default 2000)")
    bench.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    bench.add_argument("--seed", type=whole_number_in(0, MAX_SEED), default=1,
                       help="seed of the timed games (default 1)")
    bench.add_argument("--no-paths", action="store_true", help="skip the copy and legal-actions timings")
    bench.add_argument("--compare-games", type=whole_number_in(0, MAX_GAMES), default=200, metavar="N",
                       help="paired games of the compare timing (default 200; 0 skips it)")
    bench.add_argument("--compare-with", default="original", metavar="EDITION",
                       help="edition B of the compare timing (default original)")
    bench.add_argument("--mcts", action="store_true",
                       help="measure MCTS simulations per second instead (one core, full rollouts, from the first "
                            "turn of play and from mid-game; --players 2 unless given)")
    bench.add_argument("--simulations", type=whole_number_in(1, 10**7), default=2000,
                       help="with --mcts: simulations per decision (default 2000)")
    bench.add_argument("--decisions", type=whole_number_in(1, 10**5), default=5,
                       help="with --mcts: decisions timed per kind of position (default 5)")
    bench.add_argument("--levels", nargs="?", const="easy,medium,hard,expert", default=None, metavar="LEVELS",
                       help="time the bot levels instead: whole games with every seat at the level, one core; "
                            "seconds per decision in the play phase and per 1,000 games (default all levels: "
                            "easy,medium,hard,expert)")
    bench.add_argument("--level-games", type=whole_number_in(1, 10**4), default=2, metavar="N",
                       help="with --levels: games per level and player count (default 2)")
    bench.add_argument("--engine", choices=("python", "native"), default=None,
                       help="time this engine only (default: each engine the game has, side by side, with the "
                            "ratio)")
    bench.add_argument("--analysis", action="store_true",
                       help="time samurai analyse-game instead: a 4-player game (the fewest players above, if the "
                            "edition has no 4-player game) played by medium, analysed at hard on one core, a hint at "
                            "hard at every tenth decision, the mistakes found in games of random against hard, and a "
                            "seat's page of samurai serve while it analyses (default: off)")
    bench.add_argument("--analysis-bot", default="hard", metavar="BOT",
                       help="with --analysis: the search that analyses, gives the hints and plays against random "
                            "(default hard)")
    bench.set_defaults(run=_bench)


def _bench_analysis(edition_id: str, seed: int, bot: str) -> None:
    """``--analysis``: the time to analyse a whole game with the search ``bot`` and of a hint, the mistakes found on
    each side of ``random`` against ``bot``, and the server's page during an analysis, printed."""
    import statistics
    import time

    from ..catalog.editions import load_edition
    from ..runs.analysis import analyse_moves, hint, search_bot
    from ..search.bots import make_bot

    edition = load_edition(edition_id)
    try:
        search_bot(bot, 0, edition.game)
    except ValueError as exc:
        raise DataError(str(exc), source="--analysis-bot") from None
    players = 4 if 4 in edition.player_counts else max(edition.player_counts)
    first = edition.start(players, seed, None)
    state, moves = first.copy(), []
    bots = [make_bot("medium", seed + seat, edition.game) for seat in range(players)]
    while not state.is_over:
        moves.append(state.ask(bots[state.to_act]))  # type: ignore[index]
        state.apply(moves[-1])
    began = time.perf_counter()
    analysis = analyse_moves(first, moves, bot=bot, seed=seed, game=edition.game)
    took = time.perf_counter() - began
    searched = sum(1 for d in analysis.decisions if not d.forced)
    print(f"analyse-game at {bot}, a {players}-player game of {edition_id} played by medium ({len(moves)} decisions, "
          f"{searched} searched): {took:.1f} s on one core ({took / max(1, searched) * 1000:.0f} ms a search)")
    state, hints = first.copy(), []
    for number, action in enumerate(moves):
        if number % 10 == 0 and len(state.legal_actions()) > 1:
            began = time.perf_counter()
            hint(state.knowledge(state.to_act), bot=bot, seed=seed + number, game=edition.game)  # type: ignore[arg-type]
            hints.append(time.perf_counter() - began)
        state.apply(action)
    if hints:
        print(f"a hint at {bot}, {len(hints)} positions of that game: median {statistics.median(hints):.3f} s, "
              f"longest {max(hints):.3f} s")
    _bench_mistakes_of_random(edition, seed, bot)
    _bench_page_during_analysis(edition_id, players, seed, bot)


def _bench_mistakes_of_random(edition: Any, seed: int, bot: str, games: int = 4) -> None:
    """The mistakes an analysis by ``bot`` finds on each side of two-player games of ``random`` against ``bot``
    (seats swapped every game), printed."""
    from ..runs.analysis import analyse_moves
    from ..search.bots import make_bot

    found = {"random": 0, bot: 0}
    judged = {"random": 0, bot: 0}
    for game in range(games):
        names = ["random", bot] if game % 2 == 0 else [bot, "random"]
        first = edition.start(2, seed + game, None)
        state, moves = first.copy(), []
        bots = [make_bot(name, seed + 10 * game + seat, edition.game) for seat, name in enumerate(names)]
        while not state.is_over:
            moves.append(state.ask(bots[state.to_act]))
            state.apply(moves[-1])
        analysis = analyse_moves(first, moves, bot=bot, seed=seed + game, game=edition.game)
        for decision in analysis.decisions:
            if not decision.forced:
                judged[names[decision.seat]] += 1
        for seat, count in enumerate(analysis.mistakes_by_seat()):
            found[names[seat]] += count
    print(f"mistakes found at {bot} in {games} two-player games of random against {bot} (seats swapped): "
          + ", ".join(f"{name} {found[name]} of {judged[name]} decisions searched" for name in ("random", bot)))


def _bench_page_during_analysis(edition_id: str, players: int, seed: int, bot: str) -> None:
    """How quickly ``samurai serve`` answers a seat's page while it analyses a finished game with ``bot`` and one
    worker, against the same requests while it does nothing (a real server on 127.0.0.1, requests in turn)."""
    import json
    import socket
    import statistics
    import tempfile
    import threading
    import time
    import urllib.request

    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.host import SearchLimits
        from ..web.server import web_definitions
    except ImportError as exc:
        print(f"the page during an analysis: not timed, the web extra is missing ({exc.name})")
        return
    game = next(d for d in web_definitions() if any(e.key == edition_id for e in d.editions()))
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        app = create_app([game], folder, limits=SearchLimits(1), analysis_bot=bot)
        # log_config=None: uvicorn leaves the process's logging as it found it (this is a benchmark, not a server).
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
                                               access_log=False))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{port}"

        def call(path: str, body: object = None, token: str | None = None) -> object:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            data = None if body is None else json.dumps(body).encode()
            with urllib.request.urlopen(urllib.request.Request(url + path, data, headers), timeout=120) as answer:
                return json.loads(answer.read())

        def timed(path: str, token: str) -> float:
            began = time.perf_counter()
            call(path, token=token)
            return time.perf_counter() - began

        try:
            for _ in range(600):  # the server starts within a minute
                if server.started:
                    break
                time.sleep(0.1)
            played: Any = call("/api/games", {"game": game.name, "edition": edition_id,
                                              "seats": ["medium"] * players, "seed": seed})
            person: Any = call("/api/games", {"game": game.name, "edition": edition_id,
                                              "seats": ["human", *["greedy"] * (players - 1)], "seed": seed})
            page, token = f"/api/games/{person['game']}/page", person["seats"][0]["token"]
            for _ in range(6000):  # the medium bots finish their game within ten minutes
                finished: Any = call("/api/games")
                if any(entry["id"] == played["game"] for entry in finished["games"]):
                    break
                time.sleep(0.1)
            idle = [timed(page, token) for _ in range(30)]
            began = time.perf_counter()
            progress: Any = call(f"/api/games/{played['game']}/analysis", {})
            busy = []
            while progress["state"] == "running":
                busy.append(timed(page, token))
                progress = call(f"/api/games/{played['game']}/analysis")
            took = time.perf_counter() - began
        finally:
            server.should_exit = True
            thread.join(timeout=30)
    print(f"the page while samurai serve analyses a {players}-player game at {bot} with one worker "
          f"({progress['state']} in {took:.1f} s): a seat's page in {statistics.median(busy) * 1000:.0f} ms median, "
          f"{max(busy) * 1000:.0f} ms longest ({len(busy)} requests); with nothing to do "
          f"{statistics.median(idle) * 1000:.0f} ms median, {max(idle) * 1000:.0f} ms longest")


def _bench(args: argparse.Namespace) -> int:
    from ..catalog.editions import load_edition
    from ..catalog.games import BenchRequest

    if args.analysis:
        _bench_analysis(args.edition, args.seed, args.analysis_bot)
        return 0

    parts = args.players.split(",")
    if not all(p.isascii() and p.isdigit() and len(p) < 3 for p in parts):
        raise DataError(f"expected player counts like 2,3,4, got {args.players!r}", source="--players")
    counts = tuple(int(p) for p in parts)
    edition = load_edition(args.edition)
    commands = edition.game.commands
    if commands is None or commands.bench is None:
        raise not_offered(edition, "bench")
    levels: tuple[str, ...] = ()
    if args.levels is not None:
        from ..search.bots import LEVELS

        levels = tuple(name.strip() for name in args.levels.split(","))
        unknown = [name for name in levels if name not in LEVELS]
        if unknown or not levels:
            raise DataError(f"no level {', '.join(map(repr, unknown)) or repr(args.levels)}; the levels are "
                            f"{', '.join(LEVELS)}", source="--levels")
    request = BenchRequest(edition=args.edition, players=counts, players_given=args.players != "2,3,4",
                           games=args.games, seed=args.seed, paths=not args.no_paths,
                           compare_games=args.compare_games, compare_with=args.compare_with, mcts=args.mcts,
                           simulations=args.simulations, decisions=args.decisions, engine=args.engine,
                           levels=levels, level_games=args.level_games)
    for line in commands.bench(edition, request):
        print(line)
    return 0

