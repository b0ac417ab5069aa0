//! Game-agnostic machinery for strongly solving games.
//!
//! # Brief overview
//!
//! A game describes itself through the traits in [`game`]: its [`Rules`]
//! (terminal values and children), a [`DenseIndex`] of its positions and,
//! for the fast solver, its [`Units`] (pieces that moves leave only towards
//! earlier ones, with in-unit move counts and predecessors; a game of tiers
//! is a game of units in a line). [`retrograde::solve`] turns such a game
//! into a [`Solution`]: one [`PackedValue`] byte per position; a game too
//! large for that is solved unit by unit with [`units::UnitSolver`] (or
//! over MPI) into compressed files, two bytes a position ([`WideValue`])
//! for the units whose distances a byte cannot hold. A game of scoring
//! moves that each set one bit goes to [`sweep::solve`] instead, which
//! gives one margin per state. [`table`] writes either to disk with a header
//! and a checksum, as a [`Table`] whose type says how its values are
//! stored, and reads it back, refusing anything that does not validate;
//! [`compact`] makes a smaller lossless copy of a table of values.
//! [`solve_naive`] and [`audit`] exist to check the fast path independently.
//!
//! The layers point one way: `value`, `index` and `progress` depend on
//! nothing, `packed`, `tally` and `game` on `value` alone; `table` on those;
//! `values`, the solvers and `compact` on `table`; `units` on the
//! retrograde solver; nothing depends on a solver but the games.
//!
//! The engine knows nothing of any particular game and does no terminal or
//! network I/O; long computations report through [`Progress`].
//!
//! # Examples
//!
//! ```
//! use solved_engine::{binomial, Subsets};
//! // Eight cars on a 5x5 board: 1,081,575 placements, ranked densely.
//! let occupied = Subsets::new(25, 8);
//! assert_eq!(occupied.count(), binomial(25, 8));
//! let last = occupied.unrank(occupied.count() - 1);
//! assert_eq!(occupied.rank(last), 1_081_574);
//! ```
//!
//! # Errors
//!
//! The retrograde solver fails with [`SolveError`]; tables with
//! [`TableError`], which wraps a [`FormatError`] when a file is not a valid
//! table. Whatever stops because [`Progress::should_stop`] asked it to
//! fails with [`Interrupted`], alone or as the source of its own error, so
//! that one test of the cause chain tells an interruption from a failure.

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![forbid(unsafe_code)]

mod audit;
mod cells;
pub mod chain;
pub mod compact;
mod distances;
pub use solved_dispatch as dispatch;
pub mod game;
mod huge_pages;
mod index;
pub mod layers;
pub mod machine;
mod members;
mod naive;
mod packed;
mod permute;
mod progress;
mod radix;
mod reachable;
pub mod retrograde;
mod solution;
pub mod sweep;
pub mod table;
mod tally;
pub mod units;
mod value;
mod values;

pub use crate::audit::{AuditReport, Disagreement, audit};
pub use crate::distances::{DistanceCounter, Distances};
pub use crate::game::{DenseIndex, Expansion, Rules, Unit, UnitParts, Units};
pub use crate::index::{Bits, MAX_UNIVERSE, Subsets, binomial, bits};
pub use crate::members::{Members, MembersBuilder};
pub use crate::naive::solve_naive;
pub use crate::packed::{PackedValue, WideValue};
pub use crate::permute::BitPermutation;
pub use crate::progress::{Interrupted, Progress, Silent};
pub use crate::radix::divide_by_radix;
pub use crate::reachable::{PositionSet, reachable};
pub use crate::retrograde::SolveError;
pub use crate::solution::Solution;
pub use crate::table::{FormatError, Payload, Table, TableError, TableKey, TableStore};
pub use crate::tally::Tally;
pub use crate::value::{Plies, Value};
pub use crate::values::Values;
