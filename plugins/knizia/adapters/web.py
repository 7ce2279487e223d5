"""Knizia's Samurai as the web layer sees it (a ``GameDefinition``): the one place the server knows this game.

Positions are ``samurai_plugins.knizia.adapters.game_state.HexGameState`` (the game protocol); pictures
come from ``samurai_plugins.knizia.play.render``; records from ``samurai_plugins.knizia.play.record_files``. Editions
are the installed ones plus the manifests the person running the server named on its command line; a browser chooses
among them by key and never names a path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, cast

from samurai.catalog.editions import Edition
from samurai.errors import DataError
from samurai.protocol import GameState, Move
from samurai.search.bots import BOTS, LEVELS
from samurai.web.games import Controls, EditionChoice, GameSetup, Opened, TrayItem, served_editions, shared_definition
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.adapters.search_bots import GAME_BOTS, make_bot
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.core.result import END_REASONS
from samurai_plugins.knizia.core.state import FIGURES, HANDS, OVER
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Click, Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import NATIVE, engine_for
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.game import check_seed
from samurai_plugins.knizia.play.record_files import position_check, record_from_dict, record_of, record_to_dict, replay
from samurai_plugins.knizia.play.render import draw_key, draw_view, move_marks

__all__ = ["SamuraiDefinition"]


NATIVE_BOT_SECONDS: dict[str, dict[int, float]] = {
    "random": {2: 0.0001, 3: 0.0001, 4: 0.0001}, "greedy": {2: 0.0002, 3: 0.0002, 4: 0.0002},
    "easy": {2: 0.0003, 3: 0.0003, 4: 0.0003}, "medium": {2: 0.0025, 3: 0.0038, 4: 0.0053},
    "hard": {2: 0.050, 3: 0.084, 4: 0.101}, "expert": {2: 0.058, 3: 0.098, 4: 0.119}}
"""Processor seconds a bot takes per decision of the play phase on the native engine, by player count:
``samurai bench --levels --level-games 2 --players 2,3,4`` on 2026-12-05 (docs/strength.md), random and greedy
under a millisecond. The page shows them beside the bots' names; an edition on the Python engine shows none (its
search takes 60 to 150 times as long)."""


def _bot_seconds(edition: Edition) -> dict[str, dict[int, float]]:
    """The measured thinking times for ``edition``: the native engine's, where its games play on it."""
    knizia = knizia_edition(edition)
    players = sorted(knizia.manifest.players)
    if not players or engine_for(knizia.rules(players[0])) is not NATIVE:
        return {}
    return NATIVE_BOT_SECONDS


