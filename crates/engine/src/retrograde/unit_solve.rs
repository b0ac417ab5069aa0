//! The solve of one unit: its cells, the codes they hold, and the
//! buffers its workers reuse. Seeding (`seed`), propagation (`propagate`)
//! and the solve by parts (`parts`) are its stages.

use std::ops::Range;
use std::sync::atomic::AtomicU16;

use rayon::prelude::*;

use super::codes::{Codes, EarlierChildren};
use super::pending::Pending;
use super::{Numbering, SolveError};
use crate::cells::{Bytes, Cell, Cells};
use crate::game::{Expansion, Units};
use crate::progress::Progress;
use crate::value::Value;

/// Where a unit's moves into earlier units find their values: the same
/// cells when the whole game is in one table, or the values of the units a
/// unit solved alone depends on (see [`units`](crate::units)).
pub(crate) trait Earlier: Sync {
    /// Starts loading the values of `indices` (see `BATCH`), where that
    /// pays: it may do nothing for values that sit in the caches.
    fn touch(&self, indices: impl Iterator<Item = u64>);
    /// The final value of the earlier position `idx`, as a [`WideValue`](crate::WideValue) code.
    fn load(&self, idx: u64) -> u16;
    /// Whether it holds the value of the earlier position `idx`: all do,
    /// but the values of one pass of a unit solved in passes (see `passes`).
    #[inline(always)]
    fn covers(&self, idx: u64) -> bool {
        let _ = idx;
        true
    }
}

impl Earlier for Bytes {
    fn touch(&self, indices: impl Iterator<Item = u64>) {
        Bytes::touch(self, indices);
    }

    fn load(&self, idx: u64) -> u16 {
        u16::from(Bytes::load(self, idx))
    }
}

/// Positions whose children are looked up together.
///
/// Looking up a child or updating a parent is a cache miss into a table of
/// hundreds of megabytes. Done one at a time, each waits for the last; so
/// the solver first generates the indices for a batch of positions, asks
/// for all of their cache lines with prefetches (which, unlike loads, do
/// not hold up the work after them), and only then reads or updates them.
/// This is where most of the solver's speed comes from.
pub(super) const BATCH: usize = 64;

/// The most bytes of values that stay in the last-level cache (32 MiB and
/// more on the machines measured), where a load waits little. Earlier
/// units' values that fit are looked up as the children are found, not
/// gathered to be touched a batch ahead (see [`BATCH`]), which would only
/// work out every place twice and store it in between: Dodgem 5×5, whose
/// units' dependencies take at most a few megabytes, seeds 3 % faster so
/// (see `docs/notes/benchmarks.md`). Parents are gathered whatever the size:
/// with prefetches rather than loads, that paid even there.
pub(crate) const IN_THE_CACHES: u64 = 32 << 20;

/// Positions seeded per batch: more than [`BATCH`], since a game expands a
/// range at a time and finding where one starts costs it more than a step.
pub(super) const SEED_BATCH: usize = 1024;

/// A layer of a solve by units steps through a chunk rather than unindex
/// its decided positions (in ascending order, which lets neighbours share
/// work) once they are at least one in this many: stepping to the next
/// position of a Dodgem unit costs about this much less than unindexing
/// one that way. Measured on 5×5 against 1, 4, 8, 16 and 64. (The
/// whole-table solve keeps unindexing: its games were not measured for it.)
pub(super) const STEP_RATHER_THAN_UNINDEX: u64 = 2;

/// Buffers reused across batches by one worker.
pub(super) struct Scratch<P, C> {
    pub positions: Vec<(u64, Expansion, Range<usize>)>,
    pub children: Vec<u64>,
    pub codes: Vec<C>,
    /// The seeded positions' cells of [`UnitSolve::earlier_wins`].
    pub earlier_wins: Vec<C>,
    pub frontier: Vec<(u64, bool, P)>,
    /// The frontier's indices, before their positions are found.
    pub decided: Vec<(u64, bool)>,
    pub parents: Vec<(u64, P, bool)>,
    pub lost: Vec<(u64, P)>,
    /// The longest distance this worker has given since it last reported
    /// to [`UnitSolve::max_plies`] (kept local: a shared counter updated
    /// on every decision would bounce between cores).
    pub max_plies: u16,
}

impl<P, C> Default for Scratch<P, C> {
    fn default() -> Self {
        Scratch {
            positions: Vec::new(),
            children: Vec::new(),
            codes: Vec::new(),
            earlier_wins: Vec::new(),
            frontier: Vec::new(),
            decided: Vec::new(),
            parents: Vec::new(),
            lost: Vec::new(),
            max_plies: 0,
        }
    }
}

/// The codes one distance layer reads and writes.
#[derive(Copy, Clone)]
pub(super) struct Layer<C> {
    pub plies: u16,
    pub win: C,
    pub loss: C,
    /// Wins in `plies + 1`, if that fits.
    pub next_win: Option<C>,
    /// Losses in `plies + 1`, if that fits.
    pub next_loss: Option<C>,
}

