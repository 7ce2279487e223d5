"""Trust in ``samurai serve`` (issue 20 points 1 and 2): seeds nobody at a table of people can learn or choose,
bots that cannot stall the server or fail silently, and no game started by another site's page.

The live tests run a real ``samurai serve`` on 127.0.0.1 (``webhelpers.Server``); every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import samurai
from samurai.cli import main
from samurai.protocol import GameState, Move
from samurai.web.app import RequestChecks, create_app
from samurai.web.host import SearchLimits, draw_seed
from samurai_plugins.knizia.adapters.web import SamuraiDefinition
from samurai_plugins.knizia.play.game import MAX_SEED

from webhelpers import InProcessServer, Server, next_update

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEFINITION = SamuraiDefinition()
JSON = {"Content-Type": "application/json"}
SERVED = "http://127.0.0.1:8000"
"""The address the TestClient's requests name (Host 127.0.0.1:8000), as a server listening there would see."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app([DEFINITION], str(tmp_path), checks=RequestChecks.served("127.0.0.1")),
                    base_url=SERVED) as test_client:
        yield test_client


def refusal(response: httpx.Response, status: int, words: str) -> str:
    """The one line of a refusal, checked: its status, JSON body and words."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert isinstance(error, str) and "\n" not in error and words in error, error
    return error


# --- seeds -------------------------------------------------------------------------------------------------

def test_a_seed_outside_the_engines_range_is_refused_naming_the_seed(client: TestClient) -> None:
    one_person = {"edition": "ffg2015", "seats": ["human", "greedy"]}
    for seed, words in ((2**63, "seed must be a whole number from 0 to 2**63-1, not 9223372036854775808"),
                        (-1, "seed must be a whole number from 0 to 2**63-1, not -1"),
                        (True, "seed must be a whole number, not bool True"),
                        ("7", "seed must be a whole number, not str '7'"),
                        (7.0, "seed must be a whole number, not float 7.0")):
        refusal(client.post("/api/games", json={**one_person, "seed": seed}), 400, words)
    created = client.post("/api/games", json={**one_person, "seed": MAX_SEED})
    assert created.status_code == 201 and created.json()["seed"] == MAX_SEED == 2**63 - 1
    assert client.get("/api/games").json()["games"] == []  # nothing refused was kept


def test_a_chosen_seed_is_refused_when_more_than_one_person_plays(client: TestClient) -> None:
    for seats in (["human", "human"], ["human", "greedy", "human"]):
        refusal(client.post("/api/games", json={"edition": "ffg2015", "seats": seats, "seed": 7}), 400,
                "a chosen seed is allowed only with one person at the table")
    assert client.post("/api/games", json={"edition": "ffg2015", "seats": ["greedy", "human"],
                                           "seed": 7}).status_code == 201
    assert client.post("/api/games", json={"edition": "ffg2015", "seats": ["greedy", "random"],
                                           "seed": 7}).status_code == 201


def test_options_must_be_a_json_object_when_given(client: TestClient) -> None:
    for options in ([], "", 0, False, [["nobori", True]]):
        refusal(client.post("/api/games", json={"edition": "ffg2015", "seats": ["human", "greedy"],
                                                "options": options}), 400, "options must be a JSON object")
    assert client.post("/api/games", json={"edition": "ffg2015", "seats": ["human", "greedy"],
                                           "options": {}}).status_code == 201


def test_the_server_draws_63_bit_seeds_from_secrets() -> None:
    asked = []

    def randbits(bits: int) -> int:
        asked.append(bits)
        return (1 << bits) - 1

    with mock.patch("samurai.web.host.secrets.randbits", side_effect=randbits):
        assert draw_seed() == MAX_SEED
    assert asked == [63]
    seeds = {draw_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= s <= MAX_SEED for s in seeds)
    assert any(s >= 2**40 for s in seeds)  # not a 31-bit seed: 20 draws below 2**40 would be a 2**-460 chance


def test_samurai_new_game_and_the_command_line_refuse_a_seed_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (2**63, -1, True):
        with pytest.raises(samurai.DataError, match=r"^seed: seed must be a whole number") as caught:
            samurai.new_game("ffg2015", players=2, seed=seed)
        assert "\n" not in str(caught.value)
    for text in (str(2**63), "-1"):
        with pytest.raises(SystemExit) as stopped:
            main(["simulate", "--games", "1", "--seed", text])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert "argument --seed: must be" in err and err.count("\n") == 1, err


def _create_with_seed(client: TestClient, seats: list[str], seed: int) -> dict[str, Any]:
    """A game of people whose secret seed (the server's own draw) the test made ``seed``."""
    with mock.patch("samurai.web.host.draw_seed", return_value=seed):
        created = client.post("/api/games", json={"edition": "ffg2015", "seats": seats})
    assert created.status_code == 201, created.text
    return created.json()  # type: ignore[no-any-return]


def _without(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def test_two_games_differing_only_in_their_secret_seeds_look_the_same_to_a_seat_but_for_its_own_tiles(
        client: TestClient) -> None:
    seeds = (0x5DEE_CE66_D123_4567, 0x6A09_E667_F3BC_C908)
    games = [_create_with_seed(client, ["human", "human"], seed) for seed in seeds]
    assert [g["seed"] for g in games] == [None, None]  # the creator is one of the people: not told
    tokens = [[s["token"] for s in g["seats"]] for g in games]
    rng = random.Random(4)
    drawn = False
    for _ in range(40):  # the same actions in both games: the same visible history
        states = [client.get(f"/api/games/{g['game']}", headers=bearer(t[0])).json()
                  for g, t in zip(games, tokens, strict=True)]
        seat = states[0]["to_act"]
        assert seat == states[1]["to_act"] is not None
        legal = [{tuple(a["action"]) for a in client.get(f"/api/games/{g['game']}", headers=bearer(t[seat])).json()[
            "legal_actions"]} for g, t in zip(games, tokens, strict=True)]
        both = sorted(legal[0] & legal[1])
        if not both:
            break
        action = list(rng.choice(both))
        for game, token in zip(games, tokens, strict=True):
            assert client.post(f"/api/games/{game['game']}/actions", headers=bearer(token[seat]),
                               json={"move_number": states[0]["move_number"], "action": action}).status_code == 200
        views = [client.get(f"/api/games/{g['game']}", headers=bearer(t[0])).json()["view"]
                 for g, t in zip(games, tokens, strict=True)]
        drawn = drawn or views[0]["hand"] != views[1]["hand"]
    assert drawn, "the two seeds never dealt the seats different tiles"
    for seat in (0, 1):
        state = [client.get(f"/api/games/{g['game']}", headers=bearer(t[seat])).json()
                 for g, t in zip(games, tokens, strict=True)]
        # All a seat sees of the seed is its own draws: its hand, so what it may play.
        assert _without(state[0], "game", "view", "legal_actions") == _without(state[1], "game", "view",
                                                                                "legal_actions")
        assert _without(state[0]["view"], "hand") == _without(state[1]["view"], "hand")
        page = [client.get(f"/api/games/{g['game']}/page", headers=bearer(t[seat])).json()
                for g, t in zip(games, tokens, strict=True)]
        assert _without(page[0], "game", "svg", "controls", "log") == _without(page[1], "game", "svg", "controls",
                                                                              "log")
        others = [[line for entry in p["log"] for line in entry["lines"] if not line.startswith("You ")]
                  for p in page]
        assert others[0] == others[1]
        for game, token in zip(games, tokens, strict=True):
            text = json.dumps([client.get(f"/api/games/{game['game']}/{path}", headers=bearer(token[seat])).json()
                               for path in ("", "page", "replay")])
            assert all(str(seed) not in text and f"{seed:x}" not in text.lower() for seed in seeds)
    for game, seed in zip(games, seeds, strict=True):  # once over, the record names the seed
        final = _play_to_the_end(client, game["game"], tokens[games.index(game)])
        assert final["over"]
        assert client.get(f"/api/games/{game['game']}/record").json()["seed"] == seed


def _play_to_the_end(client: TestClient, game: str, tokens: Sequence[str]) -> dict[str, Any]:
    rng = random.Random(9)
    for _ in range(2000):
        state = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
        if state["over"]:
            return state  # type: ignore[no-any-return]
        mine = client.get(f"/api/games/{game}", headers=bearer(tokens[state["to_act"]])).json()
        action = rng.choice(mine["legal_actions"])["action"]
        assert client.post(f"/api/games/{game}/actions", headers=bearer(tokens[state["to_act"]]),
                           json={"move_number": state["move_number"], "action": action}).status_code == 200
    raise AssertionError("the game did not end in 2000 actions")


def test_no_answer_event_or_header_a_seat_gets_tells_the_seed_before_the_end(tmp_path: Path) -> None:
    server = Server(tmp_path)
    seen: list[str] = []

    def keep(response: httpx.Response) -> httpx.Response:
        seen.append(response.text + json.dumps(dict(response.headers)))
        return response

    async def play() -> tuple[str, int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            created = keep(await client.post("/api/games", json={"edition": "ffg2015", "seats": ["human", "human"]}))
            assert created.json()["seed"] is None
            game, tokens = created.json()["game"], [s["token"] for s in created.json()["seats"]]

            async def listen(token: str) -> None:
                async with client.stream("GET", f"/api/games/{game}/events?token={token}") as stream:
                    seen.append(json.dumps(dict(stream.headers)))
                    async for line in stream.aiter_lines():
                        seen.append(line)
                        if line.startswith("data:") and json.loads(line[5:])["over"]:
                            return

            async def seat(number: int) -> None:
                rng = random.Random(number)
                while True:
                    state = keep(await client.get(f"/api/games/{game}", headers=bearer(tokens[number]))).json()
                    if state["over"]:
                        return
                    if state["to_act"] != number:
                        await asyncio.sleep(0.02)
                        continue
                    # Asked only on this seat's turn, which no one else can end: before the end for certain.
                    keep(await client.get(f"/api/games/{game}/record"))  # 409 until the end
                    keep(await client.get(f"/api/games/{game}/page", headers=bearer(tokens[number])))
                    keep(await client.get(f"/api/games/{game}/replay", headers=bearer(tokens[number])))
                    keep(await client.get("/api/games"))
                    action = rng.choice(state["legal_actions"])["action"]
                    keep(await client.post(f"/api/games/{game}/actions", headers=bearer(tokens[number]),
                                           json={"move_number": state["move_number"], "action": action}))

            await asyncio.wait_for(asyncio.gather(listen(tokens[0]), listen(tokens[1]), seat(0), seat(1)), 180)
            record = (await client.get(f"/api/games/{game}/record")).json()
            return game, record["seed"]

    try:
        game, seed = asyncio.run(play())
    finally:
        server.stop()
    assert seed >= 0 and len(seen) > 100
    text = "\n".join(seen)
    assert game in text  # what was collected is this game's
    assert str(seed) not in text and f"{seed:x}" not in text.lower()


# --- cross-site requests and the rate of games ------------------------------------------------------------

def test_a_game_start_or_record_upload_from_another_site_is_refused(client: TestClient, tmp_path: Path) -> None:
    body = json.dumps({"edition": "ffg2015", "seats": ["human", "greedy"]})
    for path in ("/api/games", "/api/records"):
        refusal(client.post(path, content=body, headers={"Content-Type": "text/plain"}), 415,
                "Content-Type: application/json")
        refusal(client.post(path, content=body), 415, "Content-Type: application/json")
        refusal(client.post(path, content=body, headers={**JSON, "Origin": "http://evil.example"}), 403,
                "'http://evil.example' is refused")
        refusal(client.post(path, content=body, headers={**JSON, "Origin": "null"}), 403, "is refused")
        refusal(client.post(path, content=body, headers={**JSON, "Host": "evil.example:8000"}), 403,
                "Host 'evil.example:8000' is not an address this server serves")
        refusal(client.post(path, content=body, headers={**JSON, "Host": "evil.example:8000",
                                                         "Origin": "http://evil.example:8000"}), 403, "Host")
    assert client.get("/api/games").json()["games"] == []
    same_site = client.post("/api/games", content=body, headers={**JSON, "Origin": SERVED})
    assert same_site.status_code == 201
    assert client.post("/api/games", content=body, headers={**JSON, "Host": "localhost:8000",
                                                            "Origin": "http://localhost:8000"}).status_code == 201
    proxied = RequestChecks.served("127.0.0.1", allowed_origins=["https://games.example.org"],
                                   allowed_hosts=["samurai.lan"])
    with TestClient(create_app([DEFINITION], str(tmp_path / "proxied"), checks=proxied), base_url=SERVED) as behind:
        assert behind.post("/api/games", content=body, headers={**JSON, "Origin": "https://games.example.org"}
                           ).status_code == 201  # the proxy passes the Host it was asked for as 127.0.0.1:8000
        assert behind.post("/api/games", content=body, headers={**JSON, "Host": "games.example.org",
                                                                "Origin": "https://games.example.org"}
                           ).status_code == 201
        assert behind.post("/api/games", content=body, headers={**JSON, "Host": "samurai.lan:8000"}
                           ).status_code == 201
        assert behind.post("/api/games", content=body, headers={**JSON, "Origin": "https://evil.example.org"}
                           ).status_code == 403


def test_a_server_on_every_address_takes_an_ip_address_as_host_but_no_other_name() -> None:
    checks = RequestChecks.served("0.0.0.0")
    assert checks.any_address and {"localhost", "127.0.0.1"} <= (checks.hosts or set())
    with pytest.raises(ValueError, match="an origin is http"):
        RequestChecks.served("127.0.0.1", allowed_origins=["games.example.org"])


def test_the_games_one_address_starts_in_a_minute_are_limited(tmp_path: Path) -> None:
    with TestClient(create_app([DEFINITION], str(tmp_path), games_per_minute=3)) as limited:
        body = {"edition": "ffg2015", "seats": ["human", "human"]}
        for _ in range(3):
            assert limited.post("/api/games", json=body).status_code == 201
        refused = limited.post("/api/games", json=body)
        refusal(refused, 429, "this address started 3 games in the last minute; try again in")
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert limited.post("/api/games", json={"edition": "nope", "seats": ["human"]}).status_code == 400
        host = limited.app.state.host  # type: ignore[attr-defined]
        host.create(body, "192.0.2.7")  # another address has its own share
        assert len(host.store.ids()) == 4


def test_samurai_serve_refuses_a_bad_trust_option_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--allowed-origin", "games.example.org"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("samurai: error: --allowed-origin: ") and err.count("\n") == 1, err
    for argv in (["serve", "--bot-workers", "0"], ["serve", "--games-per-minute", "0"],
                 ["serve", "--bot-searches-per-client", "x"]):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_search_limits_give_one_client_half_the_workers_by_default() -> None:
    assert SearchLimits(8).client_share == 4
    assert SearchLimits(1).client_share == 1
    assert SearchLimits(4, 9).client_share == 4
    with pytest.raises(ValueError, match="workers"):
        SearchLimits(0)


def test_the_live_server_refuses_cross_site_requests_and_takes_its_allowed_origin(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--allowed-origin", "https://games.example.org"))
    try:
        body = json.dumps({"edition": "ffg2015", "seats": ["human", "greedy"]})
        plain = httpx.post(server.url + "/api/games", content=body, headers={"Content-Type": "text/plain"})
        refusal(plain, 415, "application/json")
        refusal(httpx.post(server.url + "/api/games", content=body, headers={**JSON, "Origin": "http://evil.example"}),
                403, "is refused")
        refusal(httpx.post(server.url + "/api/games", content=body, headers={**JSON, "Host": "evil.example"}), 403,
                "Host")
        assert httpx.post(server.url + "/api/games", content=body, headers={
            **JSON, "Origin": "https://games.example.org"}).status_code == 201
        assert httpx.post(server.url + "/api/games", content=body, headers={**JSON, "Origin": server.url}
                          ).status_code == 201
    finally:
        server.stop()


# --- every request names a host this server serves (issue 38) -----------------------------------------------

ALLOWED = "samurai.lan"
"""The name a reverse proxy forwards as Host in these tests (``--allowed-host``)."""


def _routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) the app routes, in its order (HEAD is GET's): what a new route would add."""
    return [(method, route.path) for route in app.routes for method in sorted(route.methods - {"HEAD"})]


def _requests(base: httpx.Client, live: dict[str, Any], uploaded: str, record: bytes) -> dict[
        tuple[str, str], Callable[[], dict[str, Any]]]:
    """For each route, the arguments of a request it answers with 2xx from a served host (made when it is sent:
    an action and a hint need the seat to act then)."""
    game, tokens = live["game"], [seat["token"] for seat in live["seats"]]

    def to_act() -> tuple[dict[str, Any], str]:
        state = base.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
        return state, tokens[state["to_act"]]

    def action() -> dict[str, Any]:
        state, token = to_act()
        chosen = base.get(f"/api/games/{game}", headers=bearer(token)).json()["legal_actions"][0]["action"]
        return {"url": f"/api/games/{game}/actions", "headers": {**bearer(token), **JSON},
                "content": json.dumps({"move_number": state["move_number"], "action": chosen})}

    seat = {"headers": bearer(tokens[0])}
    picture = sorted((Path(__file__).parent.parent / "docs" / "rules" / "pictures").glob("*.svg"))[0].name
    return {
        ("GET", "/"): lambda: {"url": "/"},
        ("GET", "/play/{game}"): lambda: {"url": f"/play/{game}"},
        ("GET", "/replay/{game}"): lambda: {"url": f"/replay/{uploaded}"},
        ("GET", "/static/{name}"): lambda: {"url": "/static/app.js"},
        ("GET", "/rules/{name}"): lambda: {"url": "/rules/samurai.md"},
        ("GET", "/rules/pictures/{picture}"): lambda: {"url": f"/rules/pictures/{picture}"},
        ("GET", "/api/catalog"): lambda: {"url": "/api/catalog"},
        ("POST", "/api/games"): lambda: {"url": "/api/games", "headers": JSON, "content": json.dumps(
            {"edition": "ffg2015", "seats": ["human", "human"]})},
        ("GET", "/api/games"): lambda: {"url": "/api/games"},
        ("GET", "/api/games/{game}"): lambda: {"url": f"/api/games/{game}", **seat},
        ("GET", "/api/games/{game}/page"): lambda: {"url": f"/api/games/{game}/page", **seat},
        ("POST", "/api/games/{game}/actions"): action,
        ("GET", "/api/games/{game}/events"): lambda: {"url": f"/api/games/{game}/events?token={tokens[0]}"},
        ("GET", "/api/games/{game}/replay"): lambda: {"url": f"/api/games/{uploaded}/replay?seat=all"},
        ("GET", "/api/games/{game}/moves"): lambda: {"url": f"/api/games/{uploaded}/moves?seat=all"},
        ("POST", "/api/games/{game}/analysis"): lambda: {"url": f"/api/games/{uploaded}/analysis",
                                                         "headers": JSON, "content": "{}"},
        ("GET", "/api/games/{game}/analysis"): lambda: {"url": f"/api/games/{uploaded}/analysis"},
        ("POST", "/api/games/{game}/hint"): lambda: {"url": f"/api/games/{game}/hint",
                                                     "headers": bearer(to_act()[1])},
        ("GET", "/api/games/{game}/record"): lambda: {"url": f"/api/games/{uploaded}/record"},
        ("POST", "/api/records"): lambda: {"url": "/api/records", "headers": JSON, "content": record},
    }


def _send(client: httpx.Client, method: str, host: str, asked: dict[str, Any]) -> tuple[int, str]:
    """The status and body of a request naming ``host`` as its Host; of an event stream, its first event."""
    headers = {**asked.get("headers", {}), "Host": host}
    with client.stream(method, asked["url"], headers=headers, content=asked.get("content")) as response:
        if not response.headers.get("content-type", "").startswith("text/event-stream"):
            return response.status_code, response.read().decode()
        lines = []
        for line in response.iter_lines():  # each line within the client's timeout; the first event comes at once
            lines.append(line)
            if line.startswith("data:"):
                return response.status_code, "\n".join(lines)
        raise AssertionError("the event stream ended before its first event")


def test_every_route_refuses_a_foreign_host_and_tells_it_nothing_and_answers_a_served_one(tmp_path: Path) -> None:
    """A page of another name pointed at this machine (DNS rebinding) reads nothing: not the list of games and
    their seeds, not a record, a replay, a page or a file; every route the app has is asked, so a new one is too."""
    game = samurai.new_game("ffg2015", players=2, seed=11)
    samurai.play_bots(game, ["greedy", "random"], seed=11)
    record = samurai.save(game, tmp_path / "saved.json").read_bytes()
    checks = RequestChecks.served("127.0.0.1", allowed_hosts=[ALLOWED])
    app = create_app([DEFINITION], str(tmp_path / "data"), checks=checks, analysis_bot="mcts-replies:20")
    server = InProcessServer(app)
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            live = client.post("/api/games", json={"edition": "ffg2015", "seats": ["human", "human"],
                                                   "hints": True}).json()
            uploaded = client.post("/api/records", content=record, headers=JSON).json()["game"]
            secrets_ = [live["game"], uploaded, str(game.seed), *(seat["token"] for seat in live["seats"])]
            requests = _requests(client, live, uploaded, record)
            routes = _routes(app)
            assert sorted(requests) == sorted(routes)  # a route added to the app must be added here
            foreign = f"evil.example:{server.port}"
            refused = {"error": f"Host {foreign!r} is not an address this server serves (samurai serve "
                                f"--allowed-host NAME adds one)"}
            for method, path in [*routes, ("GET", "/nothing-here"), ("DELETE", "/api/games")]:
                asked = requests[method, path]() if (method, path) in requests else {"url": path}
                status, body = _send(client, method, foreign, asked)
                assert status == 403 and json.loads(body) == refused, (method, path, status, body)
                assert not any(secret in body for secret in secrets_), (method, path)
            assert sorted(app.state.host.store.ids()) == sorted([live["game"], uploaded])  # nothing was added
            assert client.get(f"/api/games/{live['game']}", headers=bearer(live["seats"][0]["token"])
                              ).json()["move_number"] == 0  # nor played
            assert client.get(f"/api/games/{uploaded}/analysis").status_code == 404  # nor started
            for method, path in routes:
                status, body = _send(client, method, f"{ALLOWED}:{server.port}", requests[method, path]())
                assert 200 <= status < 300, (method, path, status, body)
            assert client.get(f"/api/games/{live['game']}", headers=bearer(live["seats"][0]["token"])
                              ).json()["move_number"] == 1
    finally:
        server.stop()


# --- bots that cannot stall the server --------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    """The process ids of ``pid``'s children (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts the server's workers in /proc (Linux)")
def test_many_hard_bot_games_never_delay_a_persons_move_in_another_game(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--bot-workers", "2", "--bot-searches-per-client", "2"))
    try:
        bots = [httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["hard", "hard"]},
                           timeout=30).json()["game"] for _ in range(8)]
        people = httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["human", "human"]},
                            timeout=30).json()
        tokens = [s["token"] for s in people["seats"]]
        with_bot = httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["hard", "human"]},
                              timeout=30).json()
        person = bearer(with_bot["seats"][1]["token"])
        # Out of turn while the hard bot thinks or waits for a worker (eight games' searches are ahead of its first
        # one, two at a time): refused at once, the bot still to move. Asked at once, as a native search decides
        # in a fraction of a second.
        refused = httpx.post(f"{server.url}/api/games/{with_bot['game']}/actions", headers=person,
                             json={"move_number": 0, "action": [0, 0]}, timeout=30)
        refusal(refused, 409, "it is seat 0's turn, not seat 1's")
        now = httpx.get(f"{server.url}/api/games/{with_bot['game']}", headers=person, timeout=30).json()
        assert now["move_number"] == 0 and now["to_act"] == 0  # answered before the bot had moved
        deadline = time.monotonic() + 60
        while len(_children(server.process.pid)) < 2:  # the searches have started in the bots' workers
            assert time.monotonic() < deadline, "no bot worker started within 60 s"
            time.sleep(0.1)
        workers = _children(server.process.pid)
        rng = random.Random(1)
        answered = []
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for _ in range(8):
                state = client.get(f"/api/games/{people['game']}", headers=bearer(tokens[0])).json()
                seat = state["to_act"]
                mine = client.get(f"/api/games/{people['game']}", headers=bearer(tokens[seat])).json()
                action = rng.choice(mine["legal_actions"])["action"]
                started = time.monotonic()
                posted = client.post(f"/api/games/{people['game']}/actions", headers=bearer(tokens[seat]),
                                     json={"move_number": state["move_number"], "action": action})
                answered.append(time.monotonic() - started)
                assert posted.status_code == 200, posted.text
        busy = [client_game for client_game in bots
                if httpx.get(f"{server.url}/api/games/{client_game}/record").status_code == 409]
        assert busy, "every bot game was over: nothing searched while the person played"
        # Acknowledged in well under a second although both workers search all the time (they took 8 s and more
        # when the searches shared the server's threads).
        assert max(answered) < 1.0, answered
    finally:
        server.stop()
    # Stopped by SIGINT in the middle of the searches: it ends by itself, with its workers.
    assert server.process.returncode != -signal.SIGKILL, server.log.read_text()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a bot worker outlived the server"
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts the server's workers in /proc (Linux)")
def test_the_bots_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--bot-workers", "2"))
    try:
        for _ in range(2):
            httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["hard", "hard"]}, timeout=30)
        deadline = time.monotonic() + 60
        while len(workers := _children(server.process.pid)) < 2:
            assert time.monotonic() < deadline, "no bot worker started within 60 s"
            time.sleep(0.1)
    finally:
        server.kill()  # SIGKILL: the server cannot stop them
    deadline = time.monotonic() + 15
    while alive := [pid for pid in workers if _alive(pid)]:
        if time.monotonic() > deadline:
            for pid in alive:
                os.kill(pid, signal.SIGKILL)  # not left behind by a failing test either
            raise AssertionError(f"bot workers {alive} outlived their server by 15 s")
        time.sleep(0.1)


