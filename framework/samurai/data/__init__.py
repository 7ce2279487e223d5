"""Data shipped with the engine: edition manifests and maps (TOML), and the games' rules for people (Markdown with
their pictures).

In a source checkout they live in the top-level ``editions/``, ``maps/`` and ``docs/rules/``
folders; the build maps them here so an installed wheel works from any folder.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["bundled_editions", "bundled_maps", "rules_pages"]


def bundled_editions() -> list[Traversable]:
    """The edition manifests shipped with the engine, sorted by file name."""
    return _toml_files("samurai.data.editions")


def bundled_maps() -> list[Traversable]:
    """The maps shipped with the engine, sorted by file name."""
    return _toml_files("samurai.data.maps")


def rules_pages() -> dict[str, bytes]:
    """The rules for people (``docs/rules``) by file name: each game's Markdown page and, as ``pictures/NAME.svg``,
    the pictures they show."""
    root = _root("samurai.data.rules", Path("docs") / "rules")
    pages = {f.name: f.read_bytes() for f in root.iterdir() if f.name.endswith(".md")}
    pictures = root / "pictures"
    if pictures.is_dir():
        pages.update({f"pictures/{f.name}": f.read_bytes() for f in pictures.iterdir() if f.name.endswith(".svg")})
    return pages


def _root(package: str, folder: Path) -> Traversable:
    try:
        return files(package)
    except ModuleNotFoundError:
        # A source checkout or an editable install that does not map data folders: the repository's own folder.
        return Path(__file__).resolve().parents[3] / folder


def _toml_files(package: str) -> list[Traversable]:
    root = _root(package, Path(package.rsplit(".", 1)[1]))
    return sorted((f for f in root.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
