//! Solves made of units: pieces of a game small enough for one machine's
//! memory, solved one after another and kept on disk.
//!
//! A game too large for one table in memory splits its positions into
//! [`Units`]: each unit's moves lead into the unit itself or into units
//! listed before it, so the units form a DAG that the game lists in a
//! solving order. A unit is solved by the tiered retrograde solver as one
//! tier, its moves out of the unit looked up in the values of the units it
//! depends on; then its values are written to a [`UnitStore`] and it is
//! never touched again. Small units are solved several at once, each on
//! one thread as soon as the units it reads are solved (see `schedule`).
//!
//! A unit whose distances outgrow a byte is solved again, and stored, with
//! two bytes a position; the units that read it are solved that wide from
//! the start. Every other unit keeps one byte a position.
//!
//! That makes a solve resumable at unit granularity (a unit is on disk
//! whole or not at all, since every file is written atomically) and bounds
//! its memory by the units being solved and their dependencies rather than
//! by the game. Units solved earlier are kept in memory while a budget allows, so
//! that a unit read by several later ones is decompressed once.

mod files;
mod memory;
#[cfg(feature = "mpi")]
mod mpi;
mod one;
mod reach;
mod schedule;

use std::sync::Arc;

use crate::game::{Expansion, Rules};
use crate::progress::Progress;
use crate::retrograde::{self, Sharing, Solution, SolveError};
use crate::table::TableError;
use crate::value::Value;

pub use self::files::{UnitFiles, UnitTable, UnitValues, WideUnitValues};
pub use self::memory::UnitsInMemory;
#[cfg(feature = "mpi")]
pub use self::mpi::solve_over_mpi;
use self::one::{DependencyValues, OneUnit};
pub use self::reach::{ForwardUnits, ReachCheckpoint, ReachError, finished_walk, reach_by_units};
use self::schedule::{Run, segment_from};

/// Positions of a unit are numbered below this, so that the solver can
/// tell a unit's own positions from those of its dependencies by their
/// number alone.
pub const MAX_UNIT_LEN: u64 = 1 << 40;

/// One unit: how many positions it has and which units its moves reach.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Unit {
    /// Its positions, numbered `0..len`.
    pub len: u64,
    /// The units, all listed earlier, that moves out of this one lead to.
    pub depends_on: Vec<usize>,
}

/// A unit split into parts that its in-unit moves never leave: a
/// [`TierParts`](crate::TierParts) whose positions are numbered as the unit numbers them,
/// and whose children in other units are numbered as for
/// [`Units::expand_range`].
pub trait UnitParts: Sync {
    /// As [`TierParts::slot_counts`](crate::TierParts::slot_counts).
    fn slot_counts(&self) -> Vec<u32>;

    /// As [`TierParts::expand`](crate::TierParts::expand), a child numbered `idx` in unit `to`
    /// handed over as `first_number(to) + idx`.
    fn expand(&self, part: usize, first_number: impl Fn(usize) -> u64, f: impl FnMut(u32, u64, Expansion, &[u64]));

    /// As [`TierParts::for_each_parent`](crate::TierParts::for_each_parent).
    fn for_each_parent(&self, part: usize, slot: u32, f: impl FnMut(u32));
}

/// No parts: what a game without them gives.
impl UnitParts for std::convert::Infallible {
    fn slot_counts(&self) -> Vec<u32> {
        match *self {}
    }

    fn expand(&self, _: usize, _: impl Fn(usize) -> u64, _: impl FnMut(u32, u64, Expansion, &[u64])) {
        match *self {}
    }

    fn for_each_parent(&self, _: usize, _: u32, _: impl FnMut(u32)) {
        match *self {}
    }
}

/// A game whose positions are split into units solved in order (see
/// the [module docs](self)).
pub trait Units: Rules {
    /// The units in solving order. A unit's dependencies come before it.
    fn units(&self) -> Vec<Unit>;

    /// The unit of `pos` and its number within it.
    fn locate(&self, pos: &Self::Position) -> (usize, u64);

    /// The position numbered `idx` in `unit`.
    fn unindex_in_unit(&self, unit: usize, idx: u64) -> Self::Position;

    /// Calls `f(idx, position)` for every position numbered in `range` of
    /// `unit`, in order. The default unindexes each.
    fn for_each_in_unit(&self, unit: usize, range: std::ops::Range<u64>, mut f: impl FnMut(u64, Self::Position)) {
        for idx in range {
            f(idx, self.unindex_in_unit(unit, idx));
        }
    }

