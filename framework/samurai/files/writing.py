"""Writing a whole file or nothing: the one atomic writer of records, pictures and run manifests.

``write_atomically`` writes into a hidden temporary file beside the target
(``.NAME.<random>.tmp``, so the rename stays on one file system), flushes it to
disk, and renames it over the target in one step: a reader sees the old file
or the new one, never half of one. The temporary file is removed whatever
stops the write: an error, Ctrl-C, ``SystemExit``, or SIGTERM. Under
``samurai.interrupts.interruptible`` (every command of the command line)
SIGTERM raises ``KeyboardInterrupt`` and is held until the rename is done;
in a process that leaves SIGTERM to its default action (a program embedding
the engine) it is held the same way and then delivered again, so the process
still ends as it would have, with the new file whole and no temporary file.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from ..interrupts import deferred_interrupts

__all__ = ["write_atomically", "new_file_mode"]


def write_atomically(target: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write ``data`` (text is written as UTF-8) to ``target`` whole, or leave ``target`` as it was.

    The folder must exist. The new file gets the mode ``open()`` would give
    it (``new_file_mode``), not ``mkstemp``'s private 0600.
    """
    path = Path(target)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with _signals_held():
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                os.fchmod(out.fileno(), new_file_mode())
                out.write(payload)
                out.flush()
                os.fsync(out.fileno())  # on disk before the rename, so a crash cannot leave an empty file
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return path


def new_file_mode() -> int:
    """The mode ``open()`` would give a new file: 0666 less the process's umask (read anew: it may change)."""
    try:  # Linux says it without changing it, so no other thread ever sees a wrong umask
        status = Path("/proc/self/status").read_text(encoding="ascii")
        mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("Umask:")), 8)
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (``deferred_interrupts``), and so does a SIGTERM whose
    action is the default one (ending the process where it stands): it is delivered again after the block."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        with deferred_interrupts():
            yield
        return
    held: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        held.append(signum)

    signal.signal(signal.SIGTERM, hold)
    try:
        with deferred_interrupts():
            yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if held:
            os.kill(os.getpid(), signal.SIGTERM)  # the default action, now that the file is whole or gone
