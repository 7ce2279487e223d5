"""Runs on every backend (issue 11, point 1): ``simulate`` and ``compare`` play their batches through an executor
chosen with ``--backend local|dask`` and ``--scheduler``; the same seed gives the same numbers, records and run
manifest on one local worker, two local workers and a Dask cluster of two worker processes.

The Dask tests share one real ``LocalCluster`` of two worker processes on 127.0.0.1 (started once for the
module, about 5 s) and reach it by its scheduler's address, as a run on a real cluster does.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import distributed
import pytest

import samurai
from samurai.cli import main
from samurai.runs.compare import compare
from samurai.runs.executors import make_executor
from samurai.runs.folders import BATCHES, CHUNK, batches_of
from samurai.runs.tournament import tournament
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters.runner import GameSummary, cached_rules, play_game, simulate

from helpers import ROOT, TINY_EDITION

BROKEN_PLUGIN = ("from samurai.hooks.specs import hookimpl\n"
                 "from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour\n\n\n"
                 "class Broken(MoveBehaviour):\n    def can_play(self, rules, st, seat, tile):\n"
                 "        raise RuntimeError('no moves today')\n\n\n"
                 "@hookimpl\ndef samurai_tile_behaviours():\n    return [Broken()]\n")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a Dask cluster of two single-threaded worker processes."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address="127.0.0.1:0", host="127.0.0.1", silence_logs=logging.ERROR)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def backends(scheduler: str) -> dict[str, dict[str, object]]:
    """The keyword arguments of a run on each backend compared."""
    return {"local, 1 worker": {"workers": 1}, "local, 2 workers": {"workers": 2},
            "dask, 2 workers": {"backend": "dask", "scheduler": scheduler}}


def saved_files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_compare_gives_the_same_metrics_and_records_on_every_backend(scheduler, tmp_path):
    runs = {name: compare("ffg2015", "original", players=3, games=130, seed=21, save_dir=tmp_path / str(number),
                          **kwargs)
            for number, (name, kwargs) in enumerate(backends(scheduler).items())}
    reference = runs["local, 1 worker"].to_dict()
    assert reference["games"] == 130 and len(reference["metrics"]) > 10
    for name, run in runs.items():
        assert run.to_dict() == reference, name
    files = [saved_files(tmp_path / str(number)) for number in range(len(runs))]
    assert len(files[0]) == 2 * 130 + 1  # both sides of every pair, and run.json
    assert files[1] == files[0] and files[2] == files[0]
    other_seed = compare("ffg2015", "original", players=3, games=130, seed=22, workers=2)
    assert other_seed.to_dict() != reference


def test_simulate_gives_the_same_summary_and_records_on_every_backend_as_one_game_after_another(scheduler, tmp_path):
    edition = samurai.load_edition("ffg2015")
    runs = {name: simulate(edition, 3, 105, 8, ["random", "greedy"], save_dir=tmp_path / str(number), **kwargs)
            for number, (name, kwargs) in enumerate(backends(scheduler).items())}
    # What simulate did before it played in batches: game i with seed derive_seed(8, i), one after another.
    rules = edition.rules(3)
    one_by_one = tuple(GameSummary.of(derive_seed(8, i), play_game(rules, derive_seed(8, i), ["random", "greedy"]), 3)
                       for i in range(105))
    for name, run in runs.items():
        assert run.games == one_by_one, name
        assert run.to_dict() == runs["local, 1 worker"].to_dict(), name
    files = [saved_files(tmp_path / str(number)) for number in range(len(runs))]
    assert len(files[0]) == 105 + 1
    assert files[1] == files[0] and files[2] == files[0]
    assert json.loads(files[0]["run.json"])["games"] == 105
    assert samurai.load(tmp_path / "2" / "game-00104.json").seed == derive_seed(8, 104)


def test_a_tournament_gives_the_same_games_and_ratings_on_every_backend(scheduler):
    timing = ("seconds", "workers", "cpu_seconds")  # how long it took and where, not what came out
    runs = {name: tournament(("random", "greedy", "greedy"), players=(2, 3), games=12, seed=6, bootstrap=100, **kwargs)
            for name, kwargs in backends(scheduler).items()}
    reference = {k: v for k, v in runs["local, 1 worker"].to_dict().items() if k not in timing}
    assert reference["games"] == len(reference["game_list"]) == 24  # 12 games at each table of 2 and of 3
    for name, run in runs.items():
        assert {k: v for k, v in run.to_dict().items() if k not in timing} == reference, name
        assert run.games == runs["local, 1 worker"].games


def test_the_command_gives_the_same_comparison_on_a_dask_cluster_as_locally(scheduler, tmp_path, capsys):
    base = ["compare", "ffg2015", "original", "--players", "2", "--games", "120", "--seed", "3", "--no-progress"]
    assert main([*base, "--workers", "2", "--json", str(tmp_path / "local.json")]) == 0
    local_table = capsys.readouterr().out
    assert main([*base, "--backend", "dask", "--scheduler", scheduler, "--json", str(tmp_path / "dask.json")]) == 0
    assert capsys.readouterr().out == local_table
    assert json.loads((tmp_path / "dask.json").read_text()) == json.loads((tmp_path / "local.json").read_text())
    argv = ["simulate", "--players", "2", "--games", "70", "--seed", "3", "--json", "--no-progress"]
    assert main([*argv, "--workers", "1"]) == 0
    local_summary = capsys.readouterr().out
    assert main([*argv, "--backend", "dask", "--scheduler", scheduler]) == 0
    assert capsys.readouterr().out == local_summary


def test_a_plugin_failing_on_a_dask_worker_is_one_line_naming_the_plugin(scheduler, tmp_path, capsys):
    (tmp_path / "variant.py").write_text(BROKEN_PLUGIN, encoding="utf-8")
    manifest = tmp_path / "broken.toml"
    manifest.write_text('id = "broken"\nname = "broken"\nversion = "1"\nextends = "ffg2015"\n'
                        'plugins = ["variant.py"]\n', encoding="utf-8")
    expected = f"plugin {tmp_path / 'variant.py'}:7: can_play failed: RuntimeError: no moves today"
    for command in (["compare", str(manifest), "ffg2015"], ["simulate", "--edition", str(manifest)]):
        assert main([*command, "--players", "2", "--games", "120", "--backend", "dask", "--scheduler", scheduler,
                     "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and expected in err and "Traceback" not in err, err


def test_the_python_example_of_docs_scale_runs_on_a_cluster(scheduler):
    doc = (ROOT / "docs" / "scale.md").read_text()
    example = re.search(r"## From Python\n\n```python\n(.*?)```", doc, re.DOTALL).group(1)
    # The cluster of this module stands for HOST; fewer games keep it quick.
    example = example.replace("tcp://HOST:8786", scheduler).replace("games=2000", "games=200")
    example = example.replace("games=5000", "games=100")
    namespace: dict[str, object] = {}
    exec(compile(example, "docs/scale.md", "exec"), namespace)
    assert sorted(namespace["sweep"]) == [4, 5, 6]  # type: ignore[call-overload]


def test_a_cluster_whose_workers_run_another_engine_is_refused_naming_the_worker(scheduler, monkeypatch, capsys):
    import importlib.metadata

    real = importlib.metadata.version
    # This process claims another release; the workers (other processes) report the installed one.
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "9.9.9" if name == "samurai-engine" else real(name))
    assert main(["compare", "ffg2015", "original", "--games", "2", "--backend", "dask", "--scheduler", scheduler]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: --scheduler: worker tcp://127.0.0.1:"), err
    assert f"with samurai-engine {real('samurai-engine')}, this machine Python" in err
    assert "with samurai-engine 9.9.9: install the same on every worker (docs/scale.md)" in err


def test_one_executor_serves_several_runs_and_stays_open_for_its_owner():
    executor = make_executor("local", workers=2)
    try:
        first = compare(TINY_EDITION, "ffg2015", players=2, games=110, seed=5, executor=executor)
        again = compare(TINY_EDITION, "ffg2015", players=2, games=110, seed=5, executor=executor)
        summary = simulate(samurai.load_edition(TINY_EDITION), 2, 110, 5, ["random"], executor=executor)
    finally:
        executor.close()
    assert again.to_dict() == first.to_dict()
    assert summary.to_dict() == simulate(samurai.load_edition(TINY_EDITION), 2, 110, 5, ["random"]).to_dict()


def test_a_process_compiles_an_edition_once_for_each_player_count_and_options():
    rules = cached_rules("ffg2015", 3, {})
    assert cached_rules("ffg2015", 3, {}) is rules
    assert cached_rules("ffg2015", 4, {}) is not rules
    assert cached_rules("ffg2015", 3, {"removed_to_end": 5}) is not rules
    assert cached_rules("ffg2015", 3, {"removed_to_end": 5}).options["removed_to_end"] == 5


@pytest.mark.parametrize("games", [1, 7, 16, 40, 799, 800, 2000, 100001])
def test_a_run_is_cut_into_batches_of_every_game_once_in_order_spread_over_many_workers(games):
    batches = batches_of(games)
    assert [index for batch in batches for index in batch] == list(range(games))
    assert all(0 < len(batch) <= CHUNK for batch in batches)
    assert len(batches) >= min(games, BATCHES)  # a few slow games still reach many workers


@pytest.mark.parametrize("argv, message", [
    (["--backend", "nosuch"], "samurai: error: --backend: unknown backend 'nosuch'; backends are local, dask"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "samurai: error: --scheduler: --scheduler goes with --backend dask"),
])
@pytest.mark.parametrize("command", [["simulate"], ["compare", "ffg2015", "original"]], ids=["simulate", "compare"])
def test_a_bad_backend_is_one_line_and_loses_no_saved_run(tmp_path, capsys, command, argv, message):
    folder = tmp_path / "run"
    assert main([*command, "--players", "2", "--games", "2", "--save-dir", str(folder), "--no-progress"]) == 0
    before = saved_files(folder)
    capsys.readouterr()
    assert main([*command, "--players", "2", "--games", "3", "--save-dir", str(folder), "--force", *argv]) == 2
    assert capsys.readouterr().err == message + "\n"
    assert saved_files(folder) == before


def test_a_tournament_takes_the_same_backend_flags(capsys):
    argv = ["tournament", "--bots", "random,greedy", "--games", "2", "--no-progress"]
    assert main([*argv, "--backend", "nosuch"]) == 2
    assert capsys.readouterr().err == "samurai: error: --backend: unknown backend 'nosuch'; backends are local, dask\n"
    assert main([*argv, "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err == "samurai: error: --scheduler: --scheduler goes with --backend dask\n"


def test_dask_without_the_dask_extra_is_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails, as when it is not installed
    for argv in (["--backend", "dask"], ["--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786"]):
        assert main(["compare", "ffg2015", "original", "--games", "2", *argv]) == 2
        assert capsys.readouterr().err == ('samurai: error: --backend: the dask backend needs the dask extra: '
                                           'pip install "samurai-engine[dask]"\n')


def test_an_unreachable_scheduler_is_one_line(monkeypatch, capsys):
    import samurai.runs.executors

    monkeypatch.setattr(samurai.runs.executors, "SCHEDULER_TIMEOUT", 1)
    assert main(["simulate", "--games", "2", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: --scheduler: cannot reach the Dask scheduler at "
                                                   "tcp://127.0.0.1:9"), err


def test_daimyo_simulate_compare_and_tournament_give_the_same_results_on_every_backend(scheduler, tmp_path):
    """Issue 12: a game played through the protocol runs on the executors too, with the same numbers and records."""
    from samurai.runs.matches import simulate_matches

    edition = samurai.load_edition("daimyo")
    runs = {name: simulate_matches(edition, 2, 18, 5, ["random"], save_dir=tmp_path / f"s{number}", **kwargs)
            for number, (name, kwargs) in enumerate(backends(scheduler).items())}
    for name, run in runs.items():
        assert run.to_dict() == runs["local, 1 worker"].to_dict(), name
    simulated = [saved_files(tmp_path / f"s{number}") for number in range(len(runs))]
    assert len(simulated[0]) == 18 + 1 and simulated[1] == simulated[0] and simulated[2] == simulated[0]
    compared = {name: compare("daimyo", "daimyo-shinobi", players=2, games=10, seed=2, **kwargs)
                for name, kwargs in backends(scheduler).items()}
    for name, comparison in compared.items():
        assert comparison.to_dict() == compared["local, 1 worker"].to_dict(), name
    timing = ("seconds", "workers", "cpu_seconds")
    tournaments = {name: tournament(("random", "mcts:4"), players=(2,), games=4, seed=6, bootstrap=50,
                                    edition="daimyo", **kwargs)
                   for name, kwargs in backends(scheduler).items()}
    reference = {k: v for k, v in tournaments["local, 1 worker"].to_dict().items() if k not in timing}
    assert reference["games"] == 4 and reference["edition"] == "daimyo"
    for name, run in tournaments.items():
        assert {k: v for k, v in run.to_dict().items() if k not in timing} == reference, name


def test_the_daimyo_simulate_command_prints_the_same_summary_on_a_dask_cluster(scheduler, capsys):
    argv = ["simulate", "--edition", "daimyo", "--games", "12", "--seed", "3", "--json", "--no-progress"]
    assert main([*argv, "--workers", "1"]) == 0
    local = capsys.readouterr().out
    assert main([*argv, "--backend", "dask", "--scheduler", scheduler]) == 0
    assert capsys.readouterr().out == local
    assert json.loads(local)["game"] == "daimyo"


def test_a_sweep_and_a_balance_report_give_the_same_numbers_and_records_on_every_backend(scheduler, tmp_path):
    """Issue 26: the designer's bench plays on the executors too, with the same numbers and records."""
    from samurai.runs.balance import balance
    from samurai.runs.sweep import sweep

    sweeps = {name: sweep("ffg2015", {"removed_to_end": [3, 5], "starting_hands": ["choose", "random"]},
                          players=[2, 3], games=30, seed=12, bots=["greedy", "random"],
                          save_dir=tmp_path / f"s{number}", **kwargs)
              for number, (name, kwargs) in enumerate(backends(scheduler).items())}
    reference = sweeps["local, 1 worker"].to_dict()
    assert [len(table["metrics"]) > 10 for table in reference["tables"]] == [True, True]
    for name, run in sweeps.items():
        assert run.to_dict() == reference, name
    files = [saved_files(tmp_path / f"s{number}") for number in range(len(sweeps))]
    assert len(files[0]) == 2 * 4 * 30 + 1  # every game under every setting at both player counts, and run.json
    assert files[1] == files[0] and files[2] == files[0]
    reports = {name: balance("daimyo", games=10, seed=4, **kwargs).to_dict()
               for name, kwargs in backends(scheduler).items()}
    assert reports["local, 2 workers"] == reports["local, 1 worker"] == reports["dask, 2 workers"]


def test_the_sweep_command_prints_the_same_tables_on_a_dask_cluster(scheduler, capsys):
    argv = ["sweep", "ffg2015", "--option", "removed_to_end=3,4", "--players", "2", "--games", "20", "--seed", "7",
            "--no-progress"]
    assert main([*argv, "--workers", "1"]) == 0
    local = capsys.readouterr().out
    assert main([*argv, "--backend", "dask", "--scheduler", scheduler]) == 0
    assert capsys.readouterr().out == local and "changes?" in local
