//! The information-set Monte Carlo tree search of Knizia's game, inside the engine (`samurai.search.mcts`).
//!
//! A line-for-line port of the Python search on this game: the same determinizations from the seat's knowledge
//! ([`Knowledge::determinize`], as `HexSeatKnowledge.determinize`), the same tree with availability counts, the
//! same estimate at the leaf ([`crate::evaluation`]), the same quick player for the replies
//! ([`crate::greedy`]), the same pool of common worlds, and the same draws from the bot's generator in the same
//! order. With a budget of simulations it chooses exactly the action the Python search chooses for the same
//! knowledge and generator (`tests/test_native_search.py` pins that); the Python search's module explains the
//! method.
//!
//! The search sees only a seat's knowledge: the public position with no other seat's tiles, and per seat the
//! tiles it has not been seen to play. Every position it plays is drawn from that.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use crate::engine::{self, Action, Refusal};
use crate::evaluation::Estimate;
use crate::greedy::Greedy;
use crate::mt::MersenneTwister as Twister;
use crate::rules::Rules;
use crate::scoring;
use crate::state::{State, OVER};

/// With a time budget, the clock is read every this many simulations (`_TIME_CHECK_EVERY`).
const TIME_CHECK_EVERY: u64 = 16;

/// What one seat knows of a position (`samurai.knizia.knowledge.SeatKnowledge`), as the search needs it.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The seat that knows it (and searches).
    pub seat: usize,
    /// The public position: every other seat's hand, unchosen tiles and stack empty, its own hand and unchosen
    /// tiles as they are.
    pub public: State,
    /// Per seat, the tiles it still holds as this seat knows them (`_hidden_tiles`): another seat's sorted, this
    /// seat's own its hand, its unchosen tiles, then its stack sorted.
    pub hidden: Vec<Vec<usize>>,
    /// Each seat's hand size.
    pub hand_sizes: Vec<usize>,
    /// Each seat's number of unchosen tiles.
    pub pool_sizes: Vec<usize>,
}

impl Knowledge {
    /// What is wrong with this knowledge for rules `r`, if anything (checked before a search, so that no input
    /// can make it index out of bounds).
    pub fn problem(&self, r: &Rules) -> Option<String> {
        let n = r.players;
        if self.seat >= n {
            return Some(format!("seat {} of {} seats", self.seat, n));
        }
        if self.hidden.len() != n || self.hand_sizes.len() != n || self.pool_sizes.len() != n {
            return Some(format!(
                "{} hidden tile lists, {} hand sizes and {} pool sizes for {} seats",
                self.hidden.len(),
                self.hand_sizes.len(),
                self.pool_sizes.len(),
                n
            ));
        }
        for seat in 0..n {
            if self.hand_sizes[seat] + self.pool_sizes[seat] > self.hidden[seat].len() {
                return Some(format!(
                    "seat {seat} holds {} tiles in hand and unchosen but {} unseen",
                    self.hand_sizes[seat] + self.pool_sizes[seat],
                    self.hidden[seat].len()
                ));
            }
            if self.hidden[seat].iter().any(|&t| t >= r.tile_names.len()) {
                return Some(format!(
                    "seat {seat}'s unseen tiles name a tile type the rules do not have"
                ));
            }
        }
        let own = &self.hidden[self.seat];
        let (h, p) = (self.hand_sizes[self.seat], self.pool_sizes[self.seat]);
        if self.public.hands[self.seat][..] != own[..h]
            || self.public.pools[self.seat][..] != own[h..h + p]
        {
            return Some(
                "the seat's own hand and unchosen tiles differ from its unseen tiles".into(),
            );
        }
        None
    }

    /// `HexSeatKnowledge.determinize(rng)` into `out`: every other seat's hand and unchosen tiles a uniform
    /// deal of its unseen tiles (the rest its stack), and a fresh generator seeded from `rng` for the refills.
    pub fn determinize(&self, rng: &mut Twister, out: &mut State) {
        // `random.Random(rng.getrandbits(64))` is made before the deal: Python evaluates the argument first.
        let generator = Twister::from_seed(rng.getrandbits(64));
        out.reset_from(&self.public);
        out.rng = generator;
        for (seat, tiles) in self.hidden.iter().enumerate() {
            let (h, p) = (self.hand_sizes[seat], self.pool_sizes[seat]);
            if seat == self.seat {
                out.stacks[seat].clear();
                out.stacks[seat].extend_from_slice(&tiles[h + p..]);
                continue;
            }
            let mut deal = tiles.clone();
            // A partial Fisher-Yates shuffle: the stack's order is left to the generator that draws each refill.
            let size = deal.len();
            for i in 0..h + p {
                let j = i + (rng.random() * (size - i) as f64) as usize;
                deal.swap(i, j);
            }
            out.hands[seat].clear();
            out.hands[seat].extend_from_slice(&deal[..h]);
            out.pools[seat].clear();
            out.pools[seat].extend_from_slice(&deal[h..h + p]);
            out.stacks[seat].clear();
            out.stacks[seat].extend_from_slice(&deal[h + p..]);
        }
    }
}

