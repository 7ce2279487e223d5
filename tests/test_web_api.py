"""The JSON HTTP API of ``samurai serve`` (docs/http-api.md), through Starlette's TestClient: no browser.

Issue 10 items 3, 4 (the store), 6 (security) and 8 (the web layer speaks the
protocol plus a game definition).
"""

from __future__ import annotations

import json
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

from samurai.web.app import create_app
from samurai.web.store import Store
from samurai_plugins.knizia.adapters.web import SamuraiDefinition
from samurai_plugins.knizia.play.record_files import from_record, record_from_dict, replay

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEFINITION = SamuraiDefinition()
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app([DEFINITION], str(tmp_path))) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, seats: list[str], seed: int = 7, edition: str = "ffg2015") -> dict[str, Any]:
    """Start a game dealt from ``seed``: chosen, with one person; the server's own draw made ``seed`` with more."""
    if seats.count("human") > 1:
        with mock.patch("samurai.web.host.draw_seed", return_value=seed):
            response = client.post("/api/games", json={"edition": edition, "seats": seats})
    else:
        response = client.post("/api/games", json={"edition": edition, "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def play_out(client: TestClient, game: str, tokens: dict[int, str], rng: random.Random, *,
             stop_at: int | None = None) -> dict[str, Any]:
    """Play random legal actions for the people's seats until the end (or move ``stop_at``)."""
    any_token = next(iter(tokens.values()))
    while True:
        state = client.get(f"/api/games/{game}", headers=bearer(any_token)).json()
        if state["over"] or (stop_at is not None and state["move_number"] >= stop_at):
            return state
        seat = state["to_act"]
        if seat not in tokens:
            time.sleep(0.005)  # a bot moves in the server's background task
            continue
        mine = client.get(f"/api/games/{game}", headers=bearer(tokens[seat])).json()
        action = rng.choice(mine["legal_actions"])["action"]
        response = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[seat]),
                               json={"move_number": mine["move_number"], "action": action})
        assert response.status_code == 200, response.text


def test_catalog_offers_installed_editions_by_key_and_the_bots(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    samurai = catalog["games"][0]
    assert samurai["game"] == "samurai"
    assert {"ffg2015", "original"} <= {e["key"] for e in samurai["editions"]}
    assert {"random", "greedy"} <= set(samurai["bots"])
    assert all("/" not in e["key"] for e in samurai["editions"])


def test_a_game_with_two_people_is_played_to_the_end_and_its_record_replays_to_the_same_result(
        client: TestClient) -> None:
    created = create(client, ["human", "human"])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert all(created["seats"][s]["link"] == f"/play/{created['game']}#token={tokens[s]}" for s in tokens)
    final = play_out(client, created["game"], tokens, random.Random(1))
    assert final["over"] and final["view"]["result"] is not None
    record = client.get(f"/api/games/{created['game']}/record").json()
    game = from_record(record_from_dict(record))
    assert list(game.result.winners) == final["view"]["result"]["winners"]  # type: ignore[union-attr]
    assert len(record["actions"]) == final["move_number"]


def test_bots_move_after_a_person_and_only_on_their_own_seat(client: TestClient) -> None:
    created = create(client, ["human", "greedy"], seed=3)
    token = created["seats"][0]["token"]
    assert created["seats"][1]["token"] is None
    final = play_out(client, created["game"], {0: token}, random.Random(2))
    assert final["over"]
    assert final["returns"] is not None and sum(final["returns"]) == pytest.approx(1.0)


def test_a_missing_or_wrong_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    first = create(client, ["human", "human"])
    other = create(client, ["human", "human"], seed=8)
    game = first["game"]
    token = first["seats"][0]["token"]
    legal = client.get(f"/api/games/{game}", headers=bearer(token)).json()["legal_actions"][0]["action"]
    body = {"move_number": 0, "action": legal}
    assert client.post(f"/api/games/{game}/actions", json=body).status_code == 401
    assert client.get(f"/api/games/{game}").status_code == 401
    assert client.get(f"/api/games/{game}/page").status_code == 401
    stranger = other["seats"][0]["token"]
    refused = client.post(f"/api/games/{game}/actions", json=body, headers=bearer(stranger))
    assert refused.status_code == 403 and "error" in refused.json()
    assert client.post(f"/api/games/{game}/actions", json=body, headers=bearer(token + "x")).status_code == 403
    assert client.get(f"/api/games/{game}/events", headers=bearer(stranger)).status_code == 403
    after = client.get(f"/api/games/{game}", headers=bearer(token)).json()
    assert after["move_number"] == 0
    assert Store(client.app.state.host.store.folder).load(game).actions == ()  # type: ignore[union-attr]


def test_an_illegal_action_gets_the_engines_reason_and_a_stale_one_409(client: TestClient) -> None:
    created = create(client, ["human", "human"])
    game, tokens = created["game"], [s["token"] for s in created["seats"]]
    state = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
    illegal = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[0]),
                          json={"move_number": 0, "action": [2, 0, 0]})
    assert illegal.status_code == 400
    assert illegal.json()["error"].startswith("illegal action [2, 0, 0]: ")
    assert client.post(f"/api/games/{game}/actions", headers=bearer(tokens[0]),
                       json={"move_number": 0, "action": ["x"]}).status_code == 400
    legal = state["legal_actions"][0]["action"]
    assert client.post(f"/api/games/{game}/actions", headers=bearer(tokens[0]),
                       json={"move_number": 0, "action": legal}).status_code == 200
    stale = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[1]),
                        json={"move_number": 0, "action": legal})
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    now = client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
    waiting = 1 - now["to_act"]  # the seat whose turn it is not
    assert client.get(f"/api/games/{game}", headers=bearer(tokens[waiting])).json()["legal_actions"] == []
    wrong_turn = client.post(f"/api/games/{game}/actions", headers=bearer(tokens[waiting]),
                             json={"move_number": 1, "action": legal})
    assert wrong_turn.status_code == 409 and f"seat {now['to_act']}'s turn" in wrong_turn.json()["error"]
    assert client.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()["move_number"] == 1


