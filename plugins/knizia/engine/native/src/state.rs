//! One game's position: the same fields, in the same order and with the same meaning, as the Python engine's
//! `samurai_plugins.knizia.core.state.State`, so that the two can be compared field by field after every action.

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

/// The castes, in the order used everywhere (`samurai_plugins.knizia.core.tiles.CASTES`).
pub const CASTES: [&str; 3] = ["buddha", "rice", "castle"];

/// How many castes a caste bitmask holds.
const POPCOUNT: [usize; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// The castes of a caste bitmask, in caste order (`_CASTES_IN`).
pub(crate) fn castes_in(mask: u8) -> &'static [usize] {
    const TABLE: [&[usize]; 8] = [&[], &[0], &[1], &[0, 1], &[2], &[0, 2], &[1, 2], &[0, 1, 2]];
    TABLE[(mask & 7) as usize]
}

/// How many castes the bitmask `mask` holds.
pub(crate) fn popcount(mask: u8) -> usize {
    POPCOUNT[(mask & 7) as usize]
}

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

/// Calls the macro `$then` with the position's fields, the one list of them on the Rust side (the other is the
/// Python engine's `samurai_plugins.knizia.core.state.State`, in the same order with the same meaning): each as
/// `name: Type [fingerprint]` or `name: Type []`, marked when `State.fingerprint()` holds it. [`State`] and
/// [`State::reset_from`] are made from it here, and the binding's reading and writing of a Python position from it
/// there (`crate::python::state`), so a new field is written here and in Python's `State`, nowhere else.
macro_rules! position_fields {
    ($then:ident) => {
        $then! {
            phase: u8 [fingerprint],
            setup_queue: Vec<u8> [fingerprint],
            current: i64 [fingerprint],
            turn: i64 [fingerprint],
            pools: Vec<Vec<usize>> [fingerprint],
            hands: Vec<Vec<usize>> [fingerprint],
            stacks: Vec<Vec<usize>> [fingerprint],
            spent: Vec<i64> [fingerprint],
            tile_owner: Vec<i64> [fingerprint],
            tile_type: Vec<i64> [fingerprint],
            tile_turn: Vec<i64> [fingerprint],
            empty_land: Vec<usize> [fingerprint],
            empty_land_pos: Vec<i64> [],
            empty_sea: Vec<usize> [fingerprint],
            empty_sea_pos: Vec<i64> [],
            movable_count: Vec<i64> [],
            figures: Vec<u8> [fingerprint],
            empty_around: Vec<i64> [fingerprint],
            pending: Vec<usize> [fingerprint],
            supply: [i64; 3] [fingerprint],
            on_board: [i64; 3] [fingerprint],
            captured: Vec<i64> [fingerprint],
            removed: [i64; 3] [fingerprint],
            removed_total: i64 [],
            open_by_stage: Vec<Vec<usize>> [],
            cut: [i64; 8] [],
            normal_played: bool [fingerprint],
            played: i64 [fingerprint],
            tiles_played: i64 [],
            end_reason: Option<$crate::state::EndReason> [fingerprint],
            rng: $crate::mt::MersenneTwister [fingerprint],
            events: Option<Vec<$crate::state::Event>> [],
        }
    };
}
#[cfg(feature = "python")]
pub(crate) use position_fields;

/// `State` and its `reset_from` of the fields `position_fields!` lists.
macro_rules! state_of_fields {
    ($($name:ident: $ty:ty [$($fingerprint:ident)?]),* $(,)?) => {
        /// Everything that changes during a game (see `samurai_plugins.knizia.core.state.State` for each field).
        #[derive(Clone, Debug)]
        pub struct State {
            $(pub $name: $ty,)*
        }

        impl State {
            /// Become a copy of `other`, keeping this position's lists (no allocation when they are large enough):
            /// how a run of games starts each game from the rules' starting position.
            pub fn reset_from(&mut self, other: &State) {
                $(self.$name.clone_from(&other.$name);)*
            }
        }
    };
}
position_fields!(state_of_fields);

impl State {
    /// The seat to act; only called while the game goes on (the seat is then a real one).
    pub fn seat(&self) -> usize {
        self.current.max(0) as usize
    }
}
