"""Bots: ``random``, ``greedy`` and ``mcts`` (levels ``easy``, ``medium``, ``hard``). A bot is handed
its seat's knowledge, nothing more.

A bot is any object with ``name`` and ``act(knowledge) -> action tuple``
(``samurai.protocol.Bot``; engine actions, see ``samurai.knizia.engine``). The
knowledge (``samurai.knizia.knowledge.SeatKnowledge``) holds what the seat may know
and no path to the real game. ``make_bot(name, seed)`` builds the built-in
ones, each with its own seeded generator so a game's randomness and the bots'
never mix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from ..errors import DataError
from ..knizia.greedy import GreedyPlayer
from ..knizia.knowledge import SeatBot, SeatKnowledge
from .mcts import MCTSBot

__all__ = ["parse_bots", "Bot", "Observation", "RandomBot", "GreedyBot", "MCTSBot", "BOTS", "Search", "SEARCHES",
           "REPLY_WORLDS", "LEVELS", "BOT_NAMES", "make_bot"]

Bot = SeatBot
"""Anything that picks an action for its seat from the seat's knowledge (``samurai.knizia.knowledge.SeatBot``)."""

Observation = SeatKnowledge
"""What a bot is handed: its seat's knowledge (``samurai.knizia.knowledge.SeatKnowledge``), never the game itself."""


class RandomBot:
    """Plays a random legal action: a random playable tile, then a random target."""

    name = "random"
    trusted = True
    """Its actions are legal by construction; simulations need not check them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @property
    def samples_from(self) -> random.Random:
        """Its action is exactly ``sample_action`` drawn from this generator (see
        ``samurai.knizia.knowledge.decide``)."""
        return self.rng

    def act(self, knowledge: SeatKnowledge) -> tuple[int, ...]:
        """A random legal action (``SeatKnowledge.sample_action``)."""
        return knowledge.sample_action(self.rng)


class GreedyBot(GreedyPlayer):
    """Plays the tile and hex worth most right now; ends the turn when nothing gains (``samurai.knizia.greedy``).

    It keeps its strongest tiles as a starting hand and places figures at random.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
"""The built-in bots without a budget, by name (``BOT_NAMES`` lists every name ``make_bot`` takes)."""

REPLY_WORLDS = 16
"""The ``worlds`` of ``mcts-replies`` bots: the root's actions are compared on 16 drawn positions
(``samurai.search.mcts``)."""


@attrs.frozen
class Search:
    """One kind of MCTS bot: the ``MCTSBot`` options its name prefix stands for."""

    playout: int | None = 0
    replies: bool = False
    worlds: int | None = None


SEARCHES: dict[str, Search] = {
    "mcts:": Search(),
    "mcts-rollouts:": Search(playout=None),
    "mcts-replies:": Search(replies=True, worlds=REPLY_WORLDS),
}
"""The kinds of MCTS bot by name prefix: the estimate at the leaf, random playouts to the end, or the
estimate after the game's quick player has answered the leaf."""

LEVELS: dict[str, str] = {"easy": "mcts:50", "medium": "mcts-replies:800", "hard": "mcts-replies:12000"}
"""The levels, each the name of the MCTS bot it plays as: about 0.002 s, 0.25 s and 1 to 2 s a decision on
one core (more with more players; README "Bots"). Counts of simulations, not seconds, so that a level plays
the same game on any machine.

``easy`` is far below the 0.05 s first planned for it because without replies 800 simulations (0.05 s)
played as well as 3,500; with fewer simulations than a turn has actions the search scores only a random part
of them, which puts it between ``greedy`` and ``medium`` (the figures: README "Bots" and "Measured
strength")."""

BOT_NAMES = ("random", "greedy", "easy", "medium", "hard", "mcts:SIMULATIONS", "mcts:SECONDSs",
             "mcts-replies:SIMULATIONS", "mcts-replies:SECONDSs", "mcts-rollouts:SIMULATIONS",
             "mcts-rollouts:SECONDSs")
"""The bot names ``make_bot`` understands, as shown in help and error messages."""


def make_bot(name: str, seed: int) -> Bot:
    """A built-in bot by name, with its own generator seeded by ``seed``.

    Names: ``random``, ``greedy``, the MCTS levels ``easy``, ``medium``, ``hard``
    (``LEVELS``), ``mcts:N`` (N simulations per decision: deterministic for the
    seed) and ``mcts:Xs`` (X seconds per decision: depends on the machine);
    ``mcts-replies:N`` and ``mcts-replies:Xs`` score each leaf after the game's
    quick player has answered it, on ``REPLY_WORLDS`` common drawn positions;
    ``mcts-rollouts:N`` and ``mcts-rollouts:Xs`` are the plain search that
    plays every simulation out to the end at random instead of taking the
    game's estimate at the leaf (``samurai.search.mcts``).
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot is named by a string, not {name!r}")
    if name in BOTS:
        return BOTS[name](seed)
    spec, label = (LEVELS[name], name) if name in LEVELS else (name, None)
    for prefix, search in SEARCHES.items():
        if spec.startswith(prefix):
            return _mcts(spec, spec[len(prefix):], search, seed, label)
    raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)}")


def _mcts(name: str, budget: str, search: Search, seed: int, label: str | None) -> MCTSBot:
    """An MCTS bot for ``PREFIX:BUDGET`` (``SEARCHES``), called ``label`` or its name; one clear error for a bad
    budget."""
    seconds: float | None = None
    simulations: int | None = None
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
        elif not budget.isascii() or not budget.isdigit() or not 0 < int(budget) <= 10_000_000:
            raise ValueError
        else:
            simulations = int(budget)
    except ValueError:
        prefix = name[:len(name) - len(budget)]
        raise ValueError(f"bot {name!r}: the MCTS budget is {prefix}N simulations (1 to 10000000) or "
                         f"{prefix}Xs seconds (more than 0, at most 3600), e.g. {prefix}2000 or {prefix}1.5s") from None
    return MCTSBot(seed, simulations=simulations, seconds=seconds, playout=search.playout, replies=search.replies,
                   worlds=search.worlds, name=label or name)


def parse_bots(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"random,greedy,hard"`` as a tuple of known bot names (seats cycle through it; see ``bots.make_bot``)."""
    names = tuple(n.strip() if isinstance(n, str) else n for n in (text.split(",") if isinstance(text, str) else text))
    for name in names:
        try:
            make_bot(name, 0)
        except (ValueError, TypeError) as exc:
            raise DataError(str(exc), source="--bots") from None
    if not names:
        raise DataError("name at least one bot", source="--bots")
    return names
