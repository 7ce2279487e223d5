"""Seeds: the whole numbers every game, record and run starts from (0 to ``MAX_SEED``), checked in one place, and
the seed of each game of a run (``derive_seed``): game ``i`` of a run seeded ``s`` is played with
``derive_seed(s, i)``, so one game can be replayed alone and two rule sets compared game by game."""

from __future__ import annotations

from typing import Any

from .errors import DataError

__all__ = ["MAX_SEED", "check_seed", "derive_seed"]

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


_MASK64 = (1 << 64) - 1


def derive_seed(seed: int, index: int) -> int:
    """A well-mixed 63-bit seed for item ``index`` of a run seeded ``seed`` (SplitMix64)."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1
