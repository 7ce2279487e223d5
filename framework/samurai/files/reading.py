"""Reading the text files people write (TOML and JSON), with errors that name the file and line.

This is the one place a data file is read, so every file gets the same
guards: only a regular file is opened (a pipe, device or folder is refused
before it is opened, and the open does not block), at most ``MAX_FILE_BYTES``
are read, the text must be UTF-8, and the parsed data must be plain: nested at
most ``MAX_DEPTH`` deep, integers within 64 bits, finite numbers, and (in JSON)
no key given twice. A file that breaks one is a ``DataError`` naming it.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import DataError

__all__ = ["MAX_FILE_BYTES", "MAX_DEPTH", "is_file", "read_text", "read_toml", "read_data", "parse_json", "parse_toml",
           "check_plain", "table_line", "field_line", "key_line", "check_keys", "require", "whole_number",
           "any_whole_number", "INT_LOW", "INT_HIGH"]

MAX_FILE_BYTES = 4 * 1024 * 1024
"""The largest file read: a long game's record is tens of kilobytes, a big map a few."""

MAX_DEPTH = 32
"""The deepest nesting of tables and lists a data file may have (a record needs four)."""

_INT_LIMIT = 2 ** 63
"""TOML integers are 64-bit; nothing the engine reads needs more."""

INT_LOW = -_INT_LIMIT
"""The smallest whole number a data file may hold (a 64-bit integer's)."""
INT_HIGH = _INT_LIMIT - 1
"""The largest whole number a data file may hold (a 64-bit integer's)."""


def is_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file; a name no file can have (too long, a NUL in it) is not one."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_text(path: Path | Any) -> str:
    """A text file's content (UTF-8); a missing, unreadable, special or oversized file is a ``DataError``.

    ``path`` is a path or an importlib Traversable (the engine's bundled files).
    """
    if not isinstance(path, (str, os.PathLike)):
        try:
            return str(path.read_text(encoding="utf-8"))  # a bundled file inside the installed package
        except (OSError, UnicodeDecodeError) as exc:
            raise DataError(f"cannot be read: {exc}", source=str(path)) from None
    source = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise DataError("file not found", source=source) from None
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot be read: {_reason(exc)}", source=source) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, device or socket"
        raise DataError(f"is {kind}, not a regular file", source=source)
    if info.st_size > MAX_FILE_BYTES:
        raise DataError(f"is {info.st_size:,} bytes, larger than any file samurai reads "
                        f"({MAX_FILE_BYTES // (1024 * 1024)} MB at most)", source=source)
    try:
        # O_NONBLOCK: should the file be swapped for a pipe after the check, opening it cannot hang.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DataError(f"cannot be read: {_reason(exc)}", source=source) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise DataError("is not a regular file", source=source)
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(handle, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise DataError(f"cannot be read: {_reason(exc)}", source=source) from None
    finally:
        os.close(handle)
    if size > MAX_FILE_BYTES:
        raise DataError(f"is larger than any file samurai reads ({MAX_FILE_BYTES // (1024 * 1024)} MB at most)",
                        source=source)
    try:
        return b"".join(chunks).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"is not UTF-8 text (byte {exc.start + 1} cannot be decoded)", source=source) from None


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def read_toml(path: Path | Any) -> tuple[dict[str, Any], str]:
    """Parse a TOML file (a path or an importlib Traversable); return ``(data, text)``."""
    if isinstance(path, str):
        path = Path(path)
    text = read_text(path)
    return parse_toml(text, source=str(path)), text


def read_data(path: str | Path) -> tuple[Any, str]:
    """Parse a ``.json`` or ``.toml`` file (by its suffix); return ``(data, text)``."""
    text = read_text(path)
    if str(path).lower().endswith(".json"):
        return parse_json(text, source=str(path)), text
    return parse_toml(text, source=str(path)), text


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML text into plain data (see ``check_plain``); a ``DataError`` names the line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        message = str(exc)
        match = re.search(r"\(at line (\d+), column \d+\)", message)
        if line is None and match:
            line = int(match.group(1))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise DataError(f"not valid TOML: {message}", source=source, line=line) from None
    except RecursionError:
        raise DataError(f"not valid TOML: nested deeper than {MAX_DEPTH} levels", source=source) from None
    except (ValueError, MemoryError) as exc:  # an integer too long to convert, or text that explodes
        raise DataError(f"not valid TOML: {_value_problem(exc)}", source=source) from None
    check_plain(data, source=source)
    return data


