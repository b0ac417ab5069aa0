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
//! The solver keeps exactly one byte per position. While a tier is being
//! solved, the byte of an undecided position holds its counter in the top
//! codes of the byte (see `Codes`) instead of a value. Sharing the byte
//! halves memory and, more importantly, makes every parent update touch one
//! cache line instead of two.
//!
//! # Parallelism and determinism
//!
//! Seeding and each distance layer run in parallel over chunks of the tier.
//! Bytes are updated with compare-and-swap on the 64-bit word that holds
//! them. All updates within a layer commute (a win can only shorten to
//! `d + 1`, a counter only counts down, and a counter only reaches zero when
//! no loss lies below), so the result is byte-for-byte the same for any
//! number of threads.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::game::{Expansion, TieredRetrograde};
use crate::packed::PackedValue;
use crate::progress::Progress;
use crate::table::{Checkpoint, SolverState, TableError};
use crate::value::{Plies, Value};

/// Positions handed to one task at a time; a multiple of 8 so that no two
/// tasks write the same word while seeding.
const CHUNK: u64 = 1 << 15;

/// Why a solve stopped without a result.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// [`Progress::should_stop`] asked the solve to stop.
    #[error("solve interrupted")]
    Interrupted,
    /// The checkpoint could not be read or written.
    #[error("checkpoint failed")]
    Checkpoint(#[source] TableError),
    /// A distance too long for the one-byte working encoding.
    #[error(
        "a distance of {plies} plies does not fit in one byte per position (at most {limit} with {counters} counter codes)"
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

/// The solved values of every position, one byte each.
#[derive(Debug)]
pub struct Solution {
    words: Vec<u64>,
    len: u64,
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

    /// The packed value of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn get(&self, idx: u64) -> PackedValue {
        assert!(idx < self.len, "position index out of range");
        PackedValue::from_byte(byte_of(self.words[(idx / 8) as usize], idx))
    }

    /// The values as bytes in index order, in pieces of at most `piece` bytes.
    pub fn for_each_piece<E>(&self, piece: usize, mut f: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        let mut buffer = Vec::with_capacity(piece.max(8));
        let mut remaining = self.len as usize;
        for word in &self.words {
            let bytes = word.to_le_bytes();
            let take = remaining.min(8);
            buffer.extend_from_slice(&bytes[..take]);
            remaining -= take;
            if buffer.len() + 8 > buffer.capacity() {
                f(&buffer)?;
                buffer.clear();
            }
        }
        if !buffer.is_empty() {
            f(&buffer)?;
        }
        Ok(())
    }
}

/// Solves every position of `game`.
///
/// # Errors
///
/// [`SolveError::Interrupted`] if `progress` asked to stop, and
/// [`SolveError::DistanceOverflow`] if some distance is too long for one byte.
pub fn solve<G: TieredRetrograde>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
    solve_resumable(game, progress, None)
}

/// Where a long solve saves its state, and how often.
#[derive(Debug)]
pub struct Checkpointing<'a> {
    /// The checkpoint file.
    pub checkpoint: &'a Checkpoint,
    /// The least time between two saves.
    pub every: Duration,
}

/// Solves every position of `game`, resuming from `checkpointing`'s file
/// if it has one and saving there between distance layers whenever
/// `every` has passed since the last save. The file is left in place; the
/// caller removes it once the solution is safe.
///
/// # Errors
///
/// As for [`solve`], and [`SolveError::Checkpoint`] if the checkpoint cannot
/// be read (or is of another game) or written.
pub fn solve_resumable<G: TieredRetrograde>(
    game: &G,
    progress: &dyn Progress,
    checkpointing: Option<&Checkpointing<'_>>,
) -> Result<Solution, SolveError> {
    let len = game.position_count();
    let codes = Codes::new(game.max_in_tier_moves());
    let loaded = match checkpointing {
        Some(c) => c.checkpoint.load().map_err(SolveError::Checkpoint)?,
        None => None,
    };
    let (bytes, mut resume) = match loaded {
        Some((state, words)) => (Bytes { words }, Some(state)),
        None => (Bytes::zeroed(len), None),
    };
    progress.start("solve", 2 * len);
    let mut last_save = Instant::now();
    for (tier_number, tier) in game.tiers().into_iter().enumerate() {
        let size = tier.end - tier.start;
        if resume.as_ref().is_some_and(|state| state.tier as usize > tier_number) {
            progress.advance(2 * size);
            continue;
        }
        let state = resume.take_if(|state| state.tier as usize == tier_number);
        let pending = match &state {
            Some(state) => Pending::from_masks(&tier, &state.pending),
            None => Pending::new(&tier),
        };
        let max_plies = AtomicU16::new(state.as_ref().map_or(0, |s| s.max_plies));
        let solver = TierSolver { game, bytes: &bytes, codes, tier, tier_number, max_plies, pending };
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
            let Some(c) = checkpointing.filter(|c| last_save.elapsed() >= c.every) else { return Ok(()) };
            let state = SolverState {
                tier: tier_number as u32,
                next_layer,
                max_plies: solver.max_plies.load(Relaxed),
                pending: solver.pending.to_masks(),
            };
            c.checkpoint.save(&state, &bytes.words).map_err(SolveError::Checkpoint)?;
            last_save = Instant::now();
            Ok(())
        };
        save(first_layer)?;
        progress.stage(&format!("tier {tier_number}: propagation"));
        solver.propagate(progress, first_layer, &mut save)?;
        progress.stage(&format!("tier {tier_number}: draws"));
        solver.finish(progress);
    }
    let words = bytes.words.into_iter().map(AtomicU64::into_inner).collect();
    Ok(Solution { words, len })
}

