"""The games a server is running: start, act, bots, what each seat is sent, and replays.

``GameHost`` owns the live games. Every action goes through one lock per
game and is committed to the store before it changes the position, so two
browsers on two seats and the bots moving in between are served one at a
time, and an acknowledged action is never lost. Bots move in a background
task after a person's move, each from its seat's knowledge only.

Everything a seat is sent (``seat_payload``, ``state``, ``replay_frame``) is
made from that seat's view (``GameState.view``); the whole position is only
shown once a game is over or for a record a person uploaded.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ..errors import DataError, SamuraiError, one_line
from ..protocol import GameState, Move
from .games import GameDefinition, GameSetup
from .store import SeatSpec, Store, StoredGame

__all__ = ["GameHost", "LiveGame", "HostError", "digest"]

LOG_LINES = 400
"""How many of the latest log entries a seat's page receives."""


class HostError(Exception):
    """A request the host refuses: an HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    listeners: dict[int | None, set[asyncio.Queue[int]]] = attrs.field(factory=dict)
    bot_task: asyncio.Task[None] | None = None

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

    def position(self, step: int) -> GameState:
        """The position after the first ``step`` actions."""
        state = self.start.copy()
        for action in self.actions[:step]:
            state.apply(action)
        return state


class GameHost:
    """The live games of a server, kept in ``store``."""

    def __init__(self, definitions: Sequence[GameDefinition], store: Store, *, bot_delay: float = 0.0) -> None:
        if not definitions:
            raise ValueError("a host needs at least one game definition")
        self.definitions = {d.name: d for d in definitions}
        self.store = store
        self.bot_delay = bot_delay
        self._games: dict[str, LiveGame] = {}
        self._unresumable: dict[str, str] = {}
        """Stored games that cannot be resumed, with why: refused (503) without reading them again."""

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
                        imported=stored.imported is not None)
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

    def create(self, request: Any) -> tuple[LiveGame, list[dict[str, Any]]]:
        """Start a game from a request body; returns it and each seat's kind, bot and (people) token."""
        if not isinstance(request, Mapping):
            raise HostError(400, "the body must be a JSON object")
        unknown = set(request) - {"game", "edition", "seats", "seed", "options"}
        if unknown:
            raise HostError(400, f"unknown field {sorted(unknown)[0]!r}; fields: game, edition, seats, seed, options")
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
            seed = secrets.randbelow(2**31)
        options = request.get("options") or {}
        if not isinstance(options, Mapping):
            raise HostError(400, "options must be a JSON object of option names and values")
        edition = request.get("edition")
        if not isinstance(edition, str):
            raise HostError(400, "edition must be the key of an edition listed by /api/catalog")
        setup = GameSetup(definition.name, edition, len(seats_field), seed, dict(options))
        try:
            start = definition.start(setup)
        except (DataError, ValueError, TypeError) as exc:
            raise HostError(400, str(exc)) from None
        tokens = [secrets.token_urlsafe(24) if kind == "human" else None for kind in seats_field]
        specs = tuple(SeatSpec("human", None, digest(t)) if t else SeatSpec("bot", kind, None)
                      for kind, t in zip(seats_field, tokens, strict=True))
        game_id = secrets.token_urlsafe(9)
        self.store.create(game_id, setup, specs)
        live = LiveGame(game_id, definition, setup, specs, start, start.copy(), [], [])
        self._games[game_id] = live
        self.wake_bots(live)
        return live, [{"seat": n, "kind": s.kind, "bot": s.bot, "token": t} for n, (s, t) in
                      enumerate(zip(specs, tokens, strict=True))]

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
                        imported=True)
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
        async with live.lock:
            state = live.state
            if state.is_over:
                raise HostError(409, "the game is over")
            if move_number != state.move_number:
                raise HostError(409, f"the position has moved on: it is at move {state.move_number}, not "
                                     f"{move_number}; read the game again")
            if state.to_act != seat:
                raise HostError(409, f"it is seat {state.to_act}'s turn, not seat {seat}'s")
            reason = state.check(move)
            if reason is not None:
                raise HostError(400, f"illegal action {list(move)}: {reason}")
            await self._commit(live, move)
        self.wake_bots(live)

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
        for queues in live.listeners.values():
            for queue in queues:
                if queue.empty():
                    queue.put_nowait(live.state.move_number)

    def wake_bots(self, live: LiveGame) -> None:
        """Let the bots play while one of them is to act (in a background task of the running loop)."""
        if live.imported or live.state.is_over:
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
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with live.lock:
                state = live.state
                seat = state.to_act
                if state.is_over or seat is None or live.seats[seat].kind != "bot":
                    return
                bot = live.seats[seat].bot
                assert bot is not None
                # Each move's generator comes from the game's seed, the seat and the move number, so a
                # restarted server's bots play exactly as they would have.
                rng = random.Random(f"{live.setup.seed}:{seat}:{state.move_number}")
                move = await asyncio.to_thread(live.definition.bot_action, state.copy(), seat, bot, rng)
                reason = state.check(move)
                if reason is not None:
                    raise RuntimeError(f"bot {bot} chose an illegal action {list(move)}: {reason}")
                await self._commit(live, move)

    def stop_bots(self) -> None:
        """Cancel the bots' tasks (the server is stopping; a bot's move is either committed or not made)."""
        for live in self._games.values():
            if live.bot_task is not None:
                live.bot_task.cancel()

    async def wait_for_bots(self) -> None:
        """Until every game's bots have moved as far as they can (for tests and a clean shutdown)."""
        while True:
            tasks = [g.bot_task for g in self._games.values() if g.bot_task is not None and not g.bot_task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks)

    # --- what a seat is sent -----------------------------------------------------------------

    def seats_info(self, live: LiveGame, seat: int | None) -> list[dict[str, Any]]:
        """Who plays each seat (and which one is the reader's)."""
        return [{"seat": n, "kind": s.kind, "bot": s.bot, "you": n == seat} for n, s in enumerate(live.seats)]

    def state(self, live: LiveGame, seat: int) -> dict[str, Any]:
        """The JSON API's answer: the seat's view and, when it is to act, its legal actions."""
        state = live.state
        legal = state.legal_actions() if state.to_act == seat else []
        return {"game": live.id, "seat": seat, "move_number": state.move_number, "to_act": state.to_act,
                "over": state.is_over, "seats": self.seats_info(live, seat), "view": state.view(seat),
                "legal_actions": [{"action": list(a), "describe": state.describe(a)} for a in legal],
                "returns": list(state.returns()) if state.is_over else None}

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
                "log": entries}

    def replay_frame(self, live: LiveGame, step: Any, seat: int) -> dict[str, Any]:
        """The position after ``step`` actions as ``seat`` saw it. The log lines tell what the seat saw, or
        everything once the game is over (or for a record a person uploaded)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(live.actions):
            raise HostError(400, f"step must be a whole number from 0 to {len(live.actions)}, not {step!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < live.state.players:
            raise HostError(400, f"seat must be a whole number from 0 to {live.state.players - 1}, not {seat!r}")
        public = live.state.is_over or live.imported
        state = live.position(step)
        view = state.view(seat)
        last = live.actions[step - 1] if step else None
        return {"game": live.id, "step": step, "steps": len(live.actions), "seat": seat, "public": public,
                "seats": self.seats_info(live, None if public else seat), "over": live.state.is_over,
                "svg": live.definition.render(state, view, last), "status": live.definition.status(view),
                "lines": live.logs[step - 1][None if public else seat] if step else []}

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
