"""Setup: choosing starting hands and distributing figures (docs/rules/samurai.md#setting-up).

The edition decides the procedure (hook ``samurai_setup_procedure``); this
module carries it out. Figures are placed one at a time from a common supply;
a placement is legal only if the figures left can still fill every open slot
without two figures of one caste in a settlement (the ruling
docs/rules/samurai.md#ruling-figures-fit). That check is a max-flow cut condition over the eight subsets
of castes, kept up to date incrementally so it costs a few additions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor  # of a draw times a length: int() of it, faster (see samurai_plugins.knizia.engine.reference)

import attrs

from samurai_plugins.knizia.core.state import FIGURES, HANDS, State

__all__ = ["SetupProcedure", "SETUP_PHASES", "CUT_CONTRIBUTION", "figure_placement_is_feasible",
           "figures_fit", "legal_figure_placements", "place_figure", "place_random_figures",
           "choose_tile", "figure_stage"]

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
    - ``figures_must_fit``: the ruling for every figure setup (docs/rules/samurai.md#ruling-figures-fit): a
      placement is legal only if the figures still in the supply can still
      fill every open slot without two of one caste in a settlement. False
      lets any settlement with room take any caste it lacks; a stage whose
      open slots no figure left can fill then closes (the slots stay empty),
      and figures that can go nowhere stay in the supply, out of play.
    """

    order: tuple[str, ...] = ("hands", "figures")
    hands: str = "choose"
    figures: str = "choose"
    figure_stages: tuple[tuple[str, ...], ...] = (("capital", "city", "village"),)
    prefilled: tuple[str, ...] = ("capital",)
    first_player: int = 0
    figures_must_fit: bool = True


_POPCOUNT = (0, 1, 1, 2, 1, 2, 2, 3)


def _popcount(n: int) -> int:
    return _POPCOUNT[n]


CUT_CONTRIBUTION = tuple(
    tuple(tuple(min(open_slots, _popcount(subset & ~present)) for subset in range(8)) for present in range(8))
    for open_slots in range(4))
"""``CUT_CONTRIBUTION[open][present][S]``: how many figures of the caste subset
``S`` a settlement with ``open`` free slots and castes ``present`` can still take."""

_CUT_CHANGE = tuple(tuple(tuple(
    tuple((subset, change) for subset in range(8)
          if (change := CUT_CONTRIBUTION[open_slots - 1][present | 1 << caste][subset]
              - CUT_CONTRIBUTION[open_slots][present][subset])) if open_slots else ()
    for caste in range(3)) for present in range(8)) for open_slots in range(4))
"""How ``st.cut`` changes when a caste joins a settlement with ``open_slots`` free and ``present`` castes:
the ``(subset, change)`` of each subset that changes, commonly a few of the eight, so ``st.cut`` is updated in place."""

_FILL_EMPTY_VILLAGE = tuple((subset, -1) for subset in range(1, 8))
"""A figure in an empty settlement with one slot: every nonempty subset's cut drops by one, whatever the caste."""
assert _CUT_CHANGE[1][0] == (_FILL_EMPTY_VILLAGE,) * 3  # place_random_figures relies on it

_SUBSET_CASTES = tuple(tuple(c for c in range(3) if s >> c & 1) for s in range(8))
_OTHER_TWO = tuple((a, b, 1 << a, 1 << b, 1 << a | 1 << b) for a, b in ((1, 2), (0, 2), (0, 1)))
"""Per caste: the two other castes and the bitmasks of the subsets {a}, {b} and {a, b}."""


