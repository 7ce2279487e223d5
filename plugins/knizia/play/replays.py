"""Telling a recorded game in words: action by action, with what each action caused.

``replay_lines`` replays a record (``samurai_plugins.knizia.play.record_files.replay``) and yields one
line per action, followed by indented lines for the captures, ties,
refills, passes and the end it caused; ``position_lines`` describes a
position in full (a replay shows everything: it is a record of the game, not
a seat's view).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from samurai.catalog.trust import TrustLike
from samurai_plugins.knizia.core.actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from samurai_plugins.knizia.core.result import END_REASONS, seats_text
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.engine.special_tiles import tiles_played_by
from samurai_plugins.knizia.play.game import Game
from samurai_plugins.knizia.play.record_files import GameRecord, replay

__all__ = ["replay_lines", "position_lines", "describe_action", "describe_event_text"]


def describe_action(action: Action, game: Game) -> str:
    """``"places castle-3 on (4, 5)"``: what an action does, in words, for the game it belongs to."""
    if isinstance(action, PlaceTile):
        return f"places {action.tile} on {_hex(action.at)}"
    if isinstance(action, ChooseTile):
        return f"chooses {action.tile} for the starting hand"
    if isinstance(action, PlaceFigure):
        return f"puts a {action.caste} figure in {game.rules.board.place_words(action.at)}"
    if isinstance(action, EndTurn):
        return "ends the turn"
    tiles = tiles_played_by(game.rules, type(action))
    behaviour = game.rules.behaviours[tiles[0]] if tiles else None
    words = None if behaviour is None else behaviour.describe(game.rules, action)  # TileBehaviour.describe
    if words is not None:
        return words
    fields = action.to_dict()
    kind = fields.pop("action")
    return f"plays {kind} " + ", ".join(f"{k}={v}" for k, v in fields.items())


def describe_event_text(event: dict[str, Any]) -> str:
    """One of ``Game.events()`` in words."""
    kind = event["event"]
    influence = ", ".join(f"seat {s} {v}" for s, v in enumerate(event.get("influence", ())))
    if kind == "capture":
        return f"seat {event['seat']} captures the {event['caste']} figure in {event['settlement']} ({influence})"
    if kind == "remove":
        return f"the {event['caste']} figure in {event['settlement']} is removed by a tie ({influence})"
    if kind == "refill":
        return f"seat {event['seat']} draws {event['drawn']} tile{'s' if event['drawn'] != 1 else ''}"
    if kind == "pass":
        return f"seat {event['seat']} cannot play and passes"
    return f"the game ends: {END_REASONS.get(event['reason'], event['reason'])}"


def replay_lines(record: GameRecord, *, source: str = "record", to: int | None = None, trust: TrustLike = (),
                 folder: str | Path | None = None) -> Iterator[str]:
    """The game told action by action; with ``to``, stop after that many actions and describe the position.

    ``trust`` and ``folder`` are as for ``samurai_plugins.knizia.play.record_files.replay``.
    """
    if to is not None and not 0 <= to <= len(record.actions):
        raise ValueError(f"--to must be from 0 to {len(record.actions)} (the record's actions), not {to}")
    seen = 0
    actor: int | None = None
    game: Game | None = None
    for number, game in enumerate(replay(record, source=source, trust=trust, folder=folder)):
        if number:
            yield f"{number:>5}  seat {actor} {describe_action(record.actions[number - 1], game)}"
        else:
            yield (f"{game.edition} {record.edition_version}, {record.players} players, seed {record.seed}: "
                   f"{len(record.actions)} actions" + (" from a scenario" if record.scenario else ""))
        events = game.events()
        for event in events[seen:]:
            yield f"{'':>7}{describe_event_text(event)}"
        seen = len(events)
        if to is not None and number == to:
            yield from position_lines(game)
            return
        actor = None if game.is_over else game.current_player  # the seat that plays the next action
    assert game is not None
    if game.is_over:
        winners = game.result.winners
        who = f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {seats_text(winners)} share the win"
        yield f"Result: {who}. {game.result.explanation}"
    else:
        yield "The record stops before the end of the game."
        yield from position_lines(game)


def position_lines(game: Game) -> Iterator[str]:
    """The whole position: whose turn, the board's tiles and figures, every hand, stack and capture."""
    state = game.state
    yield f"Position after {len(game.history)} actions: phase {game.phase}, turn {game.turn}, " + (
        "game over" if game.is_over else f"seat {game.current_player} to act")
    view = game.view(0)
    for tile in view["board"]["tiles"]:
        yield f"  tile {tile['tile']} of seat {tile['owner']} on {_hex(tile['at'])}"
    for settlement in view["board"]["settlements"]:
        figures = ", ".join(settlement["figures"]) or "empty"
        yield (f"  {settlement['kind']} {settlement['name']} {_hex(settlement['at'])}: {figures}; "
               f"{settlement['empty_land_around']} empty land around")
    rules = game.rules
    for seat in range(game.players):
        hand = ", ".join(sorted(rules.tile_name(t) for t in state.hands[seat])) or "empty"
        captured = ", ".join(f"{caste} {state.captured[seat * 3 + c]}" for c, caste in enumerate(CASTES))
        yield f"  seat {seat}: hand {hand}; stack {len(state.stacks[seat])}; captured {captured}"
    removed = ", ".join(f"{caste} {count}" for caste, count in view["removed"].items())
    yield f"  removed by ties: {removed}"


def _hex(at: Any) -> str:
    return f"({at[0]}, {at[1]})"