class BrokenBots(SamuraiDefinition):
    """Samurai with two broken bots: one raises, one answers an illegal action (pickled by reference, so the
    server's bot workers, which import this module, play them too)."""

    def bots(self) -> list[str]:
        return [*super().bots(), "raising", "illegal"]

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        if bot == "raising":
            raise RuntimeError("the bot broke")
        if bot == "illegal":
            return (99, 99, 99)
        return super().bot_action(state, seat, bot, rng)


def _wait_for_bot_error(client: TestClient, game: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        state = client.get(f"/api/games/{game}", headers=bearer(token)).json()
        if state["bot_error"] is not None:
            return state  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, "the bot's failure was not reported within 60 s"
        time.sleep(0.05)


def test_a_bot_that_raises_or_plays_an_illegal_action_is_reported_to_the_table_and_the_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with TestClient(create_app([BrokenBots()], str(tmp_path))) as client:
        raising = client.post("/api/games", json={"edition": "ffg2015", "seats": ["raising", "human"]}).json()
        illegal = client.post("/api/games", json={"edition": "ffg2015", "seats": ["illegal", "human"]}).json()
        host = client.app.state.host  # type: ignore[attr-defined]
        reports = {}
        for created, bot, words in ((raising, "raising", "it raised RuntimeError: the bot broke"),
                                    (illegal, "illegal", "it chose (99, 99, 99): ")):
            token = created["seats"][1]["token"]
            state = _wait_for_bot_error(client, created["game"], token)
            assert state["bot_error"].startswith(f"seat 0's bot {bot} could not move ({words}")
            assert state["move_number"] == 0 and state["to_act"] == 0
            page = client.get(f"/api/games/{created['game']}/page", headers=bearer(token)).json()
            assert page["bot_error"] == state["bot_error"]
            reports[created["game"]] = state["bot_error"]
        time.sleep(0.5)  # long enough for a retrying bot to have failed again
        assert all(host.game(g).bot_task.done() for g in reports)  # not retried in a loop
    warnings_seen = [line for line in capsys.readouterr().err.splitlines() if line.startswith("samurai: warning:")]
    assert sorted(warnings_seen) == sorted(f"samurai: warning: game {g}: {why}" for g, why in reports.items())


def test_an_open_event_stream_is_told_when_a_bot_fails(tmp_path: Path) -> None:
    """A page already watching the game learns of its bot's failure at once, not at the next move or a reload."""
    server = InProcessServer(create_app([BrokenBots()], str(tmp_path), bot_delay=1.0))
    try:
        async def watch() -> tuple[dict[str, Any], dict[str, Any]]:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                created = (await client.post("/api/games", json={"edition": "ffg2015",
                                                                 "seats": ["raising", "human"]})).json()
                token = created["seats"][1]["token"]
                async with client.stream("GET", f"/api/games/{created['game']}/events?token={token}") as stream:
                    lines = stream.aiter_lines()
                    first = await asyncio.wait_for(next_update(lines), 30)
                    second = await asyncio.wait_for(next_update(lines), 60)
                return first, second

        first, second = asyncio.run(watch())
    finally:
        server.stop()
    assert first["bot_error"] is None  # the stream was open while the bot still waited its delay
    assert second["move_number"] == 0 and second["bot_error"].startswith("seat 0's bot raising could not move")


def test_a_bot_is_searched_in_a_worker_process_not_in_the_server(tmp_path: Path) -> None:
    with TestClient(create_app([PidBots()], str(tmp_path), limits=SearchLimits(1))) as client:
        created = client.post("/api/games", json={"edition": "ffg2015", "seats": ["pid", "human"]}).json()
        state = _wait_for_bot_error(client, created["game"], created["seats"][1]["token"])
        worker = int(state["bot_error"].split("searched in pid ")[1].split(")")[0])
        assert worker != os.getpid()


class PidBots(SamuraiDefinition):
    """A bot that fails naming the process it ran in."""

    def bots(self) -> list[str]:
        return ["pid"]

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        raise RuntimeError(f"searched in pid {os.getpid()})")


@pytest.mark.parametrize(("thought", "paused"), [(0.0, True), (1.5, False)], ids=["a quick bot", "a slow bot"])
def test_the_bot_delay_paces_quick_bots_and_adds_nothing_after_a_long_think(tmp_path: Path, thought: float,
                                                                             paused: bool) -> None:
    """Issue 24: --bot-delay added its pause even after a long search; it is now the least time from a position to
    the bot's move on it: a quick bot waits out the rest, a bot that thought longer is shown at once."""
    from samurai.web.host import GameHost
    from samurai.web.store import Store

    host = GameHost([SamuraiDefinition()], Store(str(tmp_path)), bot_delay=1.0)
    pauses: list[float] = []

    async def pace() -> None:
        real_sleep = asyncio.sleep

        async def recorded(seconds: float) -> None:
            pauses.append(seconds)
            await real_sleep(0)

        with mock.patch("samurai.web.host.asyncio.sleep", recorded):
            await host._pace(asyncio.get_running_loop().time() - thought)

    asyncio.run(pace())
    assert (len(pauses) == 1 and 0.9 < pauses[0] <= 1.0) if paused else pauses == []
