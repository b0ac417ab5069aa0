//! Dots and Boxes from its quiet positions only: boards past what a table
//! of every position holds.
//!
//! A position in which no box has exactly three sides drawn is *quiet*.
//! Only quiet positions are stored, one of each class of symmetric ones;
//! any other position's outcome follows from quiet ones by a short exact
//! search over captures (the `capture` module). On 4×4 boxes that stores 2.5
//! billion of the 2^40 positions.
//!
//! The quiet positions are ranked densely (the `rank` module), the least of each
//! symmetry class marked among them ([`Members`]), and the outcomes of the
//! marked ones solved layer by layer, from the full board down, by the
//! engine's [`layers`](solved_engine::layers) solver: every move adds a
//! line, so a position needs only positions with more lines.

mod capture;
mod check;
mod layout;
mod outcome;
mod rank;
mod table;
#[cfg(test)]
mod tests;

use solved_engine::SolveError;
use solved_engine::layers::{Layered, LayersSolution, LayersSolver, Solved};
use solved_engine::{Interrupted, Members, MembersBuilder, Progress};

use rayon::prelude::*;

pub use self::capture::Memo;
pub use self::check::agrees_with_sweep;
pub use self::layout::{Layout, LayoutError};
pub use self::outcome::{MAX_MARGIN, NextLoony, Outcome};
use self::rank::{Prefix, QuietRank};
pub use self::table::{QuietOutcomes, QuietProbe, QuietSolution, QuietTable};
use super::Board;

/// Pieces of work to aim for in a pass over the quiet positions, so that
/// both threads stay busy to the end of every layer.
const PIECES: usize = 4096;

/// A board's quiet positions: their layout and rank.
#[derive(Clone, Debug)]
pub struct Quiet {
    layout: Layout,
    rank: QuietRank,
    /// Segments in the prefixes that split a pass into pieces.
    piece_segments: u32,
}

impl Quiet {
    /// The quiet positions of `board`.
    ///
    /// # Errors
    ///
    /// [`LayoutError`] if the board is too wide or has too many lines.
    pub fn new(board: &Board) -> Result<Quiet, LayoutError> {
        let layout = Layout::new(board)?;
        let rank = QuietRank::new(&layout);
        let piece_segments = (1..=layout.strips() + 1)
            .find(|&segments| rank.prefixes(segments, None).len() >= PIECES)
            .unwrap_or(layout.strips() + 1);
        Ok(Quiet { layout, rank, piece_segments })
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of quiet positions.
    pub fn count(&self) -> u64 {
        self.rank.count()
    }

    /// About the memory a solve takes: an outcome for each symmetry class
    /// (a share of the quiet positions) and a mark for each quiet position.
    pub fn estimated_bytes(&self) -> u64 {
        let symmetries = self.layout.symmetries().len() as u64 + 1;
        self.count() / symmetries + self.count() / 7
    }

    /// Marks the least position of each symmetry class among the quiet
    /// positions.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    pub fn representatives(&self, progress: &dyn Progress) -> Result<Members, Interrupted> {
        let builder = MembersBuilder::new(self.count());
        progress.start("symmetry classes", self.count());
        self.prefixes(None).par_iter().try_for_each(|(prefix, count)| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            self.rank.walk(prefix, None, &mut |rank, mask| {
                if self.layout.is_canonical(mask) {
                    builder.insert(rank);
                }
            });
            progress.advance(*count);
            Ok(())
        })?;
        Ok(builder.finish())
    }

    /// The pieces of a pass over the quiet positions with `lines` lines
    /// (all of them for `None`), with their sizes.
    fn prefixes(&self, lines: Option<u32>) -> Vec<(Prefix, u64)> {
        self.rank
            .prefixes(self.piece_segments, lines)
            .into_iter()
            .map(|prefix| {
                let count = self.rank.count_from(&prefix, lines);
                (prefix, count)
            })
            .collect()
    }

    /// The place of the quiet position `mask` among the representatives.
    #[inline]
    pub fn index(&self, members: &Members, mask: u64) -> u64 {
        members.rank(self.rank.rank(self.layout.canonical(mask)))
    }

    /// The outcome of the quiet position `mask` for the player to move,
    /// from `outcome`, which gives the outcome of a representative by its
    /// place among `members`.
    fn solve_position(
        &self,
        mask: u64,
        members: &Members,
        outcome: &impl Fn(u64) -> Outcome,
        memo: &mut Memo,
    ) -> Outcome {
        let undrawn = self.layout.full() & !mask;
        if undrawn == 0 {
            return Outcome::END;
        }
        let mut best = Outcome::WORST;
        // The moves that leave the position quiet, in three passes (ranks,
        // places among the representatives, outcomes), so that the cache
        // misses of one pass are independent loads the processor overlaps.
        let stays_quiet = self.layout.quiet_moves(mask);
        let mut places = [0u64; 64];
        let mut count = 0;
        for line in lines(stays_quiet) {
            places[count] = self.rank.rank(self.layout.canonical(mask | 1 << line));
            count += 1;
        }
        let places = &mut places[..count];
        for place in places.iter_mut() {
            *place = members.rank(*place);
        }
        for &place in places.iter() {
            best = best.max(Outcome::of_move(0, false, outcome(place)));
        }
        let quiet = |quiet_mask| outcome(self.index(members, quiet_mask));
        for line in lines(undrawn & !stays_quiet) {
            best = best.max(self.layout.move_outcome(mask, 0, line, &quiet, memo));
        }
        best
    }

    /// Solves every representative.
    ///
    /// # Errors
    ///
    /// [`SolveError`] if `progress` asks to stop or the checkpoint fails.
    pub fn solve(
        &self,
        members: &Members,
        solver: &LayersSolver<'_>,
        progress: &dyn Progress,
    ) -> Result<LayersSolution, SolveError> {
        solver.solve(&QuietSolve { quiet: self, members }, progress)
    }
}

