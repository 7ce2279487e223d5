"""Fixtures: the editions, loaded once per test session, and the engine a test's games are played on.

Knizia's games run on the engine ``SAMURAI_ENGINE`` names (auto by default: the native one where it is built).
A rule test module runs on both engines (``pytestmark = pytest.mark.usefixtures("each_engine")``), so every rule
pins both; a module about the Python engine's own internals pins it (``usefixtures("python_engine")``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

import samurai
from samurai_plugins.knizia.engine.backends import ENGINE_VARIABLE, native_module

from helpers import TINY_CORE_EDITION, TINY_EDITION, TINY_ORIGINAL_EDITION

ENGINES = ("python", "native") if native_module() is not None else ("python",)
"""The engines here: both where the native extension is built (``pip install .`` with cargo), else Python's."""


@pytest.fixture(params=ENGINES)
def each_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once per engine: every game it makes without an ``engine=`` argument is played on it."""
    monkeypatch.setenv(ENGINE_VARIABLE, request.param)
    return str(request.param)


@pytest.fixture
def python_engine(monkeypatch: pytest.MonkeyPatch) -> str:
    """Games on the Python engine: for tests of its own internals (its lists, its fast paths)."""
    monkeypatch.setenv(ENGINE_VARIABLE, "python")
    return "python"

# In CI the property tests draw the same examples every run, so a red build is reproducible;
# on a developer's machine they explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def ffg() -> samurai.Edition:
    """The FFG 2015 reference edition."""
    return samurai.load_edition("ffg2015")


@pytest.fixture(scope="session")
def tiny() -> samurai.Edition:
    """The FFG 2015 rules on the tiny map."""
    return samurai.load_edition(TINY_EDITION)


@pytest.fixture(scope="session")
def tiny_core() -> samurai.Edition:
    """The engine's default rules (no edition plugin) on the tiny map."""
    return samurai.load_edition(TINY_CORE_EDITION)


@pytest.fixture(scope="session")
def original() -> samurai.Edition:
    """The original (1998) edition."""
    return samurai.load_edition("original")


@pytest.fixture(scope="session")
def tiny_original() -> samurai.Edition:
    """The original rules on the tiny map."""
    return samurai.load_edition(TINY_ORIGINAL_EDITION)
