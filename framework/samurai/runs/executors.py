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
import importlib.metadata
import importlib.util
import logging
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any, Protocol, TypeVar

import attrs

from ..errors import DataError
from ..hooks.calls import Field, call_hook, instance_of, list_of, plugin_failure, record_problem
from ..hooks.specs import hookimpl
from ..interrupts import StoppableTask, deferred_interrupts
from ..lifelines import exit_with_parent
from .workerpool import WorkerPool

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


EXECUTORS_RESULT = list_of("ExecutorFactory", record_problem(ExecutorFactory, "a text (what --backend names)", (
    Field("description", instance_of(str), "a text"),
    Field("make", callable, "a function of (workers, scheduler)"),
)))
"""What ``samurai_executors`` must return: a list of ``ExecutorFactory`` (a non-empty ``name``, a text
``description``, a callable ``make``)."""


class LocalExecutor:
    """This machine: in this process for one worker, else a pool of worker processes.

    The pool's workers leave Ctrl-C to this process (``ignore_interrupts``);
    ``close`` stops them in the middle of their batches when some are still
    running (a run interrupted, or a batch that failed), so none is left behind.
    """

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: WorkerPool | None = None
        self._futures: deque[Future[Any]] = deque()

    def map(self, fn: Callable[[T], R], batches: Sequence[T]) -> Iterator[R]:
        """Run in this process (one worker or one batch) or in the pool, in order."""
        if self.workers == 1 or len(batches) <= 1:
            return map(fn, batches)
        if self._pool is None:
            self._pool = WorkerPool(min(self.workers, len(batches)))
        task = StoppableTask(_RemoteTask(fn))
        self._futures = deque()  # filled as submitted: an interrupt in between still finds what runs
        for batch in batches:
            self._futures.append(self._pool.executor.submit(task, batch))
        return _in_order(self._futures)

    def close(self) -> None:
        """Stop the workers: at once if batches are still running (their results are dropped), else when idle."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # A second Ctrl-C must not cut the clean-up short and orphan a worker: it is held until the end.
        with deferred_interrupts():
            if all(future.done() for future in self._futures):
                pool.executor.shutdown(wait=True)
            else:
                pool.stop()
            self._futures = deque()


def _in_order(futures: deque[Any]) -> Iterator[Any]:
    """The futures' results in order, each future dropped once its result is out (a long run keeps no results
    here, and a cluster frees them); what is left is what ``close`` still has to stop."""
    while futures:
        result = futures[0].result()
        futures.popleft()
        yield result


class _RemoteTask:
    """A batch function run in another process or machine: a plugin's failure comes back as a ``DataError``
    naming the plugin (its file, line and function), since the worker's traceback does not reach this process."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def __call__(self, batch: Any) -> Any:
        try:
            return self.function(batch)
        except Exception as exc:
            failure = plugin_failure(exc)
            if failure is None:
                raise
            raise failure from None


class DaskExecutor:
    """A Dask cluster: an existing scheduler's address, or a ``LocalCluster`` of worker processes started here."""

    name = "dask"

    def __init__(self, workers: int, scheduler: str | None = None) -> None:
        distributed = _import_distributed()
        self._cluster: Any = None
        self._futures: deque[Any] = deque()
        if scheduler is None:
            # One thread per worker process: games are pure Python, so threads would share one core.
            # Ctrl-C reaches every process of the terminal's group; this process stops the cluster itself, so its
            # workers ignore SIGINT (dask_setup below, run in each as it starts) rather than each print a traceback.
            # Its web server on a free port of 127.0.0.1: a busy 8787 (another cluster) would print a warning.
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                     dashboard_address="127.0.0.1:0", host="127.0.0.1",
                                                     silence_logs=logging.ERROR, preload=[__name__])
            self._client: Any = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(scheduler, timeout=SCHEDULER_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise DataError(f"cannot reach the Dask scheduler at {scheduler}: {exc}",
                                source="--scheduler") from None
            try:
                _check_workers(self._client, scheduler)
            except BaseException:
                self._client.close()
                raise

    def map(self, fn: Callable[[T], R], batches: Sequence[T]) -> Iterator[R]:
        """Submit every batch to the cluster; yield the results in the batches' order."""
        # pure=False: two equal batches are still two pieces of work (and keys never collide across runs).
        # Tasks named after the batch function, as the dashboard shows them (samurai-play_pairs-...).
        self._futures = deque(self._client.map(_RemoteTask(fn), list(batches), pure=False,
                                               key=f"samurai-{getattr(fn, '__name__', 'batch')}"))
        return _in_order(self._futures)

    def close(self) -> None:
        """Cancel outstanding batches and close the client (and the local cluster, if this started one)."""
        with deferred_interrupts():  # a second Ctrl-C must not leave the local cluster's workers running
            if self._futures:
                self._client.cancel(list(self._futures))
                self._futures = deque()
            self._client.close()
            if self._cluster is not None:
                self._cluster.close()


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in each worker of a local cluster as it starts: leave Ctrl-C to the main process,
    and end with it however it ends (``samurai.lifelines``).

    A cluster on other machines is started by hand and stopped by its own signals; see docs/scale.md.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _quiet_until_closed)
    # Dask already ends a worker whose nanny's process is gone (a pipe it inherits); this also covers a worker
    # started by fork, where another child may hold that pipe open.
    exit_with_parent()


