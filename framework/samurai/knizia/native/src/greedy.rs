//! The greedy player (`samurai.knizia.greedy`): the tile and hex worth most right now, ties drawn from its
//! generator. It reads only what its seat may know (its own hand and unchosen tiles, the public board), so it
//! decides on the whole position as the Python player decides on the seat's knowledge.

use crate::engine::{
    legal_actions, move_sources, playable_tiles_into, sample_action, sorted_hexes_into, Action,
    Draw, Refusal,
};
use crate::rules::{Placement, Rules, Special, LAND};
use crate::state::{State, EMPTY, FIGURES, HANDS, PLAY};

/// Points of influence traded for one figure captured now (`CAPTURE_VALUE`).
pub const CAPTURE_VALUE: i64 = 10;

/// `greedy_action`: the action worth most now for the seat to act.
pub fn greedy_action<D: Draw + ?Sized>(
    r: &Rules,
    st: &State,
    rng: &mut D,
) -> Result<Action, Refusal> {
    Greedy::default().action(r, st, rng)
}

/// The greedy player with its working lists, kept from one action to the next (a search asks it for every
/// reply of every simulation, and allocating them each time cost a fifth of a search).
#[derive(Default)]
pub struct Greedy {
    tiles: Vec<usize>,
    near: Near,
    at_targets: Vec<(usize, Vec<i64>)>,
    /// The worth of the actions on hexes next to figures, run after run.
    values: Vec<i64>,
    runs: Vec<Run>,
    /// The empty hexes of a terrain in order, listed only to find a tie among hexes next to no figure.
    sorted: Vec<usize>,
}

/// A run of actions in the play phase's legal order: one tile on each empty hex of a terrain, a Move from one
/// source to each empty land hex, or the end of the turn. Only the hexes next to figures have a worth of their
/// own (in `Greedy::values`); every other hex of the run is worth `elsewhere`.
#[derive(Clone, Copy)]
struct Run {
    kind: Kind,
    /// Where the run's worths start in `Greedy::values` (one per hex of `Near`'s list for its terrain).
    start: usize,
    land: bool,
    /// The worth of the run's actions on hexes next to no figure, and how many there are.
    elsewhere: i64,
    others: usize,
}

#[derive(Clone, Copy)]
enum Kind {
    Place(usize),
    Move(usize, usize),
    End,
}

impl Greedy {
    /// `greedy_action`.
    ///
    /// In the play phase it does not list the actions: a tile placed on a hex next to no figure is worth nothing
    /// and a Move there is worth what leaving its source costs, so only the hexes next to figures are worked out
    /// (from the settlements' side), the others counted. The generator then draws which of the best to play, as
    /// the Python player draws from its list of the best, and that action is found in the legal order. When the
    /// best is worth -1 or less (a Switch might be among the best), every action is listed as the Python player
    /// lists them.
    pub fn action<D: Draw + ?Sized>(
        &mut self,
        r: &Rules,
        st: &State,
        rng: &mut D,
    ) -> Result<Action, Refusal> {
        if st.phase == PLAY {
            self.each_play(r, st, st.seat());
            if let Some(best) = self.best().filter(|&b| b > -1) {
                let count: usize = self.runs.iter().map(|run| self.ties(run, best)).sum();
                let k = rng.index(count);
                return self
                    .nth_best(st, best, k)
                    .ok_or(Refusal::NoAction("the greedy player lost its choice"));
            }
        }
        every_action(r, st, rng)
    }

    fn worths(&self, run: &Run) -> &[i64] {
        let len = if run.land {
            self.near.land.len()
        } else {
            self.near.sea.len()
        };
        match run.kind {
            Kind::End => &[],
            _ => &self.values[run.start..run.start + len],
        }
    }

    fn best(&self) -> Option<i64> {
        let mut best: Option<i64> = None;
        for run in &self.runs {
            let near = self.worths(run).iter().copied().max();
            let far = (run.others > 0).then_some(run.elsewhere);
            best = best.max(near).max(far);
        }
        best
    }

