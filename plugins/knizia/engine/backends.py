"""Knizia's two engines behind one face: the Python engine, the reference, and the native one, in Rust.

Both play exactly the same games (``tests/test_native_engine.py`` compares them position by position): the same
legal actions in the same order, the same positions, the same draws from the same seeds, the same results. The
native engine is faster (about 11 to 16 times on whole random games, 45 to 70 on greedy ones: docs/performance.md);
the Python engine runs what the native one cannot represent (a special tile behaviour of a plugin, say) and is what
a machine without a Rust toolchain gets.

Which engine a game gets: the ``engine=`` argument where games are made (``new_game``, ``start``), else the
environment variable ``SAMURAI_ENGINE`` (``python``, ``native`` or ``auto``), else ``auto``: native when it is
installed and can represent the edition, Python otherwise (``engine_report`` says which and why). Asking for
``native`` where it cannot run is one clear error, not a silent fallback.

An engine is an object with the engine functions as methods, each taking the compiled ``Rules`` and a position:
``samurai_plugins.knizia.core.state.State`` for the Python engine, ``samurai_plugins.knizia.engine._native.NativeState``
for the native one (the same fields, read-only). The code above (``Game``, ``HexGameState``, the runner) calls these
methods and never knows which engine it drives.
"""

from __future__ import annotations

import gc
import importlib
import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from samurai.errors import DataError
from samurai_plugins.knizia.core.result import Result
from samurai_plugins.knizia.core.state import OVER, State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as python_engine
from samurai_plugins.knizia.engine.consistency import check_position, refused_position

__all__ = ["ENGINE_VARIABLE", "ENGINE_CHOICES", "Engine", "PYTHON", "NATIVE", "engine_for", "engine_of",
           "engine_report", "engine_note", "requested_engine", "native_module", "native_unsupported", "native_rules",
           "native_spec", "NativeGame", "play_native_games", "play_native_run", "collector_paused"]

ENGINE_VARIABLE = "SAMURAI_ENGINE"
"""The environment variable that picks the engine of every game made without an ``engine=`` argument."""

ENGINE_CHOICES = ("python", "native", "auto")
"""What ``SAMURAI_ENGINE`` and ``engine=`` accept; ``auto`` (the default) is native wherever it can run."""


def _native_name(behaviour: Any) -> str | None:
    """The name the native engine carries ``behaviour`` out by (``TileBehaviour.native_name``), or None. Read from
    the behaviour's own class: a plugin's subclass of Move that changes a rule is played by the Python engine, not
    handed to Move's twin."""
    name = vars(type(behaviour)).get("native_name")
    return name if isinstance(name, str) else None


class Engine(Protocol):
    """The engine functions of ``samurai_plugins.knizia.engine.reference``, as one engine runs them on its positions."""

    name: str

    def new_state(self, rules: Rules, seed: int, *, trace: bool = False) -> Any:
        """A new game seeded ``seed``, its random setup done."""

    def of_state(self, rules: Rules, state: State, *, trusted: bool = False) -> Any:
        """This engine's position of a Python engine ``State`` (a scenario's, say); ``DataError``
        (``consistency.refused_position``) for one it cannot play on. ``trusted``: the position was made by this
        package from one already taken (a determinization), so the Python engine takes it as it is; the native
        engine checks every position it converts anyway."""

    def legal_actions(self, rules: Rules, st: Any) -> list[tuple[int, ...]]:
        """Every legal action, in the engine's stable order."""

    def check(self, rules: Rules, st: Any, action: tuple[int, ...]) -> str | None:
        """Why ``action`` is illegal now, or None."""

    def apply(self, rules: Rules, st: Any, action: tuple[int, ...]) -> None:
        """Carry out a legal action (check it first)."""

    def sample_action(self, rules: Rules, st: Any, rng: Any) -> tuple[int, ...]:
        """A random legal action drawn from ``rng``."""

    def play_random(self, rules: Rules, st: Any, rngs: Sequence[Any], *,
                    after: Callable[[tuple[int, ...]], None] | None = None) -> int:
        """The game to its end between random players, seat ``k`` drawing from ``rngs[k]``; how many actions were
        played. ``after(action)`` is called after each action, the position then as ``apply`` leaves it."""

    def play_random_into(self, rules: Rules, st: Any, rngs: Sequence[Any], actions: list[tuple[int, ...]]) -> int:
        """``play_random``, appending every action played to ``actions``."""


