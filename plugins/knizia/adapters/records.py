"""Knizia's records as the framework reads every game's (its ``GameDefinition.records``, ``samurai.records``).

The record is this game's face on the one format (``samurai_plugins.knizia.play.record_files.GameRecord``: actions in
the game's words, ``map`` and ``scenario`` added to the start, a check of the engine's position), written without a
``game`` key as every earlier version wrote it; ``samurai.records`` reads it as the default game's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from samurai.catalog.editions import Edition
from samurai.catalog.games import GameMeasures, GameRecords
from samurai.errors import DataError
from samurai.protocol import GameState, Move
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.adapters.measures import game_facts
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.record_files import (
    GameRecord,
    from_record,
    record_from_dict,
    record_of,
    replay,
    write_record,
)
from samurai_plugins.knizia.play.replays import replay_lines

__all__ = ["RECORDS"]


def _record_of(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None,
               actions: Sequence[Move], final: GameState | None) -> GameRecord:
    """The record of a game played through the protocol: the engine's actions in the game's words."""
    rules = knizia_edition(edition).rules(players, options)
    if final is not None and not isinstance(final, HexGameState):
        raise TypeError(f"Knizia's game records a HexGameState, not {type(final).__name__}")
    engine_state = None if final is None else final.state  # a HexGameState's engine position
    return record_of(rules, seed, [tuple(action) for action in actions], final=engine_state)


def _read(data: Mapping[str, Any], source: str, trust: Any, folder: Path | None) -> GameRecord:
    return record_from_dict(data, source=source, trust=trust, folder=folder)


def _replay_lines(record: GameRecord, source: str, trust: Any, folder: Path | None, to: int | None) -> Iterator[str]:
    from_record(record, source=source, trust=trust, folder=folder)  # the whole record replays and matches its check
    return replay_lines(record, source=source, to=to, trust=trust, folder=folder)


def _facts(record: GameRecord, edition: Edition, measures: GameMeasures, source: str) -> Any:
    # The facts of Knizia's game are read on the engine's states as the record replays (what its watch collects).
    return game_facts(record, edition=edition, source=source)


def _final(record: GameRecord, edition: Edition, source: str) -> HexGameState:
    game = from_record(record, edition=edition, source=source)  # replayed and matched against its check
    if not game.is_over:
        raise DataError(f"the game is not over after its {len(record.actions)} actions", source=source,
                        key="actions")
    return HexGameState(game.rules, game.state, len(record.actions), game.engine)


def _moves(record: GameRecord, source: str, trust: Any, folder: Path | None) -> tuple[HexGameState, list[Move]]:
    from_record(record, source=source, trust=trust, folder=folder)  # the whole record replays and matches its check
    start: HexGameState | None = None
    moves: list[Move] = []
    for number, game in enumerate(replay(record, source=source, trace=False, trust=trust, folder=folder)):
        if start is None:
            start = HexGameState.of_game(game)
        if number < len(record.actions):  # the engine's tuple of the action, read at its position (special tiles)
            moves.append(game.to_internal(record.actions[number]))
    assert start is not None
    return start, moves


RECORDS = GameRecords(record_of=_record_of, write=write_record, read=_read, replay_lines=_replay_lines,
                      facts=_facts, final=_final, moves=_moves)
"""How Knizia's records are made, written, read, told and measured (``samurai.catalog.games.GameRecords``)."""
