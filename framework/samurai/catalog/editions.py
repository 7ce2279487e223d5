"""Plugins and editions: discovery through entry points, one plugin manager per edition.

Installed packages register plugin modules under the ``samurai`` entry-point
group. ``available_editions()`` collects every edition manifest they (and the
engine) contribute; ``load_edition(id)`` reads one, merges what it extends,
and builds a pluggy ``PluginManager`` that holds the framework's hooks and defaults, the hooks and core plugins
of the edition's game (``GameDefinition.editions``: its ``hookspecs`` and ``plugins``), and exactly the plugins
the manifest names.
Nothing is global: each ``Edition`` owns its manager. The games are those the installed plugins contribute
(``installed_games``, asked once per set of installed plugins) and those a manifest's own plugins contribute.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pluggy

from ..data import bundled_maps
from ..errors import DataError
from ..files.reading import is_file, key_line, read_toml
from ..hooks import defaults
from ..hooks import specs as hookspecs
from ..hooks.calls import PLUGIN_FILE_MODULE_PREFIX, call_hook
from .games import Edition, GameDefinition, default_game, game_of, games_of
from .manifests import manifest_game, merge_manifests, parse_manifest

__all__ = ["ENTRY_POINT_GROUP", "PluginInfo", "Edition", "installed_plugins", "available_editions",
           "load_edition", "load_plugin", "load_plugin_file", "is_plugin_file", "check_plugin_order",
           "make_plugin_manager", "register_plugin", "resolve_board", "inside_folder", "plugin_hooks",
           "installed_games", "merged_manifest", "FRAMEWORK_DEFAULTS"]

ENTRY_POINT_GROUP = "samurai"
FRAMEWORK_DEFAULTS = "samurai.defaults"
"""The name the framework's own answers (``samurai.hooks.defaults``) are registered under in every manager."""


@attrs.frozen
class PluginInfo:
    """An installed plugin: its entry-point name, module, and the package that ships it."""

    name: str
    module: str
    package: str
    version: str


_scanned: dict[tuple[str, ...], dict[str, PluginInfo]] = {}


def installed_plugins() -> dict[str, PluginInfo]:
    """Every plugin registered under the ``samurai`` entry-point group, by name.

    The packages on ``sys.path`` are scanned once for each ``sys.path`` (a scan costs milliseconds, and records,
    editions and game lookups ask often); a package installed while the process runs is seen by the next process,
    or at once where it adds a folder to ``sys.path``."""
    key = tuple(sys.path)
    if key not in _scanned:
        found = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            dist = ep.dist
            found[ep.name] = PluginInfo(ep.name, ep.value, dist.name if dist else "?", dist.version if dist else "?")
        _scanned[key] = dict(sorted(found.items()))
    return dict(_scanned[key])


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


def make_plugin_manager(plugin_names: tuple[str, ...], *, source: str = "plugins",
                        games: Sequence[GameDefinition] | None = None) -> pluggy.PluginManager:
    """A manager with the framework's hooks and defaults, the hooks and core plugins of ``games`` (default: every
    installed game, as for the manager of all installed plugins), and the named plugins, validated against the
    specs.

    A name ending in ``.py`` is a plugin file (see ``load_plugin_file``); any
    other name is an installed plugin's entry-point name.
    """
    modules = [(name, _plugin_module(name, source=source)) for name in plugin_names]
    return _plugin_manager(modules, list(installed_games().values()) if games is None else games)


def _plugin_module(name: str, *, source: str) -> ModuleType:
    return load_plugin_file(name, source=source) if is_plugin_file(name) else load_plugin(name, source=source)


