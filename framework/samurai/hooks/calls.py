"""Reporting a plugin that fails when its hook is called: one ``DataError`` naming the plugin file, the hook and
the error; and checking that a hook's result is what its specification allows (``HOOK_RESULTS``).

A plugin is code and is trusted like code (docs/designing-editions.md), so the
engine does not sandbox it; but a bug in one must reach the designer as one
line they can act on, not as a traceback from deep inside the engine or a
wrong type that breaks a table later. The engine calls hooks through pluggy
as usual and, only when something went wrong, asks here which plugin it was.

A wrong answer is refused as firmly as a failure: ``"no"`` or ``1`` where a
hook must say ``True`` or ``False`` would otherwise be read as true and
silently flip a rule. ``check_hook_result`` holds each answer against the
hook's entry in ``HOOK_RESULTS`` where the engine uses it, once, when an
edition is compiled or a game starts (the scoring hook, called once a game,
is checked by ``samurai.knizia.rules`` on its own fast path with the same words).
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import attrs
import pluggy

from ..errors import DataError

__all__ = ["PLUGIN_FAILURES", "plugin_location", "hook_failure", "wrong_hook_result", "deciding_plugin",
           "guarded", "plugin_failure", "PLUGIN_FILE_MODULE_PREFIX", "HookResult", "HOOK_RESULTS",
           "check_hook_result", "call_hook", "refused_hook_result"]

PLUGIN_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)
"""What a failing hook may raise and still be reported as the plugin's failure.

``KeyboardInterrupt`` is left alone: at play time it is the person pressing
Ctrl-C (or a SIGTERM), and the run must stop as interrupted.
"""


def plugin_location(plugin: Any, name: str, exc: BaseException | None = None) -> str:
    """``/path/variant.py:12``: the plugin's file, and the line in it where ``exc`` was raised when known."""
    file = getattr(plugin, "__file__", None)
    if not file:
        return name
    line = None
    if exc is not None:
        line = next((frame.lineno for frame in reversed(traceback.extract_tb(exc.__traceback__))
                     if Path(frame.filename) == Path(file)), None)
    return f"{file}:{line}" if line is not None else str(file)


def _failing_impl(caller: pluggy.HookCaller, exc: BaseException) -> Any:
    """The hook implementation whose call raised ``exc`` (the outermost one on the traceback), or None."""
    impls = {impl.function.__code__: impl for impl in caller.get_hookimpls()
             if hasattr(impl.function, "__code__")}
    tb = exc.__traceback__
    while tb is not None:
        impl = impls.get(tb.tb_frame.f_code)
        if impl is not None:
            return impl
        tb = tb.tb_next
    return None


def hook_failure(caller: pluggy.HookCaller, exc: BaseException, *, source: str, context: str = "") -> DataError:
    """The ``DataError`` for hook ``caller`` that raised ``exc``: the plugin file and line, the hook, the error.

    ``source`` is the edition manifest the plugin belongs to; ``context`` adds
    what the hook was asked (e.g. the options).
    """
    impl = _failing_impl(caller, exc)
    where = plugin_location(impl.plugin, impl.plugin_name, exc) if impl is not None else "a plugin"
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return DataError(f"plugin {where}: {caller.name} failed{context}: {detail}", source=source)


def deciding_plugin(caller: pluggy.HookCaller, arguments: Mapping[str, Any],
                    culprit: Callable[[Any], bool] = lambda returned: returned is not None) -> str:
    """The plugin whose implementation of ``caller`` gave a wrong result for ``arguments`` (its file, or name).

    For a ``firstresult`` hook that is the first one to return something; for
    a contributing hook, the first whose contribution ``culprit`` picks out.
    Used only to explain a wrong result: the implementations are called again,
    in pluggy's order, until one is found.
    """
    for impl in reversed(caller.get_hookimpls()):
        try:
            returned = impl.function(*(arguments[name] for name in impl.argnames))
        except PLUGIN_FAILURES:
            return plugin_location(impl.plugin, impl.plugin_name)
        if culprit(returned):
            return plugin_location(impl.plugin, impl.plugin_name)
    return "a plugin"


