"""Daimyo and Shinobi on the framework (``samurai.catalog.games``): the game definition a manifest's
``game = "daimyo"`` names, and the ``samurai_games`` hook that contributes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from samurai.catalog.games import GameDefinition, GameEditions, GameFaces
from samurai.errors import DataError
from samurai.files.reading import key_line, table_line
from samurai.hooks.specs import hookimpl
from samurai.seeds import check_seed
from samurai_plugins.daimyo.board import load_board
from samurai_plugins.daimyo.checks import checks
from samurai_plugins.daimyo.measures import MEASURES
from samurai_plugins.daimyo.render import draw_daimyo_view
from samurai_plugins.daimyo.rules import (
    DEFAULT_OPTIONS,
    START_KEYS,
    Battlefield,
    DaimyoState,
    check_options,
    new_state,
    tell,
)

if TYPE_CHECKING:
    from samurai.catalog.editions import Edition
    from samurai.protocol import GameState, Move

__all__ = ["GAME", "samurai_games"]


def _check_manifest(manifest: Any, data: Mapping[str, Any], text: str) -> None:
    """The edition's options must be rulings this module plays (a misspelt one would be ignored), each default
    and choice a value it can play."""
    for name, spec in manifest.options.items():
        if name not in DEFAULT_OPTIONS or name in START_KEYS:
            known = ", ".join(n for n in DEFAULT_OPTIONS if n not in START_KEYS)
            raise DataError(f"option {name!r} is not a ruling of this game (rulings: {known}); start squares "
                            f"are the board's", source=manifest.path, line=key_line(text, name), key=f"options.{name}")
        for value in (spec.default, *spec.choices):
            try:
                check_options({**DEFAULT_OPTIONS, name: value})
            except DataError as error:
                raise DataError(error.message, source=manifest.path, line=table_line(text, f"options.{name}"),
                                key=f"options.{name}") from None


def _start(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None) -> DaimyoState:
    """A new game of ``edition``: the board's start squares and the edition's options (rulings) resolved."""
    if players != 2 or isinstance(players, bool):
        raise DataError(f"Daimyo and Shinobi is a game for 2 players, not {players!r}", source="players")
    check_seed(seed)  # the range every record and the engine accept
    board: Battlefield = edition.board
    return new_state(seed, {**board.start, **edition.manifest.resolve_options(options)}, board)



def _web(manifests: Sequence[str]) -> Any:
    # The web face is imported when a server asks for it: it needs the web layer, which playing does not.
    from samurai_plugins.daimyo.web import DaimyoDefinition

    return DaimyoDefinition(manifests)


def _interop(edition: Edition, players: int, options: Mapping[str, Any] | None) -> Any:
    # numpy comes with the interop extras only: the encoding is imported when an environment asks for it.
    from samurai_plugins.daimyo.observation import encoding

    return encoding(edition, players, options)


def _render(state: GameState, view: Mapping[str, Any]) -> str:
    return draw_daimyo_view(view)


def _render_moves(state: GameState, view: Mapping[str, Any], played: Move, preferred: Move | None) -> str:
    """The move played's squares marked (the renderer has one kind of mark: the preferred move is told in words)."""
    if not isinstance(state, DaimyoState):
        raise TypeError(f"Daimyo draws a DaimyoState, not {type(state).__name__}")
    return draw_daimyo_view(view, marks=[state.square_name(square) for square in played[1:]])


def _view_of_version_0_1(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """A view as version 0.1 showed it (its records' checks were taken over these): no board size, the Heiya
    removed counted as ``removed`` and the Engun tiles as ``gained``."""
    earlier = {key: value for key, value in view.items() if key != "size"}
    tiles = view["tiles"]
    earlier["tiles"] = {"face_down": tiles["face_down"], "face_up": tiles["face_up"],
                        "removed": tiles["heiya_removed"], "gained": tiles["engun_tiles"]}
    return earlier


GAME = GameDefinition(
    name="daimyo",
    title="Samurai: Daimyo and Shinobi",
    load_board=load_board,
    player_counts=lambda edition: (2,),
    start=_start,
    render=_render,
    checks=checks,
    earlier_views=(_view_of_version_0_1,),
    editions=GameEditions(check_manifest=_check_manifest),
    faces=GameFaces(tell=tell, render_moves=_render_moves, web=_web, interop=_interop, interop_edition="daimyo"),
    measures=MEASURES,
)
"""This game as the framework sees it (``samurai.catalog.games``): what ``game = "daimyo"`` in a manifest names."""


@hookimpl
def samurai_games() -> list[GameDefinition]:
    """Contribute the game ``"daimyo"``."""
    return [GAME]

