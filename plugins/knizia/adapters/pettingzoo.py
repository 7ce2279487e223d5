"""Knizia's game as a PettingZoo AEC environment: ``samurai.interop.pettingzoo.GameEnv`` on an edition of this game,
with the engine's rules, action space and state at hand (optional extra ``rl``).

::

    from samurai_plugins.knizia.adapters.pettingzoo import SamuraiEnv

    env = SamuraiEnv("ffg2015", players=2)
    env.reset(seed=1)

It plays exactly as ``GameEnv("ffg2015", players=2)`` does (a test plays both side by side); its ``info`` at the
end also names the winners.
"""

from __future__ import annotations

from typing import Any

from samurai.catalog.editions import Edition
from samurai.interop.pettingzoo import GameEnv
from samurai.protocol import GameState
from samurai_plugins.knizia.adapters.encoding import KniziaEncoding
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.core.state import State
from samurai_plugins.knizia.play.game import edition_of

__all__ = ["SamuraiEnv"]


class SamuraiEnv(GameEnv):
    """An edition of Knizia's game as a PettingZoo AEC environment (``GameEnv``; see the module's docstring)."""

    def __init__(self, edition: str | Edition = "ffg2015", players: int = 2, *,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__(edition_of(edition), players, options=options)
        encoding = self.encoding
        assert isinstance(encoding, KniziaEncoding)  # Knizia's game supplies its own (GAME.faces.interop)
        self.rules = encoding.rules
        self.space = encoding.space

    @property
    def _state(self) -> State:
        """The engine's state of the game in play."""
        position = self._started()
        assert isinstance(position, HexGameState)  # an edition of Knizia's game starts one
        return position.state

    def final_info(self, position: GameState) -> dict[str, Any]:
        """The winners and why the game ended, as the engine's result says."""
        assert isinstance(position, HexGameState)
        result = position.state.result
        return {} if result is None else {"winners": list(result.winners), "reason": result.reason}
