//! The set of positions reachable from a start position.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::game::DenseIndex;
use crate::progress::{Interrupted, Progress};

/// A set of position indices, one bit each.
#[derive(Clone, Debug)]
pub struct PositionSet {
    words: Vec<u64>,
    len: u64,
}

impl PositionSet {
    /// The set whose members are the bits of `words`, position `64 i + b`
    /// at bit `b` of word `i`.
    pub(crate) fn from_words(words: Vec<u64>) -> PositionSet {
        let len = words.iter().map(|w| u64::from(w.count_ones())).sum();
        PositionSet { words, len }
    }

    /// Whether `idx` is in the set.
    pub fn contains(&self, idx: u64) -> bool {
        self.words.get((idx / 64) as usize).is_some_and(|w| w >> (idx % 64) & 1 == 1)
    }

    /// How many positions the set holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `f` with every index in the set, in increasing order within
    /// each of several parallel pieces, and combines the pieces' results.
    pub fn par_fold<T: Send>(
        &self,
        identity: impl Fn() -> T + Sync + Send,
        f: impl Fn(T, u64) -> T + Sync + Send,
        combine: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        self.words
            .par_chunks(1 << 10)
            .enumerate()
            .map(|(piece, words)| {
                let mut acc = identity();
                for (w, &word) in words.iter().enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        let bit = u64::from(rest.trailing_zeros());
                        rest &= rest - 1;
                        acc = f(acc, ((piece << 10) + w) as u64 * 64 + bit);
                    }
                }
                acc
            })
            .reduce(&identity, combine)
    }
}

/// Every position reachable from `start` by legal moves, `start` included.
/// Play stops at terminal positions.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn reachable<G: DenseIndex>(
    game: &G,
    start: &G::Position,
    progress: &dyn Progress,
) -> Result<PositionSet, Interrupted> {
    let seen: Vec<AtomicU64> = (0..game.position_count().div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let word = |idx: u64| &seen[(idx / 64) as usize];
    progress.start("reachable", game.position_count());
    word(game.index(start)).fetch_or(1 << (game.index(start) % 64), Relaxed);
    // The frontier holds positions rather than indices: unindexing each
    // would cost as much as indexing its children.
    let mut frontier = vec![*start];
    let mut len = 0;
    while !frontier.is_empty() {
        len += frontier.len() as u64;
        let pieces: Vec<Vec<G::Position>> = frontier
            .par_chunks(1 << 12)
            .map(|piece| {
                if progress.should_stop() {
                    return Err(Interrupted);
                }
                let mut children = Vec::new();
                for pos in piece {
                    if game.terminal_value(pos).is_none() {
                        game.for_each_child(pos, |child| children.push((game.index(&child), child)));
                    }
                }
                // Most children were seen before: a plain load (whose cache
                // misses overlap) rules them out before any atomic update.
                let unseen: Vec<bool> =
                    children.iter().map(|&(idx, _)| word(idx).load(Relaxed) >> (idx % 64) & 1 == 0).collect();
                let next = children
                    .into_iter()
                    .zip(unseen)
                    .filter(|&((idx, _), unseen)| {
                        unseen && word(idx).fetch_or(1 << (idx % 64), Relaxed) >> (idx % 64) & 1 == 0
                    })
                    .map(|((_, child), _)| child)
                    .collect();
                progress.advance(piece.len() as u64);
                Ok(next)
            })
            .collect::<Result<_, _>>()?;
        frontier = pieces.concat();
    }
    Ok(PositionSet { words: seen.into_iter().map(AtomicU64::into_inner).collect(), len })
}
