//! The search's cheap estimate of how a game still going on will end (`samurai_plugins.knizia.engine.evaluation`).
//!
//! The same numbers as the Python function, to the last bit: the same operations in the same order, the same
//! libm `exp` (both call the C library's), sums added left to right as CPython 3.11's `sum` adds floats. The
//! constants and why they are what they are: the Python module.

use crate::rules::Rules;
use crate::state::{State, HANDS};

/// `LEAD_SHARPNESS`.
const LEAD_SHARPNESS: f64 = 0.8;
/// `WIN_SHARPNESS`.
const WIN_SHARPNESS: f64 = 1.5;
/// `CROWDED_WIN_SHARPNESS`.
const CROWDED_WIN_SHARPNESS: f64 = 3.0;
/// `INFLUENCE_SHARPNESS`.
const INFLUENCE_SHARPNESS: f64 = 0.6;
/// `OPPONENT_DAMPING`.
const OPPONENT_DAMPING: f64 = 0.2;
/// `HAND_WEIGHT`.
const HAND_WEIGHT: f64 = 0.05;

/// The influence slope for `players` seats and `empty` empty land hexes around a settlement (`_SLOPES`).
fn slope(players: usize, empty: i64) -> f64 {
    // `_SLOPES.get(n) or _SLOPES[4]`: an edition for more than 4 seats takes the flattest measured slope.
    let players = if (2..=4).contains(&players) {
        players
    } else {
        4
    };
    INFLUENCE_SHARPNESS * (1.0 - OPPONENT_DAMPING * (players as f64 - 2.0))
        / (1.0 + 0.5 * (empty as f64 - 1.0))
}

/// `exp(x)`, remembering the last argument: several seats often have the same influence (none), and `exp` is a
/// third of the estimate's cost. The same function of the same argument: the same number.
#[derive(Default)]
struct Exp {
    last: Option<(u64, f64)>,
}

impl Exp {
    #[inline]
    fn of(&mut self, x: f64) -> f64 {
        if x == 0.0 {
            return 1.0; // exp(0) is exactly 1 (and the leader's own weight is always exp(0))
        }
        match self.last {
            Some((bits, value)) if bits == x.to_bits() => value,
            _ => {
                let value = x.exp();
                self.last = Some((x.to_bits(), value));
                value
            }
        }
    }
}

/// `sum(values)` of floats as CPython 3.11 adds them: from 0.0, left to right.
fn sum(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |total, &v| total + v)
}

/// `estimate_returns(rules, st)` with its working lists kept from one position to the next (a search estimates
/// every simulation's leaf).
#[derive(Default)]
pub struct Estimate {
    counts: Vec<f64>,
    influence: Vec<i64>,
    column: Vec<i64>,
    weights: Vec<f64>,
    points: Vec<f64>,
    held: Vec<f64>,
    settlements: Settlements,
}

/// What each settlement added to the counts the last time it was estimated, and what that depended on: its
/// figures, its empty land hexes and every seat's influence on it. A search estimates thousands of positions that
/// differ in a few settlements, so the rest add again what they added before (the same numbers, the same
/// additions in the same order) without their logarithms' worth of `exp` and divisions.
#[derive(Default)]
struct Settlements {
    /// Per settlement: the figures it was estimated with (0: not estimated yet).
    figures: Vec<u8>,
    empty: Vec<i64>,
    /// Per settlement, every seat's influence by caste (`3 * players` numbers).
    influence: Vec<i64>,
    /// Per settlement and caste: `SOFT` (every seat's share in `shares`), or the one seat that takes the figure,
    /// or `NOBODY`.
    decided: Vec<usize>,
    /// Per settlement, each seat's share by caste (`counts`' layout).
    shares: Vec<f64>,
}

/// [`Settlements::decided`]: every seat has a share.
const SOFT: usize = usize::MAX;
/// [`Settlements::decided`]: a tie for the lead, nobody takes the figure (or the settlement has no such caste).
const NOBODY: usize = usize::MAX - 1;

impl Settlements {
    /// Room for `settlements` settlements of `width` numbers each (forgetting everything if the shape changed).
    fn fit(&mut self, settlements: usize, width: usize) {
        if self.figures.len() != settlements || self.influence.len() != settlements * width {
            self.figures.clear();
            self.figures.resize(settlements, 0);
            self.empty.clear();
            self.empty.resize(settlements, 0);
            self.influence.clear();
            self.influence.resize(settlements * width, 0);
            self.decided.clear();
            self.decided.resize(settlements * 3, NOBODY);
            self.shares.clear();
            self.shares.resize(settlements * width, 0.0);
        }
    }
}