def wrong_hook_result(caller: pluggy.HookCaller, returned: Any, expected: str, *, source: str,
                      arguments: Mapping[str, Any],
                      culprit: Callable[[Any], bool] = lambda returned: returned is not None) -> DataError:
    """The ``DataError`` for hook ``caller`` that returned ``returned`` instead of ``expected``."""
    return DataError(f"plugin {deciding_plugin(caller, arguments, culprit)}: {caller.name} returned "
                     f"{_short(returned)}, not {expected}", source=source)


def guarded(function: Callable[[Any], Any], what: str, *, source: str,
            check: Callable[[Any], bool], expected: str) -> Callable[[Any], Any]:
    """``function`` (a plugin's callable, e.g. a metric's value) reporting a failure or a wrong result as a
    ``DataError`` naming the plugin file and line, ``what`` it is, and the error."""
    code = getattr(function, "__code__", None)
    file = code.co_filename if code is not None else None

    def where(exc: BaseException | None) -> str:
        if file is None:
            return "a plugin"
        line = None
        if exc is not None:
            line = next((frame.lineno for frame in reversed(traceback.extract_tb(exc.__traceback__))
                         if frame.filename == file), None)
        return f"{file}:{line}" if line is not None else file

    def call(argument: Any) -> Any:
        try:
            returned = function(argument)
        except PLUGIN_FAILURES as exc:
            if isinstance(exc, DataError):
                raise
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise DataError(f"plugin {where(exc)}: {what} failed: {detail}", source=source) from None
        if not check(returned):
            raise DataError(f"plugin {where(None)}: {what} returned {_short(returned)}, not {expected}",
                            source=source)
        return returned

    return call


PLUGIN_FILE_MODULE_PREFIX = "samurai_plugin_file_"
"""The module name a plugin file beside a manifest is imported under (``plugins.load_plugin_file``)."""


def plugin_failure(exc: BaseException) -> DataError | None:
    """For an unexpected ``exc`` raised in a plugin's own code (a special tile's behaviour, say): a ``DataError``
    naming the plugin file, the line and the function that failed, and the error. None when the traceback
    does not pass through a plugin: an engine bug stays a traceback, to be reported.
    """
    plugin_modules = {entry.value.split(":")[0] for entry in entry_points(group="samurai")}
    deepest = None
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if module.startswith(PLUGIN_FILE_MODULE_PREFIX) or module in plugin_modules:
            deepest = tb
        tb = tb.tb_next
    if deepest is None:
        return None
    code = deepest.tb_frame.f_code
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return DataError(f"plugin {code.co_filename}:{deepest.tb_lineno}: {code.co_name} failed: {detail}")


def _short(value: Any) -> str:
    try:
        shown = repr(value)
    except PLUGIN_FAILURES:  # a plugin's object whose repr fails (a Result whose explanation function breaks)
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= 80 else shown[:77] + "..."



# --- what each hook must return ------------------------------------------------------------------

@attrs.frozen
class HookResult:
    """What one hook must return.

    For a deciding (``firstresult``) hook ``problem`` sees the answer; for a
    contributing hook, each plugin's contribution (the list it returned).
    """

    expected: str
    """The answer in words, as a refusal says it: ``"True or False"``."""
    problem: Callable[[Any, Mapping[str, Any]], str | None]
    """``problem(answer, arguments)``: what the refusal says after "returned" (the value and what it should
    be), or None when the answer is right. ``arguments`` are those the hook was called with."""


def _not(value: Any, expected: str) -> str:
    return f"{_short(value)}, not {expected}"