def _quiet_until_closed(signal_number: int, frame: object) -> None:
    """A local cluster's worker on Ctrl-C: keep working until the main process closes the cluster, and say nothing
    of the close. The scheduler may go before a worker's last heartbeat, which Dask logs as an error with a
    traceback; after Ctrl-C the person asked for one line (the main process's), not for those."""
    for handler in logging.getLogger("distributed").handlers:
        handler.setLevel(logging.CRITICAL)


def engine_version() -> tuple[str, str]:
    """The Python (major.minor) and ``samurai-engine`` versions of this process, as a worker reports them."""
    try:
        engine = importlib.metadata.version("samurai-engine")
    except importlib.metadata.PackageNotFoundError:
        engine = "not installed"
    return f"{sys.version_info.major}.{sys.version_info.minor}", engine


def _check_workers(client: Any, scheduler: str) -> None:
    """Refuse a cluster whose workers run another Python or samurai-engine, or cannot import the engine: their
    games could differ from this machine's, or fail at the first batch."""
    mine = engine_version()
    try:
        # Run on every worker connected now; the function travels by reference, so a worker imports samurai.
        theirs = client.run(engine_version)
    except Exception as exc:
        raise DataError(f"a worker of the Dask cluster at {scheduler} cannot run the engine ({type(exc).__name__}: "
                        f"{exc}): install samurai-engine and the editions on every worker (docs/scale.md)",
                        source="--scheduler") from None
    for address, version in sorted(theirs.items()):
        if tuple(version) != mine:
            raise DataError(f"worker {address} runs Python {version[0]} with samurai-engine {version[1]}, this machine "
                            f"Python {mine[0]} with samurai-engine {mine[1]}: install the same on every worker "
                            f"(docs/scale.md)", source="--scheduler")


def _import_distributed() -> Any:
    try:
        # Imported as Any: distributed's constructors carry no type hints.
        return importlib.import_module("distributed")
    except ImportError:
        raise DataError(DASK_MISSING, source="--backend") from None


DASK_MISSING = 'the dask backend needs the dask extra: pip install "samurai-engine[dask]"'


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
    from ..catalog.editions import installed_plugins, make_plugin_manager

    pm = make_plugin_manager(tuple(installed_plugins()), source="installed plugins")
    # The engine's executors are registered here, not with every edition's manager: only runs ask for them.
    pm.register(sys.modules[__name__], name="samurai.executors")
    found: dict[str, ExecutorFactory] = {}
    # Each contribution is checked (samurai.hooks.calls.HOOK_RESULTS); the trylast engine executors come last.
    for contributed in reversed(call_hook(pm.hook.samurai_executors, source="installed plugins",
                                                hook_results={"samurai_executors": EXECUTORS_RESULT})):
        for factory in contributed:
            found.setdefault(factory.name, factory)
    return found


def _check_backend(backend: str, scheduler: str | None) -> None:
    """Refuse (``DataError``) a backend no one contributes, ``scheduler`` with the local one, or ``dask`` without
    ``distributed`` installed, before anything starts."""
    factories = executor_factories()
    if backend not in factories:
        raise DataError(f"unknown backend {backend!r}; backends are {', '.join(factories)}", source="--backend")
    if scheduler is not None and backend == "local":
        raise DataError("--scheduler goes with --backend dask", source="--scheduler")
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise DataError(DASK_MISSING, source="--backend")


def make_executor(backend: str = "local", *, workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor named ``backend`` with ``workers`` workers (default: the machine's cores, at most 8)."""
    count = default_workers() if workers is None else workers
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DataError(f"workers must be a whole number of at least 1, not {count!r}", source="--workers")
    _check_backend(backend, scheduler)
    return executor_factories()[backend].make(count, scheduler)
