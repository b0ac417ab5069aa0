//! The table of a board's quiet positions: solved, saved in compressed
//! blocks, and probed a block at a time.
//!
//! The payload is a directory, then the outcomes. The directory gives, for
//! every [`DIRECTORY_STEP`] quiet positions (in rank order), how many
//! representatives come before them: a probe finds a representative's place
//! from the directory entry before it and a walk over at most that many
//! quiet positions, without the mark of every quiet position that the solve
//! keeps in memory. The outcomes are one byte per representative, in rank
//! order.

use std::cell::{Cell, RefCell};
use std::io;
use std::time::Duration;

use solved_engine::layers::{LayersSolution, LayersSolver};
use solved_engine::table::{Encoding, Payload, TableKey};
use solved_engine::{Members, Progress, Table, TableError, TableStore, Tally};

use super::{Layout, Memo, Outcome, Quiet};
use crate::dots_and_boxes::Board;
use crate::tables::{Cost, ObtainError, Solvable};

/// Quiet positions per directory entry.
pub const DIRECTORY_STEP: u64 = 4096;

/// The version of the quiet table's layout (the rank order, the symmetry
/// classes' representatives, the directory, the outcome bytes): bump it
/// whenever any of them changes.
const INDEX_VERSION: u32 = 1;

/// How often a long solve saves its progress.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(300);

/// Seconds per representative on two threads while the outcomes fit the
/// caches, measured on 3×4 American (26 million in 17.5 s) and 2×6
/// (52 million in 37 s).
const SECONDS_PER_REPRESENTATIVE: f64 = 0.7e-6;

/// The same once they are far larger than the caches and most lookups
/// miss: 3×5 American (1.6 billion) took 2,478 s on two idle cores, 4×4
/// American (2.5 billion) about 98 minutes on two shared ones.
const SECONDS_PER_REPRESENTATIVE_MISSING_CACHES: f64 = 1.6e-6;

/// Beyond this many representatives, their outcomes are far larger than
/// the caches.
const CACHED_REPRESENTATIVES: f64 = 1e8;

/// A table of quiet positions' outcomes: the directory and one
/// [`Outcome`] byte per representative, compressed in blocks.
#[derive(Copy, Clone, Debug)]
pub struct QuietOutcomes;

impl Encoding for QuietOutcomes {
    const CODE: u32 = 4;
    const NAME: &'static str = "quiet outcomes";
    const SUFFIX: &'static str = ".quiet";
    const BLOCKED: bool = true;

    /// `positions` counts the quiet positions; the tally, representatives.
    fn payload_len(positions: u64, tally: Tally) -> Option<u64> {
        let representatives = tally.wins.checked_add(tally.losses)?.checked_add(tally.draws)?;
        (representatives <= positions).then(|| 8 * directory_len(positions) + representatives)
    }
}

/// Directory entries for `positions` quiet positions.
fn directory_len(positions: u64) -> u64 {
    positions / DIRECTORY_STEP + 1
}

/// A board's quiet positions, as a table to solve and keep.
#[derive(Clone, Debug)]
pub struct QuietTable {
    board: Board,
    quiet: Quiet,
}

impl QuietTable {
    /// The quiet table of `board`.
    ///
    /// # Panics
    ///
    /// Panics if the board has no quiet layout; [`Board::new`] refuses
    /// those among the boards that need one.
    pub fn new(board: &Board) -> QuietTable {
        let quiet = Quiet::new(board).expect("boards made by Board::new have a quiet layout");
        QuietTable { board: board.clone(), quiet }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Its quiet positions.
    pub fn quiet(&self) -> &Quiet {
        &self.quiet
    }

    fn solve_with(&self, solver: &LayersSolver<'_>, progress: &dyn Progress) -> Result<QuietSolution, ObtainError> {
        let members = self.quiet.representatives(progress)?;
        let values = self.quiet.solve(&members, solver, progress)?;
        Ok(QuietSolution::new(&self.quiet, &members, values))
    }
}

/// A solved quiet table, before it is saved.
#[derive(Debug)]
pub struct QuietSolution {
    directory: Vec<u64>,
    values: LayersSolution,
    tally: Tally,
}

impl QuietSolution {
    fn new(quiet: &Quiet, members: &Members, values: LayersSolution) -> QuietSolution {
        let directory =
            (0..directory_len(quiet.count())).map(|i| members.rank((i * DIRECTORY_STEP).min(quiet.count()))).collect();
        let mut tally = Tally::default();
        for idx in 0..values.len() {
            tally.add_margin(Outcome::from_byte(values.get(idx)).margin());
        }
        QuietSolution { directory, values, tally }
    }
}

impl Payload<QuietOutcomes> for QuietSolution {
    fn tally(&self) -> Tally {
        self.tally
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let directory: Vec<u8> = self.directory.iter().flat_map(|n| n.to_le_bytes()).collect();
        sink(&directory)?;
        self.values.for_each_piece(|piece| sink(piece))
    }
}

impl Solvable for QuietTable {
    type Encoding = QuietOutcomes;
    type Solution = QuietSolution;

    fn table_key(&self) -> TableKey {
        TableKey {
            game: crate::dots_and_boxes::INFO.id.into(),
            variant: self.board.variant().id().into(),
            size: format!("{}x{}", self.board.rows(), self.board.cols()),
            index_version: INDEX_VERSION,
            positions: self.quiet.count(),
        }
    }

