"""Actions: small frozen values a player (or bot) hands to ``Game.apply``.

Hexes are ``(col, row)`` coordinates (see ``samurai_plugins.knizia.core.hexgrid``); tiles are
named as in ``samurai_plugins.knizia.core.tiles.TileType.name`` (``"castle-3"``, ``"ronin"``);
castes are ``"buddha"``, ``"rice"`` and ``"castle"``. Actions are hashable,
compare equal by value, and sort (by kind, then fields) so a list of legal
actions has one stable order.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar

import attrs

from samurai_plugins.knizia.core.hexgrid import Coord

__all__ = ["Action", "ChooseTile", "PlaceFigure", "PlaceTile", "EndTurn", "to_coord"]


def to_coord(value: Any) -> Coord:
    """Accept ``(col, row)`` as a tuple or a JSON list of two whole numbers."""
    try:
        col, row = value
    except (TypeError, ValueError):
        raise ValueError(f"a hex is (col, row), not {value!r}") from None
    if type(col) is int and type(row) is int:  # the common case, without the generator below
        return col, row
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (col, row)):
        raise ValueError(f"a hex is (col, row) in whole numbers, not {value!r}")
    return col, row


_FIELD_VALUES: dict[type, tuple[Callable[[Any], tuple[Any, ...]], bool]] = {}
"""Per action class: a function returning its field values, and whether they are known to be plain."""


def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function returning an action's field values as a tuple, in declaration order."""
    names = [field.name for field in attrs.fields(cls)]
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda action: (one(action),)
    return lambda action: ()


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types ``attrs.astuple`` returns as they are."""


class Action:
    """Base class of every action; gives all actions one total order."""

    __slots__ = ()
    _plain_fields: ClassVar[bool] = False
    """True on a class whose fields hold only strings, numbers and coordinates (its sort key needs no checks)."""

    def _sort_key(self) -> tuple[str, tuple[Any, ...]]:
        """``(class name, attrs.astuple(self))``, read field by field when the values are plain."""
        cls = type(self)
        known = _FIELD_VALUES.get(cls)
        if known is None:
            # Only the class itself may promise plain fields: a subclass may add others.
            known = _FIELD_VALUES[cls] = (_field_values(cls), bool(cls.__dict__.get("_plain_fields", False)))
        values_of, plain = known
        values = values_of(self)
        if plain:
            return cls.__name__, values
        for value in values:
            kind = type(value)
            if kind not in _PLAIN and not (kind is tuple and _PLAIN.issuperset(map(type, value))):
                # astuple recurses into attrs values and rebuilds collections: let it
                return cls.__name__, attrs.astuple(self)  # type: ignore[arg-type]
        return cls.__name__, values

    def __lt__(self, other: Action) -> bool:
        return self._sort_key() < other._sort_key()

    def __le__(self, other: Action) -> bool:
        return self._sort_key() <= other._sort_key()

    def __gt__(self, other: Action) -> bool:
        return self._sort_key() > other._sort_key()

    def __ge__(self, other: Action) -> bool:
        return self._sort_key() >= other._sort_key()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"action": <kind>, <field>: <value>, ...}``."""
        out: dict[str, Any] = {"action": type(self).__name__}
        for field in attrs.fields(type(self)):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out


@attrs.frozen(order=False)
class ChooseTile(Action):
    """Setup: keep one of your tiles for your starting hand (secret)."""

    _plain_fields = True

    tile: str


@attrs.frozen(order=False)
class PlaceFigure(Action):
    """Setup: put a figure of ``caste`` from the supply into the settlement at ``at``."""

    _plain_fields = True

    caste: str
    at: Coord = attrs.field(converter=to_coord)


@attrs.frozen(order=False)
class PlaceTile(Action):
    """Play: put ``tile`` from your hand on the empty hex ``at``."""

    _plain_fields = True

    tile: str
    at: Coord = attrs.field(converter=to_coord)


@attrs.frozen(order=False)
class EndTurn(Action):
    """Play: end your turn (after at least one tile): resolve, refill, pass on."""

    _plain_fields = True
