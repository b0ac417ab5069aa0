//! The positions reachable from a start, found unit by unit: for a game
//! whose set of positions is too large for one bit set in memory.
//!
//! Moves lead into a unit itself or into units solved before it, so a walk
//! forward from the start takes a unit only once every unit with moves
//! into it has been walked: the marks they left on it are then complete.
//! The unit's own moves are followed until nothing new is found, its moves
//! into other units leave marks there, and the finished set is handed to
//! the caller to count whatever it counts; it is not kept. A unit nothing
//! has marked (and not the start's) holds nothing reachable, and is passed
//! over without a look.
//!
//! Of the units ready, the walk takes the one that leaves the fewest marks
//! held: the marks on units not walked yet are most of its memory, and on
//! 6×6 this order halves their peak (2.8 GB against 5.9 GB in the
//! opposite order of the solve).
//!
//! Marks only ever add reachable positions, so a checkpoint (the units
//! walked, the counts so far, and the marks left on units not walked yet)
//! may be taken between any two units, and a walk resumed from it finds the
//! same sets.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::Unit;
use crate::game::Rules;
use crate::progress::{Interrupted, Progress};
use crate::reachable::PositionSet;
use crate::table::{Checkpoint, TableError};

/// What [`ForwardUnits::locate_siblings`] keeps from one call to the
/// next: siblings it located, each under a key of the game's choosing,
/// and where each is.
#[derive(Clone, Debug)]
pub struct SiblingMemo {
    len: usize,
    keys: [u128; SiblingMemo::MOST],
    at: [(usize, u64); SiblingMemo::MOST],
}

impl Default for SiblingMemo {
    fn default() -> SiblingMemo {
        SiblingMemo { len: 0, keys: [0; SiblingMemo::MOST], at: [(0, 0); SiblingMemo::MOST] }
    }
}

impl SiblingMemo {
    /// The most siblings it holds: more are not kept.
    pub const MOST: usize = 32;

    /// Where the sibling kept under `key` is, if one is.
    #[inline]
    pub fn find(&self, key: u128) -> Option<(usize, u64)> {
        self.keys[..self.len].iter().position(|&k| k == key).map(|i| self.at[i])
    }

    /// Keeps these siblings alone, each key with where it is, or none if
    /// they are too many (or the keys and places do not pair up).
    #[inline]
    pub fn keep(&mut self, keys: &[u128], at: &[(usize, u64)]) {
        self.len = if keys.len() == at.len() && keys.len() <= Self::MOST { keys.len() } else { 0 };
        self.keys[..self.len].copy_from_slice(&keys[..self.len]);
        self.at[..self.len].copy_from_slice(&at[..self.len]);
    }
}

/// A game whose positions, each on its own (both sides to move, say), are
/// split into units whose moves lead into the unit itself or into units
/// listed before it.
pub trait ForwardUnits: Rules {
    /// The units in solving order, with the units their moves reach.
    fn units(&self) -> Vec<Unit>;

    /// The unit of `pos` and its number within it.
    fn locate(&self, pos: &Self::Position) -> (usize, u64);

    /// Calls `f(idx, position)` for every position numbered in `range` of
    /// `unit`, in order.
    fn for_each_in_unit(&self, unit: usize, range: Range<u64>, f: impl FnMut(u64, Self::Position));

    /// Appends to `located` the unit and number of each of `siblings`, the
    /// children of `parent` made by the plain rules, in order. `memo` is
    /// the game's to keep between calls, for siblings whose numbers follow
    /// from those located before. The default locates each on its own; a
    /// game whose siblings share part of their numbering works that part
    /// out once.
    fn locate_siblings(
        &self,
        parent: &Self::Position,
        siblings: &[Self::Position],
        memo: &mut SiblingMemo,
        located: &mut Vec<(usize, u64)>,
    ) {
        let _ = (parent, memo);
        located.extend(siblings.iter().map(|child| self.locate(child)));
    }

    /// Calls `f(unit, idx)` for every child of the non-terminal `pos`, once
    /// per move. The default locates each child on its own; a game whose
    /// children share most of their numbering does better.
    fn for_each_child_located(&self, pos: &Self::Position, mut f: impl FnMut(usize, u64)) {
        self.for_each_child(pos, |child| {
            let (unit, idx) = self.locate(&child);
            f(unit, idx);
        });
    }

