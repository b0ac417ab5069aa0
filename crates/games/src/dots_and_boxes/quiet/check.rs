//! The quiet solver checked against the full sweep, on every position of a
//! board the sweep solves.

use rayon::prelude::*;
use solved_engine::sweep::Margins;
use solved_engine::{Interrupted, Progress};

use super::{Memo, Quiet, SolvedQuiet};
use crate::dots_and_boxes::Board;
use crate::tables::ObtainError;

/// Positions compared per piece of work.
const PIECE: u64 = 1 << 16;

/// Solves `board` from its quiet positions and compares the margin of
/// every position with the full sweep's, `margins`: `None` if all agree,
/// else the first position (the board's free lines drawn) where they do
/// not.
///
/// # Errors
///
/// [`ObtainError`] if `progress` asks to stop.
///
/// # Panics
///
/// Panics if the board has more lines than the sweep solves, or `margins`
/// are not its sweep's.
pub fn agrees_with_sweep(
    board: &Board,
    margins: &Margins,
    progress: &dyn Progress,
) -> Result<Option<u64>, ObtainError> {
    assert_eq!(margins.len(), 1 << board.free_line_count(), "the sweep of this board");
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
