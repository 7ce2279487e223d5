"""Executors: where the independent batches of a run are played.

``simulate``, ``compare`` and ``tournament`` cut a run into batches (a batch
is plain data: editions, options, seeds, bots) and map one pure, module-level
function over them. An executor only moves batches out and results back, in
the order of the batches, so every executor gives the same numbers for the
same seed: one process, local worker processes, or a Dask cluster.

Executors are contributed through the ``samurai_executors`` hook (the engine
registers ``local`` and ``dask`` itself), so a package can add another (Ray,
a batch queue) without touching the core: it returns an ``ExecutorFactory``
under a new name, and ``--backend NAME`` finds it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

import attrs

from .errors import DataError
from .hookspecs import hookimpl

__all__ = ["Executor", "ExecutorFactory", "LocalExecutor", "DaskExecutor", "make_executor", "executor_factories",
           "default_workers"]

SCHEDULER_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler named with ``--scheduler`` before giving up."""

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """The worker processes used by default: the machine's cores, at most 8."""
    return max(1, min(8, os.cpu_count() or 1))


class Executor(Protocol):
    """Runs one function over many batches; results come back in the order of the batches."""

    name: str

    def map(self, fn: Callable[[T], R], batches: Sequence[T]) -> Iterator[R]:
        """``fn(batch)`` for each batch, yielded in the batches' order as soon as each is ready.

        ``fn`` must be a module-level function and the batches plain data, so
        that they can travel to another process or machine.
        """

    def close(self) -> None:
        """Stop the workers; batches not yet started are dropped."""


@attrs.frozen
class ExecutorFactory:
    """A named way to build an executor, contributed through ``samurai_executors``."""

    name: str
    description: str
    make: Callable[[int, str | None], Executor]
    """``make(workers, scheduler)`` builds the executor (``scheduler``: an address, or None)."""


class LocalExecutor:
    """This machine: in this process for one worker, else a pool of worker processes."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def map(self, fn: Callable[[T], R], batches: Sequence[T]) -> Iterator[R]:
        """Run in this process (one worker or one batch) or in the pool, in order."""
        if self.workers == 1 or len(batches) <= 1:
            return map(fn, batches)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=min(self.workers, len(batches)))
        futures = [self._pool.submit(fn, batch) for batch in batches]
        return _in_order(futures)

    def close(self) -> None:
        """Cancel what has not started and wait for the workers to stop."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _in_order(futures: Sequence[Future[R]]) -> Iterator[R]:
    for future in futures:
        yield future.result()


class DaskExecutor:
    """A Dask cluster: an existing scheduler's address, or a ``LocalCluster`` of worker processes started here."""

    name = "dask"

    def __init__(self, workers: int, scheduler: str | None = None) -> None:
        try:
            # Imported as Any: distributed's constructors carry no type hints.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise DataError('the dask backend needs the dask extra: pip install "samurai-engine[dask]"',
                            source="--backend") from None
        self._cluster: Any = None
        if scheduler is None:
            # One thread per worker process: games are pure Python, so threads would share one core.
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, host="127.0.0.1")
            self._client: Any = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(scheduler, timeout=SCHEDULER_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise DataError(f"cannot reach the Dask scheduler at {scheduler}: {exc}",
                                source="--scheduler") from None

    def map(self, fn: Callable[[T], R], batches: Sequence[T]) -> Iterator[R]:
        """Submit every batch to the cluster; yield the results in the batches' order."""
        # pure=False: two equal batches are still two pieces of work (and keys never collide across runs).
        futures = self._client.map(fn, list(batches), pure=False)
        return (future.result() for future in futures)

    def close(self) -> None:
        """Cancel outstanding batches and close the client (and the local cluster, if this started one)."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


@hookimpl(trylast=True)
def samurai_executors() -> Sequence[ExecutorFactory]:
    """The engine's executors: ``local`` worker processes and a ``dask`` cluster."""
    return [
        ExecutorFactory("local", "worker processes on this machine (--workers N)",
                        lambda workers, scheduler: LocalExecutor(workers)),
        ExecutorFactory("dask", "a Dask cluster: --scheduler ADDRESS, or a local cluster of --workers processes",
                        lambda workers, scheduler: DaskExecutor(workers, scheduler)),
    ]


def executor_factories() -> dict[str, ExecutorFactory]:
    """Every executor the engine and the installed plugins contribute, by name (the engine's first)."""
    from .plugins import installed_plugins, make_plugin_manager

    pm = make_plugin_manager(tuple(installed_plugins()), source="installed plugins")
    # The engine's executors are registered here, not with every edition's manager: only runs ask for them.
    pm.register(sys.modules[__name__], name="samurai.executors")
    found: dict[str, ExecutorFactory] = {}
    for contributed in reversed(pm.hook.samurai_executors()):  # the trylast engine executors come last
        for factory in contributed:
            if not isinstance(factory, ExecutorFactory):
                raise DataError(f"samurai_executors returned {factory!r}, not an ExecutorFactory",
                                source="installed plugins")
            found.setdefault(factory.name, factory)
    return found


def make_executor(backend: str = "local", *, workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor named ``backend`` with ``workers`` workers (default: the machine's cores, at most 8)."""
    count = default_workers() if workers is None else workers
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DataError(f"workers must be a whole number of at least 1, not {count!r}", source="--workers")
    factories = executor_factories()
    if backend not in factories:
        raise DataError(f"unknown backend {backend!r}; backends are {', '.join(factories)}", source="--backend")
    if scheduler is not None and backend == "local":
        raise DataError("--scheduler goes with --backend dask", source="--scheduler")
    return factories[backend].make(count, scheduler)
