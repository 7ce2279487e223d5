//! The rules engine: setup, legal actions, checking and applying them, turn flow, random play.
//!
//! A line-for-line port of the Python engine (`samurai_plugins.knizia.engine.reference`, `setup_rules` and `special_tiles`): the
//! same lists in the same orders, the same draws from the same generators in the same order, so that both
//! engines play the same game from the same seed and actions. Where a function here stands for a Python one,
//! its doc names it; the rules themselves are explained there and in docs/rules/samurai.md.

use crate::mt::MersenneTwister;
use crate::rules::{Placement, Rules, Special, LAND, SEA};
use crate::state::{EndReason, Event, State, EMPTY, FIGURES, HANDS, OVER, PLAY};

/// The castes, in the order used everywhere (`samurai_plugins.knizia.core.tiles.CASTES`).
pub const CASTES: [&str; 3] = ["buddha", "rice", "castle"];

/// Tries of a random figure placement or Switch before listing every one (`_FIGURE_SAMPLE_TRIES`).
const SAMPLE_TRIES: usize = 16;

/// An action: the Python engine's tuples `(CHOOSE, tile)`, `(FIGURE, caste, settlement)`, `(PLACE, tile, hex)`,
/// `(SPECIAL, tile, *targets)` and `(END,)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Choose(usize),
    Figure(usize, usize),
    Place(usize, usize),
    /// A special tile and its targets: Move `(source, target)`, Switch `(s1, c1, s2, c2)`.
    Special(usize, [usize; 4], u8),
    End,
}

impl std::hash::Hash for Action {
    /// The fields packed into one word, so a hasher mixes once per action (the search looks up every legal
    /// action of every node it walks through). Equal actions pack equally; for the small numbers of a board the
    /// packing is also one to one, and where it is not, equality still tells the actions apart.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let packed = match *self {
            Action::Choose(tile) => 1 ^ (tile << 3),
            Action::Figure(caste, settlement) => 2 ^ (caste << 3) ^ (settlement << 8),
            Action::Place(tile, h) => 3 ^ (tile << 3) ^ (h << 10),
            Action::Special(tile, [a, b, c, d], n) => {
                4 ^ (tile << 3)
                    ^ (a << 10)
                    ^ (b << 20)
                    ^ (c.rotate_left(30))
                    ^ (d.rotate_left(40))
                    ^ (usize::from(n).rotate_left(50))
            }
            Action::End => 5,
        };
        state.write_u64(packed as u64);
    }
}

/// The action kinds' numbers in a tuple.
pub const CHOOSE: u64 = 0;
/// See [`CHOOSE`].
pub const FIGURE: u64 = 1;
/// See [`CHOOSE`].
pub const PLACE: u64 = 2;
/// See [`CHOOSE`].
pub const SPECIAL: u64 = 3;
/// See [`CHOOSE`].
pub const END: u64 = 4;

impl Action {
    /// The action as the Python engine's tuple of numbers.
    pub fn numbers(&self) -> Vec<u64> {
        match *self {
            Action::Choose(t) => vec![CHOOSE, t as u64],
            Action::Figure(c, s) => vec![FIGURE, c as u64, s as u64],
            Action::Place(t, h) => vec![PLACE, t as u64, h as u64],
            Action::Special(t, params, len) => {
                let mut out = vec![SPECIAL, t as u64];
                out.extend(params[..len as usize].iter().map(|&p| p as u64));
                out
            }
            Action::End => vec![END],
        }
    }
}

/// A source of random floats in `[0, 1)`: a native generator, or (in the binding) a Python one.
pub trait Draw {
    /// The next float, as `random.Random.random()`.
    fn random(&mut self) -> f64;

    /// `floor(random() * n)`, how the engine picks an index.
    #[inline(always)]
    fn index(&mut self, n: usize) -> usize {
        // The product is never negative, so truncating is flooring (and `floor` is a library call).
        (self.random() * n as f64) as usize
    }
}

impl Draw for MersenneTwister {
    #[inline(always)]
    fn random(&mut self) -> f64 {
        MersenneTwister::random(self)
    }
}

/// Why the engine could not do what it was asked, where the Python engine raises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A number names a tile, hex, caste or settlement the game does not have, or targets are missing
    /// (Python: an `IndexError`, `ValueError` or `TypeError` inside `engine.check`).
    OutOfRange,
    /// There is no action to sample (Python: `ValueError` or a failed unpacking).
    NoAction(&'static str),
}

const POPCOUNT: [usize; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// The castes of a caste bitmask, in caste order (`_CASTES_IN`).
fn castes_in(mask: u8) -> &'static [usize] {
    const TABLE: [&[usize]; 8] = [&[], &[0], &[1], &[0, 1], &[2], &[0, 2], &[1, 2], &[0, 1, 2]];
    TABLE[(mask & 7) as usize]
}