/// How one settlement with the figures `mask`, `empty` empty land hexes around it and every seat's `influence`
/// (by caste) shares out its figures: per caste in `decided` (see [`Settlements::decided`]) and, where every seat
/// has a share, the shares in `shares` (`counts`' layout). `column` and `weights` are working lists of a seat each.
#[allow(clippy::too_many_arguments)]
fn share_out(
    n: usize,
    mask: u8,
    empty: i64,
    influence: &[i64],
    column: &mut [i64],
    weights: &mut [f64],
    decided: &mut [usize],
    shares: &mut [f64],
) {
    for caste in 0..3 {
        decided[caste] = NOBODY;
        if (mask >> caste) & 1 == 0 {
            continue;
        }
        for seat in 0..n {
            column[seat] = influence[seat * 3 + caste];
        }
        let best = column.iter().copied().max().unwrap_or(0);
        if empty == 0 {
            // Surrounded: decided at the end of the turn (a tie removes it).
            if column.iter().filter(|&&x| x == best).count() == 1 {
                decided[caste] = column.iter().position(|&x| x == best).unwrap_or(0);
            }
            continue;
        }
        let slope = slope(n, empty);
        let mut last = Exp::default();
        for seat in 0..n {
            weights[seat] = last.of(slope * (column[seat] - best) as f64);
        }
        let total = sum(weights);
        for seat in 0..n {
            shares[seat * 3 + caste] = weights[seat] / total;
        }
        decided[caste] = SOFT;
    }
}

impl Estimate {
    /// `estimate_returns(rules, st)`: estimated returns per seat (summing to 1) of `st`, which is not over;
    /// written into `out` (one per seat).
    pub fn returns(&mut self, r: &Rules, st: &State, out: &mut Vec<f64>) {
        let n = r.players;
        let Estimate {
            counts,
            influence,
            column,
            weights,
            points,
            held,
            settlements,
        } = self;
        let width = 3 * n;
        counts.clear();
        counts.extend(st.captured[..width].iter().map(|&c| c as f64));
        influence.resize(width, 0);
        column.resize(n, 0);
        weights.resize(n, 0.0);
        points.clear();
        points.resize(n, 0.0);
        held.resize(n, 0.0);
        settlements.fit(st.figures.len(), width);
        for (s, &mask) in st.figures.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let empty = st.empty_around[s];
            influence.iter_mut().for_each(|x| *x = 0);
            for &h in &r.settlement_neighbours[s] {
                let owner = st.tile_owner[h];
                if owner >= 0 {
                    let t = st.tile_type[h] as usize * 3;
                    let i = owner as usize * 3;
                    for caste in 0..3 {
                        influence[i + caste] += i64::from(r.tile_value[t + caste]);
                    }
                }
            }
            let known = &mut settlements.influence[s * width..(s + 1) * width];
            // Compared number by number: `!=` on the slices calls `memcmp`, dear for a dozen numbers.
            let same = known.iter().zip(influence.iter()).all(|(a, b)| a == b);
            if settlements.figures[s] != mask || settlements.empty[s] != empty || !same {
                known.copy_from_slice(influence);
                settlements.figures[s] = mask;
                settlements.empty[s] = empty;
                let decided = &mut settlements.decided[s * 3..s * 3 + 3];
                let shares = &mut settlements.shares[s * width..(s + 1) * width];
                share_out(n, mask, empty, influence, column, weights, decided, shares);
            }
            for caste in 0..3 {
                match settlements.decided[s * 3 + caste] {
                    NOBODY => {}
                    SOFT => {
                        for seat in 0..n {
                            counts[seat * 3 + caste] +=
                                settlements.shares[s * width + seat * 3 + caste];
                        }
                    }
                    leader => counts[leader * 3 + caste] += 1.0,
                }
            }
        }
        for caste in 0..3 {
            for seat in 0..n {
                held[seat] = counts[seat * 3 + caste];
            }
            let most = held.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut last = Exp::default();
            for seat in 0..n {
                weights[seat] = last.of(LEAD_SHARPNESS * (held[seat] - most));
            }
            let total = sum(weights);
            for seat in 0..n {
                points[seat] += weights[seat] / total;
            }
        }
        if st.phase == HANDS {
            // Nothing is on the board yet: a seat's chances are the hand it takes.
            for (point, hand) in points.iter_mut().zip(&st.hands) {
                let influence: i64 = hand.iter().map(|&t| i64::from(r.tile_influence[t])).sum();
                *point += HAND_WEIGHT * influence as f64;
            }
        }
        let leader = points.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sharpness = if n < 4 {
            WIN_SHARPNESS
        } else {
            CROWDED_WIN_SHARPNESS
        };
        for seat in 0..n {
            weights[seat] = (sharpness * (points[seat] - leader)).exp();
        }
        let total = sum(weights);
        out.clear();
        out.extend(weights.iter().map(|&w| w / total));
    }
}