def _sequence(value: Any) -> bool:
    """A list or tuple: the sequences a hook returns (a string or a mapping is not one)."""
    return isinstance(value, (list, tuple))


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one_of(*allowed: str) -> HookResult:
    expected = "one of " + ", ".join(map(repr, allowed))

    def problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
        return None if isinstance(value, str) and value in allowed else _not(value, expected)

    return HookResult(expected, problem)


def _bool_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    return None if value is True or value is False else _not(value, "True or False")


def _list_of(kind: str, item_problem: Callable[[Any], str | None]) -> HookResult:
    """A contributing hook's answer: a list of ``kind``, each item as ``item_problem`` (a phrase, or None) says."""
    expected = f"a list of {kind}"

    def problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
        if not _sequence(value):
            return _not(value, expected)
        for item in value:
            wrong = item_problem(item)
            if wrong is not None:
                return f"a list holding {wrong}"
        return None

    return HookResult(expected, problem)


def _field(kind: str, name: str, value: Any, expected: str) -> str:
    return f"a {kind} whose {name} is {_not(value, expected)}"


def _settlement_kinds_problem(kinds: Any) -> str | None:
    from ..knizia.maps import SETTLEMENT_CAPACITY

    if _sequence(kinds) and all(isinstance(kind, str) and kind in SETTLEMENT_CAPACITY for kind in kinds):
        return None
    return f"a list of settlement kinds ({', '.join(map(repr, SETTLEMENT_CAPACITY))})"


def _setup_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    from ..knizia.setup_rules import SETUP_PHASES, SetupProcedure

    if not isinstance(value, SetupProcedure):
        return _not(value, "a SetupProcedure")
    kind, phases = "SetupProcedure", tuple(SETUP_PHASES)
    order = value.order
    if not (_sequence(order) and all(isinstance(p, str) for p in order) and sorted(order) == sorted(phases)):
        return _field(kind, "order", order, f"each of {', '.join(map(repr, phases))} once")
    for name in ("hands", "figures"):
        chosen = getattr(value, name)
        if not (isinstance(chosen, str) and chosen in ("choose", "random")):
            return _field(kind, name, chosen, "'choose' or 'random'")
    stages = value.figure_stages
    if not _sequence(stages) or any(_settlement_kinds_problem(stage) for stage in stages):
        return _field(kind, "figure_stages", stages, "a list of stages, each a list of settlement kinds")
    wrong = _settlement_kinds_problem(value.prefilled)
    if wrong is not None:
        return _field(kind, "prefilled", value.prefilled, wrong)
    players = arguments["players"]
    if not (_whole(value.first_player) and 0 <= value.first_player < players):
        return (f"a {kind} whose first_player {_short(value.first_player)} is not a seat of a {players}-player game "
                f"(0 to {players - 1})")
    if value.figures_must_fit is not True and value.figures_must_fit is not False:
        return _field(kind, "figures_must_fit", value.figures_must_fit, "True or False")
    return None


def score_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    """What is wrong with a scoring hook's answer for the ``captured`` it was given, or None (see ``HOOK_RESULTS``).

    ``samurai.knizia.rules`` checks every game's result on a faster path and asks here only for the words.
    """
    from ..knizia.result import END_REASONS, Result

    expected = "a Result naming winning seats"
    if not isinstance(value, Result):
        return _not(value, expected)
    seats = arguments["captured"]
    winners = value.winners
    if not isinstance(winners, tuple) or not winners:
        return f"{_not(value, expected)}: winners must be a tuple of one seat or more"
    for seat in winners:
        if not _whole(seat) or seat not in seats:
            return f"{_not(value, expected)}: {_short(seat)} is not a seat of the {len(seats)} scored"
    if len(set(winners)) != len(winners):
        return f"{_not(value, expected)}: a seat is named twice among the winners"
    if not _text(value.reason):
        return f"{_not(value, expected)}: reason must be a short code (text), not {_short(value.reason)}"
    explanation = value._explanation
    if not (isinstance(explanation, str) or callable(explanation)):
        return f"{_not(value, expected)}: the explanation must be text or a function writing it"
    if value.end_reason is not None and value.end_reason not in END_REASONS:
        return (f"{_not(value, expected)}: end_reason is the engine's to fill in: None or one of "
                f"{', '.join(map(repr, END_REASONS))}")
    return None


