"""docs/embedding.md: its examples run as written (from the repository root)."""

from __future__ import annotations

import re

from helpers import ROOT

GUIDE = (ROOT / "docs" / "embedding.md").read_text()
EXAMPLES = re.findall(r"```python\n(.*?)```", GUIDE, re.DOTALL)


def test_the_guide_has_the_complete_example_and_the_scenario_example():
    assert len(EXAMPLES) == 4
    complete = EXAMPLES[0]
    for step in ("samurai.new_game", "samurai.play_bots", "samurai.save", "samurai.load", "replay_lines"):
        assert step in complete


def test_the_complete_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(EXAMPLES[0], "docs/embedding.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("refused: ") and "is illegal" in out[0]
    assert out[1].startswith("winners (")
    assert out[2].startswith("ffg2015 1.0.0, 3 players, seed 42")
    assert out[3].startswith("Result: ")
    assert out[-1].startswith("  removed by ties: ")


def test_the_bot_and_any_game_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(EXAMPLES[1], "docs/embedding.md", "exec"), {})
    knizia, daimyo = capsys.readouterr().out.splitlines()
    assert knizia.startswith("ffg2015: (") and daimyo.startswith("daimyo: (")


def test_the_scenario_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(EXAMPLES[2], "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out.startswith("(")


def test_the_trust_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(EXAMPLES[3], "docs/embedding.md", "exec"), {})
    assert capsys.readouterr().out == "refused: edition\n"


def test_the_api_table_lists_everything_exported():
    import samurai

    for name in samurai.__all__:
        if name in ("__version__", "CASTES", "END_REASONS", "Coord", "Action", "SamuraiError"):
            continue
        assert name in GUIDE, name
