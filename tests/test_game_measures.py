"""What ``samurai compare`` measures is the game's (issue 12): ``GameDefinition.measures``, a
``samurai.catalog.games.GameMeasures`` (a watch of one game's facts and the metrics over paired games). Knizia's
metrics are its entry; a game that supplies none is measured by what the protocol shows of any game."""

from __future__ import annotations

import re

from samurai.catalog.editions import load_edition
from samurai.runs.compare import PROTOCOL_MEASURES, measures_of
from samurai.runs.matches import play_match
from samurai_plugins import daimyo as d
from samurai_plugins.knizia.adapters.measures import game_facts, knizia_metrics
from samurai_plugins.knizia.adapters.runner import play_game
from samurai_plugins.knizia.play.record_files import record_of
from samurai_plugins.knizia.plugin import GAME as KNIZIA_GAME
from samurai_plugins.knizia.plugin import MEASURES as KNIZIA_MEASURES
from samurai_plugins.knizia.plugin import PANELS

from helpers import ROOT, TINY_EDITION


def test_each_game_is_measured_by_its_own_definition():
    assert measures_of([load_edition("daimyo"), load_edition("daimyo-nobori")]) is d.MEASURES
    assert measures_of([load_edition("ffg2015"), load_edition("original")]) is KNIZIA_MEASURES
    assert d.GAME.measures is d.MEASURES


def test_knizias_watch_collects_the_facts_its_records_show():
    edition = load_edition(TINY_EDITION)
    rules = edition.rules(3)
    for seed in range(3):
        watch = KNIZIA_MEASURES.watch(edition, 3)
        actions: list[tuple[int, ...]] = []
        final = play_game(rules, seed, ["random", "greedy"], actions=actions, watch=watch.see)
        assert watch.facts(final) == game_facts(record_of(rules, seed, actions, final=final), edition=edition)


def test_knizias_metrics_are_its_entry_and_its_plot_panels_are_the_plots():
    assert KNIZIA_GAME.measures is KNIZIA_MEASURES and KNIZIA_MEASURES.panels is PANELS
    edition = load_edition(TINY_EDITION)
    rules = edition.rules(2)
    facts = []
    for seed in range(4):
        watch = KNIZIA_MEASURES.watch(edition, 2)
        facts.append(watch.facts(play_game(rules, seed, ["random"], watch=watch.see)))
    given = KNIZIA_MEASURES.metrics([edition, edition], 2, [{}, {}], facts, facts[::-1])
    assert [m.to_dict() for m in given] == [m.to_dict() for m in knizia_metrics([edition, edition], 2, [{}, {}],
                                                                                  facts, facts[::-1])]
    assert given[-1].name == "scoring_disagreement"


def test_a_game_without_measures_of_its_own_is_measured_by_what_the_protocol_shows():
    edition = load_edition("daimyo")
    facts = []
    for seed in range(4):
        watch = PROTOCOL_MEASURES.watch(edition, 2)
        final, actions = play_match(edition, 2, seed, ["random"], watch=watch.see)
        facts.append(watch.facts(final))
        assert facts[-1]["actions"] == len(actions) and facts[-1]["reason"] == final.reason
    metrics = {m.name: m for m in PROTOCOL_MEASURES.metrics([edition, edition], 2, [{}, {}], facts, facts)}
    reasons = sorted({f["reason"] for f in facts})
    assert list(metrics) == ["win_rate_seat_0", "win_rate_seat_1", "shared_win_rate", "actions",
                             *(f"end_{reason}" for reason in reasons)]
    assert metrics["actions"].a.value == sum(f["actions"] for f in facts) / 4


def test_the_metrics_the_guide_shows_are_daimyos():
    guide = (ROOT / "docs" / "designing-games.md").read_text(encoding="utf-8")
    shown = next(block for block in re.findall(r"```python\n(.*?)```", guide, flags=re.S)
                 if "GAME_METRICS = (" in block)
    source = (ROOT / "plugins" / "daimyo" / "measures.py").read_text(encoding="utf-8")
    # The metrics themselves, as the module writes them (the block around them only makes the example runnable).
    metrics = shown[shown.index("GAME_METRICS = ("):].split("\n)\n")[0].splitlines()[1:]
    assert len(metrics) == 4
    for line in metrics:
        assert line.split("  #")[0].rstrip() in source, line


PLAIN_PLUGIN = '''import attrs

from samurai.hooks.specs import hookimpl
from samurai_plugins import daimyo


@hookimpl
def samurai_games():
    return [attrs.evolve(daimyo.GAME, name="plain", measures=None)]
'''
PLAIN_MANIFEST = '''id = "plain"
game = "plain"
name = "Daimyo without measures of its own"
version = "1.0.0"
plugins = ["plain.py"]
map = "battlefield"

[options.no_progress_limit]
default = 100
description = "Ruling: turns without progress that draw the game."
'''


def test_compare_and_analyse_a_game_that_supplies_no_measures_by_what_the_protocol_shows(tmp_path):
    from samurai.runs.compare import analyse_records, compare

    (tmp_path / "plain.py").write_text(PLAIN_PLUGIN, encoding="utf-8")
    manifest = tmp_path / "plain.toml"
    manifest.write_text(PLAIN_MANIFEST, encoding="utf-8")
    compared = compare(str(manifest), str(manifest), players=2, games=6, seed=3, workers=2,
                       save_dir=tmp_path / "run", options_b={"no_progress_limit": 5})
    names = [m.name for m in compared.metrics]
    assert names[:4] == ["win_rate_seat_0", "win_rate_seat_1", "shared_win_rate", "actions"]
    assert "end_no_progress" in names and all(name.startswith("end_") for name in names[4:])
    again = analyse_records(tmp_path / "run", trust=[str(manifest)])
    assert [m.to_dict() for m in again.metrics] == [m.to_dict() for m in compared.metrics]
    assert again.options_b == {"no_progress_limit": 5}