def _manifest_problem(item: Any) -> str | None:
    if isinstance(item, (str, os.PathLike, Traversable)):
        return None
    return _not(item, "a manifest path or importlib Traversable")


def _behaviour_problem(item: Any) -> str | None:
    from ..knizia.actions import Action

    name = getattr(item, "name", None)
    if not _text(name):
        return _field("tile behaviour", "name", name, "a text naming the behaviour")
    try:
        action_type = item.action_type
    except PLUGIN_FAILURES as exc:
        return f"a tile behaviour {name!r} whose action_type fails ({type(exc).__name__})"
    if not (isinstance(action_type, type) and issubclass(action_type, Action)):
        return _field(f"tile behaviour {name!r},", "action_type", action_type, "a samurai.knizia.actions.Action class")
    for method in ("can_play", "legal", "check", "sample", "apply", "to_action", "from_action", "parameter_ranges"):
        if not callable(getattr(item, method, None)):
            return (f"a tile behaviour {name!r} without the method {method} "
                    f"(see samurai.knizia.special_tiles.TileBehaviour)")
    return None


def _metric_problem(item: Any) -> str | None:
    from ..runs.statistics import GameMetric

    if not isinstance(item, GameMetric):
        return _not(item, "a GameMetric")
    if not _text(item.name):
        return _field("GameMetric", "name", item.name, "a text")
    kind = f"GameMetric {item.name!r},"
    if not isinstance(item.label, str):
        return _field(kind, "label", item.label, "a text")
    if not (isinstance(item.kind, str) and item.kind in ("rate", "mean")):
        return _field(kind, "kind", item.kind, "'rate' or 'mean'")
    if not callable(item.value):
        return _field(kind, "value", item.value, "a function of one game's facts")
    return None


def _executor_problem(item: Any) -> str | None:
    from ..runs.executors import ExecutorFactory

    if not isinstance(item, ExecutorFactory):
        return _not(item, "an ExecutorFactory")
    if not _text(item.name):
        return _field("ExecutorFactory", "name", item.name, "a text (what --backend names)")
    kind = f"ExecutorFactory {item.name!r},"
    if not isinstance(item.description, str):
        return _field(kind, "description", item.description, "a text")
    if not callable(item.make):
        return _field(kind, "make", item.make, "a function of (workers, scheduler)")
    return None


_GAME_FUNCTIONS = ("load_board", "player_counts", "start", "render", "check_manifest", "checks")
_GAME_OPTIONAL_FUNCTIONS = ("tell", "web", "hook_arguments", "check_hook_answer", "play_batch", "outcome", "summary")


def _game_problem(item: Any) -> str | None:
    from ..catalog.games import GameDefinition, GameMeasures, GameRecords

    if not isinstance(item, GameDefinition):
        return _not(item, "a GameDefinition")
    if not _text(item.name):
        return _field("GameDefinition", "name", item.name, "a text (what a manifest's game key says)")
    kind = f"GameDefinition {item.name!r},"
    if not isinstance(item.title, str):
        return _field(kind, "title", item.title, "a text")
    for name in _GAME_FUNCTIONS:
        if not callable(getattr(item, name)):
            return _field(kind, name, getattr(item, name), "a function")
    for name in _GAME_OPTIONAL_FUNCTIONS:
        function = getattr(item, name)
        if function is not None and not callable(function):
            return _field(kind, name, function, "a function or None")
    keys = item.manifest_keys
    if not (isinstance(keys, frozenset) and all(isinstance(key, str) for key in keys)):
        return _field(kind, "manifest_keys", keys, "a frozenset of key names")
    if item.measures is not None and not isinstance(item.measures, GameMeasures):
        return _field(kind, "measures", item.measures, "a GameMeasures or None")
    if item.records is not None and not isinstance(item.records, GameRecords):
        return _field(kind, "records", item.records, "a GameRecords or None")
    if type(item.bot_seed_offset) is not int or item.bot_seed_offset < 0:
        return _field(kind, "bot_seed_offset", item.bot_seed_offset, "a whole number from 0")
    return None