/// How much a search may do, and how it scores a leaf (`MCTSBot`'s options).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// A number of simulations (deterministic), or None for a time budget.
    pub simulations: Option<u64>,
    /// Seconds per decision, when `simulations` is None.
    pub seconds: f64,
    /// The UCT exploration constant.
    pub exploration: f64,
    /// Random actions after the tree before the estimate (`Some(0)`: none), or None: play out to the end.
    pub playout: Option<u64>,
    /// Score a leaf after the quick player has answered it.
    pub replies: bool,
    /// Compare the root's actions on a pool of this many drawn positions.
    pub worlds: Option<usize>,
    /// With replies: the share of a leaf's score that comes from the quick player's play to the end, the rest
    /// from the estimate after the replies (0: the estimate alone).
    pub finish: f64,
}

/// A multiplicative hash for actions (std's default is keyed and slower; nothing here is adversarial: the keys
/// are the game's own actions).
#[derive(Default)]
struct ActionHasher(u64);

impl Hasher for ActionHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Children = HashMap<Action, u32, BuildHasherDefault<ActionHasher>>;

/// A node of the tree: the statistics of the action that led here, and the children by action (`_Node`).
struct Node {
    /// The seat that acted into this node (whose return it keeps).
    seat: usize,
    /// The seat that chooses among the children, or -1 before the first arrival.
    chooser: i64,
    visits: u64,
    total: f64,
    available: u64,
    children: Children,
}

impl Node {
    fn new(seat: usize) -> Self {
        Node {
            seat,
            chooser: -1,
            visits: 0,
            total: 0.0,
            available: 1,
            children: Children::default(),
        }
    }
}

/// What a decision found: the action to play and how many simulations it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub action: Action,
    pub simulations: u64,
}

/// One decision's search: the tree (nodes by index, the root's children in the order they were added, as a
/// Python dict keeps them) and the pool of worlds.
struct Search<'a> {
    r: &'a Rules,
    knowledge: &'a Knowledge,
    options: Options,
    nodes: Vec<Node>,
    root_visits: u64,
    root_children: Vec<(Action, u32)>,
    pool: Vec<(State, Twister)>,
    legal: Vec<Action>,
    /// The working lists of `legal`.
    lists: engine::Legal,
    unexpanded: Vec<Action>,
    child_ids: Vec<u32>,
    /// The nodes of a simulation's path (kept to reuse its room).
    path: Vec<u32>,
    returns: Vec<f64>,
    greedy: Greedy,
    estimate: Estimate,
    /// The estimate a leaf had before it was played to the end (`finish`).
    estimated: Vec<f64>,
}

/// `MCTSBot.act` on a seat's knowledge: the most visited of the seat's legal actions after the search (the only
/// one, without a search), `rng` (the bot's generator) advanced exactly as the Python search advances it.
pub fn decide(
    r: &Rules,
    knowledge: &Knowledge,
    rng: &mut Twister,
    options: Options,
) -> Result<Found, Refusal> {
    let public = &knowledge.public;
    if public.phase == OVER || public.current != knowledge.seat as i64 {
        return Err(Refusal::NoAction(
            "the knowledge's seat has no legal action: it is not to act",
        ));
    }
    if scoring::decide(r.scoring, &public.captured, r.players).is_none() {
        return Err(Refusal::NoAction(
            "the edition scores in Python: the native search cannot end a game",
        ));
    }
    let legal = engine::legal_actions(r, public);
    match legal.len() {
        0 => {
            return Err(Refusal::NoAction(
                "the knowledge's seat has no legal action: it is not to act",
            ))
        }
        1 => {
            return Ok(Found {
                action: legal[0],
                simulations: 0,
            })
        }
        _ => {}
    }
    let mut search = Search {
        r,
        knowledge,
        options,
        nodes: Vec::new(),
        root_visits: 0,
        root_children: Vec::with_capacity(legal.len()),
        pool: Vec::new(),
        legal: Vec::new(),
        lists: engine::Legal::default(),
        unexpanded: Vec::new(),
        child_ids: Vec::new(),
        path: Vec::new(),
        returns: Vec::with_capacity(r.players),
        greedy: Greedy::default(),
        estimate: Estimate::default(),
        estimated: Vec::new(),
    };
    let simulations = search.run(&legal, rng)?;
    let mut best = (legal[0], (-1i64, -1.0f64));
    // In the legal order, so ties break the same way every time.
    for &action in &legal {
        if let Some(&(_, id)) = search.root_children.iter().find(|(a, _)| *a == action) {
            let child = &search.nodes[id as usize];
            let key = (child.visits as i64, child.total / child.visits as f64);
            if key.0 > best.1 .0 || (key.0 == best.1 .0 && key.1 > best.1 .1) {
                best = (action, key);
            }
        }
    }
    Ok(Found {
        action: best.0,
        simulations,
    })
}

