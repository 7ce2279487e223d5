"""Daimyo and Shinobi as the web layer sees it (``samurai.web.games.GameDefinition``).

Positions are ``samurai_plugins.daimyo.rules.DaimyoState`` (the game protocol);
pictures come from ``samurai_plugins.daimyo.render``; records from
``samurai.records``. A person plays by clicking squares: a face-down
tile to flip it, or one of their pieces and then the square it goes to.
Squares are the page's board places (``hex:FILE,RANK`` keys, file and rank
counted from 0), so the page needs nothing of this game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from samurai.catalog.editions import Edition
from samurai.errors import DataError
from samurai.protocol import GameState, Move
from samurai.records import (
    is_play_record,
    play_record_from_dict,
    play_record_of,
    play_record_to_dict,
    position_check_of,
    replay_play_record,
)
from samurai.search.bots import BOTS, LEVELS, make_bot
from samurai.web.games import Controls, EditionChoice, GameSetup, Opened, TrayItem, served_editions, shared_definition
from samurai_plugins.daimyo.render import draw_daimyo_key, draw_daimyo_view
from samurai_plugins.daimyo.rules import END_WORDS, FACES, FILE_LETTERS, FLIP, HEIYA, MOVE, PIECES, DaimyoState, tell

__all__ = ["DaimyoDefinition"]


def _key(square: int, files: int) -> str:
    rank, file = divmod(square, files)
    return f"hex:{file},{rank}"


def _state(state: GameState) -> DaimyoState:
    if not isinstance(state, DaimyoState):
        raise TypeError(f"the Daimyo definition plays DaimyoState positions, not {type(state).__name__}")
    return state


BOT_SECONDS: dict[str, dict[int, float]] = {"random": {2: 0.0001}, "easy": {2: 0.0023}, "medium": {2: 0.082},
                                            "hard": {2: 1.4}}
"""Processor seconds a bot takes per decision (more than one legal action) in the base game, 2026-12-05 on the
shared 2-core machine, the Python search (this game has no native engine): a game of ``easy``, the first 18
decisions of ``medium`` and 6 of ``hard``, every seat at the level. The page shows them beside the bots' names."""


def _turn_hint(position: DaimyoState, seat: int) -> str:
    """What the seat to act may do, and the rule that says so (docs/rules/daimyo.md)."""
    if position.pending_back is not None:
        return "The tiles ran out: click one of your pieces and then where it goes (ruling: then_move)"
    if position.turn_faces and position.turn_faces[-1] == HEIYA:
        return "A Heiya was removed: flip another face-down tile in its place"
    if position.shown or position.turn_faces:
        return "Flip a second face-down tile: a turn of flipping turns over two tiles"
    if position.view(seat)["threatened"]:
        return "Kyousei: your Daimyo can be captured, so move a piece to end the threat (no flipping)"
    return "Click a face-down tile to flip it, or one of your pieces and then where it goes"