HOOK_RESULTS: dict[str, HookResult] = {
    "samurai_edition_manifests": _list_of("manifest paths", _manifest_problem),
    "samurai_setup_procedure": HookResult("a SetupProcedure", _setup_problem),
    "samurai_resolution_timing": _one_of("end_of_turn", "each_tile"),
    "samurai_end_check_timing": _one_of("end_of_turn", "immediate"),
    "samurai_cannot_play": _one_of("pass", "end"),
    "samurai_tile_behaviours": _list_of("TileBehaviour", _behaviour_problem),
    "samurai_public_captures": HookResult("True or False", _bool_problem),
    "samurai_score": HookResult("a Result naming winning seats", score_problem),
    "samurai_game_metrics": _list_of("GameMetric", _metric_problem),
    "samurai_executors": _list_of("ExecutorFactory", _executor_problem),
    "samurai_games": _list_of("GameDefinition", _game_problem),
}
"""What every hook of ``samurai.hooks.specs`` must return, by hook name (docs/designing-editions.md lists them).

A deciding hook's answer is checked as a whole (None is pluggy's "no answer", and the engine's defaults
always answer); a contributing hook's list of answers is checked plugin by plugin. Bools must be ``True`` or
``False`` themselves, choices one of their texts, seats whole numbers of the game, sequences lists or tuples.
"""


def refused_hook_result(caller: pluggy.HookCaller, problem: str, *, source: str, arguments: Mapping[str, Any],
                        culprit: Callable[[Any], bool] = lambda returned: returned is not None) -> DataError:
    """The ``DataError`` for hook ``caller`` whose answer was wrong: the plugin that gave it (``deciding_plugin``),
    the hook, and ``problem`` (what it returned and what it should have)."""
    return DataError(f"plugin {deciding_plugin(caller, arguments, culprit)}: {caller.name} returned {problem}",
                     source=source)


def check_hook_result(caller: pluggy.HookCaller, returned: Any, *, source: str,
                      arguments: Mapping[str, Any]) -> None:
    """Refuse an answer of hook ``caller`` (for ``arguments``) that its ``HOOK_RESULTS`` entry does not allow.

    ``returned`` is what pluggy's call gave: a deciding hook's answer, or a contributing hook's list of
    contributions. The ``DataError`` names the plugin file, the hook and the value; ``source`` is the
    edition manifest (or what else asked).
    """
    spec = HOOK_RESULTS[caller.name]
    if caller.spec is not None and caller.spec.opts.get("firstresult"):
        problem = spec.problem(returned, arguments)
        if problem is not None:
            raise refused_hook_result(caller, problem, source=source, arguments=arguments)
        return
    for contribution in returned:
        problem = spec.problem(contribution, arguments)
        if problem is not None:
            raise refused_hook_result(caller, problem, source=source, arguments=arguments,
                                      culprit=lambda answer: answer is not None
                                      and spec.problem(answer, arguments) is not None)


def call_hook(caller: pluggy.HookCaller, *, source: str, context: str = "", **arguments: Any) -> Any:
    """Call hook ``caller`` through pluggy with ``arguments`` and check its result (``check_hook_result``).

    A plugin that raises is reported by ``hook_failure`` (``context`` says what it was asked); a
    ``DataError`` a plugin raises on purpose passes through unchanged.
    """
    try:
        returned = caller(**arguments)
    except DataError:
        raise
    except PLUGIN_FAILURES as exc:
        raise hook_failure(caller, exc, source=source, context=context) from None
    check_hook_result(caller, returned, source=source, arguments=arguments)
    return returned
