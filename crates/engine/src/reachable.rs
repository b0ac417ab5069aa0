//! The set of positions reachable from a start position.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::game::DenseIndex;

/// A set of position indices, one bit each.
#[derive(Clone, Debug)]
pub struct PositionSet {
    words: Vec<u64>,
    len: u64,
}

impl PositionSet {
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

    /// The indices in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros();
                    rest &= rest - 1;
                    w as u64 * 64 + u64::from(bit)
                })
            })
        })
    }
}

/// Every position reachable from `start` by legal moves, `start` included.
/// Play stops at terminal positions.
pub fn reachable<G: DenseIndex>(game: &G, start: &G::Position) -> PositionSet {
    let seen: Vec<AtomicU64> = (0..game.position_count().div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let insert = |idx: u64| {
        let bit = 1 << (idx % 64);
        seen[(idx / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    };
    let first = game.index(start);
    insert(first);
    let mut frontier = vec![first];
    let mut len = 0;
    while !frontier.is_empty() {
        len += frontier.len() as u64;
        frontier = frontier
            .par_iter()
            .fold(Vec::new, |mut next, &idx| {
                let pos = game.unindex(idx);
                if game.terminal_value(&pos).is_none() {
                    game.for_each_child(&pos, |child| {
                        let child = game.index(&child);
                        if insert(child) {
                            next.push(child);
                        }
                    });
                }
                next
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
    }
    PositionSet { words: seen.into_iter().map(AtomicU64::into_inner).collect(), len }
}
