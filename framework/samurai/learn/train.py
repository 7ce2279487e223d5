"""Training a value model on a data folder (``samurai.learn.data``) and writing its model file.

The fit is numpy's full-batch gradient descent (Adam) rather than scikit-learn's: the model is one network shared
by the seats whose scores meet in a softmax over the seats, a loss scikit-learn's networks do not offer, and a few
hundred steps of plain numpy from a seeded start give the same weights every time on a machine. numpy is the
``train`` extra (``pip install ".[train]"``); using a model needs none of it (``samurai.learn.model``).

The target of a position is how its game ended, each seat's return (1 for a win alone, a share for a shared win)
as a distribution over the seats (a game nobody won: even shares). Games, not positions, are held out, so no
held-out position shares a game with a trained one. The features are standardized for the fit, then the
standardization is folded into the first layer and everything is rounded to whole numbers
(``samurai.learn.model``); the held-out calibration is computed with those whole-number chances.
"""

from __future__ import annotations

import math
import platform
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from ..errors import DataError
from .calibration import Calibration, calibration
from .data import GameRows, read_data
from .model import BIAS_LIMIT, WEIGHT_BITS, WEIGHT_LIMIT, ValueModel, write_model

__all__ = ["TrainingSettings", "Trained", "train_model", "exp_table", "SCORE_SCALE", "EXP_RANGE", "EXP_BITS"]

SCORE_SCALE = 64
"""Score units per logit in a trained model."""

EXP_RANGE = 16
"""Logits below the best seat's score covered by the exp table (``exp(-16)``: a chance below one in eight
million is the table's last entry)."""

EXP_BITS = 24
"""The exp table's scale: ``exp_table[0] = 2**EXP_BITS``."""


@attrs.frozen
class TrainingSettings:
    """How a model is fitted: hidden units, steps of gradient descent, Adam's step size, the seed of the
    start and of the held-out split, and the share of games held out."""

    hidden: int = 16
    steps: int = 300
    learning_rate: float = 0.02
    seed: int = 1
    held_out: float = 0.2


@attrs.frozen
class Trained:
    """A model fitted and written, with its calibration on the held-out games."""

    model: ValueModel
    path: Path
    calibration: Calibration


def _arrays(games: Sequence[GameRows], players: int) -> tuple[Any, Any]:
    import numpy as np

    rows = [(position, game.returns) for game in games for position in game.positions]
    features = np.array([[list(seat) for seat in position[1]] for position, _ in rows], dtype=np.float64)
    targets = np.array([returns if sum(returns) > 0 else [1.0 / players] * players for _, returns in rows],
                       dtype=np.float64)
    return features, targets / targets.sum(axis=1, keepdims=True)


