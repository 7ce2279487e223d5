"""Starter files for a new edition: a manifest that extends another and a plugin module beside it.

``samurai new-edition NAME --extends ffg2015`` calls ``write_starter_edition``;
the files load and play at once (the plugin's hooks return None, which keeps
the base edition's rules; the game of the base edition may give its own
starter, ``GameCommands.starter_plugin``) and docs/designing-editions.md explains what to
change next.
"""

from __future__ import annotations

import re
from pathlib import Path

import tomli_w

from .catalog.editions import available_editions, load_edition
from .errors import DataError
from .files.writing import write_atomically

__all__ = ["write_starter_edition", "STARTER_PLUGIN"]

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")

STARTER_PLUGIN = '''"""{ident}: a variant of {base}. Its rules: {ident}.toml and the hooks you add below.

Each hook decides one rule; a hook that returns None keeps the rule of {base}.
The hooks an edition of {game} may implement: {hookspecs}. A walk-through:
docs/designing-editions.md.
"""

from __future__ import annotations

from samurai.hooks.specs import hookimpl  # noqa: F401  (mark each hook you add with @hookimpl)
'''
"""The plugin module a new edition starts with when its game offers no starter of its own
(``GameCommands.starter_plugin``): a docstring naming the game's hooks, and the marker. ``{ident}``, ``{base}``,
``{game}`` and ``{hookspecs}`` are filled in."""


def write_starter_edition(name: str, extends: str, folder: Path, *, force: bool = False) -> tuple[Path, Path]:
    """Write ``NAME.toml`` and ``NAME.py`` (``-`` becomes ``_``) into ``folder``; return their paths."""
    if not _NAME.match(name):
        raise DataError(f"edition name {name!r} must start with a lowercase letter and use only a-z, 0-9, '-' "
                        f"or '_'", source="NAME")
    catalog = available_editions()
    if name in catalog:
        raise DataError(f"an edition named {name!r} is already installed; pick another name", source="NAME")
    if extends not in catalog:
        raise DataError(f"cannot extend {extends!r}: installed editions are {', '.join(catalog)}",
                        source="--extends")
    base_edition = load_edition(extends)
    base = base_edition.manifest
    manifest_path = folder / f"{name}.toml"
    plugin_path = folder / f"{name.replace('-', '_')}.py"
    for path in (manifest_path, plugin_path):
        if path.exists() and not force:
            raise DataError(f"{path} already exists (use --force to overwrite)", source=str(path))
    manifest = {
        "id": name,
        "name": f"{base.name}: {name} variant",
        "version": "0.1.0",
        "extends": extends,
        "description": f"A variant of {extends}.",
        "source": f"{extends} with the changes in {plugin_path.name}",
        "plugins": [plugin_path.name],
    }
    header = (f"# {name}: a variant of {extends} (docs/designing-editions.md).\n"
              f"# Override any table of {extends} here, e.g. [tiles.samurai] influence = [2, 2, 3, 3, 4];\n"
              f"# change a rule in {plugin_path.name}.\n\n")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(manifest_path, header + tomli_w.dumps(manifest))
    commands = base_edition.game.commands
    starter = commands.starter_plugin if commands is not None and commands.starter_plugin is not None \
        else STARTER_PLUGIN
    specs = (", ".join(module.__name__ for module in base_edition.game.editions.hookspecs)
             or "none beyond the framework's")
    write_atomically(plugin_path, starter.format(ident=name, base=extends, game=base_edition.game.title,
                                                 hookspecs=specs))
    load_edition(str(manifest_path))  # what we wrote must load: fail here, not in the designer's hands
    return manifest_path, plugin_path
