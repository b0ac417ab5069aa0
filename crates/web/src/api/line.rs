//! The perfect line from a position, the same for every game with
//! win/loss/draw values: each move the best one, to the end or until a
//! position comes back.

use std::collections::HashSet;
use std::fmt::Display;
use std::hash::Hash;

use serde::Serialize;
use solved_engine::Value;

use crate::error::ApiError;

/// The longest perfect line given: past it a game that has not ended or
/// come back to a position is cut short.
const MAX_LINE: usize = 500;

#[derive(Serialize)]
struct LineMoveJson {
    #[serde(rename = "move")]
    name: String,
    /// The move's value for its mover.
    #[serde(flatten)]
    value: Value,
}

#[derive(Serialize)]
pub(crate) struct LineJson {
    position: String,
    moves: Vec<LineMoveJson>,
    /// Whether the line comes back to a position it passed (a draw goes
    /// round for ever).
    repeats: bool,
}

/// Perfect play from `start`: `best` gives the first of a position's
/// ranked moves (fastest win, then draw, then slowest loss) with its value
/// and the position it leads to, or `None` once the game is over.
pub(crate) fn perfect_line<P, M: Display>(
    start: P,
    mut best: impl FnMut(&P) -> Result<Option<(M, Value, P)>, ApiError>,
) -> Result<LineJson, ApiError>
where
    P: Copy + Eq + Hash + Display,
{
    let mut seen = HashSet::from([start]);
    let (mut pos, mut moves, mut repeats) = (start, Vec::new(), false);
    while moves.len() < MAX_LINE {
        let Some((m, value, child)) = best(&pos)? else { break };
        moves.push(LineMoveJson { name: m.to_string(), value });
        pos = child;
        if !seen.insert(pos) {
            repeats = true;
            break;
        }
    }
    Ok(LineJson { position: start.to_string(), moves, repeats })
}
