//! What a position handed over from Python must satisfy (`samurai_plugins.knizia.engine.consistency`): its ranges
//! ([`State::problem`]), then the fields the
//! engine keeps alongside the board (the lists of empty hexes, the empty land around each settlement, the
//! figures on the board, each seat's movable tiles, the setup's cut counts) equal what the board says, and the
//! setup still to come can be carried out. The engine trusts these fields on every action, so a position that
//! breaks one would make it index past a list, never resolve a settlement, end at once or loop for ever.

use crate::reference::{can_play, figure_placements};
use crate::rules::{Rules, LAND, SEA};
use crate::setup::cut_contribution;
use crate::state::{popcount, State, EMPTY, FIGURES, HANDS, OVER, PLAY};

/// The most a count may be in a position handed over from Python: far above any game's, far below overflow.
const COUNT_LIMIT: i64 = 1 << 40;

impl State {
    /// What is wrong with this position under `r`, if anything: lists of the right lengths, every number the
    /// engine indexes by in range, the empty-hex lists and their positions agreeing, then every field the engine
    /// keeps beside the board equal to what the board says (`State::inconsistency`). A position handed over from
    /// Python is checked before the engine touches it, so no position can make it read past a table.
    pub fn problem(&self, r: &Rules) -> Option<String> {
        let (n, size, settlements, types) = (
            r.players,
            r.board_size,
            r.settlement_names.len(),
            r.tile_names.len(),
        );
        let lengths = [
            ("pools", self.pools.len(), n),
            ("hands", self.hands.len(), n),
            ("stacks", self.stacks.len(), n),
            ("spent", self.spent.len(), n),
            ("movable_count", self.movable_count.len(), n),
            ("captured", self.captured.len(), 3 * n),
            ("tile_owner", self.tile_owner.len(), size),
            ("tile_type", self.tile_type.len(), size),
            ("tile_turn", self.tile_turn.len(), size),
            ("empty_land_pos", self.empty_land_pos.len(), size),
            ("empty_sea_pos", self.empty_sea_pos.len(), size),
            ("figures", self.figures.len(), settlements),
            ("empty_around", self.empty_around.len(), settlements),
        ];
        for (name, got, want) in lengths {
            if got != want {
                return Some(format!("{name} has {got} entries, not {want}"));
            }
        }
        if self.open_by_stage.len() != r.stage_count {
            return Some(format!(
                "open_by_stage has {} stages, not {}",
                self.open_by_stage.len(),
                r.stage_count
            ));
        }
        if self.phase > OVER || self.setup_queue.iter().any(|&p| p > FIGURES) {
            return Some(format!(
                "phase {} or setup queue {:?} is not a phase",
                self.phase, self.setup_queue
            ));
        }
        let to_act_ok = if self.phase == OVER {
            self.current == EMPTY
        } else {
            (0..n as i64).contains(&self.current)
        };
        if !to_act_ok {
            return Some(format!(
                "seat {} cannot be to act in phase {}",
                self.current, self.phase
            ));
        }
        let tiles = self
            .pools
            .iter()
            .chain(&self.hands)
            .chain(&self.stacks)
            .flatten();
        if tiles.clone().any(|&t| t >= types) {
            return Some("a hand, stack or pool holds a tile type the rules do not have".into());
        }
        for h in 0..size {
            let (owner, kind) = (self.tile_owner[h], self.tile_type[h]);
            let placed = (0..n as i64).contains(&owner) && (0..types as i64).contains(&kind);
            if !(placed || owner == EMPTY && kind == EMPTY) {
                return Some(format!("hex {h} holds owner {owner} and tile type {kind}"));
            }
            if placed && r.terrain[h] != LAND && r.terrain[h] != SEA {
                return Some(format!("hex {h} is a settlement and cannot hold a tile"));
            }
        }
        let empty_ok = |empty: &[usize], pos: &[i64], terrain: u8| {
            empty.iter().enumerate().all(|(i, &h)| {
                h < size
                    && r.terrain[h] == terrain
                    && pos[h] == i as i64
                    && self.tile_owner[h] == EMPTY
            }) && pos.iter().filter(|&&p| p != EMPTY).count() == empty.len()
        };
        if !empty_ok(&self.empty_land, &self.empty_land_pos, LAND)
            || !empty_ok(&self.empty_sea, &self.empty_sea_pos, SEA)
        {
            return Some("the lists of empty hexes do not agree with the board".into());
        }
        for s in 0..settlements {
            let mask = self.figures[s];
            if mask > 7 || (mask.count_ones() as usize) > r.capacities[s] {
                return Some(format!(
                    "settlement {s} holds figures {mask}, more than it has room for"
                ));
            }
        }
        if self.pending.iter().any(|&s| s >= settlements)
            || self
                .open_by_stage
                .iter()
                .flatten()
                .any(|&s| s >= settlements)
        {
            return Some(
                "pending or open_by_stage names a settlement the board does not have".into(),
            );
        }
        let counts = [
            self.turn,
            self.played,
            self.tiles_played,
            self.removed_total,
        ]
        .into_iter()
        .chain(self.supply)
        .chain(self.on_board)
        .chain(self.removed)
        .chain(self.cut)
        .chain(self.spent.iter().copied())
        .chain(self.movable_count.iter().copied())
        .chain(self.captured.iter().copied())
        .chain(self.empty_around.iter().copied())
        .chain(self.tile_turn.iter().copied());
        for count in counts {
            if !(-COUNT_LIMIT..=COUNT_LIMIT).contains(&count) {
                return Some(format!("a count of {count} is out of any game's range"));
            }
        }
        self.inconsistency(r)
    }
}

