"""Game records: a game as data, saved as JSON or TOML and replayed to the identical game.

A game is a function of its edition, options, map, player count, seed and
actions; a ``GameRecord`` holds exactly these, plus the schema version and a
check of the position after the last action (so a changed seed or action is
caught even when it happens to stay legal). Loading replays every action
through the rules: an illegal one is refused with its index, and nothing is
returned until the whole record has replayed, so a broken file never yields a
half-applied game.

Whole numbers are checked against their field's range, naming the field
(``samurai.files.reading.whole_number``): the seed is from 0 to 2**63-1 (0 <= seed <
2**63, the engine's range), the player count one the edition is for (checked
when the record is replayed), and any whole number in the file fits 64 bits.
A ``check`` that is not a digest as one is written is refused as a malformed
check (``samurai.records.read_check``). A tile played from a hand that does not
hold it is blamed on the field ``seed``, which deals every hand: a record
whose seed was changed stops there, not on a tile.

Records are attrs classes converted with cattrs; JSON is read and written with
the standard library, TOML read with ``tomllib`` and written with tomli-w.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import attrs
import cattrs
import tomli_w

from samurai.catalog.editions import Edition
from samurai.catalog.trust import Trust, TrustLike, names_edition
from samurai.errors import DataError, IllegalAction
from samurai.files.reading import INT_HIGH, INT_LOW, any_whole_number, check_plain, read_data, whole_number
from samurai.files.writing import write_atomically
from samurai.records import read_check
from samurai_plugins.knizia.core.actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from samurai_plugins.knizia.core.state import State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.game import MAX_SEED, Game, action_of, check_seed, new_game

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
    """The edition's id (a designer's edition loads only when its manifest is vouched for, see
    ``samurai.catalog.trust``); older records may name a manifest's path."""
    edition_version: str
    players: int
    seed: int
    options: Mapping[str, bool | int | float | str]
    """Every option's value (defaults included), so a later default change cannot alter the game."""
    actions: tuple[Action, ...]
    map: str | None = None
    """The map given to ``new_game``: a bundled name, or a map file (by name when it is beside the record);
    None for the edition's own."""
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
           trace: bool = True, trust: TrustLike = (), folder: str | Path | None = None) -> Iterator[Game]:
    """Start the game of ``record`` and yield it before the first action and after each one.

    The same ``Game`` is yielded each time, moved on by one action. An
    illegal action raises ``DataError`` with the key ``actions[i]``. The
    edition is ``edition``, or the one the record names (an installed id, or a
    manifest in ``trust``); ``folder`` is where the record's file is (a map
    file the record names is looked for there).
    """
    record = _checked_record(record, source)
    game = _start(record, edition, source, trace, Trust.of(trust), None if folder is None else Path(folder))
    yield game
    for index, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise _not_replayed(game, record, index, action, exc, source) from None
        yield game


def _not_replayed(game: Game, record: GameRecord, index: int, action: Action, refusal: IllegalAction,
                  source: str) -> DataError:
    """Why action ``index`` of ``record`` cannot be replayed: a tile played from a hand that does not hold it was
    dealt by another seed (the field ``seed``; or the actions were changed), any other refusal the action's own."""
    tile, seat = getattr(action, "tile", None), game.current_player
    if game.phase == "play" and isinstance(tile, str) and seat is not None and tile not in game.view(seat)["hand"]:
        return DataError(f"the seed or the actions do not match the record: action {index} ({_describe(action)}) "
                         f"plays a {tile} tile that seat {seat} does not hold as seed {record.seed} deals the tiles",
                         source=source, key="seed")
    return DataError(f"action {index} ({_describe(action)}) cannot be replayed: {refusal}", source=source,
                     key=f"actions[{index}]")


