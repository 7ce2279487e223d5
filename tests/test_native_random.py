"""The native engine's generator draws what CPython's ``random.Random`` draws (issue 22, groundwork).

Both engines must play the same games from the same seed, so the Rust Mersenne Twister in
``samurai_plugins.knizia.engine._native`` is compared value by value with ``random.Random``: thousands of seeds, each
with a script of mixed draws (``random()``, ``getrandbits``, ``_randbelow``, ``shuffle``, ``floor(random() * n)``), and
the full generator state after them. Skipped only where the machine has no Rust toolchain, so the package was
installed as pure Python; with ``cargo`` on the PATH a missing extension module is a failure.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from math import floor
from typing import Any

import pytest

try:
    from samurai_plugins.knizia.engine import _native
except ImportError:  # pragma: no cover - depends on how the package was built
    if shutil.which("cargo") is not None:
        raise AssertionError(
            "samurai_plugins.knizia.engine._native is not built although cargo is on the PATH: "
            "reinstall with `pip install -e .`"
        ) from None
    pytest.skip("samurai_plugins.knizia.engine._native is not built: this machine has no Rust toolchain (cargo)",
                allow_module_level=True)

MersenneTwister = _native.MersenneTwister

EDGE_SEEDS = [0, 1, 2, 3, 42, 255, 256, 65535, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1,
              2**53, 2**62, 2**63 - 2, 2**63 - 1]
SCRIPT_SEED = 20240522
"""Seeds the generator that writes the draw scripts and picks the random seeds, so every run tests the same."""


def _random_seeds(count: int) -> list[int]:
    """``count`` 63-bit seeds, small ones and large ones, from a seeded generator."""
    maker = random.Random(SCRIPT_SEED)
    return [maker.getrandbits(maker.choice([8, 16, 31, 32, 33, 48, 63])) for _ in range(count)]


def _script(maker: random.Random, length: int) -> list[tuple[str, int]]:
    """A script of draws: the operation and its argument (bits, bound or list length)."""
    steps: list[tuple[str, int]] = []
    for _ in range(length):
        operation = maker.choice(["random", "getrandbits", "randbelow", "index", "shuffle"])
        if operation == "getrandbits":
            steps.append((operation, maker.randint(0, 64)))
        elif operation == "randbelow":
            steps.append((operation, maker.choice([1, 2, 3, 7, 100, 2**31 + 1, 2**32, 2**40 + 3, 2**64 - 1])))
        elif operation == "index":
            steps.append((operation, maker.choice([1, 2, 5, 19, 64, 1000, 2**53])))
        elif operation == "shuffle":
            steps.append((operation, maker.randint(0, 40)))
        else:
            steps.append((operation, 0))
    return steps


def _run_python(rng: random.Random, steps: list[tuple[str, int]]) -> list[Any]:
    """What ``random.Random`` gives for a script, the way Knizia's engine and CPython's own methods draw."""
    drawn: list[Any] = []
    for operation, argument in steps:
        if operation == "random":
            drawn.append(rng.random())
        elif operation == "getrandbits":
            drawn.append(rng.getrandbits(argument))
        elif operation == "randbelow":
            drawn.append(rng._randbelow(argument))  # type: ignore[attr-defined]
        elif operation == "index":
            drawn.append(floor(rng.random() * argument))
        else:
            items = list(range(argument))
            rng.shuffle(items)
            drawn.append(items)
    return drawn


def _run_native(rng: Any, steps: list[tuple[str, int]]) -> list[Any]:
    """What the native generator gives for the same script."""
    drawn: list[Any] = []
    for operation, argument in steps:
        if operation == "random":
            drawn.append(rng.random())
        elif operation == "getrandbits":
            drawn.append(rng.getrandbits(argument))
        elif operation == "randbelow":
            drawn.append(rng.randbelow(argument))
        elif operation == "index":
            drawn.append(rng.random_index(argument))
        else:
            items = list(range(argument))
            rng.shuffle(items)
            drawn.append(items)
    return drawn


def _assert_same_draws(seed: int, steps: list[tuple[str, int]]) -> None:
    python, native = random.Random(seed), MersenneTwister(seed)
    assert native.getstate() == python.getstate(), f"seed {seed}: the state right after seeding differs"
    expected, got = _run_python(python, steps), _run_native(native, steps)
    for number, (want, have) in enumerate(zip(expected, got, strict=True)):
        assert have == want, f"seed {seed}, draw {number} ({steps[number]}): native {have!r}, Python {want!r}"
    assert native.getstate() == python.getstate(), f"seed {seed}: the state after {len(steps)} draws differs"


@pytest.mark.parametrize("seed", EDGE_SEEDS)
def test_edge_seeds_draw_what_cpython_draws(seed: int) -> None:
    maker = random.Random(SCRIPT_SEED + seed % 1000)
    _assert_same_draws(seed, _script(maker, 1500))


def test_thousands_of_random_seeds_draw_what_cpython_draws() -> None:
    maker = random.Random(SCRIPT_SEED)
    for seed in _random_seeds(3000):
        _assert_same_draws(seed, _script(maker, 40))


def test_long_runs_cross_many_twists_and_keep_the_same_state() -> None:
    for seed in (0, 7, 2**63 - 1):
        python, native = random.Random(seed), MersenneTwister(seed)
        for _ in range(5000):
            assert native.random() == python.random()
        assert native.getstate() == python.getstate()


def test_negative_and_big_seeds_are_seeded_as_cpython_seeds_them() -> None:
    for seed in (-1, -42, -(2**63), 2**64 - 1, 2**64, 2**100 + 12345, -(2**200) - 7):
        assert MersenneTwister(seed).getstate() == random.Random(seed).getstate(), f"seed {seed}"
    assert MersenneTwister(True).getstate() == random.Random(1).getstate()


def test_reseeding_starts_the_sequence_of_the_new_seed() -> None:
    native = MersenneTwister(5)
    native.random()
    native.seed(99)
    assert native.getstate() == random.Random(99).getstate()


def test_state_round_trips_both_ways_with_cpython() -> None:
    python = random.Random(123)
    for _ in range(700):
        python.random()
    native = MersenneTwister(0)
    native.setstate(python.getstate())
    assert [native.random() for _ in range(1000)] == [python.random() for _ in range(1000)]
    back = random.Random()
    back.setstate(native.getstate())
    assert [back.getrandbits(64) for _ in range(100)] == [native.getrandbits(64) for _ in range(100)]
    python.gauss(0.0, 1.0)  # leaves a cached second Gaussian in the state, which must pass through unchanged
    native.setstate(python.getstate())
    assert native.getstate() == python.getstate()


def test_copy_is_independent_and_at_the_same_point() -> None:
    native = MersenneTwister(8)
    native.random()
    twin = native.copy()
    assert [twin.random() for _ in range(10)] == [native.random() for _ in range(10)]
    twin.random()
    assert twin.getstate() != native.getstate()


def test_shuffle_moves_the_list_objects_themselves() -> None:
    items: list[object] = [object() for _ in range(12)]
    expected = list(items)
    random.Random(4).shuffle(expected)
    MersenneTwister(4).shuffle(items)
    assert all(have is want for have, want in zip(items, expected, strict=True))


def _refused(call: Callable[[Any], object], error: type[Exception], words: str) -> None:
    """The call is refused with ``error`` naming ``words`` and the generator's state is unchanged."""
    native = MersenneTwister(77)
    native.random()
    before = native.getstate()
    with pytest.raises(error, match=words):
        call(native)
    assert native.getstate() == before