    fn ties(&self, run: &Run, best: i64) -> usize {
        let near = self.worths(run).iter().filter(|&&v| v == best).count();
        near + if run.elsewhere == best { run.others } else { 0 }
    }

    /// The `k`-th action worth `best`, in the legal order.
    fn nth_best(&mut self, st: &State, best: i64, mut k: usize) -> Option<Action> {
        let runs = std::mem::take(&mut self.runs);
        let mut sorted = std::mem::take(&mut self.sorted);
        let mut found = None;
        for run in &runs {
            let ties = self.ties(run, best);
            if k >= ties {
                k -= ties;
                continue;
            }
            let near = if run.land {
                &self.near.land
            } else {
                &self.near.sea
            };
            let worths = self.worths(run);
            let hex = if let Kind::End = run.kind {
                0
            } else if run.elsewhere != best {
                let i = (0..near.len()).filter(|&i| worths[i] == best).nth(k)?;
                near[i].0
            } else {
                // Ties among hexes next to no figure: walk every empty hex of the terrain in order.
                let empty = if run.land {
                    &st.empty_land
                } else {
                    &st.empty_sea
                };
                sorted_hexes_into(empty, &mut sorted);
                let mut next = 0;
                let mut hex = None;
                for &h in &sorted {
                    let worth = if next < near.len() && near[next].0 == h {
                        next += 1;
                        worths[next - 1]
                    } else {
                        run.elsewhere
                    };
                    if worth == best {
                        if k == 0 {
                            hex = Some(h);
                            break;
                        }
                        k -= 1;
                    }
                }
                hex?
            };
            found = Some(match run.kind {
                Kind::Place(tile) => Action::Place(tile, hex),
                Kind::Move(tile, source) => Action::Special(tile, [source, hex, 0, 0], 2),
                Kind::End => Action::End,
            });
            break;
        }
        self.runs = runs;
        self.sorted = sorted;
        found
    }

    /// The runs of actions of the play phase but the special tiles other than Move, in the legal order, with the
    /// worth of those next to figures. A Move's worth away from its source is worked out once per source, and at
    /// each target once per kind of tile moved.
    fn each_play(&mut self, r: &Rules, st: &State, seat: usize) {
        let Greedy {
            tiles,
            near,
            at_targets,
            values,
            runs,
            ..
        } = self;
        playable_tiles_into(r, st, seat, st.normal_played, tiles);
        tiles.sort_unstable();
        tiles.dedup();
        near.filled = false;
        at_targets.clear();
        values.clear();
        runs.clear();
        for &tile in tiles.iter() {
            match r.tile_on[tile] {
                Placement::Land | Placement::Sea => {
                    let land = r.tile_on[tile] == Placement::Land;
                    near.fill(r, st);
                    let (hexes, empty) = if land {
                        (&near.land, st.empty_land.len())
                    } else {
                        (&near.sea, st.empty_sea.len())
                    };
                    runs.push(Run {
                        kind: Kind::Place(tile),
                        start: values.len(),
                        land,
                        elsewhere: 0,
                        others: empty - hexes.len(),
                    });
                    values.extend(
                        hexes
                            .iter()
                            .map(|(h, around)| around.worth(r, st, seat, tile, *h)),
                    );
                }
                Placement::Special if r.tile_special[tile] == Some(Special::Move) => {
                    near.fill(r, st);
                    for source in move_sources(r, st, seat) {
                        let moved = st.tile_type[source] as usize;
                        let away = worth(r, st, seat, moved, source, true);
                        let k = match at_targets.iter().position(|(t, _)| *t == moved) {
                            Some(k) => k,
                            None => {
                                let worths = near
                                    .land
                                    .iter()
                                    .map(|(h, around)| around.worth(r, st, seat, moved, *h));
                                at_targets.push((moved, worths.collect()));
                                at_targets.len() - 1
                            }
                        };
                        runs.push(Run {
                            kind: Kind::Move(tile, source),
                            start: values.len(),
                            land: true,
                            elsewhere: -away,
                            others: st.empty_land.len() - near.land.len(),
                        });
                        values.extend(at_targets[k].1.iter().map(|&v| v - away));
                    }
                }
                Placement::Special => {}
            }
        }
        if st.played > 0 {
            runs.push(Run {
                kind: Kind::End,
                start: values.len(),
                land: true,
                elsewhere: 0,
                others: 1,
            });
        }
    }
}

