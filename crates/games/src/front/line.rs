//! The perfect line from a position, the same for every game with win,
//! loss and draw values: each move the best one, to the end or until a
//! position comes back.

use std::collections::HashSet;
use std::fmt::Display;
use std::hash::Hash;

use serde::Serialize;
use solved_engine::Value;

use super::Answer;

/// The longest perfect line given: past it a game that has not ended or
/// come back to a position is cut short.
const MAX_LINE: usize = 500;

#[derive(Debug, Serialize)]
struct LineMoveJson {
    #[serde(rename = "move")]
    name: String,
    /// The move's value for its mover.
    #[serde(flatten)]
    value: Value,
}

/// Perfect play from a position (`solved line`, `GET /api/GAME/line`).
#[derive(Debug, Serialize)]
pub struct PerfectLine {
    position: String,
    moves: Vec<LineMoveJson>,
    /// Whether the line comes back to a position it passed (a draw goes
    /// round for ever).
    repeats: bool,
}

impl Answer for PerfectLine {
    fn text(&self) -> String {
        let mut text = format!("perfect play from {}:\n", self.position);
        for (i, m) in self.moves.iter().enumerate() {
            text.push_str(&format!("  {:>3}. {:<8} {}\n", i + 1, m.name, m.value));
        }
        text.push_str(match (self.moves.is_empty(), self.repeats) {
            (true, _) => "  the game is over\n",
            (false, true) => "  and a position comes round again: a draw\n",
            (false, false) => "  and the game is over\n",
        });
        text
    }
}

/// Perfect play from `start`: `best` gives the first of a position's
/// ranked moves (fastest win, then draw, then slowest loss) with its value
/// and the position it leads to, or `None` once the game is over.
///
/// # Errors
///
/// What `best` fails with.
pub fn perfect_line<P, M: Display>(
    start: P,
    mut best: impl FnMut(&P) -> anyhow::Result<Option<(M, Value, P)>>,
) -> anyhow::Result<PerfectLine>
where
    P: Clone + Eq + Hash + Display,
{
    let mut seen = HashSet::from([start.clone()]);
    let (mut pos, mut moves, mut repeats) = (start.clone(), Vec::new(), false);
    while moves.len() < MAX_LINE {
        let Some((m, value, child)) = best(&pos)? else { break };
        moves.push(LineMoveJson { name: m.to_string(), value });
        pos = child;
        if !seen.insert(pos.clone()) {
            repeats = true;
            break;
        }
    }
    Ok(PerfectLine { position: start.to_string(), moves, repeats })
}
