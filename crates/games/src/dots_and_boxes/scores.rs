//! What a solved board says: the final score of every line, who must make
//! the next loony move after it, and the value of the start.

use solved_engine::{Table, TableError};

use super::quiet::{NextLoony, Outcome, QuietOutcomes, QuietProbe, QuietTable};
use super::wilson::Loony;
use super::{Board, Line, Player, Position};

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
    /// Who must make the next loony move after it (it included), with best
    /// play; `None` if neither can be made to.
    pub loony: Option<Loony>,
}

/// A first line of the game, scored.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct FirstMove {
    /// The line.
    pub line: Line,
    /// The final score A − B with perfect play after it.
    pub score: i32,
    /// Who must make the next loony move after it.
    pub loony: Option<Loony>,
    /// How many of the replies (by whoever moves next) keep the best result
    /// for that player.
    pub best_replies: usize,
}

/// What a solved table says about the start of the game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// Undrawn lines at the start.
    pub lines: u32,
    /// Quiet positions stored, before symmetry.
    pub quiet_positions: u64,
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

/// Scores a board's positions by reading its quiet table.
#[derive(Debug)]
pub struct Scorer<'a> {
    board: &'a Board,
    probe: QuietProbe<'a>,
}

impl<'a> Scorer<'a> {
    /// Reads `table`, the quiet table of `quiet`.
    pub fn new(quiet: &'a QuietTable, table: &'a Table<QuietOutcomes>) -> Scorer<'a> {
        Scorer { board: quiet.board(), probe: QuietProbe::new(quiet.quiet(), table) }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.board
    }

    fn mask(&self, pos: &Position) -> u64 {
        self.probe.layout().mask_of(pos.drawn)
    }

    /// The final score A − B from `pos` with perfect play: the boxes taken
    /// so far and the margin the player to move can force.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the table cannot be read.
    pub fn value(&self, pos: &Position) -> Result<i32, TableError> {
        let outcome = self.probe.outcome(self.mask(pos))?;
        Ok(pos.score_so_far() + pos.turn.sign() * i32::from(outcome.margin()))
    }

    /// Every undrawn line at `pos`, scored, in Wilson order.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the table cannot be read.
    pub fn line_scores(&self, pos: &Position) -> Result<Vec<LineScore>, TableError> {
        let mover = pos.turn;
        let mask = self.mask(pos);
        let layout = self.probe.layout();
        let mut scores = Vec::new();
        for line in self.board.undrawn(pos) {
            let bit = layout.bit(line).expect("a board's line is in its layout");
            let outcome = self.probe.move_outcome(mask, bit)?;
            scores.push(LineScore {
                line,
                score: pos.score_so_far() + mover.sign() * i32::from(outcome.margin()),
                best: false,
                takes: self.board.completed_by(pos.drawn, line).len(),
                loony: who_must(mover, outcome),
            });
        }
        let best = scores.iter().map(|s| mover.sign() * s.score).max();
        for s in &mut scores {
            s.best = Some(mover.sign() * s.score) == best;
        }
        Ok(scores)
    }

    /// The scores of the first lines and of the start.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the table cannot be read.
    pub fn summary(&self) -> Result<Summary, TableError> {
        let start = self.board.start();
        let mut first_moves = Vec::new();
        for first in self.line_scores(&start)? {
            let child = self.board.play(&start, first.line).expect("a scored line is undrawn");
            let best_replies = self.line_scores(&child)?.iter().filter(|r| r.best).count();
            first_moves.push(FirstMove { line: first.line, score: first.score, loony: first.loony, best_replies });
        }
        Ok(Summary {
            lines: self.board.free_line_count(),
            quiet_positions: self.probe.quiet_positions(),
            value: self.value(&start)?,
            first_moves,
        })
    }
}

/// Who must make the next loony move, as a player, after a move by `mover`
/// worth `outcome` to him.
fn who_must(mover: Player, outcome: Outcome) -> Option<Loony> {
    let player = match outcome.next_loony() {
        NextLoony::Mover => mover,
        NextLoony::Opponent => mover.other(),
        NextLoony::Nobody => return None,
    };
    Some(match player {
        Player::A => Loony::A,
        Player::B => Loony::B,
    })
}
