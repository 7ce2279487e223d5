"""``samurai serve`` as a real server on 127.0.0.1: the event stream, a server killed mid-game (SIGKILL) and
started again, and a bounded load test (issue 10 items 2, 4 and 5). No browser."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import platformdirs
import platformdirs.macos
import platformdirs.windows
import pytest

from samurai.web.server import default_data_dir
from samurai_plugins.knizia.play.record_files import from_record, record_from_dict

from webhelpers import Server

LOAD_GAMES = 50
"""Games played at once in the load test (bounded: the machine running the tests has few cores)."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def play_seat(client: httpx.AsyncClient, game: str, token: str, rng: random.Random,
                    stop_at: int | None = None) -> dict[str, Any]:
    """Play random legal actions for one seat until the game ends (or reaches move ``stop_at``)."""
    while True:
        response = await client.get(f"/api/games/{game}", headers=bearer(token))
        assert response.status_code == 200, response.text
        state = response.json()
        if state["over"] or (stop_at is not None and state["move_number"] >= stop_at):
            return state  # type: ignore[no-any-return]
        if not state["legal_actions"]:
            await asyncio.sleep(0.2)  # another seat or a bot is to act
            continue
        action = rng.choice(state["legal_actions"])["action"]
        posted = await client.post(f"/api/games/{game}/actions", headers=bearer(token),
                                   json={"move_number": state["move_number"], "action": action})
        assert posted.status_code in (200, 409), posted.text  # 409: another seat moved first


def test_a_server_killed_mid_game_resumes_every_game_exactly(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        people = httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["human", "human"]}).json()
        with_bot = httpx.post(server.url + "/api/games", json={"edition": "original", "seed": 22,
                                                                 "seats": ["human", "greedy", "random"]}).json()
        tokens = [s["token"] for s in people["seats"]]

        async def first_half() -> None:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                await asyncio.gather(play_seat(client, people["game"], tokens[0], random.Random(1), stop_at=40),
                                     play_seat(client, people["game"], tokens[1], random.Random(2), stop_at=40),
                                     play_seat(client, with_bot["game"], with_bot["seats"][0]["token"],
                                               random.Random(3), stop_at=30))

        asyncio.run(first_half())
        before = [httpx.get(f"{server.url}/api/games/{people['game']}", headers=bearer(t)).json() for t in tokens]
        bot_token = with_bot["seats"][0]["token"]
        bot_before = httpx.get(f"{server.url}/api/games/{with_bot['game']}", headers=bearer(bot_token)).json()
        seen = f"/api/games/{with_bot['game']}/replay?step={bot_before['move_number']}"
        frame_before = httpx.get(server.url + seen, headers=bearer(bot_token)).json()
        server.kill()

        server = Server(tmp_path)
        after = [httpx.get(f"{server.url}/api/games/{people['game']}", headers=bearer(t)).json() for t in tokens]
        assert after == before  # every view, legal action and move number exactly as acknowledged
        bot_after = httpx.get(f"{server.url}/api/games/{with_bot['game']}", headers=bearer(bot_token)).json()
        assert bot_after["move_number"] >= bot_before["move_number"]  # its bots may have moved on since
        assert httpx.get(server.url + seen, headers=bearer(bot_token)).json() == frame_before

        async def second_half() -> list[dict[str, Any]]:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                return await asyncio.gather(
                    play_seat(client, people["game"], tokens[0], random.Random(4)),
                    play_seat(client, people["game"], tokens[1], random.Random(5)),
                    play_seat(client, with_bot["game"], bot_token, random.Random(6)))

        finals = asyncio.run(second_half())
        assert all(final["over"] for final in finals)
        for game, final in ((people["game"], finals[0]), (with_bot["game"], finals[2])):
            record = httpx.get(f"{server.url}/api/games/{game}/record").json()
            replayed = from_record(record_from_dict(record))
            assert list(replayed.result.winners) == final["view"]["result"]["winners"]  # type: ignore[union-attr]
    finally:
        server.stop()