class SamuraiDefinition:
    """Samurai for the web: installed editions and the manifests given to ``samurai serve --edition``."""

    name = "samurai"
    title = "Samurai"
    rules = "samurai.md"
    analysis_bot = "hard"
    """The native search judges a 4-player game at ``hard`` in some seconds and gives a hint in a fraction of one."""

    def __init__(self, manifests: Sequence[str] = ()) -> None:
        self._manifests = tuple(manifests)
        self._editions: dict[str, Edition] = served_editions(KNIZIA, manifests)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its manifests, for the bots' worker processes (editions hold modules)."""
        return shared_definition, (type(self), self._manifests)

    # --- starting and bots -----------------------------------------------------------------

    def editions(self) -> list[EditionChoice]:
        """Every served edition, by id."""
        return [EditionChoice(key, ed.manifest.name, ed.manifest.description, tuple(sorted(ed.manifest.players)),
                              tuple(ed.manifest.options.values()), _bot_seconds(ed))
                for key, ed in ((key, knizia_edition(ed)) for key, ed in self._editions.items())]

    def bots(self) -> list[str]:
        """The built-in bots' names: random, greedy and the MCTS levels."""
        return [*BOTS, *GAME_BOTS, *LEVELS]

    def start(self, setup: GameSetup) -> GameState:
        """The first position of ``setup`` (events traced, so captures and removals can be told)."""
        edition = knizia_edition(self._edition(setup.edition))
        if setup.players not in edition.manifest.players:
            raise DataError(f"edition {setup.edition!r} is for {', '.join(map(str, sorted(edition.manifest.players)))} "
                            f"players, not {setup.players!r}", source="players")
        check_seed(setup.seed)
        rules = edition.rules(setup.players, setup.options)
        chosen = engine_for(rules)
        return cast(GameState, HexGameState(rules, chosen.new_state(rules, setup.seed, trace=True), engine=chosen))

    def bot_action(self, state: GameState, seat: int, bot: str, rng: random.Random) -> Move:
        """The bot's move, chosen from ``seat``'s knowledge (``GameState.knowledge``) only: the bot is handed
        that value, never the position."""
        player = make_bot(bot, rng.getrandbits(63))
        return tuple(player.act(_hex_state(state).knowledge(seat)))

    # --- pictures and words ----------------------------------------------------------------

    def render(self, state: GameState, view: Mapping[str, Any], last: Move | None,
               preferred: Move | None = None) -> str:
        """``samurai_plugins.knizia.play.render.draw_view`` of the view, the board alone (the page's sidebar has the
        table), the last action's hexes marked (and the preferred move's, dashed green); figures get ``data-piece``
        (their caste) so the page can tell which one was clicked."""
        rules = _rules(state)
        marks = () if last is None else move_marks(rules, last)
        svg = draw_view(view, rules, marks=marks, preferred=() if preferred is None else move_marks(rules, preferred),
                        table=False)
        for caste in CASTES:
            svg = svg.replace(f'class="figure {caste}"', f'class="figure {caste}" data-piece="{caste}"')
        return svg

    def key(self) -> str:
        """``samurai_plugins.knizia.play.render.draw_key``: the castes' shapes and the tiles' marks."""
        return draw_key()

    def open_view(self, state: GameState) -> dict[str, Any]:
        """Seat 0's view with every seat's entry as that seat sees it (its captures) and every hand (``hands``)."""
        views = [state.view(seat) for seat in range(state.players)]
        view = dict(views[0], seat=None, open=True, seats=[views[seat]["seats"][seat] for seat in range(state.players)],
                    hands=[list(views[seat].get("hand", ())) for seat in range(state.players)])
        for name in ("hand", "unchosen"):
            view.pop(name, None)
        return view

    def status(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The phase, each seat's hand, stack and captures (as far as the view shows them), the result."""
        phase = view["phase"]
        # A round is one turn of every seat: "Round 2" is each seat's second turn, whatever the number of seats.
        round_number = max(1, (int(view["turn"]) - 1) // max(1, len(view["seats"])) + 1)
        headline = {"choose_hands": "Choosing starting hands", "place_figures": "Placing figures",
                    "play": f"Round {round_number}", "over": "Game over"}.get(phase, phase)
        rows = []
        for entry in view["seats"]:
            captured = entry.get("captured")
            rows.append([entry["hand_size"], entry["stack_size"],
                         *(["hidden"] * 3 if captured is None else [captured[c] for c in CASTES])])
        hidden = any(entry.get("captured") is None for entry in view["seats"])
        facts = [["Captured", "figures by caste" + (" (behind a screen: hidden)" if hidden else ", every seat's open")],
                 ["Removed by ties", ", ".join(f"{c} {view['removed'][c]}" for c in CASTES)]]
        if phase in ("choose_hands", "place_figures"):
            facts.append(["Figures to place", ", ".join(f"{c} {view['supply'][c]}" for c in CASTES)])
        for seat, hand in enumerate(view.get("hands", ())):  # all hands open: a finished game's replay
            facts.append([f"Seat {seat}'s hand", ", ".join(hand) or "empty"])
        result = view.get("result")
        return {"headline": headline, "phase": phase, "to_act": view.get("current_player"),
                "columns": ["hand", "stack", *CASTES], "rows": rows, "facts": facts,
                "result": None if not result else {"winners": result["winners"], "explanation": result["explanation"]}}

    def controls(self, state: GameState, seat: int) -> Controls:
        """The seat's hand (or unchosen tiles, or the figure supply) and the clicks of each legal action."""
        hexes = _hex_state(state)
        rules, st = hexes.rules, hexes.state
        mine = st.current == seat and st.phase != OVER
        if st.phase == HANDS:
            title = f"Choose your starting hand ({len(st.hands[seat])} of {rules.hand_size} kept)"
            tray = _tile_items(rules, st.pools[seat])
        elif st.phase == FIGURES:
            title = "Figures to place"
            tray = tuple(TrayItem(f"caste:{c}", f"{c} figure", (c,), st.supply[i])
                         for i, c in enumerate(CASTES) if st.supply[i])
        else:
            title = "Your hand"
            tray = _tile_items(rules, st.hands[seat])
        paths: list[tuple[Move, tuple[str, ...]]] = []
        buttons: dict[str, str] = {}
        hints: dict[str, str] = {}
        if mine:
            legal = hexes.legal_actions()
            hints[""] = {HANDS: "Choose a tile to keep for your starting hand",
                         FIGURES: "Choose a figure, then the settlement to put it in"}.get(st.phase) or _play_hint(
                st.played > 0, st.normal_played, any(action[0] != engine.END for action in legal))
            for number, action in enumerate(legal):
                keys = _clicks(rules, action, number, buttons, hints)
                for path in keys:
                    paths.append((action, path))
        return Controls(title, tray, tuple(paths), buttons, hints)

    def log(self, before: GameState, action: Move, after: GameState, seat: int | None) -> list[str]:
        """The action and what it caused, as ``seat`` may know it (a chosen starting tile and the captures
        behind other seats' screens are not told)."""
        rules, old, new = _rules(before), _hex_state(before).state, _hex_state(after).state
        actor = old.current
        who = "You" if actor == seat else f"Seat {actor}"
        lines = [f"{who} {_action_words(rules, action, you=actor == seat, secret=seat is not None and actor != seat)}"]
        public = rules.public_captures or new.phase == OVER
        for event in (new.events or [])[len(old.events or []):]:
            kind = event[0]
            if kind in ("capture", "remove"):
                place, caste = rules.board.settlements[event[1]].name, CASTES[event[2]]
                if kind == "remove":
                    lines.append(f"The {caste} figure in {place} is removed by a tie")
                elif seat is None or public or event[3] == seat:
                    taker = "You capture" if event[3] == seat else f"Seat {event[3]} captures"
                    lines.append(f"{taker} the {caste} figure in {place}")
                else:
                    lines.append(f"The {caste} figure in {place} is captured (behind a screen)")
            elif kind == "refill":
                lines.append(f"{'You draw' if event[1] == seat else f'Seat {event[1]} draws'} "
                             f"{event[2]} tile{'s' if event[2] != 1 else ''}")
            elif kind == "pass":
                lines.append(f"{'You' if event[1] == seat else f'Seat {event[1]}'} cannot play and pass"
                             f"{'' if event[1] == seat else 'es'}")
            elif kind == "end":
                lines.append(f"The game ends: {END_REASONS.get(event[1], event[1])}")
        return lines

    # --- records ---------------------------------------------------------------------------

    def record(self, setup: GameSetup, actions: Sequence[Move], final: GameState) -> dict[str, Any]:
        """The game's ``samurai_plugins.knizia.play.record_files`` record as a dict (edition, version, options, seed,
        actions, check)."""
        hexes = _hex_state(final)
        return record_to_dict(record_of(hexes.rules, setup.seed, list(actions), final=hexes.state))

    def open_record(self, data: Any, allowed: Sequence[str]) -> Opened:
        """A record sent by a person, replayed and checked. It must name a served edition (by id, or by the
        path of a manifest this server was started with) and the edition's own map; nothing else is read."""
        if not isinstance(data, Mapping):
            raise DataError(f"a record is a table of fields, not {type(data).__name__}", source="record")
        key = self._key_of(data.get("edition"))
        if key is None or key not in allowed:
            raise DataError(f"edition {data.get('edition')!r} is not served here (served: {', '.join(allowed)})",
                            source="record", key="edition")
        if data.get("map") is not None:
            raise DataError("records on another map than their edition's cannot be opened here", source="record",
                            key="map")
        record = record_from_dict(data, source="record")
        edition = self._editions[key]
        game = None
        moves: list[Move] = []
        start: HexGameState | None = None
        for number, game in enumerate(replay(record, edition=edition)):
            if number == 0:
                start = HexGameState.of_game(game)
            if number < len(record.actions):
                moves.append(game.to_internal(record.actions[number]))
        assert game is not None and start is not None
        if record.check is not None and position_check(game.state) != record.check:
            raise DataError("the actions replay to a different position than the one saved", source="record",
                            key="check")
        setup = GameSetup(self.name, key, record.players, record.seed, dict(record.options))
        return Opened(setup, cast(GameState, start), tuple(moves))

    def _key_of(self, reference: Any) -> str | None:
        if not isinstance(reference, str):
            return None
        for key, edition in self._editions.items():
            if reference in (key, edition.reference):
                return key
        return None

    def _edition(self, key: Any) -> Edition:
        if not isinstance(key, str) or key not in self._editions:
            raise DataError(f"no edition {key!r} is served here; editions: {', '.join(self._editions)}",
                            source="edition")
        return self._editions[key]


def _hex_state(state: GameState) -> HexGameState:
    if not isinstance(state, HexGameState):
        raise TypeError(f"the Samurai definition plays HexGameState positions, not {type(state).__name__}")
    return state


def _rules(state: GameState) -> Rules:
    return _hex_state(state).rules


def _coord(rules: Rules, h: int) -> str:
    col, row = rules.board.coords[h]
    return f"{col},{row}"


def _tile_label(rules: Rules, tile: int) -> str:
    kind = rules.tile_types[tile]
    return kind.kind if kind.special or kind.kind == "ronin" else f"{kind.kind} {kind.influence}"


def _tile_items(rules: Rules, tiles: Sequence[int]) -> tuple[TrayItem, ...]:
    counts = Counter(tiles)
    items = []
    for tile in sorted(counts, key=lambda t: rules.tile_types[t].name):
        kind = rules.tile_types[tile]
        marks = (("fast",) if kind.fast else ()) + ((kind.special,) if kind.special else ()) + (
            ("sea",) if kind.on == "sea" else ())
        items.append(TrayItem(f"tile:{kind.name}", _tile_label(rules, tile), marks, counts[tile]))
    return tuple(items)


def _play_hint(played: bool, normal_played: bool, can_play: bool) -> str:
    """What the seat to act may do now in the play phase, and why (a turn: one normal tile, any fast tiles)."""
    if not played:
        return "Play a tile from your hand: one normal tile and any fast tiles (ronin, ships, switch) this turn"
    if not can_play:
        return "End your turn: no tile in your hand can be played now"
    if normal_played:
        return "Your normal tile is down: play a fast tile (ronin, ship, switch) or end your turn"
    return "Play another tile (one normal tile a turn, fast tiles at will) or end your turn"


def _clicks(rules: Rules, action: Move, number: int, buttons: dict[str, str],
            hints: dict[str, str]) -> list[tuple[str, ...]]:
    """The click paths of one legal action (and the hints and buttons they need)."""
    kind = action[0]
    if kind == engine.END:
        buttons["end"] = "End turn"
        return [("end",)]
    if kind == engine.CHOOSE:
        return [(f"tile:{rules.tile_types[action[1]].name}",)]
    if kind == engine.FIGURE:
        caste = f"caste:{CASTES[action[1]]}"
        hints[caste] = f"Click a highlighted settlement for the {CASTES[action[1]]} figure"
        return [(caste, "hex:{},{}".format(*rules.board.settlements[action[2]].at))]
    tile = f"tile:{rules.tile_types[action[1]].name}"
    label = _tile_label(rules, action[1])
    if kind == engine.PLACE:
        where = "sea" if rules.tile_types[action[1]].on == "sea" else "land"
        hints[tile] = f"Click a highlighted hex for {label}: an empty {where} hex (a {where} tile goes on {where})"
        return [(tile, f"hex:{_coord(rules, action[2])}")]
    behaviour = rules.behaviours[action[1]]
    plan = None if behaviour is None else behaviour.clicks(rules, action[1], action[2:])
    if plan is not None:  # the tile's own clicks (TileBehaviour.clicks), each prefix of a path with its hint
        hints[tile] = plan.hints[0]
        paths = [(tile, *(_click_key(rules, click) for click in path)) for path in plan.paths]
        for path in paths:
            for clicked in range(2, len(path)):
                hints[" ".join(path[:clicked])] = plan.hints[clicked - 1]
        return paths
    # A special tile without clicks of its own: its targets are offered as buttons, described in the game's words.
    key = f"action:{number}"
    buttons[key] = _describe(rules, action)
    hints[tile] = f"Choose what {label} does"
    return [(tile, key)]


def _click_key(rules: Rules, click: Click) -> str:
    """The page's key of a click: ``hex:COL,ROW``, or ``piece:COL,ROW,CASTE`` for a figure."""
    where = _coord(rules, click.hex)
    return f"hex:{where}" if click.caste is None else f"piece:{where},{CASTES[click.caste]}"


def _action_words(rules: Rules, action: Move, *, you: bool, secret: bool) -> str:
    """An action in words after "You" (``you``) or "Seat k"; ``secret`` hides which starting tile was kept."""
    def verb(word: str) -> str:
        return word if you else word + "s"

    kind = action[0]
    if kind == engine.END:
        return f"{verb('end')} the turn"
    if kind == engine.CHOOSE:
        kept = "a tile" if secret else _tile_label(rules, action[1])
        return f"{verb('keep')} {kept} for the starting hand"
    if kind == engine.FIGURE:
        settlement = rules.board.settlements[action[2]]
        return f"{verb('put')} a {CASTES[action[1]]} figure in {settlement.name}"
    if kind == engine.PLACE:
        return f"{verb('play')} {_tile_label(rules, action[1])}{rules.board.near_words(action[2])}"
    behaviour = rules.behaviours[action[1]]
    words = None if behaviour is None else behaviour.words(rules, action[1], action[2:], verb("play"))
    return words if words is not None else f"{verb('play')} {_describe(rules, action)}"


def _describe(rules: Rules, action: Move) -> str:
    from samurai_plugins.knizia.play.game import action_of

    fields = action_of(rules, action).to_dict()
    name = fields.pop("action")
    return f"{name} " + ", ".join(f"{k} {v}" for k, v in fields.items())
