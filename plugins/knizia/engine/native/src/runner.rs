//! Whole games between the native random and greedy players, a batch of seeds at a time
//! (`samurai_plugins.knizia.adapters.runner.play_batch` on the native engine): each game seeded as the runner seeds
//! it, played to its end with no Python between its actions.

use crate::actions::{Action, Refusal};
use crate::facts::TurnWatch;
use crate::greedy::Greedy;
use crate::mt::MersenneTwister as Twister;
use crate::reference;
use crate::rules::Rules;
use crate::seeds::derive_seed;
use crate::state::{EndReason, State, OVER};

/// A bot the native engine plays whole games with.
#[derive(Clone, Copy)]
pub enum Bot {
    Random,
    Greedy,
}

/// A game [`play_batch`] finished, as plain data (the binding's `play_games` makes its Python row).
pub struct Finished {
    pub seed: u64,
    pub end_reason: Option<EndReason>,
    pub turn: i64,
    pub tiles_played: i64,
    pub captured: Vec<i64>,
    pub removed_total: i64,
    pub played: usize,
    pub leader: Option<usize>,
    pub actions: Option<Vec<Action>>,
}

/// Play one game per seed in `seeds` from `template`: seat `k` of a game seeded `s` draws from
/// `random.Random(derive_seed(s, k))` and plays `kinds[k % len]`; the actions of each game are kept with `keep`.
pub fn play_batch(
    r: &Rules,
    template: &State,
    seeds: &[u64],
    kinds: &[Bot],
    keep: bool,
) -> Result<Vec<Finished>, Refusal> {
    let players = r.players;
    let mut out = Vec::with_capacity(seeds.len());
    let mut st = template.clone();
    // Games are seeded a few at a time, their generators side by side (seeding five CPython generators is much of
    // a random game's cost, and it goes faster the more chains the processor works on together).
    let per_game = players + 1;
    let chunk = (crate::mt::MAX_LANES / per_game).max(1);
    let mut generators: Vec<Twister> = vec![st.rng.clone(); chunk * per_game];
    let mut game_seeds: Vec<u64> = Vec::with_capacity(chunk * per_game);
    let mut watch = TurnWatch::default();
    let mut greedy = Greedy::default();
    let mut actions = Vec::new();
    for seeds in seeds.chunks(chunk) {
        game_seeds.clear();
        for &seed in seeds {
            game_seeds.push(seed);
            game_seeds.extend((0..players as u64).map(|k| derive_seed(seed, k)));
        }
        {
            let mut targets: Vec<&mut Twister> =
                generators.iter_mut().take(game_seeds.len()).collect();
            Twister::reseed_all(&mut targets, &game_seeds);
        }
        for (&seed, game) in seeds.iter().zip(generators.chunks_mut(per_game)) {
            let (own, seats) = game.split_at_mut(1);
            reference::restart(r, &mut st, template, &own[0]);
            actions.clear();
            let played = play_whole(
                r,
                &mut st,
                seats,
                kinds,
                &mut watch,
                &mut greedy,
                keep.then_some(&mut actions),
            )?;
            out.push(Finished {
                seed,
                end_reason: st.end_reason,
                turn: st.turn,
                tiles_played: st.tiles_played,
                captured: st.captured[..players * 3].to_vec(),
                removed_total: st.removed_total,
                played,
                leader: watch.leader(st.turn),
                actions: keep.then(|| actions.clone()),
            });
        }
    }
    Ok(out)
}

/// Play `st` to its end, seat `k` drawing from `seats[k]` as `kinds[k % len]` plays; how many actions (each one
/// pushed onto `actions` when given). `watch` notes each seat's captured total after every turn; `greedy` keeps
/// the greedy player's working lists.
fn play_whole(
    r: &Rules,
    st: &mut State,
    seats: &mut [Twister],
    kinds: &[Bot],
    watch: &mut TurnWatch,
    greedy: &mut Greedy,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<usize, Refusal> {
    let mut played = 0usize;
    watch.start(st.turn, r.players);
    while st.phase != OVER {
        watch.see(st);
        let seat = st.seat();
        let rng = &mut seats[seat];
        let action = match kinds[seat % kinds.len()] {
            Bot::Random => reference::sample_action(r, st, rng),
            Bot::Greedy => greedy.action(r, st, rng),
        }?;
        reference::apply(r, st, action);
        played += 1;
        if let Some(actions) = actions.as_mut() {
            actions.push(action);
        }
    }
    watch.see(st);
    Ok(played)
}
