"""``samurai serve`` offers Daimyo and Shinobi through its own web definition (issue 12 item 3;
samurai_plugins.daimyo.web): the web layer is the same one that serves Knizia's game."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from samurai.catalog.editions import load_edition
from samurai.records import play_record_from_dict, position_check_of, replayed
from samurai.web.app import create_app
from samurai.web.server import web_definitions
from samurai_plugins import daimyo
from samurai_plugins.daimyo.web import DaimyoDefinition

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def definitions() -> list[Any]:
    return web_definitions()


@pytest.fixture
def client(tmp_path: Path, definitions: list[Any]) -> Iterator[TestClient]:
    with TestClient(create_app(definitions, str(tmp_path))) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_serve_offers_both_games_each_through_its_own_definition(client: TestClient) -> None:
    games = {g["game"]: g for g in client.get("/api/catalog").json()["games"]}
    assert set(games) == {"samurai", "daimyo"}
    assert {e["key"] for e in games["daimyo"]["editions"]} == {"daimyo", "daimyo-shinobi", "daimyo-nobori"}
    assert all(e["players"] == [2] for e in games["daimyo"]["editions"])
    assert "greedy" not in games["daimyo"]["bots"] and {"random", "easy"} <= set(games["daimyo"]["bots"])
    assert not {"daimyo", "daimyo-shinobi"} & {e["key"] for e in games["samurai"]["editions"]}


def test_a_person_plays_daimyo_by_clicking_squares_and_the_record_replays(client: TestClient) -> None:
    with mock.patch("samurai.web.host.draw_seed", return_value=5):  # two people: the server draws the seed
        response = client.post("/api/games", json={"game": "daimyo", "edition": "daimyo-nobori",
                                                   "seats": ["human", "human"]})
    assert response.status_code == 201, response.text
    created = response.json()
    game = created["game"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    page = client.get(f"/api/games/{game}/page", headers=bearer(tokens[0])).json()
    assert 'data-game="daimyo"' in page["svg"] and 'id="hexes"' in page["svg"]
    assert 'data-square="c3" data-col="2" data-row="2"' in page["svg"]
    paths = page["controls"]["paths"]
    # a face-down tile is one click; a move is the piece's square, then the target's
    flip = next(p for p in paths if p["action"] == [daimyo.FLIP, daimyo.square_of("c3")])
    assert flip["keys"] == ["hex:2,2"]
    assert all(len(p["keys"]) == (1 if p["action"][0] == daimyo.FLIP else 2) for p in paths)
    rng = random.Random(3)
    for _ in range(3000):
        state = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
        if state["over"]:
            break
        seat = state["to_act"]
        mine = client.get(f"/api/games/{game}/page", headers=bearer(tokens[seat])).json()
        action = rng.choice(mine["controls"]["paths"])["action"]
        response = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[seat]),
                               json={"move_number": mine["move_number"], "action": action})
        assert response.status_code == 200, response.text
    page = client.get(f"/api/games/{game}/page", headers=bearer(tokens[1])).json()
    assert page["log"] and page["log"][0]["lines"][0].startswith(("Seat 0 flips the tile on", "Seat 0 moves"))
    assert page["over"] and page["status"]["result"]["explanation"]
    record = client.get(f"/api/games/{game}/record").json()
    assert record["game"] == "daimyo" and record["edition"] == "daimyo-nobori"
    final = replayed(play_record_from_dict(record))
    assert final.move_number == page["move_number"]
    opened = client.post("/api/records", json=record)
    assert opened.status_code == 201, opened.text


def test_an_illegal_click_is_refused_and_changes_nothing(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "daimyo", "edition": "daimyo", "seats": ["human", "random"],
                                              "seed": 2}).json()
    token = created["seats"][0]["token"]
    response = client.post(f"/api/games/{created['game']}/actions", headers=bearer(token),
                           json={"move_number": 0, "action": [daimyo.MOVE, daimyo.square_of("b1"), 40]})
    assert response.status_code == 400 and "cannot move" in response.json()["error"]
    assert client.get(f"/api/games/{created['game']}", headers=bearer(token)).json()["move_number"] == 0


def test_bots_play_a_whole_daimyo_game_on_the_server(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "daimyo", "edition": "daimyo-shinobi",
                                              "seats": ["random", "random"], "seed": 4}).json()
    deadline = time.monotonic() + 300
    response = client.get(f"/api/games/{created['game']}/record")
    while response.status_code == 409 and time.monotonic() < deadline:  # given once the game is over
        time.sleep(0.05)
        response = client.get(f"/api/games/{created['game']}/record")
    assert response.status_code == 200, response.text
    final = replayed(play_record_from_dict(response.json()))
    assert final.is_over and sum(final.returns()) == 1


def test_greedy_cannot_take_a_daimyo_seat(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "daimyo", "edition": "daimyo", "seats": ["human", "greedy"]})
    assert response.status_code == 400 and "greedy" in response.json()["error"]


def test_the_definition_draws_the_last_actions_squares(definitions: list[Any]) -> None:
    definition = next(d for d in definitions if isinstance(d, DaimyoDefinition))
    state = load_edition("daimyo").start(2, 1)
    action = state.legal_actions()[0]
    state.apply(action)
    svg = definition.render(state, state.view(0), action)
    assert 'class="mark"' in svg and position_check_of(state).startswith("sha256:")


def test_all_hands_open_draws_every_face_down_tiles_face_and_a_seats_view_does_not(definitions: list[Any]) -> None:
    """Issue 24: the replay of a finished game shows every hidden face; a seat's own view never does."""
    definition = next(d for d in definitions if isinstance(d, DaimyoDefinition))
    state = load_edition("daimyo").start(2, 5)
    rng = random.Random(2)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    empty = daimyo.rules.EMPTY
    hidden = {state.square_name(sq): daimyo.rules.FACES[state.tile[sq]] for sq in range(state.squares)
              if state.tile[sq] != empty and sq not in state.shown and state.known[sq] == empty}
    assert hidden
    opened = definition.render(state, definition.open_view(state), None)
    for name, face in hidden.items():
        assert f"<title>{name}: face-down tile, seen as {face}</title>" in opened, name
    for seat in (0, 1):
        drawn = definition.render(state, state.view(seat), None)
        assert all(f"<title>{name}: face-down tile</title>" in drawn for name in hidden)
    assert 'id="panel"' not in opened and "<svg" in definition.key()


def test_each_hint_says_why_the_turn_goes_on(definitions: list[Any]) -> None:
    """Issue 24 point 2: a one-line "why" in the page's hints: a Heiya is removed, so flip again; one tile is up, so
    flip a second."""
    definition = next(d for d in definitions if isinstance(d, DaimyoDefinition))
    seen = {"heiya": 0, "second": 0}
    for seed in range(12):
        state = load_edition("daimyo").start(2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act
            action = rng.choice(state.legal_actions())
            heiya = action[0] == daimyo.FLIP and state.tile[action[1]] == daimyo.HEIYA
            state.apply(action)
            if state.is_over or state.to_act != seat:
                continue
            after = definition.controls(state, seat).hints[""]
            if heiya:
                assert after.startswith("A Heiya was removed: flip another"), after
                seen["heiya"] += 1
            elif action[0] == daimyo.FLIP:
                assert after.startswith("Flip a second face-down tile"), after
                seen["second"] += 1
    assert seen["heiya"] > 5 and seen["second"] > 5, seen
