"""Bots by name: ``random`` and the MCTS kinds (levels ``easy``, ``medium``, ``hard``), which play every game, and
the bots a game adds of its own (``GameDefinition.bots``; Knizia's game adds ``greedy``). A bot is handed its
seat's knowledge, nothing more.

A bot is any object with ``name`` and ``act(knowledge) -> action tuple``
(``samurai.protocol.Bot``): the knowledge (``samurai.protocol.Knowledge``, what
``GameState.knowledge(seat)`` returns) holds what the seat may know and no path
to the real game. ``make_bot(name, seed, game)`` builds one, with its own
seeded generator so a game's randomness and the bots' never mix; with a game,
that game's own bots are offered too. The bots, the search and the levels:
docs/bots.md; how strong they are: docs/strength.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import attrs

from ..errors import DataError
from ..protocol import Bot, Knowledge, Move
from .mcts import MCTSBot

__all__ = ["parse_bots", "Bot", "RandomBot", "MCTSBot", "BOTS", "Search", "SEARCHES", "REPLY_WORLDS", "FINISH_SHARE",
           "LEVELS", "BOT_NAMES", "BUDGETED_NAMES", "GameBots", "OffersBots", "bot_names", "bots_of", "make_bot"]


class RandomBot:
    """Plays a random legal action: ``Knowledge.sample_action`` from its own generator (in Knizia's game a random
    playable tile, then a random target)."""

    name = "random"
    trusted = True
    """Its actions are legal by construction; simulations need not check them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @property
    def samples_from(self) -> random.Random:
        """Its action is exactly ``sample_action`` drawn from this generator, so a game may make that draw on the
        position itself instead of building the knowledge (Knizia's
        ``samurai_plugins.knizia.adapters.game_state.decide`` does)."""
        return self.rng

    def act(self, knowledge: Knowledge) -> Move:
        """A random legal action (``Knowledge.sample_action``)."""
        return knowledge.sample_action(self.rng)


class OffersBots(Protocol):
    """What ``make_bot`` reads of a game: its name and its own bots by name (a ``GameDefinition`` is one)."""

    @property
    def name(self) -> str:
        """The game's name, as a manifest's ``game`` key says it."""

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The game's own bots without a budget, by name: each made from a seed."""


@attrs.frozen
class GameBots:
    """A game's name and its own bots (``OffersBots``), for a game's module that offers ``make_bot`` without its
    whole definition at hand."""

    name: str
    bots: Mapping[str, Callable[[int], Bot]]


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot}
"""The framework's bots without a budget, by name: they play every game (a game adds its own,
``GameDefinition.bots``; ``bot_names`` lists every name ``make_bot`` takes)."""

REPLY_WORLDS = 16
"""The ``worlds`` of ``mcts-replies`` and ``mcts-finish`` bots: the root's actions are compared on 16 drawn
positions (``samurai.search.mcts``)."""

FINISH_SHARE = 0.15
"""The ``finish`` of ``mcts-finish`` bots: a leaf's score is 0.15 of the returns after the quick player has played
the game to its end, 0.85 of the estimate after the replies. Measured with 800 simulations against ``medium`` (2
players, FFG 2015, 200 seat-balanced games each): shares 0.05, 0.1, 0.15 and 0.2 won 72.8%, 67.0%, 73.0% and
71.2%, while 0.3, 0.45 and 0.6 won 61.2%, 57.5% and 44.0% (docs/strength.md "A level above hard")."""


@attrs.frozen
class Search:
    """One kind of MCTS bot: the ``MCTSBot`` options its name prefix stands for."""

    playout: int | None = 0
    replies: bool = False
    worlds: int | None = None
    finish: float = 0.0


SEARCHES: dict[str, Search] = {
    "mcts:": Search(),
    "mcts-rollouts:": Search(playout=None),
    "mcts-replies:": Search(replies=True, worlds=REPLY_WORLDS),
    "mcts-finish:": Search(replies=True, worlds=REPLY_WORLDS, finish=FINISH_SHARE),
}
"""The kinds of MCTS bot by name prefix: the estimate at the leaf, random playouts to the end, the estimate
after the game's quick player has answered the leaf, or that estimate mixed with the quick player's play to
the end."""

LEVELS: dict[str, str] = {"easy": "mcts:50", "medium": "mcts-replies:800", "hard": "mcts-replies:12000",
                          "expert": "mcts-finish:4000"}
