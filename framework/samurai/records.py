"""Records of every game: the edition, players, seed, options and the actions, replayed; the one record module.

Every game's record has the same fields::

    {"schema": 1, "game": "daimyo", "edition": "daimyo", "edition_version": "1.0.0",
     "players": 2, "seed": 7, "options": {...}, "actions": [[0, 12], [0, 30], [1, 1, 7]],
     "check": "sha256:..."}

plus what a game adds to its start. A game supplies how its actions and its
start are written and read and how its position is checked through its
definition (``samurai.catalog.games.GameRecords``, ``GameDefinition.records``);
``read_record_file``, ``record_of``, ``records_of``, ``replay_lines`` and
``record_facts`` work for every game through it, so the commands name no
game. A record without a ``game`` key is one of the default game's
(``_game_name``; ``GameDefinition.default_game``). Knizia's records, whose face is
``samurai_plugins.knizia.play.record_files`` (actions in that game's words, ``map``
and ``scenario`` added to the start, and the migrations of older files), keep that
layout, so every file written so far and every reader of them stays as it was.

A game that supplies nothing is recorded as the protocol shows it
(``PROTOCOL_RECORDS``): an action is written as its list of ints; reading also
takes the game's own description of it (``GameState.describe``, e.g.
``{"action": "move", "from": "b1", "to": "b2"}``), matched against the legal
actions of the position it is played in. ``check`` is a digest of every seat's
view after the last action (``position_check_of``), so a changed seed or action
that happens to stay legal is still caught. The seed is a whole number from 0
to 2**63-1 (the engine's range) and the player count one of the edition's; a
whole number out of its range is refused naming its field, and a ``check`` that
is not a digest as one is written (``read_check``) naming ``check``. An action
that cannot be replayed says the seed may be the cause: the seed decides every
hidden draw, so a record whose seed was changed stops at the first action that
needed what another seed did not deal.

The trust rules are those of every data file (``samurai.catalog.trust``): the edition
a record names must be installed, or its manifest vouched for; opening a
record imports no plugin it names and reads no file it names.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .catalog.editions import Edition, installed_games
from .catalog.games import GameDefinition, GameMeasures, GameRecords, default_game, games_of
from .catalog.trust import Trust, TrustLike
from .errors import DataError
from .files.reading import any_whole_number, check_plain, read_data, whole_number
from .files.writing import write_atomically
from .protocol import GameState, Move
from .seeds import MAX_SEED

__all__ = ["PlayRecord", "is_play_record", "play_record_of", "play_record_to_dict", "play_record_from_dict",
           "read_play_record", "write_play_record", "replay_play_record", "replayed", "position_check_of",
           "play_replay_lines", "PROTOCOL_RECORDS", "records_of", "record_of", "read_record_file", "RecordFile",
           "replay_lines", "record_facts", "record_moves", "read_check"]

SCHEMA = 1
_FIELDS = ("schema", "game", "edition", "edition_version", "players", "seed", "options", "actions", "check")


@attrs.frozen
class PlayRecord:
    """A game of any protocol game as data: what it started from and every action, with a check."""

    game: str
    """The game's name (``samurai.catalog.games.GameDefinition.name``), e.g. ``"daimyo"``."""
    edition: str
    """The edition's id (installed, or its manifest vouched for; see ``samurai.catalog.trust``)."""
    edition_version: str
    players: int
    seed: int
    options: Mapping[str, bool | int | float | str]
    """Every option's value (defaults included), so a later default change cannot alter the game."""
    actions: tuple[Move, ...]
    check: str | None = None
    """``position_check_of`` the position after the last action."""
    schema: int = SCHEMA


def position_check_of(state: GameState,
                      shown: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None) -> str:
    """A digest of every seat's view, whose turn it is and how many actions were played, the same on any machine
    (each view as ``shown`` makes it, for a record checked against an earlier version's views)."""
    views = [state.view(seat) for seat in range(state.players)]
    seen = [state.move_number, state.to_act, views if shown is None else [shown(view) for view in views]]
    return "sha256:" + hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()


_CHECK = re.compile(r"sha256:[0-9a-f]{64}")


