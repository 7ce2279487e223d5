"""The games a server is running: start, act, bots, what each seat is sent, and replays.

``GameHost`` owns the live games. Every action goes through one lock per
game and is committed to the store before it changes the position, so two
browsers on two seats and the bots moving in between are served one at a
time, and an acknowledged action is never lost. Bots move in a background
task after a person's move, each from its seat's knowledge only.

**Bots never stall the table.** A bot's search runs in a worker process of
the host's own bounded pool (``samurai.web.workers``), never in the event loop's
threads that write acknowledged moves to the store, and never under the
game's lock: the bot reads the position under the lock, searches without
it, and commits under it only if the position is still the one it searched.
At most ``SearchLimits.workers`` searches run at once on a server and
``SearchLimits.per_client`` for the games one client address started, so a
stranger's games cannot take every worker. A bot that raises or returns an
illegal action stops its game with a warning and the reason on the table
(``bot_error``), instead of stalling it silently.

**Seeds stay secret.** A game's seed decides every hidden draw, so it is 63
bits from ``secrets`` (``draw_seed``); a game with more than one person keeps
it from every seat until the end, and a seed the creator chooses is taken
only when the creator is the only person at the table.

Everything a seat is sent (``seat_payload``, ``state``, ``replay_frame``) is
made from that seat's view (``GameState.view``); the whole position is only
shown once a game is over or for a record a person uploaded.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import os
import random
import secrets
import sys
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from typing import Any

import attrs

from ..errors import DataError, SamuraiError, one_line
from ..interrupts import StoppableTask
from ..protocol import GameState, Move
from ..runs.workerpool import WorkerPool
from ..seeds import MAX_SEED, check_seed
from .analysis import ANALYSIS_SEED, AnalysisJob
from .games import GameDefinition, GameSetup, rules_url
from .store import SeatSpec, Store, StoredGame
from .workers import GameRef, HintAnswer, Judged, bot_move, bot_pool, hint_moves, judge_move

__all__ = ["GameHost", "LiveGame", "HostError", "SearchLimits", "digest", "draw_seed", "GAMES_PER_MINUTE",
           "RESUMED"]

LOG_LINES = 400
"""How many of the latest log entries a seat's page receives."""

GAMES_PER_MINUTE = 30
"""How many games one client address may start in any 60 seconds, by default (``samurai serve
--games-per-minute``): a person starts a few; a script flooding the store and the bots is refused (429)."""

RESUMED = "(resumed)"
"""The creator of the games a server resumed from its store: who started them is not stored, so they share
one client's share of the bots' workers."""


