//! CPython's Mersenne Twister (`random.Random`), value for value.
//!
//! The Python engine draws every random choice from a `random.Random`; the native engine must draw the
//! very same numbers from the same seed so that both engines play the same games. This is a port of
//! CPython 3.11's `Modules/_randommodule.c` (MT19937 with `init_by_array` seeding) and of the parts of
//! `Lib/random.py` the engine uses (`_randbelow` by `getrandbits` rejection and `shuffle`).

/// Words in the generator's state.
pub const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The largest `n` for which `floor(random() * n)` can reach every index: `random()` has 53 bits.
pub const MAX_INDEX_BOUND: u64 = 1 << 53;

/// Why a state could not be set: the index is outside `0..=N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidState {
    /// The index that was refused.
    pub index: usize,
}

/// The generator: 624 words and the index of the next word to temper.
#[derive(Clone)]
pub struct MersenneTwister {
    state: [u32; N],
    index: usize,
    /// How many words of the current block are twisted: CPython twists all 624 when the block starts, this
    /// twists them in order as they are drawn (a game draws a few hundred), which gives the same words.
    twisted: usize,
}

impl PartialEq for MersenneTwister {
    fn eq(&self, other: &Self) -> bool {
        self.state() == other.state()
    }
}

impl Eq for MersenneTwister {}