class PythonEngine:
    """The pure-Python engine (``samurai_plugins.knizia.engine.reference``): the reference."""

    name = "python"

    def new_state(self, rules: Rules, seed: int, *, trace: bool = False) -> State:
        """``engine.new_state``."""
        return python_engine.new_state(rules, seed, trace=trace)

    def of_state(self, rules: Rules, state: State, *, trusted: bool = False) -> State:
        """The state itself, once ``consistency.check_position`` takes it (unless ``trusted``)."""
        if not trusted:
            check_position(rules, state)
        return state

    def legal_actions(self, rules: Rules, st: State) -> list[tuple[int, ...]]:
        """``engine.legal_actions``."""
        return python_engine.legal_actions(rules, st)

    def check(self, rules: Rules, st: State, action: tuple[int, ...]) -> str | None:
        """``engine.check``."""
        return python_engine.check(rules, st, action)

    def apply(self, rules: Rules, st: State, action: tuple[int, ...]) -> None:
        """``engine.apply``."""
        python_engine.apply(rules, st, action)

    def sample_action(self, rules: Rules, st: State, rng: random.Random) -> tuple[int, ...]:
        """``engine.sample_action``."""
        return python_engine.sample_action(rules, st, rng)

    def play_random(self, rules: Rules, st: State, rngs: Sequence[random.Random], *,
                    after: Callable[[tuple[int, ...]], None] | None = None) -> int:
        """``engine.play_random``."""
        return python_engine.play_random(rules, st, rngs, after=after)

    def play_random_into(self, rules: Rules, st: State, rngs: Sequence[random.Random],
                         actions: list[tuple[int, ...]]) -> int:
        """``engine.play_random`` appending to ``actions`` (a bound method: no Python frame per action)."""
        return python_engine.play_random(rules, st, rngs, after=actions.append)

    def __repr__(self) -> str:
        return "<engine python>"


class NativeEngine:
    """The native engine (``samurai_plugins.knizia.engine._native``, Rust): the same games, far faster.

    A finished game's result is the one the Python engine makes: by the edition's own scoring hook, or, when the
    hook claims a shipped scoring (``samurai_plugins.knizia.editions.native_scoring``), decided natively with the hook's
    explanation.
    """

    name = "native"

    def new_state(self, rules: Rules, seed: int, *, trace: bool = False) -> Any:
        """A new game on the native engine."""
        st = native_module_or_error().NativeState.start(native_rules(rules), seed, trace)
        return _scored(rules, st)

    def of_state(self, rules: Rules, state: State, *, trusted: bool = False) -> Any:
        """The native position of a Python ``State``; ``DataError`` if the native engine refuses it, in the words
        the Python engine refuses it in (``consistency.refused_position``)."""
        try:
            st = native_module_or_error().NativeState.of_state(native_rules(rules), state)
        except ValueError as exc:
            raise refused_position(rules, str(exc).removeprefix("position: ")) from None
        return _scored(rules, st)

    def legal_actions(self, rules: Rules, st: Any) -> list[tuple[int, ...]]:
        """Every legal action, in the Python engine's order."""
        actions: list[tuple[int, ...]] = st.legal_actions()
        return actions

    def check(self, rules: Rules, st: Any, action: tuple[int, ...]) -> str | None:
        """Why ``action`` is illegal, in the Python engine's words; ``IndexError`` where it would index past a
        table."""
        reason: str | None = st.check(action)
        return reason

    def apply(self, rules: Rules, st: Any, action: tuple[int, ...]) -> None:
        """Carry out an action; the native side checks it again and refuses an illegal one unchanged."""
        st.apply(action)
        if st.phase == OVER:
            _scored(rules, st)

    def sample_action(self, rules: Rules, st: Any, rng: Any) -> tuple[int, ...]:
        """A random legal action, drawn from ``rng`` exactly as the Python engine draws."""
        action: tuple[int, ...] = st.sample_action(rng)
        return action

    def play_random(self, rules: Rules, st: Any, rngs: Sequence[Any], *,
                    after: Callable[[tuple[int, ...]], None] | None = None) -> int:
        """The game to its end between random players: one native call, or with ``after`` one call per action
        (``after`` may read the position between actions)."""
        if after is None:
            played, _ = st.play_random(list(rngs), False)
            _scored(rules, st)
            return int(played)
        played = 0
        while st.phase != OVER:
            action = st.sample_action(rngs[st.current])
            self.apply(rules, st, action)
            played += 1
            after(action)
        return played

    def play_random_into(self, rules: Rules, st: Any, rngs: Sequence[Any], actions: list[tuple[int, ...]]) -> int:
        """``play_random`` in one native call, the actions collected there."""
        played, kept = st.play_random(list(rngs), True)
        _scored(rules, st)
        actions.extend(kept)
        return int(played)

    def greedy_action(self, rules: Rules, st: Any, rng: Any) -> tuple[int, ...]:
        """What the greedy player plays for the seat to act (its own knowledge only), ties drawn from ``rng``."""
        action: tuple[int, ...] = st.greedy_action(rng)
        return action

    def __repr__(self) -> str:
        return "<engine native>"


