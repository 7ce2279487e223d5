"""Setup: choosing starting hands and distributing figures (RULES.md "What differs by edition").

The edition decides the procedure (hook ``samurai_setup_procedure``); this
module carries it out. Figures are placed one at a time from a common supply;
a placement is legal only if the figures left can still fill every open slot
without two figures of one caste in a settlement (RULES.md ruling for every
figure setup). That check is a max-flow cut condition over the eight subsets
of castes, kept up to date incrementally so it costs a few additions.
"""

from __future__ import annotations

import attrs

from .state import FIGURES, HANDS, PLAY, State

__all__ = ["SetupProcedure", "SETUP_PHASES", "CUT_CONTRIBUTION", "figure_placement_is_feasible",
           "legal_figure_placements", "place_figure", "choose_tile", "figure_stage"]

SETUP_PHASES = {"hands": HANDS, "figures": FIGURES}


@attrs.frozen
class SetupProcedure:
    """How a game is set up; returned by the ``samurai_setup_procedure`` hook.

    - ``order``: the setup phases in order, ``"hands"`` and ``"figures"``.
    - ``hands``: ``"choose"`` (each seat secretly picks its starting hand) or
      ``"random"`` (dealt from the seat's tiles by the game's generator).
    - ``figures``: ``"choose"`` (seats in turn place one figure at a time) or
      ``"random"`` (distributed by the game's generator under the same rule).
    - ``figure_stages``: settlement kinds filled stage by stage; a later
      stage opens when every slot of the earlier ones is full.
    - ``prefilled``: settlement kinds that start with one figure of each caste.
    - ``first_player``: the seat that starts each phase and the first turn.
    """

    order: tuple[str, ...] = ("hands", "figures")
    hands: str = "choose"
    figures: str = "choose"
    figure_stages: tuple[tuple[str, ...], ...] = (("capital", "city", "village"),)
    prefilled: tuple[str, ...] = ("capital",)
    first_player: int = 0


_POPCOUNT = (0, 1, 1, 2, 1, 2, 2, 3)


def _popcount(n: int) -> int:
    return _POPCOUNT[n]


CUT_CONTRIBUTION = tuple(
    tuple(tuple(min(open_slots, _popcount(subset & ~present)) for subset in range(8)) for present in range(8))
    for open_slots in range(4))
"""``CUT_CONTRIBUTION[open][present][S]``: how many figures of the caste subset
``S`` a settlement with ``open`` free slots and castes ``present`` can still take."""

_SUBSET_CASTES = tuple(tuple(c for c in range(3) if s >> c & 1) for s in range(8))


def figure_placement_is_feasible(st: State, capacity: int, settlement: int, caste: int) -> bool:
    """Whether, after placing ``caste`` in ``settlement``, the supply can still fill every slot.

    By max-flow/min-cut, the figures left fit iff for every subset S of castes
    the supply of S is at most what the open slots can take of S (each
    settlement at most one of each caste). ``st.cut`` holds those capacities.
    """
    present = st.figures[settlement]
    open_before = capacity - _POPCOUNT[present]
    old = CUT_CONTRIBUTION[open_before][present]
    new = CUT_CONTRIBUTION[open_before - 1][present | 1 << caste]
    supply = st.supply
    cut = st.cut
    for subset in range(1, 8):
        need = 0
        for c in _SUBSET_CASTES[subset]:
            need += supply[c]
        if subset >> caste & 1:
            need -= 1
        if need > cut[subset] - old[subset] + new[subset]:
            return False
    return True


def figure_stage(st: State) -> list[int]:
    """The settlements open for figures now: those of the first stage with a free slot."""
    for stage in st.open_by_stage:
        if stage:
            return stage
    return []


def legal_figure_placements(st: State, capacities: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every legal ``(caste, settlement)`` figure placement now."""
    moves = []
    for s in figure_stage(st):
        present = st.figures[s]
        for c in range(3):
            if st.supply[c] and not present >> c & 1 and figure_placement_is_feasible(st, capacities[s], s, c):
                moves.append((c, s))
    return sorted(moves, key=lambda m: (m[1], m[0]))


def place_figure(st: State, capacities: tuple[int, ...], stage_of: tuple[int, ...], caste: int,
                 settlement: int) -> None:
    """Put a figure from the supply into a settlement (legality already checked)."""
    present = st.figures[settlement]
    capacity = capacities[settlement]
    open_before = capacity - _POPCOUNT[present]
    old = CUT_CONTRIBUTION[open_before][present]
    new = CUT_CONTRIBUTION[open_before - 1][present | 1 << caste]
    for subset in range(1, 8):
        st.cut[subset] += new[subset] - old[subset]
    st.figures[settlement] = present | 1 << caste
    st.supply[caste] -= 1
    st.on_board[caste] += 1
    if open_before == 1:
        stage = st.open_by_stage[stage_of[settlement]]
        stage.remove(settlement)


def choose_tile(st: State, seat: int, tile_type: int) -> None:
    """Move one tile of ``tile_type`` from the seat's unchosen tiles into its hand."""
    st.pools[seat].remove(tile_type)
    st.hands[seat].append(tile_type)


def next_phase(st: State, first_player: int) -> None:
    """Leave the current setup phase: the next one in the queue, or play."""
    if st.phase == HANDS:
        # The tiles not chosen become the personal stack (drawn from at random).
        st.stacks = st.pools
        st.pools = [[] for _ in st.stacks]
    st.phase = st.setup_queue.pop(0) if st.setup_queue else PLAY
    st.current = first_player