/// A board's quiet positions solved in memory, with the mark of every
/// representative: what checks and benchmarks use.
#[derive(Debug)]
pub struct SolvedQuiet {
    quiet: Quiet,
    members: Members,
    values: LayersSolution,
}

impl SolvedQuiet {
    /// Solves the quiet positions of `quiet`'s board.
    ///
    /// # Errors
    ///
    /// [`SolveError`] if `progress` asks to stop.
    pub fn new(quiet: Quiet, progress: &dyn Progress) -> Result<SolvedQuiet, SolveError> {
        let members = quiet.representatives(progress)?;
        let values = quiet.solve(&members, &LayersSolver::new(), progress)?;
        Ok(SolvedQuiet { quiet, members, values })
    }

    /// The quiet positions.
    pub fn quiet(&self) -> &Quiet {
        &self.quiet
    }

    /// The outcome of the position `mask` (every line, in the layout's
    /// order), for the player to move.
    pub fn outcome(&self, mask: u64, memo: &mut Memo) -> Outcome {
        let lookup = |quiet| Outcome::from_byte(self.values.get(self.quiet.index(&self.members, quiet)));
        self.quiet.layout.outcome(mask, &lookup, memo)
    }
}

/// The lines set in `mask`, lowest first.
fn lines(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let line = mask.trailing_zeros();
            mask &= mask - 1;
            line
        })
    })
}

/// The layered solve of a board's representatives: layer `j` holds the
/// positions with `j` lines fewer than the full board.
struct QuietSolve<'a> {
    quiet: &'a Quiet,
    members: &'a Members,
}

impl QuietSolve<'_> {
    fn lines_of(&self, layer: u32) -> u32 {
        self.quiet.layout.line_count() - layer
    }
}

impl Layered for QuietSolve<'_> {
    type Piece = (Prefix, u32);

    fn positions(&self) -> u64 {
        self.members.len()
    }

    fn layers(&self) -> u32 {
        let layout = &self.quiet.layout;
        layout.line_count() - layout.forced().count_ones() + 1
    }

    fn pieces(&self, layer: u32) -> Vec<(Self::Piece, u64)> {
        let lines = self.lines_of(layer);
        self.quiet.prefixes(Some(lines)).into_iter().map(|(prefix, count)| ((prefix, lines), count)).collect()
    }

    fn solve_piece(&self, (prefix, lines): &Self::Piece, solved: &Solved<'_>, put: &mut dyn FnMut(u64, u8)) {
        let quiet = self.quiet;
        let outcome = |place: u64| Outcome::from_byte(solved.get(place));
        let mut memo = Memo::default();
        quiet.rank.walk(prefix, Some(*lines), &mut |rank, mask| {
            if self.members.contains(rank) {
                put(self.members.rank(rank), quiet.solve_position(mask, self.members, &outcome, &mut memo).to_byte());
            }
        });
    }
}
