"""The conformance kit as a pytest plugin (registered under pytest's ``pytest11`` entry point).

An edition package proves itself sound with one command::

    pytest --samurai-edition my-edition          # an installed id
    pytest --samurai-edition path/to/manifest.toml

Without ``--samurai-edition`` the plugin adds nothing. With it, every check
of the edition's game (``samurai.kit.conformance.checks_for``) becomes one test item per edition and
supported player count, named for its rule; a failure reports the rule that
broke and the seed that reproduces it. Naming a manifest path here is the
person running pytest vouching for its plugin code, as on the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..catalog.editions import Edition, available_editions, load_edition
from ..errors import SamuraiError
from .conformance import PROTOCOL_CHECKS, Check, ConformanceFailure, checks_for

__all__ = ["pytest_addoption", "pytest_collection_modifyitems", "ConformanceItem", "RefusedEditionItem"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--samurai-edition`` (repeatable), ``--samurai-games`` and ``--samurai-seed``."""
    group = parser.getgroup("samurai", "Samurai edition conformance kit")
    group.addoption("--samurai-edition", action="append", default=[], metavar="ID_OR_MANIFEST",
                    help="run the conformance kit on this edition (an installed id or a manifest path)")
    group.addoption("--samurai-games", type=int, default=5, metavar="N",
                    help="games per check and player count (default 5)")
    group.addoption("--samurai-seed", type=int, default=0, metavar="S", help="the seed of the kit's games")


class EditionNode(pytest.Collector):
    """Groups the kit's items of one edition (made by the plugin, not collected from files)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        """Nothing to collect: the items are added directly."""
        return []


class ConformanceItem(pytest.Item):
    """One check of the kit for one edition and player count."""

    def __init__(self, *, edition: Edition, players: int, check: Check, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.edition, self.players, self.check = edition, players, check

    def runtest(self) -> None:
        """Run the check with the seed and number of games given on the command line."""
        self.check.run(self.edition, self.players, self.config.getoption("samurai_seed"),
                       self.config.getoption("samurai_games"))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """A broken rule reads as one line: the rule, what broke and the seed that reproduces it."""
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """Where the item comes from, as pytest shows it."""
        return self.path, None, f"{self.edition.reference}: {self.check.rule} ({self.players} players)"


class RefusedEditionItem(pytest.Item):
    """An edition the engine refuses to load: the kit's first rule, broken before any game."""

    def __init__(self, *, reference: str, error: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reference, self.error = reference, error

    def runtest(self) -> None:
        """Fail with the engine's reason."""
        raise ConformanceFailure(PROTOCOL_CHECKS[0].rule, f"the edition does not load: {self.error}",
                                 edition=self.reference,
                                 players=0)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The broken rule and the engine's reason, on one line."""
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """Where the item comes from, as pytest shows it."""
        return self.path, None, f"{self.reference}: {PROTOCOL_CHECKS[0].rule}"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add one item per edition, player count and check when ``--samurai-edition`` is given."""
    games, seed = config.getoption("samurai_games"), config.getoption("samurai_seed")
    if games < 1 or seed < 0:
        raise pytest.UsageError("--samurai-games must be at least 1 and --samurai-seed at least 0")
    for name in config.getoption("samurai_edition"):
        parent = EditionNode.from_parent(session, name=f"samurai-edition[{name}]")
        try:
            edition = load_edition(name)
        except SamuraiError as exc:
            if not (Path(name).is_file() or name in available_editions()):
                raise pytest.UsageError(f"--samurai-edition {name}: {exc}") from None
            # The edition exists but the engine refuses it: that is the first rule broken, not a usage error.
            items.append(RefusedEditionItem.from_parent(parent, name="manifest_and_hooks[load]", reference=name,
                                                        error=str(exc)))
            continue
        for players in sorted(edition.player_counts):
            for check in checks_for(edition):
                items.append(ConformanceItem.from_parent(parent, name=f"{check.name}[{players}p]", edition=edition,
                                                         players=players, check=check))
