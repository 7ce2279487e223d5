"""Fixtures: the editions, loaded once per test session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

import samurai

from helpers import TINY_CORE_EDITION, TINY_EDITION, TINY_ORIGINAL_EDITION

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