def test_every_payload_is_cut_to_the_seats_view(client: TestClient) -> None:
    created = create(client, ["human", "human"], seed=11)
    game, tokens = created["game"], [s["token"] for s in created["seats"]]
    host = client.app.state.host
    for _ in range(6):  # both seats choose some starting tiles
        play_out(client, game, dict(enumerate(tokens)), random.Random(5),
                 stop_at=host.game(game).state.move_number + 1)
    live = host.game(game)
    for seat, token in enumerate(tokens):
        state = client.get(f"/api/games/{game}", headers=bearer(token)).json()
        assert state["view"] == json.loads(json.dumps(live.state.view(seat)))
        page = client.get(f"/api/games/{game}/page", headers=bearer(token)).json()
        assert page["seat"] == seat
        # The page's tray holds this seat's unchosen tiles, and its log never names the other seat's choices.
        tray = sorted(item["key"].removeprefix("tile:") for item in page["controls"]["tray"]
                      for _ in range(item["count"]))
        assert tray == live.state.view(seat)["unchosen"]
        theirs = [entry["lines"][0] for entry in page["log"] if entry["lines"][0].startswith(f"Seat {1 - seat}")]
        assert theirs and all(line == f"Seat {1 - seat} keeps a tile for the starting hand" for line in theirs)
        for step in (1, 2):
            frame = client.get(f"/api/games/{game}/replay?step={step}", headers=bearer(token)).json()
            assert frame["seat"] == seat and not frame["public"]
            assert all(line.startswith("You keep") or line == f"Seat {1 - seat} keeps a tile for the starting hand"
                       for line in frame["lines"])
    # While the game goes on, a seat replays only its own view, and only with its token.
    assert client.get(f"/api/games/{game}/replay?step=1").status_code == 401
    assert client.get(f"/api/games/{game}/replay?step=1&seat=1", headers=bearer(tokens[0])).status_code == 403
    assert client.get(f"/api/games/{game}/record").status_code == 409


def test_bad_create_requests_are_refused_with_the_field(client: TestClient) -> None:
    cases = [
        ({"edition": "ffg2015", "seats": ["human"]}, "players"),
        ({"edition": "nope", "seats": ["human", "human"]}, "no edition 'nope'"),
        ({"edition": "editions/ffg2015.toml", "seats": ["human", "human"]}, "no edition"),
        ({"edition": "ffg2015", "seats": ["human", "mastermind"]}, "seats[1]"),
        ({"edition": "ffg2015", "seats": "human"}, "seats must be a list"),
        ({"edition": "ffg2015", "seats": ["human", "human"], "seed": -1}, "seed"),
        ({"edition": "ffg2015", "seats": ["human", "human"], "options": {"nope": 1}}, "nope"),
        ({"edition": "ffg2015", "seats": ["human", "human"], "colour": "red"}, "unknown field 'colour'"),
    ]
    for body, words in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, body
        assert words in response.json()["error"], (body, response.json())
    assert client.post("/api/games", content=b"{not json", headers=JSON).status_code == 400


