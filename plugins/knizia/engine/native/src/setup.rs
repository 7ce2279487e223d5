//! The setup's rules (`samurai_plugins.knizia.editions.setup`): which figure placements keep the supply fitting
//! the open slots, placing a figure, choosing a starting tile. The setup's turn flow (who places next, when play
//! begins) is the engine's ([`crate::reference`]), as in Python.

use crate::rules::Rules;
use crate::state::{popcount, State};

/// `CUT_CONTRIBUTION[open][present][subset]`: how many figures of the castes `subset` a settlement with `open`
/// free slots and castes `present` can still take.
pub(crate) fn cut_contribution(open: usize, present: u8, subset: usize) -> i64 {
    open.min(popcount(subset as u8 & !present)) as i64
}

/// Remove the first element equal to `value` (Python's `list.remove`).
pub(crate) fn remove_value(list: &mut Vec<usize>, value: usize) {
    if let Some(i) = list.iter().position(|&x| x == value) {
        list.remove(i);
    }
}

/// `figure_placement_is_feasible`: whether the supply still fits every open slot after `caste` goes to
/// `settlement` (the cut condition of the three subsets of the two other castes).
pub fn figure_placement_is_feasible(
    st: &State,
    capacity: usize,
    settlement: usize,
    caste: usize,
) -> bool {
    let present = st.figures[settlement];
    let open_before = capacity.saturating_sub(popcount(present));
    let (a, b) = match caste {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let (only_a, only_b, both) = (1usize << a, 1usize << b, (1usize << a) | (1usize << b));
    let lose = |subset: usize| i64::from(popcount(subset as u8 & !present) >= open_before);
    let (need_a, need_b) = (st.supply[a], st.supply[b]);
    need_a <= st.cut[only_a] - lose(only_a)
        && need_b <= st.cut[only_b] - lose(only_b)
        && need_a + need_b <= st.cut[both] - lose(both)
}

/// `figure_stage`: the index of the first stage with a free slot, if any.
pub(crate) fn figure_stage(st: &State) -> Option<usize> {
    st.open_by_stage.iter().position(|stage| !stage.is_empty())
}

pub(crate) fn stage_list(st: &State) -> &[usize] {
    match figure_stage(st) {
        Some(i) => &st.open_by_stage[i],
        None => &[],
    }
}

/// `legal_figure_placements`: every feasible `(caste, settlement)`, by settlement then caste.
pub(crate) fn legal_figure_placements(r: &Rules, st: &State) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    for &s in stage_list(st) {
        let present = st.figures[s];
        for c in 0..3 {
            if st.supply[c] > 0
                && present >> c & 1 == 0
                && figure_placement_is_feasible(st, r.capacities[s], s, c)
            {
                moves.push((c, s));
            }
        }
    }
    moves.sort_by_key(|&(c, s)| (s, c));
    moves
}

/// `place_figure`: a figure from the supply into a settlement (checked before).
pub(crate) fn place_figure(r: &Rules, st: &mut State, caste: usize, settlement: usize) {
    let present = st.figures[settlement];
    let open_before = r.capacities[settlement].saturating_sub(popcount(present));
    if open_before > 0 {
        let after = present | 1 << caste;
        for subset in 0..8 {
            st.cut[subset] += cut_contribution(open_before - 1, after, subset)
                - cut_contribution(open_before, present, subset);
        }
    }
    st.figures[settlement] = present | 1 << caste;
    st.supply[caste] -= 1;
    st.on_board[caste] += 1;
    if open_before == 1 {
        let stage = r.stage_of[settlement];
        if stage >= 0 {
            remove_value(&mut st.open_by_stage[stage as usize], settlement);
        }
    }
}

/// `choose_tile`: one tile of `tile` from the seat's unchosen tiles into its hand.
pub(crate) fn choose_tile(st: &mut State, seat: usize, tile: usize) {
    remove_value(&mut st.pools[seat], tile);
    st.hands[seat].push(tile);
}
