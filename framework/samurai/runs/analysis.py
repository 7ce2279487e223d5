"""Why a game was won: each decision of a finished game judged by the information-set search, and hints.

For every decision of a record, the search (``samurai.search.mcts.MCTSBot.statistics``) runs from the mover's
own knowledge of the position before the move (``GameState.knowledge(seat)``: what that seat knew then, never
what the record reveals later) and gives, per legal action it tried, every seat's mean returns. From those:

- a seat's **chance** is the search's mean of that seat's returns (the game's ``evaluate`` after the replies, or
  ``returns`` at an end: 1 for a sole win, 1/k for each of k sharing one, 0 for a loss; an estimate summing to
  1 over the seats);
- **before** the move: every seat's chance under the search's preferred move (the one ``MCTSBot.act`` plays,
  the most visited); **after**: under the move played; the **loss** is the mover's chance before minus after
  (negative when the move played scored better on fewer visits);
- a **mistake** is a move whose loss is at least ``MISTAKE`` (0.10), a **blunder** at least ``BLUNDER`` (0.25);
  a move the budget never tried has no after and is not judged ("untried"); a decision with one legal action is
  **forced** and not searched;
- the **turning points** are the ``TURNING_POINTS`` (5) decisions whose move changed the eventual winners' summed
  chance most from the previous judged decision (the chance after each move played).

Each decision's search is seeded with ``derive_seed(seed, number)`` (``number``: the action's index in the
record), so the analysis is the same for a seed on any machine and in any order. ``hint`` gives a seat's best
moves from its knowledge alone, for a page. The report's figures: ``samurai.runs.analysis_report``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..protocol import GameState, Knowledge, Move
from ..search.bots import make_bot
from ..search.mcts import MCTSBot, RootStatistics
from ..seeds import derive_seed

__all__ = ["MISTAKE", "BLUNDER", "TURNING_POINTS", "Choice", "Decision", "GameAnalysis", "Hint", "analyse_moves",
           "analyse_decision", "hint", "search_bot"]

MISTAKE = 0.10
"""A move that loses at least this much of the mover's chance against the search's preferred move is a mistake."""

BLUNDER = 0.25
"""A move that loses at least this much of the mover's chance is a blunder (a mistake too)."""

TURNING_POINTS = 5
"""How many turning points an analysis names."""

DEFAULT_BOT = "hard"
"""The search an analysis and a hint use unless told: the level ``hard`` (``mcts-replies:12000``)."""


@attrs.frozen
class Choice:
    """One action the search weighed: how often it tried it and every seat's chance under it."""

    action: Move
    visits: int
    chances: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"action": list(self.action), "visits": self.visits, "chances": list(self.chances)}


@attrs.frozen
class Decision:
    """The search's judgement of one decision of a game (``number``: the action's index in the record)."""

    number: int
    seat: int
    played: Move
    forced: bool
    preferred: Choice | None
    """The search's preferred move (None when forced)."""
    after: Choice | None
    """The move played as the search saw it (None when forced or never tried)."""
    simulations: int

    @property
    def loss(self) -> float | None:
        """The mover's chance under the preferred move minus under the move played (None when not judged)."""
        if self.preferred is None or self.after is None:
            return None
        return self.preferred.chances[self.seat] - self.after.chances[self.seat]

    @property
    def grade(self) -> str:
        """``forced``, ``untried`` (the budget never tried the move played), ``blunder``, ``mistake`` or ``good``."""
        loss = self.loss
        if self.forced:
            return "forced"
        if loss is None:
            return "untried"
        return "blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE else "good"

    @property
    def chances(self) -> tuple[float, ...] | None:
        """Every seat's chance after the move played (None when not judged)."""
        return None if self.after is None else self.after.chances

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seat": self.seat, "played": list(self.played), "grade": self.grade,
                "forced": self.forced, "simulations": self.simulations,
                "preferred": None if self.preferred is None else self.preferred.to_dict(),
                "after": None if self.after is None else self.after.to_dict(), "loss": self.loss,
                "chances_before": None if self.preferred is None else list(self.preferred.chances),
                "chances_after": None if self.after is None else list(self.after.chances)}


