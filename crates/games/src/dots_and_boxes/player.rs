//! The computer player's choice of line.

use rand::{Rng, RngExt};
use solved_engine::TableError;

use super::{Line, Position, Scorer};

impl Scorer<'_> {
    /// The computer player's line at `pos` (which must have one): a best
    /// line, preferring one that takes a box, then one that leaves the next
    /// player the fewest best replies (the most chances to go wrong), then
    /// any at random.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the table cannot be read.
    pub fn choose(&self, pos: &Position, rng: &mut impl Rng) -> Result<Line, TableError> {
        let mut candidates: Vec<(Line, bool, usize)> = Vec::new();
        for s in self.line_scores(pos)?.into_iter().filter(|s| s.best) {
            let child = self.board().play(pos, s.line).expect("a scored line is undrawn");
            let replies = self.line_scores(&child)?.iter().filter(|r| r.best).count();
            candidates.push((s.line, s.takes > 0, replies));
        }
        let preferred = |&(_, takes, replies): &(Line, bool, usize)| (std::cmp::Reverse(takes), replies);
        let key = candidates.iter().map(preferred).min().expect("a position with a move has a best line");
        let ties: Vec<Line> = candidates.iter().filter(|c| preferred(c) == key).map(|c| c.0).collect();
        Ok(ties[rng.random_range(0..ties.len())])
    }
}