/// `CUT_CONTRIBUTION[open][present][subset]`: how many figures of the castes `subset` a settlement with `open`
/// free slots and castes `present` can still take.
pub(crate) fn cut_contribution(open: usize, present: u8, subset: usize) -> i64 {
    open.min(POPCOUNT[subset & !(present as usize) & 7]) as i64
}

/// Remove the first element equal to `value` (Python's `list.remove`).
fn remove_value(list: &mut Vec<usize>, value: usize) {
    if let Some(i) = list.iter().position(|&x| x == value) {
        list.remove(i);
    }
}

pub(crate) fn sorted_unique(items: &[usize]) -> Vec<usize> {
    let mut out = items.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// `sorted(set(hexes))` for hexes of a board, into `out` (by a bit set rather than a sort: the lists of empty hexes
/// are sorted for every list of legal actions).
pub(crate) fn sorted_hexes_into(hexes: &[usize], out: &mut Vec<usize>) {
    const WORDS: usize = 8;
    /// Bit sets filled in turn: setting a bit reads the word it writes and neighbouring hexes often share a word,
    /// so with one set each hex would wait for the one before.
    const SETS: usize = 4;
    out.clear();
    if hexes.iter().any(|&h| h >= WORDS * 64) {
        // A board larger than any map here.
        out.extend_from_slice(hexes);
        out.sort_unstable();
        out.dedup();
        return;
    }
    let mut bits = [[0u64; WORDS]; SETS];
    let mut groups = hexes.chunks_exact(SETS);
    for group in &mut groups {
        for (set, &h) in bits.iter_mut().zip(group) {
            set[(h >> 6) % WORDS] |= 1 << (h & 63);
        }
    }
    for (set, &h) in bits.iter_mut().zip(groups.remainder()) {
        set[(h >> 6) % WORDS] |= 1 << (h & 63);
    }
    let words: [u64; WORDS] = std::array::from_fn(|w| bits.iter().fold(0, |all, set| all | set[w]));
    out.resize(words.iter().map(|w| w.count_ones() as usize).sum(), 0);
    let mut at = 0;
    for (w, &word) in words.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            out[at] = w * 64 + rest.trailing_zeros() as usize;
            at += 1;
            rest &= rest - 1;
        }
    }
}

// --- setup (samurai_plugins.knizia.editions.setup) -----------------------------------------------------------