class DaimyoDefinition:
    """Daimyo and Shinobi for the web: its installed editions and the manifests given to ``samurai serve``."""

    name = "daimyo"
    title = "Daimyo and Shinobi"
    rules = "daimyo.md"
    analysis_bot = "medium"
    """This game's search is the Python one: ``hard`` takes over a second a move, ``medium`` a tenth of one, so a
    whole game is judged in about a minute and a hint comes at once."""

    def __init__(self, manifests: Sequence[str] = ()) -> None:
        self._manifests = tuple(manifests)
        self._editions: dict[str, Edition] = served_editions(self.name, manifests)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its manifests, for the server's bot worker processes (editions hold modules)."""
        return shared_definition, (type(self), self._manifests)

    def editions(self) -> list[EditionChoice]:
        """Every served edition, by id."""
        return [EditionChoice(key, ed.manifest.name, ed.manifest.description, ed.player_counts,
                              tuple(ed.manifest.options.values()), BOT_SECONDS)
                for key, ed in self._editions.items()]

    def bots(self) -> list[str]:
        """The bots that play any game (this game has none of its own): random and the MCTS levels."""
        return [*BOTS, *LEVELS]

    def start(self, setup: GameSetup) -> GameState:
        """The first position of ``setup``."""
        return self._edition(setup.edition).start(setup.players, setup.seed, setup.options)

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        """The bot's move, chosen from ``seat``'s knowledge only."""
        if bot not in self.bots():
            raise DataError(f"no bot {bot!r} plays this game; bots: {', '.join(self.bots())}", source="seats")
        return tuple(make_bot(bot, rng.getrandbits(63)).act(_state(state).knowledge(seat)))

    # --- pictures and words ----------------------------------------------------------------

    def render(self, state: GameState, view: Mapping[str, Any], last: Move | None,
               preferred: Move | None = None) -> str:
        """``draw_daimyo_view`` of the view, the last action's squares marked (the renderer has one kind of mark:
        an analysis' ``preferred`` move is told in words); every square carries its ``data-col``/``data-row``
        (file, rank from 0) inside ``#hexes``, the page's board places."""
        position = _state(state)
        marks = () if last is None else [position.square_name(sq) for sq in last[1:]]
        svg = draw_daimyo_view(view, marks=marks, panel=False, remembered=bool(view.get("open")))
        svg = svg.replace('<g id="board">', '<g id="hexes">', 1)

        def place(match: re.Match[str]) -> str:
            name = match.group(1)
            return f'{match.group(0)} data-col="{FILE_LETTERS.index(name[0])}" data-row="{int(name[1:]) - 1}"'

        return re.sub(r'data-square="([a-l][0-9]{1,2})"', place, svg)

    def key(self) -> str:
        """``draw_daimyo_key``: each piece and how it moves, and the tiles' looks."""
        return draw_daimyo_key()

    def open_view(self, state: GameState) -> dict[str, Any]:
        """White's view (White at the bottom) with the face of every face-down tile as ``seen`` (``render`` draws
        them faintly)."""
        position = _state(state)
        view = position.view(0)
        for square, entry in zip(range(position.squares), view["board"], strict=True):
            if entry.get("tile") == "unknown":
                entry["seen"] = FACES[position.tile[square]]
        view["open"] = True
        return view

    def status(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The turn, each seat's pieces and captures, the tiles, and the result."""
        over = view.get("result") is not None
        rows = []
        for seat in range(2):
            pieces = sorted(entry["piece"]["kind"] for entry in view["board"]
                            if "piece" in entry and entry["piece"]["owner"] == seat)
            rows.append([", ".join(pieces) or "none", ", ".join(view["captured"][seat]) or "none"])
        tiles = view["tiles"]
        facts = [["Tiles", f"{tiles['face_down']} face down, {tiles['face_up']} face up, {tiles['heiya_removed']} "
                           f"Heiya removed, {tiles['engun_tiles']} taken by Engun"],
                 ["Turns without progress", str(view["turns_without_progress"])]]
        if view.get("threatened") and not over:
            facts.append(["Kyousei", "your Daimyo can be captured: move to save it"])
        result = view.get("result")
        return {"headline": "Game over" if over else f"Turn {view['turn']}", "phase": "over" if over else "play",
                "to_act": view.get("current_player"), "columns": ["pieces", "captured"], "rows": rows,
                "facts": facts,
                "result": None if not result else {"winners": result["winners"],
                                                   "explanation": END_WORDS.get(result["reason"], result["reason"])}}

    def controls(self, state: GameState, seat: int) -> Controls:
        """Click a face-down tile to flip it, or a piece and then its target square."""
        position = _state(state)
        files = position.board.files
        paths: list[tuple[Move, tuple[str, ...]]] = []
        hints: dict[str, str] = {}
        if position.to_act == seat:
            hints[""] = _turn_hint(position, seat)
            for action in position.legal_actions():
                if action[0] == FLIP:
                    paths.append((action, (_key(action[1], files),)))
                elif action[0] == MOVE:
                    source = _key(action[1], files)
                    kind = PIECES[position.piece[action[1]] % 5]
                    hints[source] = f"Click the square the {kind} on {position.square_name(action[1])} goes to"
                    paths.append((action, (source, _key(action[2], files))))
        tray = tuple(TrayItem(f"captured:{kind}", kind, (), count)
                     for kind, count in sorted(_counts(PIECES[k] for k in position.captured[seat]).items()))
        return Controls("Pieces you captured", tray, tuple(paths), {}, hints)

    def log(self, before: GameState, action: Move, after: GameState, seat: int | None) -> list[str]:
        """The action and what followed (every flip is seen by both seats)."""
        old, new = _state(before), _state(after)
        actor = old.current
        who = "You" if actor == seat else f"Seat {actor}"
        words = old.describe(action)
        if words["action"] == "flip":
            lines = [f"{who} flip{'' if actor == seat else 's'} the tile on {words['square']}"]
        else:
            lines = [f"{who} move{'' if actor == seat else 's'} {words['from']}-{words['to']}"]
        lines += tell(old, action, new)
        return lines

    # --- records ---------------------------------------------------------------------------

    def record(self, setup: GameSetup, actions: Sequence[Move], final: GameState) -> dict[str, Any]:
        """The game's record (``samurai.records``) as a dict."""
        edition = self._edition(setup.edition)
        return play_record_to_dict(play_record_of(edition, setup.players, setup.seed, setup.options, actions,
                                                  final))

    def open_record(self, data: Any, allowed: Sequence[str]) -> Opened:
        """A record sent by a person, replayed and checked; its edition must be a served one (by id)."""
        if not is_play_record(data) or data.get("game") != self.name:
            raise DataError(f"not a record of {self.title}", source="record", key="game")
        record = play_record_from_dict(data, source="record")
        if record.edition not in allowed or record.edition not in self._editions:
            raise DataError(f"edition {record.edition!r} is not served here (served: {', '.join(allowed)})",
                            source="record", key="edition")
        edition = self._editions[record.edition]
        start: GameState | None = None
        final: GameState | None = None
        moves: list[Move] = []
        for state, action in replay_play_record(record, source="record", edition=edition):
            if action is None:
                start = state.copy()
            else:
                moves.append(action)
            final = state
        assert start is not None and final is not None
        if record.check is not None and position_check_of(final) != record.check:
            raise DataError("the actions replay to a different position than the one saved", source="record",
                            key="check")
        setup = GameSetup(self.name, record.edition, record.players, record.seed, dict(record.options))
        return Opened(setup, start, tuple(moves))

    def _edition(self, key: Any) -> Edition:
        if not isinstance(key, str) or key not in self._editions:
            raise DataError(f"no edition {key!r} is served here; editions: {', '.join(self._editions)}",
                            source="edition")
        return self._editions[key]


def _counts(kinds: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    return counts