def figure_placement_is_feasible(st: State, capacity: int, settlement: int, caste: int) -> bool:
    """Whether, after placing ``caste`` in ``settlement``, the supply can still fill every slot.

    By max-flow/min-cut, the figures in the supply fit the open slots iff for
    every subset S of castes the supply of S is at most what the open slots can
    take of S (a settlement takes at most one figure of each caste); ``st.cut``
    holds those capacities. The state is kept feasible, and placing ``caste``
    lowers both sides of every subset containing it by one, so only the three
    subsets of the other two castes need checking: each loses one unit of
    capacity if it could have used all of this settlement's open slots.
    """
    present = st.figures[settlement]
    open_before = capacity - _POPCOUNT[present]
    supply, cut = st.supply, st.cut
    # The three subsets written out: {a}, {b} and {a, b} for the two other castes a and b.
    a, b, only_a, only_b, both = _OTHER_TWO[caste]
    need_a, need_b = supply[a], supply[b]
    return (need_a <= cut[only_a] - (_POPCOUNT[only_a & ~present] >= open_before)
            and need_b <= cut[only_b] - (_POPCOUNT[only_b & ~present] >= open_before)
            and need_a + need_b <= cut[both] - (_POPCOUNT[both & ~present] >= open_before))


def figures_fit(st: State) -> bool:
    """Whether the whole supply can fill the open slots (every subset's cut condition)."""
    return all(sum(st.supply[c] for c in _SUBSET_CASTES[subset]) <= st.cut[subset] for subset in range(1, 8))


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
    open_before = capacities[settlement] - _POPCOUNT[present]
    cut = st.cut
    for subset, change in _CUT_CHANGE[open_before][present][caste]:
        cut[subset] += change
    st.figures[settlement] = present | 1 << caste
    st.supply[caste] -= 1
    st.on_board[caste] += 1
    if open_before == 1:
        stage = st.open_by_stage[stage_of[settlement]]
        stage.remove(settlement)


