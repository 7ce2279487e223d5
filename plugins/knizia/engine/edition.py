"""Editions of Knizia's game: the framework's ``Edition`` with the hex map and the compiled rules.

``open_edition`` is the game definition's ``open_edition``: it builds a ``KniziaEdition`` and compiles its rules
for every player count the manifest lists, so a manifest whose pieces do not fit its map is refused when it
loads, naming the manifest's field, not mid-game. ``resolve_map`` is how the game reads a manifest's ``map``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from samurai.catalog.editions import Edition, resolve_board
from samurai.errors import DataError
from samurai.files.reading import is_file, key_line
from samurai_plugins.knizia.core.maps import GameMap, load_map
from samurai_plugins.knizia.editions.rules import Rules, compile_rules
from samurai_plugins.knizia.engine.consistency import check_template

if TYPE_CHECKING:
    import pluggy

    from samurai.catalog.games import GameDefinition
    from samurai_plugins.knizia.editions.manifest_keys import KniziaManifest

__all__ = ["KniziaEdition", "open_edition", "resolve_map", "knizia_edition"]


class KniziaEdition(Edition):
    """An edition of Knizia's game: ``rules(players, options, map)`` compiles (and caches) the rules for a game;
    many games share one ``Rules``. Its board is its hex map (``map``)."""

    manifest: KniziaManifest

    def __init__(self, manifest: KniziaManifest, plugin_manager: pluggy.PluginManager, game_map: GameMap, *,
                 reference: str | None = None, game: GameDefinition) -> None:
        super().__init__(manifest, plugin_manager, game_map, reference=reference, game=game)
        self._rules: dict[tuple[Any, ...], Rules] = {}
        self._maps: dict[str, GameMap] = {}

    @property
    def map(self) -> GameMap:
        """The edition's hex map (its board)."""
        board: GameMap = self.board
        return board

    def rules(self, players: int, options: Mapping[str, Any] | None = None, game_map: GameMap | None = None) -> Rules:
        """The compiled rules for ``players`` with ``options`` (checked against the manifest)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise DataError(f"players must be a whole number, not {players!r}", source="players")
        values = self.manifest.resolve_options(options)
        chosen_map = game_map or self.map
        key = (players, tuple(sorted(values.items())), id(chosen_map))
        if key not in self._rules:
            rules = compile_rules(self.manifest, self.plugin_manager.hook, chosen_map, players, values)
            rules.reference = self.reference
            check_template(rules)
            self._rules[key] = rules
        return self._rules[key]

    def map_named(self, name: str) -> GameMap:
        """A map by bundled name or path (see ``resolve_map``), loaded once per edition."""
        if name not in self._maps:
            self._maps[name] = resolve_map(name)
        return self._maps[name]


def knizia_edition(edition: Edition) -> KniziaEdition:
    """``edition`` itself when it is an edition of Knizia's game; otherwise a ``DataError`` saying so in one line."""
    if not isinstance(edition, KniziaEdition):
        raise DataError(f"edition {edition.id!r} plays {edition.manifest.game!r}, not Knizia's game, which this needs "
                        f"(a game of any edition starts with Edition.start)", source=edition.manifest.path, key="game")
    return edition


def open_edition(game: GameDefinition, manifest: Any, plugin_manager: pluggy.PluginManager, board: Any,
                 text: str) -> KniziaEdition:
    """A loaded manifest of Knizia's game as its edition, its rules compiled for each player count it lists:
    a piece the map lacks is reported on the manifest's ``players.N.pieces`` field."""
    edition = KniziaEdition(manifest, plugin_manager, board, reference=manifest.id, game=game)
    for players in manifest.players:
        try:
            edition.rules(players)  # refuse a manifest whose player counts do not fit its map now, not mid-game
        except DataError as exc:
            if exc.key != "pieces" or exc.source != board.source:
                raise
            # The manifest asked for the piece the map lacks: name the manifest's field, not the map.
            raise DataError(exc.message, source=manifest.path, line=key_line(text, "pieces"),
                            key=f"players.{players}.pieces") from None
    return edition


def resolve_map(name: str, *, relative_to: str | None = None) -> GameMap:
    """Load a map by bundled name (``"japan"``) or by path.

    With ``relative_to`` (a manifest), a path is relative to that file's folder
    and must stay inside it; without, it is the caller's own path.
    """
    if name.endswith(".toml") and not relative_to:
        path = Path(name)
        if not is_file(path):
            raise DataError(f"map file {name} not found", source="map", key="map")
        return load_map(path.absolute())
    board = resolve_board(name, relative_to or "map")
    return load_map(board.absolute() if isinstance(board, Path) else board)
