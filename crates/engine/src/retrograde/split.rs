//! One unit solved by several processes at once (ranks), each owning a
//! slice of its positions: the way past a unit too large for one machine
//! (`docs/dodgem-7x7.md`).
//!
//! Every rank seeds its slice; then the ranks go through the distance
//! layers together. In a layer each rank finds the in-unit parents of its
//! positions decided at that distance and sends each to the rank that
//! owns it; once all have exchanged, each tells its own parents. Within a
//! layer the values do not depend on the order parents are told (see the
//! module docs), so the unit is the same bytes one process would make.
//! After seeding and after each layer the ranks agree on the longest
//! distance given so far, which ends the loop, and on whether any stopped
//! or overflowed a byte, so that all leave or widen together.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::SolveError;
use super::alone::{UnitAlone, Width, widening};
use super::propagate::Learned;
use super::unit_solve::{BATCH, Earlier, Layer, Scratch, UnitSolve};
use crate::cells::{Cell, Cells};
use crate::game::Units;
use crate::progress::{Interrupted, Progress};
use crate::solution::Solution;

/// The ranks that solve one unit together, and what they do together.
/// Every rank makes the same calls in the same order.
pub trait Ranks {
    /// This rank's number, from 0.
    fn rank(&self) -> usize;

    /// How many ranks there are.
    fn count(&self) -> usize;

    /// Sends `outgoing[r]` to rank `r`; returns what every rank sent this
    /// one, one rank's words after another's.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64>;

    /// Each of `words` at its largest over the ranks.
    fn max(&self, words: &[u64]) -> Vec<u64>;

    /// The ranks' `words` ORed together, on rank 0; `None` on the others.
    fn or_to_first(&self, words: Vec<u64>) -> Option<Vec<u64>>;
}

/// Which positions of a unit each rank owns: slices that start at
/// multiples of the chunk (a multiple of a word's cells), so that no word
/// of cells has two owners.
struct Slices {
    starts: Vec<u64>,
    len: u64,
}

impl Slices {
    fn new(len: u64, chunk: u64, ranks: usize) -> Slices {
        let starts = (0..ranks as u64).map(|r| len * r / ranks as u64 / chunk * chunk).collect();
        Slices { starts, len }
    }

    fn of(&self, rank: usize) -> Range<u64> {
        self.starts[rank]..self.starts.get(rank + 1).copied().unwrap_or(self.len)
    }

    fn owner(&self, idx: u64) -> usize {
        self.starts.partition_point(|&start| start <= idx) - 1
    }
}

/// How a rank's part of a step ended, as the ranks agree on it: the
/// largest wins.
const DONE: u64 = 0;
const OVERFLOWED: u64 = 1;
const STOPPED: u64 = 2;

impl<G: Units, E: Earlier> UnitAlone<'_, G, E> {
    /// Solves the unit over `ranks`, this rank its slice: the values on
    /// rank 0, `None` on the others. Cells of the whole unit are held on
    /// every rank (only the rank's slice written): enough to show the
    /// split gives the same bytes, not yet the memory it saves.
    pub(crate) fn solve_split(
        &self,
        width: Width,
        ranks: &dyn Ranks,
        progress: &dyn Progress,
    ) -> Result<Option<Solution>, SolveError> {
        widening(width, progress, |wide, progress| match wide {
            false => self.split_in::<u8>(ranks, progress),
            true => self.split_in::<u16>(ranks, progress),
        })
    }

    fn split_in<C: Cell>(&self, ranks: &dyn Ranks, progress: &dyn Progress) -> Result<Option<Solution>, SolveError> {
        let slices = Slices::new(self.len, self.chunk, ranks.count());
        let own = slices.of(ranks.rank());
        let cells = Cells::<C>::zeroed(self.len);
        let solver = self.solver::<C, true>(&cells, own, true);
        let seeded = solver.seed(progress);
        solver.agree(ranks, seeded)?;
        let mut plies = 0;
        while plies <= solver.max_plies.load(Relaxed) {
            let layer = solver.layer(plies)?;
            // A rank that stops still exchanges, so that none waits for it.
            let (outgoing, found) = match solver.parents_by_owner(layer, &slices, progress) {
                Ok(outgoing) => (outgoing, Ok(())),
                Err(stopped) => (vec![Vec::new(); ranks.count()], Err(stopped)),
            };
            let received = ranks.exchange(outgoing);
            let told = found.map(|()| solver.tell_received(&received, layer));
            solver.agree(ranks, told)?;
            plies += 1;
        }
        solver.finish(progress);
        drop(solver);
        let words = ranks.or_to_first(cells.into_words());
        Ok(words.map(|words| {
            Solution::from_cells(Cells::<C>::from_words(words.into_iter().map(AtomicU64::new).collect()), self.len)
        }))
    }
}

