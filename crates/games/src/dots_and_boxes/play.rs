//! Dots and Boxes in the terminal against the perfect player.

use std::sync::Arc;

use solved_engine::Table;

use super::answers::{LOONY_KEY, describe, outcome};
use super::quiet::{QuietOutcomes, QuietTable};
use super::wilson::Loony;
use super::{Board, Player, Position, Scorer};
use crate::front::{self, Playable, Seat};
use crate::params::Params;

/// A game against the perfect player.
pub(super) struct Session {
    board: Board,
    quiet: QuietTable,
    table: Arc<Table<QuietOutcomes>>,
    seat: Seat<Player>,
}

impl Session {
    /// A game on `board` read from its quiet table, the side, the seed and
    /// the hints as `params` ask.
    pub(super) fn start(
        board: Board,
        quiet: QuietTable,
        table: Arc<Table<QuietOutcomes>>,
        params: &Params,
    ) -> anyhow::Result<Box<dyn front::Session>> {
        let seat = Seat::from_params(params)?;
        Ok(front::session(Session { board, quiet, table, seat }))
    }

    fn scorer(&self) -> Scorer<'_> {
        Scorer::new(&self.quiet, &self.table)
    }
}

impl Playable for Session {
    type Position = Position;

    fn intro(&self) -> String {
        format!(
            "{}. You are {}; A moves first. Draw a line by its name in Wilson's notation \
             (row letter then column letter of the text grid, a at the top left: ab is the top-left \
             horizontal line, ba the top-left vertical one). Completing a box takes it and you move again. \
             Type 'hint' for the scores of every line, or 'quit'.",
            describe(&self.board),
            self.seat.human
        )
    }

    fn start(&self) -> Position {
        self.board.start()
    }

    fn hinted(&self) -> bool {
        self.seat.hints
    }

    fn show(&self, pos: &Position, hints: bool, _: u32) -> anyhow::Result<String> {
        let scores = if hints { self.scorer().line_scores(pos)? } else { Vec::new() };
        Ok(format!("{}score {:+}\n", self.board.diagram(pos, &scores), pos.score_so_far()))
    }

    fn result(&self, pos: &Position) -> Option<String> {
        if !self.board.is_over(pos) {
            return None;
        }
        let result = match self.board.winner(pos) {
            Some(player) => format!("{player} wins"),
            None => "a tie".into(),
        };
        Some(format!("Game over: {result}, {}.", outcome(pos.score_so_far())))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.seat.human
    }

    fn computer(&mut self, pos: &Position) -> anyhow::Result<(Position, String)> {
        let line = Scorer::new(&self.quiet, &self.table).choose(pos, &mut self.seat.rng)?;
        let takes = self.board.completed_by(pos.drawn(), line).len();
        let note = if takes > 0 { format!(", taking {takes}") } else { String::new() };
        let child = self.board.play(pos, line).expect("the computer draws an undrawn line");
        Ok((child, format!("{} draws {line}{note}", pos.turn())))
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
        let line = self.board.line_named(text).map_err(|e| e.to_string())?;
        self.board.play(pos, line).map_err(|e| e.to_string())
    }
}
