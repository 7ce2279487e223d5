//! The greedy player (`samurai_plugins.knizia.engine.greedy`): the tile and hex worth most right now, ties drawn
//! from its generator. It reads only what its seat may know (its own hand and unchosen tiles, the public board), so it
//! decides on the whole position as the Python player decides on the seat's knowledge.

use crate::actions::{Action, Refusal};
use crate::mt::Draw;
use crate::reference::{legal_actions, playable_tiles_into, sample_action};
use crate::rules::{Placement, Rules, TileBehaviour, LAND};
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
/// reply of every simulation, and allocating them each time cost a fifth of a search). One serves the games of
/// one set of rules: what it keeps of a board is that board's.
#[derive(Default)]
pub struct Greedy {
    tiles: Vec<usize>,
    land: Hexes,
    sea: Hexes,
    arounds: Arounds,
    resolving: Resolving,
    at_targets: Vec<(usize, Vec<i64>)>,
    /// The hexes a relocating special tile (Move) takes a tile from.
    sources: Vec<usize>,
    /// The worth of every action [`Greedy::each_play`] visits, in its order.
    values: Vec<i64>,
    /// Where each run of actions of one kind starts in `values`, and what they are.
    runs: Vec<(usize, Run)>,
    /// Where the best worth stands in `values`.
    best_at: Vec<u32>,
}

/// A run of actions in the play phase's legal order: one tile on each empty hex of a terrain, a relocating special
/// tile (Move) from one source to each empty land hex, or the end of the turn.
#[derive(Clone, Copy)]
enum Run {
    Place { tile: usize, land: bool },
    Relocate { tile: usize, source: usize },
    End,
}

impl Greedy {
    /// `greedy_action`.
    ///
    /// In the play phase it does not list the actions: one pass notes every action's worth, the generator draws
    /// which of the best to play (as the Python player draws from its list of the best), and the action is
    /// worked out from where it stands. When the best is worth -1 or less (a Switch might be among the best),
    /// every action is listed as in the Python player.
    pub fn action<D: Draw + ?Sized>(
        &mut self,
        r: &Rules,
        st: &State,
        rng: &mut D,
    ) -> Result<Action, Refusal> {
        if st.phase == PLAY {
            self.each_play(r, st, st.seat());
            // The best worth and where it stands, in one pass.
            let (mut best, best_at) = (i64::MIN, &mut self.best_at);
            best_at.clear();
            for (i, &value) in self.values.iter().enumerate() {
                if value >= best {
                    if value > best {
                        best = value;
                        best_at.clear();
                    }
                    best_at.push(i as u32);
                }
            }
            if !best_at.is_empty() && best > -1 {
                // `values` follow the empty hexes in the position's own order; the generator draws among the best
                // in the legal order (by run, then by hex), as the Python player draws from its list.
                let k = rng.index(best_at.len());
                let (runs, land, sea) = (&self.runs, &self.land.hexes, &self.sea.hexes);
                let (_, &mut chosen, _) = best_at
                    .select_nth_unstable_by_key(k, |&i| legal_place(runs, land, sea, i as usize));
                return Ok(self.action_at(chosen as usize));
            }
        }
        every_action(r, st, rng)
    }

    /// The action at `i` of the order `each_play` visited.
    fn action_at(&self, i: usize) -> Action {
        let run = self.runs.partition_point(|&(start, _)| start <= i) - 1;
        let (start, kind) = self.runs[run];
        match kind {
            Run::Place { tile, land } => {
                let hexes = if land { &self.land } else { &self.sea };
                Action::Place(tile, hexes.hexes[i - start])
            }
            Run::Relocate { tile, source } => {
                Action::Special(tile, [source, self.land.hexes[i - start], 0, 0], 2)
            }
            Run::End => Action::End,
        }
    }

