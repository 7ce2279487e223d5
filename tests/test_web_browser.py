"""The page in a real browser (issue 10 item 7): headless Chromium from the system (Debian's ``chromium``),
driven by Playwright through its executable path (no browser download).

A person starts a two-player game against a bot, plays it to the end by clicking, replays it with the
slider, and the bot's hand never appears in the page or in what the page receives.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from samurai_plugins.knizia.play.record_files import record_from_dict, replay

from webhelpers import CHROMIUM, Server, require_chromium

require_chromium()

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright

RECORDER = """
// Keep every event-stream message the page receives, to check what reached the browser.
window.__received = [];
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(...args) {
    super(...args);
    this.addEventListener("update", (event) => window.__received.push(event.data));
  }
};
"""


def _click_next(page: Any) -> bool:
    """Make one click of a legal action as a person would; False when nothing can be clicked just now."""
    target = page.query_selector("#page-highlights .target")
    chosen = page.evaluate("play.chosen.length")
    if chosen and target:
        box = target.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return True
    # Move and Switch first when they can be played, so the game shows their clicks on the board.
    tile = (page.query_selector("#tray .tile[data-key='tile:switch']:not(:disabled):not(.chosen)")
            or page.query_selector("#tray .tile[data-key='tile:move']:not(:disabled):not(.chosen)")
            or page.query_selector("#tray .tile:not(:disabled):not(.chosen)"))
    if tile:
        tile.click(timeout=2000)
        return True
    end = page.query_selector("#buttons [data-key='end']")
    if end:
        end.click(timeout=2000)
        return True
    return False


def _hands_by_move(record: dict[str, Any], seat: int) -> dict[int, tuple[Counter[str], Counter[str]]]:
    """The seat's hand and unchosen tiles after each action of the finished game."""
    hands = {}
    for number, game in enumerate(replay(record_from_dict(record))):
        view = game.view(seat)
        hands[number] = Counter(view["hand"]), Counter(view.get("unchosen", []))
    return hands


def test_a_person_plays_a_whole_game_against_a_bot_by_clicking_and_replays_it(tmp_path: Path) -> None:
    server = Server(tmp_path, bot_delay=0.0)
    responses: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.add_init_script(RECORDER)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            def keep(response: Any) -> None:
                if "/api/" in response.url and "/events" not in response.url:
                    try:
                        responses.append(response.text())
                    except Exception:  # noqa: BLE001 - a response the page dropped while navigating
                        return

            page.on("response", keep)
            page.goto(server.url + "/")
            page.select_option("#players", "2")
            page.select_option("#seat-0", "human")
            page.select_option("#seat-1", "greedy")
            page.fill("#seed", "12")
            page.click("#start")
            page.click(".seat-link[data-seat='0']")
            page.wait_for_selector("#tray .tile")

            idle = 0
            while True:
                page.wait_for_selector("#move-box.active, #result:not([hidden])", timeout=30000)
                if page.is_visible("#result"):
                    break
                page.wait_for_timeout(20)
                try:
                    clicked = _click_next(page)
                except Exception:  # noqa: BLE001 - the page redrew under the click (a bot moved): look again
                    clicked = False
                idle = 0 if clicked else idle + 1
                assert idle < 200, f"nothing to click: {page.inner_text('#hint')}"
            assert "win" in page.inner_text("#winner")
            assert "Leader token" in page.inner_text("#explanation") or "wins" in page.inner_text("#explanation")
            game_id = page.url.split("/play/")[1].split("#")[0]
            received = page.evaluate("window.__received")
            page_text = page.content()

            page.click("#replay-link")
            page.wait_for_selector("#replay-board svg")
            steps = int(page.get_attribute("#slider", "max") or 0)
            assert steps > 40
            page.fill("#slider", "10")  # drag the slider to position 10
            page.wait_for_function("() => document.querySelector('#step-label').textContent"
                                   ".startsWith('position after 10 of')")
            page.click("#next")
            page.wait_for_function("() => document.querySelector('#step-label').textContent"
                                   ".startsWith('position after 11 of')")
            assert page.inner_text("#step-lines")
            page.click("#first")
            page.wait_for_function("() => document.querySelector('#step-label').textContent"
                                   ".startsWith('position after 0 of')")
            assert errors == []
            browser.close()

        record = httpx.get(f"{server.url}/api/games/{game_id}/record").json()
        actors = [game.current_player for game in replay(record_from_dict(record)) if not game.is_over]
        clicked = {action["action"] for action, actor in zip(record["actions"], actors, strict=True) if actor == 0}
        assert {"MoveTile", "SwitchFigures"} <= clicked  # both played by clicking two places on the board
        mine, theirs = _hands_by_move(record, 0), _hands_by_move(record, 1)
        payloads = [json.loads(text) for text in received] + [
            json.loads(text) for text in responses if text.startswith("{") and '"svg"' in text
            and '"controls"' in text]
        assert len(payloads) > 20
        checked = 0
        for payload in payloads:
            assert payload["seat"] == 0
            number = payload["move_number"]
            hand, unchosen = mine[number]
            tray = Counter(item["key"].removeprefix("tile:") for item in payload["controls"]["tray"]
                           for _ in range(item["count"]) if item["key"].startswith("tile:"))
            phase = payload["status"]["phase"]
            if phase != "place_figures":
                assert tray == (unchosen if phase == "choose_hands" else hand), number
            # The picture is the board alone: no hand in it, this seat's or another's.
            assert 'class="hand-tile"' not in payload["svg"], number
            their_hand, their_unchosen = theirs[number]
            if their_hand + their_unchosen != hand + unchosen:
                assert tray != their_hand + their_unchosen
                checked += 1
        assert checked > 10
        # What the page showed at the end tells the bot's moves, never the tiles it kept.
        assert "Seat 1 keeps a tile for the starting hand" in page_text
        assert "Seat 1 keeps samurai" not in page_text and "Seat 1 keeps castle" not in page_text
    finally:
        server.stop()


