//! The engine's own special tiles, Move and Switch (`samurai_plugins.knizia.engine.special_tiles`,
//! docs/rules/samurai.md#move-tile and docs/rules/samurai.md#switch-tile): everything about them lives here, their
//! names, legal targets, checks, random draws, effects and what the greedy player makes of them, as
//! [`Special`]'s [`TileBehaviour`]. The engine ([`crate::reference`]) and the greedy player ask the behaviour and
//! never branch on a tile.

use crate::actions::{Action, Refusal};
use crate::mt::Draw;
use crate::reference::{bit, index, put_tile, SAMPLE_TRIES};
use crate::rules::{Rules, Special, TileBehaviour, LAND};
use crate::state::{castes_in, State, CASTES, EMPTY};

impl Special {
    /// The behaviour of a Python behaviour's `name` (`MoveBehaviour.name`, ...), if the native engine has it.
    pub fn named(name: &str) -> Option<Special> {
        match name {
            "move" => Some(Special::Move),
            "switch" => Some(Special::Switch),
            _ => None,
        }
    }
}

impl TileBehaviour for Special {
    fn can_play(&self, r: &Rules, st: &State, seat: usize, tile: usize) -> bool {
        match self {
            Special::Move => {
                if st.empty_land.is_empty() || st.movable_count[seat] == 0 {
                    return false;
                }
                if !r.tile_fast[tile] && !st.normal_played {
                    return true;
                }
                move_sources(r, st, seat).next().is_some()
            }
            Special::Switch => {
                // Which caste masks stand somewhere (bit `m` for mask `m`): whether two settlements can swap depends
                // on that set only, looked up in a table made once.
                let present = st
                    .figures
                    .iter()
                    .fold(0u8, |present, &mask| present | 1 << (mask & 7));
                SWITCH_POSSIBLE[present as usize]
            }
        }
    }

    fn legal(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        tile: usize,
        empty_land: &[usize],
        out: &mut Vec<Action>,
    ) {
        match self {
            Special::Move => move_legal(r, st, seat, tile, empty_land, out),
            Special::Switch => switch_legal(st, tile, out),
        }
    }

    fn check(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        _tile: usize,
        targets: &[u64],
    ) -> Result<Option<String>, Refusal> {
        match self {
            Special::Move => {
                let [source, target] = targets else {
                    return Err(Refusal::OutOfRange);
                };
                let source = index(*source, r.board_size)?;
                if st.tile_owner[source] != seat as i64 {
                    return Ok(Some(
                        "Move takes one of your own tiles, and there is none at the source hex"
                            .into(),
                    ));
                }
                let moved = index(st.tile_type[source].max(0) as u64, r.tile_names.len())?;
                if !r.tile_movable[moved] {
                    return Ok(Some(format!(
                        "Move cannot take a {} tile: only normal caste or Samurai tiles move",
                        r.tile_names[moved]
                    )));
                }
                if st.tile_turn[source] >= st.turn {
                    return Ok(Some("Move cannot take a tile placed this turn".into()));
                }
                let target = index(*target, r.board_size)?;
                if r.terrain[target] != LAND || st.tile_owner[target] != EMPTY {
                    return Ok(Some("Move needs an empty land hex as the target".into()));
                }
                Ok(None)
            }
            Special::Switch => {
                let [s1, c1, s2, c2] = targets else {
                    return Err(Refusal::OutOfRange);
                };
                let (s1, c1, s2, c2) = (*s1, *c1, *s2, *c2);
                if s1 == s2 {
                    return Ok(Some(
                        "Switch exchanges figures between two different settlements".into(),
                    ));
                }
                if c1 == c2 {
                    return Ok(Some(
                        "Switch exchanges two figures of different castes".into(),
                    ));
                }
                let settlements = r.settlement_names.len();
                let (i1, i2) = (index(s1, settlements)?, index(s2, settlements)?);
                let (m1, m2) = (st.figures[i1], st.figures[i2]);
                let caste = |c: u64| index(c, 3).map(|c| CASTES[c]);
                if !bit(m1, c1) {
                    return Ok(Some(format!(
                        "there is no {} figure in {}",
                        caste(c1)?,
                        r.settlement_names[i1]
                    )));
                }
                if !bit(m2, c2) {
                    return Ok(Some(format!(
                        "there is no {} figure in {}",
                        caste(c2)?,
                        r.settlement_names[i2]
                    )));
                }
                if bit(m1, c2) {
                    return Ok(Some(format!(
                        "{} would hold two {} figures",
                        r.settlement_names[i1],
                        caste(c2)?
                    )));
                }
                if bit(m2, c1) {
                    return Ok(Some(format!(
                        "{} would hold two {} figures",
                        r.settlement_names[i2],
                        caste(c1)?
                    )));
                }
                Ok(None)
            }
        }
    }

    fn sample<D: Draw + ?Sized>(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        tile: usize,
        rng: &mut D,
    ) -> Option<Action> {
        match self {
            Special::Move => {
                let source = listed(move_sources(r, st, seat), r.land_hexes.len(), |sources| {
                    if sources.is_empty() || st.empty_land.is_empty() {
                        None
                    } else {
                        Some(sources[rng.index(sources.len())])
                    }
                })?;
                let target = st.empty_land[rng.index(st.empty_land.len())];
                Some(Action::Special(tile, [source, target, 0, 0], 2))
            }
            Special::Switch => {
                let occupied = (0..st.figures.len()).filter(|&s| st.figures[s] != 0);
                let swapped = listed(occupied, st.figures.len(), |occupied| {
                    switch_by_tries(st, tile, occupied, rng)
                });
                if swapped.is_some() {
                    return swapped;
                }
                let mut moves = Vec::new();
                switch_legal(st, tile, &mut moves);
                if moves.is_empty() {
                    None
                } else {
                    Some(moves[rng.index(moves.len())])
                }
            }
        }
    }

