"""Samurai as an OpenSpiel Python game (optional extra ``openspiel``: ``pip install "samurai-engine[openspiel]"``).

::

    import pyspiel
    import samurai.openspiel_game  # registers "python_samurai"

    game = pyspiel.load_game("python_samurai", {"edition": "ffg2015", "players": 3, "seed": 7})
    state = game.new_initial_state()

The game runs through the engine's game protocol (``samurai.knizia.position``):
actions are the fixed numbering of ``samurai.knizia.action_space``, observations
come from a seat's view (``samurai.pettingzoo_env.observation_vector``), and
returns are the protocol's (1 for a sole win, 1/k each for a win shared by k),
and ``resample_from_infostate`` (what OpenSpiel's IS-MCTS stands on) is the
engine's ``determinize``.
The engine's own randomness (refills, random setups) is drawn from the
``seed`` parameter, so the game is OpenSpiel's "sampled stochastic" kind: the
same seed and actions always give the same game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from .knizia import engine
from .knizia.action_space import ActionSpace
from .knizia.game import action_of
from .knizia.position import HexGameState, start
from .knizia.rules import Rules
from .pettingzoo_env import observation_size, observation_vector

__all__ = ["SHORT_NAME", "SamuraiGame", "SamuraiState", "SamuraiObserver"]

SHORT_NAME = "python_samurai"
"""The name to ``pyspiel.load_game``."""

MAX_GAME_LENGTH = 1_000
"""More actions than any game takes (setup choices and figures, then at most two per tile)."""

_DEFAULTS: dict[str, Any] = {"edition": "ffg2015", "players": 2, "seed": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Samurai (Reiner Knizia) through the samurai engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class SamuraiGame(pyspiel.Game):  # type: ignore[misc]
    """An edition, a player count and a seed, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        self.edition_name = str(given["edition"])
        self.seed = int(given["seed"])
        players = int(given["players"])
        self.start = start(self.edition_name, players, self.seed)
        self.rules: Rules = self.start.rules
        self.space = ActionSpace(self.rules)
        info = pyspiel.GameInfo(num_distinct_actions=self.space.size, max_chance_outcomes=0, num_players=players,
                                min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, given)

    def new_initial_state(self) -> SamuraiState:
        """The position after the automatic setup, before the first choice."""
        return SamuraiState(self, self.start.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SamuraiObserver:
        """An observer of a seat's view (the same for every observation type: a view is all a seat sees)."""
        return SamuraiObserver(self.rules, params)


class SamuraiState(pyspiel.State):  # type: ignore[misc]
    """A position of Samurai on OpenSpiel's side, over the protocol's ``HexGameState``."""

    def __init__(self, game: SamuraiGame, position: HexGameState) -> None:
        super().__init__(game)
        self.position = position
        self.space = game.space
        self.seen: list[tuple[int, tuple[int, ...]]] = []
        """Every action so far with the seat that made it (what each seat saw is cut from it)."""

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        seat = self.position.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        """The numbers of the seat's legal actions, ascending."""
        if player != self.position.to_act:
            return []
        return sorted(self.space.index(a) for a in self.position.legal_actions())

    def _apply_action(self, action: int) -> None:
        move = self.space.action(action)
        reason = self.position.check(move)
        if reason is not None:
            raise pyspiel.SpielError(f"action {action} is illegal: {reason}")
        seat = self.position.to_act
        assert seat is not None  # OpenSpiel applies actions only while the game goes on
        self.position.apply(move)
        self.seen.append((seat, move))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_of(self.position.rules, self.space.action(action)))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SamuraiState:
        """A state that agrees with everything ``player_id`` knows, the rest drawn at random: the engine's
        ``determinize`` (other seats' hands and stacks, every stack's order, the generator), seeded from
        ``probability_sampler``."""
        rng = random.Random(int(probability_sampler() * 2**63))
        sampled = SamuraiState(self.get_game(), self.position.determinize(player_id, rng))
        sampled.seen = list(self.seen)
        return sampled

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.position.is_over

    def returns(self) -> list[float]:
        """The protocol's returns: 1 for a sole win, 1/k each for a shared win, else 0."""
        return list(self.position.returns())

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` has seen: every action in order (others' secret hand choices hidden) and its tiles."""
        seat = self.current_player() if player is None else player
        steps = [f"{actor}:choose" if actor != seat and move[0] == engine.CHOOSE else f"{actor}:{list(move)}"
                 for actor, move in self.seen]
        view = self.position.view(seat)
        return f"seat {seat} hand {view['hand']} unchosen {view.get('unchosen', [])} | " + " ".join(steps)

    def observation_string(self, player: int | None = None) -> str:
        """The seat's view as JSON."""
        seat = self.current_player() if player is None else player
        return json.dumps(self.position.view(seat), sort_keys=True)

    def __str__(self) -> str:
        return f"Samurai move {self.position.move_number}, seat to act {self.position.to_act}"


class SamuraiObserver:
    """OpenSpiel's observer interface over a seat's view: a flat tensor and a JSON string."""

    def __init__(self, rules: Rules, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        self.rules = rules
        self.tensor = np.zeros(observation_size(rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SamuraiState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        self.tensor[:] = observation_vector(self.rules, state.position.view(player))

    def string_from(self, state: SamuraiState, player: int) -> str:
        """``player``'s view of ``state`` as JSON."""
        return json.dumps(state.position.view(player), sort_keys=True)


pyspiel.register_game(GAME_TYPE, SamuraiGame)
