//! An edition compiled for one player count, options and map: the tables the engine reads.
//!
//! The Python side compiles an edition (`samurai_plugins.knizia.editions.rules`: it asks the edition's hooks and
//! numbers tiles, hexes and settlements) and hands the result over once
//! (`samurai_plugins.knizia.engine.backends.native_spec`); these are the same tables, read-only and shared by every
//! game under them.

use crate::actions::{Action, Refusal};
use crate::mt::Draw;
use crate::state::State;

/// Where a tile type goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// An empty land hex.
    Land,
    /// An empty sea hex (ships).
    Sea,
    /// Played through a special behaviour.
    Special,
}

/// The special tile behaviours the native engine carries out (the engine's own, `samurai_plugins.knizia.engine.
/// special_tiles`): named here so that the compiled rules can hold them, everything they do is in
/// `crate::special_tiles` (their [`TileBehaviour`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// Move: one of the seat's normal tiles of an earlier turn goes to an empty land hex.
    Move,
    /// Switch: two figures of different castes in two settlements change places.
    Switch,
}

/// What a special tile does (`samurai_plugins.knizia.editions.rules.TileBehaviour`): `tile` is the tile type being
/// played by `seat`, its targets the numbers after it in the action. The engine does the bookkeeping every tile
/// shares (take it from the hand, count it toward the one normal tile, resolve, check the end); the behaviour says
/// where the tile may go and what it does.
pub trait TileBehaviour {
    /// Whether the tile has at least one legal target now.
    fn can_play(&self, r: &Rules, st: &State, seat: usize, tile: usize) -> bool;

    /// Every legal action of the tile now, in the Python behaviour's order, onto `out` (`empty_land`: the empty
    /// land hexes, sorted).
    fn legal(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        tile: usize,
        empty_land: &[usize],
        out: &mut Vec<Action>,
    );

    /// Why `targets` are not a legal target now, or None; `Err(OutOfRange)` where the Python behaviour would index
    /// past a table or unpack the wrong number of targets.
    fn check(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        tile: usize,
        targets: &[u64],
    ) -> Result<Option<String>, Refusal>;

    /// A random legal action of the tile, drawn as the Python behaviour draws (None when there is none).
    fn sample<D: Draw + ?Sized>(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        tile: usize,
        rng: &mut D,
    ) -> Option<Action>;

    /// Carry out the tile's effect on checked targets (the tile has already left the hand).
    fn apply(&self, r: &Rules, st: &mut State, seat: usize, tile: usize, targets: [usize; 4]);

    /// How the greedy player values the tile's actions: true when each one, `(source, target)`, takes the seat's
    /// tile on `source` to the empty land hex `target` (worth its worth there less its worth where it stood), the
    /// sources then into `sources` in the legal order; false when the greedy player keeps the tile for when
    /// nothing else can be played.
    fn relocation_sources(
        &self,
        r: &Rules,
        st: &State,
        seat: usize,
        sources: &mut Vec<usize>,
    ) -> bool;
}

/// How the winner is decided from the captured figures, when the native engine can decide it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// FFG 2015's Leader tokens (`plugins/ffg2015.py`).
    LeaderTokens,
    /// The original's majorities (`plugins/original.py`).
    Majorities,
    /// The game's default: most figures in total (`samurai_plugins.knizia.editions.defaults`).
    MostFigures,
    /// An edition's own scoring hook: only Python can ask it.
    Python,
}

/// Terrain of a hex, as `samurai_plugins.knizia.core.maps` numbers it.
pub const SEA: u8 = 0;
/// Terrain of a hex, as `samurai_plugins.knizia.core.maps` numbers it.
pub const LAND: u8 = 1;

