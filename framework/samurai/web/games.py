"""What the web layer needs from a game: a ``GameDefinition`` per game, registered by name.

The server, the store and the page speak only the game protocol
(``samurai.protocol.GameState``) plus this definition, so another game is
served by writing one more definition, with no change to the web layer.

A definition says how to start a game (edition, players, seed, options), how
bots choose (from their seat's knowledge only), how to draw a seat's view as
SVG, how the page lets a person click each legal action, what a seat saw
happen on each move, and how a game is written as (and read back from) a
record.

**Clicks.** ``Controls.paths`` lists, for each legal action, the keys a person
clicks in order; the page highlights the keys that may come next and posts
the action once a whole path has been clicked. A key is either an item of the
tray (the seat's hand, say), a button, or a place on the board: ``hex:COL,ROW``
for an SVG element with ``data-col``/``data-row`` attributes, and
``piece:COL,ROW,NAME`` for one inside it with ``data-piece="NAME"``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from ..catalog.editions import Edition, available_editions, load_edition
from ..catalog.manifests import OptionSpec
from ..errors import DataError
from ..protocol import GameState, Move

__all__ = ["EditionChoice", "GameSetup", "TrayItem", "Controls", "GameDefinition", "Opened", "rules_url",
           "served_editions", "shared_definition"]

_SHARED: dict[tuple[type, tuple[str, ...]], Any] = {}


def shared_definition(kind: type, manifests: tuple[str, ...]) -> Any:
    """``kind(manifests)``, built once per process: how a definition holding editions (which hold modules, so do
    not pickle) comes back in a bot worker process, from its ``__reduce__``."""
    key = (kind, manifests)
    if key not in _SHARED:
        _SHARED[key] = kind(manifests)
    return _SHARED[key]


def served_editions(game: str, manifests: Sequence[str] = ()) -> dict[str, Edition]:
    """The editions of ``game`` a server offers, by id: every installed one, plus the manifests the person
    running the server named (never a path a browser sends); an id offered twice is refused."""
    installed = (load_edition(ident) for ident in available_editions())
    editions: dict[str, Edition] = {ed.id: ed for ed in installed if ed.game.name == game}
    for path in manifests:
        edition = load_edition(path)
        if edition.id in editions:
            raise DataError(f"edition id {edition.id!r} is already served (installed or named twice); give "
                            f"the manifest another id", source=path, key="id")
        editions[edition.id] = edition
    return editions


@attrs.frozen
class EditionChoice:
    """An edition a person may start: an id the page sends back, never a path."""

    key: str
    title: str
    description: str
    players: tuple[int, ...]
    options: tuple[OptionSpec, ...] = ()
    """The options a game of it may set (the page's new-game form offers them)."""
    bot_seconds: Mapping[str, Mapping[int, float]] = attrs.field(factory=dict)
    """How long each bot typically thinks per move, by player count, in seconds (measured; the page shows it
    beside the bot's name): only the bots and counts measured."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the page."""
        return {"key": self.key, "title": self.title, "description": self.description, "players": list(self.players),
                "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                             "description": o.description} for o in self.options],
                "bot_seconds": {bot: {str(n): s for n, s in by_players.items()}
                                for bot, by_players in self.bot_seconds.items()}}


@attrs.frozen
class GameSetup:
    """Everything a game starts from (with its actions, everything it is)."""

    game: str
    """The definition's name."""
    edition: str
    """An ``EditionChoice.key`` of that definition."""
    players: int
    seed: int
    options: Mapping[str, Any] = attrs.field(factory=dict)
    hints: bool = False
    """Whether every seat may ask for a hint (chosen when the game is started; not a rule of the game)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (what the store keeps)."""
        return {"game": self.game, "edition": self.edition, "players": self.players, "seed": self.seed,
                "options": dict(self.options), "hints": self.hints}


@attrs.frozen
class TrayItem:
    """One thing the seat holds, shown beside the board (a tile in hand, say)."""

    key: str
    """The click key when it can be chosen (see the module's note on clicks)."""
    label: str
    marks: tuple[str, ...] = ()
    """Short tags the page shows as badges, e.g. ``("fast",)``."""
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the page."""
        return {"key": self.key, "label": self.label, "marks": list(self.marks), "count": self.count}


@attrs.frozen
class Controls:
    """How a seat plays by clicking: what it holds, each legal action's clicks, and what to do next."""

    tray_title: str
    tray: tuple[TrayItem, ...]
    paths: tuple[tuple[Move, tuple[str, ...]], ...]
    """``(action, keys)`` pairs; an action may have several paths (clicked in either order)."""
    buttons: Mapping[str, str]
    """Button keys and labels (e.g. ``{"end": "End turn"}``), used as one-key paths."""
    hints: Mapping[str, str]
    """What to click next, by the keys clicked so far joined with ``" "`` (``""`` at the start)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the page."""
        return {"tray_title": self.tray_title, "tray": [item.to_dict() for item in self.tray],
                "paths": [{"action": list(action), "keys": list(keys)} for action, keys in self.paths],
                "buttons": dict(self.buttons), "hints": dict(self.hints)}


@attrs.frozen
class Opened:
    """A record opened for replay: where it starts and the actions it holds."""

    setup: GameSetup
    start: GameState
    actions: tuple[Move, ...]


class GameDefinition(Protocol):
    """One game as the web layer sees it."""

    name: str
    """The registry key, e.g. ``"samurai"``."""
    title: str
    rules: str | None
    """The game's rules for people: the name of its page among the shipped ones (``samurai.data.rules_pages``,
    e.g. ``"samurai.md"``), shown in the page's "How to play" panel; None: the game has none."""
    analysis_bot: str
    """The search that judges a finished game's moves and gives hints (``samurai.runs.analysis``): a level or an
    ``mcts...:N`` name; ``hard`` where a definition does not say."""

    def editions(self) -> Sequence[EditionChoice]:
        """What a person may start."""

    def bots(self) -> Sequence[str]:
        """The bot names a seat may be given."""

    def start(self, setup: GameSetup) -> GameState:
        """The first position; ``DataError`` or ``ValueError`` naming the field for a bad setup."""

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        """The move of ``bot`` for ``seat`` (the seat to act), chosen from that seat's knowledge only.

        The server calls it in a worker process, with ``state`` rebuilt there from ``start`` and the actions:
        the definition must pickle (one holding editions pickles as what rebuilds it, see
        ``shared_definition``)."""

    def render(self, state: GameState, view: Mapping[str, Any], last: Move | None,
               preferred: Move | None = None) -> str:
        """A seat's view (``GameState.view`` of ``state``) drawn as an SVG document, ``last`` (the action that
        led here) marked, and ``preferred`` (the move an analysis preferred to ``last``, from the position before
        it) marked apart where the game can draw it; ``state`` supplies only what every player knows (the board,
        the tile set). ``preferred`` is given only to a finished game's replay once it has been analysed."""

    def key(self) -> str | None:
        """The key to the board's symbols as a small SVG document (the page shows it beside the board, which
        ``render`` draws alone), or None when the board needs none."""

    def open_view(self, state: GameState) -> dict[str, Any]:
        """The position with nothing hidden, shaped like a seat's view (``render`` draws it and ``status`` sums it
        up): every hand, every capture, every face-down tile. The replay shows it "all hands open", and only for a
        finished game or an uploaded record."""

    def status(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """A seat's view summed up for the page: ``headline``, ``columns``, ``rows`` (one per seat,
        cells in column order), ``facts`` (label, text pairs) and ``result`` (None, or ``winners`` and
        ``explanation``)."""

    def controls(self, state: GameState, seat: int) -> Controls:
        """What ``seat`` holds and how it may click its legal actions (none unless it is to act)."""

    def log(self, before: GameState, action: Move, after: GameState, seat: int | None) -> list[str]:
        """What ``seat`` saw happen when ``action`` took ``before`` to ``after``, in the game's words
        (``seat`` None: everything, for a finished game)."""

    def record(self, setup: GameSetup, actions: Sequence[Move], final: GameState) -> dict[str, Any]:
        """The game's record as a JSON-ready dict (the game's own record format)."""

    def open_record(self, data: Any, allowed: Sequence[str]) -> Opened:
        """Read a record sent by a person; its edition must be one of ``allowed`` (keys), and nothing it
        names is read from the file system. ``DataError`` naming the field when it is refused."""


def rules_url(definition: GameDefinition) -> str | None:
    """Where the page reads ``definition``'s rules for people (``GET /rules/NAME``), or None when it has none."""
    name = getattr(definition, "rules", None)  # a definition written before the rules pages may not say
    return f"/rules/{name}" if isinstance(name, str) and name else None