    /// The worth of every action of the play phase but the special tiles that do not relocate a tile, into `values`
    /// (and its runs into `runs`): run by run in the legal order, each run's hexes in the position's order. A
    /// relocation's worth away from its source is worked out once per source, and at each target once per kind of
    /// tile moved.
    fn each_play(&mut self, r: &Rules, st: &State, seat: usize) {
        let Greedy {
            tiles,
            land,
            sea,
            arounds,
            resolving,
            at_targets,
            sources,
            values,
            runs,
            best_at: _,
        } = self;
        playable_tiles_into(r, st, seat, st.normal_played, tiles);
        tiles.sort_unstable();
        tiles.dedup();
        land.filled = false;
        sea.filled = false;
        arounds.refresh(r, st);
        resolving.clear(r);
        at_targets.clear();
        values.clear();
        runs.clear();
        for &tile in tiles.iter() {
            match r.tile_on[tile] {
                Placement::Land | Placement::Sea => {
                    let on_land = r.tile_on[tile] == Placement::Land;
                    let (hexes, empty) = if on_land {
                        (&mut *land, &st.empty_land)
                    } else {
                        (&mut *sea, &st.empty_sea)
                    };
                    hexes.fill(arounds, r, st, empty);
                    runs.push((
                        values.len(),
                        Run::Place {
                            tile,
                            land: on_land,
                        },
                    ));
                    values.extend(
                        hexes
                            .hexes
                            .iter()
                            .map(|&h| value_at(resolving, arounds.around[h], r, st, seat, tile, h)),
                    );
                }
                Placement::Special => {
                    let relocates = r.tile_special[tile]
                        .is_some_and(|b| b.relocation_sources(r, st, seat, sources));
                    if !relocates {
                        continue;
                    }
                    land.fill(arounds, r, st, &st.empty_land);
                    for &source in sources.iter() {
                        let moved = st.tile_type[source] as usize;
                        let away = worth(r, st, seat, moved, source, true);
                        let k = match at_targets.iter().position(|(t, _)| *t == moved) {
                            Some(k) => k,
                            None => {
                                let worths = land.hexes.iter().map(|&h| {
                                    value_at(resolving, arounds.around[h], r, st, seat, moved, h)
                                });
                                at_targets.push((moved, worths.collect()));
                                at_targets.len() - 1
                            }
                        };
                        runs.push((values.len(), Run::Relocate { tile, source }));
                        values.extend(at_targets[k].1.iter().map(|&v| v - away));
                    }
                }
            }
        }
        if st.played > 0 {
            runs.push((values.len(), Run::End));
            values.push(0);
        }
    }
}

/// Where the action at `i` of `values` stands in the legal order: its run, then its hex (`usize::MAX` for the end
/// of the turn, the last run).
fn legal_place(runs: &[(usize, Run)], land: &[usize], sea: &[usize], i: usize) -> (usize, usize) {
    let run = runs.partition_point(|&(start, _)| start <= i) - 1;
    let (start, kind) = runs[run];
    let hex = match kind {
        Run::Place { land: true, .. } | Run::Relocate { .. } => land[i - start],
        Run::Place { land: false, .. } => sea[i - start],
        Run::End => usize::MAX,
    };
    (run, hex)
}

/// The empty hexes of one terrain (listed once per action, in the position's order), each with what surrounds it
/// worked out in [`Arounds`].
#[derive(Default)]
struct Hexes {
    filled: bool,
    hexes: Vec<usize>,
}

impl Hexes {
    fn fill(&mut self, arounds: &mut Arounds, r: &Rules, st: &State, empty: &[usize]) {
        if self.filled {
            return;
        }
        // In the position's order, not sorted: the values are worked out in any order, and only the best are put
        // in the legal order (`legal_place`).
        self.hexes.clear();
        self.hexes.extend_from_slice(empty);
        for &h in &self.hexes {
            arounds.know(r, st, h);
        }
        self.filled = true;
    }
}

/// What surrounds each hex, kept from one action to the next: it depends only on the figures and the empty land
/// hexes of the settlements next to the hex, so it is worked out again only for the hexes next to a settlement
/// where either has changed since (whatever position it was worked out on: the comparison is of the values).
#[derive(Default)]
struct Arounds {
    around: Vec<Around>,
    known: Vec<bool>,
    /// Each settlement's figures and empty land hexes when the hexes next to it were last worked out.
    figures: Vec<u8>,
    empty: Vec<i64>,
}

impl Arounds {
    /// Forget what surrounds the hexes next to every settlement that changed.
    fn refresh(&mut self, r: &Rules, st: &State) {
        let settlements = st.figures.len();
        if self.known.len() != r.board_size || self.figures.len() != settlements {
            self.around.clear();
            self.around.resize(r.board_size, Around::default());
            self.known.clear();
            self.known.resize(r.board_size, false);
            self.figures.clone_from(&st.figures);
            self.empty.clone_from(&st.empty_around);
            return;
        }
        for s in 0..settlements {
            if self.figures[s] != st.figures[s] || self.empty[s] != st.empty_around[s] {
                self.figures[s] = st.figures[s];
                self.empty[s] = st.empty_around[s];
                for &h in &r.settlement_neighbours[s] {
                    self.known[h] = false;
                }
            }
        }
    }

