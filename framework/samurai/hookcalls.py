"""Reporting a plugin that fails when its hook is called: one ``DataError`` naming the plugin file, the hook and
the error.

A plugin is code and is trusted like code (docs/designing-editions.md), so the
engine does not sandbox it; but a bug in one must reach the designer as one
line they can act on, not as a traceback from deep inside the engine or a
wrong type that breaks a table later. The engine calls hooks through pluggy
as usual and, only when something went wrong, asks here which plugin it was.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy

from .errors import DataError

__all__ = ["PLUGIN_FAILURES", "plugin_location", "hook_failure", "wrong_hook_result", "deciding_plugin",
           "guarded", "plugin_failure", "PLUGIN_FILE_MODULE_PREFIX"]

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
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."
