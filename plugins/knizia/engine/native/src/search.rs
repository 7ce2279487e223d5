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

use crate::actions::{Action, Refusal};
use crate::evaluation::Estimate;
use crate::greedy::Greedy;
use crate::mt::MersenneTwister as Twister;
use crate::reference;
use crate::rules::Rules;
use crate::scoring;
use crate::state::{State, OVER};

/// With a time budget, the clock is read every this many simulations (`_TIME_CHECK_EVERY`).
const TIME_CHECK_EVERY: u64 = 16;

/// The caller is asked whether to stop (Ctrl-C) every this many simulations: a few milliseconds apart.
const STOP_CHECK_EVERY: u64 = 64;

/// What `decide` refuses with when its caller asked it to stop.
pub const INTERRUPTED: &str = "the search was interrupted";

/// In a node's list of child indices, an action with no child yet.
const UNEXPANDED: u32 = u32::MAX;

/// What one seat knows of a position (`samurai_plugins.knizia.play.knowledge.SeatKnowledge`), as the search needs it.
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
            // Sizes from Python may be anything up to usize::MAX: added without wrapping.
            let held = self.hand_sizes[seat].checked_add(self.pool_sizes[seat]);
            if !matches!(held, Some(held) if held <= self.hidden[seat].len()) {
                return Some(format!(
                    "seat {seat} holds {} tiles in hand and {} unchosen but {} unseen",
                    self.hand_sizes[seat],
                    self.pool_sizes[seat],
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
    /// `total / visits`, kept as the visits come back (the same division the choice among children would make).
    mean: f64,
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
            mean: 0.0,
            available: 1,
            children: Children::default(),
        }
    }
}

/// What a decision found: the action to play, how many simulations it ran, and the root's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub action: Action,
    pub simulations: u64,
    /// Per tried legal action of the root, in the legal order (`MCTSBot.statistics`; empty when forced).
    pub root: Vec<RootAction>,
}

/// One tried legal action of the root: its visits and every seat's mean returns over them (`ActionStatistics`).
#[derive(Clone, Debug, PartialEq)]
pub struct RootAction {
    pub action: Action,
    pub visits: u64,
    pub means: Vec<f64>,
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
    /// Per root child (in `root_children`'s order): its mean return and the square root of its visits, side by
    /// side so that the choice at the root (every simulation, over every root action) reads two short lists.
    root_means: Vec<f64>,
    root_sqrt_visits: Vec<f64>,
    /// Per root child (in `root_children`'s order): the sums of every seat's returns, in the order its total sums.
    root_totals: Vec<Vec<f64>>,
    /// `ln(k)` for every availability count `k` met so far (the choice below the root takes one per child).
    logarithms: Vec<f64>,
    pool: Vec<(State, Twister)>,
    legal: Vec<Action>,
    /// The working lists of `legal`.
    lists: reference::Legal,
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
    stop: &mut dyn FnMut() -> bool,
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
    let legal = reference::legal_actions(r, public);
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
                root: Vec::new(),
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
        root_means: Vec::with_capacity(legal.len()),
        root_sqrt_visits: Vec::with_capacity(legal.len()),
        root_totals: Vec::with_capacity(legal.len()),
        logarithms: Vec::new(),
        pool: Vec::new(),
        legal: Vec::new(),
        lists: reference::Legal::default(),
        child_ids: Vec::new(),
        path: Vec::new(),
        returns: Vec::with_capacity(r.players),
        greedy: Greedy::default(),
        estimate: Estimate::default(),
        estimated: Vec::new(),
    };
    let simulations = search.run(&legal, rng, stop)?;
    let mut best = (legal[0], (-1i64, -1.0f64));
    let mut root = Vec::with_capacity(search.root_children.len());
    // In the legal order, so ties break the same way every time.
    for &action in &legal {
        if let Some(at) = search.root_children.iter().position(|(a, _)| *a == action) {
            let child = &search.nodes[search.root_children[at].1 as usize];
            let visits = child.visits as f64;
            let key = (child.visits as i64, child.total / visits);
            if key.0 > best.1 .0 || (key.0 == best.1 .0 && key.1 > best.1 .1) {
                best = (action, key);
            }
            root.push(RootAction {
                action,
                visits: child.visits,
                means: search.root_totals[at].iter().map(|t| t / visits).collect(),
            });
        }
    }
    Ok(Found {
        action: best.0,
        simulations,
        root,
    })
}