    fn cost(&self) -> Cost {
        let symmetries = self.quiet.layout().symmetries().len() as f64 + 1.0;
        let representatives = self.quiet.count() as f64 / symmetries;
        let per_representative = if representatives <= CACHED_REPRESENTATIVES {
            SECONDS_PER_REPRESENTATIVE
        } else {
            SECONDS_PER_REPRESENTATIVE_MISSING_CACHES
        };
        Cost { seconds: representatives * per_representative, bytes: self.quiet.estimated_bytes() }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<QuietSolution, ObtainError> {
        self.solve_with(&LayersSolver::new(), progress)
    }

    fn solve_for(&self, store: &TableStore, progress: &dyn Progress) -> Result<QuietSolution, ObtainError> {
        let checkpoint = store.checkpoint::<QuietOutcomes>(&self.table_key());
        self.solve_with(&LayersSolver::new().with_checkpoints(&checkpoint, CHECKPOINT_EVERY), progress)
    }

    fn saved(&self, store: &TableStore) -> Result<(), TableError> {
        store.checkpoint::<QuietOutcomes>(&self.table_key()).remove()
    }

    fn solve_in_memory(&self, progress: &dyn Progress) -> Result<u64, ObtainError> {
        Ok(self.solve(progress)?.values.len())
    }
}

/// Outcomes read from a saved quiet table, a block at a time.
pub struct QuietProbe<'a> {
    quiet: &'a Quiet,
    table: &'a Table<QuietOutcomes>,
    memo: RefCell<Memo>,
    /// The first read that failed: the search goes on with a stand-in, and
    /// its answer is thrown away.
    failed: Cell<Option<TableError>>,
}

impl<'a> QuietProbe<'a> {
    /// Probes `table`, the quiet table of `quiet`'s board.
    pub fn new(quiet: &'a Quiet, table: &'a Table<QuietOutcomes>) -> QuietProbe<'a> {
        QuietProbe { quiet, table, memo: RefCell::default(), failed: Cell::new(None) }
    }

    /// The layout of the board.
    pub fn layout(&self) -> &Layout {
        self.quiet.layout()
    }

    /// The quiet positions the table is of.
    pub fn quiet_positions(&self) -> u64 {
        self.quiet.count()
    }

    /// The outcome, for the player to move, of the position whose lines
    /// (all of them, in the layout's order) are `mask`.
    ///
    /// # Errors
    ///
    /// [`TableError`] if a block of the table cannot be read or is corrupt.
    pub fn outcome(&self, mask: u64) -> Result<Outcome, TableError> {
        let result = self.quiet.layout().outcome(mask, &|quiet| self.quiet_outcome(quiet), &mut self.memo.borrow_mut());
        self.checked(result)
    }

    /// The outcome of drawing `line` (a layout bit) at `mask`, for the
    /// player who draws it.
    ///
    /// # Errors
    ///
    /// As for [`outcome`](Self::outcome).
    pub fn move_outcome(&self, mask: u64, line: u32) -> Result<Outcome, TableError> {
        let layout = self.quiet.layout();
        let capturable = layout.capturable(mask);
        let result = layout.move_outcome(
            mask,
            capturable,
            line,
            &|quiet| self.quiet_outcome(quiet),
            &mut self.memo.borrow_mut(),
        );
        self.checked(result)
    }

    fn checked(&self, result: Outcome) -> Result<Outcome, TableError> {
        match self.failed.take() {
            Some(error) => {
                // What the search remembered may rest on the stand-in.
                *self.memo.borrow_mut() = Memo::default();
                Err(error)
            }
            None => Ok(result),
        }
    }

    /// The stored outcome of the quiet position `mask`.
    fn quiet_outcome(&self, mask: u64) -> Outcome {
        match self.read_quiet(mask) {
            Ok(outcome) => outcome,
            Err(error) => {
                let first = self.failed.take().unwrap_or(error);
                self.failed.set(Some(first));
                Outcome::END
            }
        }
    }

    fn read_quiet(&self, mask: u64) -> Result<Outcome, TableError> {
        let layout = self.quiet.layout();
        let rank = self.quiet.rank.rank(layout.canonical(mask));
        let entry = rank / DIRECTORY_STEP;
        let mut before = [0u8; 8];
        self.table.read_payload(8 * entry, &mut before)?;
        let mut index = u64::from_le_bytes(before);
        self.quiet.rank.walk_range(entry * DIRECTORY_STEP..rank, &mut |_, m| {
            index = index.saturating_add(u64::from(layout.is_canonical(m)));
        });
        let at = (8 * directory_len(self.quiet.count()))
            .checked_add(index)
            .ok_or_else(|| self.table.refuse(format!("directory entry {entry} points past the values")))?;
        let mut byte = [0u8; 1];
        self.table.read_payload(at, &mut byte)?;
        Outcome::from_stored(byte[0], layout.sides().len())
            .ok_or_else(|| self.table.refuse(format!("byte {:#04x} at {at} is not an outcome", byte[0])))
    }
}

impl std::fmt::Debug for QuietProbe<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuietProbe").field("table", &self.table).finish_non_exhaustive()
    }
}