def test_request_bodies_are_limited_in_size(tmp_path: Path) -> None:
    with TestClient(create_app([DEFINITION], str(tmp_path), max_body=1000)) as small:
        big = json.dumps({"edition": "ffg2015", "seats": ["human", "human"], "pad": "x" * 2000})
        response = small.post("/api/games", content=big, headers={"Content-Type": "application/json"})
        assert response.status_code == 413

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams in
            for _ in range(20):
                yield b"x" * 100

        assert small.post("/api/records", content=chunks(), headers=JSON).status_code == 413
        assert small.get("/api/games").json()["games"] == []


def test_no_request_reaches_the_file_system_by_a_path_it_names(client: TestClient) -> None:
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/index.html").headers["content-type"].startswith("text/html")
    for path in ("/static/..%2Fapp.py", "/static/../app.py", "/static/%2e%2e/store.py", "/static/nope.js",
                 "/static/..%2F..%2Fpyproject.toml"):
        assert client.get(path).status_code == 404, path
    record = {"schema": 1, "edition": str(Path("editions/ffg2015.toml").resolve()), "edition_version": "1",
              "players": 2, "seed": 1, "options": {}, "actions": []}
    refused = client.post("/api/records", json=record)
    assert refused.status_code == 400 and "not served here" in refused.json()["error"]
    on_a_map = {**record, "edition": "ffg2015", "map": "/etc/passwd.toml"}
    assert client.post("/api/records", json=on_a_map).status_code == 400


def test_a_saved_record_opens_for_replay_and_each_step_can_be_shown(client: TestClient, tmp_path: Path) -> None:
    import samurai

    game = samurai.new_game("ffg2015", players=3, seed=4)
    samurai.play_bots(game, ["greedy", "random"], seed=4)
    path = samurai.save(game, tmp_path / "saved.json")
    opened = client.post("/api/records", content=path.read_bytes(), headers=JSON)
    assert opened.status_code == 201
    game_id, steps = opened.json()["game"], opened.json()["steps"]
    assert steps == len(game.history)
    first = client.get(f"/api/games/{game_id}/replay?step=0&seat=2").json()
    assert first["step"] == 0 and first["seat"] == 2 and "<svg" in first["svg"]
    last = client.get(f"/api/games/{game_id}/replay?step={steps}").json()
    assert last["status"]["result"]["winners"] == list(game.result.winners)  # type: ignore[union-attr]
    assert client.get(f"/api/games/{game_id}/replay?step={steps + 1}").status_code == 400
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [game_id] and listed[0]["imported"]
    broken = json.loads(path.read_text())
    broken["actions"][3] = broken["actions"][2]
    refused = client.post("/api/records", json=broken)
    assert refused.status_code == 400 and "action" in refused.json()["error"]


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/replay/abc"):
        response = client.get(path)
        assert response.status_code == 200 and '<script src="/static/app.js"' in response.text
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert client.get("/api/games/nope").status_code == 404


def test_a_manifest_named_by_the_person_running_the_server_is_offered_by_its_id(tmp_path: Path) -> None:
    manifest = str(Path(__file__).parent.parent / "docs" / "examples" / "open-screens.toml")
    definition = SamuraiDefinition([manifest])
    with TestClient(create_app([definition], str(tmp_path))) as client:
        keys = [e["key"] for e in client.get("/api/catalog").json()["games"][0]["editions"]]
        assert "open-screens" in keys
        created = create(client, ["human", "random"], edition="open-screens")
        play_out(client, created["game"], {0: created["seats"][0]["token"]}, random.Random(3))
        record = client.get(f"/api/games/{created['game']}/record").json()
        assert record["edition"] == "open-screens"  # as the engine's records name an edition: by its id
        assert client.post("/api/records", json=record).status_code == 201
    with TestClient(create_app([DEFINITION], str(tmp_path / "other"))) as plain:
        assert plain.post("/api/records", json=record).status_code == 400  # not served there: not read


