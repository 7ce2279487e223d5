"""Why a game was won (issue 25): ``samurai analyse-game``, ``samurai.runs.analysis`` and its report."""

from __future__ import annotations

import base64
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samurai.cli.program import main
from samurai.records import read_record_file, record_moves
from samurai.runs.analysis import MISTAKE, analyse_decision, analyse_moves, hint
from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.adapters.search_bots import make_bot
from samurai_plugins.knizia.engine.backends import native_module

from helpers import position_and_twin, randomly_played

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
FOUR = EXAMPLES / "four-players.json"
ENGINES = ("python", "native") if native_module() is not None else ("python",)


class _Page(HTMLParser):
    """The tags of a page and the text of its script (for checking a report is well formed)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _analyse(tmp_path: Path, name: str, *extra: str) -> tuple[dict, str]:
    html, data = tmp_path / f"{name}.html", tmp_path / f"{name}.json"
    assert main(["analyse-game", str(FOUR), "--bot", "mcts-replies:50", "-o", str(html), "--json", str(data),
                 *extra]) == 0
    return json.loads(data.read_text()), html.read_text()


def test_analyse_game_writes_a_deterministic_report_and_json(tmp_path, capsys):
    first, page = _analyse(tmp_path, "a")
    again, _ = _analyse(tmp_path, "b")
    assert first == {**again, "record": first["record"]}
    out = capsys.readouterr().out
    assert "decisions judged by mcts-replies:50; mistakes by seat: " in out
    start_state, moves = record_moves(read_record_file(FOUR), source=str(FOUR), folder=EXAMPLES)
    assert len(first["decisions"]) == len(moves) and first["players"] == 4 and first["winners"] == [0]
    grades = {d["grade"] for d in first["decisions"]}
    assert "forced" in grades and "good" in grades
    for decision in first["decisions"]:
        if decision["grade"] in ("mistake", "blunder"):
            assert decision["loss"] >= MISTAKE and decision["number"] in first["mistakes"]
        if decision["preferred"] is not None:
            assert len(decision["preferred"]["chances"]) == 4 and "words" in decision["preferred"]
            assert decision["played_words"]["action"]
    assert 1 <= len(first["turning_points"]) <= 5
    # The page: well formed, the graph inline with a line per seat, no address outside the file.
    parser = _Page()
    parser.feed(page)
    tags = [tag for tag, _ in parser.tags]
    assert tags.count("svg") == 1 and tags.count("script") == 3  # the graph; the boards are packed, unpacked when shown
    assert sum(1 for tag, attrs in parser.tags if tag == "polyline" and attrs.get("class") == "seat-line") == 4
    assert not any(attrs.get("src") or (attrs.get("href") or "").startswith("http") for _, attrs in parser.tags)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    assert len(page) < 5_000_000
    # Every move's board, gzipped inline: the move played outlined, the preferred one dashed.
    boards = json.loads(page.split('id="analysis-boards">', 1)[1].split("</script>", 1)[0])
    assert sorted(map(int, boards)) == list(range(len(moves)))
    svgs = [gzip.decompress(base64.b64decode(boards[str(d["number"])])).decode() for d in first["decisions"]
            if d["grade"] == "good" and d["preferred"]["action"] != d["played"] and d["played"][0] == 2]
    assert svgs and all('class="mark"' in svg and 'class="preferred"' in svg for svg in svgs[:5])


def test_one_seat_and_a_png(tmp_path, capsys):
    pytest.importorskip("resvg_py")
    png = tmp_path / "graph.png"
    data = tmp_path / "one.json"
    assert main(["analyse-game", str(FOUR), "--bot", "mcts-replies:20", "--seat", "2", "--png", str(png),
                 "--json", str(data)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert {d["seat"] for d in json.loads(data.read_text())["decisions"]} == {2}


@pytest.mark.parametrize("args, message", [
    (["--bot", "random"], "'random' does not search"),
    (["--level", "hard", "--bot", "mcts:5"], "give --level or --bot, not both"),
    (["--seat", "7"], "the game has seats 0 to 3, not 7"),
    (["-o", "report.txt"], "the report is written as .html"),
    (["--level", "mcts-replies:50"], "no level 'mcts-replies:50'; levels: easy, medium, hard, expert"),
])
def test_bad_options_are_one_line_and_exit_2(args, message, capsys):
    assert main(["analyse-game", str(FOUR), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_png_without_the_png_extra_is_refused_before_any_search(tmp_path, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "resvg_py" else real(name, *a))
    with mock.patch("samurai.runs.analysis.analyse_moves") as analyse:
        assert main(["analyse-game", str(FOUR), "--png", str(tmp_path / "graph.png")]) == 2
    assert not analyse.called
    err = capsys.readouterr().err
    assert "needs resvg-py" in err and len(err.strip().splitlines()) == 1


def test_a_bad_record_is_one_line_and_exit_2(tmp_path):
    changed = json.loads(FOUR.read_text())
    changed["actions"][40] = {"action": "EndTurn"}
    (tmp_path / "bad.json").write_text(json.dumps(changed))
    (tmp_path / "junk.json").write_text("{not json")
    for name in ("bad.json", "junk.json", "missing.json"):
        result = subprocess.run([sys.executable, "-m", "samurai.cli", "analyse-game", str(tmp_path / name),
                                 "--bot", "mcts:5"], capture_output=True, text=True, check=False)
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith("samurai: error: ") and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_mistakes_are_found_on_the_random_seat_far_more_than_on_the_searching_one():
    # Eight 2-player games of random against a search (seats swapped each game), each judged by a stronger search.
    counts = {"random": 0, "search": 0}
    for game in range(8):
        names = ["random", "mcts-replies:200"] if game % 2 == 0 else ["mcts-replies:200", "random"]
        first = start("ffg2015", 2, 100 + game)
        state, moves = first.copy(), []
        bots = [make_bot(name, game * 10 + seat) for seat, name in enumerate(names)]
        while not state.is_over:
            moves.append(state.ask(bots[state.to_act]))
            state.apply(moves[-1])
        found = analyse_moves(first, moves, bot="mcts-replies:800", seed=game).mistakes_by_seat()
        for seat, name in enumerate(names):
            counts["random" if name == "random" else "search"] += found[seat]
    assert counts["random"] >= 10 and counts["random"] >= 4 * counts["search"], counts


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(("ffg2015", "original")), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 150),
       st.integers(0, 2**32), st.sampled_from(ENGINES))
def test_the_analysis_and_hints_never_peek(edition, players, seed, actions, twin_draw, engine):
    # Two positions identical in all the seat to act knows, different in what it cannot know (other seats' tiles,
    # every stack's order, the game's generator): the same judgement of a move and the same hint.
    found = position_and_twin(edition, players, seed, actions, twin_draw, engine)
    if found is None:
        return
    state, twin, seat = found
    played = state.sample_action(random.Random(seed))
    judged = [analyse_decision(position.knowledge(seat), played, actions, bot="mcts-replies:24", seed=seed)
              for position in (state, twin)]
    assert judged[0] == judged[1]
    hints = [hint(position.knowledge(seat), bot="mcts-replies:24", seed=seed) for position in (state, twin)]
    assert hints[0] == hints[1]


def test_a_hint_gives_the_top_three_moves_with_every_seats_chance():
    state = randomly_played("ffg2015", 3, 5, 60, ENGINES[-1])
    rng = random.Random(1)
    while len(state.legal_actions()) == 1:  # an end of turn alone: forced, no figures
        forced = hint(state.knowledge(state.to_act), bot="medium")
        assert forced.simulations == 0 and forced.choices[0].action == state.legal_actions()[0]
        state.apply(state.sample_action(rng))
    assert len(state.legal_actions()) > 3
    found = hint(state.knowledge(state.to_act), bot="medium", seed=3)
    assert found.seat == state.to_act and len(found.choices) == 3 and found.simulations == 800
    visits = [choice.visits for choice in found.choices]
    assert visits == sorted(visits, reverse=True)
    assert all(len(choice.chances) == 3 and abs(sum(choice.chances) - 1) < 1e-9 for choice in found.choices)
    assert all(state.check(choice.action) is None for choice in found.choices)


def test_daimyo_is_analysed_through_the_python_search():
    path = EXAMPLES / "daimyo-game.json"
    first, moves = record_moves(read_record_file(path), source=str(path), folder=EXAMPLES)
    found = analyse_moves(first, moves[:6], bot="mcts:8", seed=2)
    assert len(found.decisions) == 6 and all(len(d.preferred.chances) == 2 for d in found.decisions if d.preferred)



def test_analyse_game_reports_a_daimyo_game(tmp_path, capsys):
    report = tmp_path / "daimyo.html"
    assert main(["analyse-game", str(EXAMPLES / "daimyo-game.json"), "--bot", "mcts:3", "--seat", "1",
                 "-o", str(report)]) == 0
    page = report.read_text()
    assert page.count('class="seat-line"') == 2 and "<svg" in page


CHROMIUM = next((path for path in (os.environ.get("SAMURAI_CHROMIUM"), shutil.which("chromium"),
                                   shutil.which("chromium-browser")) if path), None)


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="no chromium on this machine")
def test_the_report_shows_its_graph_in_chromium(tmp_path):
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    data, _ = _analyse(tmp_path, "browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.goto((tmp_path / "browser.html").as_uri())
            graph = page.locator("#chance-graph")
            box = graph.bounding_box()
            assert graph.is_visible() and box is not None and box["width"] > 300 and box["height"] > 150
            assert page.locator("#chance-graph polyline.seat-line").count() == 4
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            # The board at the first mistake (or the first move), then at a clicked entry and at the slider's move.
            page.wait_for_selector("#analysis-board svg")
            entry = page.locator("button.entry").last
            number = entry.get_attribute("data-n")
            entry.click()
            page.wait_for_function(f"document.getElementById('analysis-board').dataset.n === '{number}'")
            assert page.locator("#analysis-board svg").first.is_visible()
            assert f"move {number}, seat " in page.locator("#analysis-said").text_content()
            page.locator("#analysis-slider").fill("30")
            page.wait_for_function("document.getElementById('analysis-board').dataset.n === '30'")
            assert page.locator("#analysis-board svg").first.is_visible() and errors == []
        finally:
            browser.close()