impl State {
    /// What in this position (its ranges already checked by [`State::problem`]) disagrees with its board, if
    /// anything. It holds for a seat's knowledge too (other seats' tiles left out), so it says nothing of hidden
    /// tiles but that no seat holds more of a kind than it owns.
    pub(crate) fn inconsistency(&self, r: &Rules) -> Option<String> {
        let (n, size) = (r.players, r.board_size);
        for (terrain, list, name) in [
            (LAND, &self.empty_land, "empty_land"),
            (SEA, &self.empty_sea, "empty_sea"),
        ] {
            let empty = (0..size)
                .filter(|&h| r.terrain[h] == terrain && self.tile_owner[h] == EMPTY)
                .count();
            if empty != list.len() {
                return Some(format!(
                    "{name} lists {} hexes but the board has {empty} empty ones",
                    list.len()
                ));
            }
        }
        for (s, &stated) in self.empty_around.iter().enumerate() {
            let empty = (0..size)
                .filter(|&h| {
                    r.terrain[h] == LAND
                        && self.tile_owner[h] == EMPTY
                        && r.adjacent_settlements[h].contains(&s)
                })
                .count() as i64;
            if stated != empty {
                return Some(format!(
                    "empty_around[{s}] is {stated} but {empty} land hexes around it are empty"
                ));
            }
        }
        for caste in 0..3 {
            let standing = self
                .figures
                .iter()
                .filter(|&&m| m >> caste & 1 == 1)
                .count() as i64;
            if self.on_board[caste] != standing {
                return Some(format!(
                    "on_board[{caste}] is {} but {standing} such figures stand in settlements",
                    self.on_board[caste]
                ));
            }
        }
        for seat in 0..n {
            let movable = (0..size)
                .filter(|&h| {
                    self.tile_owner[h] == seat as i64 && r.tile_movable[self.tile_type[h] as usize]
                })
                .count() as i64;
            if self.movable_count[seat] != movable {
                return Some(format!(
                    "movable_count[{seat}] is {} but the seat has {movable} movable tiles on the board",
                    self.movable_count[seat]
                ));
            }
            if self.hands[seat].len() > r.hand_size {
                return Some(format!(
                    "seat {seat} holds {} tiles in hand, more than the hand size {}",
                    self.hands[seat].len(),
                    r.hand_size
                ));
            }
            if let Some(kind) = self.tile_over_owned(r, seat) {
                return Some(format!(
                    "seat {seat} holds more {} tiles than it owns",
                    r.tile_names[kind]
                ));
            }
        }
        for (i, &s) in self.pending.iter().enumerate() {
            if self.empty_around[s] != 0 || self.figures[s] == 0 || self.pending[..i].contains(&s) {
                return Some(format!(
                    "pending names settlement {s}, which is not surrounded with figures, or twice"
                ));
            }
        }
        self.setup_inconsistency(r)
    }

