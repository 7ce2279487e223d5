"""A store a broken row cannot stop, refusals that are always short JSON, and event streams that share each seat's
page (issue 20, points 3 and 4).

Stores are built with the real ``Store`` through the API, then damaged with ``sqlite3`` directly, as a bug,
a disk or a person editing the file would leave them.
"""

from __future__ import annotations

import asyncio
import collections
import json
import sqlite3
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from samurai.errors import DataError
from samurai.web.app import MAX_ERROR, create_app
from samurai.web.store import Store
from samurai_plugins.knizia.adapters.web import SamuraiDefinition

from webhelpers import InProcessServer, Server, free_port, next_update

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEFINITION = SamuraiDefinition()


JSON = {"Content-Type": "application/json"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, seats: list[str], seed: int = 7) -> dict[str, Any]:
    # A table of two people may not choose its seed: the server's own draw is made this one.
    with mock.patch("samurai.web.host.draw_seed", return_value=seed):
        response = client.post("/api/games", json={"edition": "ffg2015", "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def play_first(client: TestClient, game: str, tokens: list[str]) -> dict[str, Any]:
    """Play the first legal action of the seat to act; returns the answer (the position after it)."""
    token = tokens[client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()["to_act"]]
    state = client.get(f"/api/games/{game}", headers=bearer(token)).json()
    response = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                           json={"move_number": state["move_number"], "action": state["legal_actions"][0]["action"]})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def two_games(folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two games of two people each, three actions played in each (so both have a log to damage)."""
    with TestClient(create_app([DEFINITION], str(folder))) as client:
        games = create(client, ["human", "human"], seed=1), create(client, ["human", "human"], seed=2)
        for created in games:
            tokens = [s["token"] for s in created["seats"]]
            for _ in range(3):
                play_first(client, created["game"], tokens)
    return games


def damage(folder: Path, statement: str, *parameters: Any) -> None:
    with sqlite3.connect(folder / "games.sqlite3") as conn:
        assert conn.execute(statement, parameters).rowcount == 1
    conn.close()


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


BROKEN_ROWS = {
    "a gap in the action log": ("DELETE FROM actions WHERE game = ? AND number = 1", ()),
    "an action that is not JSON": ("UPDATE actions SET action = '[1, 2' WHERE game = ? AND number = 0", ()),
    "an action that is not a list of whole numbers": (
        "UPDATE actions SET action = '{\"a\": 1}' WHERE game = ? AND number = 2", ()),
    "an action nested thousands deep": ("UPDATE actions SET action = ? WHERE game = ? AND number = 0",
                                        (deep(5000),)),
    "an action that is illegal on replay": ("UPDATE actions SET action = '[2, 0, 0]' WHERE game = ? AND number = 0",
                                            ()),
    "seats that are not JSON": ("UPDATE games SET seats = 'not json' WHERE id = ?", ()),
    "seats that are not a list of seats": ("UPDATE games SET seats = '[1, 2]' WHERE id = ?", ()),
    "too few seats for the players": ("UPDATE games SET seats = '[]' WHERE id = ?", ()),
    "a setup that is not JSON": ("UPDATE games SET setup = '{\"game\":' WHERE id = ?", ()),
    "a setup with a field of the wrong type": (
        "UPDATE games SET setup = json_set(setup, '$.players', 'two') WHERE id = ?", ()),
    "a setup missing a field": ("UPDATE games SET setup = json_remove(setup, '$.seed') WHERE id = ?", ()),
    "a setup the game refuses": ("UPDATE games SET setup = json_set(setup, '$.players', 9) WHERE id = ?", ()),
    "a setup of an edition that is not served": (
        "UPDATE games SET setup = json_set(setup, '$.edition', 'nowhere') WHERE id = ?", ()),
}


@pytest.mark.parametrize("kind", BROKEN_ROWS)
def test_a_game_whose_rows_cannot_be_replayed_answers_503_and_the_others_play_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    broken, healthy = two_games(tmp_path)
    statement, values = BROKEN_ROWS[kind]
    damage(tmp_path, statement, *values, broken["game"])
    capsys.readouterr()
    with TestClient(create_app([DEFINITION], str(tmp_path))) as client:  # resumes every unfinished game
        token = broken["seats"][0]["token"]
        for path in ("", "/page", "/replay?step=0"):
            refused = client.get(f"/api/games/{broken['game']}{path}", headers=bearer(token))
            assert refused.status_code == 503, (kind, path, refused.text)
            assert refused.json()["error"].startswith(f"game {broken['game']} cannot be resumed by this server: ")
        tokens = [s["token"] for s in healthy["seats"]]
        assert play_first(client, healthy["game"], tokens)["move_number"] == 4
    warned = [line for line in capsys.readouterr().err.splitlines() if line.startswith("samurai: warning: ")]
    assert len(warned) == 1 and broken["game"] in warned[0], warned  # once, however often the game is asked for


def test_a_finished_game_that_cannot_be_read_is_left_out_of_the_list_and_said_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import samurai

    game = samurai.new_game("ffg2015", players=2, seed=4)
    samurai.play_bots(game, ["greedy", "random"], seed=4)
    record = samurai.save(game, tmp_path / "saved.json").read_bytes()
    with TestClient(create_app([DEFINITION], str(tmp_path / "data"))) as client:
        kept = [client.post("/api/records", content=record, headers=JSON).json()["game"] for _ in range(3)]
    damage(tmp_path / "data", "UPDATE games SET seats = 'oops' WHERE id = ?", kept[1])
    damage(tmp_path / "data", "UPDATE games SET imported = '{' WHERE id = ?", kept[2])
    capsys.readouterr()
    with TestClient(create_app([DEFINITION], str(tmp_path / "data"))) as client:
        for _ in range(2):
            listed = client.get("/api/games")
            assert listed.status_code == 200
            assert sorted(g["id"] for g in listed.json()["games"]) == sorted([kept[0], kept[2]])
        assert client.get(f"/api/games/{kept[0]}/replay").status_code == 200
        assert client.get(f"/api/games/{kept[2]}/replay").status_code == 503
    warned = [line for line in capsys.readouterr().err.splitlines() if line.startswith("samurai: warning: ")]
    assert len(warned) == 2 and kept[1] in warned[0] and "left out of the list" in warned[0], warned
    assert kept[2] in warned[1] and "imported record: not valid JSON" in warned[1]


def test_store_load_names_the_game_and_the_row_it_cannot_read(tmp_path: Path) -> None:
    broken, healthy = two_games(tmp_path)
    damage(tmp_path, "DELETE FROM actions WHERE game = ? AND number = 0", broken["game"])
    store = Store(tmp_path)
    try:
        with pytest.raises(DataError, match=f"games.sqlite3: game {broken['game']}: action 0 is missing"):
            store.load(broken["game"])
        loaded = store.load(healthy["game"])
        assert loaded is not None and len(loaded.actions) == 3
        assert store.load("no-such-game") is None
    finally:
        store.close()


def test_the_real_server_starts_with_one_broken_game_and_serves_the_others(tmp_path: Path) -> None:
    import httpx

    broken, healthy = two_games(tmp_path)
    damage(tmp_path, "UPDATE actions SET action = 'x' WHERE game = ? AND number = 1", broken["game"])
    server = Server(tmp_path)
    try:
        refused = httpx.get(f"{server.url}/api/games/{broken['game']}",
                            headers=bearer(broken["seats"][0]["token"]), timeout=10)
        assert refused.status_code == 503 and "action 1: not valid JSON" in refused.json()["error"]
        served = httpx.get(f"{server.url}/api/games/{healthy['game']}",
                           headers=bearer(healthy["seats"][1]["token"]), timeout=10)
        assert served.status_code == 200 and served.json()["move_number"] == 3
    finally:
        server.stop()
    warned = [line for line in server.log.read_text().splitlines() if line.startswith("samurai: warning: ")]
    assert len(warned) == 1 and broken["game"] in warned[0], warned


# --- a data file that is not a store's --------------------------------------------------------------------


def not_sqlite(path: Path) -> None:
    path.write_bytes(b"these are someone's notes, not a database\n" * 100)


def another_programs_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
    conn.close()


def a_store_with_a_wrong_table(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id TEXT PRIMARY KEY, name TEXT)")
        conn.execute("CREATE TABLE actions (game TEXT, number INTEGER, action TEXT)")
    conn.close()


def a_damaged_store(path: Path) -> None:
    two_games(path.parent)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 3 * page
    data[page:3 * page] = bytes(range(256)) * (2 * page // 256)  # two pages of the tables overwritten
    path.write_bytes(bytes(data))


def a_truncated_file(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00")


CORRUPT_FILES = {"not SQLite": (not_sqlite, "is not a SQLite database"),
                 "another program's database": (another_programs_database, "table 'notes'"),
                 "a table with other columns": (a_store_with_a_wrong_table, "table 'games'"),
                 "a damaged store": (a_damaged_store, "games.sqlite3: is "),
                 "a truncated file": (a_truncated_file, "games.sqlite3: is not a readable SQLite database")}


@pytest.mark.parametrize("kind", CORRUPT_FILES)
def test_a_corrupt_database_file_is_refused_in_one_line_and_never_changed(tmp_path: Path, kind: str) -> None:
    make, words = CORRUPT_FILES[kind]
    path = tmp_path / "games.sqlite3"
    make(path)
    for sidecar in (tmp_path / "games.sqlite3-wal", tmp_path / "games.sqlite3-shm"):
        assert not sidecar.exists()
    before = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(DataError, match=words):
        Store(tmp_path)
    done = subprocess.run([sys.executable, "-m", "samurai", "serve", "--data-dir", str(tmp_path),
                           "--port", str(free_port())], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"samurai: error: {path}: ") and words in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("games.sqlite3")) == ["games.sqlite3"]


def test_a_store_left_by_a_killed_server_and_an_empty_file_still_open(tmp_path: Path) -> None:
    first = Store(tmp_path / "a")  # not closed: its write-ahead log is left as SIGKILL leaves it
    assert (tmp_path / "a" / "games.sqlite3-wal").stat().st_size > 0
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "games.sqlite3").write_bytes(b"")
    for folder in (tmp_path / "a", tmp_path / "b"):
        store = Store(folder)
        assert store.ids() == []
        store.close()
    first.close()


# --- every refusal is short JSON --------------------------------------------------------------------------

SECURITY_HEADERS = ("x-content-type-options", "referrer-policy", "x-frame-options", "content-security-policy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app([DEFINITION], str(tmp_path)), raise_server_exceptions=False) as test_client:
        yield test_client


def assert_json_refusal(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    for header in SECURITY_HEADERS:
        assert header in response.headers, header
    message = response.json()["error"]
    assert isinstance(message, str) and 0 < len(message) <= MAX_ERROR and "\n" not in message
    return message


MALFORMED_BODIES = {
    "nested 1,000 deep": (deep(1000).encode(), "too deeply"),
    "nested 100 deep in an object": (("{\"a\": " * 100 + "1" + "}" * 100).encode(), "too deeply"),
    "a number of 5,000 digits": (b'{"move_number": ' + b"9" * 5000 + b', "action": [1]}', "4300 digits"),
    "NaN": (b'{"move_number": NaN, "action": [1]}', "NaN"),
    "Infinity": (b'{"seed": -Infinity}', "Infinity"),
    "a float too large": (b'{"seed": 1e400}', "1e400"),
    "not UTF-8": (b'{"seed": "\xff\xfe"}', "UTF-8"),
    "not JSON": (b"seed=7", "not valid JSON"),
    "nothing": (b"", "not valid JSON"),
}


@pytest.mark.parametrize("kind", MALFORMED_BODIES)
def test_a_malformed_body_is_a_short_400_on_every_route_that_reads_one(client: TestClient, kind: str) -> None:
    created = create(client, ["human", "human"])
    body, words = MALFORMED_BODIES[kind]
    for route, auth in (("/api/games", {}), (f"/api/games/{created['game']}/actions",
                                               bearer(created["seats"][0]["token"])), ("/api/records", {})):
        response = client.post(route, content=body, headers={"Content-Type": "application/json", **auth})
        assert words in assert_json_refusal(response, 400), (route, response.text)
    assert client.get(f"/api/games/{created['game']}", headers=bearer(created["seats"][0]["token"])).json()[
        "move_number"] == 0


def test_error_messages_are_cut_and_never_echo_a_large_input(client: TestClient) -> None:
    huge = "x" * 300_000
    for route, body in (("/api/games", {"edition": "ffg2015", "seats": [huge, "human"]}),
                        ("/api/games", {"game": huge, "seats": ["human", "human"]}),
                        ("/api/records", {"schema": 1, "edition": huge, "players": 2, "seed": 1, "actions": []})):
        message = assert_json_refusal(client.post(route, json=body), 400)
        assert len(message) == MAX_ERROR and message.endswith("…"), message
    assert len(client.get("/api/games/" + "y" * 60 + "/record").json()["error"]) <= MAX_ERROR


def test_unknown_addresses_wrong_methods_and_large_bodies_are_json_with_the_security_headers(
        tmp_path: Path, client: TestClient) -> None:
    assert "/no/such/page" in assert_json_refusal(client.get("/no/such/page"), 404)
    assert "no game" in assert_json_refusal(client.get("/api/games/nope"), 404)
    refused = client.put("/api/games")
    assert "PUT is not allowed" in assert_json_refusal(refused, 405)
    assert "POST" in refused.headers["allow"]
    assert "POST" in assert_json_refusal(client.get("/api/records"), 405)
    with TestClient(create_app([DEFINITION], str(tmp_path / "small"), max_body=100)) as small:
        too_large = small.post("/api/records", content=b"[" + b"1," * 100 + b"1]",
                               headers={"Content-Type": "application/json"})
        assert "larger than 100 bytes" in assert_json_refusal(too_large, 413)


def test_an_unexpected_fault_is_a_short_json_500_with_the_security_headers(client: TestClient) -> None:
    def fails(*_: Any) -> Any:
        raise RuntimeError("a bug, with a secret in its message")

    client.app.state.host.state = fails  # type: ignore[attr-defined]
    created = create(client, ["human", "human"])
    response = client.get(f"/api/games/{created['game']}", headers=bearer(created["seats"][0]["token"]))
    message = assert_json_refusal(response, 500)
    assert "RuntimeError" in message and "secret" not in message and "Traceback" not in response.text


def test_the_body_depth_limit_lets_every_record_through(client: TestClient, tmp_path: Path) -> None:
    import samurai

    game = samurai.new_game("original", players=3, seed=5)
    samurai.play_bots(game, ["greedy", "random", "greedy"], seed=5)
    record = json.loads(samurai.save(game, tmp_path / "saved.json").read_text())
    assert client.post("/api/records", json=record).status_code == 201


# --- event streams share each seat's page -----------------------------------------------------------------


def test_every_stream_of_a_seat_shares_one_render_of_each_update(tmp_path: Path) -> None:
    import httpx

    app = create_app([DEFINITION], str(tmp_path))
    host = app.state.host
    renders: collections.Counter[int] = collections.Counter()
    lock = threading.Lock()
    render = host.seat_payload

    def counted(live: Any, seat: int) -> Any:
        with lock:
            renders[seat] += 1
        return render(live, seat)

    host.seat_payload = counted
    server = InProcessServer(app)
    try:
        async def watch() -> list[list[dict[str, Any]]]:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client, AsyncExitStack() as streams:
                created = (await client.post("/api/games", json={"edition": "ffg2015",
                                                                 "seats": ["human", "human"]})).json()
                game, tokens = created["game"], [s["token"] for s in created["seats"]]
                readers = []
                for seat in (0, 0, 0, 0, 0, 0, 1, 1):
                    response = await streams.enter_async_context(
                        client.stream("GET", f"/api/games/{game}/events?token={tokens[seat]}"))
                    assert response.status_code == 200
                    readers.append(response.aiter_lines())
                seen = [[await asyncio.wait_for(next_update(lines), 30)] for lines in readers]
                state = (await client.get(f"/api/games/{game}", headers=bearer(tokens[0]))).json()
                posted = await client.post(f"/api/games/{game}/actions", headers=bearer(tokens[state["to_act"]]),
                                           json={"move_number": 0, "action": state["legal_actions"][0]["action"]})
                assert posted.status_code == 200, posted.text
                for lines, updates in zip(readers, seen, strict=True):
                    updates.append(await asyncio.wait_for(next_update(lines), 30))
                return seen

        seen = asyncio.run(watch())
    finally:
        server.stop()
    assert [[update["move_number"] for update in updates] for updates in seen] == [[0, 1]] * 8
    assert all(updates == seen[0] for updates in seen[:6]) and all(updates == seen[6] for updates in seen[6:])
    assert renders == {0: 2, 1: 2}  # once per seat and update, not once per stream
