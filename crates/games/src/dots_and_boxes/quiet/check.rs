//! The quiet solver checked against the full sweep, on every position of a
//! board the sweep solves.

use rayon::prelude::*;
use solved_engine::{Interrupted, Progress, sweep};

use super::{Memo, Quiet, SolvedQuiet};
use crate::dots_and_boxes::Board;
use crate::tables::ObtainError;

/// Positions compared per piece of work.
const PIECE: u64 = 1 << 16;

/// Solves `board` both ways and compares the margin of every position:
/// `None` if all agree, else the first position (the board's free lines
/// drawn) where they do not.
///
/// # Errors
///
/// [`ObtainError`] if `progress` asks to stop.
///
/// # Panics
///
/// Panics if the board has more lines than the sweep solves.
pub fn agrees_with_sweep(board: &Board, progress: &dyn Progress) -> Result<Option<u64>, ObtainError> {
    let margins = sweep::solve(board.free_line_count(), &board.groups(), progress)?;
    let quiet = Quiet::new(board).expect("a board the sweep solves has a quiet layout");
    let solved = SolvedQuiet::new(quiet, progress)?;
    let layout = solved.quiet().layout();
    progress.start("comparing", margins.len());
    let pieces = margins.len().div_ceil(PIECE);
    let first = (0..pieces)
        .into_par_iter()
        .map(|piece| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let mut memo = Memo::default();
            let range = piece * PIECE..((piece + 1) * PIECE).min(margins.len());
            let len = range.end - range.start;
            let wrong = range
                .into_iter()
                .find(|&drawn| solved.outcome(layout.mask_of(drawn), &mut memo).margin() != margins.get(drawn));
            progress.advance(len);
            Ok(wrong)
        })
        .collect::<Result<Vec<Option<u64>>, Interrupted>>()?;
    Ok(first.into_iter().flatten().next())
}
