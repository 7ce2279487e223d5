"""Game records: a game as data, saved as JSON or TOML and replayed to the identical game.

A game is a function of its edition, options, map, player count, seed and
actions; a ``GameRecord`` holds exactly these, plus the schema version and a
check of the position after the last action (so a changed seed or action is
caught even when it happens to stay legal). Loading replays every action
through the rules: an illegal one is refused with its index, and nothing is
returned until the whole record has replayed, so a broken file never yields a
half-applied game.

Records are attrs classes converted with cattrs; JSON is read and written with
the standard library, TOML read with ``tomllib`` and written with tomli-w.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import attrs
import cattrs
import tomli_w

from .actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from .errors import DataError, IllegalAction
from .game import Game, action_of, new_game
from .interrupts import deferred_interrupts
from .plugins import Edition, load_edition
from .rules import Rules
from .state import State
from .tomlfile import read_text

__all__ = ["SCHEMA_VERSION", "MIGRATIONS", "GameRecord", "to_record", "from_record", "replay", "save", "load",
           "read_record", "write_record", "record_to_dict", "record_from_dict", "record_of", "position_check",
           "edition_reference"]

SCHEMA_VERSION = 1
"""The record format this engine writes; it reads this one and migrates older ones."""

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``MIGRATIONS[k]`` turns a schema-``k`` record dict into a schema-``k + 1`` one.

Version 1 is the first format, so nothing needs migrating yet; a change to the
format adds the step from the previous version here.
"""

_FORMATS = (".json", ".toml")
_CORE_ACTIONS: tuple[type[Action], ...] = (ChooseTile, PlaceFigure, PlaceTile, EndTurn)


@attrs.frozen
class GameRecord:
    """Everything a game is made of. ``Game`` ↔ record: ``to_record`` and ``from_record``."""

    edition: str
    """An installed edition's id, or the path of a manifest file."""
    edition_version: str
    players: int
    seed: int
    options: Mapping[str, bool | int | float | str]
    """Every option's value (defaults included), so a later default change cannot alter the game."""
    actions: tuple[Action, ...]
    map: str | None = None
    """The map given to ``new_game`` (a bundled name or a path); None for the edition's own."""
    scenario: Mapping[str, Any] | None = None
    """The scenario the game started from (its data, so the record stands alone); None for a new game."""
    check: str | None = None
    """A digest of the position after the last action (see ``position_check``)."""
    schema: int = SCHEMA_VERSION


# --- Game <-> record ---------------------------------------------------------------------

def position_check(state: State) -> str:
    """A digest of everything that defines a position (``State.fingerprint``), the same on any machine."""
    return "sha256:" + hashlib.sha256(repr(state.fingerprint()).encode()).hexdigest()


def to_record(game: Game) -> GameRecord:
    """The record of ``game`` so far (finished or not)."""
    return GameRecord(edition=edition_reference(game.rules), edition_version=game.rules.edition.version,
                      players=game.players, seed=game.seed, options=dict(game.rules.options),
                      actions=game.history, map=game.map_name, check=position_check(game.state),
                      scenario=dict(game.scenario.data) if game.scenario else None)


def record_of(rules: Rules, seed: int, internal_actions: list[tuple[int, ...]], *, final: State | None = None,
              edition: str | None = None, map_name: str | None = None,
              scenario: Mapping[str, Any] | None = None) -> GameRecord:
    """A record from the engine's action tuples (simulations); ``final`` adds the position check."""
    return GameRecord(edition=edition or edition_reference(rules), edition_version=rules.edition.version,
                      players=rules.players, seed=seed, options=dict(rules.options),
                      actions=tuple(action_of(rules, a) for a in internal_actions), map=map_name,
                      scenario=dict(scenario) if scenario is not None else None,
                      check=position_check(final) if final is not None else None)


def replay(record: GameRecord, *, edition: Edition | None = None, source: str = "record",
           trace: bool = True) -> Iterator[Game]:
    """Start the game of ``record`` and yield it before the first action and after each one.

    The same ``Game`` is yielded each time, moved on by one action. An
    illegal action raises ``DataError`` with the key ``actions[i]``.
    """
    game = _start(record, edition, source, trace)
    yield game
    for index, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise DataError(f"action {index} ({_describe(action)}) cannot be replayed: {exc}", source=source,
                            key=f"actions[{index}]") from None
        yield game