    /// Work out what surrounds `h` if it is not known (then `around[h]` holds it).
    #[inline]
    fn know(&mut self, r: &Rules, st: &State, h: usize) {
        if !self.known[h] {
            self.around[h] = Around::of(r, st, h);
            self.known[h] = true;
        }
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
    fn of(r: &Rules, st: &State, h: usize) -> Self {
        // A tile on an empty land hex fills one of each neighbouring settlement's empty land hexes.
        let fills_land = i64::from(r.terrain[h] == LAND);
        let mut around = Around::default();
        for &s in &r.adjacent_settlements[h] {
            let mask = st.figures[s];
            if mask != 0 {
                around.resolves |= st.empty_around[s] == fills_land;
                around.castes += SPREAD[(mask & 7) as usize];
            }
        }
        around
    }

    /// `worth(r, st, seat, tile, h, false)` where no settlement would be surrounded: the tile's influence on
    /// each caste times the figures of that caste next to `h`.
    #[inline]
    fn plain_worth(&self, r: &Rules, tile: usize) -> i64 {
        let values = &r.tile_value[tile * 3..tile * 3 + 3];
        (0..3)
            .map(|c| i64::from(values[c]) * i64::from(self.castes >> (8 * c) & 0xff))
            .sum()
    }
}

/// `worth(r, st, seat, tile, h, false)` of a tile on the empty hex `h`, whose surroundings are `around` (the
/// common case, where no settlement would be surrounded, inline).
#[inline(always)]
fn value_at(
    resolving: &mut Resolving,
    around: Around,
    r: &Rules,
    st: &State,
    seat: usize,
    tile: usize,
    h: usize,
) -> i64 {
    if around.resolves {
        resolving.worth(r, st, seat, tile, h)
    } else {
        around.plain_worth(r, tile)
    }
}

/// For the empty hexes where a tile would surround a settlement, what decides its worth apart from the tile,
/// worked out once per action of the greedy player (each kind of tile in hand is weighed on the same hexes).
#[derive(Default)]
struct Resolving {
    /// Per hex: where its records start in `records` and how many, or None.
    slot: Vec<Option<(u32, u32)>>,
    /// The hexes with a slot (to clear them).
    used: Vec<usize>,
    records: Vec<Record>,
}

/// One caste's figure of a settlement next to a hex (`worth`'s inner loop without the tile).
#[derive(Clone, Copy)]
struct Record {
    caste: usize,
    /// Whether the tile surrounds the settlement (then the figure's capture counts).
    resolves: bool,
    /// The seat's influence on the caste there without the tile, the most any other seat has (`i64::MIN`:
    /// no other seat) and how many other seats have that much.
    mine: i64,
    most_other: i64,
    others_at_most: u32,
}

impl Record {
    /// The figure's record for `seat` and a tile on the empty hex `h` (the influence counted only where the
    /// tile surrounds the settlement).
    #[allow(clippy::too_many_arguments)]
    fn of(
        r: &Rules,
        st: &State,
        seat: usize,
        s: usize,
        caste: usize,
        h: usize,
        resolves: bool,
    ) -> Self {
        let mut record = Record {
            caste,
            resolves,
            mine: 0,
            most_other: i64::MIN,
            others_at_most: 0,
        };
        if resolves {
            influence_without(r, st, s, caste, h, &mut record, seat);
        }
        record
    }

    /// `_captures(with_tile=True) - _captures(with_tile=False)` for a tile worth `value` to the caste.
    #[inline]
    fn gained(&self, value: i64) -> i64 {
        self.side(self.mine + value) - self.side(self.mine)
    }

    /// `_captures` with the seat's influence `mine`: +1 if the seat would capture the figure, -1 if another
    /// seat would, 0 on a tie.
    #[inline]
    fn side(&self, mine: i64) -> i64 {
        match mine.cmp(&self.most_other) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => -i64::from(self.others_at_most == 1),
        }
    }
}

