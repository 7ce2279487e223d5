"""Executors (samurai.runs.executors): the same results in the same order on every backend.

The Dask tests start a real ``LocalCluster`` of worker processes on 127.0.0.1.
"""

from __future__ import annotations

import pytest

from samurai.errors import DataError
from samurai.hooks.specs import hookimpl
from samurai.runs.executors import ExecutorFactory, LocalExecutor, executor_factories, make_executor
from samurai.seeds import derive_seed


def mix(batch: tuple[int, int]) -> list[int]:
    """A pure batch function: seeds derived from a run seed and a range of indices."""
    seed, start = batch
    return [derive_seed(seed, i) % 1000 for i in range(start, start + 5)]


BATCHES = [(7, start) for start in range(0, 60, 5)]
EXPECTED = [mix(b) for b in BATCHES]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_local_workers_return_every_result_in_batch_order(workers):
    executor = make_executor("local", workers=workers)
    try:
        assert list(executor.map(mix, BATCHES)) == EXPECTED
    finally:
        executor.close()


def test_a_dask_local_cluster_returns_the_same_results_in_the_same_order():
    executor = make_executor("dask", workers=2)
    try:
        assert list(executor.map(mix, BATCHES)) == EXPECTED
        assert list(executor.map(mix, BATCHES[:1])) == EXPECTED[:1]  # the cluster serves several runs
    finally:
        executor.close()


def test_the_engine_contributes_local_and_dask_through_the_hook():
    factories = executor_factories()
    assert list(factories)[:2] == ["local", "dask"]
    assert all(isinstance(f, ExecutorFactory) for f in factories.values())


def test_bad_backends_workers_and_schedulers_are_refused_in_one_line(monkeypatch):
    import samurai.runs.executors

    monkeypatch.setattr(samurai.runs.executors, "SCHEDULER_TIMEOUT", 2)
    with pytest.raises(DataError, match="unknown backend 'ray'; backends are local, dask"):
        make_executor("ray")
    for workers in (0, -2, True, 1.5):
        with pytest.raises(DataError, match="workers must be a whole number"):
            make_executor("local", workers=workers)
    with pytest.raises(DataError, match="--scheduler goes with --backend dask"):
        make_executor("local", scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(DataError, match="cannot reach the Dask scheduler"):
        make_executor("dask", workers=1, scheduler="tcp://127.0.0.1:9")


class InlinePlugin:
    """A third-party executor: runs batches in this process, in reverse, and puts them back in order."""

    @hookimpl
    def samurai_executors(self):
        class Reversed:
            name = "reversed"

            def map(self, fn, batches):
                done = [fn(b) for b in reversed(batches)]
                return iter(reversed(done))

            def close(self):
                pass

        return [ExecutorFactory("reversed", "test executor", lambda workers, scheduler: Reversed())]


def test_a_plugin_adds_an_executor_without_touching_the_core(monkeypatch):
    import samurai.catalog.editions as plugins

    real = plugins.make_plugin_manager

    def with_plugin(names, **kwargs):
        pm = real(names, **kwargs)
        pm.register(InlinePlugin(), name="inline-test")
        return pm

    monkeypatch.setattr(plugins, "make_plugin_manager", with_plugin)
    executor = make_executor("reversed")
    assert list(executor.map(mix, BATCHES)) == EXPECTED


def test_closing_a_local_pool_drops_what_has_not_started():
    executor = LocalExecutor(2)
    results = executor.map(mix, BATCHES)
    assert next(results) == EXPECTED[0]
    executor.close()
