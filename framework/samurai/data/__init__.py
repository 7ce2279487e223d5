"""Data shipped with the engine: edition manifests and maps (TOML).

In a source checkout they live in the top-level ``editions/`` and ``maps/``
folders; the build maps them here so an installed wheel works from any folder.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["bundled_editions", "bundled_maps"]


def bundled_editions() -> list[Traversable]:
    """The edition manifests shipped with the engine, sorted by file name."""
    return _toml_files("samurai.data.editions")


def bundled_maps() -> list[Traversable]:
    """The maps shipped with the engine, sorted by file name."""
    return _toml_files("samurai.data.maps")


def _toml_files(package: str) -> list[Traversable]:
    try:
        root: Traversable = files(package)
    except ModuleNotFoundError:
        # A source checkout or an editable install that does not map data folders:
        # the top-level editions/ and maps/ folders of the repository.
        root = Path(__file__).resolve().parents[3] / package.rsplit(".", 1)[1]
    return sorted((f for f in root.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
