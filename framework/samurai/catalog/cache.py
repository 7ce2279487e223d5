"""The one cache of loaded editions: each process (the main one, a local worker, a Dask worker) loads an edition
once by the name another process loads it by (``loadable_name``), not for every batch it plays."""

from __future__ import annotations

import threading
from collections import OrderedDict

from .editions import Edition, available_editions, load_edition

__all__ = ["loadable_name", "edition_named", "keep_edition"]


def loadable_name(edition: Edition) -> str:
    """How another process loads ``edition`` again: its id when it is the installed edition, else its manifest path."""
    installed = available_editions().get(edition.id)
    if installed is not None and str(installed) == edition.manifest.path:
        return edition.id
    return edition.manifest.path


# The editions loaded in this process (a worker's, or the main one's), by the name another process loads them by:
# a worker loads an edition once, not for every batch, and a Dask worker keeps it for the runs that follow.
_loaded: OrderedDict[str, Edition] = OrderedDict()
_loaded_lock = threading.Lock()
_LOADED_KEPT = 16


def edition_named(name: str) -> Edition:
    """The edition ``name`` (an id or a manifest path), loaded once per process: what a batch plays, wherever it
    runs."""
    with _loaded_lock:
        if name in _loaded:
            _loaded.move_to_end(name)
            return _loaded[name]
    edition = load_edition(name)
    keep_edition(name, edition)
    return edition


def keep_edition(name: str, edition: Edition) -> None:
    """Remember ``edition`` as this process's edition ``name`` (the main process keeps the edition it was given;
    worker processes forked from it inherit it)."""
    with _loaded_lock:
        _loaded[name] = edition
        _loaded.move_to_end(name)
        while len(_loaded) > _LOADED_KEPT:
            _loaded.popitem(last=False)
