//! Positions counted by result.

use crate::value::Value;

/// Positions counted by their result for the side to move: the one tally
/// every table header, summary and census uses.
///
/// A table of margins counts a positive margin as a win, a negative one as
/// a loss and zero as a draw.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Tally {
    /// Won (or with a positive margin).
    pub wins: u64,
    /// Lost (or with a negative margin).
    pub losses: u64,
    /// Drawn (or with a zero margin).
    pub draws: u64,
}

impl Tally {
    /// The positions counted.
    pub fn positions(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Counts one position of value `value`.
    pub fn add(&mut self, value: Value) {
        match value {
            Value::Win(_) => self.wins += 1,
            Value::Loss(_) => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
    }

    /// Counts one position whose side to move can force `margin`.
    pub fn add_margin(&mut self, margin: i8) {
        match margin.signum() {
            1 => self.wins += 1,
            -1 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// Both tallies together.
    #[must_use]
    pub fn merge(self, other: Tally) -> Tally {
        Tally { wins: self.wins + other.wins, losses: self.losses + other.losses, draws: self.draws + other.draws }
    }

    /// Every count times `factor` (a tally over symmetric pairs, say).
    #[must_use]
    pub fn times(self, factor: u64) -> Tally {
        Tally { wins: factor * self.wins, losses: factor * self.losses, draws: factor * self.draws }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Plies;

    #[test]
    fn a_tally_counts_each_result_once() {
        let mut tally = Tally::default();
        for value in [Value::Win(Plies(3)), Value::Loss(Plies(0)), Value::Draw, Value::Win(Plies(1))] {
            tally.add(value);
        }
        for margin in [-2, 0, 5] {
            tally.add_margin(margin);
        }
        assert_eq!(tally, Tally { wins: 3, losses: 2, draws: 2 });
        assert_eq!(tally.positions(), 7);
        assert_eq!(tally.merge(tally).times(2).positions(), 28);
    }
}
