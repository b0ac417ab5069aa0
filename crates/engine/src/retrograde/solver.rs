//! A whole game solved in one table, its units one after another, with
//! checkpoints between distance layers.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::pending::Pending;
use super::state::SolverState;
use super::unit_solve::UnitSolve;
use super::{Numbering, SolveError};
use crate::cells::Bytes;
use crate::game::{DenseIndex, Units};
use crate::progress::Progress;
use crate::solution::Solution;
use crate::table::Checkpoint;

/// Solves every position of `game` with the default [`Solver`], in one
/// table numbered by its [`DenseIndex`] (see [`Solver::solve`]).
///
/// # Errors
///
/// As for [`Solver::solve`].
pub fn solve<G: Units + DenseIndex>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
    Solver::new().solve(game, progress)
}

/// How a solve runs: how many positions one task takes at a time and where
/// it keeps checkpoints. The result is the same whatever they are.
#[derive(Clone, Debug)]
pub struct Solver<'a> {
    chunk: u64,
    checkpoints: Option<(&'a Checkpoint, Duration)>,
}

impl Default for Solver<'_> {
    fn default() -> Self {
        Solver::new()
    }
}

impl<'a> Solver<'a> {
    /// Tasks of 2^15 positions (a few hundred kilobytes of the store, so
    /// that a layer spreads over every thread) and no checkpoints.
    pub fn new() -> Solver<'a> {
        Solver { chunk: 1 << 15, checkpoints: None }
    }

    /// Tasks of `positions` positions. Small tasks make threads race over
    /// the same words, which tests want.
    ///
    /// # Panics
    ///
    /// Panics unless `positions` is a positive multiple of 8: no two tasks
    /// may write the same word while seeding.
    #[must_use]
    #[track_caller]
    pub fn with_chunk_size(self, positions: u64) -> Solver<'a> {
        assert!(positions > 0 && positions.is_multiple_of(8), "a chunk is a positive multiple of 8 positions");
        Solver { chunk: positions, ..self }
    }

    /// Resumes from `checkpoint` if it holds a solve of the same game, and
    /// saves there between distance layers whenever `every` has passed
    /// since the last save. The file is left in place: the caller removes
    /// it once the solution is safe.
    #[must_use]
    pub fn with_checkpoints(self, checkpoint: &'a Checkpoint, every: Duration) -> Solver<'a> {
        Solver { checkpoints: Some((checkpoint, every)), ..self }
    }

    /// Solves every position of `game`, its units one after another in one
    /// table numbered by its [`DenseIndex`]: each unit's positions must be
    /// one run of the index, in the unit's order, and the runs must cover
    /// it (a game of tiers numbers them so).
    ///
    /// # Errors
    ///
    /// [`SolveError::Interrupted`] if `progress` asked to stop,
    /// [`SolveError::DistanceOverflow`] if some distance is too long for one
    /// byte, and [`SolveError::Checkpoint`] or
    /// [`SolveError::ForeignCheckpoint`] if the checkpoint cannot be read
    /// (or is of another solve) or written.
    ///
    /// # Panics
    ///
    /// Panics if the units are not runs of the index that cover it.
    pub fn solve<G: Units + DenseIndex>(&self, game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
        let len = game.position_count();
        let units = game.units();
        let runs = runs_of_units(game, &units.iter().map(|u| u.len).collect::<Vec<_>>());
        let (cells, mut resume) = match self.load(len)? {
            Some((state, words)) => (Bytes::from_words(words), Some(state)),
            None => (Bytes::zeroed(len), None),
        };
        if resume.as_ref().is_some_and(|state| state.unit as usize >= units.len()) {
            return Err(self.foreign());
        }
        progress.start("solve", 2 * len);
        let mut last_save = Instant::now();
        for (number, unit) in units.iter().enumerate() {
            let range = runs[number].clone();
            if resume.as_ref().is_some_and(|state| state.unit as usize > number) {
                progress.advance(2 * unit.len);
                continue;
            }
            let state = resume.take_if(|state| state.unit as usize == number);
            let pending = match &state {
                Some(state) => Pending::from_masks(&range, self.chunk, &state.pending).ok_or_else(|| self.foreign())?,
                None => Pending::new(&range, self.chunk),
            };
            let numbering =
                Numbering::new(number, range.start, units.len(), unit.depends_on.iter().map(|&d| (d, runs[d].start)));
            let solver = UnitSolve::<_, _, _, true> {
                game,
                unit: number,
                numbering: &numbering,
                cells: &cells,
                earlier: &cells,
                codes: super::codes::Codes::new(game.max_in_unit_moves()),
                chunk: self.chunk,
                range,
                max_plies: AtomicU16::new(state.as_ref().map_or(0, |s| s.max_plies)),
                pending,
                earlier_wins: None,
                step_dense_layers: false,
                folded: false,
            };
            let first_layer = match state {
                Some(state) => {
                    progress.advance(unit.len);
                    state.next_layer
                }
                None => {
                    progress.stage(&format!("unit {number}: seeding"));
                    solver.seed(progress)?;
                    0
                }
            };
            let mut save = |next_layer: u16| -> Result<(), SolveError> {
                let Some((checkpoint, _)) = self.checkpoints.filter(|(_, every)| last_save.elapsed() >= *every) else {
                    return Ok(());
                };
                let state = SolverState {
                    chunk: self.chunk,
                    unit: number as u32,
                    next_layer,
                    max_plies: solver.max_plies.load(Relaxed),
                    pending: solver.pending.to_masks(),
                };
                checkpoint.save(&state.to_bytes(), cells.words()).map_err(SolveError::Checkpoint)?;
                last_save = Instant::now();
                Ok(())
            };
            save(first_layer)?;
            progress.stage(&format!("unit {number}: propagation"));
            solver.propagate(progress, first_layer, &mut save)?;
            progress.stage(&format!("unit {number}: draws"));
            solver.finish(progress);
        }
        Ok(Solution::from_words(cells.into_words(), len))
    }

    /// The state and words of the checkpoint, if there is one.
    fn load(&self, len: u64) -> Result<Option<(SolverState, Vec<AtomicU64>)>, SolveError> {
        let Some((checkpoint, _)) = self.checkpoints else { return Ok(None) };
        let Some(saved) = checkpoint.load(len.div_ceil(8)).map_err(SolveError::Checkpoint)? else {
            return Ok(None);
        };
        match SolverState::from_bytes(&saved.state) {
            Some(state) if state.chunk == self.chunk => Ok(Some((state, saved.words))),
            _ => Err(self.foreign()),
        }
    }

    fn foreign(&self) -> SolveError {
        let path = self.checkpoints.map(|(c, _)| c.path().to_path_buf()).unwrap_or_default();
        SolveError::ForeignCheckpoint { path }
    }
}

/// Where each unit of `game`, of `lens` positions, lies in its index.
///
/// # Panics
///
/// Panics unless the units' positions are runs of the index, each in its
/// unit's order, that cover it without overlap.
fn runs_of_units<G: Units + DenseIndex>(game: &G, lens: &[u64]) -> Vec<Range<u64>> {
    let runs: Vec<Range<u64>> = (0..lens.len())
        .map(|unit| match lens[unit] {
            0 => 0..0,
            len => {
                let start = game.index(&game.unindex_in_unit(unit, 0));
                start..start + len
            }
        })
        .collect();
    let mut sorted: Vec<&Range<u64>> = runs.iter().filter(|run| !run.is_empty()).collect();
    sorted.sort_by_key(|run| run.start);
    let mut next = 0;
    for run in sorted {
        assert_eq!(run.start, next, "the units of a game solved in one table are runs of its index that cover it");
        next = run.end;
    }
    assert_eq!(next, game.position_count(), "the units of a game solved in one table cover its index");
    runs
}