/// The working encoding of a byte during a solve.
///
/// Final values use the [`PackedValue`] codes; counters use the `counters`
/// highest codes, counter `c` being `256 - c`, so counting down is adding
/// one. Values whose code would reach the counter codes do not fit.
#[derive(Copy, Clone, Debug)]
struct Codes {
    first_counter: u8,
}

impl Codes {
    fn new(max_in_tier_moves: u8) -> Codes {
        // One extra count blocks positions with a drawn earlier child from
        // ever becoming losses.
        let counters = u16::from(max_in_tier_moves) + 1;
        assert!(counters < 128, "too many moves per position for one-byte counters");
        Codes { first_counter: (256 - counters) as u8 }
    }

    fn counters(self) -> u16 {
        256 - u16::from(self.first_counter)
    }

    fn limit(self) -> u16 {
        // Win d is 2d + 1 and loss d is 2d + 2; both must stay below the counters.
        (u16::from(self.first_counter) - 3) / 2
    }

    fn is_counter(self, code: u8) -> bool {
        code >= self.first_counter
    }

    fn counter(self, count: u8) -> u8 {
        debug_assert!(count >= 1 && u16::from(count) <= self.counters());
        (256 - u16::from(count)) as u8
    }

    fn value(self, value: Value) -> Result<u8, SolveError> {
        let plies = value.plies().unwrap_or_default().0;
        if plies > self.limit() {
            return Err(SolveError::DistanceOverflow { plies, limit: self.limit(), counters: self.counters() });
        }
        Ok(PackedValue::pack(value).expect("limit is below the packing limit").to_byte())
    }
}

fn byte_of(word: u64, idx: u64) -> u8 {
    (word >> (8 * (idx % 8))) as u8
}

/// One byte per position, in words that threads update with compare-and-swap.
struct Bytes {
    words: Vec<AtomicU64>,
}

impl Bytes {
    fn zeroed(len: u64) -> Bytes {
        Bytes { words: (0..len.div_ceil(8)).map(|_| AtomicU64::new(0)).collect() }
    }

    #[inline]
    fn load(&self, idx: u64) -> u8 {
        byte_of(self.words[(idx / 8) as usize].load(Relaxed), idx)
    }

    /// Loads the words holding `indices`, so that their cache lines are on
    /// their way in before they are needed (see [`BATCH`]).
    #[inline]
    fn touch(&self, indices: impl Iterator<Item = u64>) {
        let mut any = 0;
        for idx in indices {
            any |= self.words[(idx / 8) as usize].load(Relaxed);
        }
        std::hint::black_box(any);
    }

    /// ORs `codes` into the bytes from `start` on, which must be zero.
    fn or_bytes(&self, start: u64, codes: &[u8]) {
        let mut word_idx = start / 8;
        let mut word = 0;
        for (idx, &code) in (start..).zip(codes) {
            if idx / 8 != word_idx {
                self.words[word_idx as usize].fetch_or(word, Relaxed);
                (word_idx, word) = (idx / 8, 0);
            }
            word |= u64::from(code) << (8 * (idx % 8));
        }
        self.words[word_idx as usize].fetch_or(word, Relaxed);
    }

