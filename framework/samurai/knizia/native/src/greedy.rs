//! The greedy player (`samurai.knizia.greedy`): the tile and hex worth most right now, ties drawn from its
//! generator. It reads only what its seat may know (its own hand and unchosen tiles, the public board), so it
//! decides on the whole position as the Python player decides on the seat's knowledge.

use crate::engine::{legal_actions, sample_action, Action, Draw, Refusal};
use crate::rules::{Rules, Special, LAND};
use crate::state::{State, EMPTY, FIGURES, HANDS};

/// Points of influence traded for one figure captured now (`CAPTURE_VALUE`).
pub const CAPTURE_VALUE: i64 = 10;

/// `greedy_action`: the action worth most now for the seat to act.
pub fn greedy_action<D: Draw + ?Sized>(
    r: &Rules,
    st: &State,
    rng: &mut D,
) -> Result<Action, Refusal> {
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
    let mut influence = vec![0i32; r.players];
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