/// The compiled rules of one game.
#[derive(Clone, Debug)]
pub struct Rules {
    pub players: usize,
    pub hand_size: usize,
    /// The name of each tile type (for the reasons of refused actions).
    pub tile_names: Vec<String>,
    /// The influence printed on each tile type (what the greedy player keeps the strongest of).
    pub tile_influence: Vec<i32>,
    /// Influence of tile type `t` on caste `c` at `t * 3 + c`.
    pub tile_value: Vec<i32>,
    pub tile_fast: Vec<bool>,
    pub tile_on: Vec<Placement>,
    pub tile_movable: Vec<bool>,
    /// The behaviour of each special tile type (None for land and sea tiles).
    pub tile_special: Vec<Option<Special>>,
    /// Every seat's tiles (tile types, one entry per tile).
    pub player_tiles: Vec<usize>,
    pub board_size: usize,
    /// Terrain of each hex (`SEA`, `LAND` or a settlement).
    pub terrain: Vec<u8>,
    pub land_hexes: Vec<usize>,
    pub sea_hexes: Vec<usize>,
    /// For each hex, the settlements next to it.
    pub adjacent_settlements: Vec<Vec<usize>>,
    /// For each settlement, every hex around it (land and sea): whose tiles count there.
    pub settlement_neighbours: Vec<Vec<usize>>,
    pub settlement_names: Vec<String>,
    pub capacities: Vec<usize>,
    /// The figure stage of each settlement, or -1 (prefilled, or in no stage).
    pub stage_of: Vec<i64>,
    /// How many figure stages the setup has.
    pub stage_count: usize,
    pub hands_random: bool,
    pub figures_random: bool,
    pub first_player: usize,
    pub figures_must_fit: bool,
    pub resolve_each_tile: bool,
    pub end_immediate: bool,
    pub pass_when_unable: bool,
    pub removed_limit: i64,
    pub scoring: Scoring,
}

impl Rules {
    /// The name of tile type `tile`, or `#tile` for a number that names none (as the Python engine says it).
    pub fn tile_name(&self, tile: u64) -> String {
        match usize::try_from(tile)
            .ok()
            .and_then(|t| self.tile_names.get(t))
        {
            Some(name) => name.clone(),
            None => format!("#{tile}"),
        }
    }

    /// Whether tile type `tile` is played through a special behaviour.
    pub fn is_special(&self, tile: usize) -> bool {
        self.tile_special[tile].is_some()
    }
}

impl Rules {
    /// What is wrong with these tables, if anything: every number the engine indexes by must be in range, so
    /// that no table handed over from Python can make the engine read past one.
    pub fn problem(&self) -> Option<String> {
        let figure_stages = self.stage_count;
        let types = self.tile_names.len();
        let settlements = self.settlement_names.len();
        let size = self.board_size;
        let lengths = [
            ("tile_value", self.tile_value.len(), 3 * types),
            ("tile_influence", self.tile_influence.len(), types),
            ("tile_fast", self.tile_fast.len(), types),
            ("tile_on", self.tile_on.len(), types),
            ("tile_movable", self.tile_movable.len(), types),
            ("tile_special", self.tile_special.len(), types),
            ("terrain", self.terrain.len(), size),
            (
                "adjacent_settlements",
                self.adjacent_settlements.len(),
                size,
            ),
            (
                "settlement_neighbours",
                self.settlement_neighbours.len(),
                settlements,
            ),
            ("capacities", self.capacities.len(), settlements),
            ("stage_of", self.stage_of.len(), settlements),
        ];
        for (name, got, want) in lengths {
            if got != want {
                return Some(format!("{name} has {got} entries, not {want}"));
            }
        }
        if self.players == 0 || self.first_player >= self.players {
            return Some(format!(
                "first player {} of {} players",
                self.first_player, self.players
            ));
        }
        if self.hand_size > self.player_tiles.len() {
            return Some(format!(
                "hand size {} is over the {} tiles of a seat",
                self.hand_size,
                self.player_tiles.len()
            ));
        }
        if self.player_tiles.iter().any(|&t| t >= types) {
            return Some("player_tiles names a tile type the rules do not have".into());
        }
        for (t, on) in self.tile_on.iter().enumerate() {
            if (*on == Placement::Special) != self.tile_special[t].is_some() {
                return Some(format!(
                    "tile type {t} is special without a behaviour, or the other way round"
                ));
            }
        }
        let hexes_ok = |hexes: &[usize], terrain: u8| {
            hexes
                .iter()
                .all(|&h| h < size && self.terrain[h] == terrain)
        };
        if !hexes_ok(&self.land_hexes, LAND) || !hexes_ok(&self.sea_hexes, SEA) {
            return Some("land_hexes or sea_hexes name a hex that is not land or sea".into());
        }
        if self
            .adjacent_settlements
            .iter()
            .flatten()
            .any(|&s| s >= settlements)
            || self
                .settlement_neighbours
                .iter()
                .flatten()
                .any(|&h| h >= size)
        {
            return Some("the board's tables name a hex or settlement it does not have".into());
        }
        if self.capacities.iter().any(|&c| !(1..=3).contains(&c)) {
            return Some("a settlement holds 1 to 3 figures".into());
        }
        if self.stage_of.iter().any(|&s| s >= figure_stages as i64) {
            return Some("stage_of names a figure stage the rules do not have".into());
        }
        None
    }
}
