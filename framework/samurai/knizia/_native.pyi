"""Knizia's native engine, the Rust extension module built from ``framework/samurai/knizia/native`` (docs/native.md).

Present only where the package was built with a Rust toolchain; so far it holds the generator every game draws
from. Nothing in the engine uses it yet.
"""

from typing import Any

class MersenneTwister:
    """CPython's Mersenne Twister, value for value with ``random.Random(seed)`` for a whole-number seed."""

    def __init__(self, seed: int) -> None:
        """The generator of ``random.Random(seed)``; a seed that is not an int is refused with TypeError."""
    def seed(self, seed: int) -> None:
        """Reseeds as ``random.Random.seed(seed)`` does for an int."""
    def random(self) -> float:
        """``random()``: a float in [0, 1) from 53 random bits."""
    def getrandbits(self, k: int) -> int:
        """``getrandbits(k)`` for k from 0 to 64; any other k is refused with ValueError."""
    def randbelow(self, n: int) -> int:
        """CPython's ``_randbelow(n)``: an int in [0, n) for n from 1 to 2**64 - 1, else ValueError."""
    def random_index(self, n: int) -> int:
        """``floor(random() * n)``, how Knizia's engine picks an index, for n from 1 to 2**53, else ValueError."""
    def shuffle(self, items: list[Any]) -> None:
        """Shuffles a list in place as ``random.Random.shuffle`` does; anything but a list is refused."""
    def getstate(self) -> tuple[int, tuple[int, ...], float | None]:
        """The state as ``random.Random.getstate()`` gives it (version 3, 624 words and the index, gauss_next)."""
    def setstate(self, state: tuple[int, tuple[int, ...], float | None]) -> None:
        """Takes a ``getstate()`` tuple of this class or of ``random.Random``; a malformed one raises ValueError."""
    def copy(self) -> MersenneTwister:
        """An independent copy at the same point of the sequence."""
