"""The errors the engine raises on purpose.

Two families: ``IllegalAction`` for a move the rules forbid (the game is left
exactly as it was), and ``DataError`` for a file or argument a person wrote
that the engine refuses (a map, an edition manifest, options). Both carry a
message a designer or player can act on.
"""

from __future__ import annotations

__all__ = ["SamuraiError", "IllegalAction", "DataError"]


class SamuraiError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(SamuraiError, ValueError):
    """An action the rules do not allow now. The game is unchanged."""


class DataError(SamuraiError, ValueError):
    """A map, edition manifest, option or other input that is refused.

    ``source`` names the file (or argument), ``line`` the line when known and
    ``key`` the field; ``str()`` puts them in front of the message.
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
        return f"{where}: {self.message}" if where else self.message