PYTHON = PythonEngine()
"""The Python engine."""

NATIVE = NativeEngine()
"""The native engine (usable only where ``native_module()`` is not None)."""


def engine_of(st: Any) -> Engine:
    """The engine whose position ``st`` is."""
    return PYTHON if isinstance(st, State) else NATIVE


def _scored(rules: Rules, st: Any) -> Any:
    """Score a native game that has just ended: the winners and reason natively when the edition's scoring hook
    claims a shipped scoring (its explanation then written by the hook when read), else by the hook, as the Python
    engine's ``_finish`` does."""
    if st.phase == OVER and st.result is None:
        decision = st.native_decision()
        winners, reason = (None, None) if decision is None else decision
        st.result = native_result(rules, st.captured, winners, reason, st.end_reason)
    return st


_MODULE: list[ModuleType | None] = []


def native_module() -> ModuleType | None:
    """The native extension module, or None where the package was installed without a Rust toolchain."""
    if not _MODULE:
        try:
            _MODULE.append(importlib.import_module("samurai_plugins.knizia.engine._native"))
        except ImportError:
            _MODULE.append(None)
    return _MODULE[0]


_NOT_BUILT = ("the native engine is not installed here (the package was built without a Rust toolchain: "
              "install cargo and reinstall to get it)")


def native_module_or_error() -> ModuleType:
    """The native module, or a ``DataError`` saying it is not installed."""
    module = native_module()
    if module is None:
        raise DataError(_NOT_BUILT, source=ENGINE_VARIABLE)
    return module


def native_unsupported(rules: Rules) -> str | None:
    """Why the native engine cannot play these rules, or None when it can (and is installed)."""
    if native_module() is None:
        return _NOT_BUILT
    for tile, behaviour in enumerate(rules.behaviours):
        if behaviour is not None and _native_name(behaviour) is None:
            return (f"tile {rules.tile_types[tile].name!r} is played by the special tile behaviour "
                    f"{getattr(behaviour, 'name', type(behaviour).__name__)!r} of a plugin "
                    f"({type(behaviour).__module__}), which only the Python engine runs")
    return None


def requested_engine(engine: str | None = None) -> str:
    """The engine asked for: ``engine`` if given, else ``SAMURAI_ENGINE``, else ``auto``; ``DataError`` naming the
    argument or variable for anything else."""
    if engine is None:
        asked = os.environ.get(ENGINE_VARIABLE, "").strip() or "auto"
        where = ENGINE_VARIABLE
    else:
        asked, where = engine, "engine"
    if asked not in ENGINE_CHOICES:
        raise DataError(f"must be one of {', '.join(ENGINE_CHOICES)}, not {asked!r}", source=where)
    return asked


def engine_for(rules: Rules, engine: str | Engine | None = None) -> Engine:
    """The engine a game under ``rules`` gets (see the module): an engine object is returned as it is."""
    if isinstance(engine, (PythonEngine, NativeEngine)):
        return engine
    asked = requested_engine(engine if isinstance(engine, str) or engine is None else str(engine))
    if asked == "python":
        return PYTHON
    why = native_unsupported(rules)
    if why is None:
        return NATIVE
    if asked == "native":
        raise DataError(f"the native engine cannot play edition {rules.edition.id!r}: {why}", source="engine")
    return PYTHON


def engine_report(rules: Rules, engine: str | None = None) -> tuple[str, str | None]:
    """Which engine games under ``rules`` get and, when it is Python, why (None when native, or when Python was
    asked for)."""
    asked = requested_engine(engine)
    if asked == "python":
        return "python", f"{ENGINE_VARIABLE}=python" if engine is None else "engine=python"
    why = native_unsupported(rules)
    return ("native", None) if why is None else ("python", why)


def engine_note() -> str:
    """The engine games get where nothing plugged in asks for Python, and whether the native one was built, in a
    few words (``samurai --version``): ``engine: native; native engine built``. A ``SAMURAI_ENGINE`` that names
    no engine is said, not raised: the version is always told."""
    built = native_module() is not None
    state = "native engine built" if built else "native engine not built"
    try:
        asked = requested_engine()
    except DataError:
        return f"engine: none ({ENGINE_VARIABLE}={os.environ.get(ENGINE_VARIABLE, '')!r:.40} names none of " \
               f"{', '.join(ENGINE_CHOICES)}); {state}"
    if asked == "native" and not built:
        return f"engine: none ({ENGINE_VARIABLE}=native, which is not built); {state}"
    return f"engine: {'native' if built and asked != 'python' else 'python'}; {state}"


