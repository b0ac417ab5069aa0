//! What a solved table says: the final score of every line, and of the
//! start.

use solved_engine::Table;
use solved_engine::sweep::move_margin;
use solved_engine::table::Margin;

use super::{Board, Line, Position};

/// An undrawn line, scored.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct LineScore {
    /// The line.
    pub line: Line,
    /// The final score A − B if the player to move draws it now and both
    /// play perfectly after (boxes taken so far included).
    pub score: i32,
    /// Whether no other line does better for the player to move.
    pub best: bool,
    /// How many boxes it takes at once.
    pub takes: usize,
}

/// A first line of the game, scored.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct FirstMove {
    /// The line.
    pub line: Line,
    /// The final score A − B with perfect play after it.
    pub score: i32,
    /// How many of the replies (by whoever moves next) keep the best result
    /// for that player.
    pub best_replies: usize,
}

/// What a solved table says about the start of the game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// Undrawn lines at the start.
    pub lines: u32,
    /// Positions (sets of drawn lines): `2^lines`.
    pub positions: u64,
    /// The final score A − B with perfect play from the start.
    pub value: i32,
    /// Every first line.
    pub first_moves: Vec<FirstMove>,
}

impl Summary {
    /// The first lines that reach [`value`](Self::value).
    pub fn best_first_moves(&self) -> Vec<Line> {
        self.first_moves.iter().filter(|m| m.score == self.value).map(|m| m.line).collect()
    }
}

impl Board {
    /// The final score A − B from `pos` with perfect play: the boxes taken
    /// so far and the margin the player to move can force.
    pub fn value(&self, table: &Table<Margin>, pos: &Position) -> i32 {
        pos.score_so_far() + pos.turn.sign() * i32::from(table.probe_margin(pos.drawn))
    }

    /// Every undrawn line at `pos`, scored, in Wilson order.
    pub fn line_scores(&self, table: &Table<Margin>, pos: &Position) -> Vec<LineScore> {
        let mover = pos.turn;
        let mut scores: Vec<LineScore> = self
            .undrawn(pos)
            .map(|line| {
                let takes = self.completed_by(pos.drawn, line).len();
                let child = pos.drawn | 1 << self.bit(line).expect("undrawn lines are free");
                let margin = move_margin(takes as i8, table.probe_margin(child));
                LineScore { line, score: pos.score_so_far() + mover.sign() * i32::from(margin), best: false, takes }
            })
            .collect();
        let best = scores.iter().map(|s| mover.sign() * s.score).max();
        for s in &mut scores {
            s.best = Some(mover.sign() * s.score) == best;
        }
        scores
    }

    /// The scores of the first lines and of the start.
    pub fn summary(&self, table: &Table<Margin>) -> Summary {
        let start = self.start();
        let first_moves = self
            .line_scores(table, &start)
            .into_iter()
            .map(|first| {
                let child = self.play(&start, first.line).expect("a scored line is undrawn");
                let best_replies = self.line_scores(table, &child).iter().filter(|r| r.best).count();
                FirstMove { line: first.line, score: first.score, best_replies }
            })
            .collect();
        Summary {
            lines: self.free_line_count(),
            positions: 1 << self.free_line_count(),
            value: self.value(table, &start),
            first_moves,
        }
    }
}
