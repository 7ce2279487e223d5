"""What ``samurai compare`` measures in Daimyo and Shinobi (``samurai.catalog.games.GameMeasures``): the facts of a
finished game (``DaimyoWatch``), the per-game metrics over them (``GAME_METRICS``) and their panels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from samurai.catalog.games import GameMeasures
from samurai.runs.statistics import GameMetric
from samurai_plugins.daimyo.rules import EMPTY, KI, DaimyoState

if TYPE_CHECKING:
    from samurai.catalog.editions import Edition
    from samurai.protocol import GameState

__all__ = ["DaimyoWatch", "GAME_METRICS", "MEASURES"]


class DaimyoWatch:
    """The facts of one finished game for ``samurai compare``, read from its public log (flips are public
    events): who won and why, its length, and what happened to the tiles and pieces."""

    def see(self, state: GameState) -> None:
        """Nothing to note on the way: the finished position's log tells the whole game."""

    def facts(self, state: GameState) -> dict[str, Any]:
        """The finished game's facts as plain data."""
        if not isinstance(state, DaimyoState):
            raise TypeError(f"a Daimyo watch reads a DaimyoState, not {type(state).__name__}")
        events = Counter(event["event"] for event in state.log)
        ki_pairs = sum(1 for event in state.log if event["event"] == "turned_back" and len(event["squares"]) == 2
                       and all(state.known[state.square_of(name)] == KI for name in event["squares"]))
        return {"returns": list(state.returns()), "reason": state.reason, "actions": state.moves, "turns": state.turn,
                "flips": events["flip"], "heiya_removed": events["heiya_removed"], "engun": events["engun"],
                "shinobi_gained": events["shinobi_wo_tsukau"], "moves": events["move"],
                "captures": sum(1 for event in state.log if event["event"] == "move" and "captured" in event),
                "ki_pairs": ki_pairs, "tiles_left": sum(1 for face in state.tile if face != EMPTY)}


def _fact(name: str) -> Any:
    return lambda g: g[name]


def _ended(reason: str) -> Any:
    return lambda g: float(g["reason"] == reason)


GAME_METRICS = (
    GameMetric("win_rate_seat_0", "White wins (seat 0, first to play)", "rate", lambda g: float(g["returns"][0] == 1)),
    GameMetric("win_rate_seat_1", "Black wins (seat 1)", "rate", lambda g: float(g["returns"][1] == 1)),
    GameMetric("draw_rate", "drawn", "rate", lambda g: float(g["returns"][0] == 0.5)),
    GameMetric("first_player_advantage", "White's edge: its win share minus Black's", "mean",
               lambda g: g["returns"][0] - g["returns"][1]),
    GameMetric("turns", "turns per game", "mean", _fact("turns")),
    GameMetric("actions", "actions (flips and moves) per game", "mean", _fact("actions")),
    *(GameMetric(f"end_{reason}", f"ended: {words}", "rate", _ended(reason)) for reason, words in (
        ("daimyo_captured", "a Daimyo captured"), ("haisen", "Haisen"), ("yonhon_no_ki", "Yonhon no ki"),
        ("no_progress", "no progress (a draw)"), ("stalemate", "no legal turn"))),
    GameMetric("flips", "tiles flipped per game", "mean", _fact("flips")),
    GameMetric("heiya_removed", "Heiya removed per game", "mean", _fact("heiya_removed")),
    GameMetric("engun", "pieces gained by Engun per game", "mean", _fact("engun")),
    GameMetric("shinobi_gained", "Shinobi gained by Shinobi wo tsukau per game", "mean", _fact("shinobi_gained")),
    GameMetric("ki_pairs", "turns ending with two Ki face up per game", "mean", _fact("ki_pairs")),
    GameMetric("move_turns", "turns spent moving a piece per game", "mean", _fact("moves")),
    GameMetric("captures", "pieces captured per game", "mean", _fact("captures")),
    GameMetric("tiles_left", "tiles still on the board at the end", "mean", _fact("tiles_left")),
)
"""The per-game metrics of a comparison of two Daimyo editions (``MEASURES``)."""


def _metrics(editions: Sequence[Edition], players: int, options: Sequence[Mapping[str, Any]], a: Sequence[Any],
             b: Sequence[Any]) -> list[Any]:
    from samurai.runs.statistics import average_metrics

    return average_metrics(GAME_METRICS, a, b)


MEASURES = GameMeasures(
    watch=lambda edition, players: DaimyoWatch(), metrics=_metrics,
    panels=(("Who wins (share of games; White's edge)", ("win_rate_seat_", "draw_rate", "first_player_advantage")),
            ("How games end (share of games)", ("end_",)),
            ("Game length (per game)", ("turns", "actions", "move_turns")),
            ("Tiles and pieces (per game)", ("flips", "heiya_removed", "ki_pairs", "engun", "shinobi_gained",
                                             "captures", "tiles_left"))))
"""What ``samurai compare`` measures in Daimyo and Shinobi: who wins (White moves first), how games end (each
ending rule of docs/rules/daimyo.md#end), their length, and what happens to the tiles and pieces."""