/// Solves one unit of a game `G` in cells of type `C`, reading earlier
/// units' values from `E`. With `SHARED`, every thread of the pool works on
/// it and cells change by compare-and-swap; without, the calling thread
/// solves it alone, with plain loads and stores.
pub(super) struct UnitSolve<'a, G, E, C, const SHARED: bool> {
    pub game: &'a G,
    pub unit: usize,
    pub numbering: &'a Numbering,
    /// The cells of the unit's positions, numbered by `numbering`.
    pub cells: &'a Cells<C>,
    /// Where the values of earlier units are read.
    pub earlier: &'a E,
    pub codes: Codes<C>,
    /// Positions per task.
    pub chunk: u64,
    /// The numbers of the unit's positions in `cells`.
    pub range: Range<u64>,
    /// The longest distance given to any position of the unit so far,
    /// including one too long to encode (which stops the solve).
    pub max_plies: AtomicU16,
    pub pending: Pending,
    /// For each position seeded with a counter, one more than the longest
    /// win among its moves into earlier units (zero if none), so that a
    /// loss is settled without expanding it again (see
    /// [`settle_losses`](Self::settle_losses)). A cell a position: kept by
    /// units solved alone, not by the whole-game solve, which would double
    /// its memory and whose checkpoints resume after seeding.
    pub earlier_wins: Option<Cells<C>>,
    /// Whether a dense layer steps through its chunk (see `frontier`):
    /// measured faster for units of Dodgem, not for every game.
    pub step_dense_layers: bool,
    /// Whether the cells hold what earlier passes found of the positions'
    /// moves out of the unit (see `passes`), to be read with those
    /// `earlier` covers.
    pub folded: bool,
}

impl<G: Units, E: Earlier, C: Cell, const SHARED: bool> UnitSolve<'_, G, E, C, SHARED> {
    /// The fewest chunks a task takes: all of them when solving alone,
    /// which keeps every loop on the calling thread.
    pub(super) const MIN_CHUNKS_PER_TASK: usize = if SHARED { 1 } else { usize::MAX };

    /// Replaces the cell of `idx` by `f(cell)` unless `f` gives `None`;
    /// returns the cell replaced.
    #[inline]
    pub(super) fn update(&self, idx: u64, f: impl Fn(C) -> Option<C>) -> Option<C> {
        if SHARED { self.cells.update(idx, f) } else { self.cells.update_alone(idx, f) }
    }

    /// The unit cut into tasks, at multiples of the chunk size.
    pub(super) fn chunks(&self) -> Vec<Range<u64>> {
        let Range { start, end } = self.range;
        if start == end {
            return Vec::new();
        }
        let mut bounds = vec![start];
        let mut next = (start / self.chunk + 1) * self.chunk;
        while next < end {
            bounds.push(next);
            next += self.chunk;
        }
        bounds.push(end);
        bounds.windows(2).map(|w| w[0]..w[1]).collect()
    }

    /// The code of a decided `value`, remembering its distance.
    pub(super) fn decide(&self, value: Value, scratch: &mut Scratch<G::Position, C>) -> Result<C, SolveError> {
        scratch.max_plies = scratch.max_plies.max(value.plies().unwrap_or_default().0);
        self.codes.value(value)
    }

    /// The code of a value decided during propagation. A distance too long
    /// to encode is remembered and stored as a draw; `propagate` stops with
    /// an error when it reaches that layer.
    pub(super) fn decide_or_overflow(&self, value: Value, scratch: &mut Scratch<G::Position, C>) -> C {
        self.decide(value, scratch).unwrap_or(C::truncate(0))
    }

    /// Expands the position `pos` numbered `idx`, collecting its children
    /// in earlier units into `scratch.children` and its expansion and span
    /// of children into `scratch.positions`.
    pub(super) fn expand_into(&self, idx: u64, pos: &G::Position, scratch: &mut Scratch<G::Position, C>) {
        let first = scratch.children.len();
        let numbering = self.numbering;
        let expansion = self.game.expand(self.unit, pos, |to, at| {
            scratch.children.push(numbering.first_number(to) + at);
        });
        scratch.positions.push((idx, expansion, first..scratch.children.len()));
    }

    /// The cell of [`earlier_wins`](Self::earlier_wins) of a position
    /// seeded with `code`, whose longest move into an earlier unit wins in
    /// `longest_win`. Kept for counters only: a distance that reaches the
    /// counter codes overflows when the loss is settled.
    pub(super) fn earlier_win(&self, code: C, longest_win: Option<u16>) -> C {
        let win = longest_win.filter(|_| self.codes.is_counter(code)).map_or(0, |d| d + 1);
        C::truncate(u64::from(win.min(self.codes.limit() + 1)))
    }

    /// What the moves of the position numbered `idx` into earlier units,
    /// leading to `children`, say: those `earlier` covers, and what the
    /// earlier passes left in its cell if the cells are folded.
    #[inline(always)]
    pub(super) fn earlier_children(&self, idx: u64, children: &[u64]) -> EarlierChildren {
        let covered = children.iter().filter(|&&c| self.earlier.covers(c)).map(|&c| self.earlier.load(c));
        match self.folded {
            true => EarlierChildren::of(covered.chain(self.codes.unfold(self.cells.load(idx)))),
            false => EarlierChildren::of(covered),
        }
    }

    /// Makes every position still holding a counter a draw. Nothing else
    /// writes now, and every word holds cells of this unit or of units
    /// already final (never counters), so whole words are rewritten.
    pub(super) fn finish(&self, progress: &dyn Progress) {
        self.chunks().into_par_iter().with_min_len(Self::MIN_CHUNKS_PER_TASK).for_each(|chunk| {
            progress.advance(self.cells.clear_at_least(chunk, self.codes.first_counter()));
        });
    }
}