def test_the_event_stream_sends_each_seat_its_own_view_after_every_move(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        created = httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["human", "human"]}).json()
        game, tokens = created["game"], [s["token"] for s in created["seats"]]
        with httpx.Client(base_url=server.url, timeout=30) as client, \
                client.stream("GET", f"/api/games/{game}/events?token={tokens[1]}") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            first = _next_update(lines)
            assert first["seat"] == 1 and first["move_number"] == 0
            state = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
            action = state["legal_actions"][0]["action"]
            assert client.post(f"/api/games/{game}/actions", headers=bearer(tokens[0]),
                               json={"move_number": 0, "action": action}).status_code == 200
            update = _next_update(lines)
            assert update["seat"] == 1 and update["move_number"] == 1
            assert update["log"][-1]["lines"] == ["Seat 0 keeps a tile for the starting hand"]
            chosen = state["legal_actions"][0]["describe"]["tile"]
            assert f'data-tile="{chosen}"' not in update["svg"] or chosen in \
                json.dumps([i["key"] for i in update["controls"]["tray"]])
    finally:
        server.stop()


def _next_update(lines: Any) -> dict[str, Any]:
    event = None
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "update":
            return json.loads(line.split(":", 1)[1])  # type: ignore[no-any-return]
    raise AssertionError("the stream ended")


def test_many_games_played_to_the_end_at_once_all_replay_to_their_results(tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--games-per-minute", str(LOAD_GAMES)))
    try:
        async def load() -> list[tuple[str, dict[str, Any]]]:
            async with httpx.AsyncClient(base_url=server.url, timeout=120,
                                         limits=httpx.Limits(max_connections=100)) as client:
                async def one(number: int) -> tuple[str, dict[str, Any]]:
                    seats = ["human", "random"] if number % 2 else ["human", "human", "greedy"]
                    # Two people: the server draws the seed (a chosen one is for a table of one person).
                    created = (await client.post("/api/games", json={"edition": "ffg2015", "seats": seats})).json()
                    people = [s["token"] for s in created["seats"] if s["token"]]
                    finals = await asyncio.gather(*(play_seat(client, created["game"], token,
                                                              random.Random(number * 10 + k))
                                                    for k, token in enumerate(people)))
                    return created["game"], finals[0]

                return await asyncio.gather(*(one(n) for n in range(LOAD_GAMES)))

        results = asyncio.run(load())
        assert len(results) == LOAD_GAMES
        for game, final in results:
            assert final["over"]
            record = httpx.get(f"{server.url}/api/games/{game}/record").json()
            replayed = from_record(record_from_dict(record))
            assert list(replayed.result.winners) == final["view"]["result"]["winners"]  # type: ignore[union-attr]
            assert len(record["actions"]) == final["move_number"]
        assert len(httpx.get(server.url + "/api/games").json()["games"]) == LOAD_GAMES
    finally:
        server.stop()


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG folders are Linux's default")
def test_the_data_folder_on_linux_is_the_one_used_before_platformdirs(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``$XDG_DATA_HOME/samurai``, else ``~/.local/share/samurai``: an existing player's games stay found."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "samurai"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "samurai"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "samurai"
    assert not (tmp_path / "home").exists() and not (tmp_path / "xdg").exists()  # found, not made


def test_the_data_folder_on_macos_is_application_support(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert default_data_dir() == tmp_path / "Library" / "Application Support" / "samurai"


def test_the_data_folder_on_windows_is_appdata_samurai_as_before(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The roaming ``%APPDATA%``, without an author folder (``platformdirs``' default would add one)."""
    folders = {"CSIDL_APPDATA": str(tmp_path / "Roaming"), "CSIDL_LOCAL_APPDATA": str(tmp_path / "Local")}
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", folders.__getitem__)
    assert default_data_dir() == tmp_path / "Roaming" / "samurai"
