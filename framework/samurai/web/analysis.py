"""A served game's analysis as it is being made: how far it got, and the figures the page draws.

The server judges a finished game one move at a time in its worker processes (``samurai.web.workers.judge_move``),
one analysis at a time per game, and keeps the judgements here; the page polls ``to_dict`` for the progress and,
once done, the figures of ``samurai.runs.analysis.GameAnalysis`` with each move in words.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..runs.analysis import GameAnalysis
from .workers import Judged

__all__ = ["ANALYSIS_SEED", "AnalysisJob"]

ANALYSIS_SEED = 1
"""The seed of a served game's analysis: ``samurai analyse-game``'s default, so the page and the command line give
the same figures for the same game and search."""


@attrs.define(eq=False)
class AnalysisJob:
    """One game's analysis: the search that judges, the moves to judge, those judged so far and how it ended."""

    bot: str
    moves: int
    players: int
    judged: list[Judged] = attrs.field(factory=list)
    returns: tuple[float, ...] | None = None
    """The game's returns, set when every move has been judged (the analysis is done)."""
    error: str | None = None
    """Why the analysis stopped, if it failed."""

    @property
    def state(self) -> str:
        """``running``, ``done`` or ``failed``."""
        return "failed" if self.error is not None else "done" if self.returns is not None else "running"

    def analysis(self) -> GameAnalysis | None:
        """The whole analysis, once done."""
        if self.returns is None:
            return None
        return GameAnalysis(self.players, self.bot, ANALYSIS_SEED, tuple(j.decision for j in self.judged), self.returns)

    def judged_move(self, number: int) -> Judged | None:
        """The judgement of action ``number`` (from 0), once the analysis is done."""
        if self.returns is None or not 0 <= number < len(self.judged):
            return None
        return self.judged[number]

    def to_dict(self) -> dict[str, Any]:
        """The progress (``state``, ``done`` of ``moves``) and, once done, the figures: ``analysis`` (as
        ``GameAnalysis.to_dict``, every move's ``played_words`` and the preferred one's ``words``, as the whole
        table was told them)."""
        answer: dict[str, Any] = {"state": self.state, "bot": self.bot, "seed": ANALYSIS_SEED, "done": len(self.judged),
                                  "moves": self.moves, "error": self.error}
        found = self.analysis()
        if found is not None:
            words = {j.decision.number: j for j in self.judged}

            def describe(number: int, action: Any) -> str | None:
                judged = words[number]
                return judged.played if action == judged.decision.played else judged.preferred

            answer["analysis"] = found.to_dict(describe)
        return answer
