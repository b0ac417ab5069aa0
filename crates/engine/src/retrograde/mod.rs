//! Retrograde analysis with counters and distances.
//!
//! Units (see [`Units`](crate::Units)) are solved one after another in the
//! order the game lists them, so every move out of a unit finds its child
//! already solved: in one table for the whole game ([`solve`], [`Solver`]),
//! or one unit at a time for a solve by [`units`](crate::units). Within a
//! unit:
//!
//! 1. **Seeding.** Every position is expanded once. Terminal positions get
//!    their value; a move into an earlier unit that wins gives a provisional
//!    win; everything else gets a counter of moves not yet known to lose.
//! 2. **Propagation by distance.** For `d = 0, 1, 2, …` every position whose
//!    value has distance exactly `d` is expanded backwards: its in-unit
//!    parents either become wins in `d + 1` (a loss was found for them) or
//!    lose one from their counter (a win was found against them). A counter
//!    that reaches zero makes its position a loss, one ply longer than the
//!    longest of its children.
//! 3. Positions still holding a counter are draws.
//!
//! Going through distances in increasing order is what makes the distances
//! right: the first loss found below a position is its shortest win, and the
//! last win found below a loss is its longest resistance.
//!
//! # Memory
//!
//! The solver keeps exactly one cell per position, a byte unless a unit
//! needs two (below). A unit solved alone keeps a second cell a
//! position for what its moves into earlier units said, so that a loss is
//! settled by a load rather than by expanding it again: a tenth of a
//! Dodgem unit's time, for a unit's worth of memory. While a unit is
//! being solved, the cell of an undecided position holds its counter in
//! the top codes of the cell (see `Codes`) instead of a value. Sharing the byte
//! halves memory and, more importantly, makes every parent update touch one
//! cache line instead of two.
//!
//! A byte shared that way holds distances up to about 120 plies. A unit
//! (see [`units`](crate::units)) that goes further is solved again with two
//! bytes per position, the same codes widened ([`WideValue`](crate::WideValue)), and kept
//! that wide only if some value does not fit the one-byte
//! [`PackedValue`](crate::PackedValue): the cost of a long game falls on the units that hold
//! its long positions, not on the others.
//!
//! # Parallelism and determinism
//!
//! Seeding and each distance layer run in parallel over chunks of the unit.
//! Bytes are updated with compare-and-swap on the 64-bit word that holds
//! them. All updates within a layer commute (a win can only shorten to
//! `d + 1`, a counter only counts down, and a counter only reaches zero when
//! no loss lies below), so the result is byte-for-byte the same for any
//! number of threads. A unit solved alone (`Sharing::Alone`, as the
//! small units of a solve by units are, several at once) stays on its
//! calling thread and updates its cells with plain loads and stores.

mod alone;
mod codes;
mod numbering;
mod parts;
mod passes;
mod pending;
mod propagate;
mod seed;
mod solver;
mod split;
mod state;
mod unit_solve;

pub(crate) use self::alone::{Sharing, UnitAlone, Width};
pub(crate) use self::numbering::Numbering;
pub(crate) use self::passes::InPasses;
pub use self::solver::{Solver, solve};
pub use self::split::Ranks;
pub(crate) use self::unit_solve::{Earlier, IN_THE_CACHES};

use crate::progress::Interrupted;
use crate::table::TableError;

/// Why a solve stopped without a result.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// [`Progress::should_stop`](crate::Progress::should_stop) asked the solve to stop.
    #[error("the solve stopped before the end")]
    Interrupted(#[from] Interrupted),
    /// The checkpoint could not be read or written.
    #[error("checkpoint failed")]
    Checkpoint(#[source] TableError),
    /// The values of units the unit reads could not be read (by a unit
    /// solved in passes, which reads them as it goes).
    #[error("the units it reads could not be read")]
    Earlier(#[source] TableError),
    /// The checkpoint was written by a solve of another shape.
    #[error("checkpoint {path} is not one of this solve (delete it to start again)")]
    ForeignCheckpoint {
        /// The checkpoint file.
        path: std::path::PathBuf,
    },
    /// A distance too long for the working encoding.
    #[error(
        "a distance of {plies} plies does not fit the solver's cells (at most {limit} with {counters} counter codes)"
    )]
    DistanceOverflow {
        /// The distance that did not fit.
        plies: u16,
        /// The longest distance that fits.
        limit: u16,
        /// How many codes the counters take.
        counters: u16,
    },
}
