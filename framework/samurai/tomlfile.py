"""Reading TOML files people write, with errors that name the file and line."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import DataError

__all__ = ["read_text", "read_toml", "table_line", "field_line", "key_line", "check_keys", "require"]


def read_text(path: Path | Any) -> str:
    """A text file's content (UTF-8); a missing or unreadable file is a ``DataError`` naming it."""
    try:
        return str(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError("file not found", source=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot be read: {exc}", source=str(path)) from None


def read_toml(path: Path | Any) -> tuple[dict[str, Any], str]:
    """Parse a TOML file (a path or an importlib Traversable); return ``(data, text)``."""
    if isinstance(path, str):
        path = Path(path)
    source = str(path)
    text = read_text(path)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        message = str(exc)
        match = re.search(r"\(at line (\d+), column \d+\)", message)
        if line is None and match:
            line = int(match.group(1))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise DataError(f"not valid TOML: {message}", source=source, line=line) from None


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
    """``table[key]`` checked against ``kind``; missing keys use ``default`` or are refused."""
    if key not in table:
        if default is ...:
            raise DataError(f"missing key {key!r} in {where}", source=source, key=key)
        return default
    value = table[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        ok = False
    else:
        ok = isinstance(value, kind)
    if not ok:
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataError(f"{where}.{key} must be {names}, not {type(value).__name__} {value!r}",
                        source=source, line=key_line(text, key) if text else None, key=key)
    return value