    /// Calls `f(unit, word, bits)` for the children, once per move, of
    /// each position of `unit` numbered `base + i` for a bit `i` set in
    /// `marked` that is not terminal: the children are the positions of
    /// `unit` numbered `64 * word + j` for each bit `j` set in `bits`.
    /// `base` is a multiple of 64 and every marked number is in the unit.
    /// The default takes each position on its own, a child a call; a game
    /// whose neighbouring positions have the same children (up to a turn,
    /// say) finds them once for all, and gives neighbouring children
    /// together.
    fn for_each_child_of_marked(&self, unit: usize, base: u64, marked: u64, mut f: impl FnMut(usize, u64, u64)) {
        let range = base + u64::from(marked.trailing_zeros())..base + 64 - u64::from(marked.leading_zeros());
        self.for_each_in_unit(unit, range, |idx, pos| {
            if marked >> (idx - base) & 1 == 1 && self.terminal_value(&pos).is_none() {
                self.for_each_child_located(&pos, |to, at| f(to, at / 64, 1 << (at % 64)));
            }
        });
    }
}

/// Why a walk by units stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReachError {
    /// It was asked to stop; the checkpoint, if any, was saved first.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// The checkpoint, or what the caller counts from, could not be used.
    #[error(transparent)]
    Store(#[from] TableError),
}

/// Where a walk saves its progress, and how often.
#[derive(Clone, Debug)]
pub struct ReachCheckpoint {
    /// The file: a finished walk leaves its counts there.
    pub file: Checkpoint,
    /// The least time between two saves.
    pub every: Duration,
}

/// Positions per parallel piece of a unit's walk.
const PIECE_WORDS: usize = 1 << 10;

/// Walks every position reachable from `start` (play stops at terminal
/// positions), a unit at a time, and returns the sums of what `count`
/// gives for each unit's reachable set: every count has `counts` entries.
///
/// With a `checkpoint`, a walk resumes from the one saved there, saves one
/// at least every so often and when interrupted, and leaves its final
/// counts in it: calling again then walks nothing.
///
/// # Errors
///
/// [`ReachError::Interrupted`] if `progress` asks to stop;
/// [`ReachError::Store`] if the checkpoint cannot be read or written or
/// `count` fails.
pub fn reach_by_units<G: ForwardUnits>(
    game: &G,
    start: &G::Position,
    counts: usize,
    checkpoint: Option<&ReachCheckpoint>,
    progress: &dyn Progress,
    mut count: impl FnMut(usize, &PositionSet) -> Result<Vec<u64>, TableError>,
) -> Result<Vec<u64>, ReachError> {
    let units = game.units();
    let mut walk = match checkpoint.map(|c| c.file.load_any()).transpose()?.flatten() {
        Some(saved) => Walk::restore(&units, counts, &saved.state, saved.words)
            .ok_or_else(|| checkpoint.expect("loaded from it").file.refuse("its state does not fit these units"))?,
        None => Walk::new(&units, counts),
    };
    let total: u64 = units.iter().map(|u| u.len).sum();
    progress.start("reachable", total);
    progress.advance(walk.order.iter().map(|&u| units[u].len).sum());
    let (start_unit, start_idx) = game.locate(start);
    let mut ready = Ready::new(&units, &walk.order);
    let mut saved_at = Instant::now();
    while let Some(number) = ready.take(&units, &walk.pending, start_unit) {
        if walk.pending[number].is_some() || number == start_unit {
            let seen = walk.pending[number].take().unwrap_or_else(|| zeros(units[number].len));
            if number == start_unit {
                mark(&seen, start_idx);
            }
            for &d in &units[number].depends_on {
                walk.pending[d].get_or_insert_with(|| zeros(units[d].len));
            }
            if let Err(stopped) = close(game, number, &seen, &walk.pending, progress) {
                // What was found of this unit is reachable: a mark like any other.
                walk.pending[number] = Some(seen);
                if let Some(checkpoint) = checkpoint {
                    walk.save(&checkpoint.file)?;
                }
                return Err(stopped.into());
            }
            let set = PositionSet::from_words(seen.into_iter().map(AtomicU64::into_inner).collect());
            for (sum, found) in walk.counts.iter_mut().zip(count(number, &set)?) {
                *sum += found;
            }
        }
        walk.order.push(number);
        ready.walked(&units, number);
        progress.advance(units[number].len);
        let finished = walk.order.len() == units.len();
        if let Some(checkpoint) = checkpoint.filter(|c| saved_at.elapsed() >= c.every || finished) {
            walk.save(&checkpoint.file)?;
            saved_at = Instant::now();
        }
    }
    Ok(walk.counts)
}