def test_bad_arguments_are_refused_and_draw_nothing() -> None:
    _refused(lambda rng: rng.getrandbits(-1), ValueError, "non-negative")
    _refused(lambda rng: rng.getrandbits(65), ValueError, "at most 64 bits")
    _refused(lambda rng: rng.randbelow(0), ValueError, r"randbelow\(n\)")
    _refused(lambda rng: rng.randbelow(2**64), ValueError, r"randbelow\(n\)")
    _refused(lambda rng: rng.random_index(0), ValueError, r"random_index\(n\)")
    _refused(lambda rng: rng.random_index(2**53 + 1), ValueError, r"random_index\(n\)")
    _refused(lambda rng: rng.shuffle((1, 2, 3)), TypeError, "must be a list, got tuple")
    _refused(lambda rng: rng.seed(1.5), TypeError, "whole number")
    with pytest.raises(TypeError, match="got str"):
        MersenneTwister("seed")  # type: ignore[arg-type]


def test_malformed_states_are_refused_and_leave_the_generator_as_it_was() -> None:
    version, internal, gauss = random.Random(3).getstate()
    _refused(lambda rng: rng.setstate((2, internal, gauss)), ValueError, "version 2")
    _refused(lambda rng: rng.setstate((version, internal[:-1], gauss)), ValueError, "624 numbers")
    _refused(lambda rng: rng.setstate((version, (*internal[:-1], 625), gauss)), ValueError, "index 625")
    _refused(lambda rng: rng.setstate((version, (2**32, *internal[1:]), gauss)), ValueError, "word 0")
    _refused(lambda rng: rng.setstate((version, (*internal[:5], -1, *internal[6:]), gauss)), ValueError, "word 5")
    _refused(lambda rng: rng.setstate("state"), ValueError, "expected")