"""The levels, each the name of the MCTS bot it plays as. In Knizia's game on the native engine, whose search is
native (``samurai_plugins.knizia.adapters.game_state.HexSeatKnowledge.search_natively``), a decision in the play phase
takes about 0.5 ms, 6 to 14 ms, 0.05 to 0.24 s and 0.06 to 0.14 s on one core of the project's machine, more with more
players (docs/strength.md has the figures); the Python search, for every other game and on the Python engine, is 40 to
100 times slower. Counts of simulations, not seconds, so that a level plays the same game on any machine and on either
engine.

``easy`` is far below the 0.05 s first planned for it because without replies 800 simulations (0.05 s)
played as well as 3,500; with fewer simulations than a turn has actions the search scores only a random part
of them, which puts it between ``greedy`` and ``medium`` (the figures: docs/bots.md and docs/strength.md).
``expert`` plays on to the end (``FINISH_SHARE``): it won 76.5% of 200 2-player games against ``hard``, and one
``expert`` among three ``hard`` won alone 37.5% of 200 (par 25%), deciding in 0.06 to 0.14 s; twice ``hard``'s
simulations, more common worlds, another exploration constant and a second round of replies had not been
stronger (docs/strength.md "A level above hard: expert")."""

BUDGETED_NAMES = ("mcts:<simulations>", "mcts:<seconds>s", "mcts-replies:<simulations>", "mcts-replies:<seconds>s",
                  "mcts-finish:<simulations>", "mcts-finish:<seconds>s", "mcts-rollouts:<simulations>",
                  "mcts-rollouts:<seconds>s")
"""The MCTS bots' names with a budget, as shown in help and error messages."""


def bots_of(game: OffersBots | None = None) -> dict[str, Callable[[int], Bot]]:
    """The bots without a budget that play ``game``, by name: the framework's (``BOTS``), then the game's own."""
    return {**BOTS, **(game.bots if game is not None else {})}


def bot_names(game: OffersBots | None = None) -> tuple[str, ...]:
    """Every bot name ``make_bot`` takes for ``game`` (the framework's alone without one), as shown in help and
    error messages: the bots without a budget, the levels, then the MCTS names with a budget."""
    return (*bots_of(game), *LEVELS, *BUDGETED_NAMES)


BOT_NAMES = bot_names()
"""The bot names ``make_bot`` understands for every game, as shown in help and error messages (a game's own bots
come on top: ``bot_names(game)``)."""


def make_bot(name: str, seed: int, game: OffersBots | None = None) -> Bot:
    """A bot by name, with its own generator seeded by ``seed``; with ``game``, that game's own bots are offered too.

    Names: ``random``, a game's own (Knizia's ``greedy``), the MCTS levels ``easy``, ``medium``, ``hard``
    (``LEVELS``), ``mcts:N`` (N simulations per decision: deterministic for the
    seed) and ``mcts:Xs`` (X seconds per decision: depends on the machine);
    ``mcts-replies:N`` and ``mcts-replies:Xs`` score each leaf after the game's
    quick player has answered it, on ``REPLY_WORLDS`` common drawn positions;
    ``mcts-finish:N`` and ``mcts-finish:Xs`` mix that score with the quick
    player's play to the end (``FINISH_SHARE`` of it);
    ``mcts-rollouts:N`` and ``mcts-rollouts:Xs`` are the plain search that
    plays every simulation out to the end at random instead of taking the
    game's estimate at the leaf (``samurai.search.mcts``). A name neither the
    framework nor ``game`` has is a ``ValueError`` naming the game and the bots it has.
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot is named by a string, not {name!r}")
    named = bots_of(game)
    if name in named:
        return named[name](seed)
    spec, label = (LEVELS[name], name) if name in LEVELS else (name, None)
    for prefix, search in SEARCHES.items():
        if spec.startswith(prefix):
            return _mcts(spec, spec[len(prefix):], search, seed, label)
    if game is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)} (a game adds its own)")
    raise ValueError(f"unknown bot {name!r} for game {game.name!r}; its bots are {', '.join(bot_names(game))}")


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
                   worlds=search.worlds, finish=search.finish, name=label or name)


def parse_bots(text: str | Sequence[str], game: OffersBots | None = None) -> tuple[str, ...]:
    """``"random,greedy,hard"`` as a tuple of bot names ``make_bot`` knows for ``game`` (seats cycle through it);
    ``DataError`` naming ``--bots`` in one line for a name it does not know."""
    names = tuple(n.strip() if isinstance(n, str) else n for n in (text.split(",") if isinstance(text, str) else text))
    for name in names:
        try:
            make_bot(name, 0, game)
        except (ValueError, TypeError) as exc:
            raise DataError(str(exc), source="--bots") from None
    if not names:
        raise DataError("name at least one bot", source="--bots")
    return names