/// The units a walk may take next: those not walked whose readers (the
/// units with moves into them) all have been.
struct Ready {
    /// For each unit, its readers not walked yet.
    waiting: Vec<usize>,
    units: Vec<usize>,
}

impl Ready {
    /// What is ready once `walked` have been.
    fn new(units: &[Unit], walked: &[usize]) -> Ready {
        let mut waiting: Vec<usize> = readers(units).iter().map(Vec::len).collect();
        let mut done = vec![false; units.len()];
        for &u in walked {
            done[u] = true;
            for &d in units[u].depends_on.iter().filter(|&&d| d != u) {
                waiting[d] -= 1;
            }
        }
        let ready = (0..units.len()).filter(|&u| !done[u] && waiting[u] == 0).collect();
        Ready { waiting, units: ready }
    }

    /// Removes and returns the ready unit whose walk leaves the fewest
    /// marks held: one nothing has marked (passed over) at once, else the
    /// one whose new marks, less its own, are fewest. `None` once every
    /// unit has been walked.
    fn take(&mut self, units: &[Unit], pending: &[Option<Box<[AtomicU64]>>], start: usize) -> Option<usize> {
        let growth = |u: usize| -> i128 {
            if pending[u].is_none() && u != start {
                return i128::MIN;
            }
            let added: u64 =
                units[u].depends_on.iter().filter(|&&d| d != u && pending[d].is_none()).map(|&d| units[d].len).sum();
            i128::from(added) - i128::from(units[u].len)
        };
        // Ties go to the unit solved last, as in the solve's opposite order.
        let at = (0..self.units.len()).min_by_key(|&i| (growth(self.units[i]), std::cmp::Reverse(self.units[i])))?;
        Some(self.units.swap_remove(at))
    }

    /// Records that `unit` has been walked: units it was the last reader
    /// of become ready.
    fn walked(&mut self, units: &[Unit], unit: usize) {
        for &d in units[unit].depends_on.iter().filter(|&&d| d != unit) {
            self.waiting[d] -= 1;
            if self.waiting[d] == 0 {
                self.units.push(d);
            }
        }
    }
}

/// For each unit, the other units with moves into it.
fn readers(units: &[Unit]) -> Vec<Vec<usize>> {
    let mut readers = vec![Vec::new(); units.len()];
    for (u, unit) in units.iter().enumerate() {
        for &d in unit.depends_on.iter().filter(|&&d| d != u) {
            readers[d].push(u);
        }
    }
    readers
}

/// The counts a finished walk of `units` left in `checkpoint` (see
/// [`reach_by_units`]), or `None` if none has finished there: read
/// without walking, and without reading the marks of a walk under way.
///
/// # Errors
///
/// [`TableError`] if the checkpoint cannot be read or does not fit `units`.
pub fn finished_walk(units: &[Unit], counts: usize, checkpoint: &Checkpoint) -> Result<Option<Vec<u64>>, TableError> {
    // A finished walk has no marks left to keep.
    let Some(saved) = checkpoint.load_if(0)? else { return Ok(None) };
    let walk = Walk::restore(units, counts, &saved.state, saved.words)
        .ok_or_else(|| checkpoint.refuse("its state does not fit these units"))?;
    Ok((walk.order.len() == units.len()).then_some(walk.counts))
}

