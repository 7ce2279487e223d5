"""Seeds: the whole numbers every game, record and run starts from (0 to ``MAX_SEED``), checked in one place."""

from __future__ import annotations

from typing import Any

from .errors import DataError

__all__ = ["MAX_SEED", "check_seed"]

MAX_SEED = 2 ** 63 - 1
"""The largest seed: seeds are whole numbers from 0 that fit a record's 64-bit integers."""


def check_seed(seed: Any, *, source: str = "seed", key: str | None = None) -> int:
    """``seed`` when it is a whole number from 0 to ``MAX_SEED``; a ``DataError`` otherwise.

    A negative seed is refused rather than folded onto a positive one (Python's
    generator plays seed -3 as seed 3, so two seeds would silently be one game).
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DataError(f"seed must be a whole number, not {type(seed).__name__} {seed!r:.40}", source=source,
                        key=key)
    if not 0 <= seed <= MAX_SEED:
        raise DataError(f"seed must be a whole number from 0 to 2**63-1, not {str(seed)[:40]}", source=source,
                        key=key)
    return seed