def _fit(features: Any, targets: Any, settings: TrainingSettings) -> tuple[Any, Any, Any]:
    """The float network ``(w1, b1, w2)`` fitted to standardized features by Adam on the cross-entropy of the
    softmax over seats."""
    import numpy as np

    rng = np.random.default_rng(settings.seed)
    count, size = len(features), features.shape[2]
    w1 = rng.normal(0.0, 1.0 / math.sqrt(size), (settings.hidden, size))
    b1 = np.zeros(settings.hidden)
    w2 = rng.normal(0.0, 1.0 / math.sqrt(settings.hidden), settings.hidden)
    params = [w1, b1, w2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    for step in range(1, settings.steps + 1):
        pre = features @ w1.T + b1
        hidden = np.maximum(pre, 0.0)
        scores = hidden @ w2
        scores -= scores.max(axis=1, keepdims=True)
        chances = np.exp(scores)
        chances /= chances.sum(axis=1, keepdims=True)
        d_scores = (chances - targets) / count
        d_hidden = d_scores[:, :, None] * w2 * (pre > 0)
        grads = [np.einsum("psh,psf->hf", d_hidden, features), d_hidden.sum(axis=(0, 1)),
                 np.einsum("ps,psh->h", d_scores, hidden)]
        for p, g, m, v in zip(params, grads, moments, squares, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= settings.learning_rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w1, b1, w2


def _quantized(w1: Any, b1: Any, w2: Any, b2: float, mean: Any, spread: Any
               ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """The network on raw features in whole numbers: the standardization folded into the first layer, every
    weight scaled by ``2**WEIGHT_BITS``, rounded and kept within the file's limits."""
    import numpy as np

    folded = w1 / spread
    bias = b1 - folded @ mean
    scale = float(2 ** WEIGHT_BITS)

    def whole(values: Any, limit: int) -> list[int]:
        return [int(v) for v in np.clip(np.rint(values * scale), 1 - limit, limit - 1).ravel()]

    rows = [tuple(whole(row, WEIGHT_LIMIT)) for row in folded]
    return (tuple(rows), tuple(whole(bias, BIAS_LIMIT)), tuple(whole(w2, WEIGHT_LIMIT)),
            int(round(b2 * scale * scale)))


def exp_table() -> tuple[int, ...]:
    """``round(2**EXP_BITS * exp(-d / SCORE_SCALE))`` for ``d`` from 0 to ``EXP_RANGE`` logits: computed once
    when a model is trained and stored in its file, so inference never computes an exponential."""
    return tuple(max(1, round(2 ** EXP_BITS * math.exp(-d / SCORE_SCALE)))
                 for d in range(EXP_RANGE * SCORE_SCALE + 1))


def _libraries() -> dict[str, str]:
    import numpy as np

    try:
        engine = metadata.version("samurai-engine")
    except metadata.PackageNotFoundError:
        engine = "unknown"
    return {"samurai-engine": engine, "numpy": np.__version__, "python": platform.python_version()}


def train_model(data_folder: str | Path, out: str | Path, settings: TrainingSettings = TrainingSettings()
                ) -> Trained:
    """Fit a model to the data in ``data_folder``, write it to ``out`` and measure its calibration on the held-out
    games; the same data and settings give a byte-identical file on a machine."""
    try:
        import numpy as np
    except ImportError:
        raise DataError("training needs numpy: pip install \"samurai-engine[train]\"", source="train") from None
    if not 0 < settings.held_out < 1:
        raise DataError(f"the held-out share must be between 0 and 1, not {settings.held_out}", source="--held-out")
    if not 1 <= settings.hidden <= 256:
        raise DataError(f"hidden units must be 1 to 256, not {settings.hidden}", source="--hidden")
    data, games = read_data(data_folder)
    players = int(data["players"])
    order = np.random.default_rng(settings.seed).permutation(len(games))
    cut = max(1, round(len(games) * settings.held_out))
    held = [games[i] for i in sorted(order[:cut])]
    kept = [games[i] for i in sorted(order[cut:])]
    if not kept or not any(game.positions for game in kept):
        raise DataError(f"{len(games)} games leave no positions to train on; play more games", source="--games")
    features, targets = _arrays(kept, players)
    mean = features.reshape(-1, features.shape[2]).mean(axis=0)
    spread = features.reshape(-1, features.shape[2]).std(axis=0)
    spread[spread == 0] = 1.0
    w1, b1, w2 = _fit((features - mean) / spread, targets, settings)
    # No score bias: a softmax over seats sharing one network does not see it (b2 stays 0).
    first, first_bias, second, second_bias = _quantized(w1, b1, w2, 0.0, mean, spread)
    model = ValueModel(str(data["game"]), str(data["edition"]), players, str(data["feature_version"]), first,
                       first_bias, second, second_bias, SCORE_SCALE, EXP_BITS, exp_table())
    pairs = [(float(model.chances(position)[seat]), game.returns[seat])
             for game in held for seat, position in game.positions]
    measured = calibration(pairs)
    provenance = {
        "data": {key: data[key] for key in ("edition", "players", "games", "seed", "bots", "every", "options")},
        "training": {**attrs.asdict(settings), "method": "numpy Adam, softmax over seats", "trained_games": len(kept),
                     "held_out_games": len(held), "positions": len(features)},
        "calibration": measured.to_dict(),
        "libraries": _libraries(),
    }
    model = attrs.evolve(model, provenance=provenance)
    path = write_model(model, out)
    return Trained(model, path, measured)
