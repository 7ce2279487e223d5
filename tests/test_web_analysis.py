"""A finished game's analysis and the hints of ``samurai serve`` (issue 25, point 3), through the JSON API:
the same figures as ``samurai.runs.analysis`` for the same search and seed, a replay frame that tells its move's
judgement and draws the preferred move, hints only where the game allows them and only for the seat to act, from
that seat's knowledge alone, and a server that answers while it analyses."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import position_and_twin

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from samurai.cli.program import main
from samurai.records import read_record_file, record_moves
from samurai.runs.analysis import analyse_moves
from samurai.web.analysis import ANALYSIS_SEED
from samurai.web.app import create_app
from samurai.web.workers import hint_answer
from samurai_plugins.knizia.adapters.web import SamuraiDefinition
from samurai_plugins.knizia.engine.backends import native_module

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENGINES = ("python", "native") if native_module() is not None else ("python",)

DEFINITION = SamuraiDefinition()
SEARCH = "mcts-replies:60"
"""The analyses' and hints' search in these tests: small, so that a whole game is judged in a second or two."""
PATIENCE = 300
"""Seconds a test waits at most for the bots or an analysis (a loaded machine is slow, a stuck one fails)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app([DEFINITION], str(tmp_path), analysis_bot=SEARCH)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(client: TestClient, seats: list[str], *, seed: int = 3, hints: bool | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"edition": "ffg2015", "seats": seats}
    if hints is not None:
        body["hints"] = hints
    if seats.count("human") > 1:
        with mock.patch("samurai.web.host.draw_seed", return_value=seed):
            response = client.post("/api/games", json=body)
    else:
        response = client.post("/api/games", json={**body, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def play(client: TestClient, game: str, token: str, *, until: int | None = None) -> dict[str, Any]:
    """The person of ``token`` plays the first legal action each turn (against the bots) to the end, or to move
    ``until``; the game's state as that seat sees it."""
    deadline = time.monotonic() + PATIENCE
    while True:
        state = client.get(f"/api/games/{game}", headers=bearer(token)).json()
        if state["over"] or (until is not None and state["move_number"] >= until):
            return state  # type: ignore[no-any-return]
        if state["to_act"] != state["seat"]:
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.01)
            continue
        response = client.post(f"/api/games/{game}/actions", headers=bearer(token),
                               json={"move_number": state["move_number"],
                                     "action": state["legal_actions"][0]["action"]})
        assert response.status_code == 200, response.text


def analysed(client: TestClient, game: str) -> dict[str, Any]:
    """Start the game's analysis and wait for its end."""
    response = client.post(f"/api/games/{game}/analysis", json={})
    assert response.status_code in (200, 202), response.text
    deadline = time.monotonic() + PATIENCE
    progress = response.json()
    while progress["state"] == "running":
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)
        progress = client.get(f"/api/games/{game}/analysis").json()
    assert progress["state"] == "done", progress
    return progress  # type: ignore[no-any-return]


