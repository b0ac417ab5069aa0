//! The search checked against the full sweep on a board the sweep solves:
//! the start, every first line, and positions drawn at random.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::sweep::Margins;
use solved_engine::{Interrupted, Progress};

use super::Search;
use crate::dots_and_boxes::Board;
use crate::tables::ObtainError;

/// The table of bounds for a check: boards the sweep solves have at most
/// 2^30 positions, and most are met again and again.
const CHECK_TABLE_BYTES: usize = 256 << 20;

/// Searches the start of `board`, the position after every first line and
/// `samples` random sets of drawn lines (of every size alike): `None` if
/// the search gives the full sweep's margin (`margins`) at each, else the
/// first position (the board's free lines drawn) where it does not.
///
/// # Errors
///
/// [`ObtainError`] if `progress` asks to stop.
///
/// # Panics
///
/// Panics if the board has more lines than the sweep solves, or `margins`
/// are not its sweep's.
pub fn search_agrees_with_sweep(
    board: &Board,
    margins: &Margins,
    samples: usize,
    seed: u64,
    progress: &dyn Progress,
) -> Result<Option<u64>, ObtainError> {
    assert_eq!(margins.len(), 1 << board.free_line_count(), "the sweep of this board");
    let search = Search::new(board, CHECK_TABLE_BYTES);
    let lines = board.free_line_count();
    let random = random_positions(lines, samples, seed);
    let positions: Vec<u64> = std::iter::once(0).chain((0..lines).map(|bit| 1 << bit)).chain(random).collect();
    progress.start("searching", positions.len() as u64);
    for drawn in positions {
        if progress.should_stop() {
            return Err(Interrupted.into());
        }
        if search.margin(drawn, progress)? != i32::from(margins.get(drawn)) {
            return Ok(Some(drawn));
        }
        progress.advance(1);
    }
    Ok(None)
}

/// `count` sets of the `lines` free lines drawn, their sizes spread evenly
/// from none to all, drawn from `seed`.
pub(super) fn random_positions(lines: u32, count: usize, seed: u64) -> Vec<u64> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let drawn = rng.random_range(0..lines + 1);
            let mut mask = 0u64;
            while mask.count_ones() < drawn {
                mask |= 1 << rng.random_range(0..lines);
            }
            mask
        })
        .collect()
}
