"""The conformance kit for any game (issue 12 item 4): its game-agnostic checks run through the protocol,
a game's own checks come from its definition (Knizia's conservation, Daimyo's 38 tiles)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import attrs
import pytest

from samurai.catalog.editions import Edition, load_edition
from samurai.kit.conformance import PROTOCOL_CHECKS, ConformanceFailure, checks_for, run_checks
from samurai_plugins import daimyo
from samurai_plugins.knizia.adapters.conformance import CHECKS

from helpers import ROOT

DAIMYO_EDITIONS = ("daimyo", "daimyo-shinobi", "daimyo-nobori")


def test_knizias_checks_come_from_its_game_definition_unchanged():
    assert checks_for(load_edition("ffg2015")) == CHECKS


def test_daimyo_runs_the_protocol_checks_and_its_own_tile_count():
    names = [check.name for check in checks_for(load_edition("daimyo"))]
    assert names == ["tiles_conserved", *(check.name for check in PROTOCOL_CHECKS)]


@pytest.mark.parametrize("edition", DAIMYO_EDITIONS)
def test_the_daimyo_editions_pass_the_kit(edition: str):
    assert run_checks(edition, seed=3, games=2) == []


def edition_playing(state_class: type[daimyo.DaimyoState]) -> Edition:
    """The daimyo edition, its game starting positions of ``state_class`` (broken on purpose)."""
    base = load_edition("daimyo")

    def start(edition: Edition, players: int, seed: int, options: Any) -> daimyo.DaimyoState:
        state = daimyo.GAME.start(edition, players, seed, options)
        broken = state_class.__new__(state_class)
        for name in daimyo.DaimyoState.__slots__:
            setattr(broken, name, getattr(state, name))
        return broken

    return Edition(base.manifest, base.plugin_manager, base.board, game=attrs.evolve(daimyo.GAME, start=start))


class Peeking(daimyo.DaimyoState):
    """Its view names the face of every tile, seen or not."""

    __slots__ = ()

    def view(self, seat: int) -> dict[str, Any]:
        view = super().view(seat)
        for entry, face in zip(view["board"], self.tile, strict=True):
            if face != -1 and "piece" not in entry:
                entry["truth"] = daimyo.FACES[face]
        return view

    def determinize(self, seat: int, rng: Any) -> daimyo.DaimyoState:
        return _as(Peeking, super().determinize(seat, rng))


class PeekingPlayer(daimyo.DaimyoState):
    """Its quick player flips a face-down Ki first when it can: it knows what is under the tiles."""

    __slots__ = ()

    def policy_action(self, rng: Any) -> tuple[int, ...]:
        for action in self.legal_actions():
            if action[0] == daimyo.FLIP and self.tile[action[1]] == daimyo.KI:
                return action
        return super().policy_action(rng)

    def determinize(self, seat: int, rng: Any) -> daimyo.DaimyoState:
        return _as(PeekingPlayer, super().determinize(seat, rng))


class Miscounting(daimyo.DaimyoState):
    """Its view forgets the Heiya removed."""

    __slots__ = ()

    def view(self, seat: int) -> dict[str, Any]:
        view = super().view(seat)
        view["tiles"] = {**view["tiles"], "heiya_removed": 0}
        return view


def _as(cls: type[daimyo.DaimyoState], state: daimyo.DaimyoState) -> daimyo.DaimyoState:
    other = cls.__new__(cls)
    for name in daimyo.DaimyoState.__slots__:
        setattr(other, name, getattr(state, name))
    return other


def test_a_view_that_shows_unseen_tiles_breaks_views_hide():
    check = next(c for c in PROTOCOL_CHECKS if c.name == "views_hide")
    with pytest.raises(ConformanceFailure, match=r"views hide what they must: after 0 random actions, a position "
                                                 r"drawn from seat 0's knowledge shows it another view.*seed"):
        check.run(edition_playing(Peeking), 2, 1, 1)


def test_a_quick_player_that_reads_unseen_tiles_breaks_views_hide():
    check = next(c for c in PROTOCOL_CHECKS if c.name == "views_hide")
    with pytest.raises(ConformanceFailure, match=r"views hide what they must: after 0 random actions, the quick "
                                                 r"player \(policy_action\) chose differently.*seat 0.*seed"):
        check.run(edition_playing(PeekingPlayer), 2, 1, 1)


def test_tiles_that_do_not_add_up_to_38_break_the_daimyo_check():
    check = checks_for(load_edition("daimyo"))[0]
    with pytest.raises(ConformanceFailure, match=r"tiles are conserved.*Heiya removed.*not 38"):
        check.run(edition_playing(Miscounting), 2, 1, 3)


def test_pytest_samurai_edition_runs_the_kit_on_the_daimyo_editions(tmp_path):
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--samurai-games", "1", str(tmp_path)]
    for edition in DAIMYO_EDITIONS:
        args += ["--samurai-edition", edition]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "18 passed" in done.stdout  # 6 checks x 3 editions (2 players each)


def test_the_kit_extra_installs_everything_the_kit_imports():
    """``pip install "samurai-engine[kit]"`` is enough for ``pytest --samurai-edition``: every package the kit imports
    is the standard library's, the engine's own, a core dependency or in the ``kit`` extra."""
    import ast
    import re
    import sys
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    name = re.compile(r"[A-Za-z0-9_.-]+")
    offered = {name.match(r).group(0).lower().replace("-", "_")
               for r in [*project["dependencies"], *project["optional-dependencies"]["kit"]]}
    assert "pytest" in offered
    for module in (root / "framework" / "samurai" / "kit").glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            for imported in names:
                top = imported.split(".")[0]
                if top in sys.stdlib_module_names or top in ("samurai", "samurai_plugins"):
                    continue
                assert top.lower() in offered, f"{module.name} imports {top}, which the kit extra does not install"