fn zeros(len: u64) -> Box<[AtomicU64]> {
    (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect()
}

fn mark(words: &[AtomicU64], idx: u64) {
    words[(idx / 64) as usize].fetch_or(1 << (idx % 64), Relaxed);
}

/// Positions found reachable, marked a batch at a time. On a board whose
/// marks do not fit the caches nearly every mark misses them, and a
/// locked update waits for every memory access before it: marked one at a
/// time, the misses came one after another. A batch reads all its words
/// first, so that their misses overlap, and then updates only the words
/// that lack one of its bits (most positions are found more than once), in
/// lines it has just read.
struct Found<'a> {
    marks: Vec<(&'a AtomicU64, u64)>,
}

/// Marks per batch.
const FOUND_BATCH: usize = 1 << 10;

impl<'a> Found<'a> {
    fn new() -> Found<'a> {
        Found { marks: Vec::with_capacity(FOUND_BATCH) }
    }

    /// Marks the positions of `bits` in word `word` of `words`.
    fn add(&mut self, words: &'a [AtomicU64], word: u64, bits: u64) {
        self.marks.push((&words[word as usize], bits));
        if self.marks.len() == FOUND_BATCH {
            self.mark();
        }
    }

    fn mark(&mut self) {
        self.marks.retain(|(word, bits)| word.load(Relaxed) & bits != *bits);
        for (word, bits) in self.marks.drain(..) {
            word.fetch_or(bits, Relaxed);
        }
    }
}