def _plugin_manager(modules: Sequence[tuple[str, ModuleType]], games: Sequence[GameDefinition]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    pm.register(defaults, name=FRAMEWORK_DEFAULTS)
    for game in games:
        for specs in game.editions.hookspecs:
            pm.add_hookspecs(specs)
    for game in games:
        for name, module in game.editions.plugins:
            if not pm.has_plugin(name) and not pm.is_registered(module):
                pm.register(module, name=name)
    for name, module in modules:
        if pm.has_plugin(name) or pm.is_registered(module):
            continue  # a game's own plugin the manifest lists too is registered once
        register_plugin(pm, module, name)
    return pm


_installed_games: dict[tuple[PluginInfo, ...], dict[str, GameDefinition]] = {}


def installed_games() -> dict[str, GameDefinition]:
    """The games the installed plugins contribute (``samurai_games``), by name: asked once for each set of
    installed plugins, each contribution checked (``samurai.hooks.calls.HOOK_RESULTS``)."""
    plugins = installed_plugins()
    key = tuple(plugins.values())
    if key not in _installed_games:
        modules = [(name, load_plugin(name, source="installed plugins")) for name in plugins]
        _installed_games[key] = games_of(_game_finder(modules, source="installed plugins"),
                                         source="installed plugins")
    return _installed_games[key]


def _game_finder(modules: Sequence[tuple[str, ModuleType]], *, source: str) -> pluggy.PluginManager:
    """A manager holding the framework's hooks and ``modules``, to ask which games they contribute before the
    hooks of those games are known (a hook no specification names yet is checked by the edition's manager)."""
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    for name, module in modules:
        if pm.has_plugin(name) or pm.is_registered(module):
            continue
        try:
            pm.register(module, name=name)
        except pluggy.PluginValidationError as exc:
            detail = " ".join(str(exc).split())
            raise DataError(f"plugin {name!r} does not fit the hook specifications: {detail}",
                            source=getattr(module, "__file__", None) or source) from None
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
            # The hooks of this manager: the framework's and those of the edition's game.
            hooks = sorted(n for n, c in vars(pm.hook).items() if isinstance(c, pluggy.HookCaller) and c.spec)
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


def resolve_board(name: str, relative_to: str) -> Path | Any:
    """The board file a manifest's ``map`` names, for a game's ``load_board``: a bundled board by name
    (``"battlefield"``), or a ``.toml`` path relative to the manifest that must stay in its folder."""
    if name.endswith(".toml"):
        return inside_folder(name, relative_to, what="map file", key="map")
    for candidate in bundled_maps():
        if candidate.name == f"{name}.toml":
            return candidate
    known = ", ".join(m.name.removesuffix(".toml") for m in bundled_maps())
    raise DataError(f"no map named {name!r} (bundled maps: {known}; or give a path to a .toml file)",
                    source=relative_to, key="map")


def inside_folder(entry: str, manifest: str, *, what: str, key: str) -> Path:
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
    path = _manifest_path(name, catalog)
    source = str(path)
    data, text, levels, extensions = _merged_manifest_data(path, catalog, seen=())
    installed = installed_games()
    game_name = manifest_game(data, path=source, text=text)
    if game_name is None:
        game_name = default_game(installed, source=source).name
    modules: list[tuple[str, ModuleType]] | None = None
    definition = installed.get(game_name)
    if definition is None:  # a game the manifest's own plugins contribute
        modules = [(plugin, _plugin_module(plugin, source=source)) for plugin in data.get("plugins", [])]
        definition = game_of(_game_finder(modules, source=source), game_name, source=source, installed=installed)
    if definition.editions.check_extends is not None:
        for child, parent, level_path, level_text in extensions:
            definition.editions.check_extends(child, parent, level_path, level_text)
    manifest = parse_manifest(data, path=source, text=text, game=game_name, game_keys=definition.editions.manifest_keys)
    if definition.editions.read_manifest is not None:
        manifest = definition.editions.read_manifest(manifest, data, text)
    if modules is None:
        modules = [(plugin, _plugin_module(plugin, source=source)) for plugin in manifest.plugins]
    pm = _plugin_manager(modules, [definition])
    games_of(pm, source=source)  # each game the edition's own plugins contribute is checked
    for level_path, level_plugins in levels:
        check_plugin_order(pm, level_plugins, source=level_path)
    definition.editions.check_manifest(manifest, data, text)
    board = definition.load_board(manifest.map, source)
    # Records name the edition by id: an installed one loads by it, a manifest's must be vouched for.
    if definition.editions.open_edition is not None:
        return definition.editions.open_edition(definition, manifest, pm, board, text)
    return Edition(manifest, pm, board, reference=manifest.id, game=definition)


def merged_manifest(name: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of an edition (an installed id or a manifest path) merged with every edition it extends, as the
    engine reads it: what a variant's rules are once its ``extends`` are filled in. Data only: no plugin is run."""
    catalog = available_editions()
    data, _, _, _ = _merged_manifest_data(_manifest_path(os.fspath(name), catalog), catalog, seen=())
    return data


def _manifest_path(name: str, catalog: Mapping[str, Any]) -> Any:
    """The manifest an edition name means: a path ending in ``.toml``, or an installed id's manifest."""
    if name.endswith(".toml"):
        return Path(name)
    if name in catalog:
        return catalog[name]
    raise DataError(f"no edition named {name!r}; installed editions: {', '.join(catalog) or 'none'}",
                    source="edition")


_Extension = tuple[dict[str, Any], dict[str, Any], str, str]
"""One ``extends`` step: the child's own data, the parent's merged data, the child's path and text."""


def _merged_manifest_data(path: Any, catalog: Mapping[str, Any], seen: tuple[str, ...]
                          ) -> tuple[dict[str, Any], str, list[tuple[str, tuple[str, ...]]], list[_Extension]]:
    """The manifest merged with what it extends, its text, each level's own plugins (base first), and each
    ``extends`` step (base first, for the game's ``check_extends``)."""
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
        return data, text, [level], []
    if not isinstance(parent_id, str) or parent_id not in catalog:
        raise DataError(f"extends {parent_id!r}, which is not an installed edition "
                        f"({', '.join(catalog) or 'none'})", source=str(path), key="extends")
    if parent_id in seen or str(catalog[parent_id]) == str(path):
        raise DataError(f"extends {parent_id!r}, which extends this edition again (a cycle)",
                        source=str(path), key="extends")
    parent, _, levels, extensions = _merged_manifest_data(catalog[parent_id], catalog, seen + (data.get("id", "?"),))
    parent.pop("id", None)
    return merge_manifests(parent, data), text, [*levels, level], [*extensions, (data, parent, str(path), text)]


def _plugin_path(entry: Any, manifest: Any) -> Any:
    """A plugin file is named relative to its manifest and must lie in the manifest's folder."""
    if isinstance(entry, str) and is_plugin_file(entry):
        return str(inside_folder(entry, str(manifest), what="plugin file", key="plugins"))
    return entry