impl std::fmt::Debug for MersenneTwister {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MersenneTwister")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

/// MT19937's tempering of a twisted word into the number drawn.
#[inline(always)]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// Words twisted at a time as they are drawn.
const TWIST_CHUNK: usize = 32;

/// CPython's twist of words `start..end` of a block, the words before `start` twisted already.
fn twist_words(mt: &mut [u32; N], start: usize, end: usize) {
    // Branch-free (`MATRIX_A` where the low bit is set), so the processor can twist several words at once.
    let mix = |upper: u32, lower: u32| {
        let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
        (y >> 1) ^ (0u32.wrapping_sub(y & 1) & MATRIX_A)
    };
    for k in start..end.min(N - M) {
        mt[k] = mt[k + M] ^ mix(mt[k], mt[k + 1]);
    }
    for k in start.max(N - M)..end.min(N - 1) {
        mt[k] = mt[k + M - N] ^ mix(mt[k], mt[k + 1]);
    }
    if start < N && end == N {
        mt[N - 1] = mt[M - 1] ^ mix(mt[N - 1], mt[0]);
    }
}

/// CPython's `init_by_array` of one key of any length.
fn seed_words(key: &[u32]) -> [u32; N] {
    let mut mt = *initial_words();
    let (mut i, mut j) = (1usize, 0usize);
    for _ in 0..N.max(key.len()) {
        let previous = mt[i - 1];
        mt[i] = (mt[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_664_525))
            .wrapping_add(key[j])
            .wrapping_add(j as u32);
        i += 1;
        j += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
        if j >= key.len() {
            j = 0;
        }
    }
    for _ in 0..N - 1 {
        let previous = mt[i - 1];
        mt[i] = (mt[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_566_083_941))
            .wrapping_sub(i as u32);
        i += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    mt[0] = 0x8000_0000;
    mt
}

/// Keys seeded side by side at most: enough independent chains to keep the processor's multipliers busy (each
/// step of one chain waits for the multiply of the step before, so a few lanes leave them idle most of the time).
pub const MAX_LANES: usize = 32;

/// `init_by_array` of `L` keys of 1 or 2 words side by side, into `out` (as many targets as keys, at most `L`):
/// the same steps as `seed_words`, written for these lengths. With a key shorter than `N`, the first loop runs `N`
/// times: over words 1 to `N - 1`, then word 1 again after the wrap; the second over words 2 to `N - 1`, then 1.
/// `added[0]` is what the first loop adds at odd word indices (`key[0]`), `added[1]` at even ones (`key[1] + 1`
/// for two words; `key[0]` again for one). Each lane's chain depends on itself only, so the lanes overlap.
/// `words` holds the first loop's words of every lane side by side (`words[i][lane]`, a row a few vectors), `N` rows
/// whatever they held before (each row is written before it is read).
fn seed_lanes<const L: usize>(
    added: [[u32; L]; 2],
    words: &mut [[u32; L]; N],
    out: &mut [&mut MersenneTwister],
) {
    let initial = initial_words();
    let mut previous = [initial[0]; L];
    let mut i = 1;
    while i + 1 < N {
        let odd = mix_row([initial[i]; L], previous, 1_664_525, added[0]);
        words[i] = odd;
        previous = mix_row([initial[i + 1]; L], odd, 1_664_525, added[1]);
        words[i + 1] = previous;
        i += 2;
    }
    // `N - 1` is odd, so the pairs end at word `N - 2`; word `N - 1` wraps to word 0, and word 1 is mixed again.
    let last = mix_row([initial[N - 1]; L], previous, 1_664_525, added[0]);
    words[N - 1] = last;
    words[1] = mix_row(words[1], last, 1_664_525, added[1]);
    // The second loop: each row final as soon as it is mixed, so it goes straight to the lanes' generators.
    let mut previous = words[1];
    for (i, row) in words.iter().enumerate().skip(2) {
        previous = mix_row(
            *row,
            previous,
            1_566_083_941,
            [0u32.wrapping_sub(i as u32); L],
        );
        for (target, &word) in out.iter_mut().zip(previous.iter()) {
            target.state[i] = word;
        }
    }
    let first = mix_row(words[1], previous, 1_566_083_941, [0u32.wrapping_sub(1); L]);
    for (target, &word) in out.iter_mut().zip(first.iter()) {
        target.state[1] = word;
        target.state[0] = 0x8000_0000;
    }
}

/// `seed_lanes` of `keys` (1 or 2 words, as many as `targets`, at most `L`), idle lanes padded.
fn seed_group<const L: usize>(
    keys: &[&[u32]],
    length: usize,
    targets: &mut [&mut MersenneTwister],
    words: &mut [[u32; L]; N],
) {
    let word = |lane: usize, k: usize| {
        keys.get(lane)
            .and_then(|key| key.get(k))
            .copied()
            .unwrap_or(0)
    };
    let added = if length == 1 {
        [std::array::from_fn(|lane| word(lane, 0)); 2]
    } else {
        [
            std::array::from_fn(|lane| word(lane, 0)),
            std::array::from_fn(|lane| word(lane, 1).wrapping_add(1)),
        ]
    };
    seed_lanes::<L>(added, words, targets);
}

thread_local! {
    /// The rows of the widest passes (every pass of a long run of games), reused by each thread: 80 KB, too much
    /// for the stack and not worth clearing each time.
    static WIDE_ROWS: std::cell::RefCell<Box<[[u32; MAX_LANES]; N]>> =
        std::cell::RefCell::new(Box::new([[0; MAX_LANES]; N]));
}

/// One seeding step of every lane: `(word ^ (p ^ (p >> 30)) * factor) + added`, `p` the lane's word before.
#[inline(always)]
fn mix_row<const L: usize>(
    row: [u32; L],
    previous: [u32; L],
    factor: u32,
    added: [u32; L],
) -> [u32; L] {
    let mut out = [0u32; L];
    for lane in 0..L {
        let p = previous[lane];
        out[lane] = (row[lane] ^ (p ^ (p >> 30)).wrapping_mul(factor)).wrapping_add(added[lane]);
    }
    out
}

/// `init_genrand(19650218)`, where every `init_by_array` starts: computed once.
fn initial_words() -> &'static [u32; N] {
    static WORDS: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| MersenneTwister::from_word(19_650_218).state)
}