    /// Calls `f(idx, position)` for each of `indices`, which ascend and
    /// number positions of `unit`, in order. The default unindexes each.
    fn unindex_ascending_in_unit(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Self::Position),
    ) {
        for idx in indices {
            f(idx, self.unindex_in_unit(unit, idx));
        }
    }

    /// An upper bound on the moves of a position that stay in its unit.
    fn max_in_unit_moves(&self) -> u8;

    /// Classifies `pos` of `unit` and calls `earlier_child(unit, idx)` for
    /// every child (once per move) in another unit.
    fn expand(&self, unit: usize, pos: &Self::Position, earlier_child: impl FnMut(usize, u64)) -> Expansion;

    /// Expands every position of `unit` numbered in `range`, in order: for
    /// each child in another unit `to`, numbered `idx` there, pushes
    /// `first_number(to) + idx` (the number the solver knows it by) onto
    /// `children`; then calls `f(idx, expansion, children.len())`.
    ///
    /// The default expands each position that
    /// [`for_each_in_unit`](Self::for_each_in_unit) gives; a game whose
    /// neighbouring positions share the work of expanding should share it.
    fn expand_range(
        &self,
        unit: usize,
        range: std::ops::Range<u64>,
        children: &mut Vec<u64>,
        first_number: impl Fn(usize) -> u64,
        mut f: impl FnMut(u64, Expansion, usize),
    ) {
        self.for_each_in_unit(unit, range, |idx, pos| {
            let expansion = self.expand(unit, &pos, |to, at| children.push(first_number(to) + at));
            f(idx, expansion, children.len());
        });
    }

    /// Calls `f(idx, parent)` for every non-terminal position of `unit`
    /// with a move to `pos` (of the same unit), once per such move.
    fn for_each_parent(&self, unit: usize, pos: &Self::Position, f: impl FnMut(u64, Self::Position));

    /// Calls `f(tag, idx, parent)` for every parent of each position of
    /// `positions`, given with a tag, as
    /// [`for_each_parent`](Self::for_each_parent) does for one. The
    /// positions ascend in `unit`. The default finds each position's
    /// parents alone.
    fn for_each_parent_of_each<T: Copy>(
        &self,
        unit: usize,
        positions: impl Iterator<Item = (T, Self::Position)>,
        mut f: impl FnMut(T, u64, Self::Position),
    ) {
        for (tag, pos) in positions {
            self.for_each_parent(unit, &pos, |idx, parent| f(tag, idx, parent));
        }
    }

    /// The split of `unit` into parts that its in-unit moves never leave,
    /// if the game has one (see [`UnitParts`]).
    fn parts(&self, unit: usize) -> Option<impl UnitParts + '_> {
        let _ = unit;
        None::<std::convert::Infallible>
    }

    /// Figures about the solved `unit` that a store on disk keeps in its
    /// header (beside the engine's own, see [`LONGEST_WIN`]), so that a
    /// game's totals need no pass over every unit. None by default.
    fn unit_facts(&self, unit: usize, values: &Solution) -> Vec<(&'static str, u64)> {
        let _ = (unit, values);
        Vec::new()
    }
}

/// The fact naming a unit's longest win, in plies (absent without wins).
pub const LONGEST_WIN: &str = "longest_win";
/// The fact naming a unit's longest loss, in plies (absent without losses).
pub const LONGEST_LOSS: &str = "longest_loss";

/// The engine's facts about a unit's values: its longest win and loss.
fn longest(values: &Solution) -> Vec<(&'static str, u64)> {
    use rayon::prelude::*;
    let (win, loss) = (0..values.len().div_ceil(1 << 16))
        .into_par_iter()
        .map(|piece| {
            let (mut win, mut loss) = (None, None);
            for idx in piece << 16..((piece + 1) << 16).min(values.len()) {
                match values.value(idx) {
                    Value::Win(d) => win = win.max(Some(d.0)),
                    Value::Loss(d) => loss = loss.max(Some(d.0)),
                    Value::Draw => {}
                }
            }
            (win, loss)
        })
        .reduce(|| (None, None), |a, b| (a.0.max(b.0), a.1.max(b.1)));
    [(LONGEST_WIN, win), (LONGEST_LOSS, loss)].into_iter().filter_map(|(name, d)| Some((name, u64::from(d?)))).collect()
}

/// Where solved units are kept.
pub trait UnitStore: Sync {
    /// Whether `unit` has been stored, by this solve or an earlier one.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the store cannot be looked at.
    fn has(&self, unit: usize) -> Result<bool, TableError>;

    /// The values of `unit`, as stored.
    ///
    /// # Errors
    ///
    /// [`TableError`] if it is missing, unreadable or not the unit asked for.
    fn load(&self, unit: usize, len: u64) -> Result<Solution, TableError>;

