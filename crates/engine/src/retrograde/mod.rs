//! Tiered retrograde analysis with counters and distances.
//!
//! Tiers are solved one after another in the order the game lists them, so
//! every move out of a tier finds its child already solved. Within a tier:
//!
//! 1. **Seeding.** Every position is expanded once. Terminal positions get
//!    their value; a move into an earlier tier that wins gives a provisional
//!    win; everything else gets a counter of moves not yet known to lose.
//! 2. **Propagation by distance.** For `d = 0, 1, 2, …` every position whose
//!    value has distance exactly `d` is expanded backwards: its in-tier
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
//! needs two (below). A solve of one tier (a unit) keeps a second cell a
//! position for what its moves into earlier tiers said, so that a loss is
//! settled by a load rather than by expanding it again: a tenth of a
//! Dodgem unit's time, for a unit's worth of memory. While a tier is
//! being solved, the cell of an undecided position holds its counter in
//! the top codes of the cell (see `Codes`) instead of a value. Sharing the byte
//! halves memory and, more importantly, makes every parent update touch one
//! cache line instead of two.
//!
//! A byte shared that way holds distances up to about 120 plies. A unit
//! (see [`units`](crate::units)) that goes further is solved again with two
//! bytes per position, the same codes widened ([`WideValue`]), and kept
//! that wide only if some value does not fit the one-byte
//! [`PackedValue`]: the cost of a long game falls on the units that hold
//! its long positions, not on the others.
//!
//! # Parallelism and determinism
//!
//! Seeding and each distance layer run in parallel over chunks of the tier.
//! Bytes are updated with compare-and-swap on the 64-bit word that holds
//! them. All updates within a layer commute (a win can only shorten to
//! `d + 1`, a counter only counts down, and a counter only reaches zero when
//! no loss lies below), so the result is byte-for-byte the same for any
//! number of threads. A tier solved alone (`Sharing::Alone`, as the
//! small units of a solve by units are, several at once) stays on its
//! calling thread and updates its bytes with plain loads and stores.

mod parts;
mod pending;
mod state;

use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use self::pending::{Distances, MASKED, Pending};
use self::state::SolverState;
use crate::bytes::{Bytes, Cell, Cells, cell_of};
use crate::game::{Expansion, TieredRetrograde};
use crate::lookup::Values;
use crate::packed::{PackedValue, WideValue};
use crate::progress::{Interrupted, Progress};
use crate::table::{Checkpoint, Packed, Payload, TableError};
use crate::tally::Tally;
use crate::value::{Plies, Value};

/// Why a solve stopped without a result.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// [`Progress::should_stop`] asked the solve to stop.
    #[error("the solve stopped before the end")]
    Interrupted(#[from] Interrupted),
    /// The checkpoint could not be read or written.
    #[error("checkpoint failed")]
    Checkpoint(#[source] TableError),
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

/// The solved values of every position: one [`PackedValue`] byte each, or
/// two bytes each ([`WideValue`]) where some distance does not fit a byte.
#[derive(Debug)]
pub struct Solution {
    words: Vec<u64>,
    len: u64,
    wide: bool,
}

impl Solution {
    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the values take two bytes each.
    pub fn is_wide(&self) -> bool {
        self.wide
    }

    /// The bytes the values take in memory.
    pub fn size_in_bytes(&self) -> u64 {
        8 * self.words.len() as u64
    }

    /// The solution held by `words`, eight positions to a word.
    pub(crate) fn from_words(words: Vec<u64>, len: u64) -> Solution {
        debug_assert_eq!(words.len() as u64, len.div_ceil(8));
        Solution { words, len, wide: false }
    }

    /// The solution held by `words`, four two-byte codes to a word.
    pub(crate) fn from_wide_words(words: Vec<u64>, len: u64) -> Solution {
        debug_assert_eq!(words.len() as u64, len.div_ceil(4));
        Solution { words, len, wide: true }
    }

    /// The solution held by the cells of a solve, one byte each if they fit.
    fn from_cells<C: Cell>(cells: Cells<C>, len: u64) -> Solution {
        let words = cells.into_words();
        if C::BITS == 8 {
            return Solution::from_words(words, len);
        }
        let high_bytes = 0xff00_ff00_ff00_ff00;
        if words.par_iter().any(|word| word & high_bytes != 0) {
            return Solution::from_wide_words(words, len);
        }
        let narrow = words
            .par_chunks(2)
            .map(|pair| {
                let mut word = 0;
                for (i, &wide) in pair.iter().enumerate() {
                    for lane in 0..4 {
                        word |= (wide >> (16 * lane) & 0xff) << (8 * (4 * i + lane));
                    }
                }
                word
            })
            .collect();
        Solution::from_words(narrow, len)
    }

    /// The words of a solution of bytes, eight positions to a word.
    pub(crate) fn words(&self) -> &[u64] {
        assert!(!self.wide, "only a solution of bytes is read word by word");
        &self.words
    }

    /// The words of a solution of bytes, to be written.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        assert!(!self.wide, "only a solution of bytes is written word by word");
        &mut self.words
    }

    /// The code of position `idx` of a solution of bytes, without asking.
    #[inline]
    pub(crate) fn byte(&self, idx: u64) -> u8 {
        debug_assert!(!self.wide);
        cell_of(self.words[(idx / 8) as usize], idx)
    }

    /// Asks for the line holding position `idx`'s code (see `BATCH`).
    #[inline]
    pub(crate) fn prefetch(&self, idx: u64) {
        solved_dispatch::prefetch(&self.words[(idx / if self.wide { 4 } else { 8 }) as usize]);
    }

    /// The code of position `idx`, as a [`WideValue`] stores it.
    #[inline]
    pub(crate) fn code(&self, idx: u64) -> u16 {
        if self.wide {
            cell_of(self.words[(idx / 4) as usize], idx)
        } else {
            u16::from(cell_of::<u8>(self.words[(idx / 8) as usize], idx))
        }
    }

    /// The value of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn value(&self, idx: u64) -> Value {
        assert!(idx < self.len, "position index out of range");
        WideValue::from_code(self.code(idx)).unpack()
    }

    /// Hands `sink` the values as two-byte little-endian codes, in pieces.
    pub(crate) fn write_wide_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        const PIECE: u64 = 1 << 19;
        let mut buffer = Vec::with_capacity(2 * PIECE as usize);
        for start in (0..self.len).step_by(PIECE as usize) {
            buffer.clear();
            buffer.extend((start..(start + PIECE).min(self.len)).flat_map(|idx| self.code(idx).to_le_bytes()));
            sink(&buffer)?;
        }
        Ok(())
    }
}