def read_check(value: Any, *, source: str) -> str | None:
    """A record's ``check`` as it is written (``position_check_of``, Knizia's ``position_check``): None, or
    ``sha256:`` and 64 lower-case hexadecimal digits; anything else is a malformed check (``DataError`` naming the
    field ``check``), not a game that replays differently."""
    if value is None or (isinstance(value, str) and _CHECK.fullmatch(value)):
        return value
    shown = repr(value) if isinstance(value, str) else f"{type(value).__name__} {value!r}"
    raise DataError(f"a malformed check: it is 'sha256:' and 64 hexadecimal digits, not {shown:.80}", source=source,
                    key="check")


def _matches_check(check: str, final: GameState, edition: Edition) -> bool:
    """Whether ``check`` is the digest of ``final`` as this version or an earlier one of its game shows it."""
    return check == position_check_of(final) or any(check == position_check_of(final, shown)
                                                    for shown in edition.game.earlier_views)


def play_record_of(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None,
                   actions: Sequence[Move], final: GameState | None = None) -> PlayRecord:
    """The record of a game of ``edition``; ``final`` (the position after the actions) adds the check."""
    return PlayRecord(game=edition.game.name, edition=edition.reference, edition_version=edition.manifest.version,
                      players=players, seed=seed, options=edition.manifest.resolve_options(options),
                      actions=tuple(tuple(action) for action in actions),
                      check=None if final is None else position_check_of(final))


def play_record_to_dict(record: PlayRecord) -> dict[str, Any]:
    """A JSON-ready dict (no None values)."""
    data = {"schema": record.schema, "game": record.game, "edition": record.edition,
            "edition_version": record.edition_version, "players": record.players, "seed": record.seed,
            "options": dict(record.options), "actions": [list(action) for action in record.actions],
            "check": record.check}
    return {key: value for key, value in data.items() if value is not None}


def is_play_record(data: Any) -> bool:
    """Whether a record's data names a game other than the default one (those are ``PlayRecord`` values; the
    default game's records, which have no ``game`` key, are Knizia's, read by
    ``samurai_plugins.knizia.play.record_files``)."""
    return isinstance(data, Mapping) and "game" in data and _game_name(data) != _game_name({})


def play_record_from_dict(data: Any, *, source: str = "record") -> PlayRecord:
    """Validate a record dict into a ``PlayRecord``, naming the field that is wrong. Actions stay as written
    (ints or descriptions) until ``replay_play_record`` reads them against their positions."""
    if not isinstance(data, Mapping):
        raise DataError(f"a record is a table of fields, not {type(data).__name__}", source=source)
    check_plain(data, source=source)
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise DataError(f"unknown field {unknown[0]!r}; a record's fields are {', '.join(_FIELDS)}", source=source,
                        key=unknown[0])
    for field in ("game", "edition", "edition_version", "players", "seed", "options", "actions"):
        if field not in data:
            raise DataError("required field missing", source=source, key=field)
    schema = data.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise DataError(f"schema {schema!r} is not one this engine reads (it reads {SCHEMA})", source=source,
                        key="schema")
    for field in ("game", "edition", "edition_version"):
        if not isinstance(data[field], str) or not data[field]:
            raise DataError(f"must be a non-empty string, not {data[field]!r:.60}", source=source, key=field)
    any_whole_number(data["players"], "players", source=source)  # the edition's player counts: when replayed
    whole_number(data["seed"], "seed", 0, MAX_SEED, source=source)  # the engine's range
    options = data["options"]
    if not isinstance(options, Mapping) or not all(
            isinstance(v, (bool, int, float, str)) for v in options.values()):
        raise DataError("must be a table of option names and plain values", source=source, key="options")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise DataError(f"must be a list of actions, not {type(actions).__name__}", source=source, key="actions")
    read: list[Any] = []
    for index, action in enumerate(actions):
        if isinstance(action, list) and action and all(
                isinstance(v, int) and not isinstance(v, bool) for v in action):
            read.append(tuple(action))
        elif isinstance(action, Mapping):
            read.append(dict(action))
        else:
            raise DataError(f"an action is a list of whole numbers or the game's description of it (a table), not "
                            f"{action!r:.60}", source=source, key=f"actions[{index}]")
    check = read_check(data.get("check"), source=source)
    return PlayRecord(game=data["game"], edition=data["edition"], edition_version=data["edition_version"],
                      players=data["players"], seed=data["seed"], options=dict(options), actions=tuple(read),
                      check=check)


