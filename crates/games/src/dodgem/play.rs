//! Dodgem against the computer: each move's worth from the table (for
//! the levels, the marks and `solved match`), and the game in the terminal.

use std::fmt::Write;

use anyhow::Context;

use solved_engine::Value;

use super::answers::{board, describe};
use super::{Dodgem, DodgemValues, Ending, Move, Objective, Player, Position};
use crate::front::{self, Opponent, Playable, Seat};
use crate::levels::Contest;
use crate::levels::Worth;
use crate::params::Params;
use crate::puzzles::Notation;

/// A board and its solved values: what each move is worth.
pub(super) struct Judge {
    pub(super) game: Dodgem,
    pub(super) values: DodgemValues,
}

impl Contest for Judge {
    type Position = Position;

    fn start(&self) -> Position {
        self.game.start()
    }

    fn first_to_move(&self, pos: &Position) -> bool {
        pos.turn() == Player::Blue
    }

    fn moves(&self, pos: &Position) -> anyhow::Result<Vec<(Worth, Position)>> {
        if self.game.is_over(pos) {
            return Ok(Vec::new());
        }
        let ranked = self.values.ranked_moves(&self.game, pos)?;
        Ok(ranked.into_iter().map(|(_, value, child)| (Worth::of_value(value), child)).collect())
    }

    fn final_score(&self, pos: &Position) -> i32 {
        match self.game.outcome(pos) {
            Some(outcome) if outcome.winner == Player::Blue => 1,
            Some(_) => -1,
            None => 0,
        }
    }
}

impl Notation for Judge {
    fn position_text(&self, _: &[String], pos: &Position) -> String {
        pos.to_string()
    }

    fn move_text(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        let ranked = self.values.ranked_moves(&self.game, pos)?;
        let (m, _, _) = ranked.iter().find(|r| r.2 == *next).context("no move leads there")?;
        Ok(m.to_string())
    }
}

/// A game against the computer.
pub(super) struct Session {
    judge: Judge,
    seat: Seat<Player>,
}

impl Session {
    /// A game of `game` read from `values`, the side, the level, the seed
    /// and the hints as `params` ask.
    pub(super) fn start(
        game: Dodgem,
        values: DodgemValues,
        params: &Params,
    ) -> anyhow::Result<Box<dyn front::Session>> {
        let seat = Seat::from_params(params)?;
        Ok(front::session(Session { judge: Judge { game, values }, seat }, Opponent::from_params(params)?))
    }
}

impl Playable for Session {
    type Judge = Judge;

    fn judge(&self) -> &Judge {
        &self.judge
    }

    fn intro(&self) -> String {
        format!(
            "Dodgem {0}x{0} ({1}). You are {2}; Blue moves first. Blue moves right, up or down and leaves off the right edge; \
             Red moves up, left or right and leaves off the top. Type a move like a3-b3 or c3-off, 'hint', or 'quit'.",
            self.judge.game.size(),
            self.judge.game.objective().id(),
            self.seat.human
        )
    }

    fn hinted(&self) -> bool {
        self.seat.hints
    }

    fn show(&self, pos: &Position, hints: bool, repeated: u32) -> anyhow::Result<String> {
        let mut text = board(pos);
        if repeated == 3 && !self.judge.game.is_over(pos) {
            let value = self.judge.values.value(&self.judge.game, pos)?;
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
        let outcome = self.judge.game.outcome(pos)?;
        let reason = match outcome.reason {
            Ending::AllCarsOff(player) => format!("{player} has no cars left on the board"),
            Ending::NoMove(player) => format!("{player} has no legal move"),
        };
        let rules = match self.judge.game.objective() {
            Objective::Normal => "",
            Objective::Misere => " (misère)",
        };
        Some(format!("{reason}: {} wins{rules}.", outcome.winner))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.seat.human
    }

    fn said(&self, pos: &Position, next: &Position) -> anyhow::Result<String> {
        let value = Value::of_move_into(self.judge.values.value(&self.judge.game, next)?);
        Ok(format!("{} plays {} ({value})", pos.turn(), self.judge.move_text(pos, next)?))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let hints: Vec<String> =
            self.judge.values.ranked_moves(&self.judge.game, pos)?.iter().map(|(m, v, _)| format!("{m} {v}")).collect();
        Ok(format!("moves (best first): {}", hints.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let m = text.parse::<Move>().map_err(|e| e.to_string())?;
        self.judge.game.play(pos, m).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use solved_engine::{DenseIndex, Silent, TableStore, Value};

    use super::*;
    use crate::dodgem::EveryPosition;
    use crate::levels::play_out;
    use crate::levels::{Grade, Level};

    fn judge(size: u32) -> Judge {
        let game = Dodgem::new(size, Objective::Normal).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let table = crate::tables::obtain(&game, &TableStore::new(dir.path()), &Silent).unwrap().0;
        Judge { game, values: DodgemValues::Table(Arc::new(table)) }
    }

    /// From positions won for the side to move, the perfect player wins
    /// whatever the other side's level plays; and the move each level
    /// picks is one of the position's, graded best where perfect picks it.
    #[test]
    fn perfect_never_lets_a_win_go() {
        let judge = judge(4);
        let every = EveryPosition(&judge.game);
        let mut rng = StdRng::seed_from_u64(11);
        let mut won = 0;
        while won < 200 {
            let pos = every.unindex(rng.random_range(0..every.position_count()));
            if judge.game.is_over(&pos) || !matches!(judge.values.value(&judge.game, &pos).unwrap(), Value::Win(_)) {
                continue;
            }
            won += 1;
            for level in Level::ALL {
                assert_eq!(
                    play_out(&judge, pos, [Level::Perfect, level], &mut rng).unwrap(),
                    1,
                    "{pos} against {level}"
                );
                let next = judge.choose(level, &pos, &mut rng).unwrap().unwrap();
                let grade = judge.grade(&pos, &next).unwrap().expect("a move of the position");
                assert!(level != Level::Perfect || grade == Grade::Best, "{pos}: {grade:?}");
            }
        }
    }
}
