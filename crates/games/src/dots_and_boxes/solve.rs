//! Glue to the engine's sweep solver: boxes as groups of lines, and the
//! table it makes.

use solved_engine::Progress;
use solved_engine::sweep::{self, Margins};
use solved_engine::table::{Margin, TableKey};

use super::{Board, MAX_FREE_LINES};
use crate::tables::{Cost, ObtainError, Solvable};

/// The version of the table layout (bit order of the free lines), recorded
/// in table headers: bump it whenever a line moves to another bit.
const INDEX_VERSION: u32 = 1;

impl Board {
    /// The number of undrawn lines at the start, the table's bits.
    pub fn free_line_count(&self) -> u32 {
        self.free.len() as u32
    }

    /// Whether the full sweep solves every position of the board, as
    /// `bench` and `verify --exhaustive` do; probes read the quiet table
    /// of every board.
    pub fn is_swept(&self) -> bool {
        self.free_line_count() <= MAX_FREE_LINES
    }

    /// Each box as the set (bits) of its undrawn sides; boxes the variant
    /// closes entirely are left out.
    pub fn groups(&self) -> Vec<u64> {
        self.boxes()
            .map(|b| b.sides().iter().filter_map(|&side| self.bit(side)).fold(0, |mask, bit| mask | 1 << bit))
            .filter(|&mask| mask != 0)
            .collect()
    }
}

/// A table index is the set of drawn free lines; the margin stored there is
/// what the player to move can still gain over the other, whoever owns the
/// boxes taken so far. Only for boards that [`Board::is_swept`].
impl Solvable for Board {
    type Encoding = Margin;
    type Solution = Margins;

    fn table_key(&self) -> TableKey {
        TableKey {
            game: super::INFO.id.into(),
            variant: self.variant.id().into(),
            size: format!("{}x{}", self.rows, self.cols),
            index_version: INDEX_VERSION,
            positions: 1 << self.free_line_count(),
        }
    }

    /// Measured on 3×5 Icelandic, 2^30 states: under 3 s to sweep on two
    /// cores, one byte each.
    fn cost(&self) -> Cost {
        let states = 1u64 << self.free_line_count();
        Cost { seconds: states as f64 * 3e-9, bytes: states }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Margins, ObtainError> {
        Ok(sweep::solve(self.free_line_count(), &self.groups(), progress)?)
    }
}
