//! The computer player's choice of line.

use rand::{Rng, RngExt};
use solved_engine::Table;
use solved_engine::table::Margin;

use super::{Board, Line, Position};

impl Board {
    /// The computer player's line at `pos` (which must have one): a best
    /// line, preferring one that takes a box, then one that leaves the next
    /// player the fewest best replies (the most chances to go wrong), then
    /// any at random.
    pub fn choose(&self, table: &Table<Margin>, pos: &Position, rng: &mut impl Rng) -> Line {
        let candidates: Vec<(Line, bool, usize)> = self
            .line_scores(table, pos)
            .into_iter()
            .filter(|s| s.best)
            .map(|s| {
                let child = self.play(pos, s.line).expect("a scored line is undrawn");
                let replies = self.line_scores(table, &child).iter().filter(|r| r.best).count();
                (s.line, s.takes > 0, replies)
            })
            .collect();
        let preferred = |&(_, takes, replies): &(Line, bool, usize)| (std::cmp::Reverse(takes), replies);
        let key = candidates.iter().map(preferred).min().expect("a position with a move has a best line");
        let ties: Vec<Line> = candidates.iter().filter(|c| preferred(c) == key).map(|c| c.0).collect();
        ties[rng.random_range(0..ties.len())]
    }
}
