//! Seeding: every position of a unit expanded once, and given its value
//! or a counter of the moves that may still save it.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::SolveError;
use super::codes::EarlierChildren;
use super::pending::{Distances, MASKED};
use super::unit_solve::{Earlier, SEED_BATCH, Scratch, UnitSolve};
use crate::cells::Cell;
use crate::game::{Expansion, Units};
use crate::progress::{Interrupted, Progress};
use crate::value::{Plies, Value};

impl<G: Units, E: Earlier, C: Cell, const SHARED: bool> UnitSolve<'_, G, E, C, SHARED> {
    /// Seeds every position of the unit, whose cells must be zero or
    /// folded (see `passes`).
    pub(super) fn seed(&self, progress: &dyn Progress) -> Result<(), SolveError> {
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
                self.expand_batch(batch, scratch);
                self.earlier.touch(scratch.children.iter().copied());
                for i in 0..scratch.positions.len() {
                    let (idx, expansion, ref children) = scratch.positions[i];
                    let earlier = self.earlier_children(idx, &scratch.children[children.clone()]);
                    let longest_win = earlier.longest_win;
                    let code = self.seed_code(idx, expansion, earlier, scratch)?;
                    if self.earlier_wins.is_some() {
                        scratch.earlier_wins.push(self.earlier_win(code, longest_win));
                    }
                    if !self.codes.is_counter(code) {
                        let plies = self.codes.unpack(code).plies().unwrap_or_default().0;
                        // Longer distances are pending everywhere (see `Pending`).
                        if plies < MASKED {
                            decided[usize::from(plies / 64)] |= 1 << (plies % 64);
                        }
                    }
                    scratch.codes.push(code);
                }
            }
            self.cells.write_cells(chunk.start, &scratch.codes);
            if let Some(earlier_wins) = &self.earlier_wins {
                earlier_wins.write_cells(chunk.start, &scratch.earlier_wins);
            }
            self.pending.mark_all(chunk.start, &decided);
            self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
            progress.advance(chunk.end - chunk.start);
            Ok(())
        })
    }

    /// Expands the positions numbered in `batch`, into `scratch.positions`
    /// and their children in earlier units into `scratch.children`.
    #[inline(always)]
    pub(super) fn expand_batch(&self, batch: std::ops::Range<u64>, scratch: &mut Scratch<G::Position, C>) {
        scratch.positions.clear();
        scratch.children.clear();
        let (positions, children) = (&mut scratch.positions, &mut scratch.children);
        let mut first = 0;
        let (numbering, base) = (self.numbering, self.numbering.base());
        self.game.expand_range(
            self.unit,
            batch.start - base..batch.end - base,
            children,
            |to| numbering.first_number(to),
            |idx, expansion, end| {
                positions.push((base + idx, expansion, first..end));
                first = end;
            },
        );
    }

    /// The cell a position numbered `idx` is seeded with.
    #[inline(always)]
    pub(super) fn seed_code(
        &self,
        idx: u64,
        expansion: Expansion,
        earlier: EarlierChildren,
        scratch: &mut Scratch<G::Position, C>,
    ) -> Result<C, SolveError> {
        let in_unit = match expansion {
            Expansion::Terminal(value) => return self.decide(value, scratch),
            Expansion::Moves { in_unit } => in_unit,
        };
        if let Some(d) = earlier.shortest_loss {
            // Provisional: an in-unit move may still win faster.
            return self.decide(Value::Win(Plies(d + 1)), scratch);
        }
        assert!(
            u16::from(in_unit) < self.codes.counters(),
            "game reported {in_unit} in-unit moves, above its own bound"
        );
        match (u16::from(in_unit) + u16::from(earlier.any_draw), earlier.longest_win) {
            (0, Some(d)) => self.decide(Value::Loss(Plies(d + 1)), scratch),
            (0, None) => panic!(
                "position {:?} is not terminal but has no moves",
                self.game.unindex_in_unit(self.unit, idx - self.numbering.base())
            ),
            (count, _) => Ok(self.codes.counter(count as u8)),
        }
    }
}
