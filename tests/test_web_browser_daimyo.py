"""Daimyo and Shinobi's page in a real browser (issue 12): headless Chromium from the system (Debian's
``chromium``), driven by Playwright through its executable path, against a real ``samurai serve`` on 127.0.0.1,
as tests/test_web_browser.py does for Knizia's game.

A person starts a game of Daimyo against the random bot, clicks squares to flip tiles (a Heiya next to the
Daimyo, which is removed, then two Ki) and to move the Daimyo into the square the Heiya left, sees the board
change after each click, remembers where the Ki lie and flips them again on two turns in a row (Yonhon no ki,
docs/rules/daimyo.md#yonhon-no-ki), and replays the finished game with the slider; its record replays.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from samurai.catalog.editions import load_edition
from samurai.records import play_record_from_dict, replayed
from samurai_plugins import daimyo

from webhelpers import DESKTOP, LAYOUT_FACTS, PHONE, browser_page, require_chromium

require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")
PlaywrightError = playwright_api.Error

WHITE_DAIMYO = "b1"
NEIGHBOURS = ("a1", "c1", "a2", "b2", "c2")
"""The squares next to White's Daimyo on b1 (docs/rules/daimyo.md#ruling-start)."""


def a_deal() -> tuple[int, str, tuple[str, str]]:
    """A seed whose deal has a Heiya next to White's Daimyo, and the squares of two Ki (they never leave the
    board, so a player who saw them can flip them again)."""
    edition = load_edition("daimyo")
    for seed in range(1000):
        state = edition.start(2, seed)
        assert isinstance(state, daimyo.DaimyoState)
        faces = {daimyo.square_name(sq): face for sq, face in enumerate(state.tile)}
        heiya = [name for name in NEIGHBOURS if faces[name] == daimyo.HEIYA]
        ki = sorted(name for name, face in faces.items() if face == daimyo.KI and name not in NEIGHBOURS)
        if heiya and len(ki) >= 2:
            return seed, heiya[0], (ki[0], ki[1])
    raise AssertionError("no deal of the first 1000 seeds has a Heiya next to White's Daimyo")


def square_text(page: Any, name: str) -> str:
    """What the board on the page shows on a square, in the words of its tooltip (``c3: empty``)."""
    return str(page.evaluate("(name) => document.querySelector(`#board [data-square='${name}']`)"
                             ".parentNode.querySelector('title').textContent", name))


def click_square(page: Any, name: str) -> None:
    """Click the middle of a square of the board, as a person does (waiting for the square to be drawn: the
    board is drawn again after every action, so a square may be missing for a moment)."""
    deadline = time.monotonic() + 30
    while True:
        # bounding_box waits for the square, but gives None when the board is redrawn between finding the square
        # and measuring it (the square found is gone): then look for the new one.
        left_ms = max(1.0, (deadline - time.monotonic()) * 1000)
        square = page.locator(f"#board [data-square='{name}']")
        try:  # on a phone the board may be larger than its card: scroll the square into sight first
            square.scroll_into_view_if_needed(timeout=left_ms)
        except PlaywrightError:  # the board was drawn again meanwhile: look for the new square
            pass
        box = square.bounding_box(timeout=left_ms)
        if box is not None:
            break
        assert time.monotonic() < deadline, f"square {name} is not shown"
        page.wait_for_timeout(50)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.touchscreen.tap(x, y)  # a phone: a finger's tap
    else:
        page.mouse.click(x, y)


def my_turn(page: Any) -> bool:
    """Wait until it is this seat's turn (True) or the game is over (False)."""
    page.wait_for_selector("#move-box.active, #result:not([hidden])", timeout=30000)
    return not page.is_visible("#result")


def legal_clicks(page: Any) -> list[list[str]]:
    """The squares of each legal action, as the page offers them (a flip: one square; a move: two)."""
    keys = page.evaluate("play.payload.controls.paths.map((path) => path.keys)")
    return [[_square(key) for key in path] for path in keys]


def _square(key: str) -> str:
    file, rank = key.removeprefix("hex:").split(",")
    return "abcdef"[int(file)] + str(int(rank) + 1)


def play_clicks(page: Any, squares: list[str]) -> None:
    """Click the squares of one action and wait for the page to show the position after it."""
    before = page.evaluate("play.payload.move_number")
    for square in squares:
        click_square(page, square)
    page.wait_for_function("(n) => play.payload.move_number > n", arg=before, timeout=30000)