impl Values for Solution {
    fn len(&self) -> u64 {
        self.len
    }

    fn probe(&self, idx: u64) -> Value {
        self.value(idx)
    }
}

impl Payload<Packed> for Solution {
    fn tally(&self) -> Tally {
        const PIECE: u64 = 1 << 19;
        (0..self.len.div_ceil(PIECE))
            .into_par_iter()
            .map(|piece| {
                let mut tally = Tally::default();
                for idx in piece * PIECE..((piece + 1) * PIECE).min(self.len) {
                    tally.add(self.value(idx));
                }
                tally
            })
            .reduce(Tally::default, Tally::merge)
    }

    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidData`] for a solution of two bytes a value,
    /// whose distances do not fit the one-byte table.
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        if self.wide {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a distance past {} plies does not fit one byte per position", PackedValue::MAX_PLIES),
            ));
        }
        const PIECE: usize = 1 << 20;
        let mut buffer = Vec::with_capacity(PIECE);
        let mut remaining = self.len as usize;
        for word in &self.words {
            let take = remaining.min(8);
            buffer.extend_from_slice(&word.to_le_bytes()[..take]);
            remaining -= take;
            if buffer.len() + 8 > PIECE {
                sink(&buffer)?;
                buffer.clear();
            }
        }
        if !buffer.is_empty() {
            sink(&buffer)?;
        }
        Ok(())
    }
}

/// Solves every position of `game` with the default [`Solver`].
///
/// # Errors
///
/// As for [`Solver::solve`].
pub fn solve<G: TieredRetrograde>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
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

    /// Solves every position of `game`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Interrupted`] if `progress` asked to stop,
    /// [`SolveError::DistanceOverflow`] if some distance is too long for one
    /// byte, and [`SolveError::Checkpoint`] or
    /// [`SolveError::ForeignCheckpoint`] if the checkpoint cannot be read
    /// (or is of another solve) or written.
    pub fn solve<G: TieredRetrograde>(&self, game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
        let len = game.position_count();
        let codes = Codes::new(game.max_in_tier_moves());
        let (bytes, mut resume) = match self.load(len)? {
            Some((state, words)) => (Bytes::from_words(words), Some(state)),
            None => (Bytes::zeroed(len), None),
        };
        let tiers = game.tiers();
        if resume.as_ref().is_some_and(|state| state.tier as usize >= tiers.len()) {
            return Err(self.foreign());
        }
        progress.start("solve", 2 * len);
        let mut last_save = Instant::now();
        for (tier_number, tier) in tiers.into_iter().enumerate() {
            let size = tier.end - tier.start;
            if resume.as_ref().is_some_and(|state| state.tier as usize > tier_number) {
                progress.advance(2 * size);
                continue;
            }
            let state = resume.take_if(|state| state.tier as usize == tier_number);
            let pending = match &state {
                Some(state) => Pending::from_masks(&tier, self.chunk, &state.pending).ok_or_else(|| self.foreign())?,
                None => Pending::new(&tier, self.chunk),
            };
            let max_plies = AtomicU16::new(state.as_ref().map_or(0, |s| s.max_plies));
            let solver = TierSolver::<_, _, _, true> {
                game,
                bytes: &bytes,
                earlier: &bytes,
                codes,
                chunk: self.chunk,
                tier,
                tier_number,
                max_plies,
                pending,
                earlier_wins: None,
                step_dense_layers: false,
            };
            let first_layer = match state {
                Some(state) => {
                    progress.advance(size);
                    state.next_layer
                }
                None => {
                    progress.stage(&format!("tier {tier_number}: seeding"));
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
                    tier: tier_number as u32,
                    next_layer,
                    max_plies: solver.max_plies.load(Relaxed),
                    pending: solver.pending.to_masks(),
                };
                checkpoint.save(&state.to_bytes(), bytes.words()).map_err(SolveError::Checkpoint)?;
                last_save = Instant::now();
                Ok(())
            };
            save(first_layer)?;
            progress.stage(&format!("tier {tier_number}: propagation"));
            solver.propagate(progress, first_layer, &mut save)?;
            progress.stage(&format!("tier {tier_number}: draws"));
            solver.finish(progress);
        }
        Ok(Solution::from_words(bytes.into_words(), len))
    }

    /// The state and words of the checkpoint, if there is one.
    fn load(&self, len: u64) -> Result<Option<(SolverState, Vec<std::sync::atomic::AtomicU64>)>, SolveError> {
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

/// Where a tier's moves into earlier tiers find their values: the same
/// store when the whole game is in memory, or the values of the units a
/// unit depends on (see [`units`](crate::units)).
pub(crate) trait Earlier: Sync {
    /// Starts loading the values of `indices` (see `BATCH`), where that
    /// pays: it may do nothing for values that sit in the caches.
    fn touch(&self, indices: impl Iterator<Item = u64>);
    /// The final value of the earlier position `idx`, as a [`WideValue`] code.
    fn load(&self, idx: u64) -> u16;
}

impl Earlier for Bytes {
    fn touch(&self, indices: impl Iterator<Item = u64>) {
        Bytes::touch(self, indices);
    }

    fn load(&self, idx: u64) -> u16 {
        u16::from(Bytes::load(self, idx))
    }
}

/// Solves a game of exactly one tier, `0..position_count()`, whose moves
/// out of it are looked up in `earlier`; gives one value per position. No
/// checkpoints: a caller that needs to resume keeps its tiers small enough
/// to redo. With [`Sharing::Alone`] it runs on the calling thread only.
///
/// It solves with one byte per position unless `wide_first`, and again
/// with two if a distance does not fit (see the module docs): a caller
/// that expects long distances (its earlier values are wide) saves the
/// first try. Says, beside the solution, whether it took two bytes a
/// position (the memory it held), even if the solution is of bytes.
pub(crate) fn solve_alone<G: TieredRetrograde, E: Earlier>(
    game: &G,
    earlier: &E,
    chunk: u64,
    wide_first: bool,
    sharing: Sharing,
    progress: &dyn Progress,
) -> Result<(Solution, bool), SolveError> {
    let first = Tried { progress, skip: AtomicU64::new(0), passed: AtomicU64::new(0) };
    if !wide_first {
        let solved = match sharing {
            Sharing::Threads => solve_alone_in::<G, E, u8, true>(game, earlier, chunk, &first),
            Sharing::Alone => solve_alone_in::<G, E, u8, false>(game, earlier, chunk, &first),
        };
        match solved {
            Err(SolveError::DistanceOverflow { .. }) => {}
            solved => return solved.map(|solution| (solution, false)),
        }
    }
    let second = Tried { progress, skip: first.passed, passed: AtomicU64::new(0) };
    match sharing {
        Sharing::Threads => solve_alone_in::<G, E, u16, true>(game, earlier, chunk, &second),
        Sharing::Alone => solve_alone_in::<G, E, u16, false>(game, earlier, chunk, &second),
    }
    .map(|solution| (solution, true))
}

/// Who solves a tier that [`solve_alone`] is given.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Sharing {
    /// Every thread of the pool, updating cells by compare-and-swap.
    Threads,
    /// The calling thread alone, with plain loads and stores: the caller
    /// runs other tiers on the other threads.
    Alone,
}