/// The empty hexes next to figures, land and sea, each in order with what surrounds it (worked out once per
/// action, from the settlements that hold figures).
#[derive(Default)]
struct Near {
    filled: bool,
    land: Vec<(usize, Around)>,
    sea: Vec<(usize, Around)>,
    /// Per hex, what surrounds it, while filling (left all default).
    around: Vec<Around>,
    /// The hexes found, a bit each (boards of up to `64 * NEAR_WORDS` hexes; larger ones are sorted).
    bits: [u64; NEAR_WORDS],
    larger: Vec<usize>,
}

const NEAR_WORDS: usize = 8;

impl Near {
    fn fill(&mut self, r: &Rules, st: &State) {
        if self.filled {
            return;
        }
        self.around.resize(r.board_size, Around::default());
        self.bits = [0; NEAR_WORDS];
        self.larger.clear();
        let small = r.board_size <= 64 * NEAR_WORDS;
        for (s, &mask) in st.figures.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let spread = SPREAD[(mask & 7) as usize];
            for &h in &r.settlement_neighbours[s] {
                let land = st.empty_land_pos[h] >= 0;
                if !land && st.empty_sea_pos[h] < 0 {
                    continue; // a tile is there
                }
                let around = &mut self.around[h];
                if around.castes == 0 {
                    if small {
                        self.bits[h >> 6] |= 1 << (h & 63);
                    } else {
                        self.larger.push(h);
                    }
                }
                around.castes += spread;
                // A tile on an empty land hex fills one of the settlement's empty land hexes.
                around.resolves |= st.empty_around[s] == i64::from(land);
            }
        }
        self.land.clear();
        self.sea.clear();
        let mut take = |h: usize| {
            let around = std::mem::take(&mut self.around[h]);
            if st.empty_land_pos[h] >= 0 {
                self.land.push((h, around));
            } else {
                self.sea.push((h, around));
            }
        };
        if small {
            for (w, &word) in self.bits.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    take(w * 64 + rest.trailing_zeros() as usize);
                    rest &= rest - 1;
                }
            }
        } else {
            self.larger.sort_unstable();
            for &h in &self.larger {
                take(h);
            }
        }
        self.filled = true;
    }
}

/// The figures next to an empty hex by caste, and whether a tile there would surround a settlement.
#[derive(Clone, Copy, Default)]
struct Around {
    /// The figures of each caste, a byte each (caste 0 lowest).
    castes: u32,
    resolves: bool,
}

/// A caste mask spread to one byte per caste, for [`Around::castes`].
const SPREAD: [u32; 8] = [0, 0x1, 0x100, 0x101, 0x1_0000, 0x1_0001, 0x1_0100, 0x1_0101];

impl Around {
    /// `worth(r, st, seat, tile, h, false)`: with no settlement surrounded, the tile's influence on each caste
    /// times the figures of that caste next to `h`.
    #[inline]
    fn worth(&self, r: &Rules, st: &State, seat: usize, tile: usize, h: usize) -> i64 {
        if self.resolves {
            return worth(r, st, seat, tile, h, false);
        }
        let values = &r.tile_value[tile * 3..tile * 3 + 3];
        (0..3)
            .map(|c| i64::from(values[c]) * i64::from(self.castes >> (8 * c) & 0xff))
            .sum()
    }
}