@attrs.frozen
class GameAnalysis:
    """Every decision of a game judged by the search, and what follows from them."""

    players: int
    bot: str
    seed: int
    decisions: tuple[Decision, ...]
    returns: tuple[float, ...]
    """The game's returns at its end (its winners: the seats above 0)."""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, value in enumerate(self.returns) if value > 0)

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The mistakes and blunders, in the game's order."""
        return tuple(d for d in self.decisions if d.grade in ("mistake", "blunder"))

    def mistakes_by_seat(self) -> list[int]:
        """How many mistakes (blunders included) each seat made."""
        counts = [0] * self.players
        for decision in self.mistakes:
            counts[decision.seat] += 1
        return counts

    @property
    def turning_points(self) -> tuple[tuple[Decision, float], ...]:
        """The ``TURNING_POINTS`` judged decisions that changed the winners' summed chance most since the previous
        judged one, with that change, in the game's order."""
        changes: list[tuple[Decision, float]] = []
        previous: float | None = None
        for decision in self.decisions:
            chances = decision.chances
            if chances is None:
                continue
            now = sum(chances[seat] for seat in self.winners)
            if previous is not None:
                changes.append((decision, now - previous))
            previous = now
        top = sorted(changes, key=lambda pair: (-abs(pair[1]), pair[0].number))[:TURNING_POINTS]
        return tuple(sorted(top, key=lambda pair: pair[0].number))

    def to_dict(self, describe: Callable[[int, Move], Any] | None = None) -> dict[str, Any]:
        """The figures as JSON-ready data; ``describe(number, action)`` adds each action in the game's words."""
        decisions = []
        for decision in self.decisions:
            entry = decision.to_dict()
            if describe is not None:
                entry["played_words"] = describe(decision.number, decision.played)
                if decision.preferred is not None:
                    entry["preferred"]["words"] = describe(decision.number, decision.preferred.action)
            decisions.append(entry)
        return {"players": self.players, "bot": self.bot, "seed": self.seed, "returns": list(self.returns),
                "winners": list(self.winners),
                "definitions": {"chance": "the search's mean returns of the seat (1 a sole win, 1/k a shared win)",
                                "mistake": MISTAKE, "blunder": BLUNDER, "turning_points": TURNING_POINTS},
                "mistakes_by_seat": self.mistakes_by_seat(),
                "mistakes": [d.number for d in self.mistakes],
                "turning_points": [{"number": d.number, "change": change} for d, change in self.turning_points],
                "decisions": decisions}


@attrs.frozen
class Hint:
    """A seat's best moves from its knowledge: the search's choices, the preferred first."""

    seat: int
    choices: tuple[Choice, ...]
    simulations: int


def search_bot(name: str, seed: int, game: Any = None) -> MCTSBot:
    """The search named ``name`` (a level or an ``mcts...:N`` name) seeded with ``seed``; ``ValueError`` for a
    bot that does not search."""
    bot = make_bot(name, seed, game)
    if not isinstance(bot, MCTSBot):
        raise ValueError(f"{name!r} does not search: analyse with a level or an mcts bot (mcts-replies:N)")
    return bot


def _choices(found: RootStatistics) -> list[Choice]:
    """The root's tried actions, the preferred (most visited, then best for the mover) first."""
    rows = sorted(found.actions, key=lambda row: (-row.visits, -row.means[found.seat]))
    return [Choice(row.action, row.visits, row.means) for row in rows]


def analyse_decision(knowledge: Knowledge, played: Move, number: int, *, bot: str = DEFAULT_BOT, seed: int = 0,
                     game: Any = None) -> Decision:
    """The search's judgement of ``played`` from ``knowledge`` (the mover's, before the move), action ``number``."""
    found = search_bot(bot, derive_seed(seed, number), game).statistics(knowledge)
    if found.forced:
        return Decision(number, knowledge.seat, played, True, None, None, 0)
    chosen = found.of(found.chosen)
    assert chosen is not None
    preferred = Choice(chosen.action, chosen.visits, chosen.means)
    tried = found.of(played)
    after = None if tried is None else Choice(tried.action, tried.visits, tried.means)
    return Decision(number, knowledge.seat, played, False, preferred, after, found.simulations)


def analyse_moves(start: GameState, moves: Sequence[Move], *, bot: str = DEFAULT_BOT, seed: int = 0,
                  game: Any = None, seats: Sequence[int] | None = None,
                  progress: Callable[[int], None] | None = None) -> GameAnalysis:
    """Every decision of the game from ``start`` through ``moves`` (of ``seats`` only, if given) judged by the
    search ``bot`` from the mover's knowledge; ``progress(k)`` after the k-th move. ``start`` is not changed."""
    search_bot(bot, 0, game)  # refused before any work
    state = start.copy()
    decisions = []
    for number, action in enumerate(moves):
        seat = state.to_act
        if seat is None:
            raise ValueError(f"move {number} comes after the end of the game")
        if seats is None or seat in seats:
            decisions.append(analyse_decision(state.knowledge(seat), action, number, bot=bot, seed=seed, game=game))
        state.apply(action)
        if progress is not None:
            progress(number + 1)
    return GameAnalysis(start.players, bot, seed, tuple(decisions), state.returns())


def hint(knowledge: Knowledge, *, bot: str = DEFAULT_BOT, seed: int = 0, top: int = 3, game: Any = None) -> Hint:
    """The ``top`` moves the search prefers for the knowledge's seat (to act), each with every seat's chance,
    from that knowledge alone; a forced decision's one move has no figures (visits 0, no chances)."""
    found = search_bot(bot, seed, game).statistics(knowledge)
    if found.forced:
        return Hint(knowledge.seat, (Choice(found.chosen, 0, ()),), 0)
    return Hint(knowledge.seat, tuple(_choices(found)[:top]), found.simulations)
