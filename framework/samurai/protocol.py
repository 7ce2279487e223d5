"""The game protocol: the one seam that search, tournaments and servers speak.

It is what OpenSpiel calls a ``State``: a position that knows whose turn it
is, what may be done, how to do it, and how the game came out. Everything
above the games (the bots, ``tournament``, the web app) uses these two small
protocols and nothing else, so another game that implements them gets all of
that for free.

Actions on this seam are tuples of small ints (hashable, sortable, JSON-ready
as lists); ``GameState.describe`` turns one into a JSON-ready dict for people.

A seat's ``Knowledge`` is a value, not a window onto the real position: it
holds what that seat may know (its own secrets, the public board, what
happened in view of the table) and can draw a full position consistent with
it (``determinize``). A bot is handed the knowledge of its seat, never the
position itself, so it cannot use what its seat could not know, even by
accident.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

__all__ = ["Move", "GameState", "Knowledge", "Bot"]

Move = tuple[int, ...]
"""An action on the protocol's fast path: a tuple of small ints."""


@runtime_checkable
class GameState(Protocol):
    """A position of a game: whose turn, what is legal, applying it, and the outcome."""

    @property
    def players(self) -> int:
        """The number of seats."""

    @property
    def to_act(self) -> int | None:
        """The seat to act (0..players-1), or None once the game is over."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""

    @property
    def move_number(self) -> int:
        """How many actions have been applied since the start (a client names it to act on a position)."""

    def legal_actions(self) -> list[Move]:
        """Every legal action for the seat to act, in a stable order; empty once the game is over."""

    def check(self, action: Move) -> str | None:
        """Why ``action`` is illegal now, in words, or None when it is legal. Changes nothing."""

    def apply(self, action: Move) -> None:
        """Play a legal action for the seat to act (the fast path: check it first, or take it from
        ``legal_actions`` or ``sample_action``)."""

    def sample_action(self, rng: random.Random) -> Move:
        """A random legal action drawn from ``rng`` (a fast rollout policy); the game must not be over."""

    def policy_action(self, rng: random.Random) -> Move:
        """A quick, sensible action for the seat to act: the game's own cheap player (``sample_action`` for
        a game without one), deciding on that seat's knowledge only, ties drawn from ``rng``. Searches play
        it for every seat after a leaf, so that a position is judged after the replies it invites."""

    def returns(self) -> tuple[float, ...]:
        """Per seat once the game is over: 1 for a sole win, 1/k for each of k sharing a win, else 0."""

    def evaluate(self) -> tuple[float, ...]:
        """``returns`` once over; before that the game's cheap estimate of them (per seat, summing to 1),
        for searches that cut playouts short."""

    def copy(self) -> GameState:
        """An independent copy that continues exactly as this position would."""

    def knowledge(self, seat: int) -> Knowledge:
        """What ``seat`` knows now, as a value detached from this position."""

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A full position that agrees with everything ``seat`` knows, the rest drawn from ``rng``."""

    def ask(self, bot: Bot) -> Move:
        """The action ``bot`` picks for the seat to act, handed that seat's knowledge only.

        Equivalent to ``bot.act(self.knowledge(self.to_act))``, but a game may
        build the knowledge more cheaply for the length of one decision (the
        engine's knowledge reads the board in place and copies only what the bot
        asks for), so that simulations with fast bots stay fast.
        """

    def view(self, seat: int) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may know (what a server sends that seat)."""

    def describe(self, action: Move) -> dict[str, Any]:
        """``action`` as a JSON-ready dict in the game's own words (for people and pages)."""


@runtime_checkable
class Knowledge(Protocol):
    """What one seat knows: its own secrets, the public position and what happened in view of the table."""

    @property
    def seat(self) -> int:
        """The seat this knowledge belongs to."""

    def legal_actions(self) -> list[Move]:
        """The seat's legal actions when it is to act (a seat always knows what it may do)."""

    def sample_action(self, rng: random.Random) -> Move:
        """A random legal action for the seat, drawn from ``rng`` without listing them all (it must be to act)."""

    def determinize(self, rng: random.Random) -> GameState:
        """A full position consistent with this knowledge; everything the seat cannot know drawn from ``rng``."""


@runtime_checkable
class Bot(Protocol):
    """A player program: given its seat's knowledge, it picks an action."""

    name: str

    def act(self, knowledge: Knowledge) -> Move:
        """The action to play now (the knowledge's seat is the one to act)."""