def from_record(record: GameRecord, *, edition: Edition | None = None, source: str = "record",
                trust: TrustLike = (), folder: str | Path | None = None) -> Game:
    """The game a record describes, replayed action by action and checked against its saved position.

    ``edition`` plays it under an edition you loaded (it must be the one the
    record names); otherwise the record's edition is an installed one, or a
    manifest you vouch for in ``trust`` (paths or ``Edition`` values; see
    ``samurai.catalog.trust``). ``folder`` is the folder of the record's file: a map
    file the record names is looked for there.
    """
    for game in replay(record, edition=edition, source=source, trust=trust, folder=folder):  # noqa: B007
        pass
    if record.check is not None and position_check(game.state) != record.check:
        raise DataError(f"the {len(record.actions)} actions replay to a different position than the one saved: "
                        f"the seed, options, map or actions were changed", source=source, key="check")
    return game


def _checked_record(record: Any, source: str) -> GameRecord:
    """``record`` as a sound ``GameRecord``: one built in code is checked like one read from a file."""
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord (record_from_dict turns a dict into one), not "
                        f"{type(record).__name__}")
    if _sound(record):
        return record
    try:
        data = _converter({}).unstructure(record)
    except Exception:  # an attribute of a type cattrs cannot even take apart
        raise DataError("the record holds values of the wrong type", source=source) from None
    kinds = {type(a).__name__: type(a) for a in record.actions if isinstance(a, Action)} \
        if isinstance(record.actions, (tuple, list)) else {}
    return record_from_dict(data, source=source, action_types={**{t.__name__: t for t in _all_action_types()},
                                                               **kinds})


def _sound(record: GameRecord) -> bool:
    """A quick check of the field types (what ``record_from_dict`` guarantees), to skip the full one."""
    return (isinstance(record.edition, str) and isinstance(record.edition_version, str)
            and type(record.players) is int and type(record.seed) is int and type(record.schema) is int
            and isinstance(record.options, Mapping) and isinstance(record.actions, tuple)
            and all(isinstance(a, Action) for a in record.actions)
            and (record.map is None or isinstance(record.map, str))
            and (record.check is None or isinstance(record.check, str))
            and (record.scenario is None or isinstance(record.scenario, Mapping)))


def _start(record: GameRecord, edition: Edition | None, source: str, trace: bool, trust: Trust,
           folder: Path | None) -> Game:
    if edition is None:
        ed = trust.edition(record.edition, source=source, key="edition", folder=folder)
    elif not isinstance(edition, Edition):
        raise TypeError(f"edition must be a loaded Edition (samurai.load_edition), not {type(edition).__name__}")
    elif not names_edition(record.edition, edition, folder):
        raise DataError(f"the record is a game of edition {record.edition!r}, not {edition.id!r}: a record is "
                        f"replayed only under its own edition", source=source, key="edition")
    else:
        ed = edition
    if ed.manifest.version != record.edition_version:
        raise DataError(f"the record was played with {record.edition} {record.edition_version}, but version "
                        f"{ed.manifest.version} is installed", source=source, key="edition_version")
    try:
        check_seed(record.seed, source="seed")
        game_map = None if record.map is None else trust.game_map(record.map, knizia_edition(ed), source=source,
                                                                             folder=folder)
        return new_game(ed, players=record.players, seed=record.seed, options=record.options, map=game_map,
                        trace=trace, scenario=record.scenario)
    except DataError as exc:  # a scenario, option, player count or map that does not fit the edition
        if exc.source == source:
            raise
        if exc.source in ("scenario", "options"):  # new_game names an embedded scenario's errors "scenario"
            key = f"{exc.source}.{exc.key}" if exc.key else exc.source
        else:
            key = exc.source if exc.source in ("players", "seed") else "map"
        raise DataError(exc.message, source=source, key=key) from None


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
                     action_types: Mapping[str, type[Action]] | None = None, trust: TrustLike = (),
                     folder: str | Path | None = None) -> GameRecord:
    """Validate and migrate a record dict into a ``GameRecord``; refuse it naming the field.

    Actions of special tiles a plugin contributes are read with the record's
    edition, which must then be installed or vouched for (``trust``, see
    ``samurai.catalog.trust``); ``folder`` is the record file's folder.
    """
    if not isinstance(data, Mapping):
        raise DataError(f"a record is a table of fields, not {type(data).__name__}", source=source)
    check_plain(data, source=source)
    if data.get("game", "knizia") != "knizia":
        raise DataError(f"a record of the game {data['game']!r:.40}, not of Knizia's: samurai.records reads it "
                        f"(samurai replay and render do)", source=source, key="game")
    data = _migrated(dict(data), source)
    if "players" in data:  # its range is the edition's, checked when the record is replayed
        any_whole_number(data["players"], "players", source=source)
    if "seed" in data:
        whole_number(data["seed"], "seed", 0, MAX_SEED, source=source)  # the engine's range
    if "check" in data:
        read_check(data["check"], source=source)
    types = dict(action_types or {t.__name__: t for t in _all_action_types()})
    actions = data.get("actions")
    named = {a["action"] for a in actions if isinstance(a, Mapping) and isinstance(a.get("action"), str)} \
        if isinstance(actions, list) else set()
    if named - types.keys() and isinstance(data.get("edition"), str):
        edition = Trust.of(trust).edition(data["edition"], source=source, key="edition",
                                          folder=None if folder is None else Path(folder))
        types.update(_edition_action_types(edition))
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
    version = whole_number(data.get("schema"), "schema", INT_LOW, INT_HIGH, source=source)
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


