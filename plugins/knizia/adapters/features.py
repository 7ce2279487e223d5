"""Knizia's game as whole numbers for a value model (``samurai.learn``): the features of a position per seat, which
``GAME.faces.features`` supplies, and their version (``FEATURE_VERSION``, ``GAME.faces.feature_version``).

A searching bot judges determinized positions, so the features read the whole position (every hand and stack),
not a seat's view; the observation that hides what a seat may not know is ``adapters.encoding``'s. Each seat's
vector is from its own point of view, so one set of weights serves every seat: its own numbers first, then the
common ones, then each opponent's in turn order from it. Everything is a small whole number (a model's integer
inference, ``samurai.learn.model``, multiplies them by integer weights), read straight off the engine's flat lists:
it is cheap enough to run at every leaf of a search.
"""

from __future__ import annotations

from samurai.protocol import GameState
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.core.state import PHASE_NAMES

__all__ = ["FEATURE_VERSION", "seat_features", "feature_count"]

FEATURE_VERSION = "knizia-features-1"
"""The version of ``seat_features``: a model trained on one version refuses positions of another. Version 1, per
seat (``feature_count`` numbers):

- the seat's own: figures captured per caste (3) and in all (1); its lead per caste over the best opponent (3);
  for each (figure, caste) still on an unresolved settlement, which of four buckets its influence margin over the
  best opponent falls in, per caste (3 x 4: leading with at most 2 empty land hexes left around, leading with more,
  tied, trailing); the sum of those margins, clipped to -20..20 (1); tiles in hand (1), their influence (1),
  tiles in its stack (1); whether it is to act (1);
- common to every seat: figures still on the board per caste (3), the phase as one-hot (4), the turn (1);
- per opponent in turn order from the seat: figures captured per caste (3), tiles in hand (1) and stack (1).
"""

_OWN = 3 + 1 + 3 + 12 + 1 + 3 + 1
_COMMON = 3 + len(PHASE_NAMES) + 1
_PER_OPPONENT = 5
_NEAR = 2
"""Empty land hexes around a settlement at most which a lead counts as near to deciding it."""
_MARGIN_CLIP = 20


def feature_count(players: int) -> int:
    """The length of each seat's vector of ``seat_features`` with ``players`` seats."""
    return _OWN + _COMMON + _PER_OPPONENT * (players - 1)


def seat_features(state: GameState) -> list[list[int]]:
    """Per seat, its whole-number features of the position (``FEATURE_VERSION``) from its point of view; ``state``
    is a position of Knizia's game on the protocol (``adapters.game_state.HexGameState``, either engine)."""
    if not isinstance(state, HexGameState):
        raise TypeError(f"Knizia's game reads a HexGameState, not {type(state).__name__}")
    rules, st = state.rules, state.state
    n = rules.players
    captured, owner, kind, value = st.captured, st.tile_owner, st.tile_type, rules.tile_value
    buckets = [[0] * 12 for _ in range(n)]
    margins = [0] * n
    for s, mask in enumerate(st.figures):
        if not mask:
            continue
        influence = [0] * (3 * n)
        for h in rules.settlement_neighbours[s]:
            o = owner[h]
            if o >= 0:
                t = kind[h] * 3
                influence[o * 3] += value[t]
                influence[o * 3 + 1] += value[t + 1]
                influence[o * 3 + 2] += value[t + 2]
        near = st.empty_around[s] <= _NEAR
        for caste in range(3):
            if not mask >> caste & 1:
                continue
            column = influence[caste::3]
            for seat in range(n):
                margin = column[seat] - max(column[o] for o in range(n) if o != seat)
                bucket = (0 if near else 1) if margin > 0 else 2 if margin == 0 else 3
                buckets[seat][caste * 4 + bucket] += 1
                margins[seat] += margin
    common = [sum(1 for mask in st.figures if mask >> caste & 1) for caste in range(3)]
    common += [int(st.phase == phase) for phase in range(len(PHASE_NAMES))]
    common.append(st.turn)
    influence_of = [t.influence for t in rules.tile_types]
    current = -1 if st.phase == len(PHASE_NAMES) - 1 else st.current
    out = []
    for seat in range(n):
        own = captured[seat * 3:seat * 3 + 3]
        leads = [own[c] - max(captured[o * 3 + c] for o in range(n) if o != seat) for c in range(3)]
        row = [*own, sum(own), *leads, *buckets[seat], max(-_MARGIN_CLIP, min(_MARGIN_CLIP, margins[seat])),
               len(st.hands[seat]), sum(influence_of[t] for t in st.hands[seat]), len(st.stacks[seat]),
               int(current == seat), *common]
        for step in range(1, n):
            other = (seat + step) % n
            row += [*captured[other * 3:other * 3 + 3], len(st.hands[other]), len(st.stacks[other])]
        out.append(row)
    return out