impl MersenneTwister {
    /// `init_genrand`: the state from one 32-bit word (CPython seeds through `init_by_array` only).
    fn from_word(seed: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let previous = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(previous ^ (previous >> 30))
                .wrapping_add(i as u32);
        }
        MersenneTwister {
            state,
            index: N,
            twisted: N,
        }
    }

    /// `init_by_array`: the state from a key of 32-bit words, least significant first.
    ///
    /// An empty key is seeded as `[0]`, as CPython seeds the integer 0.
    pub fn from_key(key: &[u32]) -> Self {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        // One generator: the plain loop (the lanes pay for idle lanes and their rows; a search seeds one
        // generator per drawn position).
        Self::seeded(seed_words(key))
    }

    /// `from_key` of several keys at once (see `seed_all_into`).
    pub fn from_keys(keys: &[&[u32]]) -> Vec<Self> {
        let mut out = vec![Self::seeded([0; N]); keys.len()];
        let mut targets: Vec<&mut MersenneTwister> = out.iter_mut().collect();
        Self::seed_all_into(keys, &mut targets);
        out
    }

    /// Reseed `targets[k]` as `from_seed(seeds[k])` in place (no generator is moved): how a run of games reseeds
    /// the same generators game after game.
    pub fn reseed_all(targets: &mut [&mut MersenneTwister], seeds: &[u64]) {
        // The keys of `keys_of_seeds`, without a list per seed.
        let words: Vec<[u32; 2]> = seeds
            .iter()
            .map(|&seed| [seed as u32, (seed >> 32) as u32])
            .collect();
        let keys: Vec<&[u32]> = words
            .iter()
            .map(|pair| if pair[1] == 0 { &pair[..1] } else { &pair[..] })
            .collect();
        Self::seed_all_into(&keys, targets);
    }

    /// `init_by_array` of `keys[k]` into `targets[k]` (an empty key stands for `[0]`). Each generator's seeding is a
    /// chain of dependent steps, so keys of one length are seeded side by side and the processor works on the
    /// chains together (a game seeds one generator for itself and one per seat, and seeding is much of a random
    /// game's cost).
    fn seed_all_into(keys: &[&[u32]], targets: &mut [&mut MersenneTwister]) {
        let length_of = |key: &[u32]| key.len().max(1);
        let mut lengths: Vec<usize> = keys.iter().map(|key| length_of(key)).collect();
        lengths.sort_unstable();
        lengths.dedup();
        for length in lengths {
            let (mut group_keys, mut group): (Vec<&[u32]>, Vec<&mut MersenneTwister>) =
                (Vec::new(), Vec::new());
            for (key, target) in keys.iter().zip(targets.iter_mut()) {
                if length_of(key) == length {
                    group_keys.push(key);
                    group.push(&mut **target);
                }
            }
            Self::seed_keys_into(&group_keys, length, &mut group);
        }
    }

    /// `init_by_array` of keys of `length` words into `targets`: one or two words four at a time side by side,
    /// longer keys one by one.
    fn seed_keys_into(keys: &[&[u32]], length: usize, targets: &mut [&mut MersenneTwister]) {
        for target in targets.iter_mut() {
            target.index = N;
            target.twisted = N;
        }
        if length > 2 {
            for (key, target) in keys.iter().zip(targets.iter_mut()) {
                target.state = seed_words(key);
            }
            return;
        }
        // Up to `MAX_LANES` keys side by side in one pass, the last pass as narrow as its keys allow.
        for (group, group_keys) in targets.chunks_mut(MAX_LANES).zip(keys.chunks(MAX_LANES)) {
            match group.len() {
                0..=4 => seed_group::<4>(group_keys, length, group, &mut Box::new([[0; 4]; N])),
                5..=8 => seed_group::<8>(group_keys, length, group, &mut Box::new([[0; 8]; N])),
                9..=16 => seed_group::<16>(group_keys, length, group, &mut Box::new([[0; 16]; N])),
                _ => WIDE_ROWS.with(|rows| {
                    seed_group::<MAX_LANES>(group_keys, length, group, &mut rows.borrow_mut())
                }),
            }
        }
    }

    fn seeded(state: [u32; N]) -> Self {
        MersenneTwister {
            state,
            index: N,
            twisted: N,
        }
    }

    /// The keys CPython makes of whole-number seeds below 2**64.
    pub fn keys_of_seeds(seeds: &[u64]) -> Vec<Vec<u32>> {
        seeds
            .iter()
            .map(|&seed| {
                let (low, high) = (seed as u32, (seed >> 32) as u32);
                if high == 0 {
                    vec![low]
                } else {
                    vec![low, high]
                }
            })
            .collect()
    }

    /// `random.Random(seed)` for a whole-number seed: CPython seeds with the words of `abs(seed)`.
    pub fn from_seed(seed: u64) -> Self {
        let (low, high) = (seed as u32, (seed >> 32) as u32);
        if high == 0 {
            Self::from_key(&[low])
        } else {
            Self::from_key(&[low, high])
        }
    }

    /// `random.Random(seed)` for a signed seed (CPython seeds with its absolute value).
    pub fn from_signed_seed(seed: i64) -> Self {
        Self::from_seed(seed.unsigned_abs())
    }

    /// The key CPython makes of the little-endian bytes of `abs(seed)`, for seeds of any size.
    pub fn key_from_le_bytes(bytes: &[u8]) -> Vec<u32> {
        let significant = bytes
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |last| last + 1);
        let key: Vec<u32> = bytes[..significant]
            .chunks(4)
            .map(|chunk| {
                chunk
                    .iter()
                    .rev()
                    .fold(0u32, |word, &b| (word << 8) | u32::from(b))
            })
            .collect();
        if key.is_empty() {
            vec![0]
        } else {
            key
        }
    }

    /// The next 32 random bits (`genrand_uint32`).
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= self.twisted {
            self.twist_more();
        }
        let y = self.state[self.index];
        self.index += 1;
        temper(y)
    }

    /// Twist the next words of the block (starting a new block once all 624 are drawn): word `k` is CPython's
    /// `genrand_uint32` twist of it, in the same order, so words not yet twisted still hold what it reads.
    #[cold]
    #[inline(never)]
    fn twist_more(&mut self) {
        if self.index >= N {
            self.index = 0;
            self.twisted = 0;
        }
        let end = (self.twisted + TWIST_CHUNK).min(N);
        twist_words(&mut self.state, self.twisted, end);
        self.twisted = end;
    }

    /// `random()`: a float in `[0, 1)` from 53 random bits (27 of one word, 26 of the next).
    #[inline(always)]
    pub fn random(&mut self) -> f64 {
        if self.index + 2 <= self.twisted {
            // Both words twisted already (nearly always): one check for the two.
            let (a, b) = (self.state[self.index], self.state[self.index + 1]);
            self.index += 2;
            let (a, b) = (temper(a) >> 5, temper(b) >> 6);
            return (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0);
        }
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for `k` in `0..=64`: whole words least significant first, the last one cut to the
    /// bits left by dropping its low bits (as CPython does).
    ///
    /// # Panics
    /// If `k` is over 64; the Python binding refuses such a `k` before calling this.
    #[inline]
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits: k = {k} is over 64");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `_randbelow(n)`: a whole number in `[0, n)` by rejection on `getrandbits(n.bit_length())`,
    /// as CPython 3.11's `_randbelow_with_getrandbits`.
    ///
    /// # Panics
    /// If `n` is 0 (CPython loops forever there); the Python binding refuses it first.
    #[inline]
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow: n is 0");
        let k = u64::BITS - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `floor(random() * n)` (equally `int(random() * n)`): how Knizia's engine picks an index in `[0, n)`.
    ///
    /// The product is rounded as a Python float is, so the index is the one the Python engine picks.
    #[inline]
    pub fn random_index(&mut self, n: usize) -> usize {
        (self.random() * n as f64).floor() as usize
    }

    /// `shuffle(x)`: CPython's Fisher-Yates, from the last element down, each swap by `_randbelow(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// The 624 words and the index, as the middle of `getstate()`'s tuple holds them (the block twisted whole,
    /// as CPython holds it).
    pub fn state(&self) -> ([u32; N], usize) {
        let mut words = self.state;
        twist_words(&mut words, self.twisted, N);
        (words, self.index)
    }

    /// The generator of `setstate()`: refused, as CPython refuses it, if `index` is over `N`.
    pub fn from_state(state: [u32; N], index: usize) -> Result<Self, InvalidState> {
        if index > N {
            return Err(InvalidState { index });
        }
        Ok(MersenneTwister {
            state,
            index,
            twisted: N,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    // Values printed by CPython 3.11: `random.Random(s).random()` and friends.
    #[test]
    fn seeding_side_by_side_is_seeding_one_by_one() {
        let seeds: Vec<u64> = vec![
            0,
            1,
            5,
            u32::MAX as u64,
            1 << 32,
            (1 << 63) + 12_345,
            987_654_321_012,
            7,
        ];
        // Enough keys of each length for full passes of every width and a narrower last one.
        let mut seeds = seeds;
        seeds.extend((0..75u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (k % 3 * 16)));
        seeds.extend((0..21u64).map(|k| k * 1_000_003));
        let mut together = vec![MersenneTwister::from_seed(1); seeds.len()];
        let mut targets: Vec<&mut MersenneTwister> = together.iter_mut().collect();
        MersenneTwister::reseed_all(&mut targets, &seeds);
        for (seed, twister) in seeds.iter().zip(together) {
            let words = MersenneTwister::keys_of_seeds(&[*seed]).remove(0);
            assert_eq!(
                twister,
                MersenneTwister::seeded(seed_words(&words)),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn seed_zero_first_floats_match_cpython() {
        let mut rng = MersenneTwister::from_seed(0);
        assert_eq!(rng.random(), 0.8444218515250481);
        assert_eq!(rng.random(), 0.7579544029403025);
        assert_eq!(rng.random(), 0.420571580830845);
    }

    #[test]
    fn seed_42_first_float_and_bits_match_cpython() {
        let mut rng = MersenneTwister::from_seed(42);
        assert_eq!(rng.random(), 0.6394267984578837);
        let mut rng = MersenneTwister::from_seed(42);
        assert_eq!(rng.getrandbits(32), 2_746_317_213);
        let mut rng = MersenneTwister::from_seed(42);
        assert_eq!(rng.getrandbits(64), 2_053_695_854_357_871_005);
    }

    #[test]
    fn large_seed_uses_two_key_words() {
        let seed = (1u64 << 63) - 1;
        let mut rng = MersenneTwister::from_seed(seed);
        assert_eq!(rng.random(), 0.3166448820870279);
        assert_ne!(
            MersenneTwister::from_seed(1 << 32),
            MersenneTwister::from_seed(0)
        );
    }

    #[test]
    fn negative_seed_is_its_absolute_value() {
        assert_eq!(
            MersenneTwister::from_signed_seed(-7),
            MersenneTwister::from_seed(7)
        );
        assert_eq!(
            MersenneTwister::from_signed_seed(i64::MIN),
            MersenneTwister::from_seed(1 << 63)
        );
    }

    #[test]
    fn key_from_bytes_drops_high_zero_bytes() {
        assert_eq!(MersenneTwister::key_from_le_bytes(&[]), vec![0]);
        assert_eq!(MersenneTwister::key_from_le_bytes(&[0, 0]), vec![0]);
        assert_eq!(
            MersenneTwister::key_from_le_bytes(&[1, 2, 3, 4, 5, 0, 0, 0]),
            vec![0x0403_0201, 5]
        );
        let key = MersenneTwister::key_from_le_bytes(&u64::MAX.to_le_bytes());
        assert_eq!(
            MersenneTwister::from_key(&key),
            MersenneTwister::from_seed(u64::MAX)
        );
    }

    #[test]
    fn shuffle_matches_cpython() {
        // random.Random(3).shuffle(x := list(range(10))); x
        let mut items: Vec<u32> = (0..10).collect();
        MersenneTwister::from_seed(3).shuffle(&mut items);
        assert_eq!(items, vec![1, 5, 6, 0, 9, 4, 7, 2, 8, 3]);
    }

    #[test]
    fn randbelow_stays_below_and_rejects_by_bit_length() {
        let mut rng = MersenneTwister::from_seed(5);
        for n in 1..200u64 {
            assert!(rng.randbelow(n) < n);
        }
        // randbelow(1) draws getrandbits(1) until it is 0: it always consumes at least one word.
        let mut drawn = MersenneTwister::from_seed(5);
        let before = drawn.clone();
        assert_eq!(drawn.randbelow(1), 0);
        assert_ne!(drawn, before);
    }

    #[test]
    fn getrandbits_zero_draws_nothing() {
        let mut rng = MersenneTwister::from_seed(9);
        let before = rng.clone();
        assert_eq!(rng.getrandbits(0), 0);
        assert_eq!(rng, before);
    }

    #[test]
    fn random_index_is_floor_of_the_product() {
        let mut a = MersenneTwister::from_seed(11);
        let mut b = a.clone();
        for n in 1..500usize {
            assert_eq!(a.random_index(n), (b.random() * n as f64).floor() as usize);
        }
    }

    #[test]
    fn state_round_trip_continues_the_same_sequence() {
        let mut rng = MersenneTwister::from_seed(123);
        for _ in 0..1000 {
            rng.next_u32();
        }
        let (words, index) = rng.state();
        let mut copy = MersenneTwister::from_state(words, index).unwrap();
        for _ in 0..2000 {
            assert_eq!(copy.next_u32(), rng.next_u32());
        }
        assert_eq!(
            MersenneTwister::from_state([0; N], N + 1),
            Err(InvalidState { index: N + 1 })
        );
    }
}
