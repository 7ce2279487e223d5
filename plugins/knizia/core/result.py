"""The outcome of a game: who won, why, and the story in plain words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["Result", "END_REASONS", "seats_text"]

END_REASONS = {
    "caste_exhausted": "a caste has no figure left on the board",
    "removed_by_ties": "enough figures were removed by tied influence",
    "no_tiles": "no player can play a tile",
}
"""Why a game ended (docs/rules/samurai.md#end), keyed by the codes used in ``Result.end_reason``."""


def _text(explanation: str | Callable[[], str]) -> str:
    return explanation if isinstance(explanation, str) else explanation()


@attrs.frozen(repr=False)
class Result:
    """Who won and why.

    ``winners`` holds one seat, or several for a shared win. ``reason`` is a
    short code for the deciding step of the scoring (the edition defines
    them), ``explanation`` says it in plain language, and ``end_reason`` is a
    key of ``END_REASONS`` (None when only scoring was asked for).

    A scorer may pass the explanation as a function returning the text: it
    is then written only when someone reads it (playouts never do), once.
    Results compare and print by the text either way.
    """

    winners: tuple[int, ...]
    reason: str
    _explanation: str | Callable[[], str] = attrs.field(eq=_text)
    end_reason: str | None = None

    @property
    def explanation(self) -> str:
        """The scoring decision in plain language."""
        text = self._explanation
        if not isinstance(text, str):
            text = text()
            if not isinstance(text, str):
                raise TypeError(f"the scoring's explanation function returned {text!r}, not text")
            object.__setattr__(self, "_explanation", text)
        return text

    def __repr__(self) -> str:
        return (f"Result(winners={self.winners!r}, reason={self.reason!r}, explanation={self.explanation!r}, "
                f"end_reason={self.end_reason!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (to another process, say) with its text written: a function may not pickle.
        return Result, (self.winners, self.reason, self.explanation, self.end_reason)

    def with_end_reason(self, end_reason: str | None) -> Result:
        """This result with ``end_reason`` set (the explanation stays unwritten until read)."""
        return Result(self.winners, self.reason, self._explanation, end_reason)

    @property
    def shared(self) -> bool:
        """True when more than one seat shares the win."""
        return len(self.winners) > 1

    def shares(self, players: int) -> tuple[float, ...]:
        """Each seat's return on the game protocol: the winners share 1, the others get 0."""
        share = 1.0 / len(self.winners)
        return tuple(share if seat in self.winners else 0.0 for seat in range(players))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the result."""
        return {"winners": list(self.winners), "reason": self.reason, "explanation": self.explanation,
                "end_reason": self.end_reason}


def seats_text(seats: tuple[int, ...] | list[int]) -> str:
    """``[0, 2, 3]`` as ``"0, 2 and 3"`` for explanations."""
    names = [str(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