/// `figure_placement_is_feasible`: whether the supply still fits every open slot after `caste` goes to
/// `settlement` (the cut condition of the three subsets of the two other castes).
pub fn figure_placement_is_feasible(
    st: &State,
    capacity: usize,
    settlement: usize,
    caste: usize,
) -> bool {
    let present = st.figures[settlement];
    let open_before = capacity.saturating_sub(POPCOUNT[present as usize]);
    let (a, b) = match caste {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let (only_a, only_b, both) = (1usize << a, 1usize << b, (1usize << a) | (1usize << b));
    let lose = |subset: usize| i64::from(POPCOUNT[subset & !(present as usize) & 7] >= open_before);
    let (need_a, need_b) = (st.supply[a], st.supply[b]);
    need_a <= st.cut[only_a] - lose(only_a)
        && need_b <= st.cut[only_b] - lose(only_b)
        && need_a + need_b <= st.cut[both] - lose(both)
}

/// `figure_stage`: the index of the first stage with a free slot, if any.
fn figure_stage(st: &State) -> Option<usize> {
    st.open_by_stage.iter().position(|stage| !stage.is_empty())
}

fn stage_list(st: &State) -> &[usize] {
    match figure_stage(st) {
        Some(i) => &st.open_by_stage[i],
        None => &[],
    }
}

/// `legal_figure_placements`: every feasible `(caste, settlement)`, by settlement then caste.
fn legal_figure_placements(r: &Rules, st: &State) -> Vec<(usize, usize)> {
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
fn place_figure(r: &Rules, st: &mut State, caste: usize, settlement: usize) {
    let present = st.figures[settlement];
    let open_before = r.capacities[settlement].saturating_sub(POPCOUNT[present as usize]);
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
fn choose_tile(st: &mut State, seat: usize, tile: usize) {
    remove_value(&mut st.pools[seat], tile);
    st.hands[seat].push(tile);
}

// --- starting a game (samurai_plugins.knizia.engine.reference) ------------------------------------------------------

/// `new_state`: a copy of the starting position `template` with the game's generator, the random setup done.
pub fn new_state(r: &Rules, template: &State, rng: MersenneTwister, trace: bool) -> State {
    let mut st = template.clone();
    st.rng = rng;
    st.events = if trace { Some(Vec::new()) } else { None };
    run_automatic_setup(r, &mut st);
    st
}

/// `new_state` into `st`, reusing its lists (a run of games plays one after another in one position): `st.rng`
/// is the game's generator, already seeded.
pub fn restart(r: &Rules, st: &mut State, template: &State) {
    st.reset_from(template);
    st.events = None;
    run_automatic_setup(r, st);
}

/// `_run_automatic_setup`: the setup phases nobody chooses in, then play.
pub fn run_automatic_setup(r: &Rules, st: &mut State) {
    loop {
        if st.phase == HANDS && r.hands_random {
            for seat in 0..r.players {
                for _ in 0..r.hand_size {
                    let len = st.pools[seat].len();
                    let i = st.rng.index(len);
                    let tile = st.pools[seat][i];
                    choose_tile(st, seat, tile);
                }
            }
            leave_setup_phase(r, st);
        } else if st.phase == FIGURES && (r.figures_random || !figures_to_place(r, st)) {
            // The generator is drawn from beside the position it reads: held apart for the whole phase.
            let mut rng = st.rng.clone();
            while figures_to_place(r, st) {
                // A position whose supply no slot can take has no figure to sample (the boundary refuses such
                // positions and templates, `crate::consistency`): stop rather than draw for ever.
                let Action::Figure(c, s) = sample_figure(r, st, &mut rng) else {
                    break;
                };
                place_figure(r, st, c, s);
            }
            st.rng = rng;
            leave_setup_phase(r, st);
        } else {
            return;
        }
    }
}

/// `_figures_to_place`: whether a figure of the supply can still be placed (closes stages without room
/// when figures need not fit).
fn figures_to_place(r: &Rules, st: &mut State) -> bool {
    if st.supply.iter().all(|&n| n == 0) {
        return false;
    }
    if r.figures_must_fit {
        return true;
    }
    loop {
        let Some(stage) = figure_stage(st) else {
            return false;
        };
        if !unchecked_figure_placements(st).is_empty() {
            return true;
        }
        st.open_by_stage[stage].clear();
    }
}

/// `_unchecked_figure_placements`: every `(caste, settlement)` of the open stage with room for a caste it lacks.
fn unchecked_figure_placements(st: &State) -> Vec<(usize, usize)> {
    let mut stage = stage_list(st).to_vec();
    stage.sort_unstable();
    let mut out = Vec::new();
    for s in stage {
        for c in 0..3 {
            if st.supply[c] > 0 && st.figures[s] >> c & 1 == 0 {
                out.push((c, s));
            }
        }
    }
    out
}

pub(crate) fn figure_placements(r: &Rules, st: &State) -> Vec<(usize, usize)> {
    if r.figures_must_fit {
        legal_figure_placements(r, st)
    } else {
        unchecked_figure_placements(st)
    }
}

/// `_leave_setup_phase`.
fn leave_setup_phase(r: &Rules, st: &mut State) {
    if st.phase == HANDS {
        // The tiles not chosen become the personal stack.
        // (Swapped and emptied rather than replaced: the lists keep their room for the next game.)
        std::mem::swap(&mut st.stacks, &mut st.pools);
        st.pools.iter_mut().for_each(Vec::clear);
        st.pools.resize_with(r.players, Vec::new);
    }
    st.current = r.first_player as i64;
    if !st.setup_queue.is_empty() {
        st.phase = st.setup_queue.remove(0);
        return;
    }
    begin_play(r, st, r.first_player, 1);
}

/// `begin_play`: the play phase at `turn`, `first` (or the next seat that can play) to act.
pub fn begin_play(r: &Rules, st: &mut State, first: usize, turn: i64) {
    st.phase = PLAY;
    st.turn = turn;
    st.played = 0;
    st.normal_played = false;
    if !seek_player(r, st, first) {
        finish(st, EndReason::NoTiles);
    }
}

// --- what may be done -----------------------------------------------------------------------------

/// The tiles in the seat's hand with a legal target now, in hand order, one entry per tile held: normal tiles
/// only until the turn's normal tile is down; land tiles need an empty land hex, ships an empty sea hex, special
/// tiles a target their behaviour accepts.
fn playable<'a>(
    r: &'a Rules,
    st: &'a State,
    seat: usize,
    normal_played: bool,
) -> impl Iterator<Item = usize> + 'a {
    let (land, sea) = (!st.empty_land.is_empty(), !st.empty_sea.is_empty());
    st.hands[seat]
        .iter()
        .copied()
        .filter(move |&tile| tile_playable(r, st, seat, normal_played, [land, sea], tile))
}

/// Whether `playable` lists `tile`; `room` says whether an empty land hex and an empty sea hex exist.
#[inline(always)]
fn tile_playable(
    r: &Rules,
    st: &State,
    seat: usize,
    normal_played: bool,
    room: [bool; 2],
    tile: usize,
) -> bool {
    if normal_played && !r.tile_fast[tile] {
        return false;
    }
    match r.tile_on[tile] {
        Placement::Land => room[0],
        Placement::Sea => room[1],
        Placement::Special => special_can_play(r, st, seat, tile),
    }
}

/// `playable_tiles`: `playable` as a list.
pub fn playable_tiles(r: &Rules, st: &State, seat: usize, normal_played: bool) -> Vec<usize> {
    playable(r, st, seat, normal_played).collect()
}

/// `playable_tiles` into `out`.
pub(crate) fn playable_tiles_into(
    r: &Rules,
    st: &State,
    seat: usize,
    normal_played: bool,
    out: &mut Vec<usize>,
) {
    out.clear();
    out.extend(playable(r, st, seat, normal_played));
}

/// Hands up to this size list their playable tiles on the stack when sampling (every shipped hand is 5).
const PLAYABLE_ON_STACK: usize = 8;

/// `playable` into `out` (the hand fits it); how many.
#[inline(always)]
fn playable_into(
    r: &Rules,
    st: &State,
    seat: usize,
    normal_played: bool,
    out: &mut [usize],
) -> usize {
    let room = [!st.empty_land.is_empty(), !st.empty_sea.is_empty()];
    let mut count = 0;
    for &tile in &st.hands[seat] {
        if tile_playable(r, st, seat, normal_played, room, tile) {
            out[count] = tile;
            count += 1;
        }
    }
    count
}

/// `can_play`: whether the seat could start a turn now.
pub fn can_play(r: &Rules, st: &State, seat: usize) -> bool {
    st.hands[seat].iter().any(|&tile| match r.tile_on[tile] {
        Placement::Land => !st.empty_land.is_empty(),
        Placement::Sea => !st.empty_sea.is_empty(),
        Placement::Special => special_can_play(r, st, seat, tile),
    })
}

/// `legal_actions`: every legal action now, in the Python engine's order.
pub fn legal_actions(r: &Rules, st: &State) -> Vec<Action> {
    let mut actions = Vec::new();
    Legal::default().list(r, st, &mut actions);
    actions
}

/// `legal_actions` with its working lists kept from one position to the next (a search lists the legal actions
/// at every node it walks through).
#[derive(Default)]
pub struct Legal {
    tiles: Vec<usize>,
    land: Vec<usize>,
    sea: Vec<usize>,
}

impl Legal {
    /// `legal_actions` into `actions` (cleared first).
    pub fn list(&mut self, r: &Rules, st: &State, actions: &mut Vec<Action>) {
        actions.clear();
        let seat = st.seat();
        match st.phase {
            HANDS => actions.extend(
                sorted_unique(&st.pools[seat])
                    .into_iter()
                    .map(Action::Choose),
            ),
            FIGURES => actions.extend(
                figure_placements(r, st)
                    .into_iter()
                    .map(|(c, s)| Action::Figure(c, s)),
            ),
            PLAY => {
                let Legal { tiles, land, sea } = self;
                playable_tiles_into(r, st, seat, st.normal_played, tiles);
                tiles.sort_unstable();
                tiles.dedup();
                // Room for every tile on every empty hex at once (Move and Switch may want more).
                actions.reserve(tiles.len() * st.empty_land.len().max(st.empty_sea.len()) + 1);
                // The empty hexes of each terrain, sorted the first time a tile needs them.
                let (mut land_sorted, mut sea_sorted) = (false, false);
                let sorted = |done: &mut bool, empty: &[usize], out: &mut Vec<usize>| {
                    if !*done {
                        sorted_hexes_into(empty, out);
                        *done = true;
                    }
                };
                for &tile in tiles.iter() {
                    match (r.tile_on[tile], r.tile_special[tile]) {
                        (Placement::Land, _) => {
                            sorted(&mut land_sorted, &st.empty_land, land);
                            actions.extend(land.iter().map(|&h| Action::Place(tile, h)));
                        }
                        (Placement::Sea, _) => {
                            sorted(&mut sea_sorted, &st.empty_sea, sea);
                            actions.extend(sea.iter().map(|&h| Action::Place(tile, h)));
                        }
                        (Placement::Special, Some(Special::Move)) => {
                            sorted(&mut land_sorted, &st.empty_land, land);
                            move_legal(r, st, seat, tile, land, actions);
                        }
                        (Placement::Special, Some(Special::Switch)) => {
                            switch_legal(st, tile, actions)
                        }
                        (Placement::Special, None) => {}
                    }
                }
                if st.played > 0 {
                    actions.push(Action::End);
                }
            }
            _ => {}
        }
    }
}

pub(crate) fn popcount(mask: u8) -> usize {
    POPCOUNT[(mask & 7) as usize]
}

fn bit(mask: u8, caste: u64) -> bool {
    caste < 8 && mask >> caste & 1 == 1
}

fn index(value: u64, len: usize) -> Result<usize, Refusal> {
    match usize::try_from(value) {
        Ok(i) if i < len => Ok(i),
        _ => Err(Refusal::OutOfRange),
    }
}

/// `check`: why the action (the numbers of a tuple, its shape already checked) is illegal now, or None.
/// `Err(OutOfRange)` where the Python engine would index past a table.
pub fn check(r: &Rules, st: &State, action: &[u64]) -> Result<Option<String>, Refusal> {
    if st.phase == OVER {
        return Ok(Some("the game is over".into()));
    }
    let (kind, seat) = (action[0], st.seat());
    if st.phase == HANDS {
        if kind != CHOOSE {
            return Ok(Some(
                "seats are choosing their starting hands: choose a tile".into(),
            ));
        }
        if !st.pools[seat].iter().any(|&t| t as u64 == action[1]) {
            return Ok(Some(format!(
                "you have no {} tile left to choose",
                r.tile_name(action[1])
            )));
        }
        return Ok(None);
    }
    if st.phase == FIGURES {
        if kind != FIGURE {
            return Ok(Some("seats are placing figures: place a figure".into()));
        }
        let settlement = index(action[2], r.settlement_names.len())?;
        let name = &r.settlement_names[settlement];
        if !stage_list(st).contains(&settlement) {
            let present = st.figures[settlement];
            if present != 0 && r.capacities[settlement] == popcount(present) {
                return Ok(Some(format!("{name} is full")));
            }
            return Ok(Some(format!(
                "{name} is not open for figures yet: fill the earlier settlements first"
            )));
        }
        let caste = index(action[1], 3)?;
        if st.supply[caste] == 0 {
            return Ok(Some(format!(
                "no {} figure is left in the supply",
                CASTES[caste]
            )));
        }
        if st.figures[settlement] >> caste & 1 == 1 {
            return Ok(Some(format!(
                "{name} already holds a {} figure",
                CASTES[caste]
            )));
        }
        if r.figures_must_fit
            && !figure_placement_is_feasible(st, r.capacities[settlement], settlement, caste)
        {
            return Ok(Some(format!(
                "a {c} figure in {name} would leave figures that cannot fill the other settlements without two of \
                 one caste in one settlement",
                c = CASTES[caste]
            )));
        }
        return Ok(None);
    }
    if kind == END {
        return Ok(if st.played > 0 {
            None
        } else {
            Some("play at least one tile before ending the turn".into())
        });
    }
    if kind != PLACE && kind != SPECIAL {
        return Ok(Some(
            "it is the play phase: place a tile or end the turn".into(),
        ));
    }
    let Some(tile) = st.hands[seat]
        .iter()
        .copied()
        .find(|&t| t as u64 == action[1])
    else {
        return Ok(Some(format!(
            "there is no {} tile in your hand",
            r.tile_name(action[1])
        )));
    };
    if st.normal_played && !r.tile_fast[tile] {
        return Ok(Some(
            "you have already played your one normal tile this turn; only fast tiles may follow"
                .into(),
        ));
    }
    let on = r.tile_on[tile];
    if kind == SPECIAL {
        if on != Placement::Special {
            return Ok(Some(format!(
                "{} is placed with a place-tile action",
                r.tile_names[tile]
            )));
        }
        return special_check(r, st, seat, tile, &action[2..]);
    }
    if on == Placement::Special {
        return Ok(Some(format!(
            "{} is a special tile: play it with its own action",
            r.tile_names[tile]
        )));
    }
    let h = index(action[2], r.board_size)?;
    let terrain = r.terrain[h];
    if on == Placement::Sea && terrain != SEA {
        return Ok(Some(format!(
            "{} goes on an empty sea hex only",
            r.tile_names[tile]
        )));
    }
    if on == Placement::Land && terrain != LAND {
        return Ok(Some(format!(
            "{} goes on an empty land hex (not sea, not a settlement)",
            r.tile_names[tile]
        )));
    }
    if st.tile_owner[h] != EMPTY {
        return Ok(Some("that hex already holds a tile".into()));
    }
    Ok(None)
}

/// The action of checked numbers (`check` said None).
pub fn action_of(numbers: &[u64]) -> Action {
    let n = |i: usize| numbers.get(i).copied().unwrap_or(0) as usize;
    match numbers[0] {
        CHOOSE => Action::Choose(n(1)),
        FIGURE => Action::Figure(n(1), n(2)),
        PLACE => Action::Place(n(1), n(2)),
        SPECIAL => {
            let mut params = [0usize; 4];
            let len = (numbers.len() - 2).min(4);
            for (i, p) in params.iter_mut().enumerate().take(len) {
                *p = n(i + 2);
            }
            Action::Special(n(1), params, len as u8)
        }
        _ => Action::End,
    }
}

// --- doing it -------------------------------------------------------------------------------------

/// `apply`: carry out a legal action (checked before: this trusts its caller).
pub fn apply(r: &Rules, st: &mut State, action: Action) {
    let seat = st.seat();
    match action {
        Action::Place(tile, h) => {
            remove_value(&mut st.hands[seat], tile);
            put_tile(r, st, seat, tile, h);
            after_tile(r, st, tile);
        }
        Action::End => end_turn(r, st),
        Action::Special(tile, params, _) => {
            remove_value(&mut st.hands[seat], tile);
            special_apply(r, st, seat, tile, params);
            after_tile(r, st, tile);
        }
        Action::Figure(caste, settlement) => {
            place_figure(r, st, caste, settlement);
            if figures_to_place(r, st) {
                st.current = ((seat + 1) % r.players) as i64;
            } else {
                leave_setup_phase(r, st);
                run_automatic_setup(r, st);
            }
        }
        Action::Choose(tile) => {
            choose_tile(st, seat, tile);
            if st.hands[seat].len() == r.hand_size {
                st.current = ((seat + 1) % r.players) as i64;
                if st.current == r.first_player as i64 {
                    leave_setup_phase(r, st);
                    run_automatic_setup(r, st);
                }
            }
        }
    }
}

/// Remove `h` from an unordered list of empty hexes in O(1) (`_take`).
fn take(empty: &mut Vec<usize>, pos: &mut [i64], h: usize) {
    let i = pos[h];
    if let Some(last) = empty.pop() {
        if last != h && i >= 0 {
            empty[i as usize] = last;
            pos[last] = i;
        }
    }
    pos[h] = EMPTY;
}

/// `put_tile`: a tile on the empty hex `h`; settlements whose last empty land fills wait for resolution.
pub fn put_tile(r: &Rules, st: &mut State, seat: usize, tile: usize, h: usize) {
    st.tile_owner[h] = seat as i64;
    st.tile_type[h] = tile as i64;
    st.tile_turn[h] = st.turn;
    if r.tile_movable[tile] {
        st.movable_count[seat] += 1;
    }
    if r.terrain[h] == LAND {
        take(&mut st.empty_land, &mut st.empty_land_pos, h);
        for &s in &r.adjacent_settlements[h] {
            st.empty_around[s] -= 1;
            if st.empty_around[s] == 0 && st.figures[s] != 0 {
                st.pending.push(s);
            }
        }
    } else {
        take(&mut st.empty_sea, &mut st.empty_sea_pos, h);
    }
}

/// `_after_tile`.
fn after_tile(r: &Rules, st: &mut State, tile: usize) {
    st.played += 1;
    st.tiles_played += 1;
    if !r.tile_fast[tile] {
        st.normal_played = true;
    }
    if r.resolve_each_tile && !st.pending.is_empty() {
        resolve_pending(r, st);
    }
}

/// `_resolve_pending`: every surrounded settlement, each figure separately, in caste order.
fn resolve_pending(r: &Rules, st: &mut State) {
    // Influence per seat on the stack (no allocation per figure) for up to this many seats. Summed in 64 bits:
    // the tables hold 32-bit values, so no board's sum can wrap and the seat that captures is Python's.
    const SEATS_ON_STACK: usize = 8;
    let mut stack = [0i64; SEATS_ON_STACK];
    let mut heap = Vec::new();
    for k in 0..st.pending.len() {
        let s = st.pending[k];
        let mut mask = st.figures[s];
        for &caste in castes_in(mask) {
            let influence: &mut [i64] = if r.players <= SEATS_ON_STACK {
                &mut stack[..r.players]
            } else {
                heap.resize(r.players, 0);
                &mut heap[..]
            };
            influence.fill(0);
            for &h in &r.settlement_neighbours[s] {
                let owner = st.tile_owner[h];
                if owner >= 0 {
                    influence[owner as usize] +=
                        i64::from(r.tile_value[st.tile_type[h] as usize * 3 + caste]);
                }
            }
            let best = influence.iter().copied().max().unwrap_or(0);
            st.on_board[caste] -= 1;
            mask &= !(1 << caste);
            st.figures[s] = mask;
            let top = influence.iter().filter(|&&x| x == best).count();
            if top == 1 {
                let winner = influence.iter().position(|&x| x == best).unwrap_or(0);
                st.captured[winner * 3 + caste] += 1;
                if let Some(events) = st.events.as_mut() {
                    events.push(Event::Capture {
                        settlement: s,
                        caste,
                        seat: winner,
                        influence: influence.to_vec(),
                    });
                }
            } else {
                st.removed[caste] += 1;
                st.removed_total += 1;
                if let Some(events) = st.events.as_mut() {
                    events.push(Event::Remove {
                        settlement: s,
                        caste,
                        influence: influence.to_vec(),
                    });
                }
            }
        }
    }
    st.pending.clear();
    if r.end_immediate {
        if let Some(reason) = end_trigger(r, st) {
            finish(st, reason);
        }
    }
}

/// `_end_turn`: resolve (if the edition waits for the end of the turn), refill, check the end, pass on.
fn end_turn(r: &Rules, st: &mut State) {
    if !st.pending.is_empty() {
        resolve_pending(r, st);
        if st.phase == OVER {
            return;
        }
    }
    let seat = st.seat();
    let mut drawn = 0;
    while st.hands[seat].len() < r.hand_size && !st.stacks[seat].is_empty() {
        let len = st.stacks[seat].len();
        let i = st.rng.index(len);
        let stack = &mut st.stacks[seat];
        let tile = stack[i];
        stack[i] = stack[len - 1];
        stack.pop();
        st.hands[seat].push(tile);
        drawn += 1;
    }
    if let Some(events) = st.events.as_mut() {
        events.push(Event::Refill { seat, drawn });
    }
    if let Some(reason) = end_trigger(r, st) {
        finish(st, reason);
        return;
    }
    st.turn += 1;
    st.played = 0;
    st.normal_played = false;
    let following = (seat + 1) % r.players;
    if can_play(r, st, following) {
        st.current = following as i64;
    } else if !seek_player(r, st, following) {
        finish(st, EndReason::NoTiles);
    }
}

/// `_seek_player`: the first seat from `start` on that can play acts; the others pass.
fn seek_player(r: &Rules, st: &mut State, start: usize) -> bool {
    for k in 0..r.players {
        let seat = (start + k) % r.players;
        if can_play(r, st, seat) {
            st.current = seat as i64;
            return true;
        }
        if !r.pass_when_unable {
            return false;
        }
        if let Some(events) = st.events.as_mut() {
            events.push(Event::Pass { seat });
        }
    }
    false
}

/// `end_trigger`: why the game ends now, if it does.
pub fn end_trigger(r: &Rules, st: &State) -> Option<EndReason> {
    if st.on_board.contains(&0) {
        Some(EndReason::CasteExhausted)
    } else if st.removed_total >= r.removed_limit {
        Some(EndReason::RemovedByTies)
    } else {
        None
    }
}

/// `_finish`, but for the result: the caller scores the game (natively, or by the edition's Python hook).
fn finish(st: &mut State, reason: EndReason) {
    st.phase = OVER;
    st.current = EMPTY;
    st.end_reason = Some(reason);
    if let Some(events) = st.events.as_mut() {
        events.push(Event::End { reason });
    }
}

// --- special tiles (samurai_plugins.knizia.engine.special_tiles) -------------------------------------------------

fn special_can_play(r: &Rules, st: &State, seat: usize, tile: usize) -> bool {
    match r.tile_special[tile] {
        Some(Special::Move) => {
            if st.empty_land.is_empty() || st.movable_count[seat] == 0 {
                return false;
            }
            if !r.tile_fast[tile] && !st.normal_played {
                return true;
            }
            move_sources(r, st, seat).next().is_some()
        }
        Some(Special::Switch) => {
            // Which caste masks stand somewhere (bit `m` for mask `m`): whether two settlements can swap depends
            // on that set only, looked up in a table made once.
            let present = st
                .figures
                .iter()
                .fold(0u8, |present, &mask| present | 1 << (mask & 7));
            SWITCH_POSSIBLE[present as usize]
        }
        None => false,
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
pub(crate) fn move_sources<'a>(
    r: &'a Rules,
    st: &'a State,
    seat: usize,
) -> impl Iterator<Item = usize> + 'a {
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

fn special_check(
    r: &Rules,
    st: &State,
    seat: usize,
    tile: usize,
    params: &[u64],
) -> Result<Option<String>, Refusal> {
    match r.tile_special[tile] {
        Some(Special::Move) => {
            let [source, target] = params else {
                return Err(Refusal::OutOfRange);
            };
            let source = index(*source, r.board_size)?;
            if st.tile_owner[source] != seat as i64 {
                return Ok(Some(
                    "Move takes one of your own tiles, and there is none at the source hex".into(),
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
        Some(Special::Switch) => {
            let [s1, c1, s2, c2] = params else {
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
        None => Err(Refusal::OutOfRange),
    }
}

fn special_sample<D: Draw + ?Sized>(
    r: &Rules,
    st: &State,
    seat: usize,
    tile: usize,
    rng: &mut D,
) -> Option<Action> {
    match r.tile_special[tile] {
        Some(Special::Move) => {
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
        Some(Special::Switch) => {
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
        None => None,
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

fn special_apply(r: &Rules, st: &mut State, seat: usize, tile: usize, params: [usize; 4]) {
    match r.tile_special[tile] {
        Some(Special::Move) => {
            let (source, target) = (params[0], params[1]);
            let moved = st.tile_type[source] as usize;
            st.movable_count[seat] -= 1; // put_tile counts it again at the target
            st.tile_type[source] = tile as i64;
            st.tile_turn[source] = st.turn;
            put_tile(r, st, seat, moved, target);
        }
        Some(Special::Switch) => {
            let (s1, c1, s2, c2) = (params[0], params[1], params[2], params[3]);
            let swap = (1u8 << c1) | (1u8 << c2);
            st.figures[s1] ^= swap;
            st.figures[s2] ^= swap;
            st.spent[seat] += 1; // the Switch tile leaves the game
        }
        None => {}
    }
}

// --- random play ----------------------------------------------------------------------------------

/// `sample_action`: a random legal action, uniform over the playable tiles (and ending the turn once a tile
/// is down), then over the tile's targets; setup picks a random tile or feasible figure placement.
pub fn sample_action<D: Draw + ?Sized>(
    r: &Rules,
    st: &State,
    rng: &mut D,
) -> Result<Action, Refusal> {
    let seat = st.seat();
    match st.phase {
        PLAY => {
            let mut buffer = [0usize; PLAYABLE_ON_STACK];
            let listed;
            let options: &[usize] = if st.hands[seat].len() <= PLAYABLE_ON_STACK {
                let count = playable_into(r, st, seat, st.normal_played, &mut buffer);
                &buffer[..count]
            } else {
                listed = playable_tiles(r, st, seat, st.normal_played);
                &listed
            };
            let count = options.len() + usize::from(st.played > 0);
            let k = rng.index(count);
            if k == options.len() {
                // As the Python engine: ending the turn (the seat to act always has a tile to play at the
                // start of its turn, so this is never an empty turn).
                return Ok(Action::End);
            }
            let tile = options[k];
            match r.tile_on[tile] {
                Placement::Land => Ok(Action::Place(
                    tile,
                    st.empty_land[rng.index(st.empty_land.len())],
                )),
                Placement::Sea => Ok(Action::Place(
                    tile,
                    st.empty_sea[rng.index(st.empty_sea.len())],
                )),
                Placement::Special => special_sample(r, st, seat, tile, rng)
                    .ok_or(Refusal::NoAction("the special tile has no target")),
            }
        }
        HANDS => {
            let pool = &st.pools[seat];
            if pool.is_empty() {
                return Err(Refusal::NoAction("no tile is left to choose"));
            }
            Ok(Action::Choose(pool[rng.index(pool.len())]))
        }
        FIGURES => Ok(sample_figure(r, st, rng)),
        _ => Err(Refusal::NoAction(
            "the game is over: there is no action to sample",
        )),
    }
}

/// `_sample_figure`.
fn sample_figure<D: Draw + ?Sized>(r: &Rules, st: &State, rng: &mut D) -> Action {
    if !r.figures_must_fit {
        let moves = unchecked_figure_placements(st);
        if moves.is_empty() {
            return Action::End;
        }
        let (c, s) = moves[rng.index(moves.len())];
        return Action::Figure(c, s);
    }
    let stage = stage_list(st);
    let in_supply = u8::from(st.supply[0] > 0)
        | u8::from(st.supply[1] > 0) << 1
        | u8::from(st.supply[2] > 0) << 2;
    if !stage.is_empty() {
        for _ in 0..SAMPLE_TRIES {
            let s = stage[rng.index(stage.len())];
            let castes = castes_in(in_supply & !st.figures[s]);
            if !castes.is_empty() {
                let c = castes[rng.index(castes.len())];
                if figure_placement_is_feasible(st, r.capacities[s], s, c) {
                    return Action::Figure(c, s);
                }
            }
        }
    }
    let moves = legal_figure_placements(r, st);
    if moves.is_empty() {
        return Action::End;
    }
    let (c, s) = moves[rng.index(moves.len())];
    Action::Figure(c, s)
}

/// `play_random`: the game to its end, seat `k` drawing `sample_action` from `rngs[of_seat[k]]` (seats may share a
/// generator); how many actions. `after` is told each action once it is applied.
pub fn play_random<D: Draw>(
    r: &Rules,
    st: &mut State,
    rngs: &mut [D],
    of_seat: &[usize],
    mut after: impl FnMut(Action),
) -> Result<usize, Refusal> {
    let mut played = 0;
    while st.phase != OVER {
        let action = sample_action(r, st, &mut rngs[of_seat[st.seat()]])?;
        apply(r, st, action);
        played += 1;
        after(action);
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::sorted_hexes_into;
    use crate::mt::MersenneTwister;

    #[test]
    fn sorted_hexes_are_the_sorted_set_of_the_hexes() {
        let mut rng = MersenneTwister::from_seed(23);
        let mut out = vec![7, 7, 7];
        for case in 0..500u64 {
            // Lists of every length up to 200 with repeats, mostly on boards of up to 512 hexes, some larger.
            let size = if case % 10 == 9 {
                2000
            } else {
                1 + rng.random_index(512)
            };
            let length = rng.random_index(201);
            let hexes: Vec<usize> = (0..length).map(|_| rng.random_index(size)).collect();
            let mut expected = hexes.clone();
            expected.sort_unstable();
            expected.dedup();
            sorted_hexes_into(&hexes, &mut out);
            assert_eq!(out, expected, "case {case}: {hexes:?}");
        }
    }
}
