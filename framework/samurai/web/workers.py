"""What runs in the server's worker processes: a bot's move, one move of an analysis and a seat's hint.

Every job rebuilds its position from the game's start and actions (``position``) rather than receiving it: a
position holds its compiled rules, which do not pickle, and the definition travels as what rebuilds it
(``samurai.web.games.shared_definition``). Each search is handed the knowledge of the seat it serves
(``GameState.knowledge``), never the position: a bot, an analysis and a hint see what that seat saw.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

import attrs

from ..protocol import GameState, Move
from ..runs.analysis import Decision, analyse_decision, hint
from ..runs.analysis_report import describe_text
from ..runs.workerpool import WorkerPool
from .games import GameDefinition, GameSetup

__all__ = ["GameRef", "Judged", "HintAnswer", "WORKER_POSITIONS", "position", "bot_move", "judge_move",
           "hint_moves", "hint_answer", "bot_pool"]

WORKER_POSITIONS = 64
"""How many games' positions a worker keeps."""

_POSITIONS: OrderedDict[str, tuple[GameSetup, tuple[Move, ...], GameState]] = OrderedDict()
"""In a worker: the latest position rebuilt of each of the last games it served, so the next job of a game
plays only the actions since (a whole replay per move would cost a long game's square)."""


@attrs.frozen
class GameRef:
    """What rebuilds a game's position in a worker: its definition, id, setup and, for a record a person
    uploaded, that record (its start may be a written position, not the setup's)."""

    definition: GameDefinition
    id: str
    setup: GameSetup
    record: Any = None


def position(game: GameRef, actions: tuple[Move, ...]) -> GameState:
    """The position after ``actions`` from the game's start (the worker's own: do not change it)."""
    key = f"{game.definition.name}:{game.id}"
    kept = _POSITIONS.pop(key, None)
    if kept is not None and kept[0] == game.setup and actions[:len(kept[1])] == kept[1]:
        state, done = kept[2], len(kept[1])
    elif game.record is not None:
        state, done = game.definition.open_record(game.record, [game.setup.edition]).start, 0
    else:
        state, done = game.definition.start(game.setup), 0
    for action in actions[done:]:
        state.apply(action)
    _POSITIONS[key] = (game.setup, actions, state)
    while len(_POSITIONS) > WORKER_POSITIONS:
        _POSITIONS.popitem(last=False)
    return state


def bot_move(job: tuple[GameRef, tuple[Move, ...], int, str, random.Random]) -> Any:
    """A bot's move for ``seat`` after ``actions``, chosen by the definition from that seat's knowledge."""
    game, actions, seat, bot, rng = job
    return game.definition.bot_action(position(game, actions).copy(), seat, bot, rng)


@attrs.frozen
class Judged:
    """One move of a game judged by the search, and the move played and the preferred one in the game's words
    (as the whole table saw them once the game was over)."""

    decision: Decision
    played: str
    preferred: str | None


def judge_move(job: tuple[GameRef, tuple[Move, ...], Move, str, int]) -> Judged:
    """The search's judgement of ``played``, the move after ``actions``, from its mover's knowledge then
    (``samurai.runs.analysis.analyse_decision``, action number ``len(actions)``, seeded from ``seed``)."""
    game, actions, played, bot, seed = job
    before = position(game, actions)
    seat = before.to_act
    if seat is None:
        raise ValueError(f"move {len(actions)} comes after the end of the game")
    decision = analyse_decision(before.knowledge(seat), played, len(actions), bot=bot, seed=seed)
    preferred = None if decision.preferred is None else _words(game.definition, before, decision.preferred.action)
    return Judged(decision, _words(game.definition, before, played), preferred)


@attrs.frozen
class HintAnswer:
    """A seat's hint: its best moves (the preferred first), each with the seat's chance, and in words."""

    seat: int
    moves: tuple[tuple[Move, str, float | None], ...]
    """(action, words, the seat's estimated chance under it; None for a forced move)."""
    simulations: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the page."""
        return {"seat": self.seat, "simulations": self.simulations,
                "moves": [{"action": list(action), "words": words, "chance": chance}
                          for action, words, chance in self.moves]}


def hint_moves(job: tuple[GameRef, tuple[Move, ...], int, str, int, int]) -> HintAnswer:
    """The ``top`` moves the search prefers for ``seat`` (to act after ``actions``) from its knowledge alone."""
    game, actions, seat, bot, seed, top = job
    return hint_answer(game.definition, position(game, actions), seat, bot, seed, top)


def hint_answer(definition: GameDefinition, state: GameState, seat: int, bot: str, seed: int, top: int) -> HintAnswer:
    """The hint of ``seat`` (to act) in ``state``: worked out from the seat's knowledge alone, words included."""
    if state.to_act != seat:
        raise ValueError(f"seat {seat} is not to act")
    knowledge = state.knowledge(seat)
    found = hint(knowledge, bot=bot, seed=seed, top=top)
    # Told as the seat's log would tell the move, on a position drawn from the seat's knowledge, never the game's
    # own: a move's log may tell what it turns over, and the hint must not.
    world = knowledge.determinize(random.Random(seed))
    moves = tuple((choice.action, _words(definition, world, choice.action, seat),
                   choice.chances[seat] if choice.chances else None) for choice in found.choices)
    return HintAnswer(seat, moves, found.simulations)


def _words(definition: GameDefinition, before: GameState, action: Move, seat: int | None = None) -> str:
    """``action`` from ``before`` in the game's words, the first line of its log as ``seat`` is told it (None: the
    whole table, once the game is over); the action's own description where the log has none."""
    after = before.copy()
    after.apply(action)
    lines = definition.log(before, action, after, seat)
    return lines[0] if lines else describe_text(before.describe(action))


def bot_pool(workers: int) -> WorkerPool:
    """The server's own pool of worker processes: a search holds no thread of the server (whose threads write
    acknowledged moves to the store) and no share of its interpreter lock.

    Workers are spawned, not forked: the server has threads, and a fork copies any lock one of them holds.
    They leave Ctrl-C to the server, which stops them, and end by themselves when the server dies without
    stopping them (``samurai.runs.workerpool``).
    """
    return WorkerPool(workers, start_method="spawn")
