//! Solves made of units: pieces of a game small enough for one machine's
//! memory, solved one after another and kept on disk.
//!
//! A game too large for one table in memory is solved by its
//! [`Units`]: each unit's moves lead into the unit itself or
//! into units listed before it, so the units form a DAG that the game lists
//! in a solving order. A unit is solved alone by the retrograde solver, its
//! moves out of the unit looked up in the values of the units it depends
//! on; then its values are written to a [`UnitStore`] and it is
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
//! by the game. Units solved earlier are kept in memory while a budget
//! allows, so that a unit read by several later ones is decompressed once.

mod audit;
mod dependency_values;
mod files;
mod memory;
#[cfg(feature = "mpi")]
mod mpi;
mod reach;
mod schedule;

use std::sync::Arc;
use std::time::Duration;

use crate::game::{Unit, Units};
use crate::progress::Progress;
pub use crate::retrograde::Ranks;
use crate::retrograde::{Earlier, InPasses, Numbering, Sharing, SolveError, UnitAlone, Width};
use crate::solution::Solution;
use crate::table::TableError;
use crate::value::Value;

pub use self::audit::{AuditRecord, UnitAuditError, audit_by_units, audit_recorded_finished, finished_audit};
use self::dependency_values::DependencyValues;
pub use self::files::{OPEN_FILES, OpenUnits, UnitFiles, UnitTable, UnitValues, WideUnitValues};
pub use self::memory::UnitsInMemory;
#[cfg(feature = "mpi")]
pub use self::mpi::solve_over_mpi;
pub use self::reach::{ForwardUnits, ReachCheckpoint, ReachError, SiblingMemo, finished_walk, reach_by_units};
use self::schedule::{Memory, Run, segment_from};

/// The positions of the `i`-th unit a unit solved alone depends on are
/// numbered from `(i + 1) * MAX_UNIT_LEN` on, so that the solver tells a
/// unit's own positions from those it reads by their number alone; a unit
/// has fewer positions.
pub const MAX_UNIT_LEN: u64 = 1 << 40;

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
    /// Units of this run that read the units they depend on in passes, to
    /// stay within the memory asked for (see [`UnitSolver::within`]).
    pub in_passes: usize,
    /// The most bytes of unit values held at once.
    pub peak_bytes: u64,
    /// The units this run solved, by size, with the time they took: what
    /// projects a solve of another board, or on another machine. Left
    /// empty by a solve spread over MPI ranks.
    pub by_size: Vec<SizeTime>,
}

/// The units of one size a run solved, and the wall time they took.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct SizeTime {
    /// Every unit counted has fewer positions than this, and at least half
    /// as many; except that the small units (below 2^24 positions) are one
    /// class, since they are solved several at once, one on each thread.
    pub below: u64,
    /// How many units.
    pub units: usize,
    /// Their positions.
    pub positions: u64,
    /// The wall time they took, from the first one's start to the last
    /// one's end for small units solved together.
    pub time: Duration,
}

/// Solves games made of units, within a memory budget.
#[derive(Clone, Debug)]
pub struct UnitSolver {
    budget: u64,
    ceiling: u64,
    two_bytes_wide: bool,
}

impl UnitSolver {
    /// Keeps at most `budget` bytes of unit values in memory, beyond what
    /// the units being solved and their dependencies need.
    pub fn new(budget: u64) -> UnitSolver {
        UnitSolver { budget, ceiling: u64::MAX, two_bytes_wide: false }
    }

    /// Holds at most about `ceiling` bytes of values and working cells at
    /// once, the kept units included: a large unit that would need more
    /// with everything it reads lets the kept units go, and reads the
    /// units it depends on a group at a time, in as many passes over its
    /// positions as it takes (see `retrograde::passes`). The values are
    /// the same; each pass but the last costs one more expansion of the
    /// unit. A unit that needs more with a single dependency is solved
    /// anyway.
    #[must_use]
    pub fn within(self, ceiling: u64) -> UnitSolver {
        UnitSolver { ceiling, ..self }
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
        let memory = Memory { kept: self.budget, ceiling: self.ceiling };
        let run = Run::new(game, &units, store, memory, self.two_bytes_wide, progress);
        let mut number = 0;
        while number < units.len() {
            let segment = segment_from(&units, number);
            run.solve(segment.clone())?;
            number = segment.end;
        }
        Ok(run.report())
    }
}