/// Follows the moves of unit `number` from the positions marked in `seen`
/// until no new one is found, marking those that leave the unit in
/// `pending`. Each position is expanded once; a sweep takes, in order,
/// every marked position not expanded yet, so that it also takes most of
/// those marked ahead of it by the same sweep (all whose batch of marks
/// was taken before it got there); sweeps go on until one finds nothing.
fn close<G: ForwardUnits>(
    game: &G,
    number: usize,
    seen: &[AtomicU64],
    pending: &[Option<Box<[AtomicU64]>>],
    progress: &dyn Progress,
) -> Result<(), Interrupted> {
    let mut expanded = vec![0u64; seen.len()];
    loop {
        let swept = expanded
            .par_chunks_mut(PIECE_WORDS)
            .enumerate()
            .map(|(piece, done)| {
                if progress.should_stop() {
                    return Err(Interrupted);
                }
                let first = piece * PIECE_WORDS;
                let mut found = Found::new();
                let mut swept = 0;
                let mut w = 0;
                while w < done.len() {
                    let todo = seen[first + w].load(Relaxed) & !done[w];
                    if todo == 0 {
                        w += 1;
                        continue;
                    }
                    game.for_each_child_of_marked(number, ((first + w) * 64) as u64, todo, |to, word, bits| {
                        let marks = if to == number { Some(seen) } else { pending[to].as_deref() };
                        found.add(marks.expect("a unit's moves lead only to the units it depends on"), word, bits);
                    });
                    done[w] |= todo;
                    swept += u64::from(todo.count_ones());
                }
                found.mark();
                Ok(swept)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if swept == 0 {
            return Ok(());
        }
    }
}

/// Where a walk is: the units walked, in order, the counts so far, and the
/// marks left on each unit not walked yet.
struct Walk {
    order: Vec<usize>,
    counts: Vec<u64>,
    pending: Vec<Option<Box<[AtomicU64]>>>,
}

impl Walk {
    fn new(units: &[Unit], counts: usize) -> Walk {
        Walk { order: Vec::new(), counts: vec![0; counts], pending: (0..units.len()).map(|_| None).collect() }
    }

    /// The state is: the units, the number walked, the counts, the units
    /// with marks and the units walked in order, each list after its
    /// length; each number a little-endian `u64`. The marks follow, unit
    /// after unit, as the checkpoint's words.
    fn state(&self) -> Vec<u8> {
        let marked: Vec<u64> = (0..self.pending.len() as u64).filter(|&u| self.pending[u as usize].is_some()).collect();
        let order: Vec<u64> = self.order.iter().map(|&u| u as u64).collect();
        let head = [self.pending.len() as u64, self.counts.len() as u64];
        [&head[..], &self.counts, &[marked.len() as u64], &marked, &[order.len() as u64], &order]
            .concat()
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect()
    }

    fn save(&self, file: &Checkpoint) -> Result<(), TableError> {
        let words: Vec<&AtomicU64> = self.pending.iter().flatten().flat_map(|marks| marks.iter()).collect();
        file.save_from(&self.state(), words.len() as u64, words.into_iter())
    }

    /// The walk a checkpoint holds, if its state fits `units`: every unit
    /// walked once, after the units with moves into it, and none with
    /// marks left.
    fn restore(units: &[Unit], counts: usize, state: &[u8], words: Vec<AtomicU64>) -> Option<Walk> {
        let mut numbers = state.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")));
        let mut next = || numbers.next().and_then(|n| usize::try_from(n).ok());
        if next()? != units.len() || next()? != counts {
            return None;
        }
        let sums = (0..counts).map(|_| next().map(|n| n as u64)).collect::<Option<Vec<_>>>()?;
        let marked = (0..next()?).map(|_| next().filter(|&u| u < units.len())).collect::<Option<Vec<_>>>()?;
        let order = (0..next()?).map(|_| next().filter(|&u| u < units.len())).collect::<Option<Vec<_>>>()?;
        if next().is_some() {
            return None;
        }
        let mut walked = vec![false; units.len()];
        let readers = readers(units);
        for &u in &order {
            if walked[u] || readers[u].iter().any(|&r| !walked[r]) {
                return None;
            }
            walked[u] = true;
        }
        let mut pending: Vec<Option<Box<[AtomicU64]>>> = (0..units.len()).map(|_| None).collect();
        let mut words = words.into_iter();
        for unit in marked {
            let len = units[unit].len.div_ceil(64) as usize;
            let marks: Box<[AtomicU64]> = words.by_ref().take(len).collect();
            if walked[unit] || pending[unit].is_some() || marks.len() != len {
                return None;
            }
            pending[unit] = Some(marks);
        }
        words.next().is_none().then_some(Walk { order, counts: sums, pending })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order a walk takes `units` in when every unit walked marks all
    /// the units it moves into.
    fn order(units: &[Unit], start: usize) -> Vec<usize> {
        let mut pending: Vec<Option<Box<[AtomicU64]>>> = (0..units.len()).map(|_| None).collect();
        let mut ready = Ready::new(units, &[]);
        let mut order = Vec::new();
        while let Some(u) = ready.take(units, &pending, start) {
            if pending[u].take().is_some() || u == start {
                for &d in &units[u].depends_on {
                    pending[d].get_or_insert_with(|| zeros(units[d].len));
                }
            }
            ready.walked(units, u);
            order.push(u);
        }
        order
    }

    #[test]
    fn a_walk_takes_first_the_units_that_leave_the_fewest_marks_held() {
        let unit = |len, depends_on: &[usize]| Unit { len, depends_on: depends_on.to_vec() };
        // From the start (4), unit 3 would have unit 0's many marks held
        // while 2 and 1 are walked; walking 2 and 1 first holds few.
        let units = [unit(1000, &[]), unit(1, &[]), unit(1, &[1]), unit(1, &[0]), unit(1, &[2, 3])];
        assert_eq!(order(&units, 4), [4, 2, 1, 3, 0]);
        // A unit nothing can mark (1: no unit moves into it, and the start
        // is not in it) is passed over first, whatever it would hold.
        let units = [unit(1000, &[]), unit(1, &[0]), unit(1, &[0])];
        assert_eq!(order(&units, 2), [1, 2, 0]);
    }

    #[test]
    fn a_checkpoint_whose_order_skips_a_reader_is_refused() {
        let units = [Unit { len: 64, depends_on: vec![] }, Unit { len: 64, depends_on: vec![0] }];
        let state = |order: &[u64]| {
            let walk =
                Walk { order: order.iter().map(|&u| u as usize).collect(), counts: vec![7], pending: vec![None, None] };
            walk.state()
        };
        assert!(Walk::restore(&units, 1, &state(&[1]), Vec::new()).is_some());
        assert!(Walk::restore(&units, 1, &state(&[1, 0]), Vec::new()).is_some());
        // Unit 0 before its reader, or twice.
        assert!(Walk::restore(&units, 1, &state(&[0]), Vec::new()).is_none());
        assert!(Walk::restore(&units, 1, &state(&[1, 1]), Vec::new()).is_none());
        // Another number of counts, or words left over.
        assert!(Walk::restore(&units, 2, &state(&[1]), Vec::new()).is_none());
        assert!(Walk::restore(&units, 1, &state(&[1]), vec![AtomicU64::new(0)]).is_none());
    }
}
