//! The rules engine (`samurai_plugins.knizia.engine.reference`): starting a game and its automatic setup, legal
//! actions, checking and applying them, the turn flow, random play.
//!
//! A line-for-line port of the Python engine: the same lists in the same orders, the same draws from the same
//! generators in the same order, so that both engines play the same game from the same seed and actions. The
//! setup's rules are in [`crate::setup`], the special tiles' in their behaviour ([`TileBehaviour`], carried out
//! in `crate::special_tiles`), as in Python. Where a function here stands for a Python one, its doc names it;
//! the rules themselves are explained there and in docs/rules/samurai.md.

use crate::actions::{Action, Refusal, CHOOSE, END, FIGURE, PLACE, SPECIAL};
use crate::mt::{Draw, MersenneTwister};
use crate::rules::{Placement, Rules, TileBehaviour, LAND, SEA};
use crate::setup::{
    choose_tile, figure_placement_is_feasible, figure_stage, legal_figure_placements, place_figure,
    remove_value, stage_list,
};
use crate::state::{
    castes_in, popcount, EndReason, Event, State, CASTES, EMPTY, FIGURES, HANDS, OVER, PLAY,
};

/// Tries of a random figure placement or Switch before listing every one (`_FIGURE_SAMPLE_TRIES`).
pub(crate) const SAMPLE_TRIES: usize = 16;

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

// --- starting a game ------------------------------------------------------------------------------

/// `new_state`: a copy of the starting position `template` with the game's generator, the random setup done.
pub fn new_state(r: &Rules, template: &State, rng: MersenneTwister, trace: bool) -> State {
    let mut st = template.clone();
    st.rng = rng;
    st.events = if trace { Some(Vec::new()) } else { None };
    run_automatic_setup(r, &mut st);
    st
}

/// `new_state` into `st`, reusing its lists (a run of games plays one after another in one position): `rng` is
/// the game's generator, already seeded.
pub fn restart(r: &Rules, st: &mut State, template: &State, rng: &MersenneTwister) {
    st.reset_from(template);
    st.rng.clone_from(rng);
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
        Placement::Special => r.tile_special[tile].is_some_and(|b| b.can_play(r, st, seat, tile)),
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
        Placement::Special => r.tile_special[tile].is_some_and(|b| b.can_play(r, st, seat, tile)),
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
                        (Placement::Special, Some(behaviour)) => {
                            sorted(&mut land_sorted, &st.empty_land, land);
                            behaviour.legal(r, st, seat, tile, land, actions);
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

pub(crate) fn bit(mask: u8, caste: u64) -> bool {
    caste < 8 && mask >> caste & 1 == 1
}

pub(crate) fn index(value: u64, len: usize) -> Result<usize, Refusal> {
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
        let behaviour = r.tile_special[tile].ok_or(Refusal::OutOfRange)?;
        return behaviour.check(r, st, seat, tile, &action[2..]);
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
            if let Some(behaviour) = r.tile_special[tile] {
                behaviour.apply(r, st, seat, tile, params);
            }
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
                Placement::Special => r.tile_special[tile]
                    .and_then(|b| b.sample(r, st, seat, tile, rng))
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