    /// Replaces the byte by `f(byte)` until `f` returns `None` or the swap
    /// succeeds. Returns the byte that was replaced.
    #[inline]
    fn update(&self, idx: u64, mut f: impl FnMut(u8) -> Option<u8>) -> Option<u8> {
        let word = &self.words[(idx / 8) as usize];
        let shift = 8 * (idx % 8);
        let mut current = word.load(Relaxed);
        loop {
            let old = (current >> shift) as u8;
            let new = f(old)?;
            let replaced = (current & !(0xff << shift)) | (u64::from(new) << shift);
            match word.compare_exchange_weak(current, replaced, Relaxed, Relaxed) {
                Ok(_) => return Some(old),
                Err(actual) => current = actual,
            }
        }
    }
}

/// What a position's children in earlier tiers say about it.
#[derive(Default)]
struct EarlierChildren {
    shortest_loss: Option<u16>,
    longest_win: Option<u16>,
    any_draw: bool,
}

impl EarlierChildren {
    fn of(codes: impl IntoIterator<Item = u8>) -> EarlierChildren {
        let mut earlier = EarlierChildren::default();
        for code in codes {
            match PackedValue::from_byte(code).unpack() {
                Value::Loss(Plies(d)) => earlier.shortest_loss = Some(earlier.shortest_loss.map_or(d, |s| s.min(d))),
                Value::Win(Plies(d)) => earlier.longest_win = Some(earlier.longest_win.map_or(d, |l| l.max(d))),
                Value::Draw => earlier.any_draw = true,
            }
        }
        earlier
    }
}

/// Positions whose children are looked up together.
///
/// Looking up a child or updating a parent is a cache miss into a table of
/// hundreds of megabytes. Done one at a time, each waits for the last; so
/// the solver first generates the indices for a batch of positions, touches
/// all of their cache lines with independent loads (which the processor
/// overlaps), and only then reads or updates them. This is where most of
/// the solver's speed comes from.
const BATCH: usize = 64;

/// Buffers reused across batches by one worker.
struct Scratch<P> {
    positions: Vec<(u64, Expansion, Range<usize>)>,
    children: Vec<u64>,
    codes: Vec<u8>,
    frontier: Vec<(u64, bool)>,
    parents: Vec<(u64, P, bool)>,
    lost: Vec<(u64, P)>,
    /// The longest distance this worker has given since it last reported
    /// to [`TierSolver::max_plies`] (kept local: a shared counter updated
    /// on every decision would bounce between cores).
    max_plies: u16,
}

impl<P> Default for Scratch<P> {
    fn default() -> Self {
        Scratch {
            positions: Vec::new(),
            children: Vec::new(),
            codes: Vec::new(),
            frontier: Vec::new(),
            parents: Vec::new(),
            lost: Vec::new(),
            max_plies: 0,
        }
    }
}

/// The codes one distance layer reads and writes.
#[derive(Copy, Clone)]
struct Layer {
    plies: u16,
    win: u8,
    loss: u8,
    /// Wins in `plies + 1`, if that fits.
    next_win: Option<u8>,
    /// Losses in `plies + 1`, if that fits.
    next_loss: Option<u8>,
}

struct TierSolver<'a, G> {
    game: &'a G,
    bytes: &'a Bytes,
    codes: Codes,
    tier: Range<u64>,
    tier_number: usize,
    /// The longest distance given to any position of the tier so far,
    /// including one too long to encode (which stops the solve).
    max_plies: AtomicU16,
    pending: Pending,
}

/// For each chunk of a tier, the distances at which some of its positions
/// were decided: a distance layer scans only the chunks that have it.
///
/// Layers of long distances hold few positions, so most chunks skip most
/// layers. Every encodable distance is below 128 (see [`Codes::limit`]).
struct Pending {
    first_chunk: u64,
    masks: Vec<[AtomicU64; 2]>,
}

impl Pending {
    fn new(tier: &Range<u64>) -> Pending {
        let first_chunk = tier.start / CHUNK;
        let chunks = if tier.is_empty() { 0 } else { (tier.end - 1) / CHUNK - first_chunk + 1 };
        Pending { first_chunk, masks: (0..chunks).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect() }
    }

    /// Notes that the position `idx` was decided at distance `plies`.
    #[inline]
    fn mark(&self, idx: u64, plies: u16) {
        if let Some(mask) = self.masks.get((idx / CHUNK - self.first_chunk) as usize) {
            let (word, bit) = (&mask[usize::from(plies / 64) & 1], 1 << (plies % 64));
            // Most marks repeat one already made: a load is cheaper than
            // an atomic update of a shared line.
            if word.load(Relaxed) & bit == 0 && plies < 128 {
                word.fetch_or(bit, Relaxed);
            }
        }
    }