def native_rules(rules: Rules) -> Any:
    """The native engine's tables of ``rules`` (``NativeRules``), made once per compiled rules."""
    if rules.native is None:
        rules.native = native_module_or_error().NativeRules(native_spec(rules), rules.template)
    return rules.native


def native_spec(rules: Rules) -> dict[str, Any]:
    """The compiled rules as the plain tables ``NativeRules`` reads (every choice the hooks made, as data)."""
    board, setup = rules.board, rules.setup
    placement = ("land", "sea", "special")
    return {
        "players": rules.players, "hand_size": rules.hand_size,
        "tile_names": [t.name for t in rules.tile_types],
        "tile_influence": [t.influence for t in rules.tile_types],
        "tile_value": list(rules.tile_value), "tile_fast": list(rules.tile_fast),
        "tile_on": [placement[on] for on in rules.tile_on], "tile_movable": list(rules.tile_movable),
        "tile_special": [None if b is None else _native_name(b) or "unsupported" for b in rules.behaviours],
        "player_tiles": list(rules.player_tiles), "board_size": board.size, "terrain": list(board.terrain),
        "land_hexes": list(board.land_hexes), "sea_hexes": list(board.sea_hexes),
        "adjacent_settlements": [list(s) for s in board.adjacent_settlements],
        "settlement_neighbours": [list(n) for n in rules.settlement_neighbours],
        "settlement_names": [s.name for s in board.settlements], "capacities": list(rules.capacities),
        "stage_of": list(rules.stage_of), "stage_count": len(rules.figure_stages),
        "hands_random": setup.hands == "random", "figures_random": setup.figures == "random",
        "first_player": setup.first_player, "figures_must_fit": setup.figures_must_fit,
        "resolve_each_tile": rules.resolve_each_tile, "end_immediate": rules.end_immediate,
        "pass_when_unable": rules.pass_when_unable, "removed_limit": rules.removed_limit,
        "scoring": rules.native_scoring,
    }


def native_result(rules: Rules, captured: Sequence[int], winners: Sequence[int] | None, reason: str | None,
                  end_reason: str) -> Result:
    """The result of a game the native engine played whole: decided natively when the edition's scoring is one it
    knows (the explanation is the hook's, written when read), else by the edition's hook."""
    if winners is None or reason is None:
        return rules.score(list(captured)).with_end_reason(end_reason)
    counts = list(captured)
    return Result(tuple(winners), reason, lambda: rules.score(counts).explanation, end_reason)


class NativeGame(NamedTuple):
    """A game the native engine played whole (``play_native_games``): what the runner and ``compare`` read of it.
    The fields are in the order of the rows ``samurai_plugins.knizia.engine._native.play_games`` gives,
    so a row is one."""

    seed: int
    winners: tuple[int, ...]
    reason: str
    returns: tuple[float, ...]
    """The protocol's returns: the winners share 1."""
    end_reason: str
    turns: int
    tiles_played: int
    captured: tuple[tuple[int, int, int], ...]
    """Per seat, figures captured of each caste."""
    removed: int
    actions: int
    leader: int | None
    """The seat leading alone in captured figures after the middle turn
    (``samurai_plugins.knizia.core.facts.FactsWatch``)."""
    kept_actions: list[tuple[int, ...]] | None = None
    """Every action of the game when they were asked for (``play_games(..., keep=True)``), else None."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for the block (and resumed after it, if it ran before): a batch of native
    games builds a few tuples per game and no cycle, yet each few hundred of them would start a collection that
    walks every object the process holds, which in a large process costs more than playing the games."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def play_native_run(rules: Rules, seed: int, indices: Sequence[int], bots: Sequence[str]) -> list[NativeGame]:
    """``play_native_games`` of the games ``indices`` of a run seeded ``seed`` (game ``i`` seeded ``derive_seed(seed,
    i)``, the seeds derived natively)."""
    return play_native_games(rules, native_module_or_error().derive_seeds(seed, list(indices)), bots)


def play_native_games(rules: Rules, seeds: Sequence[int], bots: Sequence[str]) -> list[NativeGame]:
    """Whole games between ``random`` and ``greedy`` bots on the native engine, one call for all the seeds (as
    ``samurai_plugins.knizia.adapters.runner.play_game`` plays them), each scored as its edition scores it."""
    native = native_module_or_error()
    rows = native.play_games(native_rules(rules), list(seeds), list(bots))
    games = list(map(NativeGame._make, rows))
    for k, game in enumerate(games):
        if game.returns is None:  # the edition's own scoring hook decides
            flat = [count for castes in game.captured for count in castes]
            result = native_result(rules, flat, None, None, game.end_reason)
            games[k] = game._replace(winners=result.winners, reason=result.reason,
                                     returns=result.shares(rules.players))
    return games