/// The progress of one try at a solve, which passes on only the work
/// beyond the first `skip` units (what an earlier try reported), so that
/// a bar counts the positions once however often they are solved.
struct Tried<'a> {
    progress: &'a dyn Progress,
    skip: AtomicU64,
    passed: AtomicU64,
}

impl Progress for Tried<'_> {
    fn stage(&self, name: &str) {
        self.progress.stage(name);
    }

    fn note(&self, message: &str) {
        self.progress.note(message);
    }

    fn advance(&self, units: u64) {
        let skipped = self.skip.fetch_update(Relaxed, Relaxed, |skip| Some(skip.saturating_sub(units)));
        let passed = units.saturating_sub(skipped.expect("the update always gives a value"));
        self.passed.fetch_add(passed, Relaxed);
        self.progress.advance(passed);
    }

    fn should_stop(&self) -> bool {
        self.progress.should_stop()
    }
}

fn solve_alone_in<G: TieredRetrograde, E: Earlier, C: Cell, const SHARED: bool>(
    game: &G,
    earlier: &E,
    chunk: u64,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    let len = game.position_count();
    let cells = Cells::<C>::zeroed(len);
    let parts = game.parts(0);
    let solver = TierSolver::<_, _, _, SHARED> {
        game,
        bytes: &cells,
        earlier,
        codes: Codes::new(game.max_in_tier_moves()),
        chunk,
        tier: 0..len,
        tier_number: 0,
        max_plies: AtomicU16::new(0),
        pending: Pending::new(&(0..len), chunk),
        // Parts keep their own.
        earlier_wins: parts.is_none().then(|| Cells::zeroed(len)),
        step_dense_layers: true,
    };
    match parts {
        Some(parts) => solver.solve_by_parts(&parts, progress)?,
        None => {
            solver.seed(progress)?;
            solver.propagate(progress, 0, &mut |_| Ok(()))?;
        }
    }
    solver.finish(progress);
    Ok(Solution::from_cells(cells, len))
}

