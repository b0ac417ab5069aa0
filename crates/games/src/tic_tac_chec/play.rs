//! Tic-Tac-Chec against the computer: each move's worth from the table
//! (for the levels, the marks and `solved match`), and the game in the
//! terminal.

use std::fmt::Write;
use std::sync::Arc;

use anyhow::Context;

use solved_engine::{DenseIndex, Value, Values};

use super::{Color, Move, PawnRule, Piece, Position, ProbeValues, TicTacChec};
use crate::front::{self, Opponent, Playable, Seat};
use crate::levels::Contest;
use crate::levels::Worth;
use crate::params::Params;
use crate::puzzles::Notation;

/// A pawn rule and its solved values: what each move is worth.
pub(super) struct Judge {
    pub(super) game: TicTacChec,
    pub(super) values: Arc<ProbeValues>,
}

impl Judge {
    fn ranked(&self, pos: &Position) -> Vec<(Move, Value, Position)> {
        if pos.is_over() { Vec::new() } else { self.game.ranked_moves(pos, &*self.values) }
    }
}

impl Contest for Judge {
    type Position = Position;

    fn start(&self) -> Position {
        Position::empty()
    }

    fn first_to_move(&self, pos: &Position) -> bool {
        pos.turn() == Color::White
    }

    fn moves(&self, pos: &Position) -> anyhow::Result<Vec<(Worth, Position)>> {
        Ok(self.ranked(pos).into_iter().map(|(_, value, child)| (Worth::of_value(value), child)).collect())
    }

    /// As the table has it: a line made, or no move left.
    fn final_score(&self, pos: &Position) -> i32 {
        let for_mover = match self.values.probe(self.game.index(pos)) {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            Value::Draw => 0,
        };
        if self.first_to_move(pos) { for_mover } else { -for_mover }
    }
}

impl Notation for Judge {
    fn position_text(&self, _: &[String], pos: &Position) -> String {
        pos.to_string()
    }

    fn move_text(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        let ranked = self.ranked(pos);
        Ok(ranked.iter().find(|r| r.2 == *next).context("no move leads there")?.0.to_string())
    }
}

/// A game against the computer.
pub(super) struct Session {
    judge: Judge,
    seat: Seat<Color>,
}

impl Session {
    /// A game under `game`'s pawn rule read from `values`, the side, the
    /// level, the seed and the hints as `params` ask.
    pub(super) fn start(
        game: TicTacChec,
        values: Arc<ProbeValues>,
        params: &Params,
    ) -> anyhow::Result<Box<dyn front::Session>> {
        let seat = Seat::from_params(params)?;
        Ok(front::session(Session { judge: Judge { game, values }, seat }, Opponent::from_params(params)?))
    }
}

/// The position as a board, rank 4 at the top, with the pieces in hand.
fn diagram(pos: &Position) -> String {
    let mut text = String::new();
    let notation = pos.to_string();
    let ranks = notation.split(' ').next().unwrap_or_default();
    for (rank, row) in (1..=4).rev().zip(ranks.split('/')) {
        let squares: Vec<String> = row.chars().map(String::from).collect();
        let _ = writeln!(text, "{rank} {}", squares.join(" "));
    }
    text.push_str("  a b c d\n");
    for color in [Color::White, Color::Black] {
        let hand: Vec<String> = (0..8)
            .map(Piece::from_slot)
            .filter(|p| p.color == color && pos.square_of(*p).is_none())
            .map(|p| p.role.letter().to_string())
            .collect();
        let _ = writeln!(text, "{color} in hand: {}", if hand.is_empty() { "-".into() } else { hand.join(" ") });
    }
    text
}

impl Playable for Session {
    type Judge = Judge;

    fn judge(&self) -> &Judge {
        &self.judge
    }

    fn intro(&self) -> String {
        let rule = match self.judge.game.rule() {
            PawnRule::Travel => "a pawn turns back at the far edge and captures diagonally either way",
            PawnRule::Outbound => "a pawn turns back at the far edge and only pushes on the way home",
        };
        format!(
            "Tic-Tac-Chec ({} pawns: {rule}). You are {}; White moves first. Four in a row of your own pieces wins. \
             Place a piece from your hand like N@c2, move one like a1-b2 (a knight's, bishop's, rook's or pawn's move, \
             capturing by moving onto a piece, which goes back to its owner's hand). Type 'hint' or 'quit'. \
             White's pieces are capitals, Black's small letters.",
            self.judge.game.rule().id(),
            self.seat.human
        )
    }

    fn hinted(&self) -> bool {
        self.seat.hints
    }

    fn show(&self, pos: &Position, hints: bool, repeated: u32) -> anyhow::Result<String> {
        let mut text = diagram(pos);
        if repeated == 3 && !pos.is_over() {
            let value = self.judge.values.probe(self.judge.game.index(pos));
            let _ =
                writeln!(text, "This position has now occurred three times: with best play from here it is {value}.");
        }
        if hints {
            let _ = writeln!(text, "{}", self.hints(pos)?);
        }
        Ok(text)
    }

    fn result(&self, pos: &Position) -> Option<String> {
        if !pos.is_over() && !self.judge.ranked(pos).is_empty() {
            return None;
        }
        let winner = match self.judge.final_score(pos) {
            1 => Color::White,
            -1 => Color::Black,
            _ => return Some("The game is over: a draw.".into()),
        };
        let how = if pos.is_over() { "four in a row" } else { "no move left for the other side" };
        Some(format!("{winner} wins: {how}."))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.seat.human
    }

    fn said(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        let value = Value::of_move_into(self.judge.values.probe(self.judge.game.index(next)));
        Ok(format!("{} plays {} ({value})", pos.turn(), self.judge.move_text(pos, next)?))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let hints: Vec<String> = self.judge.ranked(pos).iter().map(|(m, v, _)| format!("{m} {v}")).collect();
        Ok(format!("moves (best first): {}", hints.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let m = text.parse::<Move>().map_err(|e| e.to_string())?;
        match pos.legal_moves(self.judge.game.rule()).contains(&m) {
            true => Ok(pos.play_unchecked(m)),
            false => Err(format!("{m} is not a legal move here")),
        }
    }
}
