"""Progress of a long run on stderr: a rich bar on a terminal, a plain line now and then off one (a log, ``nohup``).

The names are shared by the commands of ``samurai.cli`` (which exports only ``main`` and ``run``): public within
the package, so no module reaches for another's private names, but not part of the API.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

_PROGRESS_LINE_SECONDS = 60.0
"""Off a terminal (a log, ``nohup``), how often at most a long run writes a line of progress to stderr."""


class ProgressLines:
    """Progress as plain lines on ``stream`` (stderr), for a run whose stderr is not a terminal: at most one line
    every ``every`` seconds (``_PROGRESS_LINE_SECONDS``) of ``clock``, none for a run shorter than that (its
    output stays as it was)."""

    def __init__(self, label: str, total: int, *, every: float | None = None,
                 clock: Callable[[], float] | None = None, stream: Any = None) -> None:
        import time

        self.label, self.total = label, total
        self.every = _PROGRESS_LINE_SECONDS if every is None else every
        self.clock = clock or time.monotonic
        self.stream = stream
        self.started = self.last = self.clock()

    def __call__(self, done: int) -> None:
        """``done`` of ``total`` are finished: write a line if the last was ``every`` seconds ago."""
        now = self.clock()
        if now - self.last < self.every:
            return
        self.last = now
        minutes, seconds = divmod(int(now - self.started), 60)
        print(f"samurai: {self.label}: {done} of {self.total} done after {minutes} min {seconds:02d} s",
              file=self.stream or sys.stderr, flush=True)


def progress_bar(label: str, total: int, enabled: bool) -> Any:
    """A rich progress bar on stderr, as a context manager yielding ``advance_to(k)``; off a terminal, a line
    now and then (``ProgressLines``)."""
    import contextlib

    if not enabled:
        return contextlib.nullcontext(None)
    if not sys.stderr.isatty():
        return contextlib.nullcontext(ProgressLines(label, total))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    @contextlib.contextmanager
    def bar() -> Any:
        with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(label, total=total)
            yield lambda done: progress.update(task, completed=done)

    return bar()