def read_play_record(path: str | os.PathLike[str]) -> PlayRecord:
    """Read and validate a record file (``.json`` or ``.toml``) without replaying it."""
    file = Path(path)
    if file.suffix.lower() not in (".json", ".toml"):
        raise DataError("a record file ends in .json or .toml", source=str(path))
    data, _ = read_data(file)
    return play_record_from_dict(data, source=str(path))


def write_play_record(record: PlayRecord, path: str | os.PathLike[str]) -> Path:
    """Write ``record`` as JSON (atomically, like every record: never a half-written file)."""
    target = Path(path)
    if target.suffix.lower() != ".json":
        raise DataError(f"a record of game {record.game!r} is written as .json, not {target.suffix or 'nothing'!r}",
                        source=str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(target, json.dumps(play_record_to_dict(record), indent=1) + "\n")


def _edition_of(record: PlayRecord, source: str, trust: TrustLike, folder: Path | None) -> Edition:
    edition = Trust.of(trust).edition(record.edition, source=source, key="edition", folder=folder)
    if edition.game.name != record.game:
        raise DataError(f"edition {record.edition!r} plays {edition.game.name!r}, not {record.game!r}", source=source,
                        key="game")
    return edition


def _action(state: GameState, written: Any, index: int, source: str) -> Move:
    """A written action as the protocol's ints: ints as they are, a description matched among the legal actions."""
    if isinstance(written, tuple):
        reason = state.check(written)
        if reason is not None:
            raise DataError(f"action {index} {list(written)} cannot be replayed: {reason}; {_SEED_OR_ACTIONS}",
                            source=source, key=f"actions[{index}]")
        return written
    for action in state.legal_actions():
        if state.describe(action) == written:
            return action
    raise DataError(f"action {index} {json.dumps(written, sort_keys=True):.100} is not a legal action of its position; "
                    f"{_SEED_OR_ACTIONS}", source=source, key=f"actions[{index}]")


_SEED_OR_ACTIONS = "the seed or the actions do not match the record (the field seed decides every hidden draw)"
"""What a record's action that cannot be replayed tells besides its reason: records are written by the engine, so
the seed, or the actions, were changed since."""


def replay_play_record(record: PlayRecord, *, source: str = "record", trust: TrustLike = (),
                       folder: str | os.PathLike[str] | None = None,
                       edition: Edition | None = None) -> Iterator[tuple[GameState, Move | None]]:
    """The record's game: ``(position, None)`` before the first action, then ``(position, action)`` after each
    (the same position object, moved on). A refused action raises ``DataError`` naming ``actions[i]``."""
    chosen = edition or _edition_of(record, source, trust, None if folder is None else Path(folder))
    if edition is not None and edition.game.name != record.game:
        raise DataError(f"edition {edition.id!r} plays {edition.game.name!r}, not {record.game!r}", source=source,
                        key="game")
    if record.players not in chosen.player_counts:
        raise DataError(f"edition {chosen.id!r} is for {', '.join(map(str, chosen.player_counts))} players, not "
                        f"{record.players}", source=source, key="players")
    try:
        state = chosen.start(record.players, record.seed, record.options)
    except DataError as exc:
        raise DataError(exc.message, source=source, key=exc.key if exc.source == "options" else exc.source) from None
    yield state, None
    for index, written in enumerate(record.actions):
        if state.is_over:
            raise DataError(f"action {index} comes after the end of the game", source=source, key=f"actions[{index}]")
        action = _action(state, written, index, source)
        state.apply(action)
        yield state, action


def replayed(record: PlayRecord, *, source: str = "record", trust: TrustLike = (),
             folder: str | os.PathLike[str] | None = None, to: int | None = None) -> GameState:
    """The position after the record's actions (checked against ``check``), or after its first ``to``."""
    if to is not None and not 0 <= to <= len(record.actions):
        raise DataError(f"--to must be from 0 to {len(record.actions)} (the record's actions), not {to}",
                        source=source)
    final: GameState | None = None
    at: GameState | None = None
    edition = _edition_of(record, source, trust, None if folder is None else Path(folder))
    for number, (state, _) in enumerate(replay_play_record(record, source=source, edition=edition)):
        if number == to:
            at = state.copy()
        final = state
    assert final is not None
    if record.check is not None and not _matches_check(record.check, final, edition):
        raise DataError("the replayed game does not match the record's check (a changed seed, option or action)",
                        source=source, key="check")
    return final if at is None else at


def play_replay_lines(record: PlayRecord, *, source: str = "record", trust: TrustLike = (),
                      folder: str | os.PathLike[str] | None = None, to: int | None = None) -> Iterator[str]:
    """The game told action by action in its own words (``GameState.describe``), then how it ended."""
    replayed(record, source=source, trust=trust, folder=folder)  # the whole record must replay and match its check
    if to is not None and not 0 <= to <= len(record.actions):
        raise DataError(f"--to must be from 0 to {len(record.actions)} (the record's actions), not {to}",
                        source=source)
    yield (f"{record.edition} {record.edition_version} ({record.game}), {record.players} players, seed "
           f"{record.seed}: {len(record.actions)} actions")
    edition = _edition_of(record, source, trust, None if folder is None else Path(folder))
    actor: int | None = None
    last: GameState | None = None
    before: GameState | None = None
    for number, (state, action) in enumerate(replay_play_record(record, source=source, edition=edition)):
        if action is not None and before is not None:
            words = before.describe(action)
            text = " ".join(str(value) for value in words.values())
            yield f"{number:>5}  seat {actor} {text}"
            if edition.game.faces.tell is not None:
                yield from (f"{'':>7}{line}" for line in edition.game.faces.tell(before, action, state))
        last = state
        before = state.copy()
        if to is not None and number == to:
            yield f"Position after {number} actions: " + (
                f"seat {state.to_act} to act" if state.to_act is not None else "game over")
            return
        actor = state.to_act
    assert last is not None
    if last.is_over:
        returns = last.returns()
        best = max(returns)
        winners = [seat for seat, value in enumerate(returns) if value == best]
        reason = (last.view(0).get("result") or {}).get("reason")
        why = f" ({reason})" if isinstance(reason, str) else ""
        yield (f"Result: seat {winners[0]} wins{why}." if len(winners) == 1
               else f"Result: seats {', '.join(map(str, winners))} share the game{why}.")
    else:
        yield "The record stops before the end of the game."


def _play_record_facts(record: PlayRecord, edition: Edition, measures: GameMeasures, source: str) -> Any:
    """Replay a finished game's record through the protocol and give what its game's watch collects."""
    watch = measures.watch(edition, record.players)
    return watch.facts(_play_record_final(record, edition, source, see=watch.see))


def _play_record_final(record: PlayRecord, edition: Edition, source: str,
                       see: Callable[[GameState], object] | None = None) -> GameState:
    """Replay a finished game's record through the protocol, checked: its final position (``see`` is shown each
    position on the way)."""
    final: GameState | None = None
    for final, _ in replay_play_record(record, source=source, edition=edition):
        if see is not None:
            see(final)
    assert final is not None
    if record.check is not None and not _matches_check(record.check, final, edition):
        raise DataError("the replayed game does not match the record's check (a changed seed, option or action)",
                        source=source, key="check")
    if not final.is_over:
        raise DataError(f"the game is not over after its {len(record.actions)} actions", source=source,
                        key="actions")
    return final


def _play_record_moves(record: PlayRecord, source: str, trust: TrustLike,
                       folder: Path | None) -> tuple[GameState, list[Move]]:
    """A protocol record replayed and checked: its start position and its actions (``GameRecords.moves``)."""
    edition = _edition_of(record, source, trust, folder)
    start: GameState | None = None
    moves: list[Move] = []
    final: GameState | None = None
    for final, action in replay_play_record(record, source=source, edition=edition):
        if action is None:
            start = final.copy()
        else:
            moves.append(action)
    assert start is not None and final is not None
    if record.check is not None and not _matches_check(record.check, final, edition):
        raise DataError("the replayed game does not match the record's check (a changed seed, option or action)",
                        source=source, key="check")
    return start, moves


PROTOCOL_RECORDS = GameRecords(
    record_of=lambda edition, players, seed, options, actions, final: play_record_of(edition, players, seed, options,
                                                                                     actions, final),
    write=write_play_record,
    read=lambda data, source, trust, folder: play_record_from_dict(data, source=source),
    replay_lines=lambda record, source, trust, folder, to: play_replay_lines(record, source=source, trust=trust,
                                                                             folder=folder, to=to),
    facts=_play_record_facts,
    final=_play_record_final,
    moves=lambda record, source, trust, folder: _play_record_moves(record, source, trust, folder))
"""The records of a game that supplies none (``GameDefinition.records``): the protocol's ``PlayRecord``."""


def _game_name(data: Mapping[str, Any]) -> str:
    """The game a record's data is of: its ``game`` key, or the installed default game's (Knizia's records have
    none)."""
    name = data["game"] if "game" in data else default_game(installed_games(), source="record").name
    return name if isinstance(name, str) else repr(name)  # no game's name: the protocol's reader refuses it


def records_of(game: GameDefinition) -> GameRecords:
    """How ``game``'s records are made, written, read and replayed: its own, else the protocol's."""
    return game.records if game.records is not None else PROTOCOL_RECORDS


def record_of(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None, actions: Sequence[Move],
              final: GameState | None = None) -> Any:
    """The record of a game of ``edition`` played through the protocol, as its game writes records; ``final`` (the
    position after the actions) adds the check."""
    return records_of(edition.game).record_of(edition, players, seed, options, actions, final)


def _records_named(name: str) -> GameRecords:
    """How the installed game called ``name`` reads records; the protocol's for a game no installed plugin plays
    (its edition, vouched for, says which game it is when the record is replayed)."""
    from .catalog.editions import installed_plugins, make_plugin_manager

    games = games_of(make_plugin_manager(tuple(installed_plugins()), source="installed plugins"))
    return records_of(games[name]) if name in games else PROTOCOL_RECORDS


@attrs.frozen
class RecordFile:
    """A record read from a file: the name of its game, how that game reads records, and the record."""

    game: str
    records: GameRecords
    record: Any


def read_record_file(path: str | os.PathLike[str], *, trust: TrustLike = ()) -> RecordFile:
    """Read and check any game's record file (``.json`` or ``.toml``) without replaying it."""
    file = Path(path)
    source = str(path)
    if file.suffix.lower() not in (".json", ".toml"):
        raise DataError("a record file ends in .json or .toml", source=source)
    data, _ = read_data(file)
    if not isinstance(data, Mapping):
        raise DataError(f"a record is a table of fields, not {type(data).__name__}", source=source)
    name = _game_name(data)
    records = _records_named(name)
    return RecordFile(name, records, records.read(data, source, Trust.of(trust), file.parent))


def record_moves(read: RecordFile, *, source: str = "record", trust: TrustLike = (),
                 folder: str | os.PathLike[str] | None = None) -> tuple[GameState, list[Move]]:
    """A record read from a file, replayed and checked: its start position on the protocol and its actions as the
    protocol's moves (``GameRecords.moves``); ``DataError`` for a game whose records cannot be replayed so."""
    if read.records.moves is None:
        raise DataError(f"the records of game {read.game!r} cannot be replayed move by move", source=source)
    return read.records.moves(read.record, source, Trust.of(trust), None if folder is None else Path(folder))


def replay_lines(records: GameRecords, record: Any, *, source: str = "record", trust: TrustLike = (),
                 folder: str | os.PathLike[str] | None = None, to: int | None = None) -> Iterator[str]:
    """``record`` told action by action in its game's words (``samurai replay``), after checking it replays."""
    return records.replay_lines(record, source, Trust.of(trust), None if folder is None else Path(folder), to)


def record_facts(record: Any, edition: Edition, measures: GameMeasures, *, source: str = "record") -> Any:
    """A finished game's record replayed under ``edition`` and what ``measures``' watch collects of it."""
    return records_of(edition.game).facts(record, edition, measures, source)