class HostError(Exception):
    """A request the host refuses: an HTTP status, one line saying why and any headers the answer carries."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers: Mapping[str, str] = headers or {}


def draw_seed() -> int:
    """A new game's seed: 63 bits from ``secrets``, the whole range the engine and records accept
    (``samurai_plugins.knizia.play.game.MAX_SEED``), so a seat cannot search the seeds that would deal the
    hands it has seen."""
    seed = secrets.randbits(63)
    assert seed <= MAX_SEED
    return seed


def _default_workers() -> int:
    return max(1, os.cpu_count() or 1)


@attrs.frozen
class SearchLimits:
    """How many bot searches may run at once: ``workers`` on the server (its pool's processes; default the
    CPU count) and ``per_client`` for the games one client address started (default half the workers,
    at least one), so the games one stranger starts leave workers for everybody else's."""

    workers: int = attrs.field(factory=_default_workers)
    per_client: int | None = None
    """None: half the workers, at least one."""

    def __attrs_post_init__(self) -> None:
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise ValueError(f"workers must be a whole number >= 1, not {self.workers!r}")
        if self.per_client is not None and (isinstance(self.per_client, bool) or not isinstance(
                self.per_client, int) or self.per_client < 1):
            raise ValueError(f"per_client must be a whole number >= 1, not {self.per_client!r}")

    @property
    def client_share(self) -> int:
        """The searches one client's games may run at once."""
        return min(self.workers, self.per_client or max(1, self.workers // 2))


def digest(token: str) -> str:
    """The stored form of a seat token (its SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.define(eq=False)
class LiveGame:
    """A game in memory: its start, actions, position and per-seat log, with its lock and listeners."""

    id: str
    definition: GameDefinition
    setup: GameSetup
    seats: tuple[SeatSpec, ...]
    start: GameState
    state: GameState
    actions: list[Move]
    logs: list[dict[int | None, list[str]]]
    """For each action, what each seat (and, under None, the whole table) saw happen."""
    imported: bool = False
    record: Any = None
    """The record a person uploaded (``imported``), which a worker opens to rebuild the game's start."""
    creator: str = RESUMED
    """The client address that started the game (its bots share that client's searches)."""
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    listeners: dict[int | None, set[asyncio.Queue[int]]] = attrs.field(factory=dict)
    bot_task: asyncio.Task[None] | None = None
    bot_error: str | None = None
    """Why the bot to act could not move (it raised or chose an illegal action), shown to the table."""
    thinking: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    """Held by the game's analysis or a hint while it searches: one at a time per game."""
    analysis: AnalysisJob | None = None
    analysis_task: asyncio.Task[None] | None = None
    hints: dict[tuple[int, int], HintAnswer] = attrs.field(factory=dict)
    """The hints given, by seat and move number (asked again, the same answer at once)."""

    @property
    def seed_secret(self) -> bool:
        """Whether the seed is kept from the seats: while a game with more than one person goes on (each
        could replay the draws from it and see the others' hands)."""
        people = sum(spec.kind == "human" for spec in self.seats)
        return people > 1 and not self.state.is_over

    def seat_of(self, token: str | None) -> int:
        """The seat a token opens: 401 without a token, 403 for one that opens no seat of this game."""
        if not token:
            raise HostError(401, "this needs a seat's token (Authorization: Bearer TOKEN, or ?token=TOKEN)")
        given = digest(token)
        found = None
        for seat, spec in enumerate(self.seats):  # every seat compared, in constant time each
            if spec.token_digest is not None and hmac.compare_digest(given, spec.token_digest):
                found = seat
        if found is None:
            raise HostError(403, "this token opens no seat of this game")
        return found

    @property
    def ref(self) -> GameRef:
        """What rebuilds the game's positions in a worker process."""
        return GameRef(self.definition, self.id, self.setup, self.record)

    def position(self, step: int) -> GameState:
        """The position after the first ``step`` actions."""
        state = self.start.copy()
        for action in self.actions[:step]:
            state.apply(action)
        return state


class GameHost:
    """The live games of a server, kept in ``store``."""

    def __init__(self, definitions: Sequence[GameDefinition], store: Store, *, bot_delay: float = 0.0,
                 limits: SearchLimits | None = None, games_per_minute: int = GAMES_PER_MINUTE,
                 analysis_bot: str | None = None, hint_bot: str | None = None) -> None:
        if not definitions:
            raise ValueError("a host needs at least one game definition")
        if isinstance(games_per_minute, bool) or not isinstance(games_per_minute, int) or games_per_minute < 1:
            raise ValueError(f"games_per_minute must be a whole number >= 1, not {games_per_minute!r}")
        self.definitions = {d.name: d for d in definitions}
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or SearchLimits()
        self.games_per_minute = games_per_minute
        self.analysis_bot = analysis_bot
        """The search that judges a finished game's moves; None: each game's own (``analysis_bot_of``)."""
        self.hint_bot = hint_bot
        """The search that gives hints; None: the same as the analysis'."""
        self._games: dict[str, LiveGame] = {}
        self._unresumable: dict[str, str] = {}
        """Stored games that cannot be resumed, with why: refused (503) without reading them again."""
        self._pool: WorkerPool | None = None
        self._searches = _SearchSlots(self.limits)
        self._started: dict[str, deque[float]] = {}
        """For each client address, when it started its games of the last minute."""

    # --- games in and out of memory --------------------------------------------------------

    def definition(self, name: Any) -> GameDefinition:
        """The definition called ``name`` (400 for another)."""
        if name is None:
            return next(iter(self.definitions.values()))
        if not isinstance(name, str) or name not in self.definitions:
            raise HostError(400, f"no game {name!r} is served here; games: {', '.join(self.definitions)}")
        return self.definitions[name]

    def game(self, game_id: str) -> LiveGame:
        """A game by id, rebuilt from the store by replaying its actions when it is not in memory yet.

        404 when there is no such game; 503 when its stored rows cannot be read or replayed (a gap in its log,
        a damaged row, an edition this server does not serve): that game is said once on stderr and refused
        until the server is started again, every other game is served as usual.
        """
        live = self._games.get(game_id)
        if live is not None:
            return live
        problem = self._unresumable.get(game_id)
        if problem is not None:
            raise HostError(503, problem)
        try:
            stored = self.store.load(game_id) if len(game_id) <= 64 else None
        except DataError as exc:  # a row that cannot be read
            raise self._refuse_stored(game_id, str(exc)) from None
        if stored is None:
            raise HostError(404, f"no game {game_id!r}")
        try:
            live = self._rebuild(stored)
        except (SamuraiError, HostError) as exc:  # e.g. its edition is not served any more
            raise self._refuse_stored(game_id, exc.message if isinstance(exc, HostError) else str(exc)) from None
        except Exception as exc:  # stored rows may be damaged in any way: refuse this game, the others go on
            raise self._refuse_stored(game_id, f"{type(exc).__name__}: {exc}") from None
        self._games[game_id] = live
        self.wake_bots(live)
        return live

    def _refuse_stored(self, game_id: str, why: str) -> HostError:
        """The 503 of a stored game that cannot be resumed, kept for its later requests and said once."""
        problem = one_line(f"game {game_id} cannot be resumed by this server: {why}")
        self._unresumable[game_id] = problem
        self.store.report(game_id, problem)
        return HostError(503, problem)

    def resume_all(self) -> list[str]:
        """Rebuild every unfinished game (so bots to act carry on); returns why any could not be (each of
        those is also said once on stderr, and answers 503; the others resume)."""
        problems = []
        for game_id in self.store.ids(over=False):
            try:
                self.game(game_id)
            except HostError as exc:
                problems.append(exc.message)
        return problems

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        definition = self.definition(stored.setup.game)
        if stored.imported is not None:
            opened = definition.open_record(stored.imported, [stored.setup.edition])
            start = opened.start
        else:
            start = definition.start(stored.setup)
        if len(stored.seats) != start.players:
            raise DataError(f"game {stored.id}: {len(stored.seats)} seats are stored for {start.players} players",
                            source=str(self.store.path))
        live = LiveGame(stored.id, definition, stored.setup, stored.seats, start, start.copy(), [], [],
                        imported=stored.imported is not None, record=stored.imported)
        for number, action in enumerate(stored.actions):
            reason = live.state.check(action)
            if reason is not None:
                raise DataError(f"game {stored.id}: stored action {number} {list(action)} cannot be replayed: "
                                f"{reason}", source=str(self.store.path))
            self._advance(live, action)
        return live

    def _advance(self, live: LiveGame, action: Move) -> None:
        before = live.state.copy()
        live.state.apply(action)
        live.actions.append(action)
        seats: list[int | None] = [*range(live.state.players), None]
        live.logs.append({seat: live.definition.log(before, action, live.state, seat) for seat in seats})

    # --- creating ----------------------------------------------------------------------------

    def create(self, request: Any, client: str = "") -> tuple[LiveGame, list[dict[str, Any]]]:
        """Start a game from a request body for ``client`` (its address); returns it and each seat's kind, bot
        and (people) token. 429 when the client started ``games_per_minute`` games in the last minute."""
        if not isinstance(request, Mapping):
            raise HostError(400, "the body must be a JSON object")
        unknown = set(request) - {"game", "edition", "seats", "seed", "options", "hints"}
        if unknown:
            raise HostError(400, f"unknown field {sorted(unknown)[0]!r}; fields: game, edition, seats, seed, options, "
                                 f"hints")
        hints = request.get("hints", False)
        if not isinstance(hints, bool):
            raise HostError(400, f"hints must be true (every seat may ask for a hint) or false, not {hints!r}")
        definition = self.definition(request.get("game"))
        seats_field = request.get("seats")
        if not isinstance(seats_field, list) or not all(isinstance(s, str) for s in seats_field):
            raise HostError(400, 'seats must be a list like ["human", "greedy"]: "human" or a bot name per seat')
        bots = list(definition.bots())
        for number, kind in enumerate(seats_field):
            if kind != "human" and kind not in bots:
                raise HostError(400, f"seats[{number}] is {kind!r}: give \"human\" or a bot ({', '.join(bots)})")
        seed = request.get("seed")
        if seed is None:
            seed = draw_seed()
        else:
            try:
                check_seed(seed)
            except DataError as exc:
                raise HostError(400, str(exc)) from None
            if seats_field.count("human") > 1:
                raise HostError(400, "seed: a chosen seed is allowed only with one person at the table (it decides "
                                     "every hidden draw); leave it out and the server draws a secret one")
        options = request.get("options")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise HostError(400, f"options must be a JSON object of option names and values, not "
                                 f"{type(options).__name__}")
        edition = request.get("edition")
        if not isinstance(edition, str):
            raise HostError(400, "edition must be the key of an edition listed by /api/catalog")
        setup = GameSetup(definition.name, edition, len(seats_field), seed, dict(options), hints=hints)
        try:
            start = definition.start(setup)
        except (DataError, ValueError, TypeError) as exc:
            raise HostError(400, str(exc)) from None
        self._count_start(client)
        tokens = [secrets.token_urlsafe(24) if kind == "human" else None for kind in seats_field]
        specs = tuple(SeatSpec("human", None, digest(t)) if t else SeatSpec("bot", kind, None)
                      for kind, t in zip(seats_field, tokens, strict=True))
        game_id = secrets.token_urlsafe(9)
        self.store.create(game_id, setup, specs)
        live = LiveGame(game_id, definition, setup, specs, start, start.copy(), [], [], creator=client)
        self._games[game_id] = live
        self.wake_bots(live)
        return live, [{"seat": n, "kind": s.kind, "bot": s.bot, "token": t} for n, (s, t) in
                      enumerate(zip(specs, tokens, strict=True))]

    def _count_start(self, client: str) -> None:
        """Count a game started by ``client``; 429 (with Retry-After) when it started its share this minute."""
        now = time.monotonic()
        for address in [a for a, times in self._started.items() if times[-1] <= now - 60]:
            del self._started[address]  # no game of the last minute: forgotten
        times = self._started.setdefault(client, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.games_per_minute:
            wait = max(1, math.ceil(times[0] + 60 - now))
            raise HostError(429, f"this address started {self.games_per_minute} games in the last minute; "
                                 f"try again in {wait} s", headers={"Retry-After": str(wait)})
        times.append(now)

    def import_record(self, data: Any, game: str | None = None) -> LiveGame:
        """Keep a record a person uploaded as a read-only game (for replaying); 400 when it is refused."""
        if game is None and isinstance(data, Mapping) and data.get("game") in self.definitions:
            game = data["game"]  # a record that names its game is opened by that game's definition
        definition = self.definition(game)
        allowed = [choice.key for choice in definition.editions()]
        try:
            opened = definition.open_record(data, allowed)
        except (DataError, ValueError, TypeError) as exc:
            raise HostError(400, str(exc)) from None
        game_id = secrets.token_urlsafe(9)
        seats = tuple(SeatSpec("record") for _ in range(opened.setup.players))
        live = LiveGame(game_id, definition, opened.setup, seats, opened.start, opened.start.copy(), [], [],
                        imported=True, record=data)
        for action in opened.actions:
            self._advance(live, action)
        self.store.create(game_id, opened.setup, seats, imported=data, actions=opened.actions,
                          over=live.state.is_over,
                          summary=_summary(definition, live.state) if live.state.is_over else None)
        self._games[game_id] = live
        return live

    # --- acting ------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int, move_number: Any, action: Any) -> None:
        """Play ``action`` for ``seat`` against position ``move_number``: 409 when that position is gone or it
        is not the seat's turn, 400 with the game's reason for an illegal action."""
        if isinstance(move_number, bool) or not isinstance(move_number, int):
            raise HostError(400, "move_number must be the whole number of the position the action was chosen in")
        if not isinstance(action, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in action):
            raise HostError(400, "action must be a list of whole numbers, as listed in legal_actions")
        move = tuple(action)
        self._check_turn(live, seat, move_number)  # at once, without waiting for the lock
        async with live.lock:
            self._check_turn(live, seat, move_number)  # again: the position may have moved on meanwhile
            state = live.state
            reason = state.check(move)
            if reason is not None:
                raise HostError(400, f"illegal action {list(move)}: {reason}")
            await self._commit(live, move)
        self.wake_bots(live)

    @staticmethod
    def _check_turn(live: LiveGame, seat: int, move_number: int) -> None:
        """409 unless ``seat`` is to act in the position ``move_number``."""
        state = live.state
        if state.is_over:
            raise HostError(409, "the game is over")
        if move_number != state.move_number:
            raise HostError(409, f"the position has moved on: it is at move {state.move_number}, not "
                                 f"{move_number}; read the game again")
        if state.to_act != seat:
            raise HostError(409, f"it is seat {state.to_act}'s turn, not seat {seat}'s")

    async def _commit(self, live: LiveGame, move: Move) -> None:
        """Write the action to the store, then play it and tell the listeners (the lock is held).

        The write (which waits for the disk) runs in a worker thread, so other games are served meanwhile.
        """
        after = live.state.copy()
        after.apply(move)
        summary = _summary(live.definition, after) if after.is_over else None
        await asyncio.to_thread(self.store.append, live.id, live.state.move_number, move, over=after.is_over,
                                summary=summary)
        self._advance(live, move)
        self._notify(live)

    @staticmethod
    def _notify(live: LiveGame) -> None:
        for queues in live.listeners.values():
            for queue in queues:
                if queue.empty():
                    queue.put_nowait(live.state.move_number)

    def wake_bots(self, live: LiveGame) -> None:
        """Let the bots play while one of them is to act (in a background task of the running loop); a bot
        that failed is not tried again (until the server is started again)."""
        if live.imported or live.state.is_over or live.bot_error is not None:
            return
        to_act = live.state.to_act
        if to_act is None or live.seats[to_act].kind != "bot":
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (a game rebuilt before the server runs): the server wakes it at start-up
        live.bot_task = loop.create_task(self._run_bots(live))

    async def _run_bots(self, live: LiveGame) -> None:
        # The pace: nothing a bot does shows sooner than ``bot_delay`` after it started on the position, so a person
        # sees quick moves one by one, and a bot that thought longer than that is shown at once (no pause added).
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            async with live.lock:  # only to read the position: the search runs without the lock
                state = live.state
                seat = state.to_act
                if state.is_over or seat is None or live.seats[seat].kind != "bot":
                    return
                bot = live.seats[seat].bot
                assert bot is not None
                searched = state.move_number
                actions = tuple(live.actions)
            # Each move's generator comes from the game's seed, the seat and the move number, so a
            # restarted server's bots play exactly as they would have.
            rng = random.Random(f"{live.setup.seed}:{seat}:{searched}")
            try:
                async with self._searches.slot(live.creator):
                    move = await self._search(live, actions, seat, bot, rng)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure of the bot's code is reported, never raised
                await self._pace(started)
                self._bot_failed(live, seat, bot, f"it raised {type(exc).__name__}: {exc}")
                return
            await self._pace(started)
            async with live.lock:
                if live.state.move_number != searched:
                    continue  # the position moved on while the bot thought: it thinks again
                reason = _not_an_action(move) or live.state.check(move)
                if reason is not None:
                    self._bot_failed(live, seat, bot, f"it chose {move!r:.200}: {reason}")
                    return
                await self._commit(live, move)

    async def _pace(self, started: float) -> None:
        """Wait what is left of ``bot_delay`` since ``started`` (the event loop's clock)."""
        left = self.bot_delay - (asyncio.get_running_loop().time() - started)
        if left > 0:
            await asyncio.sleep(left)

    async def _search(self, live: LiveGame, actions: tuple[Move, ...], seat: int, bot: str,
                      rng: random.Random) -> Any:
        """The bot's move, searched in a worker process."""
        return await self._in_worker(bot_move, (live.ref, actions, seat, bot, rng))

    async def _in_worker(self, function: Callable[[Any], Any], job: Any) -> Any:
        """``function(job)`` in a worker process of the server's pool (made again if a worker died)."""
        if self._pool is None:
            self._pool = bot_pool(self.limits.workers)
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool.executor, StoppableTask(function), job)
        except BrokenProcessPool:
            if self._pool is pool:  # a worker was killed (out of memory, say): the next search gets a new pool
                self._pool = None
                pool.stop(patience=2)
            raise

    def _bot_failed(self, live: LiveGame, seat: int, bot: str, why: str) -> None:
        """Stop the game's bots with one warning line and the reason on the table, rather than stall silently."""
        live.bot_error = one_line(f"seat {seat}'s bot {bot} could not move ({why}); the game cannot go on")
        print(f"samurai: warning: game {live.id}: {live.bot_error}", file=sys.stderr, flush=True)
        self._notify(live)

    def stop_bots(self) -> None:
        """Cancel the bots' tasks and end their searches at once (the server is stopping; a bot's move is either
        committed or not made)."""
        for live in self._games.values():
            for task in (live.bot_task, live.analysis_task):
                if task is not None:
                    task.cancel()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop(patience=2)

    async def wait_for_bots(self) -> None:
        """Until every game's bots have moved as far as they can (for tests and a clean shutdown)."""
        while True:
            tasks = [g.bot_task for g in self._games.values() if g.bot_task is not None and not g.bot_task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks)

    # --- analysis and hints -------------------------------------------------------------------

    def analysis_bot_of(self, live: LiveGame) -> str:
        """The search that judges ``live``'s moves: the host's, or its game's own (``GameDefinition.analysis_bot``,
        ``hard`` where a game does not say)."""
        return self.analysis_bot or _analysis_bot(live.definition)

    def start_analysis(self, live: LiveGame) -> dict[str, Any]:
        """Start judging every move of a finished game, in the host's workers, one move at a time and one analysis
        at a time per game; asked again, its progress (an analysis that failed starts again). 409 while the game
        goes on: the analysis tells every seat's moves and chances."""
        if not live.state.is_over:
            raise HostError(409, "a game is analysed once it is over")
        job = live.analysis
        if job is None or job.error is not None:  # a failed job's task has ended (the error is its last act)
            job = AnalysisJob(self.analysis_bot_of(live), len(live.actions), live.state.players)
            live.analysis = job
            live.analysis_task = asyncio.get_running_loop().create_task(self._analyse(live, job))
        return job.to_dict()

    def analysis(self, live: LiveGame) -> dict[str, Any]:
        """The game's analysis as far as it got (``AnalysisJob.to_dict``); 404 when none was started."""
        if live.analysis is None:
            raise HostError(404, "this game has not been analysed yet: POST to /api/games/GAME/analysis starts it")
        return live.analysis.to_dict()

    async def _analyse(self, live: LiveGame, job: AnalysisJob) -> None:
        actions = tuple(live.actions)
        try:
            async with live.thinking:
                for number, action in enumerate(actions):
                    async with self._searches.slot(live.creator):
                        judged: Judged = await self._in_worker(
                            judge_move, (live.ref, actions[:number], action, job.bot, ANALYSIS_SEED))
                    job.judged.append(judged)
            job.returns = tuple(live.state.returns())
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the page is told why, the server goes on
            job.error = one_line(f"{type(exc).__name__}: {exc}")
            print(f"samurai: warning: game {live.id}: the analysis stopped: {job.error}", file=sys.stderr, flush=True)

    async def hint(self, live: LiveGame, seat: int, top: int = 3) -> dict[str, Any]:
        """The ``top`` moves the search prefers for ``seat`` (to act) from its own knowledge, each with its
        estimated chance: 403 in a game started without hints, 409 when the seat is not to act. Searched in the
        host's workers, one at a time per game; asked again at the same move, the same answer."""
        if not live.setup.hints:
            raise HostError(403, "hints are off in this game (a game allows them, for every seat, when it is started)")
        state = live.state
        if state.is_over:
            raise HostError(409, "the game is over")
        if state.to_act != seat:
            raise HostError(409, f"a hint is for the seat to act: it is seat {state.to_act}'s turn, not seat {seat}'s")
        key = (seat, state.move_number)
        found = live.hints.get(key)
        if found is None:
            actions = tuple(live.actions)
            # Seeded from the game like the bots' moves: the same hint after a restart.
            seed = random.Random(f"{live.setup.seed}:hint:{seat}:{key[1]}").getrandbits(63)
            async with live.thinking:
                found = live.hints.get(key)
                if found is None:
                    async with self._searches.slot(live.creator):
                        bot = self.hint_bot or self.analysis_bot_of(live)
                        found = await self._in_worker(hint_moves, (live.ref, actions, seat, bot, seed, top))
                    live.hints[key] = found
        return {"game": live.id, "move_number": key[1], **found.to_dict()}

    # --- what a seat is sent -----------------------------------------------------------------

    def seats_info(self, live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
        """Who plays each seat (and which one is the reader's)."""
        return [{"seat": n, "kind": s.kind, "bot": s.bot, "you": n == seat} for n, s in enumerate(live.seats)]

    def state(self, live: LiveGame, seat: int) -> dict[str, Any]:
        """The JSON API's answer: the seat's view and, when it is to act, its legal actions (and, when a bot
        could not move, why: ``bot_error``)."""
        state = live.state
        legal = state.legal_actions() if state.to_act == seat else []
        return {"game": live.id, "seat": seat, "move_number": state.move_number, "to_act": state.to_act,
                "over": state.is_over, "seats": self.seats_info(live, seat), "view": state.view(seat),
                "legal_actions": [{"action": list(a), "describe": state.describe(a)} for a in legal],
                "returns": list(state.returns()) if state.is_over else None, "bot_error": live.bot_error}

    def seat_payload(self, live: LiveGame, seat: int) -> dict[str, Any]:
        """What the page of ``seat`` shows: the picture, the status, how to click, the log so far."""
        state = live.state
        view = state.view(seat)
        definition = live.definition
        entries = [{"move": n, "lines": log[seat]} for n, log in enumerate(live.logs)][-LOG_LINES:]
        return {"game": live.id, "seat": seat, "move_number": state.move_number, "to_act": state.to_act,
                "over": state.is_over, "seats": self.seats_info(live, seat),
                "svg": definition.render(state, view, live.actions[-1] if live.actions else None),
                "status": definition.status(view), "controls": definition.controls(state, seat).to_dict(),
                "log": entries, "bot_error": live.bot_error, "rules": rules_url(definition), "key": definition.key(),
                "hints": live.setup.hints}

    def replay_frame(self, live: LiveGame, step: Any, seat: int | None) -> dict[str, Any]:
        """The position after ``step`` actions as ``seat`` saw it, or (``seat`` None) all hands open: nothing
        hidden, for a finished game or an uploaded record only. The log lines tell what the seat saw, or everything
        once the game is over (or for a record a person uploaded)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(live.actions):
            raise HostError(400, f"step must be a whole number from 0 to {len(live.actions)}, not {step!r}")
        public = _replay_perspective(live, seat)
        state = live.position(step)
        view = live.definition.open_view(state) if seat is None else state.view(seat)
        last = live.actions[step - 1] if step else None
        judged = live.analysis.judged_move(step - 1) if live.analysis is not None and step else None
        preferred = None
        if judged is not None and judged.decision.preferred is not None:
            preferred = judged.decision.preferred.action if judged.decision.preferred.action != last else None
        return {"game": live.id, "step": step, "steps": len(live.actions), "seat": "all" if seat is None else seat,
                "public": public, "seats": self.seats_info(live, None if public else seat), "over": live.state.is_over,
                "svg": _draw(live.definition, state, view, last, preferred), "status": live.definition.status(view),
                "lines": live.logs[step - 1][None if public else seat] if step else [],
                "rules": rules_url(live.definition), "key": live.definition.key(),
                "judged": None if judged is None else _judged(judged)}

    def moves(self, live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
        """Every action of the game so far in a line, as ``seat`` saw it (everything, once the game is over or for an
        uploaded record, or with ``seat`` None): the replay's list of moves, ``step`` being the position after the
        action."""
        public = _replay_perspective(live, seat)
        perspective = None if public else seat
        return [{"step": number + 1, "line": (log[perspective] or [""])[0]} for number, log in enumerate(live.logs)]

    def record(self, live: LiveGame) -> dict[str, Any]:
        """The game's record (it names the seed, so every hidden tile: only once the game is over)."""
        if not live.state.is_over and not live.imported:
            raise HostError(409, "the record shows every hidden tile, so it is given once the game is over")
        return live.definition.record(live.setup, live.actions, live.state)

    def subscribe(self, live: LiveGame, seat: int) -> asyncio.Queue[int]:
        """A queue woken (with the move number) after each action, for the event stream of ``seat``."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        live.listeners.setdefault(seat, set()).add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, seat: int, queue: asyncio.Queue[int]) -> None:
        """Forget an event stream's queue."""
        live.listeners.get(seat, set()).discard(queue)


def _summary(definition: GameDefinition, final: GameState) -> dict[str, Any]:
    """What the list of finished games shows: the returns and the result in words."""
    return {"returns": list(final.returns()), "result": definition.status(final.view(0)).get("result")}


def _draw(definition: GameDefinition, state: GameState, view: Mapping[str, Any], last: Move | None,
          preferred: Move | None) -> str:
    """The board, with the move the analysis preferred marked when there is one (a definition drawing none may
    leave out ``render``'s ``preferred``)."""
    if preferred is None:
        return definition.render(state, view, last)
    return definition.render(state, view, last, preferred=preferred)


def _judged(judged: Judged) -> dict[str, Any]:
    """What a replay frame says of the move that led to it, once the game has been analysed."""
    decision = judged.decision
    return {"number": decision.number, "seat": decision.seat, "grade": decision.grade, "loss": decision.loss,
            "played": judged.played, "preferred": judged.preferred,
            "chance_before": None if decision.preferred is None else decision.preferred.chances[decision.seat],
            "chance_after": None if decision.after is None else decision.after.chances[decision.seat]}


def _analysis_bot(definition: GameDefinition) -> str:
    """A definition's search for analyses and hints (``hard`` where it names none)."""
    bot = getattr(definition, "analysis_bot", None)  # a definition written before analyses may not say
    return bot if isinstance(bot, str) and bot else "hard"


def _not_an_action(move: Any) -> str | None:
    """Why a bot's answer is not an action at all (a tuple of whole numbers), or None."""
    if isinstance(move, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in move):
        return None
    return "an action is a tuple of whole numbers"


class _SearchSlots:
    """At most ``limits.workers`` searches at once, and ``limits.client_share`` for one client's games."""

    def __init__(self, limits: SearchLimits) -> None:
        self._limits = limits
        self._all = asyncio.Semaphore(limits.workers)
        self._clients: dict[str, asyncio.Semaphore] = {}
        self._waiting: Counter[str] = Counter()
        """Searches of each client running or waiting (its semaphore is forgotten when none is)."""

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Wait for a slot of ``client``'s share, then one of the server's, and hold both."""
        share = self._clients.setdefault(client, asyncio.Semaphore(self._limits.client_share))
        self._waiting[client] += 1
        try:
            async with share, self._all:
                yield
        finally:
            self._waiting[client] -= 1
            if not self._waiting[client]:
                del self._waiting[client]
                del self._clients[client]


def _replay_perspective(live: LiveGame, seat: Any) -> bool:
    """Check a replay's ``seat`` (a seat's number, or None: all hands open, only once the game is public); whether
    the game is public (over, or an uploaded record)."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < live.state.players):
        raise HostError(400, f"seat must be a whole number from 0 to {live.state.players - 1}, not {seat!r}")
    public = live.state.is_over or live.imported
    if seat is None and not public:
        raise HostError(403, "all hands open is shown once the game is over")
    return public