def from_record(record: GameRecord, *, edition: Edition | None = None, source: str = "record") -> Game:
    """The game a record describes, replayed action by action and checked against its saved position."""
    for game in replay(record, edition=edition, source=source):  # noqa: B007 - the last one is the game
        pass
    if record.check is not None and position_check(game.state) != record.check:
        raise DataError(f"the {len(record.actions)} actions replay to a different position than the one saved: "
                        f"the seed, options, map or actions were changed", source=source, key="check")
    return game


def _start(record: GameRecord, edition: Edition | None, source: str, trace: bool) -> Game:
    ed = edition or _load_edition(record.edition, source)
    if ed.manifest.version != record.edition_version:
        raise DataError(f"the record was played with {record.edition} {record.edition_version}, but version "
                        f"{ed.manifest.version} is installed", source=source, key="edition_version")
    try:
        return new_game(ed, players=record.players, seed=record.seed, options=record.options, map=record.map,
                        trace=trace, scenario=record.scenario)
    except DataError as exc:  # a scenario, option, player count or map that does not fit the edition
        if exc.source in ("scenario", "options"):  # new_game names an embedded scenario's errors "scenario"
            key = f"{exc.source}.{exc.key}" if exc.key else exc.source
        else:
            key = exc.source if exc.source in ("players", "seed") else "map"
        raise DataError(exc.message, source=source, key=key) from None


def _load_edition(name: str, source: str) -> Edition:
    try:
        return load_edition(name)
    except DataError as exc:
        raise DataError(str(exc), source=source, key="edition") from None


def edition_reference(rules: Rules) -> str:
    """How a record names the edition of ``rules``: the installed id it was loaded by, else its manifest's path."""
    return rules.reference


def _describe(action: Action) -> str:
    return json.dumps(action.to_dict())


# --- dicts (cattrs) ----------------------------------------------------------------------