def figures(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision's figures without its words (the page tells moves as its log does, the command line otherwise)."""
    found = {key: value for key, value in decision.items() if key != "played_words"}
    if found["preferred"] is not None:
        found["preferred"] = {key: value for key, value in found["preferred"].items() if key != "words"}
    return found


def test_a_finished_game_is_analysed_with_the_figures_of_the_analysis_module(client: TestClient,
                                                                            tmp_path: Path) -> None:
    created = start(client, ["human", "greedy"])
    game, token = created["game"], created["seats"][0]["token"]
    assert client.get(f"/api/games/{game}/analysis").status_code == 404  # not asked yet
    play(client, game, token)
    progress = analysed(client, game)
    assert progress["done"] == progress["moves"] and progress["bot"] == SEARCH and progress["seed"] == ANALYSIS_SEED
    found = progress["analysis"]
    # The same search and seed judging the record's moves from the same start: the same figures, move by move.
    saved = tmp_path / "record.json"
    saved.write_bytes(client.get(f"/api/games/{game}/record").content)
    first, moves = record_moves(read_record_file(str(saved)), source=str(saved))
    expected = analyse_moves(first, moves, bot=SEARCH, seed=ANALYSIS_SEED).to_dict()
    assert [figures(d) for d in found["decisions"]] == expected["decisions"]
    assert found["mistakes"] == expected["mistakes"] and found["turning_points"] == expected["turning_points"]
    # Every move told in the words of the game's log, as the whole table was told it.
    moves_listed = client.get(f"/api/games/{game}/moves").json()["moves"]
    assert [d["played_words"] for d in found["decisions"]] == [m["line"] for m in moves_listed]
    # Asked again: the same analysis at once, not another.
    again = client.post(f"/api/games/{game}/analysis", json={})
    assert again.status_code == 200 and again.json() == progress


def test_a_game_is_analysed_once_it_is_over(client: TestClient) -> None:
    created = start(client, ["human", "greedy"])
    game, token = created["game"], created["seats"][0]["token"]
    play(client, game, token, until=12)
    response = client.post(f"/api/games/{game}/analysis", json={})
    assert response.status_code == 409 and "once it is over" in response.json()["error"]
    assert client.post(f"/api/games/{game}/analysis", content=b"{}").status_code == 415  # this server's page only


def test_the_replay_tells_each_moves_judgement_and_draws_the_preferred_move(client: TestClient) -> None:
    created = start(client, ["human", "greedy"])
    game, token = created["game"], created["seats"][0]["token"]
    play(client, game, token)
    unjudged = client.get(f"/api/games/{game}/replay", params={"step": 40}).json()
    assert unjudged["judged"] is None
    found = analysed(client, game)["analysis"]
    differs = next(d for d in found["decisions"]  # a tile played on the board, where the search preferred another
                   if d["preferred"] is not None and d["preferred"]["action"] != d["played"]
                   and " plays " in d["preferred"]["words"])
    frame = client.get(f"/api/games/{game}/replay", params={"step": differs["number"] + 1}).json()
    judged = frame["judged"]
    assert judged["number"] == differs["number"] and judged["grade"] == differs["grade"]
    assert judged["played"] == differs["played_words"] and judged["preferred"] == differs["preferred"]["words"]
    assert judged["chance_before"] == differs["chances_before"][differs["seat"]]
    assert 'class="preferred"' in frame["svg"]
    same = next(d for d in found["decisions"] if d["preferred"] is not None and d["preferred"]["action"] == d["played"])
    frame = client.get(f"/api/games/{game}/replay", params={"step": same["number"] + 1}).json()
    assert frame["judged"]["grade"] == "good" and 'class="preferred"' not in frame["svg"]


def test_hints_are_off_unless_the_game_was_started_with_them(client: TestClient) -> None:
    created = start(client, ["human", "greedy"])
    game, token = created["game"], created["seats"][0]["token"]
    assert client.get(f"/api/games/{game}/page", headers=bearer(token)).json()["hints"] is False
    response = client.post(f"/api/games/{game}/hint", headers=bearer(token))
    assert response.status_code == 403 and "hints are off" in response.json()["error"]
    refused = client.post("/api/games", json={"edition": "ffg2015", "seats": ["human", "greedy"], "hints": "yes"})
    assert refused.status_code == 400 and "hints must be true" in refused.json()["error"]


def test_a_hint_gives_the_seat_to_act_its_best_moves_and_every_seat_sees_the_setting(tmp_path: Path) -> None:
    with TestClient(create_app([DEFINITION], str(tmp_path), analysis_bot=SEARCH)) as client:
        created = start(client, ["human", "human"], hints=True)
        game = created["game"]
        tokens = [seat["token"] for seat in created["seats"]]
        for token in tokens:  # the setting is shown to every seat
            assert client.get(f"/api/games/{game}/page", headers=bearer(token)).json()["hints"] is True
        rng = random.Random(2)
        for _ in range(30):  # the setup, then the play
            state = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
            seat = state["to_act"]
            other = client.post(f"/api/games/{game}/hint", headers=bearer(tokens[1 - seat]))
            assert other.status_code == 409 and "seat to act" in other.json()["error"]
            mine = client.get(f"/api/games/{game}", headers=bearer(tokens[seat])).json()
            legal = [entry["action"] for entry in mine["legal_actions"]]
            answer = client.post(f"/api/games/{game}/hint", headers=bearer(tokens[seat]))
            assert answer.status_code == 200, answer.text
            hint = answer.json()
            assert hint["seat"] == seat and hint["move_number"] == mine["move_number"]
            assert 1 <= len(hint["moves"]) <= 3 and all(move["action"] in legal for move in hint["moves"])
            assert len({tuple(move["action"]) for move in hint["moves"]}) == len(hint["moves"])
            if len(legal) > 1:
                assert hint["simulations"] == 60 and all(0 <= move["chance"] <= 1 for move in hint["moves"])
                assert all(isinstance(move["words"], str) and move["words"] for move in hint["moves"])
            assert client.post(f"/api/games/{game}/hint", headers=bearer(tokens[seat])).json() == hint  # kept
            client.post(f"/api/games/{game}/actions", headers=bearer(tokens[seat]),
                        json={"move_number": mine["move_number"], "action": rng.choice(legal)})
    # The setting is kept with the game: a server started again on the same folder still allows hints.
    with TestClient(create_app([DEFINITION], str(tmp_path), analysis_bot=SEARCH)) as client:
        assert client.get(f"/api/games/{game}/page", headers=bearer(tokens[0])).json()["hints"] is True


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 150), st.integers(0, 2**32),
       st.sampled_from(ENGINES))
