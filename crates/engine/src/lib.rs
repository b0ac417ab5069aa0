//! Game-agnostic machinery for strongly solving games.
//!
//! # Brief overview
//!
//! A game describes itself through the traits in [`game`]: its [`Rules`]
//! (terminal values and children), a [`DenseIndex`] of its positions and,
//! for the fast solver, [`TieredRetrograde`] (tiers, in-tier move counts and
//! predecessors). [`retrograde::solve`] turns such a game into a
//! [`Solution`]: one [`PackedValue`] byte per position. [`table`] writes it
//! to disk with a header and a checksum and reads it back, refusing anything
//! that does not validate. [`solve_naive`] and [`audit`] exist to check the
//! fast path independently.
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
//! Solvers fail with [`SolveError`]; tables with [`TableError`], which wraps
//! a [`FormatError`] when a file is not a valid table.

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![deny(unsafe_code)]

mod audit;
pub mod chain;
pub mod compact;
pub mod game;
mod index;
mod naive;
mod packed;
mod progress;
mod reachable;
pub mod retrograde;
pub mod sweep;
#[allow(unsafe_code)]
pub mod table;
mod value;
mod values;

pub use crate::audit::{AuditReport, Disagreement, audit};
pub use crate::game::{DenseIndex, Expansion, Rules, TieredRetrograde};
pub use crate::index::{MAX_UNIVERSE, Subsets, binomial};
pub use crate::naive::solve_naive;
pub use crate::packed::PackedValue;
pub use crate::progress::{Interrupted, Progress, Silent};
pub use crate::reachable::{PositionSet, reachable};
pub use crate::retrograde::{Solution, SolveError};
pub use crate::table::{FormatError, Payload, Table, TableError, TableKey, TableStore};
pub use crate::value::{Plies, Value};
pub use crate::values::Values;