def test_how_to_play_shows_the_rules_of_the_chosen_game_with_their_pictures(tmp_path: Path) -> None:
    """Issue 24 point 2: a "How to play" panel with the game's rules page, its pictures drawn, its own sections
    linked; the Daimyo edition shows Daimyo's rules (opened with the ? key); Escape closes it."""
    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/")
            page.wait_for_selector("#how-to-play:not([hidden])")
            page.click("#how-to-play")
            page.wait_for_selector("#rules-panel[open] #rules-text h2")
            assert page.inner_text("#rules-text h2") == "How to play Samurai (Reiner Knizia)"
            page.wait_for_load_state("networkidle")
            widths = page.eval_on_selector_all("#rules-text img", "images => images.map(i => i.naturalWidth)")
            assert len(widths) == 2 and all(width > 0 for width in widths), widths  # both pictures drawn
            # three tables: the tiles, the islands, the editions
            assert page.eval_on_selector_all("#rules-text table", "tables => tables.length") == 3
            # The notes for designers (hooks, options, commands) are not shown to players; the anchors are places.
            shown = page.inner_text("#rules-text")
            assert "Designers" not in shown and "samurai_end_check_timing" not in shown and "<a id" not in shown
            assert page.eval_on_selector("#rules-end-check", "anchor => anchor.className") == "rules-anchor"
            # A link to a section of the page moves the panel there.
            page.click("#rules-text a.rules-link >> text=The two editions")
            page.wait_for_timeout(300)
            top = page.eval_on_selector("#rules-the-two-editions", "h => h.getBoundingClientRect().top")
            assert 0 <= top < 400, top
            page.keyboard.press("Escape")
            assert not page.is_visible("#rules-panel")
            daimyo = page.eval_on_selector("#edition",
                                           "s => [...s.options].find(o => o.value.endsWith('/daimyo')).value")
            page.select_option("#edition", daimyo)
            page.keyboard.press("?")
            page.wait_for_selector("#rules-text h2:has-text('Daimyo and Shinobi')")
            assert page.is_visible("#rules-panel")
            assert errors == []
            browser.close()
    finally:
        server.stop()


