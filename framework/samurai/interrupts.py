"""Stopping a long run cleanly on Ctrl-C (SIGINT) or SIGTERM.

Inside ``interruptible()`` (the command line runs every command in it) both
signals raise ``KeyboardInterrupt`` in the main thread; SIGTERM would
otherwise end the process where it stands, leaving half-done temporary files
and orphaned worker processes. A short stretch that must not be cut in two
(writing a file and renaming it into place, writing both records of a pair)
runs inside ``deferred_interrupts()``, which holds a signal until the stretch
is done and then raises (``samurai.files.writing`` writes every file that way).
Worker processes leave Ctrl-C to the main process, which stops them with
SIGTERM (``ignore_interrupts``, ``StoppableTask``).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["interruptible", "deferred_interrupts", "ignore_interrupts", "StoppableTask", "INTERRUPT_SIGNALS"]

INTERRUPT_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run: Ctrl-C and a polite kill."""

_held: list[int] = []
_depth = 0


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    if _depth:
        _held.append(signum)
        return
    raise KeyboardInterrupt(signal.Signals(signum).name)


@contextmanager
def interruptible() -> Iterator[None]:
    """While inside, SIGINT and SIGTERM raise ``KeyboardInterrupt`` (held inside ``deferred_interrupts``).

    Only the main thread can set signal handlers; elsewhere this does nothing.
    The previous handlers are restored on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _on_signal) for number in INTERRUPT_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        _held.clear()


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Hold SIGINT and SIGTERM (under ``interruptible``) until the block is done, then raise ``KeyboardInterrupt``.

    Nested blocks raise when the outermost one ends. In another thread this
    does nothing: signals interrupt only the main thread, so another thread's
    stretch is never cut in two by one (and must not hold the main thread's).
    """
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if not _depth and _held:
            name = signal.Signals(_held[0]).name
            _held.clear()
            raise KeyboardInterrupt(name)


def ignore_interrupts() -> None:
    """Set up a worker process: SIGINT is left to the main process, and SIGTERM stops the task in hand.

    A Ctrl-C reaches every process of the terminal's group; the main process
    then stops the workers itself (with SIGTERM), so they must not each print a
    traceback. SIGTERM raises ``KeyboardInterrupt`` only inside a task run
    through ``StoppableTask``: a worker is never cut off while it sends a result
    back, which would leave the pool's pipe half-written and the main process
    waiting on it forever.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_worker_signal)


_worker_stopping = False
_in_task = False


def _on_worker_signal(_signum: int, _frame: FrameType | None) -> None:
    global _worker_stopping
    _worker_stopping = True
    if _in_task:
        raise KeyboardInterrupt("SIGTERM")


class StoppableTask:
    """A picklable wrapper of a module-level function for a worker set up by ``ignore_interrupts``.

    Once the worker has been told to stop (SIGTERM), the task in hand ends with
    ``KeyboardInterrupt`` and any later task ends at once the same way.
    """

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def __call__(self, argument: Any) -> Any:
        global _in_task
        if _worker_stopping:
            raise KeyboardInterrupt("SIGTERM")
        _in_task = True
        try:
            return self.function(argument)
        finally:
            _in_task = False
