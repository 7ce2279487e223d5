"""A pool of worker processes that can be stopped at once and that ends with the process that started it.

Both the local executor (batches of games) and the web server (bot searches)
need the same three things of a process pool: its workers leave Ctrl-C to
the parent (which stops them), they end by themselves when the parent dies
without stopping them (``samurai.lifelines``), and the parent can stop them
in the middle of their work. ``concurrent.futures`` has no public handle on
a pool's processes before Python 3.14, so the pool is given a context that
keeps the processes it starts.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, cast

from ..interrupts import ignore_interrupts
from ..lifelines import exit_with_parent

__all__ = ["WorkerPool"]


class WorkerPool:
    """``workers`` processes of the ``start_method`` context (default: the platform's) behind ``executor``."""

    def __init__(self, workers: int, *, start_method: str | None = None) -> None:
        self._context = _KeepingContext(multiprocessing.get_context(start_method))
        # The pool takes any object with a context's methods (it calls Process, SimpleQueue, Queue, ...).
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=cast(BaseContext, self._context),
                                            initializer=_start_worker, initargs=(os.getpid(),))

    @property
    def processes(self) -> list[Any]:
        """Every worker process the pool started, in order."""
        return self._context.processes

    def stop(self, *, patience: float = 10.0) -> None:
        """Stop the workers now, in the middle of their work, and wait for them so none is left behind.

        SIGTERM ends a worker's task (``samurai.interrupts.StoppableTask``) rather
        than the worker, so no result is cut off half-sent; a worker that has not
        stopped after ``patience`` seconds (a plugin stuck in a loop) is killed.
        """
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(timeout=patience)
            if process.is_alive():
                process.kill()
                process.join()
        self.executor.shutdown(wait=True)


def _start_worker(parent_pid: int) -> None:
    """A worker's set-up: Ctrl-C is left to the parent (``ignore_interrupts``), and the worker ends by itself
    should the parent die without stopping it (SIGKILL, the out-of-memory killer)."""
    ignore_interrupts()
    exit_with_parent(parent_pid)


class _KeepingContext:
    """A multiprocessing context that keeps the processes started through it."""

    def __init__(self, base: Any) -> None:
        self._base = base
        self.processes: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def Process(self, *args: Any, **kwargs: Any) -> Any:  # noqa: N802 (the name the pool calls)
        """A worker process of the base context, kept in ``processes``."""
        process = self._base.Process(*args, **kwargs)
        self.processes.append(process)
        return process