def _edition_action_types(edition: Edition) -> dict[str, type[Action]]:
    """The actions of the special tiles an edition's plugins contribute."""
    return {behaviour.action_type.__name__: behaviour.action_type
            for behaviours in edition.plugin_manager.hook.samurai_tile_behaviours() for behaviour in behaviours}


def _all_action_types() -> list[type[Action]]:
    """The core actions and those of the engine's own special tiles."""
    from samurai_plugins.knizia.engine.special_tiles import ENGINE_TILES

    return [*_CORE_ACTIONS, *(tile.action_type for tile in ENGINE_TILES)]


# --- files -------------------------------------------------------------------------------

def write_record(record: GameRecord, path: str | Path) -> Path:
    """Write ``record`` as JSON or TOML (by the file's suffix), atomically: never a half-written file.

    A map file in the record's folder is written by its name, so the folder can move.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord, not {type(record).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a record's path is a str or Path, not {type(path).__name__}")
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in _FORMATS:
        raise DataError(f"a record file ends in {' or '.join(_FORMATS)}, not {suffix or 'nothing'!r}",
                        source=str(target))
    if record.map is not None and record.map.endswith(".toml") and Path(record.map).is_absolute() \
            and Path(record.map).parent == target.absolute().parent:
        record = attrs.evolve(record, map=Path(record.map).name)
    data = record_to_dict(record)
    text = json.dumps(data, indent=1) + "\n" if suffix == ".json" else tomli_w.dumps(data)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(target, text)


def read_record(path: str | Path, *, trust: TrustLike = ()) -> GameRecord:
    """Read and validate a record file (JSON or TOML) without replaying it.

    Reading never runs code: an edition manifest the record names is loaded
    only when it is in ``trust`` (see ``samurai.catalog.trust``).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a record's path is a str or Path, not {type(path).__name__}")
    source = str(path)
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in _FORMATS:
        raise DataError(f"a record file ends in {' or '.join(_FORMATS)}", source=source)
    data, _ = read_data(file)
    return record_from_dict(data, source=source, trust=trust, folder=file.parent)


def save(game: Game, path: str | Path) -> Path:
    """Save ``game`` (finished or not) to ``path``: ``.json`` or ``.toml``."""
    if not isinstance(game, Game):
        raise TypeError(f"save takes a Game, not {type(game).__name__}")
    return write_record(to_record(game), path)


def load(path: str | Path, *, trust: TrustLike = ()) -> Game:
    """Load a saved game: read, validate, replay every action and check the saved position.

    The record's edition must be installed, or its manifest vouched for in
    ``trust`` (manifest paths or loaded ``Edition`` values): a record never
    runs code by itself. A map file the record names is looked for in the
    record's folder (see ``samurai.catalog.trust``).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a record's path is a str or Path, not {type(path).__name__}")
    vouched = Trust.of(trust)
    record = read_record(path, trust=vouched)
    return from_record(record, source=str(path), trust=vouched, folder=Path(path).parent)
