"""Every installed game that supplies an encoding (``GameDefinition.faces.interop``) as an OpenSpiel Python game
(optional extra ``openspiel``: ``pip install "samurai-engine[openspiel]"``).

::

    import pyspiel
    import samurai.interop.openspiel  # registers "knizia" and "daimyo"

    game = pyspiel.load_game("knizia", {"edition": "ffg2015", "players": 3, "seed": 7})
    state = game.new_initial_state()

Each game is registered under its one name (a manifest's ``game``), with the parameters ``edition`` (default: the
game's ``GameDefinition.faces.interop_edition``), ``players`` and ``seed``. The game runs through the game protocol:
actions are the game's fixed numbering (``GameEncoding``), observations come from a seat's view
(``GameEncoding.observation``), returns are the protocol's (1 for a sole win, 1/k each for a win shared by k),
and ``resample_from_infostate`` (what OpenSpiel's IS-MCTS stands on) is the protocol's ``determinize``. The
game's own randomness is drawn from the ``seed`` parameter, so it is OpenSpiel's "sampled stochastic" kind: the
same seed and actions always give the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..catalog.editions import installed_plugins, load_edition, make_plugin_manager
from ..catalog.games import GameDefinition, games_of
from ..protocol import GameState, Move
from .encoding import GameEncoding, information_state, legal_indices
from .pettingzoo import encoding_of

__all__ = ["ProtocolGame", "ProtocolState", "ProtocolObserver", "game_type", "register", "REGISTERED"]

REGISTERED: dict[str, GameDefinition] = {}
"""The games registered with OpenSpiel by this module, by short name (each game's name)."""


def game_type(game: GameDefinition, players: tuple[int, ...]) -> Any:
    """OpenSpiel's ``GameType`` of ``game`` for the player counts of its default edition."""
    return pyspiel.GameType(
        short_name=game.name,
        long_name=f"{game.title} through the samurai engine",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"edition": game.faces.interop_edition, "players": min(players), "seed": 0},
    )


class ProtocolGame(pyspiel.Game):  # type: ignore[misc]
    """An edition, a player count and a seed of a game, as an OpenSpiel game."""

    KIND: Any = None
    """The ``GameType`` this class was registered with (``register`` makes one subclass per game)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        kind = self.KIND
        if kind is None:
            raise TypeError("ProtocolGame is made through pyspiel.load_game, after samurai.interop.openspiel.register")
        given = {**kind.parameter_specification, **(params or {})}
        self.edition_name = str(given["edition"])
        self.seed = int(given["seed"])
        players = int(given["players"])
        self.edition = load_edition(self.edition_name)
        if self.edition.game.name != kind.short_name:
            raise pyspiel.SpielError(f"edition {self.edition_name!r} plays {self.edition.game.name!r}, "
                                     f"not {kind.short_name!r}")
        self.encoding: GameEncoding = encoding_of(self.edition, players)
        self.start: GameState = self.edition.start(players, self.seed, None)
        info = pyspiel.GameInfo(num_distinct_actions=self.encoding.num_distinct_actions, max_chance_outcomes=0,
                                num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                max_game_length=self.encoding.max_game_length)
        super().__init__(kind, info, given)

    def new_initial_state(self) -> ProtocolState:
        """The game's first position (after any automatic setup), before the first choice."""
        return ProtocolState(self, self.start.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ProtocolObserver:
        """An observer of a seat's view (the same for every observation type: a view is all a seat sees)."""
        return ProtocolObserver(self.encoding, params)


class ProtocolState(pyspiel.State):  # type: ignore[misc]
    """A position on OpenSpiel's side, over the protocol's ``GameState``."""

    def __init__(self, game: ProtocolGame, position: GameState) -> None:
        super().__init__(game)
        self.position = position
        self.encoding = game.encoding
        self.seen: list[tuple[int, Move]] = []
        """Every action so far with the seat that made it (what each seat saw is cut from it)."""

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        seat = self.position.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        """The numbers of the seat's legal actions, ascending."""
        return legal_indices(self.encoding, self.position, player)

    def _apply_action(self, action: int) -> None:
        move = self.encoding.action(action)
        reason = self.position.check(move)
        if reason is not None:
            raise pyspiel.SpielError(f"action {action} is illegal: {reason}")
        seat = self.position.to_act
        assert seat is not None  # OpenSpiel applies actions only while the game goes on
        self.position.apply(move)
        self.seen.append((seat, move))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.encoding.action_string(self.encoding.action(action))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ProtocolState:
        """A state that agrees with everything ``player_id`` knows, the rest drawn at random: the protocol's
        ``determinize``, seeded from ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**63))
        sampled = ProtocolState(self.get_game(), self.position.determinize(player_id, rng))
        sampled.seen = list(self.seen)
        return sampled

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.position.is_over

    def returns(self) -> list[float]:
        """The protocol's returns: 1 for a sole win, 1/k each for a shared win, else 0."""
        return list(self.position.returns())

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` has seen: its secrets now and every action in order as it saw it
        (``samurai.interop.encoding.information_state``)."""
        seat = self.current_player() if player is None else player
        return information_state(self.encoding, seat, self.position.view(seat), self.seen)

    def observation_string(self, player: int | None = None) -> str:
        """The seat's view as JSON."""
        seat = self.current_player() if player is None else player
        return json.dumps(self.position.view(seat), sort_keys=True)

    def __str__(self) -> str:
        return f"move {self.position.move_number}, seat to act {self.position.to_act}"


class ProtocolObserver:
    """OpenSpiel's observer interface over a seat's view: the game's tensor and a JSON string."""

    def __init__(self, encoding: GameEncoding, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ProtocolState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        self.tensor[...] = self.encoding.observation(state.position.view(player))

    def string_from(self, state: ProtocolState, player: int) -> str:
        """``player``'s view of ``state`` as JSON."""
        return json.dumps(state.position.view(player), sort_keys=True)


def register(game: GameDefinition) -> None:
    """Register ``game`` with OpenSpiel under its name (``game.faces.interop`` must be set); again: nothing more."""
    if game.name in REGISTERED:
        return
    if game.faces.interop is None or not game.faces.interop_edition:
        raise ValueError(f"game {game.name!r} supplies no encoding (GameFaces.interop and interop_edition)")
    kind = game_type(game, load_edition(game.faces.interop_edition).player_counts)
    # OpenSpiel makes a game by calling the class registered with its type; one class per game holds that type.
    named = type(f"{game.name.title()}Game", (ProtocolGame,), {"KIND": kind, "__doc__": f"{game.title}."})
    pyspiel.register_game(kind, named)
    REGISTERED[game.name] = game


def _register_installed_games() -> None:
    """Register every installed game that supplies an encoding."""
    games = games_of(make_plugin_manager(tuple(installed_plugins()), source="installed plugins"))
    for game in games.values():
        if game.faces.interop is not None and game.faces.interop_edition:
            register(game)


_register_installed_games()