/// The working encoding of a cell during a solve.
///
/// Final values use the [`WideValue`] codes (in a byte, the
/// [`PackedValue`] codes); counters use the `counters` highest codes,
/// counter `c` being `C::MAX + 1 - c`, so counting down is adding one.
/// Values whose code would reach the counter codes do not fit.
#[derive(Copy, Clone, Debug)]
struct Codes<C> {
    first_counter: u64,
    /// The longest distance that fits, and how many counters there are:
    /// kept rather than worked out, as seeding asks for them a position
    /// at a time.
    limit: u16,
    counters: u16,
    cell: std::marker::PhantomData<C>,
}

impl<C: Cell> Codes<C> {
    fn new(max_in_tier_moves: u8) -> Codes<C> {
        // One extra count blocks positions with a drawn earlier child from
        // ever becoming losses.
        let counters = u64::from(max_in_tier_moves) + 1;
        // Counters stay in the top half of the codes, where a scan finds
        // them by their high bit.
        assert!(counters < 128, "too many moves per position for one-byte counters");
        let first_counter = C::MAX.into() + 1 - counters;
        // Win d is 2d + 1 and loss d is 2d + 2; both must stay below the counters.
        let limit = ((first_counter - 3) / 2) as u16;
        Codes { first_counter, limit, counters: counters as u16, cell: std::marker::PhantomData }
    }

    fn counters(self) -> u16 {
        self.counters
    }

    fn limit(self) -> u16 {
        self.limit
    }

    fn first_counter(self) -> C {
        C::truncate(self.first_counter)
    }

    fn is_counter(self, code: C) -> bool {
        code.into() >= self.first_counter
    }

    fn counter(self, count: u8) -> C {
        debug_assert!(count >= 1 && u16::from(count) <= self.counters());
        C::truncate(C::MAX.into() + 1 - u64::from(count))
    }

    /// The error of a distance of `plies` that does not fit.
    fn too_long(self, plies: u16) -> SolveError {
        SolveError::DistanceOverflow { plies, limit: self.limit(), counters: self.counters() }
    }

    fn value(self, value: Value) -> Result<C, SolveError> {
        let plies = value.plies().unwrap_or_default().0;
        if plies > self.limit() {
            return Err(self.too_long(plies));
        }
        Ok(C::truncate(WideValue::pack(value).expect("limit is below the packing limit").to_code().into()))
    }
}

/// The value a final code stands for.
fn unpack<C: Cell>(code: C) -> Value {
    WideValue::from_code(code.into() as u16).unpack()
}

/// What a position's children in earlier tiers say about it.
#[derive(Default)]
struct EarlierChildren {
    shortest_loss: Option<u16>,
    longest_win: Option<u16>,
    any_draw: bool,
}