def test_samurai_serve_refuses_bad_arguments_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from samurai.cli import main

    a_file = tmp_path / "file"
    a_file.write_text("")
    for argv, words in ((["serve", "--edition", str(tmp_path / "missing.toml")], "missing.toml"),
                        (["serve", "--data-dir", str(a_file)], "is a file")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("samurai: error: ") and words in err and err.count("\n") == 1, err
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert capsys.readouterr().err == "samurai: error: --bot-delay: must be 0 or more seconds, not -1.0\n"


def test_a_game_whose_edition_is_no_longer_served_is_refused_and_the_others_resume(tmp_path: Path) -> None:
    manifest = str(Path(__file__).parent.parent / "docs" / "examples" / "open-screens.toml")
    with TestClient(create_app([SamuraiDefinition([manifest])], str(tmp_path))) as first:
        variant = create(first, ["human", "human"], edition="open-screens")
        plain = create(first, ["human", "human"])
    with TestClient(create_app([DEFINITION], str(tmp_path))) as again:  # started without --edition
        refused = again.get(f"/api/games/{variant['game']}", headers=bearer(variant["seats"][0]["token"]))
        assert refused.status_code == 503 and "open-screens" in refused.json()["error"]
        assert again.get(f"/api/games/{plain['game']}", headers=bearer(plain["seats"][0]["token"])).status_code == 200


def test_the_headline_counts_rounds_of_every_seat_not_single_turns() -> None:
    """Issue 24: "Turn 5" on a person's second turn with 4 players read as the fifth turn; a round is every seat's."""
    from samurai_plugins.knizia.adapters.game_state import start
    from samurai_plugins.knizia.adapters.search_bots import make_bot

    state = start("ffg2015", 4, 3)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    seen = {}
    while not state.is_over and len(seen) < 9:
        view = state.view(0)
        if view["phase"] == "play":
            seen[view["turn"]] = DEFINITION.status(view)["headline"]
        state.apply(state.ask(bots[state.to_act]))
    assert seen[1] == seen[4] == "Round 1" and seen[5] == seen[8] == "Round 2" and seen[9] == "Round 3"


def test_each_game_offers_its_rules_page_and_pictures_as_the_docs_have_them(client: TestClient) -> None:
    """Issue 24 point 2: the page's "How to play" panel shows docs/rules, shipped with the package."""
    rules = Path(__file__).resolve().parent.parent / "docs" / "rules"
    games = {g["game"]: g for g in client.get("/api/catalog").json()["games"]}
    assert games["samurai"]["rules"] == "/rules/samurai.md"
    page = client.get("/rules/samurai.md")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/markdown")
    assert page.content == (rules / "samurai.md").read_bytes()
    for picture in sorted((rules / "pictures").glob("*.svg")):
        served = client.get(f"/rules/pictures/{picture.name}")
        assert served.status_code == 200 and served.headers["content-type"] == "image/svg+xml"
        assert served.content == picture.read_bytes()
    for name in ("nothing.md", "..%2Fsamurai.md", "pictures%2F..%2F..%2Fpyproject.toml", "pictures"):
        assert client.get(f"/rules/{name}").status_code == 404, name
    assert client.get("/rules/pictures/..%2Fsamurai.md").status_code == 404
    game = create(client, ["human", "greedy"])
    payload = client.get(f"/api/games/{game['game']}/page", headers=bearer(game["seats"][0]["token"])).json()
    assert payload["rules"] == "/rules/samurai.md"


def test_the_catalog_offers_each_editions_options_with_defaults_and_choices(client: TestClient) -> None:
    editions = {e["key"]: e for g in client.get("/api/catalog").json()["games"] for e in g["editions"]}
    options = {o["name"]: o for o in editions["ffg2015"]["options"]}
    assert options["removed_to_end"]["default"] == 4 and options["removed_to_end"]["choices"] == []
    assert options["starting_hands"]["choices"] == ["choose", "random"]
    assert "docs/rules/samurai.md#" in options["removed_to_end"]["description"]


def test_the_catalog_says_how_long_each_bot_thinks_where_it_was_measured(client: TestClient) -> None:
    """Issue 24 point 1: each level's typical time per move, per player count, for the new-game form."""
    from samurai_plugins.knizia.adapters.web import NATIVE_BOT_SECONDS
    from samurai_plugins.knizia.engine.backends import native_module

    editions = {e["key"]: e for g in client.get("/api/catalog").json()["games"] for e in g["editions"]}
    shown = editions["ffg2015"]["bot_seconds"]
    if native_module() is None:  # the Python engine's searches were not measured per level
        assert shown == {}
        return
    assert shown == {bot: {str(n): s for n, s in by.items()} for bot, by in NATIVE_BOT_SECONDS.items()}
    for level in ("easy", "medium", "hard", "expert"):
        times = [shown[level][n] for n in ("2", "3", "4")]
        assert times == sorted(times), level  # more seats, longer thinking
    assert shown["easy"]["4"] < shown["medium"]["4"] < shown["hard"]["4"]


def test_the_hint_says_what_the_turn_still_allows_and_the_end_opens_the_screens() -> None:
    """Issue 24: the hint said "Play a tile" after the turn's normal tile was down, and the finished game's facts
    still called every seat's captures hidden while showing them."""
    from samurai_plugins.knizia.adapters.game_state import start
    from samurai_plugins.knizia.adapters.search_bots import make_bot
    from samurai_plugins.knizia.engine.reference import END

    state = start("ffg2015", 2, 5)
    bots = [make_bot("greedy", seat) for seat in range(2)]
    seen = set()
    while not state.is_over:
        seat = state.to_act
        if state.state.phase == 2:  # play
            hint = DEFINITION.controls(state, seat).hints[""]
            legal = state.legal_actions()
            if state.state.played == 0:
                assert hint.startswith("Play a tile from your hand")
            elif all(action[0] == END for action in legal):
                assert hint.startswith("End your turn")
            elif state.state.normal_played:
                assert hint.startswith("Your normal tile is down: play a fast tile")
            seen.add(hint.split(":")[0])
        facts = dict(DEFINITION.status(state.view(seat))["facts"])
        assert facts["Captured"] == "figures by caste (behind a screen: hidden)"
        state.apply(state.ask(bots[seat]))
    assert {"Play a tile from your hand", "End your turn"} <= seen
    assert dict(DEFINITION.status(state.view(0))["facts"])["Captured"] == "figures by caste, every seat's open"


def test_the_replay_lists_every_move_as_the_seat_saw_it(client: TestClient) -> None:
    """Issue 24: a clickable move list in the replay; while the game goes on a token lists its own seat's view."""
    game = create(client, ["human", "greedy"])
    token = game["seats"][0]["token"]
    ongoing = client.get(f"/api/games/{game['game']}/moves", headers=bearer(token))
    assert ongoing.status_code == 200
    moves = ongoing.json()["moves"]
    state = client.get(f"/api/games/{game['game']}", headers=bearer(token)).json()
    assert [m["step"] for m in moves] == list(range(1, state["move_number"] + 1))
    assert client.get(f"/api/games/{game['game']}/moves?seat=1", headers=bearer(token)).status_code == 403
    assert client.get(f"/api/games/{game['game']}/moves").status_code in (401, 403)
    play_out(client, game["game"], {0: token}, random.Random(3))
    finished = client.get(f"/api/games/{game['game']}/moves?seat=1").json()["moves"]
    frames = [client.get(f"/api/games/{game['game']}/replay?step={m['step']}&seat=1").json() for m in finished[:40]]
    assert all(move["line"] == frame["lines"][0] for move, frame in zip(finished[:40], frames, strict=True))


def test_all_hands_open_shows_every_hand_and_capture_of_a_finished_game_only(client: TestClient) -> None:
    """Issue 24: a finished game's replay offers "all hands open"; while the game goes on nobody may ask for it."""
    game = create(client, ["human", "greedy"], seed=11)
    game_id, token = game["game"], game["seats"][0]["token"]
    for path in ("replay", "moves"):
        refused = client.get(f"/api/games/{game_id}/{path}?seat=all", headers=bearer(token))
        assert refused.status_code == 403 and "once the game is over" in refused.json()["error"], path
    play_out(client, game_id, {0: token}, random.Random(5))
    record = client.get(f"/api/games/{game_id}/record").json()
    steps = (0, 12, 30, len(record["actions"]) // 2)
    views = {number: [game.view(seat) for seat in (0, 1)]  # replay moves one game on: keep its views as it goes
             for number, game in enumerate(replay(record_from_dict(record))) if number in steps}
    for step in steps:
        frame = client.get(f"/api/games/{game_id}/replay?step={step}&seat=all").json()
        assert frame["seat"] == "all" and frame["step"] == step
        facts = dict(frame["status"]["facts"])
        for seat in (0, 1):
            view = views[step][seat]
            assert facts[f"Seat {seat}'s hand"] == (", ".join(view["hand"]) or "empty"), (step, seat)
            assert frame["status"]["rows"][seat][2:] == [view["seats"][seat]["captured"][c]
                                                         for c in ("buddha", "rice", "castle")], (step, seat)
    assert [m["line"] for m in client.get(f"/api/games/{game_id}/moves?seat=all").json()["moves"]] == \
        [m["line"] for m in client.get(f"/api/games/{game_id}/moves?seat=1").json()["moves"]]


def test_the_page_draws_the_board_alone_and_sends_the_key_beside_it(client: TestClient) -> None:
    """Issue 24: the board fills its card; the table the picture used to carry is the sidebar's, its key too."""
    game = create(client, ["human", "greedy"])
    payload = client.get(f"/api/games/{game['game']}/page", headers=bearer(game["seats"][0]["token"])).json()
    assert 'id="hexes"' in payload["svg"] and 'id="table"' not in payload["svg"]
    assert 'class="hand-tile"' not in payload["svg"]  # the hand is the tray's
    assert "<svg" in payload["key"] and "Switch tile" in payload["key"] and "castle" in payload["key"]
