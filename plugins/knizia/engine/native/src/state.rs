//! One game's position: the same fields, in the same order and with the same meaning, as the Python engine's
//! `samurai_plugins.knizia.core.state.State`, so that the two can be compared field by field after every action.

use crate::mt::MersenneTwister;

/// Choosing starting hands.
pub const HANDS: u8 = 0;
/// Placing figures.
pub const FIGURES: u8 = 1;
/// Playing tiles.
pub const PLAY: u8 = 2;
/// The game is over.
pub const OVER: u8 = 3;
/// An empty hex, or no seat to act.
pub const EMPTY: i64 = -1;

/// Why a game ended (`samurai_plugins.knizia.core.result.END_REASONS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    CasteExhausted,
    RemovedByTies,
    NoTiles,
}

impl EndReason {
    /// The code Python's results use.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::CasteExhausted => "caste_exhausted",
            EndReason::RemovedByTies => "removed_by_ties",
            EndReason::NoTiles => "no_tiles",
        }
    }

    /// The reason of a code, if it is one.
    pub fn of_code(code: &str) -> Option<EndReason> {
        match code {
            "caste_exhausted" => Some(EndReason::CasteExhausted),
            "removed_by_ties" => Some(EndReason::RemovedByTies),
            "no_tiles" => Some(EndReason::NoTiles),
            _ => None,
        }
    }
}

/// What happened, for people to read (`State.events` of a traced game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `("capture", settlement, caste, seat, influence)`.
    Capture {
        settlement: usize,
        caste: usize,
        seat: usize,
        influence: Vec<i64>,
    },
    /// `("remove", settlement, caste, influence)`.
    Remove {
        settlement: usize,
        caste: usize,
        influence: Vec<i64>,
    },
    /// `("refill", seat, drawn)`.
    Refill { seat: usize, drawn: usize },
    /// `("pass", seat)`.
    Pass { seat: usize },
    /// `("end", reason)`.
    End { reason: EndReason },
}

/// Everything that changes during a game (see `samurai_plugins.knizia.core.state.State` for each field).
#[derive(Clone, Debug)]
pub struct State {
    pub phase: u8,
    pub setup_queue: Vec<u8>,
    pub current: i64,
    pub turn: i64,
    pub pools: Vec<Vec<usize>>,
    pub hands: Vec<Vec<usize>>,
    pub stacks: Vec<Vec<usize>>,
    pub spent: Vec<i64>,
    pub tile_owner: Vec<i64>,
    pub tile_type: Vec<i64>,
    pub tile_turn: Vec<i64>,
    pub empty_land: Vec<usize>,
    pub empty_land_pos: Vec<i64>,
    pub empty_sea: Vec<usize>,
    pub empty_sea_pos: Vec<i64>,
    pub movable_count: Vec<i64>,
    pub figures: Vec<u8>,
    pub empty_around: Vec<i64>,
    pub pending: Vec<usize>,
    pub supply: [i64; 3],
    pub on_board: [i64; 3],
    pub captured: Vec<i64>,
    pub removed: [i64; 3],
    pub removed_total: i64,
    pub open_by_stage: Vec<Vec<usize>>,
    pub cut: [i64; 8],
    pub normal_played: bool,
    pub played: i64,
    pub tiles_played: i64,
    pub end_reason: Option<EndReason>,
    pub rng: MersenneTwister,
    pub events: Option<Vec<Event>>,
}

impl State {
    /// Become a copy of `other` but for the generator, keeping this position's lists (no allocation when they are
    /// large enough): how a run of games starts each game from the rules' starting position, its generator
    /// seeded in place.
    pub fn reset_from(&mut self, other: &State) {
        self.phase = other.phase;
        self.setup_queue.clone_from(&other.setup_queue);
        self.current = other.current;
        self.turn = other.turn;
        self.pools.clone_from(&other.pools);
        self.hands.clone_from(&other.hands);
        self.stacks.clone_from(&other.stacks);
        self.spent.clone_from(&other.spent);
        self.tile_owner.clone_from(&other.tile_owner);
        self.tile_type.clone_from(&other.tile_type);
        self.tile_turn.clone_from(&other.tile_turn);
        self.empty_land.clone_from(&other.empty_land);
        self.empty_land_pos.clone_from(&other.empty_land_pos);
        self.empty_sea.clone_from(&other.empty_sea);
        self.empty_sea_pos.clone_from(&other.empty_sea_pos);
        self.movable_count.clone_from(&other.movable_count);
        self.figures.clone_from(&other.figures);
        self.empty_around.clone_from(&other.empty_around);
        self.pending.clone_from(&other.pending);
        self.supply = other.supply;
        self.on_board = other.on_board;
        self.captured.clone_from(&other.captured);
        self.removed = other.removed;
        self.removed_total = other.removed_total;
        self.open_by_stage.clone_from(&other.open_by_stage);
        self.cut = other.cut;
        self.normal_played = other.normal_played;
        self.played = other.played;
        self.tiles_played = other.tiles_played;
        self.end_reason = other.end_reason;
        self.events.clone_from(&other.events);
    }

    /// The seat to act; only called while the game goes on (the seat is then a real one).
    pub fn seat(&self) -> usize {
        self.current.max(0) as usize
    }
}

/// The most a count may be in a position handed over from Python: far above any game's, far below overflow.
const COUNT_LIMIT: i64 = 1 << 40;

impl State {
    /// What is wrong with this position under `r`, if anything: lists of the right lengths, every number the
    /// engine indexes by in range, the empty-hex lists and their positions agreeing, then every field the engine
    /// keeps beside the board equal to what the board says (`State::inconsistency`). A position handed over from
    /// Python is checked before the engine touches it, so no position can make it read past a table.
    pub fn problem(&self, r: &crate::rules::Rules) -> Option<String> {
        use crate::rules::{LAND, SEA};
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