def test_the_new_game_form_offers_the_editions_options_and_sends_the_changed_ones(tmp_path: Path) -> None:
    """Issue 24 point 1: the edition's options in the form; only those changed from their defaults are sent, and an
    option's "rules" link opens the rules at the section it changes."""
    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            sent: list[dict[str, Any]] = []
            page.on("request", lambda request: sent.append(json.loads(request.post_data or "{}"))
                    if request.url.endswith("/api/games") and request.method == "POST" else None)
            page.goto(server.url + "/")
            page.wait_for_selector("#edition-options:not([hidden])")
            page.click("#edition-options summary")
            for width, height in ((1400, 900), (390, 844)):  # nothing in the form runs past its card
                page.set_viewport_size({"width": width, "height": height})
                overflow = page.eval_on_selector_all("#new-game select, #new-game input", """fields => fields.filter(
                    f => f.getBoundingClientRect().right > f.closest('.card').getBoundingClientRect().right + 0.5
                ).map(f => f.id)""")
                assert overflow == [], (width, overflow)
            page.set_viewport_size({"width": 1400, "height": 900})
            assert page.input_value("#option-removed_to_end") == "4"
            page.click(".option:has(#option-removed_to_end) a.option-rules")
            page.wait_for_selector("#rules-panel[open] #rules-end", state="attached")  # an anchor: a place, no size
            page.keyboard.press("Escape")
            page.fill("#option-removed_to_end", "3")
            page.select_option("#players", "2")
            page.select_option("#seat-1", "greedy")
            page.click("#start")
            page.wait_for_selector("#links a")
            assert sent and sent[-1]["options"] == {"removed_to_end": 3}
            browser.close()
    finally:
        server.stop()


def test_the_form_says_how_long_each_bot_thinks_at_the_chosen_table(tmp_path: Path) -> None:
    """Issue 24 point 1: each level's measured time per move at the table's player count, beside its name."""
    from samurai_plugins.knizia.engine.backends import native_module

    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(server.url + "/")
            page.wait_for_selector("#seat-1")
            page.select_option("#players", "4")
            labels = page.eval_on_selector("#seat-1",
                                           "s => Object.fromEntries([...s.options].map(o => [o.value, o.text]))")
            if native_module() is not None:
                assert labels["hard"] == "hard bot · ~0.10 s a move" and labels["greedy"] == "greedy bot · instant"
            daimyo = page.eval_on_selector("#edition",
                                           "s => [...s.options].find(o => o.value.endsWith('/daimyo')).value")
            page.select_option("#edition", daimyo)
            labels = page.eval_on_selector("#seat-1",
                                           "s => Object.fromEntries([...s.options].map(o => [o.value, o.text]))")
            assert labels["hard"] == "hard bot · ~1.4 s a move" and labels["medium"] == "medium bot · ~0.08 s a move"
            browser.close()
    finally:
        server.stop()


def test_seat_names_are_whole_in_a_four_player_game(tmp_path: Path) -> None:
    """Issue 24: with 4 players the seats table cut names ("Seat 1 · gre…")."""
    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(server.url + "/")
            page.select_option("#players", "4")
            for seat in (1, 2, 3):
                page.select_option(f"#seat-{seat}", "greedy")
            page.click("#start")
            page.click(".seat-link[data-seat='0']")
            page.wait_for_selector("#seats tbody th")
            cells = page.eval_on_selector_all("#seats tbody th", """cells => cells.map(
                c => [c.textContent, c.scrollWidth <= c.clientWidth + 1])""")
            assert [name for name, _ in cells] == ["Seat 0 (you)", "Seat 1 · greedy", "Seat 2 · greedy",
                                                   "Seat 3 · greedy"]
            assert all(fits for _, fits in cells), cells
            browser.close()
    finally:
        server.stop()


