"""Starter files for a new edition: a manifest that extends another and a plugin module beside it.

``samurai new-edition NAME --extends ffg2015`` calls ``write_starter_edition``;
the files load and play at once (the plugin's hook returns None, which keeps
the base edition's rule) and docs/designing-editions.md explains what to
change next.
"""

from __future__ import annotations

import re
from pathlib import Path

import tomli_w

from .catalog.editions import available_editions, load_edition
from .errors import DataError

__all__ = ["write_starter_edition", "STARTER_PLUGIN"]

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")

STARTER_PLUGIN = '''"""{ident}: a variant of {base}. Its rules: {ident}.toml and the hooks below.

Each hook decides one rule; returning None keeps the rule of {base}.
Every hook and its arguments: samurai.hooks.specs. A walk-through:
docs/designing-editions.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool | None:
    """Whether every player sees the figures each player has captured (None: as in {base})."""
    return None
'''


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
    base = load_edition(extends).manifest
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
    manifest_path.write_text(header + tomli_w.dumps(manifest), encoding="utf-8")
    plugin_path.write_text(STARTER_PLUGIN.format(ident=name, base=extends), encoding="utf-8")
    load_edition(str(manifest_path))  # what we wrote must load: fail here, not in the designer's hands
    return manifest_path, plugin_path
