//! Checks solved values against the minimax equation, one position at a time.

use rayon::prelude::*;

use crate::distances::{DistanceCounter, Distances};
use crate::game::DenseIndex;
use crate::progress::{Interrupted, Progress};
use crate::value::Value;
use crate::values::Values;

/// A position whose stored value disagrees with its children's.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Disagreement {
    /// The position's index in the audited game.
    pub idx: u64,
    /// The value stored for it.
    pub stored: Value,
    /// The value its children's stored values imply.
    pub implied: Value,
}

/// The result of an [`audit`].
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct AuditReport {
    /// How many positions were checked.
    pub checked: u64,
    /// How many disagreed.
    pub disagreements: u64,
    /// The first few disagreements, by index.
    pub examples: Vec<Disagreement>,
    /// The stored values checked, counted by distance.
    pub distances: Distances,
}

impl AuditReport {
    pub(crate) fn merge(mut self, other: AuditReport) -> AuditReport {
        self.checked += other.checked;
        self.disagreements += other.disagreements;
        self.examples.extend(other.examples);
        self.examples.sort_by_key(|d| d.idx);
        self.examples.truncate(EXAMPLES);
        let mut distances = DistanceCounter::default();
        distances.add_all(&self.distances);
        distances.add_all(&other.distances);
        self.distances = distances.finish();
        self
    }
}

/// Disagreements a report keeps, the first by index.
pub(crate) const EXAMPLES: usize = 10;
const CHUNK: u64 = 1 << 14;

/// Recomputes every position's value from its children's stored values,
/// using only forward move generation, and compares it with the stored one.
///
/// Every position of `game` is visited; `locate` gives the index in
/// `values` of any position (it may differ from `game`'s own index, for
/// instance when `values` holds one entry per symmetric pair).
///
/// A terminal position must hold its terminal value; any other must hold the
/// best, by [`Value`]'s order, of [`Value::of_move_into`] its children. This
/// checks every win (it has a move to a loss one ply shorter, and none to a
/// shorter loss), every loss (all moves lead to wins, the longest one ply
/// shorter) and every draw (no move loses for the opponent, one draws).
/// Values that pass at every position are the game's true values: take a
/// wrong one whose true or stored distance is smallest; its children are
/// right, so the equation would have corrected it.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn audit<G: DenseIndex>(
    game: &G,
    values: &(impl Values + ?Sized),
    locate: impl Fn(&G::Position) -> u64 + Sync,
    progress: &dyn Progress,
) -> Result<AuditReport, Interrupted> {
    let count = game.position_count();
    progress.start("audit", count);
    (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let chunk = c * CHUNK..((c + 1) * CHUNK).min(count);
            let report = audit_chunk(game, values, &locate, chunk.clone());
            progress.advance(chunk.end - chunk.start);
            Ok(report)
        })
        .try_reduce(AuditReport::default, |a, b| Ok(a.merge(b)))
}

fn audit_chunk<G: DenseIndex>(
    game: &G,
    values: &(impl Values + ?Sized),
    locate: &impl Fn(&G::Position) -> u64,
    chunk: std::ops::Range<u64>,
) -> AuditReport {
    let mut report = AuditReport::default();
    let mut distances = DistanceCounter::default();
    let mut children = Vec::new();
    for idx in chunk {
        let pos = game.unindex(idx);
        let stored = values.probe(locate(&pos));
        let implied = match game.terminal_value(&pos) {
            Some(value) => value,
            None => {
                // Gather the children first: their lookups are independent,
                // so the processor overlaps the cache misses.
                children.clear();
                game.for_each_child(&pos, |child| children.push(locate(&child)));
                let best = children.iter().map(|&c| Value::of_move_into(values.probe(c))).max();
                best.expect("a position that is not terminal has a move")
            }
        };
        report.checked += 1;
        distances.add(stored, 1);
        if implied != stored {
            report.disagreements += 1;
            if report.examples.len() < EXAMPLES {
                report.examples.push(Disagreement { idx, stored, implied });
            }
        }
    }
    report.distances = distances.finish();
    report
}
