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
hook's entry in ``HOOK_RESULTS`` (the framework's hooks) or in its game's
``GameDefinition.editions.hook_results`` (a game's own hooks) where the engine uses it.
The helpers a game builds its checkers from (``HookResult``, ``one_of``,
``list_of``, ``bool_problem``, ``field_problem``, ``record_problem``, ...) are here, so every
refusal reads alike.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from importlib.resources.abc import Traversable
from operator import attrgetter
from pathlib import Path
from typing import Any

import attrs
import pluggy

from ..errors import DataError

__all__ = ["PLUGIN_FAILURES", "plugin_location", "hook_failure", "wrong_hook_result", "deciding_plugin",
           "guarded", "plugin_failure", "PLUGIN_FILE_MODULE_PREFIX", "HookResult", "HOOK_RESULTS",
           "check_hook_result", "call_hook", "refused_hook_result", "short", "not_expected", "is_sequence",
           "is_text", "is_whole", "one_of", "bool_problem", "list_of", "field_problem", "Field", "record_problem",
           "instance_of", "optional_function"]

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
                     f"{short(returned)}, not {expected}", source=source)


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
            raise DataError(f"plugin {where(None)}: {what} returned {short(returned)}, not {expected}",
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


def short(value: Any) -> str:
    """``repr(value)``, cut to 80 characters, as a refusal quotes a value."""
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


def not_expected(value: Any, expected: str) -> str:
    """``<value>, not <expected>``: what a refusal says after "returned"."""
    return f"{short(value)}, not {expected}"


def is_sequence(value: Any) -> bool:
    """A list or tuple: the sequences a hook returns (a string or a mapping is not one)."""
    return isinstance(value, (list, tuple))


def is_text(value: Any) -> bool:
    """A non-blank text."""
    return isinstance(value, str) and bool(value.strip())


def is_whole(value: Any) -> bool:
    """A whole number (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def one_of(*allowed: str) -> HookResult:
    """A deciding hook whose answer is one of the texts ``allowed``."""
    expected = "one of " + ", ".join(map(repr, allowed))

    def problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
        return None if isinstance(value, str) and value in allowed else not_expected(value, expected)

    return HookResult(expected, problem)


def bool_problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
    """What is wrong with an answer that must be exactly ``True`` or ``False``, or None."""
    return None if value is True or value is False else not_expected(value, "True or False")


def list_of(kind: str, item_problem: Callable[[Any], str | None]) -> HookResult:
    """A contributing hook's answer: a list of ``kind``, each item as ``item_problem`` (a phrase, or None) says."""
    expected = f"a list of {kind}"

    def problem(value: Any, arguments: Mapping[str, Any]) -> str | None:
        if not is_sequence(value):
            return not_expected(value, expected)
        for item in value:
            wrong = item_problem(item)
            if wrong is not None:
                return f"a list holding {wrong}"
        return None

    return HookResult(expected, problem)


def field_problem(kind: str, name: str, value: Any, expected: str) -> str:
    """``a <kind> whose <name> is <value>, not <expected>``: a refusal of one field of an answer."""
    return f"a {kind} whose {name} is {not_expected(value, expected)}"


@attrs.frozen
class Field:
    """One field of a record a hook returns, as ``record_problem`` checks it."""

    name: str
    """The field's name, or its dotted place in a group of the record (``"faces.web"``)."""
    fits: Callable[[Any], bool]
    """Whether a value is right for the field."""
    expected: str
    """The right value in words, as a refusal says it: ``"a function or None"``."""


def record_problem(kind: type[Any], name_expected: str, fields: Sequence[Field]) -> Callable[[Any], str | None]:
    """The checker of a named record a hook returns (``GameDefinition``, ``ExecutorFactory``, ``GameMetric``...):
    an instance of ``kind`` whose ``name`` is a text (``name_expected`` in words), then each of ``fields`` in
    order; a phrase for ``list_of`` naming the first field that is wrong (``field_problem``), or None."""
    title = kind.__name__
    article = "an" if title[0] in "AEIOU" else "a"

    def problem(item: Any) -> str | None:
        if not isinstance(item, kind):
            return not_expected(item, f"{article} {title}")
        if not is_text(item.name):
            return field_problem(title, "name", item.name, name_expected)
        for field in fields:
            value = attrgetter(field.name)(item)  # a dotted name reads a field of a group
            if not field.fits(value):
                return field_problem(f"{title} {item.name!r},", field.name, value, field.expected)
        return None

    return problem


def instance_of(*kinds: type, optional: bool = False) -> Callable[[Any], bool]:
    """A ``Field.fits``: an instance of one of ``kinds`` (or None, when ``optional``)."""
    return lambda value: (optional and value is None) or isinstance(value, kinds)


def optional_function(value: Any) -> bool:
    """A ``Field.fits``: a function, or None."""
    return value is None or callable(value)


def _manifest_problem(item: Any) -> str | None:
    if isinstance(item, (str, os.PathLike, Traversable)):
        return None
    return not_expected(item, "a manifest path or importlib Traversable")


HOOK_RESULTS: dict[str, HookResult] = {
    "samurai_edition_manifests": list_of("manifest paths", _manifest_problem),
}
"""What the framework's hooks whose answers are plain data must return, by hook name. The checkers of
``samurai_games`` and ``samurai_executors`` live beside the types they check (``samurai.catalog.games.GAMES_RESULT``,
``samurai.runs.executors.EXECUTORS_RESULT``) and are given where those hooks are called; the conformance kit holds
all of them (``samurai.kit.conformance.FRAMEWORK_HOOK_RESULTS``). Each game's own hooks are checked against its
``GameDefinition.editions.hook_results`` (docs/designing-editions.md lists Knizia's).

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


def check_hook_result(caller: pluggy.HookCaller, returned: Any, *, source: str, arguments: Mapping[str, Any],
                      hook_results: Mapping[str, HookResult] | None = None) -> None:
    """Refuse an answer of hook ``caller`` (for ``arguments``) that its entry does not allow: in ``hook_results``
    (a game's checkers, ``GameDefinition.editions.hook_results``) or else in the framework's ``HOOK_RESULTS``.

    ``returned`` is what pluggy's call gave: a deciding hook's answer, or a contributing hook's list of
    contributions. The ``DataError`` names the plugin file, the hook and the value; ``source`` is the
    edition manifest (or what else asked).
    """
    spec = (hook_results or {}).get(caller.name) or HOOK_RESULTS[caller.name]
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


def call_hook(caller: pluggy.HookCaller, *, source: str, context: str = "",
              hook_results: Mapping[str, HookResult] | None = None, **arguments: Any) -> Any:
    """Call hook ``caller`` through pluggy with ``arguments`` and check its result (``check_hook_result``; a game's
    own hook against ``hook_results``, its ``GameDefinition.editions.hook_results``).

    A plugin that raises is reported by ``hook_failure`` (``context`` says what it was asked); a
    ``DataError`` a plugin raises on purpose passes through unchanged.
    """
    try:
        returned = caller(**arguments)
    except DataError:
        raise
    except PLUGIN_FAILURES as exc:
        raise hook_failure(caller, exc, source=source, context=context) from None
    check_hook_result(caller, returned, source=source, arguments=arguments, hook_results=hook_results)
    return returned
