"""Helpers of the web tests: a real ``samurai serve`` on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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
