"""The errors the engine raises on purpose.

Two families: ``IllegalAction`` for a move the rules forbid (the game is left
exactly as it was), and ``DataError`` for a file or argument a person wrote
that the engine refuses (a map, an edition manifest, options). Both carry a
message a designer or player can act on.
"""

from __future__ import annotations

import re

__all__ = ["SamuraiError", "IllegalAction", "DataError", "one_line", "MAX_MESSAGE"]


class SamuraiError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(SamuraiError, ValueError):
    """An action the rules do not allow now. The game is unchanged."""


class DataError(SamuraiError, ValueError):
    """A map, edition manifest, option or other input that is refused.

    ``source`` names the file (or argument), ``line`` the line when known and
    ``key`` the field; ``str()`` puts them in front of the message. ``str()``
    is always one line of bounded length: control characters (a newline in a
    key or a file name) are escaped and a very long message is cut, so text
    from a hostile file cannot forge more lines or flood a terminal.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 key: str | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.key = key
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source or ""
        if self.line is not None:
            where += f":{self.line}"
        if self.key:
            where += f" [{self.key}]" if where else f"[{self.key}]"
        return one_line(f"{where}: {self.message}" if where else self.message)


MAX_MESSAGE = 1000
"""The longest error message shown; the rest is cut (a message quoting a huge value)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with control characters escaped and cut to ``MAX_MESSAGE`` characters."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"
