"""A value model file and its inference in whole numbers: each seat's chance of winning a position.

The network is small and shared by the seats: a seat's features ``x`` (whole numbers, from its point of view:
``GameFaces.features``) give it a score ``s = w2 . relu(W1 x + b1) + b2``, and the chances are a softmax of the
scores over the seats. The file holds the weights already quantized, as NNUE does: ``W1`` and ``b1`` scaled by
``2**WEIGHT_BITS``, ``w2`` by the same, ``b2`` by its square; the score is the integer sum shifted down to
``1/score_scale`` of a logit (an arithmetic shift: the floor, the same in Python and Rust). The softmax reads a
table of whole numbers stored in the file, ``exp_table[d] ~ 2**exp_bits * exp(-d / score_scale)`` for a seat ``d``
below the best score (further below: the table's last entry), and a seat's chance is its entry over the sum of
every seat's: an exact fraction, the chances summing to exactly 1. No float is computed, so every machine and
either engine gets the very same numbers. The file is JSON, read as data only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from ..errors import DataError
from ..files.reading import parse_json, read_text
from ..files.writing import write_atomically

__all__ = ["MODEL_FORMAT", "MODEL_SCHEMA", "WEIGHT_BITS", "WEIGHT_LIMIT", "BIAS_LIMIT", "FEATURE_LIMIT", "MAX_UNITS",
           "ValueModel", "load_model", "model_text", "write_model"]

MODEL_FORMAT = "samurai-value-model"
"""A model file's ``format``."""

MODEL_SCHEMA = 1
"""The version of the file's layout this module reads and writes."""

WEIGHT_BITS = 12
"""The weights' scale: a weight ``w`` is stored as ``round(w * 2**WEIGHT_BITS)``."""

WEIGHT_LIMIT = 2 ** 16
"""Every weight of ``w1`` and ``w2`` is below this in magnitude, biases below ``BIAS_LIMIT``, and there are at most
``MAX_UNITS`` features and hidden units: with features below ``FEATURE_LIMIT`` in magnitude (a game's features are
small counts), every sum of the inference stays below 2**60 and fits a signed 64-bit integer in the Rust engine."""

BIAS_LIMIT = 2 ** 31
"""The largest magnitude of a bias (``b1``, ``b2``)."""

FEATURE_LIMIT = 2 ** 10
"""The magnitude a game's features stay below (``GameFaces.features``)."""

MAX_UNITS = 256
"""The most features, and the most hidden units, of a model."""


@attrs.frozen
class ValueModel:
    """A model file read and checked: what it is for, where it came from, and its whole-number network."""

    game: str
    edition: str
    players: int
    feature_version: str
    w1: tuple[tuple[int, ...], ...]
    """Per hidden unit, its weight per feature (scaled by ``2**WEIGHT_BITS``)."""
    b1: tuple[int, ...]
    w2: tuple[int, ...]
    b2: int
    """The score's bias, scaled by ``2**(2 * WEIGHT_BITS)``."""
    score_scale: int
    """A logit is this many score units: the score is the sum shifted down by ``2 * WEIGHT_BITS - log2(score_scale)``
    bits."""
    exp_bits: int
    exp_table: tuple[int, ...]
    provenance: Mapping[str, Any] = attrs.field(factory=dict, eq=False)
    """The data, training settings and library versions the model came from (plain data, never read back)."""

    @property
    def feature_count(self) -> int:
        """The length of a seat's feature vector."""
        return len(self.w1[0])

    def score(self, features: Sequence[int]) -> int:
        """A seat's score, in ``1/score_scale`` of a logit, from its features."""
        total = self.b2
        for weights, bias, out in zip(self.w1, self.b1, self.w2, strict=True):
            hidden = bias + sum(w * x for w, x in zip(weights, features, strict=True))
            if hidden > 0:
                total += out * hidden
        return total >> self.score_shift

    @property
    def score_shift(self) -> int:
        """The bits the integer sum (scaled by ``2**(2 * WEIGHT_BITS)``) is shifted down by to score units."""
        return 2 * WEIGHT_BITS - (self.score_scale.bit_length() - 1)

    def chances(self, features: Sequence[Sequence[int]]) -> tuple[Fraction, ...]:
        """Each seat's chance of winning (a share for a shared win), as exact fractions summing to 1, from every
        seat's features (``GameFaces.features`` of a position)."""
        if len(features) != self.players:
            raise ValueError(f"the model is for {self.players} players, not {len(features)}")
        scores = [self.score(row) for row in features]
        best, last = max(scores), len(self.exp_table) - 1
        weights = [self.exp_table[min(best - score, last)] for score in scores]
        total = sum(weights)
        return tuple(Fraction(weight, total) for weight in weights)


