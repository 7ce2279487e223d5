"""The page as a person sees it, at a laptop's size and a phone's (issue 24): headless Chromium from the system
driven by Playwright, against a real ``samurai serve`` on 127.0.0.1.

Layout facts are measured in the browser, never compared with pictures: the board alone fills its card, nothing runs
past its card, the page is never wider than the window, text inside the board is at least 11 px with four players at
1400x900, and on a phone every hex is at least 40 px wide (a finger's tap) in a card that scrolls. On the phone a
person plays the first turns of a game by tapping, opens the rules and the replay of a finished game, with its list
of moves and all hands open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from samurai_plugins.knizia.play.record_files import record_from_dict, replay

from webhelpers import DESKTOP, LAYOUT_FACTS, PHONE, browser_page, require_chromium

require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")
PlaywrightError = playwright_api.Error

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

TAP_TARGET = """() => {
  // The middle of a place to click that is in sight in the board's card (scrolled into sight if none is).
  const card = document.getElementById('board');
  const targets = [...card.querySelectorAll('#page-highlights .target')];
  if (!targets.length || !play.chosen.length) return null;
  const seen = card.getBoundingClientRect();
  const middle = (t) => { const r = t.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  let target = targets.find((t) => { const [x, y] = middle(t);
    return x > seen.left + 4 && x < seen.right - 4 && y > seen.top + 4 && y < seen.bottom - 4 && y < innerHeight; });
  if (!target) { targets[0].scrollIntoView({block: 'center', inline: 'center'}); target = targets[0]; }
  const [x, y] = middle(target);
  return x > 0 && x < innerWidth && y > 0 && y < innerHeight ? [x, y] : 'out of sight';  // the page brings it in
}"""


def start_game(page: Any, url: str, players: int, bots: str, seed: int) -> None:
    """Start a game from the new-game form, seat 0 a person and the others ``bots``, and open seat 0's page."""
    page.goto(url + "/")
    page.select_option("#players", str(players))
    page.select_option("#seat-0", "human")
    for seat in range(1, players):
        page.select_option(f"#seat-{seat}", bots)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.click(".seat-link[data-seat='0']")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#move-box.active", timeout=30000)


def assert_tidy(facts: dict[str, Any]) -> None:
    """What holds at every size: the picture as wide as its card, nothing past its card, the page no wider
    than the window."""
    assert facts["pictureWidth"] >= facts["cardWidth"] - 2 or facts["scrolls"], facts
    assert facts["overflows"] == [], facts["overflows"]
    assert not facts["pageWider"], facts


def test_with_four_players_at_1400x900_the_board_fills_its_card_and_its_text_is_readable(tmp_path: Path) -> None:
    with browser_page(tmp_path, DESKTOP) as (page, url, errors):
        start_game(page, url, 4, "random", 3)
        facts = page.evaluate(LAYOUT_FACTS, "board")
        assert_tidy(facts)
        assert facts["smallestText"] >= 11, facts
        assert facts["cardWidth"] >= 0.6 * facts["windowWidth"], facts  # the board, not a side panel, is big
        assert not facts["scrolls"], facts
        assert page.is_visible("#key svg") and "Switch tile" in page.inner_text("#key")
        page.click("#how-to-play")
        page.wait_for_selector("#rules-text h2")
        panel = page.locator("#rules-panel").bounding_box()
        assert panel is not None and panel["x"] >= 0 and panel["x"] + panel["width"] <= 1400
        assert errors == []


def test_on_a_phone_a_person_plays_by_tapping_hexes_a_finger_wide_and_replays_all_hands_open(tmp_path: Path) -> None:
    with browser_page(tmp_path, PHONE) as (page, url, errors):
        start_game(page, url, 2, "random", 5)
        facts = page.evaluate(LAYOUT_FACTS, "board")
        assert_tidy(facts)
        assert facts["scrolls"] and facts["narrowestPlace"] >= 40 and facts["lowestPlace"] >= 40, facts
        # The tray is drawn anew when the seat's view arrives: measure it once its tiles are laid out (bounded wait).
        page.wait_for_function("() => [...document.querySelectorAll('#tray .tile')].some((t) => t.offsetHeight > 0)",
                               timeout=30000)
        heights = page.eval_on_selector_all("#tray .tile", "tiles => tiles.map((t) => t.offsetHeight)")
        assert heights and min(heights) >= 40, heights

        # Tap through the starting hand, the figures and the first turns of play.
        taps = board_taps = 0
        while page.evaluate("play.payload.status.phase") != "play" or taps < 40:
            page.wait_for_selector("#move-box.active, #result:not([hidden])", timeout=30000)
            if page.is_visible("#result"):
                break
            taps += 1
            assert taps < 300, page.inner_text("#hint")
            before = page.evaluate("[play.payload.move_number, play.chosen.length]")
            try:
                spot = page.evaluate(TAP_TARGET)
                assert spot != "out of sight", "a tile is chosen but the page shows no place to tap"
                if spot is not None:
                    page.touchscreen.tap(*spot)
                    board_taps += 1
                elif page.is_visible("#tray .tile:not(:disabled):not(.chosen)"):
                    page.locator("#tray .tile:not(:disabled):not(.chosen)").first.tap(timeout=2000)
                else:
                    page.locator("#buttons [data-key='end']").tap(timeout=2000)
                page.wait_for_function("(b) => play.payload.move_number !== b[0] || play.chosen.length !== b[1] "
                                       "|| document.querySelector('#result:not([hidden])')", arg=before,
                                       timeout=5000)
            except PlaywrightError:  # the page was drawn again under the finger (a bot moved): look again
                continue
        assert page.evaluate("play.payload.status.phase") in ("play", "over") and board_taps >= 8, board_taps
        assert_tidy(page.evaluate(LAYOUT_FACTS, "board"))
        page.locator("#how-to-play").tap()  # the rules, in a panel that fits the phone
        page.wait_for_selector("#rules-text h2")
        panel = page.locator("#rules-panel").bounding_box()
        assert panel is not None and panel["x"] >= 0 and panel["x"] + panel["width"] <= 390, panel
        page.keyboard.press("Escape")
        assert errors == []

        # A finished game's replay, on the same phone: the list of moves and all hands open.
        record = json.loads((EXAMPLES / "four-players.json").read_text())
        game_id = httpx.post(url + "/api/records", json=record).json()["game"]
        page.goto(f"{url}/replay/{game_id}")
        page.wait_for_selector("#replay-board svg")
        page.wait_for_selector("#move-list button[data-step='30']")
        assert_tidy(page.evaluate(LAYOUT_FACTS, "replay-board"))
        page.locator("#move-list button[data-step='30']").tap()
        page.wait_for_function("() => document.querySelector('#step-label').textContent"
                               ".startsWith('position after 30 of')")
        page.select_option("#perspective", "all")
        page.wait_for_function("() => document.querySelector('#replay-facts').textContent.includes(\"Seat 3's\")")
        game = next(game for number, game in enumerate(replay(record_from_dict(record))) if number == 30)
        facts_text = page.inner_text("#replay-facts")
        for seat in range(4):
            hand = ", ".join(game.view(seat)["hand"]) or "empty"
            assert f"Seat {seat}'s hand: {hand}" in facts_text, (seat, facts_text)
        assert errors == []
