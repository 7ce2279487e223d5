"""Records saved by an earlier version still load and replay, matching the check they were saved with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samurai.errors import DataError
from samurai.records import play_record_from_dict, read_play_record, replayed

DATA = Path(__file__).parent / "data" / "records"


def test_a_daimyo_record_saved_by_version_0_1_replays_and_matches_its_check() -> None:
    """Version 0.1's Daimyo views had no board size and other counter names; the record's check was taken
    over those views, and it still matches the replayed game."""
    record = read_play_record(DATA / "daimyo-2p-v0.1.json")
    assert record.check is not None
    final = replayed(record)
    assert final.is_over and final.view(0)["result"]["winners"] == [1]


def test_a_changed_action_still_fails_the_check_of_an_earlier_version(tmp_path: Path) -> None:
    """The earlier views widen what a check is compared with, not what it accepts: a record whose last action
    was changed to another legal one is refused."""
    data = json.loads((DATA / "daimyo-2p-v0.1.json").read_text())
    record = play_record_from_dict(data)
    before_last = replayed(record, to=len(record.actions) - 1)
    others = [a for a in before_last.legal_actions() if list(a) != data["actions"][-1]]
    assert others, "the test record's last position offers another action"
    data["actions"][-1] = list(others[0])
    with pytest.raises(DataError, match="does not match the record's check"):
        replayed(play_record_from_dict(data))
