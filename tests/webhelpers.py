"""Helpers of the web tests: a real ``samurai serve`` on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest


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


# --- the page's layout, as a person sees it (issue 24) ---------------------------------------------------------------

DESKTOP: dict[str, Any] = {"viewport": {"width": 1400, "height": 900}}
"""A laptop's window, for ``Browser.new_page(**DESKTOP)``."""
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                         "device_scale_factor": 2}
"""A phone held upright (390 by 844 CSS pixels, touch), for ``Browser.new_page(**PHONE)``."""

LAYOUT_FACTS = """(board) => {
  // Facts of the page's layout a person would see: the board card and its picture, the smallest text inside the
  // picture and its hexes in CSS pixels, anything wider than its card, and whether the page is wider than the window.
  const card = document.getElementById(board), picture = card.querySelector('svg');
  const inner = card.getBoundingClientRect(), box = picture.getBoundingClientRect();
  const style = getComputedStyle(card);
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + parseFloat(style.borderLeftWidth)
    + parseFloat(style.borderRightWidth);
  const scale = picture.getScreenCTM().a;
  const sizes = [...picture.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const places = [...picture.querySelectorAll('[data-col]')].map((p) => p.getBoundingClientRect());
  const overflows = [];
  for (const section of document.querySelectorAll('main:not([hidden]) .card')) {
    if (section === card) continue;
    const edge = section.getBoundingClientRect();
    for (const item of section.querySelectorAll('*')) {
      const r = item.getBoundingClientRect();
      const name = `${item.tagName.toLowerCase()}#${item.id}.${item.className.baseVal ?? item.className}`;
      if (r.width && (r.right > edge.right + 1 || r.left < edge.left - 1)) {
        overflows.push(`${section.id || section.className} > ${name}`);
      }
    }
  }
  return {cardWidth: inner.width - padding, pictureWidth: box.width, cardRight: inner.right,
          smallestText: Math.min(...sizes), narrowestPlace: Math.min(...places.map((p) => p.width)),
          lowestPlace: Math.min(...places.map((p) => p.height)), overflows,
          scrolls: card.scrollWidth > card.clientWidth + 1,
          pageWider: document.documentElement.scrollWidth > window.innerWidth + 1, windowWidth: window.innerWidth};
}"""
"""Give it to ``page.evaluate`` with the id of the board's card (``board`` or ``replay-board``)."""


CHROMIUM = next((path for path in (os.environ.get("SAMURAI_CHROMIUM"), shutil.which("chromium"),
                                   shutil.which("chromium-browser")) if path), None)
"""Debian's chromium (or ``$SAMURAI_CHROMIUM``), which Playwright drives through its executable path."""


def require_chromium() -> None:
    """Skip the calling test module on a machine without chromium, except in CI, which installs it."""
    if CHROMIUM is None and not os.environ.get("CI"):
        pytest.skip("no chromium on this machine (CI installs it: apt-get install chromium)", allow_module_level=True)


@contextlib.contextmanager
def browser_page(tmp_path: Path, device: dict[str, Any],
                 extra: tuple[str, ...] = ()) -> Iterator[tuple[Any, str, list[str]]]:
    """A page of Chromium at ``device``'s size (``DESKTOP``, ``PHONE``), the address of a real server keeping its games
    in ``tmp_path`` (``extra``: more arguments of ``samurai serve``), and the page's script errors (none, when the test
    ends)."""
    from playwright.sync_api import sync_playwright  # only the browser tests need Playwright

    server = Server(tmp_path, bot_delay=0.0, extra=extra)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(**device)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page, server.url, errors
            assert errors == []
            browser.close()
    finally:
        server.stop()
