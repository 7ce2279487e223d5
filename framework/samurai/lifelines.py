"""Worker processes that end by themselves when the process that started them dies, however it dies.

A run stops its workers itself when it ends, is interrupted or fails. But a
process killed with SIGKILL (``kill -9``, the kernel's out-of-memory killer, a
CI job's timeout) runs no clean-up, and its workers would wait for batches
forever, each holding its memory. ``exit_with_parent`` is called first thing
in a worker (a pool's initializer, a Dask worker's preload) and ties the
worker's life to its parent's in two ways:

- on Linux, the kernel sends the worker SIGKILL the moment its parent ends
  (``prctl(PR_SET_PDEATHSIG)``);
- everywhere, a daemon thread checks once a ``POLL_SECONDS`` whether the
  worker still has the parent it started with, and ends the worker when not.

The kernel's signal follows the *thread* of the parent that started the
worker: a pool whose workers are started from a thread that ends before the
pool does would lose them. Start pools from a thread that lives as long as
they do (the main thread, an event loop's), or pass ``kernel_signal=False``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

__all__ = ["exit_with_parent", "POLL_SECONDS", "EXIT_ORPHANED"]

POLL_SECONDS = 0.5
"""How often the watching thread looks for its parent."""

EXIT_ORPHANED = 70
"""The exit status of a worker that ended because its parent was gone (no one is left to read it)."""

_PR_SET_PDEATHSIG = 1
"""``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``."""


def exit_with_parent(parent_pid: int | None = None, *, kernel_signal: bool = True) -> None:
    """End this process when its parent dies: at once by the kernel's signal (Linux), else within a poll.

    ``parent_pid`` is the process that started the pool (pass ``os.getpid()``
    from it); the worker also ends when that process is gone, should the
    worker's own parent be a helper (a fork server) that outlives it. Without
    it, the worker's parent now is watched. ``kernel_signal=False`` leaves out
    the kernel's signal (see the module's note on threads).
    """
    start_parent = os.getppid()
    watched = start_parent if parent_pid is None else parent_pid
    if kernel_signal:
        _set_parent_death_signal()
    if _orphaned(start_parent, watched):  # the parent died before the signal was asked for
        os._exit(EXIT_ORPHANED)
    watcher = threading.Thread(target=_watch, args=(start_parent, watched), name="samurai-lifeline", daemon=True)
    watcher.start()


def _set_parent_death_signal() -> None:
    """Ask the Linux kernel for SIGKILL when the parent ends; elsewhere (or without libc) do nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to call: the watching thread still ends the worker
        return


def _watch(start_parent: int, watched: int) -> None:
    while not _orphaned(start_parent, watched):
        time.sleep(POLL_SECONDS)
    os._exit(EXIT_ORPHANED)


def _orphaned(start_parent: int, watched: int) -> bool:
    """Whether this process has lost its parent (it was handed to another) or the watched process is gone."""
    if os.getppid() != start_parent:
        return True
    if watched == start_parent:
        return False
    try:
        os.kill(watched, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # it exists, under another user
        return False
    return False