def test_a_served_hint_never_peeks(players: int, seed: int, actions: int, twin_draw: int, engine: str) -> None:
    # Two positions identical in all the seat to act knows, different in what it cannot know: the same hint, its
    # words included (told on a position drawn from the seat's knowledge, never the game's own).
    found = position_and_twin("ffg2015", players, seed, actions, twin_draw, engine)
    if found is None:
        return
    state, twin, seat = found
    hints = [hint_answer(DEFINITION, position, seat, "mcts-replies:24", seed, 3) for position in (state, twin)]
    assert hints[0] == hints[1]


def test_the_server_answers_a_page_while_it_analyses(client: TestClient) -> None:
    created = start(client, ["human", "greedy"])
    game, token = created["game"], created["seats"][0]["token"]
    play(client, game, token)
    other = start(client, ["human", "greedy"], seed=4)
    with mock.patch("samurai.web.host.GameHost.analysis_bot_of", return_value="hard"):
        started = client.post(f"/api/games/{game}/analysis", json={}).json()
    assert started["state"] == "running" and started["bot"] == "hard"
    # The analysis runs in the server's workers: a seat's page and the analysis' progress are answered meanwhile.
    page = client.get(f"/api/games/{other['game']}/page", headers=bearer(other["seats"][0]["token"]))
    progress = client.get(f"/api/games/{game}/analysis").json()
    assert page.status_code == 200 and progress["state"] == "running" and progress["done"] < progress["moves"]
    # Asked again while it runs: the same analysis (one at a time per game), not a second one.
    again = client.post(f"/api/games/{game}/analysis", json={}).json()
    assert again["state"] == "running" and again["bot"] == "hard"


def test_the_analysis_benchmark_prints_its_figures() -> None:
    # On a small search, so that the test is quick: the same lines as at hard (docs/analysis.md has those figures).
    # In its own process, as a person runs it: it starts a real server, its workers and threads.
    done = subprocess.run([sys.executable, "-m", "samurai", "bench", "--analysis", "--analysis-bot", "mcts-replies:20"],
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert re.search(r"analyse-game at mcts-replies:20, a 4-player game of ffg2015 played by medium \(\d+ decisions, "
                     r"\d+ searched\): [\d.]+ s on one core", out), out
    assert re.search(r"a hint at mcts-replies:20, \d+ positions of that game: median [\d.]+ s", out), out
    assert re.search(r"random \d+ of \d+ decisions searched, mcts-replies:20 \d+ of \d+ decisions searched", out), out
    assert re.search(r"the page while samurai serve analyses a 4-player game at mcts-replies:20 with one worker "
                     r"\(done in [\d.]+ s\): a seat's page in \d+ ms median", out), out


def test_the_analysis_benchmark_refuses_a_bot_that_does_not_search(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--analysis", "--analysis-bot", "random"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("samurai: error: --analysis-bot: ") and len(error.strip().splitlines()) == 1


def test_a_daimyo_game_is_analysed_and_hinted_through_the_same_routes(tmp_path: Path) -> None:
    # Any game behind the protocol: Daimyo's definition names its own search (medium: its search is Python's); here
    # the server's small one judges it and gives the hint, the move played told in the words of the game's log.
    from samurai_plugins.daimyo.web import DaimyoDefinition

    daimyo = DaimyoDefinition()
    assert daimyo.analysis_bot == "medium"
    with TestClient(create_app([daimyo], str(tmp_path), analysis_bot="mcts-replies:8")) as client:
        response = client.post("/api/games", json={"game": "daimyo", "edition": "daimyo", "seats": ["human", "random"],
                                                   "seed": 5, "hints": True})
        assert response.status_code == 201, response.text
        game, token = response.json()["game"], response.json()["seats"][0]["token"]
        hint = client.post(f"/api/games/{game}/hint", headers=bearer(token)).json()
        assert 1 <= len(hint["moves"]) <= 3 and all(move["words"].startswith("You ") for move in hint["moves"])
        play(client, game, token)
        found = analysed(client, game)["analysis"]
        lines = [m["line"] for m in client.get(f"/api/games/{game}/moves").json()["moves"]]
        assert [d["played_words"] for d in found["decisions"]] == lines
        frame = client.get(f"/api/games/{game}/replay", params={"step": 1}).json()
        assert frame["judged"]["number"] == 0 and frame["svg"].startswith("<")


def test_an_uploaded_record_is_analysed_from_its_own_start(client: TestClient, tmp_path: Path) -> None:
    example = Path(__file__).parent.parent / "docs" / "examples" / "four-players.json"
    response = client.post("/api/records", content=example.read_bytes(), headers={"Content-Type": "application/json"})
    assert response.status_code == 201, response.text
    found = analysed(client, response.json()["game"])["analysis"]
    first, moves = record_moves(read_record_file(str(example)), source=str(example))
    expected = analyse_moves(first, moves, bot=SEARCH, seed=ANALYSIS_SEED).to_dict()
    assert [figures(d) for d in found["decisions"]] == expected["decisions"]
