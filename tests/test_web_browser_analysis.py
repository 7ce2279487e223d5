"""A finished game's analysis and the hints, in a real browser (issue 25, point 5): headless Chromium from the
system driven by Playwright, against a real ``samurai serve`` on 127.0.0.1.

A person starts a game against a bot with hints allowed, asks for a hint and sees its move on the board, plays on
to the end, opens the analysis, clicks a mistake and sees the board jump there with the preferred move drawn; in a
game started without hints, no seat can ask for one.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from webhelpers import DESKTOP, browser_page, require_chromium

require_chromium()

pytest.importorskip("playwright.sync_api")

SEARCH = "mcts-replies:300"
"""The server's analysis and hints in these tests: enough to find the mistakes of a seat that plays its first legal
action every turn, quick enough for a test."""
PATIENCE = 300
"""Seconds the test waits at most for the bot's moves and the analysis."""


def _play_first_actions(url: str, game: str, token: str) -> None:
    """The person plays on to the end through the JSON API, the first legal action every turn (poor play)."""
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + PATIENCE
    with httpx.Client(base_url=url, timeout=60) as client:
        while True:
            state = client.get(f"/api/games/{game}", headers=headers).json()
            if state["over"]:
                return
            if state["to_act"] != state["seat"]:
                assert time.monotonic() < deadline, "the bot did not move"
                time.sleep(0.02)
                continue
            answer = client.post(f"/api/games/{game}/actions", headers=headers,
                                 json={"move_number": state["move_number"],
                                     "action": state["legal_actions"][0]["action"]})
            assert answer.status_code == 200, answer.text


def _start_from_the_form(page: Any, url: str, *, hints: bool) -> tuple[str, str]:
    """A two-player game of FFG 2015 against greedy started in the page's form, seed 3; (game id, seat 0's token)."""
    page.goto(url + "/")
    page.select_option("#edition", "samurai/ffg2015")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "greedy")
    page.fill("#seed", "3")
    if hints:
        page.check("#allow-hints")
    page.click("#start")
    link = page.wait_for_selector("a.seat-link[data-seat='0']", timeout=30_000).get_attribute("href")
    found = re.fullmatch(r"/play/([\w-]+)#token=([\w-]+)", link)
    assert found, link
    return found.group(1), found.group(2)


def test_a_hint_then_the_analysis_of_the_finished_game_and_a_click_on_a_mistake(tmp_path: Path) -> None:
    with browser_page(tmp_path, DESKTOP, ("--analysis-bot", SEARCH)) as (page, url, _):
        game, token = _start_from_the_form(page, url, hints=True)
        page.goto(f"{url}/play/{game}#token={token}")
        page.wait_for_selector("#ask-hint", state="visible", timeout=30_000)
        assert page.inner_text("#hints-note") == "Hints are allowed in this game, for every seat."
        # The setup's first choice: the hint lists the search's best moves with the seat's chance under each.
        page.click("#ask-hint")
        page.wait_for_selector("#hint-list li", timeout=60_000)
        entries = page.query_selector_all("#hint-list li")
        assert 1 <= len(entries) <= 3
        assert all(re.search(r"your chance \d+%", entry.inner_text()) for entry in entries)
        entries[0].query_selector("button").click()
        assert page.query_selector(".suggested, #page-highlights .focused") is not None  # shown where to click
        _play_first_actions(url, game, token)
        # The page follows the game to its end, and its result offers the replay.
        page.wait_for_selector("#result:not([hidden])", timeout=60_000)
        page.click("#replay-link")
        page.wait_for_selector("#analyse", state="visible", timeout=30_000)
        page.click("#analyse")
        page.wait_for_selector("#analysis-graph svg polyline", timeout=PATIENCE * 1000)
        assert len(page.query_selector_all("#analysis-graph polyline")) == 2  # one line per seat
        marks = page.query_selector_all("#analysis-graph circle.mark")
        mistakes = page.query_selector_all("#mistake-list button.mistake, #mistake-list button.blunder")
        assert mistakes and len(marks) == len(mistakes)
        assert page.query_selector_all("#move-list button.mistake, #move-list button.blunder")
        # A click on a mistake: the board jumps to the position after it, which says what the search preferred.
        target = int(mistakes[0].get_attribute("data-step"))
        mistakes[0].click()
        page.wait_for_function(f"() => replay.loaded === {target}", timeout=30_000)
        assert page.input_value("#slider") == str(target)
        judged = page.inner_text("#judged")
        assert re.match(r"A (mistake|blunder): Seat 0's chance \d+%; the search preferred", judged), judged
        assert page.query_selector("#move-list button.current").get_attribute("data-step") == str(target)
        # Seed 3's first mistake is a tile played where the search would have played another: drawn dashed green.
        assert " plays " in judged.split("preferred", 1)[1], judged
        assert page.query_selector("#replay-board svg #preferred polygon.preferred") is not None
        # A click on the graph jumps too: at its left edge, the start.
        box = page.query_selector("#analysis-graph svg").bounding_box()
        page.click("#analysis-graph svg", position={"x": 3, "y": box["height"] / 2})
        page.wait_for_function("() => replay.loaded === 0", timeout=30_000)


def test_no_seat_can_ask_for_a_hint_in_a_game_started_without_them(tmp_path: Path) -> None:
    with browser_page(tmp_path, DESKTOP, ("--analysis-bot", SEARCH)) as (page, url, _):
        game, token = _start_from_the_form(page, url, hints=False)
        page.goto(f"{url}/play/{game}#token={token}")
        page.wait_for_function("() => document.getElementById('hints-note').textContent !== ''", timeout=30_000)
        assert page.inner_text("#hints-note") == "Hints are off in this game."
        assert page.is_hidden("#hint-box")
        page.keyboard.press("h")  # the hint key does nothing
        assert page.query_selector_all("#hint-list li") == []
        answer = httpx.post(f"{url}/api/games/{game}/hint", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 403