impl Search<'_> {
    /// The budget's simulations (`MCTSBot.search`); how many ran.
    /// `stop` is asked every `STOP_CHECK_EVERY` simulations; when it says so the search ends, refused with
    /// [`INTERRUPTED`].
    fn run(
        &mut self,
        legal: &[Action],
        rng: &mut Twister,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<u64, Refusal> {
        // The seat's own legal actions are the same in every drawn position, so the root's untried ones are drawn
        // from one shuffled list.
        let mut untried = legal.to_vec();
        rng.shuffle(&mut untried);
        let mut scratch = self.knowledge.public.clone();
        let mut asked = |done: u64| {
            if done % STOP_CHECK_EVERY == 0 && stop() {
                Err(Refusal::NoAction(INTERRUPTED))
            } else {
                Ok(())
            }
        };
        if let Some(simulations) = self.options.simulations {
            for done in 0..simulations {
                asked(done + 1)?;
                self.simulate(&mut untried, rng, &mut scratch)?;
            }
            return Ok(simulations);
        }
        let deadline =
            Instant::now() + Duration::from_secs_f64(self.options.seconds.clamp(0.0, 3600.0));
        let mut done = 0;
        loop {
            for _ in 0..TIME_CHECK_EVERY {
                self.simulate(&mut untried, rng, &mut scratch)?;
            }
            done += TIME_CHECK_EVERY;
            asked(done)?;
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
        rng: &mut Twister,
        state: &mut State,
    ) -> Result<(), Refusal> {
        let c = self.options.exploration;
        let searcher = self.knowledge.seat;
        let (mut action, mut node, mut expanded, root_at) = if let Some(action) = untried.pop() {
            let id = self.add_node(searcher);
            self.root_children.push((action, id));
            self.root_means.push(0.0);
            self.root_sqrt_visits.push(0.0);
            self.root_totals.push(vec![0.0; self.r.players]);
            (action, id, true, self.root_children.len() - 1)
        } else {
            // Every root action is available in every drawn position: one logarithm for all. The value is
            // `total / visits + exploration / sqrt(visits)`, its two parts as they were kept.
            let exploration = c * (self.root_visits as f64).ln().sqrt();
            let (mut best_at, mut best_value) = (usize::MAX, -1.0);
            for (at, (&mean, &sqrt_visits)) in self
                .root_means
                .iter()
                .zip(&self.root_sqrt_visits)
                .enumerate()
            {
                let value = mean + exploration / sqrt_visits;
                if value > best_value {
                    best_at = at;
                    best_value = value;
                }
            }
            let Some(&(action, id)) = self.root_children.get(best_at) else {
                return Err(Refusal::NoAction("the search found no action at the root"));
            };
            (action, id, false, best_at)
        };
        let mut world_rng = self.draw(self.nodes[node as usize].visits, rng, state);
        reference::apply(self.r, state, action);
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
            if let Some(unexpanded) = self.unexpanded_choice(node, state, &mut world_rng, rng)? {
                action = unexpanded;
                node = self.expand(node, action, chooser);
                expanded = true;
            } else {
                let (mut best, mut best_value) = ((self.legal[0], u32::MAX), -1.0);
                let logarithms = &mut self.logarithms;
                for (&candidate, &id) in self.legal.iter().zip(&self.child_ids) {
                    let child = &mut self.nodes[id as usize];
                    child.available += 1;
                    let visits = child.visits as f64;
                    let value =
                        child.mean + c * (logarithm(logarithms, child.available) / visits).sqrt();
                    if value > best_value {
                        best = (candidate, id);
                        best_value = value;
                    }
                }
                action = best.0;
                node = best.1;
            }
            reference::apply(self.r, state, action);
            path.push(node);
        }
        self.play_out(state, policy(&mut world_rng, rng), searcher)?;
        for &visited in &path {
            let node = &mut self.nodes[visited as usize];
            node.visits += 1;
            node.total += self.returns[node.seat];
            node.mean = node.total / node.visits as f64;
        }
        // The root child's kept value parts (`path[0]` is the root child chosen above).
        let child = &self.nodes[path[0] as usize];
        self.root_means[root_at] = child.mean;
        self.root_sqrt_visits[root_at] = (child.visits as f64).sqrt();
        for (total, &value) in self.root_totals[root_at].iter_mut().zip(&self.returns) {
            *total += value;
        }
        self.path = path;
        self.root_visits += 1;
        Ok(())
    }

    /// The action to expand at `node`, reached in `state`, if it has a legal action with no child yet: the quick
    /// player's answer where the node has no child at all and leaves are scored after replies (the first answer
    /// tried is the one the leaves assume; chosen without listing the actions), else one of the unexpanded
    /// actions drawn from `rng`. None when every legal action has a child: then `legal` and `child_ids` hold them.
    fn unexpanded_choice(
        &mut self,
        node: u32,
        state: &State,
        world_rng: &mut Option<Twister>,
        rng: &mut Twister,
    ) -> Result<Option<Action>, Refusal> {
        if self.options.replies && self.nodes[node as usize].children.is_empty() {
            return self
                .greedy
                .action(self.r, state, policy(world_rng, rng))
                .map(Some);
        }
        self.lists.list(self.r, state, &mut self.legal);
        if self.legal.is_empty() {
            return Err(Refusal::NoAction(
                "the search reached a position with no legal action",
            ));
        }
        // One look-up per legal action: each child's index (`UNEXPANDED` where there is none yet), and how many
        // have none.
        self.child_ids.clear();
        let mut unexpanded = 0;
        let children = &self.nodes[node as usize].children;
        for action in &self.legal {
            match children.get(action) {
                Some(&id) => self.child_ids.push(id),
                None => {
                    self.child_ids.push(UNEXPANDED);
                    unexpanded += 1;
                }
            }
        }
        if unexpanded == 0 {
            return Ok(None);
        }
        // The unexpanded actions in the legal order, one of them drawn.
        let k = (rng.random() * unexpanded as f64) as usize;
        let at = self
            .child_ids
            .iter()
            .enumerate()
            .filter(|&(_, &id)| id == UNEXPANDED)
            .nth(k)
            .map_or(0, |(at, _)| at);
        Ok(Some(self.legal[at]))
    }

    fn add_node(&mut self, seat: usize) -> u32 {
        self.nodes.push(Node::new(seat));
        (self.nodes.len() - 1) as u32
    }

    /// A new child of `node` for `action`, kept by `chooser`'s returns; its index.
    fn expand(&mut self, node: u32, action: Action, chooser: usize) -> u32 {
        let id = self.add_node(chooser);
        self.nodes[node as usize].children.insert(action, id);
        id
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
                    let action = reference::sample_action(r, state, rng)?;
                    reference::apply(r, state, action);
                }
            }
            Some(_) if self.options.replies => {
                while to_act(state, searcher) {
                    let action = self.greedy.action(r, state, rng)?;
                    reference::apply(r, state, action);
                }
                while state.phase != OVER && !to_act(state, searcher) {
                    let action = self.greedy.action(r, state, rng)?;
                    reference::apply(r, state, action);
                }
                let share = self.options.finish;
                if share > 0.0 && state.phase != OVER {
                    // The estimate, then the game played to its end by the same quick player, weighed together.
                    self.evaluate(state);
                    self.estimated.clear();
                    self.estimated.extend_from_slice(&self.returns);
                    while state.phase != OVER {
                        let action = self.greedy.action(r, state, rng)?;
                        reference::apply(r, state, action);
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
                    let action = reference::sample_action(r, state, rng)?;
                    reference::apply(r, state, action);
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

/// `ln(k)`, from `known` (the logarithms of 0, 1, 2, ... worked out so far, grown as needed): the same number as
/// `(k as f64).ln()`, worked out once per count.
#[inline]
fn logarithm(known: &mut Vec<f64>, k: u64) -> f64 {
    let k = k as usize;
    while known.len() <= k {
        known.push((known.len() as f64).ln());
    }
    known[k]
}

/// The generator a simulation's replies and playout draw from: its world's, or the bot's.
fn policy<'a>(world: &'a mut Option<Twister>, bot: &'a mut Twister) -> &'a mut Twister {
    match world {
        Some(generator) => generator,
        None => bot,
    }
}
