//! The census of the post-opening domain: the published figures.

use rayon::prelude::*;
use solved_engine::{Interrupted, Progress};

use super::TicTacChec;

/// The published figures of the post-opening domain.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Census {
    /// Positions (White to move).
    pub positions: u64,
    /// Legal moves summed over the positions.
    pub edges: u64,
    /// Positions with some complete line.
    pub terminal: u64,
    /// Positions without a line and without a legal move.
    pub stuck: u64,
    /// The most legal moves in one position.
    pub max_moves: u32,
}

impl Census {
    fn merge(self, other: Census) -> Census {
        Census {
            positions: self.positions + other.positions,
            edges: self.edges + other.edges,
            terminal: self.terminal + other.terminal,
            stuck: self.stuck + other.stuck,
            max_moves: self.max_moves.max(other.max_moves),
        }
    }
}

/// One pass over the post-opening domain under `rule`, counting moves with
/// bit operations.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn census(game: &TicTacChec, progress: &dyn Progress) -> Result<Census, Interrupted> {
    let domain = game.index.post_opening();
    let chunk = 1u64 << 20;
    progress.start("census", domain.end);
    (0..domain.end.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let range = c * chunk..((c + 1) * chunk).min(domain.end);
            let mut census = Census::default();
            game.index.for_each_post(range.clone(), |_, pos| {
                census.positions += 1;
                if pos.is_over() {
                    census.terminal += 1;
                    return;
                }
                let moves = pos.count_moves(game.rule);
                census.edges += u64::from(moves);
                census.max_moves = census.max_moves.max(moves);
                if moves == 0 {
                    census.stuck += 1;
                }
            });
            progress.advance(range.end - range.start);
            Ok(census)
        })
        .try_reduce(Census::default, |a, b| Ok(a.merge(b)))
}