def parse_json(text: str, *, source: str) -> Any:
    """Parse JSON text into plain data: no repeated keys, no NaN or Infinity (see ``check_plain``)."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant,
                          parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} (column {exc.colno})", source=source, line=exc.lineno) from None
    except _Repeated as exc:
        raise DataError(f"not valid JSON: key {exc.args[0]!r} is given twice in one object", source=source,
                        key=exc.args[0]) from None
    except RecursionError:
        raise DataError(f"not valid JSON: nested deeper than {MAX_DEPTH} levels", source=source) from None
    except (ValueError, MemoryError) as exc:
        raise DataError(f"not valid JSON: {_value_problem(exc)}", source=source) from None
    check_plain(data, source=source)
    return data


class _Repeated(Exception):
    """A JSON object with a key given twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
        out[key] = value
    return out


class _HugeInteger(str):
    """A JSON integer of 20 digits or more, kept as its text: no 64-bit integer is that long, and ``int()`` of
    thousands of digits is slow or refused; ``check_plain`` refuses it naming its field."""


def _json_int(text: str) -> int | _HugeInteger:
    return _HugeInteger(text) if len(text) > 20 else int(text)  # 20: "-" and 19 digits (-2**63)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a data file may hold")


def _value_problem(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "too large to read"
    text = str(exc)
    if "integer string conversion" in text or "digits" in text:
        return "an integer has too many digits"
    return text


def check_plain(data: Any, *, source: str) -> None:
    """Refuse data nested deeper than ``MAX_DEPTH``, integers beyond 64 bits and NaN or infinite numbers.

    Checked without recursion, so even data built in memory cannot exhaust the stack here.
    """
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping):
            items: Iterable[Any] = value.values()
        elif isinstance(value, (list, tuple)):
            items = value
        else:
            if isinstance(value, _HugeInteger) or (
                    isinstance(value, int) and not isinstance(value, bool) and not -_INT_LIMIT <= value < _INT_LIMIT):
                shown = _cut_number(value) if isinstance(value, _HugeInteger) else _short_number(value)
                raise DataError(f"{shown} is out of range: a whole number here is from -2**63 to 2**63-1 (64 bits)",
                                source=source, key=_path_to(data, value))
            if isinstance(value, float) and not math.isfinite(value):
                raise DataError(f"{value} is not a number a data file may hold", source=source,
                                key=_path_to(data, value))
            continue
        if depth >= MAX_DEPTH:
            raise DataError(f"nested deeper than {MAX_DEPTH} levels of tables and lists", source=source)
        stack.extend((item, depth + 1) for item in items)


def _short_number(value: int) -> str:
    """A whole number as text, its middle cut when it is long (``str()`` of a huge one is slow)."""
    if value.bit_length() > 4000:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    return _cut_number(str(value))


def _cut_number(text: str) -> str:
    """A whole number's text, its middle cut when it is longer than 40 characters."""
    return text if len(text) <= 40 else f"{text[:20]}…{text[-5:]} ({len(text.lstrip('-'))} digits)"


