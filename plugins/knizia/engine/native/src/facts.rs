//! What a finished game tells beyond its result (`samurai_plugins.knizia.core.facts`): here, the seat that led
//! alone in captured figures after the middle turn, as `FactsWatch` notes it.

use crate::state::State;

/// Each seat's captured total after every turn of a game, to name the seat leading alone after its middle turn
/// (as `samurai_plugins.knizia.core.facts.FactsWatch` notes them: when the turn number changes, for the turn just
/// ended).
#[derive(Default)]
pub struct TurnWatch {
    /// The turn being played.
    turn: i64,
    /// Per turn ended from turn 1 on: the turn, then each seat's total (`1 + players` numbers a turn).
    ended: Vec<i64>,
    players: usize,
}

impl TurnWatch {
    /// Watch a game of `players` seats from turn `turn` on.
    pub fn start(&mut self, turn: i64, players: usize) {
        self.turn = turn;
        self.players = players;
        self.ended.clear();
    }

    /// Note the totals of the turn just ended if `st` has moved on to another turn.
    pub fn see(&mut self, st: &State) {
        if st.turn == self.turn {
            return;
        }
        if self.turn >= 1 {
            self.ended.push(self.turn);
            for castes in st.captured.chunks_exact(3).take(self.players) {
                self.ended.push(castes[0] + castes[1] + castes[2]);
            }
        }
        self.turn = st.turn;
    }

    /// The seat alone ahead at the end of turn `last_turn / 2`, if that turn was noted and one seat leads.
    pub fn leader(&self, last_turn: i64) -> Option<usize> {
        let middle = last_turn / 2;
        let width = 1 + self.players;
        let totals = self
            .ended
            .chunks(width.max(1))
            .rev()
            .find(|row| row[0] == middle)
            .map(|row| &row[1..])?;
        let best = totals.iter().copied().max()?;
        (totals.iter().filter(|&&t| t == best).count() == 1)
            .then(|| totals.iter().position(|&t| t == best))?
    }
}