/// `greedy_action` by listing every legal action (the choice of starting hands and figures, and the play phase
/// when [`Greedy::action`] leaves it here).
fn every_action<D: Draw + ?Sized>(r: &Rules, st: &State, rng: &mut D) -> Result<Action, Refusal> {
    let seat = st.seat();
    if st.phase == HANDS {
        let pool = &st.pools[seat];
        let Some(best) = pool.iter().map(|&t| r.tile_influence[t]).max() else {
            return Err(Refusal::NoAction("no tile is left to choose"));
        };
        let mut strongest: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&t| r.tile_influence[t] == best)
            .collect();
        strongest.sort_unstable();
        strongest.dedup();
        return Ok(Action::Choose(strongest[rng.index(strongest.len())]));
    }
    if st.phase == FIGURES {
        return sample_action(r, st, rng);
    }
    let mut best_value: Option<i64> = None;
    let mut best_actions: Vec<Action> = Vec::new();
    for action in legal_actions(r, st) {
        let value = match action {
            Action::End => 0,
            Action::Place(tile, h) => worth(r, st, seat, tile, h, false),
            Action::Special(tile, params, _) if r.tile_special[tile] == Some(Special::Move) => {
                let (source, target) = (params[0], params[1]);
                let moved = st.tile_type[source] as usize;
                worth(r, st, seat, moved, target, false) - worth(r, st, seat, moved, source, true)
            }
            _ => -1, // other special tiles: kept unless nothing else can be played
        };
        match best_value {
            Some(best) if value < best => {}
            Some(best) if value == best => best_actions.push(action),
            _ => {
                best_value = Some(value);
                best_actions.clear();
                best_actions.push(action);
            }
        }
    }
    if best_actions.is_empty() {
        return Err(Refusal::NoAction(
            "the game is over: there is no action to choose",
        ));
    }
    Ok(best_actions[rng.index(best_actions.len())])
}

/// `_worth`: the influence the tile adds next to `h` plus the captures it decides this turn.
fn worth(r: &Rules, st: &State, seat: usize, tile: usize, h: usize, placed: bool) -> i64 {
    let fills_land = r.terrain[h] == LAND && !placed;
    let mut total = 0i64;
    for &s in &r.adjacent_settlements[h] {
        let mask = st.figures[s];
        if mask == 0 {
            continue;
        }
        let resolves = st.empty_around[s] - i64::from(fills_land) == 0;
        for caste in 0..3 {
            if mask >> caste & 1 == 0 {
                continue;
            }
            total += i64::from(r.tile_value[tile * 3 + caste]);
            if resolves {
                total += CAPTURE_VALUE
                    * (captures(r, st, seat, s, caste, tile, h, true)
                        - captures(r, st, seat, s, caste, tile, h, false));
            }
        }
    }
    total
}

/// `_captures`: +1 if the seat would capture the figure, -1 if an opponent would, 0 on a tie.
#[allow(clippy::too_many_arguments)]
fn captures(
    r: &Rules,
    st: &State,
    seat: usize,
    s: usize,
    caste: usize,
    tile: usize,
    h: usize,
    with_tile: bool,
) -> i64 {
    // On the stack for the tables of every shipped edition (at most 4 seats).
    let mut small = [0i32; 8];
    let mut large = Vec::new();
    let influence: &mut [i32] = if r.players <= small.len() {
        &mut small[..r.players]
    } else {
        large.resize(r.players, 0);
        &mut large
    };
    for &n in &r.settlement_neighbours[s] {
        if n == h {
            continue;
        }
        let owner = st.tile_owner[n];
        if owner != EMPTY {
            influence[owner as usize] += r.tile_value[st.tile_type[n] as usize * 3 + caste];
        }
    }
    if with_tile {
        influence[seat] += r.tile_value[tile * 3 + caste];
    }
    let best = *influence.iter().max().unwrap_or(&0);
    if influence.iter().filter(|&&x| x == best).count() > 1 {
        return 0;
    }
    if influence.iter().position(|&x| x == best) == Some(seat) {
        1
    } else {
        -1
    }
}