impl<G: Units, E: Earlier, C: Cell> UnitSolve<'_, G, E, C, true> {
    /// Leaves every rank with the longest distance any has given, and the
    /// same outcome: an error on all if `outcome` is one on any.
    fn agree(&self, ranks: &dyn Ranks, outcome: Result<(), SolveError>) -> Result<(), SolveError> {
        let status = match &outcome {
            Ok(()) => DONE,
            Err(SolveError::DistanceOverflow { .. }) => OVERFLOWED,
            Err(_) => STOPPED,
        };
        let agreed = ranks.max(&[u64::from(self.max_plies.load(Relaxed)), status]);
        let plies = agreed[0] as u16;
        self.max_plies.store(plies, Relaxed);
        match agreed[1] {
            DONE => Ok(()),
            // Every rank widens, whichever overflowed.
            OVERFLOWED => Err(self.codes.too_long(plies.max(self.codes.limit() + 1))),
            _ => Err(match outcome {
                Err(error) if status == STOPPED => error,
                _ => Interrupted.into(),
            }),
        }
    }

    /// The in-unit parents of this rank's positions decided at `layer`,
    /// as words `parent << 1 | 1` if the child wins (`| 0` if it loses),
    /// by the rank that owns the parent.
    fn parents_by_owner(
        &self,
        layer: Layer<C>,
        slices: &Slices,
        progress: &dyn Progress,
    ) -> Result<Vec<Vec<u64>>, SolveError> {
        let ranks = slices.starts.len();
        let chunks = self.chunks();
        let found = chunks.par_iter().enumerate().try_fold(
            || (Scratch::<G::Position, C>::default(), vec![Vec::new(); ranks]),
            |(mut scratch, mut outgoing), (number, chunk)| {
                if progress.should_stop() {
                    return Err(SolveError::Interrupted(Interrupted));
                }
                if self.pending.has(number, layer.plies) {
                    let mut frontier = std::mem::take(&mut scratch.frontier);
                    self.frontier(chunk, layer, &mut scratch.decided, &mut frontier);
                    let positions = frontier.iter().map(|&(_, is_win, pos)| (is_win, pos));
                    self.game.for_each_parent_of_each(self.unit, positions, |child_wins, parent, _| {
                        outgoing[slices.owner(parent)].push(parent << 1 | u64::from(child_wins));
                    });
                    progress.advance(frontier.len() as u64);
                    scratch.frontier = frontier;
                }
                Ok((scratch, outgoing))
            },
        );
        found.map(|part| part.map(|(_, outgoing)| outgoing)).try_reduce(
            || vec![Vec::new(); ranks],
            |mut all, part| {
                all.iter_mut().zip(part).for_each(|(words, more)| words.extend(more));
                Ok(all)
            },
        )
    }

    /// Tells this rank's parents what `received` (words of
    /// [`parents_by_owner`](Self::parents_by_owner)) says of their moves.
    fn tell_received(&self, received: &[u64], layer: Layer<C>) {
        received.par_chunks(BATCH).for_each_init(Scratch::<G::Position, C>::default, |scratch, batch| {
            self.cells.touch(batch.iter().map(|word| word >> 1));
            let mut lost = Vec::new();
            let mut decided = false;
            for &word in batch {
                match self.tell(word >> 1, word & 1 == 1, layer) {
                    Learned::Nothing => {}
                    Learned::Decided => decided = true,
                    Learned::Lost => {
                        decided = true;
                        lost.push(word >> 1);
                    }
                }
            }
            if decided {
                scratch.max_plies = scratch.max_plies.max(layer.plies + 1);
            }
            self.settle_losses_kept(lost.into_iter(), layer.plies, scratch);
            self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
        });
    }
}
