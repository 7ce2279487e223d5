"""What the differential tests of the native engine share (``test_native_engine.py``, ``test_native_fuzz.py``).

A *pair* is one position on both engines: the Python engine's ``State`` (the reference) and the native engine's
``NativeState`` made from it or from the same seed. The helpers here play the same actions on both and compare
everything a caller can see: the fingerprint (the generator's state included), the legal actions in their order,
the verdict on an action, the events and the result.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import samurai
from samurai.errors import IllegalAction
from samurai_plugins.knizia.core.state import OVER, State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.backends import NATIVE, PYTHON, native_module
from samurai_plugins.knizia.engine.edition import KniziaEdition

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"

U64 = 2**64
"""Action numbers from here on name nothing: the native engine reads an action's numbers as unsigned 64-bit."""

SHAPES = {0: 2, 1: 3, 2: 3, 4: 1}
"""The length of each kind of action (CHOOSE, FIGURE, PLACE, END); SPECIAL (3) takes its tile and any targets."""


def require_native() -> Any:
    """The native module; the calling test module is skipped only where the machine has no Rust toolchain."""
    module = native_module()
    if module is None:
        if shutil.which("cargo") is not None:
            raise AssertionError("samurai_plugins.knizia.engine._native is not built although cargo is on the PATH: "
                                 "reinstall with `pip install -e .`")
        pytest.skip("samurai_plugins.knizia.engine._native is not built: this machine has no Rust toolchain (cargo)",
                    allow_module_level=True)
    return module


def shipped_knizia_editions() -> list[str]:
    """The ids of every edition of Knizia's game in ``editions/`` (the other game's editions left out)."""
    ids = []
    for path in sorted((ROOT / "editions").glob("*.toml")):
        edition_id = tomllib.loads(path.read_text(encoding="utf-8"))["id"]
        if isinstance(samurai.load_edition(edition_id), KniziaEdition):
            ids.append(edition_id)
    return ids


@cache
def edition(name: str) -> KniziaEdition:
    """An edition by id or manifest path, loaded once."""
    loaded = samurai.load_edition(name)
    assert isinstance(loaded, KniziaEdition)
    return loaded


def rules_of(name: str, players: int, options: tuple[tuple[str, Any], ...] = ()) -> Rules:
    """The compiled rules of edition ``name`` (``options`` as sorted items, so the rules are cached per value)."""
    return edition(name).rules(players, dict(options) if options else None)


def scaled(count: int) -> int:
    """``count`` games, times ``SAMURAI_DIFF_SCALE`` when set (a whole number >= 1: the benchmark's larger run)."""
    text = os.environ.get("SAMURAI_DIFF_SCALE", "").strip() or "1"
    if not text.isdigit() or int(text) < 1:
        raise AssertionError(f"SAMURAI_DIFF_SCALE must be a whole number >= 1, not {text!r}")
    return count * int(text)


def assert_same_position(p: State, q: Any, where: str = "") -> None:
    """Both engines hold the same position (the generator's state included), and the same events."""
    fp, fq = p.fingerprint(), q.fingerprint()
    if fp != fq:
        names = ("phase", "setup_queue", "current", "turn", "pools", "hands", "stacks", "spent", "tile_owner",
                 "tile_type", "tile_turn", "empty_land", "empty_sea", "figures", "empty_around", "pending", "supply",
                 "on_board", "captured", "removed", "normal_played", "played", "end_reason", "rng")
        differ = [name for name, a, b in zip(names, fp, fq, strict=True) if a != b]
        raise AssertionError(f"{where}: the positions differ in {differ}")
    assert p.tiles_played == q.tiles_played and p.removed_total == q.removed_total, where
    assert p.events == q.events, where


def assert_same_result(p: State, q: Any, where: str = "") -> None:
    """Both games are over with the same result: winners, reason, explanation and end reason."""
    assert p.phase == OVER and q.phase == OVER, where
    assert p.result is not None and q.result is not None, where
    assert (q.result.winners, q.result.reason, q.result.end_reason) == \
        (p.result.winners, p.result.reason, p.result.end_reason), where
    assert q.result.explanation == p.result.explanation, where
    assert q.end_reason == p.end_reason == p.result.end_reason, where


def well_shaped(action: Any) -> bool:
    """Whether ``action`` has the shape of an engine action: whole numbers >= 0 below 2**64, as many as its kind
    takes (the protocol's first check, before the engine's; the engines read a list as a tuple, True as 1)."""
    if not isinstance(action, (tuple, list)) or not action:
        return False
    if not all(isinstance(v, int) and 0 <= v < U64 for v in action):  # bools are ints to both engines
        return False
    shape = SHAPES.get(action[0])
    return len(action) >= 2 if action[0] == 3 else shape is not None and len(action) == shape


RAISED = "raised"
"""The verdict of an engine whose check raised IndexError, ValueError or TypeError (a number naming nothing)."""


def verdict(engine: Any, rules: Rules, st: Any, action: Any) -> str | None:
    """The engine's check of ``action``: its reason, None when legal, or ``RAISED``."""
    try:
        reason: str | None = engine.check(rules, st, action)
    except (IndexError, ValueError, TypeError):
        return RAISED
    return reason


def assert_same_verdict(rules: Rules, p: State, q: Any, action: Any) -> str | None:
    """Both engines judge ``action`` alike; a refused one leaves the native position unchanged. The verdict.

    A well-shaped action gets the same reason (or both raise, where the Python engine indexes past a table);
    any other (wrong length or kind, a negative, a number of 64 bits or more, not a tuple) is one the protocol
    refuses before the Python engine sees it, and the native engine refuses it itself by raising.
    """
    native = verdict(NATIVE, rules, q, action)
    if well_shaped(action):
        python = verdict(PYTHON, rules, p, tuple(int(v) for v in action))
        assert native == python, f"{action}: the Python engine says {python!r}, the native one {native!r}"
    else:
        assert native == RAISED, f"{action} is malformed, yet the native engine says {native!r}"
    if native is not None:
        before = q.fingerprint()
        with pytest.raises(IllegalAction):
            q.apply(action)
        assert q.fingerprint() == before, f"{action}: a refused action changed the native position"
    return native


def play_pair(rules: Rules, p: State, q: Any, pick: Callable[[State, Any], tuple[tuple[int, ...], tuple[int, ...]]],
              *, where: str = "", legal: bool = True) -> int:
    """Play both positions to the end, ``pick(p, q)`` naming each engine's action, comparing after every one.

    Before each action both list the same legal actions in the same order (unless ``legal`` is False) and pick the
    same action; after it both hold the same position. Returns how many actions were played.
    """
    assert_same_position(p, q, where)
    played = 0
    while p.phase != OVER:
        if legal:
            assert NATIVE.legal_actions(rules, q) == PYTHON.legal_actions(rules, p), f"{where} action {played}"
        a, b = pick(p, q)
        assert a == b, f"{where} action {played}: the Python engine picks {a}, the native one {b}"
        PYTHON.apply(rules, p, a)
        NATIVE.apply(rules, q, b)
        played += 1
        assert_same_position(p, q, f"{where} after action {played} {a}")
    assert_same_result(p, q, where)
    return played