impl EarlierChildren {
    // Inline, as are `earlier_children` and `seed_code`: seeding calls the
    // three once a position, and out of line their calls, saved registers
    // and results passed through memory cost about 40 instructions a
    // position of Dodgem 5×5, of some 630 (counted by cachegrind).
    //
    // Folded on the codes themselves, not on unpacked values with an
    // optional distance each: a win's code is odd and grows with its
    // distance, a loss's is even, above zero and grows with its. So the
    // longest win is the largest odd code, none if it stays zero, and the
    // shortest loss the smallest even code above zero, none if it stays
    // above every loss.
    #[inline(always)]
    fn of(codes: impl IntoIterator<Item = u16>) -> EarlierChildren {
        let (mut longest_win, mut shortest_loss, mut any_draw) = (0, u16::MAX, false);
        for code in codes {
            if code % 2 == 1 {
                longest_win = longest_win.max(code);
            } else if code != 0 {
                shortest_loss = shortest_loss.min(code);
            } else {
                any_draw = true;
            }
        }
        // Win d is 2d + 1 and loss d is 2d + 2 (see `WideValue::pack`).
        let plies = |code: u16| (code - 1) / 2;
        EarlierChildren {
            shortest_loss: (shortest_loss != u16::MAX).then(|| plies(shortest_loss)),
            longest_win: (longest_win != 0).then(|| plies(longest_win)),
            any_draw,
        }
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
const BATCH: usize = 64;

/// The most bytes of values that stay in the last-level cache (32 MiB and
/// more on the machines measured), where a load waits little. Earlier
/// tiers' values that fit are looked up as the children are found, not
/// gathered to be touched a batch ahead (see [`BATCH`]), which would only
/// work out every place twice and store it in between: Dodgem 5×5, whose
/// units' dependencies take at most a few megabytes, seeds 3 % faster so
/// (see `docs/benchmarks.md`). Parents are gathered whatever the size:
/// with prefetches rather than loads, that paid even there.
pub(crate) const IN_THE_CACHES: u64 = 32 << 20;

/// Positions seeded per batch: more than [`BATCH`], since a game expands a
/// range at a time and finding where one starts costs it more than a step.
const SEED_BATCH: usize = 1024;

/// A layer of a solve by units steps through a chunk rather than unindex
/// its decided positions (in ascending order, which lets neighbours share
/// work) once they are at least one in this many: stepping to the next
/// position of a Dodgem unit costs about this much less than unindexing
/// one that way. Measured on 5×5 against 1, 4, 8, 16 and 64. (The
/// whole-table solve keeps unindexing: its games were not measured for it.)
const STEP_RATHER_THAN_UNINDEX: u64 = 2;

/// Buffers reused across batches by one worker.
struct Scratch<P, C> {
    positions: Vec<(u64, Expansion, Range<usize>)>,
    children: Vec<u64>,
    codes: Vec<C>,
    /// The seeded positions' cells of [`TierSolver::earlier_wins`].
    earlier_wins: Vec<C>,
    frontier: Vec<(u64, bool, P)>,
    /// The frontier's indices, before their positions are found.
    decided: Vec<(u64, bool)>,
    parents: Vec<(u64, P, bool)>,
    lost: Vec<(u64, P)>,
    /// The longest distance this worker has given since it last reported
    /// to [`TierSolver::max_plies`] (kept local: a shared counter updated
    /// on every decision would bounce between cores).
    max_plies: u16,
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
struct Layer<C> {
    plies: u16,
    win: C,
    loss: C,
    /// Wins in `plies + 1`, if that fits.
    next_win: Option<C>,
    /// Losses in `plies + 1`, if that fits.
    next_loss: Option<C>,
}

/// Solves one tier. With `SHARED`, every thread of the pool works on it
/// and cells change by compare-and-swap; without, the calling thread
/// solves it alone, with plain loads and stores.
struct TierSolver<'a, G, E, C, const SHARED: bool> {
    game: &'a G,
    bytes: &'a Cells<C>,
    /// Where the values of earlier tiers are read.
    earlier: &'a E,
    codes: Codes<C>,
    /// Positions per task.
    chunk: u64,
    tier: Range<u64>,
    tier_number: usize,
    /// The longest distance given to any position of the tier so far,
    /// including one too long to encode (which stops the solve).
    max_plies: AtomicU16,
    pending: Pending,
    /// For each position seeded with a counter, one more than the longest
    /// win among its moves into earlier tiers (zero if none), so that a
    /// loss is settled without expanding it again (see
    /// [`settle_losses`](Self::settle_losses)). A cell a position: kept by
    /// solves of one tier, not by the whole-game solve, which would double
    /// its memory and whose checkpoints resume after seeding.
    earlier_wins: Option<Cells<C>>,
    /// Whether a dense layer steps through its chunk (see `frontier`):
    /// measured faster for units of Dodgem, not for every game.
    step_dense_layers: bool,
}

impl<G: TieredRetrograde, E: Earlier, C: Cell, const SHARED: bool> TierSolver<'_, G, E, C, SHARED> {
    /// The fewest chunks a task takes: all of them when solving alone,
    /// which keeps every loop on the calling thread.
    const MIN_CHUNKS_PER_TASK: usize = if SHARED { 1 } else { usize::MAX };

    /// Replaces the cell of `idx` by `f(cell)` unless `f` gives `None`;
    /// returns the cell replaced.
    #[inline]
    fn update(&self, idx: u64, f: impl Fn(C) -> Option<C>) -> Option<C> {
        if SHARED { self.bytes.update(idx, f) } else { self.bytes.update_alone(idx, f) }
    }

    fn chunks(&self) -> Vec<Range<u64>> {
        let Range { start, end } = self.tier;
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
    fn decide(&self, value: Value, scratch: &mut Scratch<G::Position, C>) -> Result<C, SolveError> {
        scratch.max_plies = scratch.max_plies.max(value.plies().unwrap_or_default().0);
        self.codes.value(value)
    }

    /// The code of a value decided during propagation. A distance too long
    /// to encode is remembered and stored as a draw; `propagate` stops with
    /// an error when it reaches that layer.
    fn decide_or_overflow(&self, value: Value, scratch: &mut Scratch<G::Position, C>) -> C {
        self.decide(value, scratch).unwrap_or(C::truncate(0))
    }

    /// Expands the position `pos` with index `idx`, collecting its children
    /// in earlier tiers into `scratch.children` and its expansion and span of
    /// children into `scratch.positions`.
    fn expand_into(&self, idx: u64, pos: &G::Position, scratch: &mut Scratch<G::Position, C>) {
        let first = scratch.children.len();
        let expansion = self.game.expand(pos, |child| {
            debug_assert!(!self.tier.contains(&child), "expand reported an in-tier child");
            scratch.children.push(child);
        });
        scratch.positions.push((idx, expansion, first..scratch.children.len()));
    }

    /// The cell of [`earlier_wins`](Self::earlier_wins) of a position
    /// seeded with `code`, whose longest move into an earlier tier wins in
    /// `longest_win`. Kept for counters only: a distance that reaches the
    /// counter codes overflows when the loss is settled.
    fn earlier_win(&self, code: C, longest_win: Option<u16>) -> C {
        let win = longest_win.filter(|_| self.codes.is_counter(code)).map_or(0, |d| d + 1);
        C::truncate(u64::from(win.min(self.codes.limit() + 1)))
    }

    #[inline(always)]
    fn earlier_children(&self, children: &[u64]) -> EarlierChildren {
        EarlierChildren::of(children.iter().map(|&c| self.earlier.load(c)))
    }

    fn seed(&self, progress: &dyn Progress) -> Result<(), SolveError> {
        let chunks = self.chunks().into_par_iter().with_min_len(Self::MIN_CHUNKS_PER_TASK);
        chunks.try_for_each_init(Scratch::default, |scratch, chunk| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted(Interrupted));
            }
            scratch.codes.clear();
            scratch.earlier_wins.clear();
            let mut next = chunk.start;
            // The distances decided in this chunk, as bits.
            let mut decided = Distances::default();
            while next < chunk.end {
                let batch = next..(next + SEED_BATCH as u64).min(chunk.end);
                next = batch.end;
                scratch.positions.clear();
                scratch.children.clear();
                let (positions, children) = (&mut scratch.positions, &mut scratch.children);
                let mut first = 0;
                self.game.expand_range(self.tier_number, batch, children, |idx, expansion, end| {
                    positions.push((idx, expansion, first..end));
                    first = end;
                });
                debug_assert!(children.iter().all(|c| !self.tier.contains(c)), "expand reported an in-tier child");
                self.earlier.touch(scratch.children.iter().copied());
                for i in 0..scratch.positions.len() {
                    let (idx, expansion, ref children) = scratch.positions[i];
                    let earlier = self.earlier_children(&scratch.children[children.clone()]);
                    let longest_win = earlier.longest_win;
                    let code = self.seed_code(idx, expansion, earlier, scratch)?;
                    if self.earlier_wins.is_some() {
                        scratch.earlier_wins.push(self.earlier_win(code, longest_win));
                    }
                    if !self.codes.is_counter(code) {
                        let plies = unpack(code).plies().unwrap_or_default().0;
                        // Longer distances are pending everywhere (see `Pending`).
                        if plies < MASKED {
                            decided[usize::from(plies / 64)] |= 1 << (plies % 64);
                        }
                    }
                    scratch.codes.push(code);
                }
            }
            self.bytes.or_cells(chunk.start, &scratch.codes);
            if let Some(earlier_wins) = &self.earlier_wins {
                earlier_wins.or_cells(chunk.start, &scratch.earlier_wins);
            }
            self.pending.mark_all(chunk.start, &decided);
            self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
            progress.advance(chunk.end - chunk.start);
            Ok(())
        })
    }

    #[inline(always)]
    fn seed_code(
        &self,
        idx: u64,
        expansion: Expansion,
        earlier: EarlierChildren,
        scratch: &mut Scratch<G::Position, C>,
    ) -> Result<C, SolveError> {
        let in_tier = match expansion {
            Expansion::Terminal(value) => return self.decide(value, scratch),
            Expansion::Moves { in_tier } => in_tier,
        };
        if let Some(d) = earlier.shortest_loss {
            // Provisional: an in-tier move may still win faster.
            return self.decide(Value::Win(Plies(d + 1)), scratch);
        }
        assert!(
            u16::from(in_tier) < self.codes.counters(),
            "game reported {in_tier} in-tier moves, above its own bound"
        );
        match (u16::from(in_tier) + u16::from(earlier.any_draw), earlier.longest_win) {
            (0, Some(d)) => self.decide(Value::Loss(Plies(d + 1)), scratch),
            (0, None) => panic!(
                "position {:?} is not terminal but has no moves",
                self.game.unindex_in_tier(self.tier_number, idx)
            ),
            (count, _) => Ok(self.codes.counter(count as u8)),
        }
    }

    /// Propagates layer after layer from `first_layer`, calling `layer_done`
    /// with the next layer's distance after each.
    fn propagate(
        &self,
        progress: &dyn Progress,
        first_layer: u16,
        layer_done: &mut dyn FnMut(u16) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let chunks = self.chunks();
        let mut plies = first_layer;
        while plies <= self.max_plies.load(Relaxed) {
            let layer = Layer {
                plies,
                win: self.codes.value(Value::Win(Plies(plies)))?,
                loss: self.codes.value(Value::Loss(Plies(plies)))?,
                next_win: self.codes.value(Value::Win(Plies(plies + 1))).ok(),
                next_loss: self.codes.value(Value::Loss(Plies(plies + 1))).ok(),
            };
            let tasks = chunks.par_iter().enumerate().with_min_len(Self::MIN_CHUNKS_PER_TASK);
            tasks.try_for_each_init(Scratch::default, |scratch, (number, chunk)| {
                if progress.should_stop() {
                    return Err(SolveError::Interrupted(Interrupted));
                }
                if !self.pending.has(number, plies) {
                    return Ok(());
                }
                let mut frontier = std::mem::take(&mut scratch.frontier);
                self.frontier(chunk, layer, &mut scratch.decided, &mut frontier);
                for batch in frontier.chunks(BATCH) {
                    self.propagate_batch(batch, layer, scratch);
                }
                progress.advance(frontier.len() as u64);
                scratch.frontier = frontier;
                self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
                Ok(())
            })?;
            plies += 1;
            layer_done(plies)?;
        }
        Ok(())
    }

    /// The positions of `chunk` decided at this layer's distance, flagged
    /// when they are wins, into `frontier`. When they are many, stepping
    /// through the chunk finds their positions faster than unindexing each.
    fn frontier(
        &self,
        chunk: &Range<u64>,
        layer: Layer<C>,
        decided: &mut Vec<(u64, bool)>,
        frontier: &mut Vec<(u64, bool, G::Position)>,
    ) {
        decided.clear();
        frontier.clear();
        self.bytes.for_each_equal(chunk.clone(), [layer.win, layer.loss], |idx, code| {
            decided.push((idx, code == layer.win));
        });
        if self.step_dense_layers && decided.len() as u64 * STEP_RATHER_THAN_UNINDEX >= chunk.end - chunk.start {
            let mut next = decided.iter().peekable();
            let range = chunk.start..decided.last().map_or(chunk.start, |d| d.0 + 1);
            self.game.for_each_in_range(self.tier_number, range, |idx, pos| {
                if let Some(&&(at, is_win)) = next.peek().filter(|d| d.0 == idx) {
                    frontier.push((at, is_win, pos));
                    next.next();
                }
            });
        } else {
            let mut wins = decided.iter().map(|d| d.1);
            self.game.unindex_ascending(self.tier_number, decided.iter().map(|d| d.0), |idx, pos| {
                frontier.push((idx, wins.next().expect("a flag for every index"), pos));
            });
        }
    }

    /// Tells the parents of `batch` (positions decided at distance `plies`,
    /// flagged when they are wins) what they now know.
    fn propagate_batch(
        &self,
        batch: &[(u64, bool, G::Position)],
        layer: Layer<C>,
        scratch: &mut Scratch<G::Position, C>,
    ) {
        scratch.lost.clear();
        // Past the longest encodable distance, decisions are stored as draws
        // and the overflow is reported once this layer is done.
        let draw = C::truncate(0);
        let (next_win, next_loss) = (layer.next_win.unwrap_or(draw), layer.next_loss.unwrap_or(draw));
        let mut decided = false;
        let mut tell = |parent: u64, pos: G::Position, child_wins: bool, lost: &mut Vec<(u64, G::Position)>| {
            let changed = if child_wins {
                let refuted = self.refute_move(parent, next_loss);
                if refuted {
                    lost.push((parent, pos));
                }
                refuted
            } else {
                self.win_with(parent, next_win)
            };
            if changed {
                self.pending.mark(parent, layer.plies + 1);
                decided = true;
            }
        };
        let positions = batch.iter().map(|&(_, is_win, pos)| (is_win, pos));
        // Every parent of the batch is found, then each one's line asked
        // for, then each told: told as found, each update waited for its
        // line. This pays even on a unit that fits the caches (see
        // `docs/benchmarks.md`).
        scratch.parents.clear();
        self.game.for_each_parent_of_each(self.tier_number, positions, |is_win, parent, pos| {
            scratch.parents.push((parent, pos, is_win));
        });
        self.bytes.touch(scratch.parents.iter().map(|p| p.0));
        for &(parent, pos, child_wins) in &scratch.parents {
            tell(parent, pos, child_wins, &mut scratch.lost);
        }
        if decided {
            scratch.max_plies = scratch.max_plies.max(layer.plies + 1);
        }
        let lost = std::mem::take(&mut scratch.lost);
        self.settle_losses(&lost, layer.plies, scratch);
        scratch.lost = lost;
    }

    /// `parent` has a move to a win (for the opponent). Returns whether that
    /// was its last in-tier move: it is then a loss, stored as `loss` (one
    /// ply longer than the move) until [`settle_losses`](Self::settle_losses)
    /// has looked at its moves into earlier tiers.
    fn refute_move(&self, parent: u64, loss: C) -> bool {
        let codes = self.codes;
        let replaced = self.update(parent, |code| match code {
            code if code == C::MAX => Some(loss),
            code if codes.is_counter(code) => Some(C::truncate(code.into() + 1)),
            _ => None,
        });
        replaced == Some(C::MAX)
    }

    /// Gives each position of `lost`, whose last in-tier move was refuted at
    /// distance `plies`, its final distance: one more than its longest move,
    /// which may lead into an earlier tier. Runs before the layer ends, so
    /// no position is propagated with its provisional distance. The longest
    /// move into an earlier tier is read from `earlier_wins` where the
    /// solve keeps it, else found by expanding the position again.
    fn settle_losses(&self, lost: &[(u64, G::Position)], plies: u16, scratch: &mut Scratch<G::Position, C>) {
        let settle = |idx: u64, longest: u16, scratch: &mut Scratch<G::Position, C>| {
            if longest > plies {
                let code = self.decide_or_overflow(Value::Loss(Plies(longest + 1)), scratch);
                self.update(idx, |_| Some(code));
                self.pending.mark(idx, longest + 1);
            }
        };
        if let Some(earlier_wins) = &self.earlier_wins {
            for &(idx, _) in lost {
                let stored: u64 = earlier_wins.load(idx).into();
                if let Some(longest) = (stored as u16).checked_sub(1) {
                    settle(idx, longest, scratch);
                }
            }
            return;
        }
        scratch.positions.clear();
        scratch.children.clear();
        for (idx, pos) in lost {
            self.expand_into(*idx, pos, scratch);
        }
        self.earlier.touch(scratch.children.iter().copied());
        for i in 0..scratch.positions.len() {
            let (idx, _, ref children) = scratch.positions[i];
            let earlier = self.earlier_children(&scratch.children[children.clone()]);
            debug_assert!(
                earlier.shortest_loss.is_none() && !earlier.any_draw,
                "a loss with a move that does not lose"
            );
            if let Some(longest) = earlier.longest_win {
                settle(idx, longest, scratch);
            }
        }
    }

    /// `parent` has a move to a loss (for the opponent), so wins with the
    /// code `win` unless it already wins as fast. Returns whether it changed.
    fn win_with(&self, parent: u64, win: C) -> bool {
        let codes = self.codes;
        let replaced = self.update(parent, |code| {
            let improves = codes.is_counter(code) || (code.into() % 2 == 1 && code > win);
            improves.then_some(win)
        });
        replaced.is_some()
    }

    /// Makes every position still holding a counter a draw. Nothing else
    /// writes now, and every word holds bytes of this tier or of tiers
    /// already final (never counters), so whole words are rewritten.
    fn finish(&self, progress: &dyn Progress) {
        self.chunks().into_par_iter().with_min_len(Self::MIN_CHUNKS_PER_TASK).for_each(|chunk| {
            progress.advance(self.bytes.clear_at_least(chunk, self.codes.first_counter()));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_sit_above_every_value_that_fits() {
        let codes = Codes::<u8>::new(12);
        assert_eq!(codes.counters(), 13);
        let largest = codes.value(Value::Loss(Plies(codes.limit()))).unwrap();
        assert!(!codes.is_counter(largest));
        assert!(codes.is_counter(codes.counter(13)));
        assert!(codes.value(Value::Win(Plies(codes.limit() + 1))).is_err());
        let wide = Codes::<u16>::new(12);
        assert_eq!(wide.counters(), 13);
        let largest = wide.value(Value::Loss(Plies(wide.limit()))).unwrap();
        assert!(!wide.is_counter(largest) && wide.is_counter(wide.counter(13)));
        assert!(wide.limit() > 32_000);
    }
}
