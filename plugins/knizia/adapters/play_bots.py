"""Built-in bots playing a game of Knizia's through its ``Game`` (``play_bots``), so its history can be saved.

The bots themselves (``samurai.search.bots``: names, levels, ``make_bot``) play any game on the protocol; this is
the Knizia-only way of letting them play a ``samurai_plugins.knizia.play.game.Game`` in place (``samurai.play_bots``).
"""

from __future__ import annotations

from collections.abc import Sequence

from samurai.errors import DataError
from samurai_plugins.knizia.adapters.game_state import decide
from samurai_plugins.knizia.adapters.search_bots import BOT_NAMES, make_bot  # this game's bots: greedy too
from samurai_plugins.knizia.play.game import Game, check_seed
from samurai_plugins.knizia.play.knowledge import LeftGame

__all__ = ["play_bots"]


def play_bots(game: Game, bots: Sequence[str], *, seed: int = 0, actions: int | None = None) -> None:
    """Let built-in bots play ``game`` through ``Game.apply`` (so its history can be saved).

    Seat ``k`` gets ``bots[k % len(bots)]``, seeded from ``seed``; play stops
    when the game is over or after ``actions`` actions.
    """
    if not isinstance(game, Game):
        raise TypeError(f"play_bots plays a Game, not {type(game).__name__}")
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise DataError(f"bots must be a non-empty list of bot names ({', '.join(BOT_NAMES)}), not {bots!r:.80}",
                        source="bots")
    for name in bots:
        try:
            make_bot(name, 0)
        except (TypeError, ValueError) as refused:
            raise DataError(str(refused), source="bots") from None
    check_seed(seed)
    if actions is not None and (isinstance(actions, bool) or not isinstance(actions, int) or actions < 0):
        raise DataError(f"actions must be a whole number from 0 or None, not {actions!r:.40}", source="actions")
    players = [make_bot(bots[seat % len(bots)], seed * 1_000_003 + seat) for seat in range(game.players)]
    left_game = LeftGame()
    played = 0
    while not game.is_over and (actions is None or played < actions):
        seat = game.state.current
        action = decide(players[seat], game.rules, game.state, seat, left_game, len(game.history))
        game.apply(game.to_action(action))
        played += 1
