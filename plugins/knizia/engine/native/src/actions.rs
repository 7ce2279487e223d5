//! The engine's actions as numbers (the tuples of `samurai_plugins.knizia.core.actions`' fast path, which
//! `samurai_plugins.knizia.engine.reference` plays) and why the engine may refuse one.

/// An action: the Python engine's tuples `(CHOOSE, tile)`, `(FIGURE, caste, settlement)`, `(PLACE, tile, hex)`,
/// `(SPECIAL, tile, *targets)` and `(END,)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Choose(usize),
    Figure(usize, usize),
    Place(usize, usize),
    /// A special tile and its targets: Move `(source, target)`, Switch `(s1, c1, s2, c2)`.
    Special(usize, [usize; 4], u8),
    End,
}

impl std::hash::Hash for Action {
    /// The fields packed into one word, so a hasher mixes once per action (the search looks up every legal
    /// action of every node it walks through). Equal actions pack equally; for the small numbers of a board the
    /// packing is also one to one, and where it is not, equality still tells the actions apart.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let packed = match *self {
            Action::Choose(tile) => 1 ^ (tile << 3),
            Action::Figure(caste, settlement) => 2 ^ (caste << 3) ^ (settlement << 8),
            Action::Place(tile, h) => 3 ^ (tile << 3) ^ (h << 10),
            Action::Special(tile, [a, b, c, d], n) => {
                4 ^ (tile << 3)
                    ^ (a << 10)
                    ^ (b << 20)
                    ^ (c.rotate_left(30))
                    ^ (d.rotate_left(40))
                    ^ (usize::from(n).rotate_left(50))
            }
            Action::End => 5,
        };
        state.write_u64(packed as u64);
    }
}

/// The action kinds' numbers in a tuple.
pub const CHOOSE: u64 = 0;
/// See [`CHOOSE`].
pub const FIGURE: u64 = 1;
/// See [`CHOOSE`].
pub const PLACE: u64 = 2;
/// See [`CHOOSE`].
pub const SPECIAL: u64 = 3;
/// See [`CHOOSE`].
pub const END: u64 = 4;

impl Action {
    /// The action as the Python engine's tuple of numbers.
    pub fn numbers(&self) -> Vec<u64> {
        match *self {
            Action::Choose(t) => vec![CHOOSE, t as u64],
            Action::Figure(c, s) => vec![FIGURE, c as u64, s as u64],
            Action::Place(t, h) => vec![PLACE, t as u64, h as u64],
            Action::Special(t, params, len) => {
                let mut out = vec![SPECIAL, t as u64];
                out.extend(params[..len as usize].iter().map(|&p| p as u64));
                out
            }
            Action::End => vec![END],
        }
    }
}

/// Why the engine could not do what it was asked, where the Python engine raises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A number names a tile, hex, caste or settlement the game does not have, or targets are missing
    /// (Python: an `IndexError`, `ValueError` or `TypeError` inside `engine.check`).
    OutOfRange,
    /// There is no action to sample (Python: `ValueError` or a failed unpacking).
    NoAction(&'static str),
}

/// The action of checked numbers (`check` said None).
pub fn action_of(numbers: &[u64]) -> Action {
    let n = |i: usize| numbers.get(i).copied().unwrap_or(0) as usize;
    match numbers[0] {
        CHOOSE => Action::Choose(n(1)),
        FIGURE => Action::Figure(n(1), n(2)),
        PLACE => Action::Place(n(1), n(2)),
        SPECIAL => {
            let mut params = [0usize; 4];
            let len = (numbers.len() - 2).min(4);
            for (i, p) in params.iter_mut().enumerate().take(len) {
                *p = n(i + 2);
            }
            Action::Special(n(1), params, len as u8)
        }
        _ => Action::End,
    }
}
