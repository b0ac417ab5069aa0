//! What a solved table says: each phase's results and distances, and every
//! move's value.

use std::ops::Range;

use rayon::prelude::*;
use solved_engine::{Plies, Tally, Value, Values};

use super::{Move, Position, TicTacChec};

/// Results over one phase, with its longest distances.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct PhaseSummary {
    /// Positions by result.
    pub tally: Tally,
    /// The longest win.
    pub longest_win: Option<Plies>,
    /// The longest loss.
    pub longest_loss: Option<Plies>,
}

impl PhaseSummary {
    fn add(&mut self, value: Value) {
        self.tally.add(value);
        match value {
            Value::Win(d) => self.longest_win = self.longest_win.max(Some(d)),
            Value::Loss(d) => self.longest_loss = self.longest_loss.max(Some(d)),
            Value::Draw => {}
        }
    }

    fn merge(self, other: PhaseSummary) -> PhaseSummary {
        PhaseSummary {
            tally: self.tally.merge(other.tally),
            longest_win: self.longest_win.max(other.longest_win),
            longest_loss: self.longest_loss.max(other.longest_loss),
        }
    }
}

/// What a solved table says, phase by phase and distance by distance.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// The post-opening positions.
    pub post_opening: PhaseSummary,
    /// The opening positions.
    pub opening: PhaseSummary,
    /// Each opening ply, from 0.
    pub opening_plies: Vec<PhaseSummary>,
    /// For each distance: wins and losses after the opening, then in it.
    pub histogram: Vec<[u64; 4]>,
    /// The empty board's value.
    pub start: Value,
}

impl TicTacChec {
    /// Tallies the solved values of this game.
    pub fn summary(&self, table: &(impl Values + ?Sized)) -> Summary {
        const CHUNK: u64 = 1 << 22;
        let count = self.index.count();
        let post = self.index.post_opening().end;
        let tally = |range: Range<u64>| {
            let mut tally = PhaseSummary::default();
            let mut histogram = vec![[0u64; 4]; 128];
            for idx in range {
                let value = table.probe(idx);
                tally.add(value);
                let phase = if idx < post { 0 } else { 2 };
                match value {
                    Value::Win(Plies(d)) => histogram[usize::from(d)][phase] += 1,
                    Value::Loss(Plies(d)) => histogram[usize::from(d)][phase + 1] += 1,
                    Value::Draw => {}
                }
            }
            (tally, histogram)
        };
        let merge_histograms = |mut a: Vec<[u64; 4]>, b: Vec<[u64; 4]>| {
            for (x, y) in a.iter_mut().zip(b) {
                for i in 0..4 {
                    x[i] += y[i];
                }
            }
            a
        };
        let (post_opening, mut histogram) =
            (0..post.div_ceil(CHUNK)).into_par_iter().map(|c| tally(c * CHUNK..((c + 1) * CHUNK).min(post))).reduce(
                || (PhaseSummary::default(), vec![[0; 4]; 128]),
                |a, b| (a.0.merge(b.0), merge_histograms(a.1, b.1)),
            );
        let opening_plies: Vec<PhaseSummary> = (0..6)
            .map(|ply| {
                let (ply_tally, ply_histogram) = tally(self.index.opening_ply(ply));
                histogram = merge_histograms(std::mem::take(&mut histogram), ply_histogram);
                ply_tally
            })
            .collect();
        let opening = opening_plies.iter().fold(PhaseSummary::default(), |a, &b| a.merge(b));
        let longest = histogram.iter().rposition(|h| h.iter().any(|&n| n > 0)).map_or(0, |d| d + 1);
        histogram.truncate(longest);
        debug_assert_eq!(post_opening.tally.positions() + opening.tally.positions(), count);
        Summary {
            post_opening,
            opening,
            opening_plies,
            histogram,
            start: table.probe(self.index.index(&Position::empty())),
        }
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first.
    pub fn ranked_moves(&self, pos: &Position, table: &(impl Values + ?Sized)) -> Vec<(Move, Value, Position)> {
        let mut moves = Vec::new();
        pos.for_each_move(self.rule, |m, child| {
            moves.push((m, Value::of_move_into(table.probe(self.index.index(&child))), child));
        });
        moves.sort_by_key(|entry| std::cmp::Reverse(entry.1));
        moves
    }
}
