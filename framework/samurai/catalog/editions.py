"""Plugins and editions: discovery through entry points, one plugin manager per edition.

Installed packages register plugin modules under the ``samurai`` entry-point
group. ``available_editions()`` collects every edition manifest they (and the
engine) contribute; ``load_edition(id)`` reads one, merges what it extends,
and builds a pluggy ``PluginManager`` that holds the engine's defaults and
exactly the plugins the manifest names. Nothing is global: each ``Edition``
owns its manager, and compiled ``Rules`` are cached on the ``Edition``.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import traceback
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

from ..data import bundled_maps
from ..errors import DataError
from ..files.reading import is_file, key_line, read_toml, table_line
from ..hooks import defaults
from ..hooks import specs as hookspecs
from ..hooks.calls import PLUGIN_FILE_MODULE_PREFIX, call_hook
from ..knizia import special_tiles
from ..knizia.maps import GameMap, load_map
from ..knizia.rules import Rules, compile_rules
from .games import KNIZIA, GameDefinition, game_of
from .manifests import EditionManifest, merge_manifests, parse_manifest

if TYPE_CHECKING:
    from ..protocol import GameState

__all__ = ["ENTRY_POINT_GROUP", "PluginInfo", "Edition", "installed_plugins", "available_editions",
           "load_edition", "load_plugin", "load_plugin_file", "is_plugin_file", "check_plugin_order",
           "make_plugin_manager", "register_plugin", "resolve_map", "resolve_board", "plugin_hooks"]

ENTRY_POINT_GROUP = "samurai"
_CORE_PLUGINS = (("samurai.defaults", defaults), ("samurai.knizia.special_tiles", special_tiles))


@attrs.frozen
class PluginInfo:
    """An installed plugin: its entry-point name, module, and the package that ships it."""

    name: str
    module: str
    package: str
    version: str


def installed_plugins() -> dict[str, PluginInfo]:
    """Every plugin registered under the ``samurai`` entry-point group, by name."""
    found = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist
        found[ep.name] = PluginInfo(ep.name, ep.value, dist.name if dist else "?", dist.version if dist else "?")
    return dict(sorted(found.items()))


def load_plugin(name: str, *, source: str = "plugins") -> ModuleType:
    """Import the plugin module registered as ``name``; refuse unknown or broken ones clearly."""
    plugins = installed_plugins()
    if name not in plugins:
        known = ", ".join(plugins) or "none"
        raise DataError(f"no installed plugin is named {name!r} (installed: {known}); a plugin is registered "
                        f"in its package's [project.entry-points.samurai] table", source=source, key="plugins")
    try:
        return importlib.import_module(plugins[name].module)
    except BaseException as exc:  # a plugin's import error, even SystemExit or KeyboardInterrupt, is no traceback
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise DataError(f"plugin {name!r} ({plugins[name].module}) failed to import: {detail}", source=source,
                        key="plugins") from None


def load_plugin_file(path: str, *, source: str = "plugins") -> ModuleType:
    """Import a plugin module from a ``.py`` file (a designer's plugin beside its manifest).

    The module is not added to ``sys.modules``: two editions may each bring a
    ``variant.py`` without seeing each other.
    """
    file = Path(path)
    if not is_file(file):
        raise DataError(f"plugin file {path} does not exist (plugin files are named relative to the manifest)",
                        source=source, key="plugins")
    spec = importlib.util.spec_from_file_location(f"{PLUGIN_FILE_MODULE_PREFIX}{file.stem}", file)
    if spec is None or spec.loader is None:
        raise DataError(f"cannot import plugin file {path}", source=source, key="plugins")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise DataError(f"plugin has a syntax error: {exc.msg}", source=str(file), line=exc.lineno) from None
    except BaseException as exc:  # a plugin's import error, even SystemExit or KeyboardInterrupt, is no traceback
        line = next((frame.lineno for frame in reversed(traceback.extract_tb(exc.__traceback__))
                     if Path(frame.filename) == file), None)
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise DataError(f"plugin failed to import: {detail}", source=str(file), line=line) from None
    return module


def is_plugin_file(name: str) -> bool:
    """Whether a manifest's plugin entry names a ``.py`` file rather than an installed plugin."""
    return name.endswith(".py")


def make_plugin_manager(plugin_names: tuple[str, ...], *, source: str = "plugins") -> pluggy.PluginManager:
    """A manager with the engine's defaults and the named plugins, validated against the specs.

    A name ending in ``.py`` is a plugin file (see ``load_plugin_file``); any
    other name is an installed plugin's entry-point name.
    """
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    for name, module in _CORE_PLUGINS:
        pm.register(module, name=name)
    for name in plugin_names:
        module = load_plugin_file(name, source=source) if is_plugin_file(name) else load_plugin(name, source=source)
        register_plugin(pm, module, name)
    return pm


def check_plugin_order(pm: pluggy.PluginManager, plugin_names: tuple[str, ...], *, source: str) -> None:
    """Refuse two plugins of one manifest that decide the same thing with no order between them.

    A variant's plugins decide before the plugins of the edition it extends;
    within one manifest, only ``tryfirst``/``trylast`` can say which of two
    deciding plugins goes first, so a pair without either is ambiguous.
    """
    named = set(plugin_names)
    for caller in pm.hook.__dict__.values():
        if not isinstance(caller, pluggy.HookCaller) or not (caller.spec and caller.spec.opts.get("firstresult")):
            continue
        unordered = [impl.plugin_name for impl in caller.get_hookimpls()
                     if impl.plugin_name in named and not (impl.tryfirst or impl.trylast)]
        if len(unordered) > 1:
            raise DataError(f"plugins {' and '.join(map(repr, sorted(unordered)))} both decide {caller.name} and "
                            f"nothing says which goes first: keep one, or mark one @hookimpl(tryfirst=True)",
                            source=source, key="plugins")


def register_plugin(pm: pluggy.PluginManager, module: ModuleType, name: str) -> None:
    """Register a plugin module, refusing hooks that do not match a specification.

    The message names the plugin's file and the line of the offending hook:
    a misspelt hook name (with the nearest real one) or an argument the hook
    does not give.
    """
    where = getattr(module, "__file__", None) or name
    for attr in dir(module):
        if pm.parse_hookimpl_opts(module, attr) is None:
            continue
        function = getattr(module, attr)
        line = getattr(getattr(function, "__code__", None), "co_firstlineno", None)
        caller = getattr(pm.hook, attr, None)
        if caller is None or caller.spec is None:
            hooks = [n for n in dir(hookspecs) if n.startswith("samurai_")]
            near = difflib.get_close_matches(attr, hooks, n=1)
            hint = f" (did you mean {near[0]}?)" if near else f"; hooks are: {', '.join(hooks)}"
            raise DataError(f"{attr} is not a samurai hook{hint}", source=where, line=line)
        given = caller.spec.argnames
        asked = [p for p in inspect.signature(function).parameters if p not in given]
        if asked:
            raise DataError(f"hook {attr} asks for {', '.join(map(repr, asked))}, which the hook does not give; it "
                            f"gives {', '.join(given)}", source=where, line=line)
    try:
        pm.register(module, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        if pm.is_registered(module):
            pm.unregister(module)
        detail = " ".join(str(exc).split())
        raise DataError(f"plugin {name!r} does not fit the hook specifications: {detail}", source=where) from None


def plugin_hooks(pm: pluggy.PluginManager, plugin: Any) -> list[str]:
    """The names of the hooks ``plugin`` implements in ``pm``."""
    return sorted(caller.name for caller in pm.get_hookcallers(plugin) or [])


def available_editions() -> dict[str, Path | Any]:
    """Every installed edition manifest by id: the engine's own and those plugins contribute."""
    pm = make_plugin_manager(tuple(installed_plugins()), source="installed plugins")
    found: dict[str, Any] = {}
    for manifests in call_hook(pm.hook.samurai_edition_manifests, source="installed plugins"):
        for path in manifests:
            data, _ = read_toml(path)
            ident = data.get("id")
            if not isinstance(ident, str):
                raise DataError("missing key 'id' in the edition manifest", source=str(path), key="id")
            if ident in found and str(found[ident]) != str(path):
                raise DataError(f"edition id {ident!r} is also defined in {found[ident]}", source=str(path), key="id")
            found[ident] = path
    return dict(sorted(found.items()))


def resolve_map(name: str, *, relative_to: str | None = None) -> GameMap:
    """Load a map by bundled name (``"japan"``) or by path.

    With ``relative_to`` (a manifest), a path is relative to that file's folder
    and must stay inside it; without, it is the caller's own path.
    """
    if name.endswith(".toml"):
        path = Path(name)
        if relative_to:
            path = _inside_folder(name, relative_to, what="map file", key="map")
        elif not is_file(path):
            raise DataError(f"map file {name} not found", source="map", key="map")
        return load_map(path.absolute())
    for candidate in bundled_maps():
        if candidate.name == f"{name}.toml":
            return load_map(candidate)
    known = ", ".join(m.name.removesuffix(".toml") for m in bundled_maps())
    raise DataError(f"no map named {name!r} (bundled maps: {known}; or give a path to a .toml file)",
                    source=relative_to or "map", key="map")


def resolve_board(name: str, relative_to: str) -> Path | Any:
    """The board file a manifest's ``map`` names, for a game's ``load_board``: a bundled board by name
    (``"battlefield"``), or a ``.toml`` path relative to the manifest that must stay in its folder."""
    if name.endswith(".toml"):
        return _inside_folder(name, relative_to, what="map file", key="map")
    for candidate in bundled_maps():
        if candidate.name == f"{name}.toml":
            return candidate
    known = ", ".join(m.name.removesuffix(".toml") for m in bundled_maps())
    raise DataError(f"no map named {name!r} (bundled maps: {known}; or give a path to a .toml file)",
                    source=relative_to, key="map")


def _inside_folder(entry: str, manifest: str, *, what: str, key: str) -> Path:
    """The file a manifest names, relative to its folder; refused when it lies outside (``..``, absolute, a link)."""
    folder = Path(manifest).parent
    path = Path(entry)
    inside = not path.is_absolute() and ".." not in path.parts
    if inside:
        try:
            inside = (folder / path).resolve().is_relative_to(folder.resolve())
        except (OSError, RuntimeError, ValueError):
            inside = False
    if not inside:
        raise DataError(f"{what} {entry!r} must lie in the manifest's folder: '..', absolute paths and links "
                        f"leading out are refused", source=manifest, key=key)
    if not is_file(folder / path):
        raise DataError(f"{what} {entry} not found in the manifest's folder", source=manifest, key=key)
    return folder / path


class Edition:
    """An edition ready to play: its manifest, its own plugin manager, its game and its board.

    ``rules(players, options, map)`` compiles (and caches) the rules for a
    game of Knizia's; many games share one ``Rules``. Every game starts through
    ``start(players, seed, options)`` on the game protocol.
    """

    def __init__(self, manifest: EditionManifest, plugin_manager: pluggy.PluginManager, game_map: GameMap | None, *,
                 reference: str | None = None, game: GameDefinition | None = None, board: Any = None) -> None:
        self.manifest = manifest
        self.plugin_manager = plugin_manager
        self._map = game_map
        self.board: Any = game_map if board is None else board
        """The edition's board as its game reads it (a ``GameMap`` for Knizia's game)."""
        self.reference = reference or manifest.id
        """How records name this edition: its id (a manifest's id must be vouched for to load a record)."""
        self.game: GameDefinition = game if game is not None else game_of(plugin_manager, manifest.game,
                                                                          source=manifest.path)
        """The game this edition plays (``samurai.catalog.games.GameDefinition``)."""
        self._rules: dict[tuple[Any, ...], Rules] = {}
        self._maps: dict[str, GameMap] = {}

    @property
    def id(self) -> str:
        """The edition's id, e.g. ``"ffg2015"``."""
        return self.manifest.id

    @property
    def map(self) -> GameMap:
        """The hex map of an edition of Knizia's game; ``DataError`` for another game's edition."""
        if self._map is None:
            raise DataError(f"edition {self.id!r} plays {self.manifest.game!r}, which has no hex map",
                            source=self.manifest.path, key="map")
        return self._map

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this edition is for."""
        return self.game.player_counts(self)

    def start(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> GameState:
        """A new game of this edition on the game protocol (``samurai.protocol.GameState``)."""
        return self.game.start(self, players, seed, options)

    def rules(self, players: int, options: Mapping[str, Any] | None = None, game_map: GameMap | None = None) -> Rules:
        """The compiled rules for ``players`` with ``options`` (checked against the manifest)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise DataError(f"players must be a whole number, not {players!r}", source="players")
        if self._map is None:
            raise DataError(f"edition {self.id!r} plays {self.manifest.game!r}, not Knizia's game, which this needs "
                            f"(a game of any edition starts with Edition.start)", source=self.manifest.path, key="game")
        values = self.manifest.resolve_options(options)
        chosen_map = game_map or self.map
        key = (players, tuple(sorted(values.items())), id(chosen_map))
        if key not in self._rules:
            self._rules[key] = compile_rules(self.manifest, self.plugin_manager.hook, chosen_map, players, values)
            self._rules[key].reference = self.reference
        return self._rules[key]

    def map_named(self, name: str) -> GameMap:
        """A map by bundled name or path (see ``resolve_map``), loaded once per edition."""
        if name not in self._maps:
            self._maps[name] = resolve_map(name)
        return self._maps[name]

    def __repr__(self) -> str:
        return f"<Edition {self.id} {self.manifest.version}>"


def load_edition(name: str | os.PathLike[str]) -> Edition:
    """Load an installed edition by id (``"ffg2015"``) or a manifest file by path.

    Naming a manifest by path runs its plugin files: do it only for manifests
    you trust (records and scenarios never do it for you; see ``samurai.catalog.trust``).
    """
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise TypeError(f"load_edition takes an edition id or a manifest path, not {type(name).__name__} {name!r:.80}")
    if not name.strip():
        raise DataError("name an edition: an installed id or a manifest path", source="edition")
    catalog = available_editions()
    if name.endswith(".toml"):
        path: Any = Path(name)
    elif name in catalog:
        path = catalog[name]
    else:
        raise DataError(f"no edition named {name!r}; installed editions: {', '.join(catalog) or 'none'}",
                        source="edition")
    data, text, levels = _merged_manifest_data(path, catalog, seen=())
    game_name = data.get("game", KNIZIA)
    if game_name != KNIZIA and isinstance(game_name, str):
        # Another game: its plugins say which keys its manifest may add, and how to read its board.
        pm = make_plugin_manager(tuple(data.get("plugins", [])), source=str(path))
        definition = game_of(pm, game_name, source=str(path))
        manifest = parse_manifest(data, path=str(path), text=text, game_keys=definition.manifest_keys)
        for level_path, level_plugins in levels:
            check_plugin_order(pm, level_plugins, source=level_path)
        definition.check_manifest(manifest, data, text)
        board = definition.load_board(manifest.map, str(path))
        return Edition(manifest, pm, None, reference=manifest.id, game=definition, board=board)
    manifest = parse_manifest(data, path=str(path), text=text)
    pm = make_plugin_manager(manifest.plugins, source=str(path))
    for level_path, level_plugins in levels:
        check_plugin_order(pm, level_plugins, source=level_path)
    game_map = resolve_map(manifest.map, relative_to=str(path))
    # Records name the edition by id: an installed one loads by it, a manifest's must be vouched for.
    edition = Edition(manifest, pm, game_map, reference=manifest.id)
    for players in manifest.players:
        try:
            edition.rules(players)  # refuse a manifest whose player counts do not fit its map now, not mid-game
        except DataError as exc:
            if exc.key != "pieces" or exc.source != game_map.source:
                raise
            # The manifest asked for the piece the map lacks: name the manifest's field, not the map.
            raise DataError(exc.message, source=str(path), line=key_line(text, "pieces"),
                            key=f"players.{players}.pieces") from None
    return edition


def _merged_manifest_data(path: Any, catalog: Mapping[str, Any],
                          seen: tuple[str, ...]) -> tuple[dict[str, Any], str, list[tuple[str, tuple[str, ...]]]]:
    """The manifest merged with what it extends, its text, and each level's own plugins (base first)."""
    data, text = read_toml(path)
    own_plugins = data.get("plugins")
    if own_plugins is not None and not (isinstance(own_plugins, list) and all(isinstance(p, str) for p in own_plugins)):
        raise DataError(f"plugins must be a list of plugin names or .py files, not {own_plugins!r}", source=str(path),
                        line=key_line(text, "plugins"), key="plugins")
    if isinstance(own_plugins, list):
        # Plugin files are named relative to the manifest that lists them.
        data["plugins"] = own_plugins = [_plugin_path(p, path) for p in own_plugins]
    level = (str(path), tuple(p for p in own_plugins or [] if isinstance(p, str)))
    parent_id = data.get("extends")
    if parent_id is None:
        return data, text, [level]
    if not isinstance(parent_id, str) or parent_id not in catalog:
        raise DataError(f"extends {parent_id!r}, which is not an installed edition "
                        f"({', '.join(catalog) or 'none'})", source=str(path), key="extends")
    if parent_id in seen or str(catalog[parent_id]) == str(path):
        raise DataError(f"extends {parent_id!r}, which extends this edition again (a cycle)",
                        source=str(path), key="extends")
    parent, _, levels = _merged_manifest_data(catalog[parent_id], catalog, seen + (data.get("id", "?"),))
    parent.pop("id", None)
    _check_new_tile_kinds(data, parent, str(path), text)
    return merge_manifests(parent, data), text, [*levels, level]


def _check_new_tile_kinds(child: Mapping[str, Any], parent: Mapping[str, Any], path: str, text: str) -> None:
    """A tile table the base lacks must describe a whole new kind, or it is a misspelt one."""
    tiles, known = child.get("tiles"), parent.get("tiles")
    if not isinstance(tiles, dict) or not isinstance(known, dict):
        return
    for kind, entry in tiles.items():
        if kind not in known and not (isinstance(entry, dict) and {"influence", "counts_for"} <= entry.keys()):
            raise DataError(f"unknown tile kind {kind!r}: the base edition's kinds are {', '.join(known)}; "
                            f"a new kind must give both influence and counts_for",
                            source=path, line=table_line(text, f"tiles.{kind}"), key=f"tiles.{kind}")


def _plugin_path(entry: Any, manifest: Any) -> Any:
    """A plugin file is named relative to its manifest and must lie in the manifest's folder."""
    if isinstance(entry, str) and is_plugin_file(entry):
        return str(_inside_folder(entry, str(manifest), what="plugin file", key="plugins"))
    return entry
