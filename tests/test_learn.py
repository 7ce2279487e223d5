"""The learning layer (``samurai.learn``, docs/learning.md): seeded data that resumes, a whole-number model file
whose chances sum to exactly 1, the same seed giving the same bytes, refusals in one line, and calibration."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from samurai.catalog.editions import load_edition
from samurai.cli import main
from samurai.errors import DataError
from samurai.learn.calibration import calibration
from samurai.learn.data import BATCH_GAMES, generate_data, read_data
from samurai.learn.model import load_model
from samurai.learn.train import TrainingSettings, train_model
from samurai_plugins.knizia.adapters.features import FEATURE_VERSION, feature_count, seat_features

SMALL = TrainingSettings(hidden=6, steps=60, seed=3)


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("learn") / "data"
    generate_data(folder, load_edition("ffg2015"), 2, 24, 11, ["greedy", "random"], every=3)
    return folder


def test_features_are_whole_numbers_of_one_length_per_seat():
    state = load_edition("ffg2015").start(3, 5)
    for _ in range(40):
        rows = seat_features(state)
        assert len(rows) == 3 and {len(row) for row in rows} == {feature_count(3)}
        assert all(type(v) is int for row in rows for v in row)
        state.apply(state.legal_actions()[0])


def test_a_model_trains_loads_and_its_chances_sum_to_exactly_one(data_folder, tmp_path):
    trained = train_model(data_folder, tmp_path / "model.json", SMALL)
    model = load_model(trained.path, game="knizia", feature_version=FEATURE_VERSION, players=2)
    assert model.provenance["data"]["seed"] == 11 and model.provenance["data"]["bots"] == ["greedy", "random"]
    assert {"numpy", "python", "samurai-engine"} <= set(model.provenance["libraries"])
    _, games = read_data(data_folder)
    positions = [position for game in games for _, position in game.positions]
    assert positions
    for position in positions:
        chances = model.chances(position)
        assert all(isinstance(c, Fraction) and 0 <= c <= 1 for c in chances)
        assert sum(chances) == 1


def test_the_same_seed_gives_a_byte_identical_model_file(data_folder, tmp_path):
    one = train_model(data_folder, tmp_path / "one.json", SMALL).path.read_bytes()
    two = train_model(data_folder, tmp_path / "two.json", SMALL).path.read_bytes()
    other = train_model(data_folder, tmp_path / "three.json", TrainingSettings(hidden=6, steps=60, seed=4))
    assert one == two
    assert other.path.read_bytes() != one


def test_a_corrupt_file_or_another_games_model_is_refused_in_one_line_naming_the_file(data_folder, tmp_path):
    path = train_model(data_folder, tmp_path / "model.json", SMALL).path
    data = json.loads(path.read_text())
    data["network"]["w1"][0][0] = "1"
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(json.dumps(data))
    truncated = tmp_path / "truncated.json"
    truncated.write_text(path.read_text()[:200])
    cases = [(corrupt, {}), (truncated, {}), (path, {"game": "daimyo"}), (path, {"feature_version": "other-1"}),
             (path, {"players": 3})]
    for file, wanted in cases:
        with pytest.raises(DataError) as refused:
            load_model(file, **wanted)
        assert str(file) in str(refused.value) and "\n" not in str(refused.value)


def test_calibration_of_a_hand_made_example():
    pairs = [(0.05, 0.0), (0.05, 0.0), (0.15, 1.0), (0.95, 1.0), (0.95, 0.0), (1.0, 1.0)]
    result = calibration(pairs, bins=10)
    by_low = {round(b.low, 2): b for b in result.bins if b.count}
    assert sorted(by_low) == [0.0, 0.1, 0.9]
    assert by_low[0.9].count == 3 and by_low[0.9].mean_chance == pytest.approx((0.95 + 0.95 + 1.0) / 3)
    assert by_low[0.9].mean_result == pytest.approx(2 / 3)
    # ECE: (2 * 0.05 + 1 * 0.85 + 3 * |0.9667 - 0.6667|) / 6
    assert result.ece == pytest.approx((2 * 0.05 + 0.85 + 3 * abs((2.9 / 3) - (2 / 3))) / 6)
    assert "expected calibration error" in result.table()[-1]


def test_a_resumed_data_run_ends_as_an_uninterrupted_one(data_folder, tmp_path):
    edition = load_edition("ffg2015")
    folder = tmp_path / "resumed"
    generate_data(folder, edition, 2, 24, 11, ["greedy", "random"], every=3)
    removed = sorted(folder.glob("batch-*.jsonl"))[1:]
    kept = sorted(folder.glob("batch-*.jsonl"))[0].read_bytes()
    for file in removed:  # a run cut short after its first batch
        file.unlink()
    with pytest.raises(DataError, match="cut short"):
        read_data(folder)
    done: list[int] = []
    generate_data(folder, edition, 2, 24, 11, ["greedy", "random"], every=3, progress=done.append)
    assert done[0] == BATCH_GAMES  # the kept batch counted, not replayed
    assert sorted(folder.glob("batch-*.jsonl"))[0].read_bytes() == kept
    for file in sorted(data_folder.glob("*")):
        assert (folder / file.name).read_bytes() == file.read_bytes()
    with pytest.raises(DataError, match="other settings"):
        generate_data(folder, edition, 2, 24, 12, ["greedy", "random"], every=3)


def test_samurai_train_writes_a_model_and_its_calibration(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["train", "ffg2015", "--players", "2", "--games", "12", "--bots", "greedy,random", "--seed", "2",
                 "--hidden", "4", "--steps", "30", "--out", str(out), "--no-progress"]) == 0
    assert "expected calibration error" in capsys.readouterr().out
    assert load_model(out / "model.json").players == 2
    assert (out / "calibration.txt").exists()
    assert main(["train", "ffg2015", "--bots", "nobody", "--out", str(tmp_path / "bad"), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert "nobody" in error and error.count("\n") == 1