def place_random_figures(st: State, capacities: tuple[int, ...], stage_of: tuple[int, ...],
                         draws: Sequence[Callable[[], float]], tries: int,
                         placed: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Place every figure of the supply at random under the fit ruling; returns the last ``(caste, settlement)``.

    Seats take turns from ``st.current``, seat ``k`` drawing from ``draws[k]`` exactly as the engine's
    random figure placement draws (``samurai_plugins.knizia.engine.reference.sample_action``): up to ``tries`` times a
    random open settlement and a random caste of the supply it lacks, kept when ``figure_placement_is_feasible``, else a
    random one of ``legal_figure_placements``. The check and ``place_figure`` are written out here, as a random setup
    repeats them for every figure. ``placed(caste, settlement)`` is called after each figure but the last (the caller
    ends the phase first). The supply must hold a figure.
    """
    figures, supply, on_board, cut, open_by_stage = st.figures, st.supply, st.on_board, st.cut, st.open_by_stage
    players, attempts = len(draws), range(tries)
    # figure_stage(st) and the castes left in the supply, kept up to date: stages and supply only shrink.
    stage: list[int] = []
    in_supply = (supply[0] > 0) | (supply[1] > 0) << 1 | (supply[2] > 0) << 2
    # The seat to place is kept here and written to st.current only when someone may read it (``placed``,
    # the end of the phase): nothing in between looks at it.
    seat = st.current
    # Filling an empty village lowers every subset's cut by one (_FILL_EMPTY_VILLAGE), and most figures
    # do: those are counted in ``filled`` and taken off st.cut at once only before another kind of change
    # or a reader (``placed``, the full list, the end); the feasibility test below counts them in.
    filled = 0
    # A placement takes at most one unit of room (cut less supply) from any subset of castes, and a subset
    # holding the placed caste loses none: while every subset the placement could tighten (one without some
    # caste) has room to spare, any placement fits and the check below is skipped. ``spare`` is a lower
    # bound of that room, taken exactly when a stage opens and lowered by one per figure.
    spare = 0
    while True:
        draw = draws[seat]
        if not stage:
            stage = figure_stage(st)
            if tries and _only_empty_single_slots_open(st, capacities):
                # Every settlement still open (commonly the villages) is empty with one slot, so the supply,
                # which fits, fits after any placement: the first try is always kept, and the check and the
                # cut's bookkeeping (each fill is an empty village's) drop out of the loop below.
                open_count = len(stage)
                while True:
                    i = floor(draw() * open_count)
                    s = stage[i]
                    c = _SUBSET_CASTES[in_supply][floor(draw() * _POPCOUNT[in_supply])]
                    filled += 1
                    open_count -= 1
                    figures[s] = 1 << c
                    supply[c] -= 1
                    on_board[c] += 1
                    del stage[i]  # open_by_stage[stage_of[s]].remove(s): the stage drawn from holds s once
                    if not supply[c]:
                        in_supply &= ~(1 << c)
                        if not in_supply:
                            _lower_cut(cut, filled)
                            st.current = seat
                            return c, s
                    seat = seat + 1 if seat + 1 < players else 0
                    if placed is not None:
                        filled = _lower_cut(cut, filled)
                        st.current = seat
                        placed(c, s)
                    draw = draws[seat]
                    if not open_count:
                        break
                continue
            spare = _least_room(cut, supply) - filled
        for _ in attempts:
            s = stage[floor(draw() * len(stage))]
            present = figures[s]
            castes = _SUBSET_CASTES[in_supply & ~present]  # in the supply and not yet in s, in caste order
            if castes:
                c = castes[floor(draw() * len(castes))]
                open_before = capacities[s] - _POPCOUNT[present]
                if spare > 0:
                    break
                a, b, only_a, only_b, both = _OTHER_TWO[c]
                # figure_placement_is_feasible against the cut less ``filled`` (supply + filled <= cut ...)
                need_a, need_b = supply[a] + filled, supply[b] + filled
                if (need_a <= cut[only_a] - (_POPCOUNT[only_a & ~present] >= open_before)
                        and need_b <= cut[only_b] - (_POPCOUNT[only_b & ~present] >= open_before)
                        and need_a + need_b - filled <= cut[both] - (_POPCOUNT[both & ~present] >= open_before)):
                    break
        else:  # rare (near the end of a tight distribution): the full list
            filled = _lower_cut(cut, filled)
            moves = legal_figure_placements(st, capacities)
            c, s = moves[floor(draw() * len(moves))]
            present = figures[s]
            open_before = capacities[s] - _POPCOUNT[present]
        if open_before == 1 and not present:
            filled += 1
        else:
            if filled:
                filled = _lower_cut(cut, filled)
            for subset, change in _CUT_CHANGE[open_before][present][c]:
                cut[subset] += change
        figures[s] = present | 1 << c
        supply[c] -= 1
        on_board[c] += 1
        spare -= 1
        if open_before == 1:
            open_by_stage[stage_of[s]].remove(s)
        if not supply[c]:
            in_supply &= ~(1 << c)
            if not in_supply:
                _lower_cut(cut, filled)
                st.current = seat
                return c, s
        seat = seat + 1 if seat + 1 < players else 0
        if placed is not None:
            filled = _lower_cut(cut, filled)
            st.current = seat
            placed(c, s)


def _least_room(cut: list[int], supply: list[int]) -> int:
    """The least room (``cut`` less the supply) of the six subsets of castes that lack some caste."""
    buddha, rice, castle = supply
    return min(cut[1] - buddha, cut[2] - rice, cut[4] - castle, cut[3] - buddha - rice, cut[5] - buddha - castle,
               cut[6] - rice - castle)


def _only_empty_single_slots_open(st: State, capacities: tuple[int, ...]) -> bool:
    """Whether every settlement open for figures, in any stage, is empty and has one slot."""
    figures = st.figures
    for stage in st.open_by_stage:
        for s in stage:
            if capacities[s] != 1 or figures[s]:
                return False
    return True


def _lower_cut(cut: list[int], filled: int) -> int:
    """Take ``filled`` empty villages' fills off ``cut`` (see ``place_random_figures``); returns 0, none left."""
    if filled:
        for subset, change in _FILL_EMPTY_VILLAGE:
            cut[subset] += change * filled
    return 0


def choose_tile(st: State, seat: int, tile_type: int) -> None:
    """Move one tile of ``tile_type`` from the seat's unchosen tiles into its hand."""
    st.pools[seat].remove(tile_type)
    st.hands[seat].append(tile_type)
