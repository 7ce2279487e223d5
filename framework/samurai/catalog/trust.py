"""Trust: which edition manifests and map files a data file may use.

Records, scenarios and comparison folders are data: opening one runs no code
and reads no file the person opening it did not name. So a data file names

- its edition by installed id (``"ffg2015"``), with the version in a record;
- its map by bundled name (``"tiny"``) or as a map file in its own folder
  (``map = "island.toml"``, resolved against the data file's folder, never the
  working directory; a sub-folder, ``..``, an absolute path or a link leading
  out of the folder is refused).

An edition manifest given by path can run code (its plugin files), so it is
used only when the person running the command, or the program embedding the
engine, vouches for it: ``--trust PATH`` on the command line (replay,
play-scenario, analyse; ``--edition PATH`` also vouches for the edition it
names), ``trust=[PATH]`` in the API (``samurai.load``, ``from_record``,
``new_game``, ``analyse_records``), or by passing a loaded ``Edition``. A data
file then names that edition by its id (records written by the engine do) or
by the manifest's path; a vouched-for manifest is used for its id ahead of an
installed edition of the same id (you named it). Vouching for a map file lets
a data file use it from any folder, and shows the map's own errors in full: a
map a data file pointed at is otherwise reported without quoting its content.
Data given in memory (a scenario dict, a ``GameRecord``) has no folder: it
names bundled maps, or map files vouched for.

A plugin is code and is trusted like code: vouch only for manifests you would
run as a program.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol, Union

from ..errors import DataError
from ..files.reading import is_file, read_toml
from .editions import Edition, available_editions, load_edition

__all__ = ["Trust", "TrustLike", "BoardsByName", "names_edition", "how_to_trust"]

TrustLike = Union["Trust", Iterable[Union[str, "os.PathLike[str]", Edition]], None]
"""What a ``trust=`` argument takes: manifest or map paths and loaded ``Edition`` values (or a ``Trust``)."""


class BoardsByName(Protocol):
    """An edition whose game names boards in its data files (Knizia's: ``KniziaEdition.map_named``)."""

    def map_named(self, name: str) -> Any:
        """The board ``name`` (a bundled board's name or a file's path), loaded once per edition."""


def how_to_trust(path: str) -> str:
    """How to vouch for ``path``, as a refusal ends: the command-line flag and the API argument."""
    return f"pass --trust {path} on the command line, or trust=[{path!r}] in the API"


class Trust:
    """The manifests and maps the person running the program vouched for; editions load once, when needed."""

    def __init__(self, items: TrustLike = ()) -> None:
        self._editions: list[Edition] = []
        self._files: list[Path] = []
        self._loaded: dict[Path, Edition] = {}
        self._installed: dict[str, Edition] = {}
        self._ids: dict[Path, Any] = {}
        if items is None:
            items = ()
        if isinstance(items, (str, os.PathLike, Edition)):
            items = [items]
        if not isinstance(items, Iterable):
            raise TypeError(f"trust takes a list of manifest or map paths and Editions, not {type(items).__name__}")
        for item in items:
            if isinstance(item, Edition):
                self._editions.append(item)
            elif isinstance(item, (str, os.PathLike)) and str(item):
                path = Path(item)
                if not is_file(path):
                    raise DataError("not a file: a trusted file is an edition manifest or a map file",
                                    source=str(item), key="trust")
                self._files.append(path.resolve())
            else:
                raise TypeError(f"trust takes manifest or map paths and Editions, not {type(item).__name__} "
                                f"{item!r:.80}")

    @classmethod
    def of(cls, trust: TrustLike) -> Trust:
        """``trust`` itself when it is a ``Trust``, else a new one vouching for its items."""
        return trust if isinstance(trust, Trust) else cls(trust)

    def also(self, item: Edition | str | os.PathLike[str]) -> None:
        """Vouch for one more edition or file (one the caller named directly)."""
        if isinstance(item, Edition):
            if item not in self._editions:
                self._editions.append(item)
        else:
            self._files.extend(Trust([item])._files)

    def edition(self, name: Any, *, source: str, key: str = "edition", folder: Path | None = None) -> Edition:
        """The edition a data file names: an installed id, or a manifest that was vouched for (by id or path)."""
        if not isinstance(name, str) or not name.strip():
            raise DataError(f"an edition is named by its id, not {name!r}", source=source, key=key)
        if name.lower().endswith(".toml"):
            path = _resolve(name, folder)
            for edition in self._editions:
                if _same_file(edition.manifest.path, path):
                    return edition
            if path in self._files:
                return self._load(path)
            raise DataError(f"names the edition manifest {name!r}, which is not installed; a manifest can run "
                            f"code, so it is used only when you vouch for it: {how_to_trust(str(path))}",
                            source=source, key=key)
        for edition in self._editions:
            if edition.id == name:
                return edition
        for path in self._files:
            if path not in self._ids:
                self._ids[path] = _manifest_id(path)
            if self._ids[path] == name:
                return self._load(path)
        if name not in self._installed:
            catalog = available_editions()
            if name not in catalog:
                raise DataError(f"no edition named {name!r} is installed (installed: {', '.join(catalog) or 'none'}); "
                                f"for a designer's edition, vouch for its manifest: pass --trust MANIFEST.toml on "
                                f"the command line, or trust=[MANIFEST] in the API", source=source, key=key)
            self._installed[name] = load_edition(name)
        return self._installed[name]

    def game_map(self, name: Any, edition: BoardsByName, *, source: str, key: str = "map",
                 folder: Path | None = None) -> Any:
        """The map a data file names: a bundled map's name (checked), or the map file beside it, loaded (by the
        edition's ``map_named``).

        A map file elsewhere is used only when it was vouched for. A map file
        that was not is reported without quoting its content.
        """
        if not isinstance(name, str) or not name.strip():
            raise DataError(f"a map is named by a bundled map's name or a .toml file, not {name!r}", source=source,
                            key=key)
        if not name.lower().endswith(".toml"):
            try:
                edition.map_named(name)
            except DataError as exc:
                raise DataError(exc.message, source=source, key=key) from None
            return name
        path = _resolve(name, folder)
        if path in self._files:
            return edition.map_named(str(path))
        beside = folder is not None and len(Path(name).parts) == 1 and not name.startswith(".")
        if not beside or folder is None or path.parent != folder.resolve():
            raise DataError(f"map {name!r} is neither a bundled map nor a map file in the folder of {source}; a data "
                            f"file reads no other file; to use it, {how_to_trust(str(path))}", source=source, key=key)
        if not is_file(path):
            raise DataError(f"map file {name!r} is not in the folder of {source}", source=source, key=key)
        try:
            return edition.map_named(str(path))
        except DataError as exc:
            where = f" (line {exc.line})" if exc.line is not None else ""
            raise DataError(f"map file {name!r} is not a valid map{where}; its own message is shown when you "
                            f"vouch for it: {how_to_trust(str(path))}", source=source, key=key) from None

    def _load(self, path: Path) -> Edition:
        if path not in self._loaded:
            self._loaded[path] = load_edition(str(path))
        return self._loaded[path]


def names_edition(name: Any, edition: Edition, folder: Path | None = None) -> bool:
    """Whether a data file's edition field (an id or a manifest path) names ``edition``."""
    if not isinstance(name, str):
        return False
    if name.lower().endswith(".toml"):
        return _same_file(edition.manifest.path, _resolve(name, folder))
    return name == edition.id


def _resolve(name: str, folder: Path | None) -> Path:
    """A path a data file names: relative to the file's folder (not the working directory)."""
    path = Path(name)
    if not path.is_absolute() and folder is not None:
        path = folder / path
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop, a name too long, a NUL in it
        return path.absolute()


def _same_file(manifest_path: str, path: Path) -> bool:
    try:
        return Path(manifest_path).resolve() == path
    except (OSError, RuntimeError, ValueError):
        return False


def _manifest_id(path: Path) -> Any:
    data, _ = read_toml(path)
    return data.get("id")