def model_text(model: ValueModel) -> str:
    """The model file's text: the same model always gives the same bytes."""
    data = {"format": MODEL_FORMAT, "schema": MODEL_SCHEMA, "game": model.game, "edition": model.edition,
            "players": model.players, "feature_version": model.feature_version, "features": model.feature_count,
            "provenance": dict(model.provenance),
            "network": {"weight_bits": WEIGHT_BITS, "hidden": len(model.b1), "w1": [list(row) for row in model.w1],
                        "b1": list(model.b1), "w2": list(model.w2), "b2": model.b2},
            "softmax": {"score_scale": model.score_scale, "exp_bits": model.exp_bits,
                        "exp_table": list(model.exp_table)}}
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


def write_model(model: ValueModel, path: str | Path) -> Path:
    """Write the model file atomically."""
    return write_atomically(path, model_text(model))


def _whole(value: Any, field: str, source: str, limit: int = BIAS_LIMIT) -> int:
    if type(value) is not int or not -limit < value < limit:
        raise DataError(f"{field} must be a whole number below {limit} in magnitude, not {str(value)[:40]}",
                        source=source, key=field)
    return value


def _numbers(value: Any, field: str, size: int, source: str, limit: int = BIAS_LIMIT) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size:
        raise DataError(f"{field} must be a list of {size} whole numbers", source=source, key=field)
    return tuple(_whole(v, field, source, limit) for v in value)


def _text(data: Mapping[str, Any], field: str, source: str) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not value:
        raise DataError(f"{field} must be a text", source=source, key=field)
    return value


def load_model(path: str | Path, *, game: str | None = None, feature_version: str | None = None,
               players: int | None = None) -> ValueModel:
    """The model file at ``path``, checked whole: a corrupt file, another schema, or a model for another ``game``,
    ``feature_version`` or ``players`` (when given) is a ``DataError`` in one line naming the file."""
    source = str(path)
    data = parse_json(read_text(Path(path)), source=source)
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise DataError(f"not a value model file (its format is not {MODEL_FORMAT!r})", source=source)
    if data.get("schema") != MODEL_SCHEMA:
        raise DataError(f"a model file of schema {str(data.get('schema'))[:20]}; this version reads schema "
                        f"{MODEL_SCHEMA}", source=source, key="schema")
    for field, wanted in (("game", game), ("feature_version", feature_version)):
        if wanted is not None and data.get(field) != wanted:
            raise DataError(f"a model for {field} {str(data.get(field))[:40]!r}, not {wanted!r}", source=source,
                            key=field)
    count = _whole(data.get("players"), "players", source)
    if count < 2 or (players is not None and count != players):
        raise DataError(f"a model for {count} players" + ("" if players is None else f", not {players}"),
                        source=source, key="players")
    network, softmax = data.get("network"), data.get("softmax")
    if not isinstance(network, dict) or not isinstance(softmax, dict):
        raise DataError("network and softmax must be tables", source=source)
    if network.get("weight_bits") != WEIGHT_BITS:
        raise DataError(f"weight_bits must be {WEIGHT_BITS}", source=source, key="network.weight_bits")
    features = _whole(data.get("features"), "features", source)
    hidden = _whole(network.get("hidden"), "network.hidden", source)
    if not 1 <= features <= MAX_UNITS or not 1 <= hidden <= MAX_UNITS:
        raise DataError(f"features and network.hidden must be 1 to {MAX_UNITS}", source=source, key="network.hidden")
    w1 = network.get("w1")
    if not isinstance(w1, list) or len(w1) != hidden:
        raise DataError(f"network.w1 must be {hidden} rows", source=source, key="network.w1")
    scale = _whole(softmax.get("score_scale"), "softmax.score_scale", source)
    exp_bits = _whole(softmax.get("exp_bits"), "softmax.exp_bits", source)
    if scale < 1 or scale & (scale - 1) or scale.bit_length() > 2 * WEIGHT_BITS or not 1 <= exp_bits <= 30:
        raise DataError("score_scale must be a power of 2 up to 2**24 and exp_bits 1 to 30", source=source,
                        key="softmax")
    table = softmax.get("exp_table")
    if not isinstance(table, list) or not 1 <= len(table) <= 1 << 16:
        raise DataError("exp_table must be a list of 1 to 65536 whole numbers", source=source, key="softmax.exp_table")
    entries = _numbers(table, "softmax.exp_table", len(table), source)
    if entries[0] < 1 or any(b < 1 or b > a for a, b in zip(entries, entries[1:], strict=False)):
        raise DataError("exp_table must fall from its first entry and stay at least 1", source=source,
                        key="softmax.exp_table")
    provenance = data.get("provenance")
    if not isinstance(provenance, dict):
        raise DataError("provenance must be a table", source=source, key="provenance")
    return ValueModel(_text(data, "game", source), _text(data, "edition", source), count,
                      _text(data, "feature_version", source),
                      tuple(_numbers(row, "network.w1", features, source, WEIGHT_LIMIT) for row in w1),
                      _numbers(network.get("b1"), "network.b1", hidden, source),
                      _numbers(network.get("w2"), "network.w2", hidden, source, WEIGHT_LIMIT),
                      _whole(network.get("b2"), "network.b2", source), scale, exp_bits, entries, provenance)