def test_the_replays_move_list_jumps_to_a_clicked_move(tmp_path: Path) -> None:
    """Issue 24: the replay shows every move in a list; a click shows the position after it and marks it."""
    server = Server(tmp_path, bot_delay=0.0)
    try:
        created = httpx.post(server.url + "/api/games", json={"edition": "ffg2015", "seats": ["greedy", "greedy"],
                                                              "seed": 4}, timeout=30).json()
        for _ in range(600):  # two greedy bots finish a game in a moment; the bound keeps the wait finite
            if httpx.get(f"{server.url}/api/games/{created['game']}/replay", timeout=30).status_code == 200:
                break
            time.sleep(0.05)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{server.url}/replay/{created['game']}")
            page.wait_for_selector("#move-list button[data-step='40']")
            steps = page.eval_on_selector_all("#move-list button", "buttons => buttons.length") - 1
            assert page.inner_text("#step-label") == f"position after {steps} of {steps} actions"
            page.click("#move-list button[data-step='40']")
            page.wait_for_selector("#move-list button.current[data-step='40']")
            assert page.inner_text("#step-label") == f"position after 40 of {steps} actions"
            assert page.inner_text("#step-lines li") == page.inner_text("#move-list button[data-step='40']")
            browser.close()
    finally:
        server.stop()


def test_where_to_click_is_marked_in_no_seats_or_castes_colour(tmp_path: Path) -> None:
    """Issue 24: the rings Switch and the other clicks drew were seat 1's blue, next to rice's sky blue; the marks
    are now ink black and dashed, a shape as well as a colour."""
    from samurai_plugins.knizia.play.render import SEAT_COLOURS

    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(server.url + "/")
            page.select_option("#players", "2")
            page.select_option("#seat-1", "greedy")
            page.fill("#seed", "5")
            page.click("#start")
            page.click(".seat-link[data-seat='0']")
            page.wait_for_selector("#tray .tile")
            for _ in range(400):  # through the starting hand to the first figure, whose settlements are marked
                if page.query_selector("#page-highlights .target"):
                    break
                page.wait_for_selector("#move-box.active, #page-highlights .target", timeout=30000)
                try:
                    _click_next(page)
                except Exception:  # noqa: BLE001 - the tray was redrawn under the click: look again
                    pass
                page.wait_for_timeout(30)
            style = page.eval_on_selector("#page-highlights .target", """t => {
                const s = getComputedStyle(t); return [s.stroke, s.strokeDasharray]; }""")
            browser.close()
    finally:
        server.stop()
    forbidden = {f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})"
                 for c in (*SEAT_COLOURS, "#56B4E9", "#E69F00", "#F0E442")}
    assert style[0] not in forbidden and style[1] not in ("", "none"), style


def test_a_person_plays_from_the_keyboard(tmp_path: Path) -> None:
    """Issue 24: keyboard play for the main actions: a digit takes a tile of the tray, the arrows walk the marked
    places and Enter picks one; a person keeps a starting hand and places a figure without the mouse."""
    server = Server(tmp_path, bot_delay=0.0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/")
            page.select_option("#players", "2")
            page.select_option("#seat-1", "greedy")
            page.fill("#seed", "8")
            page.click("#start")
            page.click(".seat-link[data-seat='0']")

            def my_turn_at_least(move: int) -> None:
                for _ in range(600):  # bounded: a greedy bot answers in milliseconds
                    if page.evaluate("play.payload && play.payload.to_act === play.payload.seat "
                                     f"&& play.payload.move_number >= {move} && !play.posting"):
                        return
                    page.wait_for_timeout(20)
                raise AssertionError(f"not my turn at move {move}")

            my_turn_at_least(0)
            while page.evaluate("play.payload.status.phase") == "choose_hands":
                before = page.evaluate("play.payload.move_number")
                page.keyboard.press("1")
                my_turn_at_least(before + 1)
            assert page.evaluate("play.payload.status.phase") == "place_figures"
            before = page.evaluate("play.payload.move_number")
            page.keyboard.press("1")  # the first figure of the tray
            page.wait_for_selector("#page-highlights .target")
            page.keyboard.press("ArrowRight")
            page.wait_for_selector("#page-highlights .focused")
            page.keyboard.press("Enter")
            my_turn_at_least(before + 1)
            assert errors == []
            browser.close()
    finally:
        server.stop()
