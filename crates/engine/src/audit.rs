//! Checks solved values against the minimax equation, one position at a time.

use rayon::prelude::*;

use crate::game::DenseIndex;
use crate::value::Value;

/// A position whose stored value disagrees with its children's.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Disagreement {
    /// The position's index.
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
}

const EXAMPLES: usize = 10;

/// Recomputes every position's value from its children's stored values,
/// using only forward move generation, and compares it with the stored one.
///
/// A terminal position must hold its terminal value; any other must hold the
/// best, by [`Value`]'s order, of [`Value::of_move_into`] its children. This
/// checks every win (it has a move to a loss one ply shorter, and none to a
/// shorter loss), every loss (all moves lead to wins, the longest one ply
/// shorter) and every draw (no move loses for the opponent, one draws).
pub fn audit<G: DenseIndex>(game: &G, stored: impl Fn(u64) -> Value + Sync) -> AuditReport {
    let count = game.position_count();
    let chunk = 1 << 16;
    let reports: Vec<AuditReport> = (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut report = AuditReport::default();
            for idx in c * chunk..((c + 1) * chunk).min(count) {
                report.checked += 1;
                let implied = implied_value(game, &game.unindex(idx), &stored);
                let stored = stored(idx);
                if implied != stored {
                    report.disagreements += 1;
                    if report.examples.len() < EXAMPLES {
                        report.examples.push(Disagreement { idx, stored, implied });
                    }
                }
            }
            report
        })
        .collect();
    reports.into_iter().fold(AuditReport::default(), |mut all, part| {
        all.checked += part.checked;
        all.disagreements += part.disagreements;
        all.examples.extend(part.examples);
        all.examples.truncate(EXAMPLES);
        all
    })
}

/// The value the minimax equation gives `pos` from its children's values.
pub fn implied_value<G: DenseIndex>(game: &G, pos: &G::Position, stored: impl Fn(u64) -> Value) -> Value {
    if let Some(value) = game.terminal_value(pos) {
        return value;
    }
    let mut best = None;
    game.for_each_child(pos, |child| {
        let value = Value::of_move_into(stored(game.index(&child)));
        best = Some(best.map_or(value, |b: Value| b.max(value)));
    });
    best.expect("a position that is not terminal has a move")
}