    /// Notes that positions in the chunk of `idx` were decided at each
    /// distance whose bit is set in `distances`.
    fn mark_all(&self, idx: u64, distances: u128) {
        let mask = &self.masks[(idx / CHUNK - self.first_chunk) as usize];
        mask[0].fetch_or(distances as u64, Relaxed);
        mask[1].fetch_or((distances >> 64) as u64, Relaxed);
    }

    fn from_masks(tier: &Range<u64>, masks: &[[u64; 2]]) -> Pending {
        let mut pending = Pending::new(tier);
        for (mask, saved) in pending.masks.iter_mut().zip(masks) {
            *mask = saved.map(AtomicU64::new);
        }
        pending
    }

    fn to_masks(&self) -> Vec<[u64; 2]> {
        self.masks.iter().map(|m| [m[0].load(Relaxed), m[1].load(Relaxed)]).collect()
    }

    /// Whether the `chunk`-th chunk may hold positions decided at `plies`.
    fn has(&self, chunk: usize, plies: u16) -> bool {
        plies < 128 && self.masks[chunk][usize::from(plies / 64)].load(Relaxed) & (1 << (plies % 64)) != 0
    }
}

impl<G: TieredRetrograde> TierSolver<'_, G> {
    fn chunks(&self) -> Vec<Range<u64>> {
        let Range { start, end } = self.tier;
        let mut bounds = vec![start];
        let mut next = (start / CHUNK + 1) * CHUNK;
        while next < end {
            bounds.push(next);
            next += CHUNK;
        }
        bounds.push(end);
        bounds.windows(2).map(|w| w[0]..w[1]).collect()
    }

    /// The code of a decided `value`, remembering its distance.
    fn decide(&self, value: Value, scratch: &mut Scratch<G::Position>) -> Result<u8, SolveError> {
        scratch.max_plies = scratch.max_plies.max(value.plies().unwrap_or_default().0);
        self.codes.value(value)
    }

    /// The code of a value decided during propagation. A distance too long
    /// to encode is remembered and stored as a draw; `propagate` stops with
    /// an error when it reaches that layer.
    fn decide_or_overflow(&self, value: Value, scratch: &mut Scratch<G::Position>) -> u8 {
        self.decide(value, scratch).unwrap_or(PackedValue::DRAW.to_byte())
    }

    /// Expands the position `pos` with index `idx`, collecting its children
    /// in earlier tiers into `scratch.children` and its expansion and span of
    /// children into `scratch.positions`.
    fn expand_into(&self, idx: u64, pos: &G::Position, scratch: &mut Scratch<G::Position>) {
        let first = scratch.children.len();
        let expansion = self.game.expand(pos, |child| {
            debug_assert!(!self.tier.contains(&child), "expand reported an in-tier child");
            scratch.children.push(child);
        });
        scratch.positions.push((idx, expansion, first..scratch.children.len()));
    }

    fn earlier_children(&self, children: &[u64]) -> EarlierChildren {
        EarlierChildren::of(children.iter().map(|&c| self.bytes.load(c)))
    }

    fn seed(&self, progress: &dyn Progress) -> Result<(), SolveError> {
        self.chunks().into_par_iter().try_for_each_init(Scratch::default, |scratch, chunk| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted);
            }
            scratch.codes.clear();
            let mut next = chunk.start;
            // The distances decided in this chunk, as bits.
            let mut decided = 0u128;
            while next < chunk.end {
                let batch = next..(next + BATCH as u64).min(chunk.end);
                next = batch.end;
                scratch.positions.clear();
                scratch.children.clear();
                self.game.for_each_in_range(self.tier_number, batch, |idx, pos| self.expand_into(idx, &pos, scratch));
                self.bytes.touch(scratch.children.iter().copied());
                for i in 0..scratch.positions.len() {
                    let (idx, expansion, ref children) = scratch.positions[i];
                    let earlier = self.earlier_children(&scratch.children[children.clone()]);
                    let code = self.seed_code(idx, expansion, earlier, scratch)?;
                    if !self.codes.is_counter(code) {
                        decided |= 1 << PackedValue::from_byte(code).unpack().plies().unwrap_or_default().0;
                    }
                    scratch.codes.push(code);
                }
            }
            self.bytes.or_bytes(chunk.start, &scratch.codes);
            self.pending.mark_all(chunk.start, decided);
            self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
            progress.advance(chunk.end - chunk.start);
            Ok(())
        })
    }

    fn seed_code(
        &self,
        idx: u64,
        expansion: Expansion,
        earlier: EarlierChildren,
        scratch: &mut Scratch<G::Position>,
    ) -> Result<u8, SolveError> {
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
            chunks.par_iter().enumerate().try_for_each_init(Scratch::default, |scratch, (number, chunk)| {
                if progress.should_stop() {
                    return Err(SolveError::Interrupted);
                }
                if !self.pending.has(number, plies) {
                    return Ok(());
                }
                let mut frontier = std::mem::take(&mut scratch.frontier);
                frontier.clear();
                for_each_byte_equal(self.bytes, chunk.clone(), [layer.win, layer.loss], |idx, code| {
                    frontier.push((idx, code == layer.win));
                });
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

    /// Tells the parents of `batch` (positions decided at distance `plies`,
    /// flagged when they are wins) what they now know.
    fn propagate_batch(&self, batch: &[(u64, bool)], layer: Layer, scratch: &mut Scratch<G::Position>) {
        scratch.parents.clear();
        for &(idx, is_win) in batch {
            let pos = self.game.unindex_in_tier(self.tier_number, idx);
            self.game.for_each_parent(&pos, |parent, pos| scratch.parents.push((parent, pos, is_win)));
        }
        self.bytes.touch(scratch.parents.iter().map(|p| p.0));
        scratch.lost.clear();
        // Past the longest encodable distance, decisions are stored as draws
        // and the overflow is reported once this layer is done.
        let draw = PackedValue::DRAW.to_byte();
        let (next_win, next_loss) = (layer.next_win.unwrap_or(draw), layer.next_loss.unwrap_or(draw));
        let mut decided = false;
        for i in 0..scratch.parents.len() {
            let (parent, pos, child_wins) = scratch.parents[i];
            let changed = if child_wins {
                let lost = self.refute_move(parent, next_loss);
                if lost {
                    scratch.lost.push((parent, pos));
                }
                lost
            } else {
                self.win_with(parent, next_win)
            };
            if changed {
                self.pending.mark(parent, layer.plies + 1);
                decided = true;
            }
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
    fn refute_move(&self, parent: u64, loss: u8) -> bool {
        let codes = self.codes;
        let replaced = self.bytes.update(parent, |code| match code {
            u8::MAX => Some(loss),
            code if codes.is_counter(code) => Some(code + 1),
            _ => None,
        });
        replaced == Some(u8::MAX)
    }

    /// Gives each position of `lost`, whose last in-tier move was refuted at
    /// distance `plies`, its final distance: one more than its longest move,
    /// which may lead into an earlier tier. Runs before the layer ends, so
    /// no position is propagated with its provisional distance.
    fn settle_losses(&self, lost: &[(u64, G::Position)], plies: u16, scratch: &mut Scratch<G::Position>) {
        scratch.positions.clear();
        scratch.children.clear();
        for (idx, pos) in lost {
            self.expand_into(*idx, pos, scratch);
        }
        self.bytes.touch(scratch.children.iter().copied());
        for i in 0..scratch.positions.len() {
            let (idx, _, ref children) = scratch.positions[i];
            let earlier = self.earlier_children(&scratch.children[children.clone()]);
            debug_assert!(
                earlier.shortest_loss.is_none() && !earlier.any_draw,
                "a loss with a move that does not lose"
            );
            if let Some(longest) = earlier.longest_win.filter(|&d| d > plies) {
                let code = self.decide_or_overflow(Value::Loss(Plies(longest + 1)), scratch);
                self.bytes.update(idx, |_| Some(code));
                self.pending.mark(idx, longest + 1);
            }
        }
    }

    /// `parent` has a move to a loss (for the opponent), so wins with the
    /// code `win` unless it already wins as fast. Returns whether it changed.
    fn win_with(&self, parent: u64, win: u8) -> bool {
        let codes = self.codes;
        let replaced = self.bytes.update(parent, |code| {
            let improves = codes.is_counter(code) || (code % 2 == 1 && code > win);
            improves.then_some(win)
        });
        replaced.is_some()
    }

    /// Makes every position still holding a counter a draw. Nothing else
    /// writes now, and every word holds bytes of this tier or of tiers
    /// already final (never counters), so whole words are rewritten.
    fn finish(&self, progress: &dyn Progress) {
        let first_counter = self.codes.first_counter;
        self.chunks().into_par_iter().for_each(|chunk| {
            let mut draws = 0;
            for word_idx in chunk.start / 8..chunk.end.div_ceil(8) {
                let word = &self.bytes.words[word_idx as usize];
                let value = word.load(Relaxed);
                let counters = bytes_at_least(value, first_counter);
                if counters != 0 {
                    // Spread each flagged byte's high bit over the whole byte.
                    word.store(value & !((counters >> 7) * 0xff), Relaxed);
                    draws += u64::from(counters.count_ones());
                }
            }
            progress.advance(draws);
        });
    }
}

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that is zero, and no other bit.
#[inline]
fn zero_bytes(word: u64) -> u64 {
    !(((word & !HIGH_BITS) + !HIGH_BITS) | word | !HIGH_BITS)
}

/// Calls `f(idx, byte)` for each byte in `range` equal to one of `targets`.
fn for_each_byte_equal(bytes: &Bytes, range: Range<u64>, targets: [u8; 2], mut f: impl FnMut(u64, u8)) {
    let splats = targets.map(|t| u64::from(t) * LOW_BITS);
    for_each_word(bytes, range, |first_idx, word, in_range| {
        let mut hits = (zero_bytes(word ^ splats[0]) | zero_bytes(word ^ splats[1])) & in_range;
        while hits != 0 {
            let byte = hits.trailing_zeros() / 8;
            f(first_idx + u64::from(byte), (word >> (8 * byte)) as u8);
            hits &= hits - 1;
        }
    });
}

/// The high bit of each byte of `word` that is at least `floor` (≥ 128).
#[inline]
fn bytes_at_least(word: u64, floor: u8) -> u64 {
    debug_assert!(floor >= 128);
    let below = u64::from(floor - 128) * LOW_BITS;
    // Bytes with the high bit set, then compare the low seven bits.
    let low = word & !HIGH_BITS;
    ((low | HIGH_BITS) - below) & word & HIGH_BITS
}

/// Calls `f(index of the word's first byte, word, high bits of the bytes in range)`.
#[inline]
fn for_each_word(bytes: &Bytes, range: Range<u64>, mut f: impl FnMut(u64, u64, u64)) {
    if range.is_empty() {
        return;
    }
    for word_idx in range.start / 8..range.end.div_ceil(8) {
        let first_idx = word_idx * 8;
        let mut in_range = HIGH_BITS;
        if first_idx < range.start {
            in_range &= HIGH_BITS << (8 * (range.start - first_idx));
        }
        if first_idx + 8 > range.end {
            in_range &= HIGH_BITS >> (8 * (first_idx + 8 - range.end));
        }
        f(first_idx, bytes.words[word_idx as usize].load(Relaxed), in_range);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_scans_find_exactly_the_matching_bytes() {
        let values: Vec<u8> = (0..200u32).map(|i| (i * 37 % 256) as u8).collect();
        let bytes = Bytes::zeroed(values.len() as u64);
        for (idx, &v) in values.iter().enumerate() {
            bytes.update(idx as u64, |_| Some(v));
        }
        for range in [0..200, 3..197, 8..16, 5..6, 10..10] {
            let mut found = Vec::new();
            for_each_byte_equal(&bytes, range.clone(), [74, 255], |idx, code| found.push((idx, code)));
            let expected: Vec<_> = range
                .clone()
                .filter(|&i| [74, 255].contains(&values[i as usize]))
                .map(|i| (i, values[i as usize]))
                .collect();
            assert_eq!(found, expected);
            for floor in [128, 200, 243, 255] {
                for word_idx in range.start / 8..range.end / 8 {
                    let word = bytes.words[word_idx as usize].load(Relaxed);
                    for byte in 0..8 {
                        let flagged = bytes_at_least(word, floor) >> (8 * byte + 7) & 1 == 1;
                        assert_eq!(flagged, values[(word_idx * 8 + byte) as usize] >= floor, "floor {floor}");
                    }
                }
            }
        }
    }

    #[test]
    fn counters_sit_above_every_value_that_fits() {
        let codes = Codes::new(12);
        assert_eq!(codes.counters(), 13);
        let largest = codes.value(Value::Loss(Plies(codes.limit()))).unwrap();
        assert!(!codes.is_counter(largest));
        assert!(codes.is_counter(codes.counter(13)));
        assert!(codes.value(Value::Win(Plies(codes.limit() + 1))).is_err());
    }
}