    fn apply(&self, r: &Rules, st: &mut State, seat: usize, tile: usize, targets: [usize; 4]) {
        match self {
            Special::Move => {
                let (source, target) = (targets[0], targets[1]);
                let moved = st.tile_type[source] as usize;
                st.movable_count[seat] -= 1; // put_tile counts it again at the target
                st.tile_type[source] = tile as i64;
                st.tile_turn[source] = st.turn;
                put_tile(r, st, seat, moved, target);
            }
            Special::Switch => {
                let (s1, c1, s2, c2) = (targets[0], targets[1], targets[2], targets[3]);
                let swap = (1u8 << c1) | (1u8 << c2);
                st.figures[s1] ^= swap;
                st.figures[s2] ^= swap;
                st.spent[seat] += 1; // the Switch tile leaves the game
            }
        }
    }

    fn relocation_sources(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        sources: &mut Vec<usize>,
    ) -> bool {
        match self {
            Special::Move => {
                sources.clear();
                sources.extend(move_sources(r, st, seat));
                true
            }
            Special::Switch => false,
        }
    }
}

/// `SWITCH_POSSIBLE[present]`: whether settlements holding the caste masks of the set `present` (bit `m` for mask
/// `m`) include two that can swap figures: some caste of one missing from the other and the other way round.
const SWITCH_POSSIBLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut present = 0;
    while present < 256 {
        let mut m1 = 1;
        while m1 < 8 {
            let mut m2 = 1;
            while m2 < 8 {
                if present >> m1 & 1 == 1
                    && present >> m2 & 1 == 1
                    && m1 & !m2 != 0
                    && m2 & !m1 != 0
                {
                    table[present] = true;
                }
                m2 += 1;
            }
            m1 += 1;
        }
        present += 1;
    }
    table
};

/// `MoveBehaviour._sources`: the seat's movable tiles placed before this turn, in land-hex order.
fn move_sources<'a>(r: &'a Rules, st: &'a State, seat: usize) -> impl Iterator<Item = usize> + 'a {
    r.land_hexes.iter().copied().filter(move |&h| {
        st.tile_owner[h] == seat as i64
            && st.tile_type[h] >= 0
            && r.tile_movable[st.tile_type[h] as usize]
            && st.tile_turn[h] < st.turn
    })
}

/// `_SWAPS[m1][m2]`: the caste pairs two settlements holding `m1` and `m2` may exchange.
fn swaps(m1: u8, m2: u8) -> impl Iterator<Item = (usize, usize)> {
    (0..3usize).flat_map(move |c1| {
        (0..3usize).filter_map(move |c2| {
            let ok = m1 >> c1 & 1 == 1
                && m2 >> c1 & 1 == 0
                && c2 != c1
                && m2 >> c2 & 1 == 1
                && m1 >> c2 & 1 == 0;
            ok.then_some((c1, c2))
        })
    })
}

/// The legal actions of a Move tile, onto `out` (`targets`: the empty land hexes, sorted).
fn move_legal(
    r: &Rules,
    st: &State,
    seat: usize,
    tile: usize,
    targets: &[usize],
    out: &mut Vec<Action>,
) {
    for source in move_sources(r, st, seat) {
        out.extend(
            targets
                .iter()
                .map(|&target| Action::Special(tile, [source, target, 0, 0], 2)),
        );
    }
}

/// The legal actions of a Switch tile, onto `out`.
fn switch_legal(st: &State, tile: usize, out: &mut Vec<Action>) {
    let occupied: Vec<(usize, u8)> = st
        .figures
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, m)| m != 0)
        .collect();
    for (i, &(s1, m1)) in occupied.iter().enumerate() {
        for &(s2, m2) in &occupied[i + 1..] {
            out.extend(swaps(m1, m2).map(|(c1, c2)| Action::Special(tile, [s1, c1, s2, c2], 4)));
        }
    }
}

/// `items` listed on the stack when at most `bound` come and that fits (every shipped board's lists do), else on
/// the heap; then `f` of the list.
fn listed<T>(items: impl Iterator<Item = usize>, bound: usize, f: impl FnOnce(&[usize]) -> T) -> T {
    const ON_STACK: usize = 128;
    if bound <= ON_STACK {
        let mut buffer = [0usize; ON_STACK];
        let mut count = 0;
        for (slot, item) in buffer.iter_mut().zip(items) {
            *slot = item;
            count += 1;
        }
        f(&buffer[..count])
    } else {
        let all: Vec<usize> = items.collect();
        f(&all)
    }
}

/// `SwitchBehaviour.sample`'s tries: two occupied settlements and a caste of each drawn at random, kept if they can
/// swap; None after `SAMPLE_TRIES` misses (or with fewer than two occupied settlements).
fn switch_by_tries<D: Draw + ?Sized>(
    st: &State,
    tile: usize,
    occupied: &[usize],
    rng: &mut D,
) -> Option<Action> {
    if occupied.len() < 2 {
        return None;
    }
    let count = occupied.len();
    for _ in 0..SAMPLE_TRIES {
        let s1 = occupied[rng.index(count)];
        let s2 = occupied[rng.index(count)];
        let castes = castes_in(st.figures[s1]);
        let c1 = castes[rng.index(castes.len())];
        let castes = castes_in(st.figures[s2]);
        let c2 = castes[rng.index(castes.len())];
        let (m1, m2) = (st.figures[s1], st.figures[s2]);
        if s1 != s2 && c1 != c2 && m1 >> c2 & 1 == 0 && m2 >> c1 & 1 == 0 {
            return Some(Action::Special(tile, [s1, c1, s2, c2], 4));
        }
    }
    None
}
