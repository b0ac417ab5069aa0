//! Dots and Boxes against the computer: each line's worth from the quiet
//! table (for the levels, the marks and `solved match`), and the game in
//! the terminal.

use std::sync::Arc;

use anyhow::Context;

use rand::rngs::StdRng;
use solved_engine::Table;

use super::answers::{LOONY_KEY, describe, outcome};
use super::quiet::{QuietOutcomes, QuietTable};
use super::wilson::Loony;
use super::{Board, Line, Player, Position, Scorer};
use crate::front::{self, Opponent, Playable, Seat};
use crate::levels::Contest;
use crate::levels::{Level, Worth};
use crate::params::Params;
use crate::puzzles::Notation;

/// A board and its quiet table: what each line is worth.
pub(super) struct Judge {
    pub(super) board: Board,
    pub(super) quiet: QuietTable,
    pub(super) table: Arc<Table<QuietOutcomes>>,
}

impl Judge {
    pub(super) fn scorer(&self) -> Scorer<'_> {
        Scorer::new(&self.quiet, &self.table)
    }

    /// The line drawn from `pos` to `next`, if one is.
    pub(super) fn line_between(&self, pos: &Position, next: &Position) -> Option<Line> {
        self.board.undrawn(pos).find(|&line| self.board.play(pos, line).is_ok_and(|child| child == *next))
    }
}

impl Contest for Judge {
    type Position = Position;

    fn start(&self) -> Position {
        self.board.start()
    }

    fn first_to_move(&self, pos: &Position) -> bool {
        pos.turn() == Player::A
    }

    fn moves(&self, pos: &Position) -> anyhow::Result<Vec<(Worth, Position)>> {
        let sign = if pos.turn() == Player::A { 1 } else { -1 };
        let scores = self.scorer().line_scores(pos)?;
        Ok(scores
            .into_iter()
            .map(|s| {
                let child = self.board.play(pos, s.line).expect("a scored line is undrawn");
                (Worth::of_score(sign * s.score, self.board.is_over(&child)), child)
            })
            .collect())
    }

    fn final_score(&self, pos: &Position) -> i32 {
        pos.score_so_far()
    }

    fn has_scores(&self) -> bool {
        true
    }

    /// The perfect player prefers, among the best lines, one that takes a
    /// box, then one that leaves the fewest best replies.
    fn choose(&self, level: Level, pos: &Position, rng: &mut StdRng) -> anyhow::Result<Option<Position>> {
        if level != Level::Perfect || self.board.is_over(pos) {
            return Ok(level.pick_move(self.moves(pos)?, rng));
        }
        let line = self.scorer().choose(pos, rng)?;
        Ok(Some(self.board.play(pos, line).expect("the computer draws an undrawn line")))
    }
}

impl Notation for Judge {
    /// A position of Dots and Boxes is named by its lines in the order
    /// drawn, which says who took each box.
    fn position_text(&self, line: &[String], _: &Position) -> String {
        line.join(",")
    }

    fn move_text(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        Ok(self.line_between(pos, next).context("no line leads there")?.to_string())
    }
}

/// A game against the computer.
pub(super) struct Session {
    judge: Judge,
    seat: Seat<Player>,
}

impl Session {
    /// A game on `board` read from its quiet table, the side, the level,
    /// the seed and the hints as `params` ask.
    pub(super) fn start(
        board: Board,
        quiet: QuietTable,
        table: Arc<Table<QuietOutcomes>>,
        params: &Params,
    ) -> anyhow::Result<Box<dyn front::Session>> {
        let seat = Seat::from_params(params)?;
        Ok(front::session(Session { judge: Judge { board, quiet, table }, seat }, Opponent::from_params(params)?))
    }

    fn scorer(&self) -> Scorer<'_> {
        self.judge.scorer()
    }
}

impl Playable for Session {
    type Judge = Judge;

    fn judge(&self) -> &Judge {
        &self.judge
    }

    fn intro(&self) -> String {
        format!(
            "{}. You are {}; A moves first. Draw a line by its name in Wilson's notation \
             (row letter then column letter of the text grid, a at the top left: ab is the top-left \
             horizontal line, ba the top-left vertical one). Completing a box takes it and you move again. \
             Type 'hint' for the scores of every line, or 'quit'.",
            describe(&self.judge.board),
            self.seat.human
        )
    }

    fn hinted(&self) -> bool {
        self.seat.hints
    }

    fn show(&self, pos: &Position, hints: bool, _: u32) -> anyhow::Result<String> {
        let scores = if hints { self.scorer().line_scores(pos)? } else { Vec::new() };
        Ok(format!("{}score {:+}\n", self.judge.board.diagram(pos, &scores), pos.score_so_far()))
    }

    fn result(&self, pos: &Position) -> Option<String> {
        if !self.judge.board.is_over(pos) {
            return None;
        }
        let result = match self.judge.board.winner(pos) {
            Some(player) => format!("{player} wins"),
            None => "a tie".into(),
        };
        Some(format!("Game over: {result}, {}.", outcome(pos.score_so_far())))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.seat.human
    }

    fn said(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        let line = self.judge.line_between(pos, next).expect("the computer draws an undrawn line");
        let takes = self.judge.board.completed_by(pos.drawn(), line).len();
        let note = if takes > 0 { format!(", taking {takes}") } else { String::new() };
        Ok(format!("{} draws {line}{note}", pos.turn()))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let all: Vec<String> = self
            .scorer()
            .line_scores(pos)?
            .iter()
            .map(|s| {
                let mark = s.loony.map_or("", Loony::symbol);
                format!("{} {:+}{mark}{}", s.line, s.score, if s.best { "*" } else { "" })
            })
            .collect();
        Ok(format!("final score A - B for each line (* best; {LOONY_KEY}): {}", all.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let line = self.judge.board.line_named(text).map_err(|e| e.to_string())?;
        self.judge.board.play(pos, line).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use solved_engine::{Silent, TableStore};

    use super::*;
    use crate::dots_and_boxes::Variant;
    use crate::levels::Level;
    use crate::levels::play_out;

    /// From the start and from positions after a few random lines, the
    /// perfect player ends at least the margin its table gives it, against
    /// every level.
    #[test]
    fn perfect_never_ends_below_its_value() {
        let board = Board::new(2, 3, Variant::American).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let quiet = QuietTable::new(&board);
        let table = crate::tables::obtain(&quiet, &TableStore::new(dir.path()), &Silent).unwrap().0;
        let judge = Judge { board, quiet, table: Arc::new(table) };
        let mut rng = StdRng::seed_from_u64(5);
        for game in 0..300 {
            let mut pos = judge.start();
            for _ in 0..game % 9 {
                pos = judge.choose(Level::Random, &pos, &mut rng).unwrap().unwrap();
            }
            let sign = if pos.turn() == Player::A { 1 } else { -1 };
            let value = sign * judge.scorer().value(&pos).unwrap();
            for level in Level::ALL {
                let score = play_out(&judge, pos.clone(), [Level::Perfect, level], &mut rng).unwrap();
                assert!(score >= value, "{game}: {score} < {value} against {level}");
            }
        }
    }
}