impl Search<'_> {
    /// The budget's simulations (`MCTSBot.search`); how many ran.
    fn run(&mut self, legal: &[Action], rng: &mut Twister) -> Result<u64, Refusal> {
        // The seat's own legal actions are the same in every drawn position, so the root's untried ones are drawn
        // from one shuffled list.
        let mut untried = legal.to_vec();
        rng.shuffle(&mut untried);
        let mut scratch = self.knowledge.public.clone();
        if let Some(simulations) = self.options.simulations {
            for _ in 0..simulations {
                self.simulate(&mut untried, legal, rng, &mut scratch)?;
            }
            return Ok(simulations);
        }
        let deadline =
            Instant::now() + Duration::from_secs_f64(self.options.seconds.clamp(0.0, 3600.0));
        let mut done = 0;
        loop {
            for _ in 0..TIME_CHECK_EVERY {
                self.simulate(&mut untried, legal, rng, &mut scratch)?;
            }
            done += TIME_CHECK_EVERY;
            if Instant::now() >= deadline {
                return Ok(done);
            }
        }
    }

    /// One simulation (`_simulate`): choose at the root, draw a position, go on down the tree, score the leaf,
    /// back up.
    fn simulate(
        &mut self,
        untried: &mut Vec<Action>,
        root_legal: &[Action],
        rng: &mut Twister,
        state: &mut State,
    ) -> Result<(), Refusal> {
        let c = self.options.exploration;
        let searcher = self.knowledge.seat;
        let (mut action, mut node, mut expanded) = if let Some(action) = untried.pop() {
            let id = self.add_node(searcher);
            self.root_children.push((action, id));
            (action, id, true)
        } else {
            // Every root action is available in every drawn position: one logarithm for all.
            let exploration = c * (self.root_visits as f64).ln().sqrt();
            let (mut best, mut best_value) = ((root_legal[0], u32::MAX), -1.0);
            for &(candidate, id) in &self.root_children {
                let child = &self.nodes[id as usize];
                let visits = child.visits as f64;
                let value = child.total / visits + exploration / visits.sqrt();
                if value > best_value {
                    best = (candidate, id);
                    best_value = value;
                }
            }
            (best.0, best.1, false)
        };
        let mut world_rng = self.draw(self.nodes[node as usize].visits, rng, state);
        engine::apply(self.r, state, action);
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(node);
        while !expanded && state.phase != OVER {
            let seat = state.current;
            let chooser = self.nodes[node as usize].chooser;
            if chooser < 0 {
                self.nodes[node as usize].chooser = seat;
            } else if chooser != seat {
                break; // another seat is to act here than the first time (a pass the seat cannot foresee)
            }
            let chooser = seat.max(0) as usize;
            self.lists.list(self.r, state, &mut self.legal);
            // One look-up per legal action: the unexpanded ones, else every child's index for the choice below.
            self.unexpanded.clear();
            self.child_ids.clear();
            {
                let children = &self.nodes[node as usize].children;
                for action in &self.legal {
                    match children.get(action) {
                        Some(&id) => self.child_ids.push(id),
                        None => self.unexpanded.push(*action),
                    }
                }
            }
            if !self.unexpanded.is_empty() {
                action = if self.options.replies && self.nodes[node as usize].children.is_empty() {
                    // The first answer tried is the one the leaves assume.
                    self.greedy
                        .action(self.r, state, policy(&mut world_rng, rng))?
                } else {
                    self.unexpanded[(rng.random() * self.unexpanded.len() as f64) as usize]
                };
                let id = self.add_node(chooser);
                self.nodes[node as usize].children.insert(action, id);
                node = id;
                expanded = true;
            } else {
                let (mut best, mut best_value) = ((self.legal[0], u32::MAX), -1.0);
                for (&candidate, &id) in self.legal.iter().zip(&self.child_ids) {
                    let child = &mut self.nodes[id as usize];
                    child.available += 1;
                    let visits = child.visits as f64;
                    let value =
                        child.total / visits + c * ((child.available as f64).ln() / visits).sqrt();
                    if value > best_value {
                        best = (candidate, id);
                        best_value = value;
                    }
                }
                action = best.0;
                node = best.1;
            }
            engine::apply(self.r, state, action);
            path.push(node);
        }
        self.play_out(state, policy(&mut world_rng, rng), searcher)?;
        for &visited in &path {
            let node = &mut self.nodes[visited as usize];
            node.visits += 1;
            node.total += self.returns[node.seat];
        }
        self.path = path;
        self.root_visits += 1;
        Ok(())
    }

    fn add_node(&mut self, seat: usize) -> u32 {
        self.nodes.push(Node::new(seat));
        (self.nodes.len() - 1) as u32
    }

    /// The position of a simulation whose root action has `visits` visits, written into `state` (`_draw`): a
    /// fresh draw from the bot's generator, or with worlds world `visits % worlds`, whose playout then draws from
    /// a generator of its own (returned; None: the playout draws from the bot's).
    fn draw(&mut self, visits: u64, rng: &mut Twister, state: &mut State) -> Option<Twister> {
        let Some(worlds) = self.options.worlds else {
            self.knowledge.determinize(rng, state);
            return None;
        };
        let index = (visits % worlds as u64) as usize;
        while self.pool.len() <= index {
            let mut world = self.knowledge.public.clone();
            self.knowledge.determinize(rng, &mut world);
            let seed = rng.getrandbits(64);
            self.pool.push((world, Twister::from_seed(seed)));
        }
        let (world, generator) = &self.pool[index];
        state.reset_from(world);
        state.rng.clone_from(&world.rng);
        Some(generator.clone())
    }

    /// The leaf's score for every seat into `self.returns` (`_play_out`; `searcher` searches): the estimate after
    /// the replies (with `finish`, mixed with the returns of the quick player's play to the end) or the random
    /// actions, or the returns at the end.
    fn play_out(
        &mut self,
        state: &mut State,
        rng: &mut Twister,
        searcher: usize,
    ) -> Result<(), Refusal> {
        let r = self.r;
        let to_act = |st: &State, seat: usize| st.phase != OVER && st.current == seat as i64;
        match self.options.playout {
            None => {
                while state.phase != OVER {
                    let action = engine::sample_action(r, state, rng)?;
                    engine::apply(r, state, action);
                }
            }
            Some(_) if self.options.replies => {
                while to_act(state, searcher) {
                    let action = self.greedy.action(r, state, rng)?;
                    engine::apply(r, state, action);
                }
                while state.phase != OVER && !to_act(state, searcher) {
                    let action = self.greedy.action(r, state, rng)?;
                    engine::apply(r, state, action);
                }
                let share = self.options.finish;
                if share > 0.0 && state.phase != OVER {
                    // The estimate, then the game played to its end by the same quick player, weighed together.
                    self.evaluate(state);
                    self.estimated.clear();
                    self.estimated.extend_from_slice(&self.returns);
                    while state.phase != OVER {
                        let action = self.greedy.action(r, state, rng)?;
                        engine::apply(r, state, action);
                    }
                    self.evaluate(state);
                    for (end, &estimated) in self.returns.iter_mut().zip(&self.estimated) {
                        *end = (1.0 - share) * estimated + share * *end;
                    }
                    return Ok(());
                }
            }
            Some(actions) => {
                for _ in 0..actions {
                    if state.phase == OVER {
                        break;
                    }
                    let action = engine::sample_action(r, state, rng)?;
                    engine::apply(r, state, action);
                }
            }
        }
        self.evaluate(state);
        Ok(())
    }

    /// `HexGameState.evaluate`: the returns once over (the winners share 1), else the estimate.
    fn evaluate(&mut self, state: &State) {
        let n = self.r.players;
        if state.phase != OVER {
            self.estimate.returns(self.r, state, &mut self.returns);
            return;
        }
        self.returns.clear();
        self.returns.resize(n, 0.0);
        if let Some(decision) = scoring::decide(self.r.scoring, &state.captured, n) {
            let share = 1.0 / decision.winners.len() as f64;
            for &seat in &decision.winners {
                self.returns[seat] = share;
            }
        }
    }
}

/// The generator a simulation's replies and playout draw from: its world's, or the bot's.
fn policy<'a>(world: &'a mut Option<Twister>, bot: &'a mut Twister) -> &'a mut Twister {
    match world {
        Some(generator) => generator,
        None => bot,
    }
}
