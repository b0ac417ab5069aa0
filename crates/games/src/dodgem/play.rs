//! Dodgem in the terminal against the perfect player.

use std::fmt::Write;

use solved_engine::Value;

use super::answers::{board, describe};
use super::{Dodgem, DodgemValues, Ending, Move, Objective, Player, Position};
use crate::front::{self, Playable, Seat};
use crate::params::Params;
use crate::player::choose;

/// A game against the perfect player.
pub(super) struct Session {
    game: Dodgem,
    values: DodgemValues,
    seat: Seat<Player>,
}

impl Session {
    /// A game of `game` read from `values`, the side, the seed and the
    /// hints as `params` ask.
    pub(super) fn start(
        game: Dodgem,
        values: DodgemValues,
        params: &Params,
    ) -> anyhow::Result<Box<dyn front::Session>> {
        let seat = Seat::from_params(params)?;
        Ok(front::session(Session { game, values, seat }))
    }
}

impl Playable for Session {
    type Position = Position;

    fn intro(&self) -> String {
        format!(
            "Dodgem {0}x{0} ({1}). You are {2}; Blue moves first. Blue moves right, up or down and leaves off the right edge; \
             Red moves up, left or right and leaves off the top. Type a move like a3-b3 or c3-off, 'hint', or 'quit'.",
            self.game.size(),
            self.game.objective().id(),
            self.seat.human
        )
    }

    fn start(&self) -> Position {
        self.game.start()
    }

    fn hinted(&self) -> bool {
        self.seat.hints
    }

    fn show(&self, pos: &Position, hints: bool, repeated: u32) -> anyhow::Result<String> {
        let mut text = board(pos);
        if repeated == 3 && !self.game.is_over(pos) {
            let value = self.values.value(&self.game, pos)?;
            let _ = writeln!(
                text,
                "This position has now occurred three times: with best play from here the game is {}.",
                describe(value)
            );
        }
        if hints {
            let _ = writeln!(text, "{}", self.hints(pos)?);
        }
        Ok(text)
    }

    fn result(&self, pos: &Position) -> Option<String> {
        let outcome = self.game.outcome(pos)?;
        let reason = match outcome.reason {
            Ending::AllCarsOff(player) => format!("{player} has no cars left on the board"),
            Ending::NoMove(player) => format!("{player} has no legal move"),
        };
        let rules = match self.game.objective() {
            Objective::Normal => "",
            Objective::Misere => " (misère)",
        };
        Some(format!("{reason}: {} wins{rules}.", outcome.winner))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.seat.human
    }

    fn computer(&mut self, pos: &Position) -> anyhow::Result<(Position, String)> {
        let ranked = self.values.ranked_moves(&self.game, pos)?;
        let values: Vec<Value> = ranked.iter().map(|r| r.1).collect();
        let (m, value, child) = ranked[choose(&values, &mut self.seat.rng).expect("the game is not over")];
        Ok((child, format!("{} plays {m} ({value})", pos.turn())))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let hints: Vec<String> =
            self.values.ranked_moves(&self.game, pos)?.iter().map(|(m, v, _)| format!("{m} {v}")).collect();
        Ok(format!("moves (best first): {}", hints.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let m = text.parse::<Move>().map_err(|e| e.to_string())?;
        self.game.play(pos, m).map_err(|e| e.to_string())
    }
}