def _path_to(data: Any, target: Any) -> str | None:
    """The field path (``actions[3].tile``, ``seed``) of the value ``target`` (that very object) in ``data``.

    Called only to name a refused value, so the check above stays a plain walk; ``data`` is known to be nested at
    most ``MAX_DEPTH`` deep by then along the way walked.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if value is target:
            return path or None
        if depth > MAX_DEPTH:
            continue
        if isinstance(value, Mapping):
            stack.extend((item, f"{path}.{key}" if path else str(key), depth + 1) for key, item in value.items())
        elif isinstance(value, (list, tuple)):
            stack.extend((item, f"{path}[{index}]", depth + 1) for index, item in enumerate(value))
    return None


def whole_number(value: Any, field: str, low: int, high: int, *, source: str, text: str | None = None) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``; else a ``DataError`` naming ``field``.

    The one check of every whole number read from a record, scenario or save folder: the message names the
    file (``source``), the field, the value and the range allowed. ``text`` (a TOML file's) gives the line.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        shown = f"{type(value).__name__} {value!r:.40}"
    elif low <= value <= high:
        return value
    else:
        shown = _short_number(value)
    line = field_line(text, field) if text else None
    raise DataError(f"{field} must be a whole number from {_bound(low)} to {_bound(high)}, not {shown}",
                    source=source, line=line, key=field)


def any_whole_number(value: Any, field: str, *, source: str, text: str | None = None) -> int:
    """``value`` when it is a whole number of 64 bits, whose range its reader checks where it knows it (a record's
    player count against its edition's); else a ``DataError`` naming ``field``, which claims no range."""
    if isinstance(value, bool) or not isinstance(value, int):
        line = field_line(text, field) if text else None
        raise DataError(f"{field} must be a whole number, not {type(value).__name__} {value!r:.40}", source=source,
                        line=line, key=field)
    return whole_number(value, field, INT_LOW, INT_HIGH, source=source, text=text)


def _bound(number: int) -> str:
    """A range's end as people write it: 2**63-1 rather than 9223372036854775807."""
    return {INT_HIGH: "2**63-1", -_INT_LIMIT: "-2**63"}.get(number, str(number))


def key_line(text: str, key: str) -> int | None:
    """The 1-based line where ``key =`` is first assigned, for error messages."""
    pattern = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=", re.MULTILINE)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def table_line(text: str, name: str) -> int | None:
    """The 1-based line of the table header ``[name]``, for error messages."""
    pattern = re.compile(rf"^[ \t]*\[[ \t]*{re.escape(name)}[ \t]*\]", re.MULTILINE)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def field_line(text: str, field: str) -> int | None:
    """The line of a field named like ``tiles[2].at``, ``figures.Kita`` or ``to_act`` in a TOML text.

    ``name[i]`` is the i-th ``[[name]]`` table; ``table.key`` a key of ``[table]``;
    the key's own line when it is there, else its table's header line.
    """
    match = re.fullmatch(r"(?:(\w+)\[(\d+)\]|([\w-]+))(?:\.(.+))?", field)
    if not match or not text:
        return None
    array, index, table, rest = match.groups()
    lines = text.splitlines()
    if array is not None:
        headers = [n for n, line in enumerate(lines) if re.match(rf"\s*\[\[\s*{re.escape(array)}\s*\]\]", line)]
        if int(index) >= len(headers):
            return None
        start = headers[int(index)]
    else:
        header = next((n for n, line in enumerate(lines) if re.match(rf"\s*\[\s*{re.escape(table)}\s*\]", line)),
                      None)
        if header is None:
            return key_line(text, table)
        start, rest = header, rest
    if rest:
        key = rest.split(".")[0]
        for n in range(start + 1, len(lines)):
            if lines[n].lstrip().startswith("["):
                break
            if re.match(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=", lines[n]):
                return n + 1
    return start + 1


def check_keys(table: Mapping[str, Any], allowed: Iterable[str], *, source: str, where: str,
               text: str | None = None) -> None:
    """Refuse keys that are not in ``allowed``: a typo must not pass silently."""
    allowed = set(allowed)
    for key in table:
        if key not in allowed:
            raise DataError(
                f"unknown key {key!r} in {where}; expected one of: {', '.join(sorted(allowed))}",
                source=source, line=key_line(text, key) if text else None, key=key)


def require(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], *, source: str,
            where: str, text: str | None = None, default: Any = ...) -> Any:
    """``table[key]`` checked against ``kind``; missing keys use ``default`` or are refused.

    ``where`` is a description ("the map") or the field of the table (``seats[0]``), which then
    leads the error's key (``seats[0].hand``).
    """
    field = key if where.startswith("the ") else f"{where}.{key}"
    if key not in table:
        if default is ...:
            raise DataError(f"missing key {key!r} in {where}", source=source, key=field)
        return default
    value = table[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        ok = False
    else:
        ok = isinstance(value, kind)
    if not ok:
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataError(f"{where}.{key} must be {names}, not {type(value).__name__} {value!r:.80}",
                        source=source, line=key_line(text, key) if text else None, key=field)
    return value