    /// Whether it keeps the facts of each unit (see [`Units::unit_facts`]):
    /// if not, the solver does not compute them.
    fn keeps_facts(&self) -> bool;

    /// Stores the values of `unit` and its `facts`, atomically.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if they cannot be written; nothing stored is lost.
    fn save(&self, unit: usize, values: &Solution, facts: &[(&'static str, u64)]) -> Result<(), TableError>;
}

/// Why a solve by units stopped.
#[derive(Debug, thiserror::Error)]
pub enum UnitSolveError {
    /// Solving a unit failed or was interrupted.
    #[error("unit {unit} could not be solved")]
    Solve {
        /// The unit.
        unit: usize,
        /// Why.
        source: SolveError,
    },
    /// A unit could not be read or written.
    #[error(transparent)]
    Store(#[from] TableError),
}

/// What a solve by units did.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct UnitReport {
    /// Units solved by this run.
    pub solved: usize,
    /// Units found already stored, from an earlier run.
    pub resumed: usize,
    /// The most bytes of unit values held at once.
    pub peak_bytes: u64,
}

/// Solves games made of units, within a memory budget.
#[derive(Clone, Debug)]
pub struct UnitSolver {
    budget: u64,
    two_bytes_wide: bool,
}

impl UnitSolver {
    /// Keeps at most `budget` bytes of unit values in memory, beyond what
    /// the units being solved and their dependencies need.
    pub fn new(budget: u64) -> UnitSolver {
        UnitSolver { budget, two_bytes_wide: false }
    }

    /// Solves every unit with two bytes a position, as the units whose
    /// distances outgrow a byte are: a check of that path on a game whose
    /// distances fit a byte, which must leave the same files (a unit is
    /// stored a byte wide whenever its values fit).
    #[must_use]
    pub fn two_bytes_wide(self) -> UnitSolver {
        UnitSolver { two_bytes_wide: true, ..self }
    }

    /// Solves every unit of `game` that `store` does not hold yet, each
    /// once the units it reads are solved, saving each as soon as it is.
    ///
    /// # Errors
    ///
    /// [`UnitSolveError`] if a unit fails or the store does; the units
    /// saved stay saved, so a later call solves only the others.
    pub fn solve<G: Units>(
        &self,
        game: &G,
        store: &dyn UnitStore,
        progress: &dyn Progress,
    ) -> Result<UnitReport, UnitSolveError> {
        let units = game.units();
        let total: u64 = units.iter().map(|u| u.len).sum();
        progress.start("solve", 2 * total);
        let run = Run::new(game, &units, store, self.budget, self.two_bytes_wide, progress);
        let mut number = 0;
        while number < units.len() {
            let segment = segment_from(&units, number);
            run.solve(segment.clone())?;
            number = segment.end;
        }
        Ok(run.report())
    }
}

/// Solves unit `number` of `units` given the values of the units it
/// depends on, two bytes a position if `two_bytes_wide` or if one of them
/// is.
fn solve_alone<G: Units>(
    game: &G,
    units: &[Unit],
    number: usize,
    dependencies: &[Arc<Solution>],
    two_bytes_wide: bool,
    sharing: Sharing,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    let unit = &units[number];
    // Long distances lead to longer ones: a unit moving into a unit of two
    // bytes a position is solved that wide at once.
    let wide = two_bytes_wide || dependencies.iter().any(|d| d.is_wide());
    let one = OneUnit { game, unit: number, len: unit.len, depends_on: &unit.depends_on };
    let chunk = chunk_for(unit.len, sharing);
    let (values, _) = if wide {
        retrograde::solve_alone(&one, &DependencyValues::<true>::new(dependencies), chunk, true, sharing, progress)
    } else {
        retrograde::solve_alone(&one, &DependencyValues::<false>::new(dependencies), chunk, false, sharing, progress)
    }?;
    Ok(values)
}

/// Positions per task: small units are cut finer so that both cores get
/// work. A unit solved alone is cut finer still, since its chunks are
/// also where the solver notes which distances are pending: a layer scans
/// only the chunks that have its distance. The values do not depend on it.
fn chunk_for(len: u64, sharing: Sharing) -> u64 {
    match sharing {
        Sharing::Threads => (len / 64).clamp(1 << 10, 1 << 15).next_multiple_of(8),
        Sharing::Alone => ALONE_CHUNK,
    }
}

/// Positions per chunk of a unit solved alone.
const ALONE_CHUNK: u64 = 1 << 12;

#[cfg(test)]
mod tests;