/// Solves every unit of `game` that `store` lacks, in order, each split
/// over `ranks` (see [`Ranks`]): every rank calls it alike, rank 0 saves
/// each unit, and every rank reports the units solved together.
///
/// # Errors
///
/// [`UnitSolveError`] on every rank if the store cannot be read on one, a
/// unit fails, or rank 0 cannot save it: on the rank where it happened the
/// cause, on the others that their part stopped.
pub fn solve_split<G: Units>(
    game: &G,
    store: &dyn UnitStore,
    ranks: &dyn Ranks,
    progress: &dyn Progress,
) -> Result<UnitReport, UnitSolveError> {
    let units = game.units();
    let run = Run::new(game, &units, store, Memory { kept: 0, ceiling: u64::MAX }, false, progress);
    for number in 0..units.len() {
        let has = schedule::agreed(ranks, number, store.has(number))?;
        // All ranks skip a unit or none does, even if it appears meanwhile.
        if ranks.max(&[u64::from(has)])[0] == 0 {
            run.solve_split(number, ranks)?;
        }
    }
    Ok(run.report())
}

/// Who solves a unit: this process ([`Sharing`]), or this process with
/// others, each its slice.
#[derive(Copy, Clone)]
enum Solvers<'r> {
    Here(Sharing),
    Split(&'r dyn Ranks),
}

/// Solves unit `number` of `units` given the values of the units it
/// depends on, two bytes a position if `two_bytes_wide` or if one of them
/// is: its values, unless split over ranks of which this is not the first.
fn solve_with_dependencies<G: Units>(
    game: &G,
    units: &[Unit],
    number: usize,
    dependencies: &[Arc<Solution>],
    two_bytes_wide: bool,
    solvers: Solvers<'_>,
    progress: &dyn Progress,
) -> Result<Option<Solution>, SolveError> {
    let unit = &units[number];
    // Long distances lead to longer ones: a unit moving into a unit of two
    // bytes a position is solved that wide at once.
    let any_wide = dependencies.iter().any(|d| d.is_wide());
    let width = if two_bytes_wide || any_wide { Width::TwoBytes } else { Width::ByteFirst };
    let reads = unit.depends_on.iter().enumerate().map(|(i, &d)| (d, (i as u64 + 1) * MAX_UNIT_LEN));
    let numbering = Numbering::new(number, 0, units.len(), reads);
    let chunk = chunk_for(
        unit.len,
        match solvers {
            Solvers::Here(sharing) => sharing,
            Solvers::Split(_) => Sharing::Threads,
        },
    );
    if any_wide {
        let earlier = DependencyValues::<_, true>::new(dependencies);
        let alone = UnitAlone { game, unit: number, len: unit.len, numbering: &numbering, earlier: &earlier, chunk };
        alone.solve_by(width, solvers, progress)
    } else {
        let earlier = DependencyValues::<_, false>::new(dependencies);
        let alone = UnitAlone { game, unit: number, len: unit.len, numbering: &numbering, earlier: &earlier, chunk };
        alone.solve_by(width, solvers, progress)
    }
}

/// Solves unit `number` of `units` as [`solve_with_dependencies`] does,
/// reading the units it depends on a group at a time: `groups` of their
/// places in its `depends_on`, each read by `load`.
fn solve_in_passes<G: Units>(
    game: &G,
    units: &[Unit],
    number: usize,
    (groups, load): (&[Vec<usize>], impl Fn(usize) -> Result<Arc<Solution>, TableError>),
    two_bytes_wide: bool,
    sharing: Sharing,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    let unit = &units[number];
    let reads = unit.depends_on.iter().enumerate().map(|(i, &d)| (d, (i as u64 + 1) * MAX_UNIT_LEN));
    let numbering = Numbering::new(number, 0, units.len(), reads);
    let empty = Arc::new(Solution::from_words(Vec::new(), 0));
    let values = |pass: usize| {
        let mut values = vec![Arc::clone(&empty); unit.depends_on.len()];
        let mut covered = vec![false; unit.depends_on.len()];
        for &at in &groups[pass] {
            values[at] = load(unit.depends_on[at]).map_err(SolveError::Earlier)?;
            covered[at] = true;
        }
        Ok(DependencyValues::one_pass(values, covered))
    };
    let chunk = chunk_for(unit.len, sharing);
    let in_passes =
        InPasses { game, unit: number, len: unit.len, numbering: &numbering, chunk, passes: groups.len(), values };
    let width = if two_bytes_wide { Width::TwoBytes } else { Width::ByteFirst };
    in_passes.solve(width, sharing, progress)
}

impl<G: Units, E: Earlier> UnitAlone<'_, G, E> {
    fn solve_by(
        &self,
        width: Width,
        solvers: Solvers<'_>,
        progress: &dyn Progress,
    ) -> Result<Option<Solution>, SolveError> {
        match solvers {
            Solvers::Here(sharing) => self.solve(width, sharing, progress).map(Some),
            Solvers::Split(ranks) => self.solve_split(width, ranks, progress),
        }
    }
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
