"""Knizia's game moved to ``samurai_plugins.knizia`` (``plugins/knizia/``), a peer of Daimyo's package, in floors.

This package only forwards the names of the old flat layout for one release: ``import samurai.knizia.game`` gives
``samurai_plugins.knizia.play.game`` with a ``DeprecationWarning`` naming the new home (CHANGELOG "Moved"). It holds
no game: the forwarding is by name, so the framework's import graph still reaches no game.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

NEW_HOME = "samurai_plugins.knizia"

# Each module of the old layout, by its name under samurai.knizia, and its module now under samurai_plugins.knizia.
MOVED_MODULES = {
    "hexgrid": "core.hexgrid", "tiles": "core.tiles", "maps": "core.maps", "state": "core.state",
    "result": "core.result", "actions": "core.actions", "identity": "core.identity", "facts": "core.facts",
    "hookspecs": "editions.hookspecs", "defaults": "editions.defaults", "hook_results": "editions.hook_results",
    "manifests": "editions.manifest_keys", "rules": "editions.rules", "setup_rules": "editions.setup",
    "native_scoring": "editions.native_scoring", "editions": "engine.edition", "engine": "engine.reference",
    "engines": "engine.backends", "special_tiles": "engine.special_tiles", "greedy": "engine.greedy",
    "evaluation": "engine.evaluation", "_native": "engine._native", "game": "play.game", "views": "play.views",
    "knowledge": "play.knowledge", "scenarios": "play.scenarios", "records": "play.record_files",
    "replays": "play.replays", "render": "play.render", "bots": "adapters.play_bots", "position": "adapters.game_state",
    "seat_bots": "adapters.search_bots", "simulate": "adapters.runner", "measures": "adapters.measures",
    "recording": "adapters.records", "checks": "adapters.conformance", "commands": "adapters.commands",
    "bench": "adapters.bench", "web": "adapters.web", "observation": "adapters.encoding",
    "environment": "adapters.pettingzoo", "action_space": "adapters.action_space", "plugin": "plugin",
}


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} moved to {new}; the old name goes in the next release", DeprecationWarning, stacklevel=3)


class _MovedModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a module of the old layout as its module in the new one (the same module object), with a warning."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        parent, _, name = fullname.rpartition(".")
        if parent != __name__ or name not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = f"{NEW_HOME}.{MOVED_MODULES[spec.name.rpartition('.')[2]]}"
        _warn(spec.name, new)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module ran when it was imported."""


if not any(isinstance(finder, _MovedModule) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModule())


def __getattr__(name: str) -> Any:
    """``samurai.knizia.NAME`` for a name of the new package (a module of the old layout is imported instead)."""
    if name in MOVED_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    value = getattr(importlib.import_module(NEW_HOME), name)
    _warn(f"{__name__}.{name}", f"{NEW_HOME}.{name}")
    return value
