//! Glue to the engine's sweep solver, scores of lines, and the computer
//! player.

use rand::{Rng, RngExt};
use solved_engine::retrograde::SolveError;
use solved_engine::sweep::{self, Scores};
use solved_engine::table::{Encoding, TableKey};
use solved_engine::{Progress, Table};

use super::{Board, Line, Player, Position};

/// The version of the table layout (bit order of the free lines), recorded
/// in table headers: bump it whenever a line moves to another bit.
const INDEX_VERSION: u32 = 1;

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
    /// The number of undrawn lines at the start, the table's bits.
    pub fn free_line_count(&self) -> u32 {
        self.free.len() as u32
    }

    /// Each box as the set (bits) of its undrawn sides; boxes the variant
    /// closes entirely are left out.
    pub fn groups(&self) -> Vec<u64> {
        self.boxes()
            .map(|b| b.sides().iter().filter_map(|&side| self.bit(side)).fold(0, |mask, bit| mask | 1 << bit))
            .filter(|&mask| mask != 0)
            .collect()
    }

    /// What the table of this board is called and holds.
    pub fn table_key(&self) -> TableKey {
        TableKey {
            game: "dots-and-boxes".into(),
            variant: self.variant.id().into(),
            size: format!("{}x{}", self.rows, self.cols),
            index_version: INDEX_VERSION,
            encoding: Encoding::Score,
            positions: 1 << self.free_line_count(),
        }
    }

    /// Scores every set of drawn lines.
    ///
    /// # Errors
    ///
    /// As for [`sweep::solve`].
    pub fn solve(&self, progress: &dyn Progress) -> Result<Scores, SolveError> {
        sweep::solve(self.free_line_count(), &self.groups(), progress)
    }

    /// The final score A − B from `pos` with perfect play.
    pub fn value(&self, table: &Table, pos: &Position) -> i32 {
        pos.score_so_far() + pos.to_move.sign() * i32::from(table.probe_score(u64::from(pos.drawn)))
    }

    /// Every undrawn line at `pos`, scored, in Wilson order.
    pub fn line_scores(&self, table: &Table, pos: &Position) -> Vec<LineScore> {
        let mover = pos.to_move;
        let mut scores: Vec<LineScore> = self
            .undrawn(pos)
            .map(|line| {
                let takes = self.completed_by(pos.drawn, line).len();
                let child = pos.drawn | 1 << self.bit(line).expect("undrawn lines are free");
                let future = i32::from(table.probe_score(u64::from(child)));
                let margin = if takes > 0 { takes as i32 + future } else { -future };
                LineScore { line, score: pos.score_so_far() + mover.sign() * margin, best: false, takes }
            })
            .collect();
        let best = scores.iter().map(|s| mover.sign() * s.score).max();
        for s in &mut scores {
            s.best = Some(mover.sign() * s.score) == best;
        }
        scores
    }

    /// The scores of the first lines and of the start.
    pub fn summary(&self, table: &Table) -> Summary {
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

    /// The computer player's line at `pos` (which must have one): a best
    /// line, preferring one that takes a box, then one that leaves the next
    /// player the fewest best replies (the most chances to go wrong), then
    /// any at random.
    pub fn choose(&self, table: &Table, pos: &Position, rng: &mut impl Rng) -> Line {
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

    /// Whether the game is over at `pos`.
    pub fn is_over(&self, pos: &Position) -> bool {
        self.undrawn(pos).next().is_none()
    }

    /// The player who wins at the end, or `None` for a tie.
    pub fn winner(&self, pos: &Position) -> Option<Player> {
        match pos.score_so_far().signum() {
            1 => Some(Player::A),
            -1 => Some(Player::B),
            _ => None,
        }
    }
}