def shown_step(page: Any, step: int, steps: int) -> None:
    """Wait until the replay shows the position after ``step`` actions (loaded, not only asked for)."""
    page.wait_for_function("(text) => document.querySelector('#step-label').textContent === text",
                           arg=f"position after {step} of {steps} actions", timeout=30000)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_person_flips_and_moves_by_clicking_squares_against_a_bot_and_replays_the_game(
        tmp_path: Path, device: dict[str, Any]) -> None:
    seed, heiya, (ki_1, ki_2) = a_deal()
    with browser_page(tmp_path, device) as (page, url, errors):
        page.goto(url + "/")
        page.select_option("#edition", "daimyo/daimyo")
        assert page.eval_on_selector_all("#players option", "options => options.map(o => o.value)") == ["2"]
        page.select_option("#seat-0", "human")
        page.select_option("#seat-1", "random")
        page.fill("#seed", str(seed))
        page.click("#start")
        page.click(".seat-link[data-seat='0']")
        page.wait_for_selector("#board svg [data-square='a1']")
        game_id = page.url.split("/play/")[1].split("#")[0]
        facts = page.evaluate(LAYOUT_FACTS, "board")  # the board alone in its card, nothing past its card
        assert facts["overflows"] == [] and not facts["pageWider"], facts
        assert facts["pictureWidth"] >= facts["cardWidth"] - 2 or facts["scrolls"], facts
        assert facts["narrowestPlace"] >= 40 and facts["smallestText"] >= 11, facts

        # Turn 1: the Heiya next to the Daimyo is flipped and removed (its square is empty), then two Ki.
        assert my_turn(page) and [heiya] in legal_clicks(page)
        assert square_text(page, heiya) == f"{heiya}: face-down tile"
        play_clicks(page, [heiya])
        assert square_text(page, heiya) == f"{heiya}: empty"
        assert "Heiya on" in page.inner_text("#log")
        play_clicks(page, [ki_1])
        assert square_text(page, ki_1) == f"{ki_1}: ki, face up this turn"
        play_clicks(page, [ki_2])  # two Ki: both go back face down and the turn ends
        flips, moves = 3, 0

        # Turn 3 onwards: the Daimyo moves into the square the Heiya left; then the two Ki, twice.
        plan = [[WHITE_DAIMYO, heiya], [ki_1], [ki_2], [ki_1], [ki_2]]
        turns = 0
        while my_turn(page):
            turns += 1
            assert turns < 200, "the game did not end"
            offered = legal_clicks(page)
            wanted = plan[0] if plan else None
            if wanted is not None and wanted in offered:
                chosen = plan.pop(0)
            else:  # the bot threatened the Daimyo (Kyousei: a move it must make), or a flip of its own
                chosen = next((path for path in offered if len(path) == 2), offered[0])
            play_clicks(page, chosen)
            if len(chosen) == 2:
                moves += 1
                if chosen == [WHITE_DAIMYO, heiya]:
                    assert square_text(page, heiya) == f"{heiya}: White daimyo"
                    assert square_text(page, WHITE_DAIMYO) == f"{WHITE_DAIMYO}: empty"
            else:
                flips += 1
        assert plan == [], f"the planned clicks were not all played: {plan}"
        assert moves >= 1 and flips >= 7
        explanation = page.inner_text("#explanation")
        assert "Yonhon no ki" in explanation and "wins" in page.inner_text("#winner")

        page.click("#replay-link")
        page.wait_for_selector("#replay-board svg [data-square='a1']")
        steps = int(page.get_attribute("#slider", "max") or 0)
        page.fill("#slider", "1")  # drag the slider to position 1: the Heiya is gone
        shown_step(page, 1, steps)
        assert page.evaluate("(name) => document.querySelector(`#replay-board [data-square='${name}']`)"
                             ".parentNode.querySelector('title').textContent", heiya) == f"{heiya}: empty"
        page.click("#next")
        shown_step(page, 2, steps)
        assert "It is ki" in page.inner_text("#step-lines")
        page.click("#first")
        shown_step(page, 0, steps)

        record = httpx.get(f"{url}/api/games/{game_id}/record").json()
        assert (record["game"], record["edition"], record["seed"]) == ("daimyo", "daimyo", seed)
        assert len(record["actions"]) == steps
        final = replayed(play_record_from_dict(record))
        assert final.is_over and final.returns() == (0.0, 1.0)  # White flipped two Ki on two turns in a row
        assert record["actions"][0] == [daimyo.FLIP, daimyo.square_of(heiya)]
        assert [daimyo.MOVE, daimyo.square_of(WHITE_DAIMYO), daimyo.square_of(heiya)] in record["actions"]

