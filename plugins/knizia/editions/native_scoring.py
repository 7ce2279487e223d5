"""Which scorings the native engine decides itself: a scoring hook may say it decides as one of them.

The native engine plays whole games without Python; at the end it needs the winners and the reason code. For the
three scorings Knizia's game ships (FFG 2015's Leader tokens, the original's majorities, the game's default of most
figures) it has a port of the same steps (``plugins/knizia/engine/native/src/scoring.rs``), and an edition's
``samurai_score`` hook that decides exactly as one of them says so with ``@native_scoring("leader_tokens")``.
Any other scoring hook is asked in Python at the end of each game, so a designer's own scoring still runs on the
native engine, only with one Python call per game. The claim is checked: ``samurai.kit`` compares the hook and
the native scoring on random captures (``tests/test_native_engine.py`` does it for the shipped editions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["NATIVE_SCORINGS", "native_scoring", "claimed_scoring"]

NATIVE_SCORINGS = ("leader_tokens", "majorities", "most_figures")
"""The scorings the native engine decides itself."""

_Function = TypeVar("_Function", bound=Callable[..., Any])


def native_scoring(name: str) -> Callable[[_Function], _Function]:
    """Mark a ``samurai_score`` hook implementation as deciding exactly as the native scoring ``name``
    (one of ``NATIVE_SCORINGS``), whatever the options: the native engine then decides the winners and reason
    itself, and asks the hook only for the explanation when someone reads it."""
    if name not in NATIVE_SCORINGS:
        raise ValueError(f"no native scoring {name!r}; the native engine decides {', '.join(NATIVE_SCORINGS)}")

    def mark(function: _Function) -> _Function:
        function.native_scoring = name  # type: ignore[attr-defined]
        return function

    return mark


def claimed_scoring(caller: Any) -> str:
    """The native scoring the ``samurai_score`` hook ``caller`` decides as, or ``"python"``.

    pluggy asks a firstresult hook's implementations from the last of ``get_hookimpls()`` on, until one answers;
    the claim counts only when that first one claims it (it always answers) and no wrapper stands around it.
    """
    implementations = caller.get_hookimpls()
    if not implementations or any(impl.hookwrapper or impl.wrapper for impl in implementations):
        return "python"
    claim = getattr(implementations[-1].function, "native_scoring", None)
    return claim if claim in NATIVE_SCORINGS else "python"
