"""Writing SVG text: the small builder both board renderers use (``samurai_plugins.knizia.play.render``,
``samurai_plugins.daimyo.render``).

Every attribute value and text is escaped, and numbers are written with at
most two decimals, so the same picture is the same text on every machine.
``svg_to_png`` rasterises a picture for ``samurai render -o OUT.png``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import DataError

__all__ = ["Svg", "num", "escape", "attributes", "svg_to_png"]


def num(value: float) -> str:
    """A coordinate with at most two decimals, the same text on every machine."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def escape(value: str) -> str:
    """``value`` with the characters XML reserves written as entities."""
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


class Svg:
    """SVG text built element by element; every attribute value and text is escaped."""

    def __init__(self) -> None:
        self.parts: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>\n']
        self.depth = 0

    def open(self, tag: str, **attrs: Any) -> None:
        """Open element ``tag``; what follows nests inside it until ``close``."""
        self.parts.append(f"{'  ' * self.depth}<{tag}{attributes(attrs)}>\n")
        self.depth += 1

    def close(self, tag: str) -> None:
        """Close the element ``tag`` opened last."""
        self.depth -= 1
        self.parts.append(f"{'  ' * self.depth}</{tag}>\n")

    def leaf(self, tag: str, *, text: str | None = None, **attrs: Any) -> None:
        """An element with no children, holding ``text`` if given."""
        indent = "  " * self.depth
        if text is None:
            self.parts.append(f"{indent}<{tag}{attributes(attrs)}/>\n")
        else:
            self.parts.append(f"{indent}<{tag}{attributes(attrs)}>{escape(text)}</{tag}>\n")

    def text(self) -> str:
        """The SVG document so far."""
        return "".join(self.parts)


def attributes(attrs: Mapping[str, Any]) -> str:
    """``font_size=10`` → `` font-size="10"``; ``class_`` → ``class``; ``data_col`` → ``data-col``."""
    parts = []
    for key, value in attrs.items():
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float) else str(value)
        parts.append(f' {name}="{escape(text)}"')
    return "".join(parts)


def svg_to_png(svg: str, *, width: int | None = None) -> bytes:
    """Rasterise an SVG picture to PNG bytes with resvg-py (the ``png`` extra); ``width`` in pixels."""
    try:
        import resvg_py
    except ImportError:
        raise DataError('PNG output needs resvg-py: pip install "samurai-engine[png]" (or write .svg)',
                        source="-o") from None
    data = resvg_py.svg_to_bytes(svg_string=svg, width=width)
    return bytes(data)
