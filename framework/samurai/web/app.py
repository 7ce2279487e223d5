"""The Starlette application: the page, the JSON HTTP API (docs/http-api.md) and the event stream.

No request reaches the file system by a path it names: the page's files are
read from the package once, at start-up, and served by name from memory;
editions are chosen by key among those the server offers; records come in
as request bodies. Bodies are limited in size (``MAX_BODY``); seat tokens
travel in an ``Authorization: Bearer`` header (or ``?token=`` for the event
stream, which browsers open without headers).

Every refusal is short JSON, ``{"error": ...}`` with the security headers:
a body that is not plain JSON (too deep, a number too long, NaN) is a 400,
an unknown address a 404, a wrong method a 405, a body too large a 413 and
a fault of the server a 500; every message is cut to ``MAX_ERROR``
characters, so an answer never echoes a large input whole.

**Cross-site requests.** Every request must name in its ``Host`` a host this
server serves (``HostCheck``; else 403 before any route is reached): a page
of another site whose name was pointed at this machine (DNS rebinding) can
read nothing, not even the list of finished games and their seeds. Starting
a game and opening a record change the store without a token, so another web
site's page must not be able to do it through a visitor's browser either:
they need ``Content-Type: application/json`` (which a page of another site
cannot send without the browser asking first) and an ``Origin`` (when sent)
naming this server; see ``RequestChecks``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

import attrs
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..data import rules_pages
from ..errors import one_line
from .games import GameDefinition, rules_url
from .host import GAMES_PER_MINUTE, GameHost, HostError, LiveGame, SearchLimits
from .store import Store

__all__ = ["create_app", "MAX_BODY", "MAX_DEPTH", "MAX_ERROR", "BodyLimit", "HostCheck", "RequestChecks"]

MAX_BODY = 1 << 20
"""The largest request body accepted, in bytes (a long game's record is some tens of kilobytes)."""

MAX_DEPTH = 32
"""How deeply a request body may nest arrays and objects (a game's record nests six levels at most)."""

MAX_ERROR = 300
"""The longest error message an answer carries, in characters; the rest is cut (a message quoting a large
input would otherwise echo it whole)."""

_STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
_SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                     "X-Frame-Options": "DENY",
                     "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' "
                                                "'unsafe-inline'; frame-ancestors 'none'"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package: name -> (bytes, content type)."""
    folder = resources.files("samurai.web") / "static"
    files = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in _STATIC_TYPES:
            files[entry.name] = (entry.read_bytes(), _STATIC_TYPES[suffix])
    return files


class BodyLimit:
    """ASGI middleware refusing a request body over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(self.limit, send)


class _TooLarge(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    await _refuse(413, f"the request body is larger than {limit} bytes", send)


async def _refuse(status: int, message: str, send: Send) -> None:
    """Answer from a middleware as every refusal is answered: JSON with the security headers."""
    response = _error(status, message)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


class HostCheck:
    """ASGI middleware refusing (403) every request whose ``Host`` header names no host this server serves
    (``RequestChecks.check_host``), whatever it asks for: pages, API, event streams, records, replays, files."""

    def __init__(self, app: ASGIApp, checks: RequestChecks) -> None:
        self.app = app
        self.checks = checks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":  # the app has no websocket route; "lifespan" names no host
            try:
                self.checks.check_host(Headers(scope=scope).get("host", ""))
            except HostError as refused:
                await _refuse(refused.status, refused.message, send)
                return
        await self.app(scope, receive, send)


@attrs.frozen
class RequestChecks:
    """What every request must show to be answered (its ``Host``: ``check_host``, 403) and what a request that
    starts a game or opens a record must show besides (``check``: 415 or 403).

    ``hosts``: the host names (no port) the ``Host`` header may give; None accepts any (``samurai serve``
    always gives the address it listens on). A server listening on every address (``0.0.0.0``, ``::``)
    takes any IP address as Host, never another name unless listed: a name can be pointed at this machine
    by someone else's DNS (rebinding), an address typed by the visitor cannot. ``origins``: the pages of
    other addresses (``https://games.example.org``, a reverse proxy's) whose requests are taken too; their
    host names are accepted as Host. An ``Origin`` naming the request's own ``Host`` is always taken.
    """

    hosts: frozenset[str] | None = None
    origins: frozenset[str] = frozenset()
    any_address: bool = False
    """Whether any IP address is a served host name (the server listens on every address)."""

    @classmethod
    def served(cls, listen: str, *, allowed_hosts: Sequence[str] = (),
               allowed_origins: Sequence[str] = ()) -> RequestChecks:
        """The checks of a server listening on ``listen``, with the extra host names and origins allowed."""
        origins = frozenset(_origin(url) for url in allowed_origins)
        hosts = {listen.strip("[]").lower(), *(h.lower() for h in allowed_hosts)}
        hosts |= {urlsplit(origin).hostname or "" for origin in origins}
        wildcard = listen in ("0.0.0.0", "::", "")
        if wildcard or _is_loopback(listen):
            hosts |= {"localhost", "127.0.0.1", "::1"}
        return cls(frozenset(hosts - {""}), origins, wildcard)

    def check_host(self, host: str) -> None:
        """Refuse (403) a request whose ``Host`` header, ``host``, names no host this server serves."""
        name = _host_name(host)
        if self.hosts is not None and name not in self.hosts and not (self.any_address and _is_address(name)):
            raise HostError(403, f"Host {host[:100]!r} is not an address this server serves (samurai serve "
                                 f"--allowed-host NAME adds one)")

    def check(self, request: Request) -> None:
        """Refuse (415, 403) a request that changes the store without a token if another site's page could have
        sent it (its ``Host`` was checked already, as every request's is, by ``HostCheck``)."""
        kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise HostError(415, "this needs a JSON body sent as Content-Type: application/json")
        host = request.headers.get("host", "")
        origin = request.headers.get("origin")
        if origin is None:
            return  # not sent by a browser's cross-site request (they always send it on a POST)
        try:
            seen = _origin(origin)
        except ValueError:
            seen = ""  # "null" (a sandboxed or local page) or nonsense: from no page of this server
        if not seen or (seen.split("://", 1)[1] != host.strip().lower() and seen not in self.origins):
            raise HostError(403, f"a request from the page at {origin[:100]!r} is refused: it is not this server's "
                                 f"(samurai serve --allowed-origin URL allows one)")


def _origin(url: str) -> str:
    """``url`` as an Origin header gives it: scheme://host[:port], lower case, no path; ValueError if it is none."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"an origin is http://HOST[:PORT] or https://HOST[:PORT], not {url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def _host_name(host: str) -> str:
    """The name of a Host header without its port (``[::1]:8000`` -> ``::1``), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_address(name: str) -> bool:
    try:
        ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    name = name.strip("[]").lower()
    return name == "localhost" or (_is_address(name) and ip_address(name).is_loopback)


def create_app(definitions: Sequence[GameDefinition], data_dir: str, *, bot_delay: float = 0.0,
               max_body: int = MAX_BODY, limits: SearchLimits | None = None,
               games_per_minute: int = GAMES_PER_MINUTE, checks: RequestChecks | None = None,
               analysis_bot: str | None = None) -> Starlette:
    """The web application for ``definitions``, keeping games in ``data_dir`` (see ``samurai.web.store``).

    ``bot_delay`` (seconds) paces the bots so a person sees their moves one by one. ``limits`` bounds the
    bots' searches (``SearchLimits``), ``games_per_minute`` the games one client address may start a minute,
    ``checks`` every request's ``Host`` and the requests that start a game or open a record (``RequestChecks``;
    default: any Host).
    """
    store = Store(data_dir)
    host = GameHost(definitions, store, bot_delay=bot_delay, limits=limits, games_per_minute=games_per_minute,
                    analysis_bot=analysis_bot)
    request_checks = checks or RequestChecks()
    static = _static_files()
    rules = rules_pages()
    # The pages event streams send, rendered off the event loop, one at a time per seat and update.
    renders = ThreadPoolExecutor(max_workers=2, thread_name_prefix="samurai-render")
    rendered: dict[tuple[str, int], tuple[tuple[int, str | None], asyncio.Future[str]]] = {}

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        host.resume_all()  # every unfinished game rebuilt, bots to act carry on; each one that cannot be is logged
        try:
            yield
        finally:
            host.stop_bots()
            store.close()
            renders.shutdown(wait=False, cancel_futures=True)

    def page(_: Request) -> Response:
        body, kind = static["index.html"]
        return Response(body, media_type=kind, headers=_SECURITY_HEADERS)

    def static_file(request: Request) -> Response:
        found = static.get(request.path_params["name"])
        if found is None:
            return _error(404, "no such file")
        return Response(found[0], media_type=found[1], headers={**_SECURITY_HEADERS, "Cache-Control": "no-cache"})

    def catalog(_: Request) -> Response:
        return _json({"games": [{"game": d.name, "title": d.title, "bots": list(d.bots()), "rules": rules_url(d),
                                 "editions": [e.to_dict() for e in d.editions()]}
                                for d in host.definitions.values()]})

    def rules_file(request: Request) -> Response:
        """A game's rules page (Markdown) or one of its pictures: only the shipped files, by name."""
        name = request.path_params["name"]
        found = rules.get(name)
        if found is None:
            return _error(404, "no such rules page")
        kind = "image/svg+xml" if name.endswith(".svg") else "text/markdown; charset=utf-8"
        return Response(found, media_type=kind, headers={**_SECURITY_HEADERS, "Cache-Control": "no-cache"})

    def rules_picture(request: Request) -> Response:
        request.path_params["name"] = f"pictures/{request.path_params['picture']}"
        return rules_file(request)

    async def create(request: Request) -> Response:
        request_checks.check(request)
        live, seats = host.create(await _body(request), _client(request))
        for seat in seats:
            if seat["token"]:
                seat["link"] = f"/play/{live.id}#token={seat['token']}"
        # With two people or more, the creator is a player like the others: the seed (every hidden draw) is
        # theirs only once the game is over, in its record.
        seed = None if live.seed_secret else live.setup.seed
        return _json({"game": live.id, "seed": seed, "seats": seats}, status=201)

    def games(_: Request) -> Response:
        return _json({"games": store.summaries()})

    def game_state(request: Request) -> Response:
        live, seat = _seat(request)
        return _json(host.state(live, seat))

    def game_page(request: Request) -> Response:
        live, seat = _seat(request)
        return _json(host.seat_payload(live, seat))

    async def act(request: Request) -> Response:
        live, seat = _seat(request)
        body = await _body(request)
        if not isinstance(body, dict) or set(body) - {"move_number", "action"} or "action" not in body:
            raise HostError(400, 'the body must be {"move_number": N, "action": [...]}')
        await host.act(live, seat, body.get("move_number"), body["action"])
        return _json(host.state(live, seat))

    def page_event(live: LiveGame, seat: int) -> asyncio.Future[str]:
        """The page of ``seat`` at the game's position, as event data: rendered once (in ``renders``, from a
        copy of the position) and shared by every stream of that seat."""
        key, number = (live.id, seat), _page_version(live)
        cached = rendered.get(key)
        if cached is not None and cached[0] == number:
            return cached[1]
        snapshot = attrs.evolve(live, state=live.state.copy(), actions=list(live.actions), logs=list(live.logs))
        future = asyncio.get_running_loop().run_in_executor(
            renders, lambda: json.dumps(host.seat_payload(snapshot, seat)))

        def forget_failure(done: asyncio.Future[str]) -> None:
            if (done.cancelled() or done.exception() is not None) and rendered.get(key, ((0, None), None))[1] is done:
                del rendered[key]  # the next update renders again rather than repeat a failure

        future.add_done_callback(forget_failure)
        rendered[key] = (number, future)
        return future

    async def events(request: Request) -> Response:
        live, seat = _seat(request)
        queue = host.subscribe(live, seat)

        async def stream() -> AsyncIterator[dict[str, str]]:
            try:
                sent: tuple[int, str | None] | None = None
                while True:
                    if _page_version(live) != sent:
                        sent = _page_version(live)
                        # Shielded: a stream that closes must not cancel the render other streams wait for.
                        data = await asyncio.shield(page_event(live, seat))
                        yield {"event": "update", "id": str(sent[0]), "data": data}
                    await queue.get()
            finally:
                host.unsubscribe(live, seat, queue)
                if not live.listeners.get(seat):
                    rendered.pop((live.id, seat), None)

        return EventSourceResponse(stream(), ping=15, headers=_SECURITY_HEADERS)

    def replay_seat(request: Request, live: LiveGame) -> int | None:
        """The seat a replay shows: any once the game is over (or uploaded), and ``seat=all`` (None: all hands
        open) too; else the token's own only."""
        if live.state.is_over or live.imported:
            return None if request.query_params.get("seat") == "all" else _int_param(request, "seat", 0)
        if request.query_params.get("seat") == "all":
            raise HostError(403, "all hands open is shown once the game is over")
        seat = live.seat_of(_token(request))  # a game still being played: only a seat's own view, for its token
        if _int_param(request, "seat", seat) != seat:
            raise HostError(403, "while the game goes on, a token replays its own seat's view only")
        return seat

    def replay(request: Request) -> Response:
        live = host.game(request.path_params["game"])
        step = _int_param(request, "step", len(live.actions))
        return _json(host.replay_frame(live, step, replay_seat(request, live)))

    def moves(request: Request) -> Response:
        live = host.game(request.path_params["game"])
        return _json({"moves": host.moves(live, replay_seat(request, live))})

    def record(request: Request) -> Response:
        live = host.game(request.path_params["game"])
        data = host.record(live)
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json", headers={
            **_SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="samurai-{live.id}.json"'})

    async def start_analysis(request: Request) -> Response:
        request_checks.check(request)  # work for the server's workers: only from this server's page or a program
        live = host.game(request.path_params["game"])
        answer = host.start_analysis(live)
        return _json(answer, status=200 if answer["state"] == "done" else 202)

    def analysis(request: Request) -> Response:
        return _json(host.analysis(host.game(request.path_params["game"])))

    async def hint(request: Request) -> Response:
        live, seat = _seat(request)
        return _json(await host.hint(live, seat))

    async def import_record(request: Request) -> Response:
        request_checks.check(request)
        live = host.import_record(await _body(request), request.query_params.get("game"))
        return _json({"game": live.id, "steps": len(live.actions)}, status=201)

    def _seat(request: Request) -> tuple[LiveGame, int]:
        live = host.game(request.path_params["game"])
        return live, live.seat_of(_token(request))

    routes = [
        Route("/", page), Route("/play/{game}", page), Route("/replay/{game}", page),
        Route("/static/{name}", static_file),
        Route("/rules/{name}", rules_file), Route("/rules/pictures/{picture}", rules_picture),
        Route("/api/catalog", catalog),
        Route("/api/games", create, methods=["POST"]), Route("/api/games", games),
        Route("/api/games/{game}", game_state), Route("/api/games/{game}/page", game_page),
        Route("/api/games/{game}/actions", act, methods=["POST"]),
        Route("/api/games/{game}/events", events), Route("/api/games/{game}/replay", replay),
        Route("/api/games/{game}/moves", moves),
        Route("/api/games/{game}/analysis", start_analysis, methods=["POST"]),
        Route("/api/games/{game}/analysis", analysis), Route("/api/games/{game}/hint", hint, methods=["POST"]),
        Route("/api/games/{game}/record", record), Route("/api/records", import_record, methods=["POST"]),
    ]
    app = Starlette(routes=[Route(r.path, _guarded(r.endpoint), methods=r.methods) for r in routes],
                    lifespan=lifespan, exception_handlers={HTTPException: _http_error, Exception: _server_error})
    app.state.host = host
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(HostCheck, checks=request_checks)  # added last, so it runs first: a foreign Host gets nothing
    return app


def _page_version(live: LiveGame) -> tuple[int, str | None]:
    """What a seat's page shows changes with: the position (its move number) and a bot's failure."""
    return live.state.move_number, live.bot_error


def _guarded(endpoint: Callable[[Request], Any]) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint with the host's refusals turned into JSON errors."""
    async def run(request: Request) -> Response:
        try:
            result = endpoint(request)
            if asyncio.iscoroutine(result):
                result = await result
            assert isinstance(result, Response)
            return result
        except HostError as exc:
            response = _error(exc.status, exc.message)
            response.headers.update(exc.headers)
            return response
    return run


def _client(request: Request) -> str:
    """The client's address (behind a reverse proxy on this machine, uvicorn takes it from X-Forwarded-For)."""
    return request.client.host if request.client else ""


def _json(data: Any, status: int = 200) -> Response:
    return JSONResponse(data, status_code=status, headers={**_SECURITY_HEADERS, "Cache-Control": "no-store"})


def _error(status: int, message: str) -> Response:
    """A refusal: ``{"error": message}``, the message on one line and cut to ``MAX_ERROR`` characters."""
    text = one_line(message)
    return _json({"error": text if len(text) <= MAX_ERROR else text[:MAX_ERROR - 1] + "…"}, status)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method the route does not take) as JSON errors."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    if exc.status_code == 404:
        message = f"nothing is served at {request.url.path}"
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed at {request.url.path}; allowed: {headers.get('Allow', 'none')}"
    else:
        message = str(exc.detail)
    response = _error(exc.status_code, message)
    response.headers.update(headers)  # Allow, for a 405
    return response


async def _server_error(_: Request, exc: Exception) -> Response:
    """A fault of the server: a short JSON 500 (the traceback goes to the server's log, not to the client)."""
    return _error(500, f"the server failed on this request ({type(exc).__name__}); its log says more")


class _NotFinite(ValueError):
    pass


def _not_finite(text: str) -> float:
    raise _NotFinite(text)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(text)
    return value


def _too_deep(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and dicts more than ``limit`` levels (walked without recursion)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, list | dict):
            if depth > limit:
                return True
            pending.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return False


async def _body(request: Request) -> Any:
    """The request's body as JSON; 400 for any other body: not JSON, not UTF-8, NaN or Infinity (which JSON
    has no number for), a whole number longer than Python reads (4,300 digits), nesting deeper than
    ``MAX_DEPTH``."""
    raw = await request.body()
    try:
        data = json.loads(raw, parse_constant=_not_finite, parse_float=_finite)
    except _NotFinite as exc:
        raise HostError(400, f"the body has the number {exc}, which is not a finite number") from None
    except RecursionError:
        raise HostError(400, f"the body nests arrays and objects too deeply (at most {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise HostError(400, f"the body is not valid JSON: {exc}") from None
    except UnicodeDecodeError:
        raise HostError(400, "the body is not valid JSON: it is not UTF-8 text") from None
    except ValueError:  # the only other one json raises: an integer with more digits than Python converts
        raise HostError(400, "the body has a whole number that is too long (more than 4300 digits)") from None
    if _too_deep(data, MAX_DEPTH):
        raise HostError(400, f"the body nests arrays and objects too deeply (at most {MAX_DEPTH} levels)")
    return data


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.query_params.get("token")


def _int_param(request: Request, name: str, default: int) -> int:
    value = request.query_params.get(name)
    if value in (None, ""):
        return default
    assert value is not None
    try:
        return int(value)
    except ValueError:
        raise HostError(400, f"{name} must be a whole number, not {value!r}") from None