impl Resolving {
    /// Forget the last action's records (before an action of the greedy player, on `r`'s board).
    fn clear(&mut self, r: &Rules) {
        for &h in &self.used {
            self.slot[h] = None;
        }
        self.used.clear();
        self.records.clear();
        if self.slot.len() != r.board_size {
            self.slot.clear();
            self.slot.resize(r.board_size, None);
        }
    }

    /// `worth(r, st, seat, tile, h, false)` of a tile on the empty hex `h`, where it would surround a settlement.
    #[inline(never)]
    fn worth(&mut self, r: &Rules, st: &State, seat: usize, tile: usize, h: usize) -> i64 {
        let (start, len) = match self.slot[h] {
            Some(slot) => slot,
            None => {
                let slot = self.note(r, st, seat, h);
                self.slot[h] = Some(slot);
                self.used.push(h);
                slot
            }
        };
        let values = &r.tile_value[tile * 3..tile * 3 + 3];
        let mut total = 0i64;
        for record in &self.records[start as usize..(start + len) as usize] {
            let value = i64::from(values[record.caste]);
            total += value;
            if record.resolves {
                total += CAPTURE_VALUE * record.gained(value);
            }
        }
        total
    }

    /// The records of the hex `h` (its settlements with figures, in `worth`'s order), added to `records`.
    fn note(&mut self, r: &Rules, st: &State, seat: usize, h: usize) -> (u32, u32) {
        let start = self.records.len();
        let fills_land = i64::from(r.terrain[h] == LAND);
        for &s in &r.adjacent_settlements[h] {
            let mask = st.figures[s];
            if mask == 0 {
                continue;
            }
            let resolves = st.empty_around[s] - fills_land == 0;
            for caste in 0..3 {
                if mask >> caste & 1 == 0 {
                    continue;
                }
                self.records
                    .push(Record::of(r, st, seat, s, caste, h, resolves));
            }
        }
        (start as u32, (self.records.len() - start) as u32)
    }
}

/// The influence on `caste` at settlement `s` from every tile but one on `h`: the seat's, and the most of the
/// others' with how many have it, into `record`.
fn influence_without(
    r: &Rules,
    st: &State,
    s: usize,
    caste: usize,
    h: usize,
    record: &mut Record,
    seat: usize,
) {
    // On the stack for the tables of every shipped edition (at most 4 seats).
    let mut small = [0i64; 8];
    let mut large = Vec::new();
    let influence: &mut [i64] = if r.players <= small.len() {
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
            influence[owner as usize] +=
                i64::from(r.tile_value[st.tile_type[n] as usize * 3 + caste]);
        }
    }
    record.mine = influence[seat];
    for (other, &x) in influence.iter().enumerate() {
        if other == seat {
            continue;
        }
        match x.cmp(&record.most_other) {
            std::cmp::Ordering::Greater => (record.most_other, record.others_at_most) = (x, 1),
            std::cmp::Ordering::Equal => record.others_at_most += 1,
            std::cmp::Ordering::Less => {}
        }
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
    let mut sources = Vec::new();
    for action in legal_actions(r, st) {
        let value = match action {
            Action::End => 0,
            Action::Place(tile, h) => worth(r, st, seat, tile, h, false),
            Action::Special(tile, params, _)
                if r.tile_special[tile]
                    .is_some_and(|b| b.relocation_sources(r, st, seat, &mut sources)) =>
            {
                let (source, target) = (params[0], params[1]);
                let moved = st.tile_type[source] as usize;
                worth(r, st, seat, moved, target, false) - worth(r, st, seat, moved, source, true)
            }
            _ => -1, // special tiles that relocate nothing: kept unless nothing else can be played
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
                total += CAPTURE_VALUE * captures_gained(r, st, seat, s, caste, tile, h);
            }
        }
    }
    total
}

/// `_captures(..., with_tile=True) - _captures(..., with_tile=False)`: how much the tile on `h` changes who would
/// capture the figure (each side +1 if the seat would, -1 if an opponent would, 0 on a tie).
fn captures_gained(
    r: &Rules,
    st: &State,
    seat: usize,
    s: usize,
    caste: usize,
    tile: usize,
    h: usize,
) -> i64 {
    Record::of(r, st, seat, s, caste, h, true).gained(i64::from(r.tile_value[tile * 3 + caste]))
}
