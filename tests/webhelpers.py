"""Helpers of the web tests: a real ``samurai serve`` on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``python -m samurai serve`` on a free port of 127.0.0.1, keeping games in ``data_dir``."""

    def __init__(self, data_dir: Path, *, bot_delay: float = 0.0, extra: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        self._log_file = open(self.log, "ab")  # noqa: SIM115 - open for the server's whole life
        self.process = subprocess.Popen(
            [sys.executable, "-m", "samurai", "serve", "--port", str(self.port), "--data-dir", str(data_dir),
             "--bot-delay", str(bot_delay), *extra],
            stdout=self._log_file, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()}")
            try:
                httpx.get(self.url + "/api/catalog", timeout=2)
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError("the server did not start within 60 s") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (what a crash or a power cut does to the process)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._log_file.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log_file.close()


class InProcessServer:
    """uvicorn serving ``app`` in a thread of this process (so a test can watch the app's host)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    access_log=False, timeout_graceful_shutdown=5))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


async def next_update(lines: AsyncIterator[str]) -> dict[str, Any]:
    """The data of the stream's next ``update`` event."""
    event = None
    async for line in lines:
        if line.startswith("event: "):
            event = line[len("event: "):]
        elif line.startswith("data: ") and event == "update":
            return json.loads(line[len("data: "):])  # type: ignore[no-any-return]
    raise AssertionError("the stream ended")