    /// The first tile kind the seat holds more of (unchosen, in hand, in its stack and its tiles on the board)
    /// than the rules give it.
    fn tile_over_owned(&self, r: &Rules, seat: usize) -> Option<usize> {
        let mut left = vec![0i64; r.tile_names.len()];
        for &t in &r.player_tiles {
            left[t] += 1;
        }
        let on_board = (0..r.board_size)
            .filter(|&h| self.tile_owner[h] == seat as i64)
            .map(|h| self.tile_type[h] as usize);
        let held = self.pools[seat]
            .iter()
            .chain(&self.hands[seat])
            .chain(&self.stacks[seat])
            .copied()
            .chain(on_board);
        for t in held {
            left[t] -= 1;
            if left[t] < 0 {
                return Some(t);
            }
        }
        None
    }

    /// The setup's fields: phases in the queue at most once each and none after play began; while figures may
    /// still be placed, the cut counts are those of the settlements' free slots.
    fn setup_inconsistency(&self, r: &Rules) -> Option<String> {
        let mut seen = [false; 2];
        let current = (self.phase <= FIGURES).then_some(self.phase);
        for phase in current.into_iter().chain(self.setup_queue.iter().copied()) {
            if std::mem::replace(&mut seen[phase as usize], true) {
                return Some(format!(
                    "setup phase {phase} comes twice (phase {}, then {:?})",
                    self.phase, self.setup_queue
                ));
            }
        }
        if self.phase >= PLAY && !self.setup_queue.is_empty() {
            return Some("the setup queue is not empty after play began".into());
        }
        if (self.phase == OVER) != self.end_reason.is_some() {
            return Some("the game has an end reason exactly when it is over".into());
        }
        if seen[FIGURES as usize] {
            for (subset, &stated) in self.cut.iter().enumerate() {
                let free: i64 = (0..self.figures.len())
                    .filter(|&s| r.stage_of[s] >= 0)
                    .map(|s| {
                        let open = r.capacities[s].saturating_sub(popcount(self.figures[s]));
                        cut_contribution(open, self.figures[s], subset)
                    })
                    .sum();
                if stated != free {
                    return Some(format!(
                        "cut[{subset}] is {stated} but the free slots make it {free}"
                    ));
                }
            }
        }
        None
    }

    /// What keeps this position from going on, if anything: the setup still to come cannot be carried out, or the
    /// seat to act has nothing to do. Asked of a whole position (a game's, a template), not of a seat's knowledge.
    pub fn stuck(&self, r: &Rules) -> Option<String> {
        let hands_to_come = self.phase == HANDS || self.setup_queue.contains(&HANDS);
        // Hands dealt at random, or chosen in a phase still queued, are dealt from nothing yet held.
        let dealt_whole =
            self.setup_queue.contains(&HANDS) || self.phase == HANDS && r.hands_random;
        if let Some(seat) = (0..r.players).find(|&k| dealt_whole && !self.hands[k].is_empty()) {
            return Some(format!(
                "seat {seat} holds a hand before its hand is chosen"
            ));
        }
        if hands_to_come {
            if let Some(seat) =
                (0..r.players).find(|&k| self.pools[k].len() + self.hands[k].len() < r.hand_size)
            {
                return Some(format!(
                    "seat {seat} has {} tiles to choose a hand of {} from",
                    self.pools[seat].len() + self.hands[seat].len(),
                    r.hand_size
                ));
            }
        }
        let figures_to_come = self.phase == FIGURES || self.setup_queue.contains(&FIGURES);
        if figures_to_come && r.figures_must_fit {
            // `figures_fit`: every subset of castes has room for its figures in the supply.
            let short = (1..8usize).find(|&subset| {
                let wanted: i64 = (0..3)
                    .filter(|&c| subset >> c & 1 == 1)
                    .map(|c| self.supply[c])
                    .sum();
                wanted > self.cut[subset]
            });
            if let Some(subset) = short {
                return Some(format!(
                    "the supply {:?} does not fit the free slots (cut[{subset}] is {})",
                    self.supply, self.cut[subset]
                ));
            }
        }
        let seat = self.seat();
        let idle = match self.phase {
            HANDS => self.pools[seat].is_empty() || self.hands[seat].len() >= r.hand_size,
            FIGURES => figure_placements(r, self).is_empty(),
            PLAY => self.played == 0 && !can_play(r, self, seat),
            _ => false,
        };
        idle.then(|| {
            format!(
                "seat {seat} is to act in phase {} but has nothing to do",
                self.phase
            )
        })
    }
}