def _strict(kind: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value
    return structure


def _converter(action_types: Mapping[str, type[Action]]) -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    for kind in (int, str, bool):
        conv.register_structure_hook(kind, _strict(kind))

    def option_value(value: Any, _: Any) -> Any:
        if not isinstance(value, (bool, int, float, str)):
            raise TypeError(f"an option value is true/false, a number or text, not {value!r}")
        return value

    def action(value: Any, _: Any) -> Action:
        if not isinstance(value, Mapping) or not isinstance(value.get("action"), str):
            raise TypeError(f'an action is a table with "action" naming its kind, not {value!r}')
        kind = action_types.get(value["action"])
        if kind is None:
            raise TypeError(f"unknown action {value['action']!r}; actions are {', '.join(action_types)}")
        fields = {f.name for f in attrs.fields(cast(Any, kind))}
        given = {k: v for k, v in value.items() if k != "action"}
        if set(given) != fields:
            raise TypeError(f"{value['action']} takes {', '.join(sorted(fields)) or 'no fields'}, "
                            f"not {', '.join(sorted(given)) or 'none'}")
        try:
            return kind(**given)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{value['action']}: {exc}") from None

    conv.register_structure_hook(bool | int | float | str, option_value)
    conv.register_structure_hook(Action, action)
    conv.register_unstructure_hook_func(lambda t: isinstance(t, type) and issubclass(t, Action),
                                        lambda a: a.to_dict())
    return conv


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """A JSON- and TOML-ready dict (the schema version first; no None values)."""
    data = _converter({}).unstructure(record)
    ordered = {"schema": data.pop("schema"), **data}
    return {k: v for k, v in ordered.items() if v is not None}


def record_from_dict(data: Any, *, source: str = "record",
                     action_types: Mapping[str, type[Action]] | None = None) -> GameRecord:
    """Validate and migrate a record dict into a ``GameRecord``; refuse it naming the field."""
    if not isinstance(data, Mapping):
        raise DataError(f"a record is a table of fields, not {type(data).__name__}", source=source)
    data = _migrated(dict(data), source)
    types = dict(action_types or {t.__name__: t for t in _all_action_types()})
    actions = data.get("actions")
    named = {a["action"] for a in actions if isinstance(a, Mapping) and isinstance(a.get("action"), str)} \
        if isinstance(actions, list) else set()
    if named - types.keys() and isinstance(data.get("edition"), str):
        types.update(_edition_action_types(data["edition"]))
    try:
        return _converter(types).structure(data, GameRecord)
    except cattrs.BaseValidationError as exc:
        first = cattrs.transform_error(exc, path="record", format_exception=_explain)[0]
        message, _, where = first.rpartition(" @ ")
        key = where.removeprefix("record").lstrip(".") or None
        raise DataError(message or first, source=source, key=key) from None


def _explain(exc: BaseException, _: Any) -> str:
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown field {', '.join(map(repr, sorted(exc.extra_fields)))}"
    if isinstance(exc, KeyError):
        return "required field missing"
    return str(exc)


def _migrated(data: dict[str, Any], source: str) -> dict[str, Any]:
    version = data.get("schema")
    if isinstance(version, bool) or not isinstance(version, int):
        raise DataError(f"the schema version must be a whole number, not {version!r}", source=source, key="schema")
    if version > SCHEMA_VERSION:
        raise DataError(f"schema version {version} is newer than this engine reads ({SCHEMA_VERSION}): "
                        f"upgrade samurai-engine", source=source, key="schema")
    if version < 1:
        raise DataError(f"schema version {version} does not exist (versions start at 1)", source=source,
                        key="schema")
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["schema"] = version
    return data


def _edition_action_types(name: str) -> dict[str, type[Action]]:
    """The actions of the special tiles an edition's plugins contribute (none if it does not load)."""
    try:
        edition = load_edition(name)
    except DataError:
        return {}  # the record is refused later, for its edition or for the unknown action
    return {behaviour.action_type.__name__: behaviour.action_type
            for behaviours in edition.plugin_manager.hook.samurai_tile_behaviours() for behaviour in behaviours}


def _all_action_types() -> list[type[Action]]:
    from .special_tiles import MoveTile, SwitchFigures

    return [*_CORE_ACTIONS, MoveTile, SwitchFigures]


# --- files -------------------------------------------------------------------------------

def write_record(record: GameRecord, path: str | Path) -> Path:
    """Write ``record`` as JSON or TOML (by the file's suffix), atomically: never a half-written file."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in _FORMATS:
        raise DataError(f"a record file ends in {' or '.join(_FORMATS)}, not {suffix or 'nothing'!r}",
                        source=str(target))
    data = record_to_dict(record)
    text = json.dumps(data, indent=1) + "\n" if suffix == ".json" else tomli_w.dumps(data)
    target.parent.mkdir(parents=True, exist_ok=True)
    with deferred_interrupts():  # a signal waits for the rename, so no temporary file is left behind
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            os.fchmod(handle, _file_mode())  # mkstemp makes 0600; a saved record is an ordinary file
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return target


def _file_mode() -> int:
    """The mode ``open()`` would give a new file: 0666 less the process's umask (read anew: it may change)."""
    try:  # Linux says it without changing it, so no other thread ever sees a wrong umask
        status = Path("/proc/self/status").read_text(encoding="ascii")
        mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("Umask:")), 8)
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def read_record(path: str | Path) -> GameRecord:
    """Read and validate a record file (JSON or TOML) without replaying it."""
    source = str(path)
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in _FORMATS:
        raise DataError(f"a record file ends in {' or '.join(_FORMATS)}", source=source)
    text = read_text(file)
    try:
        data = json.loads(text) if suffix == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} (column {exc.colno})", source=source, line=exc.lineno) from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"not valid TOML: {exc}", source=source) from None
    return record_from_dict(data, source=source)


def save(game: Game, path: str | Path) -> Path:
    """Save ``game`` (finished or not) to ``path``: ``.json`` or ``.toml``."""
    return write_record(to_record(game), path)


def load(path: str | Path) -> Game:
    """Load a saved game: read, validate, replay every action and check the saved position."""
    return from_record(read_record(path), source=str(path))
