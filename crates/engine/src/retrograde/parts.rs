//! Propagation part by part, for a tier that splits into parts its moves
//! never leave (see [`TierParts`]).
//!
//! Propagating through the whole tier numbers every parent by ranking it
//! and updates its cell somewhere in a table of megabytes; in a part, a
//! parent is a slot found by arithmetic and its cell sits in a table the
//! caches hold. The rules are those of [`TierSolver::propagate`], layer by
//! layer, so the values come out the same: a child lost in `d` plies makes
//! its parents wins in `d + 1` unless they win sooner, and a parent whose
//! every move is refuted loses one ply after its longest move.

use rayon::prelude::*;

use super::{Earlier, TierSolver, unpack};
use crate::bytes::Cell;
use crate::game::{TierParts, TieredRetrograde};
use crate::progress::{Interrupted, Progress};
use crate::retrograde::SolveError;
use crate::value::{Plies, Value};

/// One part's cells while it is propagated, reused from part to part.
struct PartCells<C> {
    /// The cell of each slot; slots without a position keep a draw, which
    /// nothing reads.
    codes: Vec<C>,
    /// The cell each slot was seeded with, to copy back only what changed.
    seeded: Vec<C>,
    /// Each slot's position index, `u64::MAX` for a slot without one.
    positions: Vec<u64>,
    /// Each slot's longest move into an earlier tier, plus one (see
    /// [`TierSolver::earlier_wins`]).
    earlier_wins: Vec<C>,
    /// The slots decided at each distance, not yet propagated. A slot may
    /// be listed at a distance it has since bettered: it is skipped there.
    layers: Vec<Vec<u32>>,
}

impl<C> Default for PartCells<C> {
    fn default() -> Self {
        PartCells {
            codes: Vec::new(),
            seeded: Vec::new(),
            positions: Vec::new(),
            earlier_wins: Vec::new(),
            layers: Vec::new(),
        }
    }
}

/// Lists `slot` as decided at `plies`.
fn list(layers: &mut Vec<Vec<u32>>, slot: u32, plies: u16) {
    let plies = usize::from(plies);
    if layers.len() <= plies {
        layers.resize_with(plies + 1, Vec::new);
    }
    layers[plies].push(slot);
}

impl<G: TieredRetrograde, E: Earlier, C: Cell, const SHARED: bool> TierSolver<'_, G, E, C, SHARED> {
    /// Propagates the seeded tier part by part, in parallel with `SHARED`.
    pub(super) fn propagate_by_parts(&self, parts: &impl TierParts, progress: &dyn Progress) -> Result<(), SolveError> {
        let slot_counts = parts.slot_counts();
        let propagate = |cells: &mut PartCells<C>, part: usize| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted(Interrupted));
            }
            let decided = self.propagate_part(parts, part, slot_counts[part], cells)?;
            progress.advance(decided);
            Ok(())
        };
        if SHARED {
            (0..slot_counts.len()).into_par_iter().try_for_each_init(PartCells::default, propagate)
        } else {
            let mut cells = PartCells::default();
            (0..slot_counts.len()).try_for_each(|part| propagate(&mut cells, part))
        }
    }

    /// Propagates one part in `cells` and writes back the cells that
    /// changed. Returns how many positions it propagated: every position
    /// decided, seeded or not, once.
    fn propagate_part(
        &self,
        parts: &impl TierParts,
        part: usize,
        slots: u32,
        cells: &mut PartCells<C>,
    ) -> Result<u64, SolveError> {
        let draw = C::truncate(0);
        let slots = slots as usize;
        cells.codes.clear();
        cells.codes.resize(slots, draw);
        cells.earlier_wins.clear();
        cells.earlier_wins.resize(slots, draw);
        cells.positions.clear();
        cells.positions.resize(slots, u64::MAX);
        cells.layers.iter_mut().for_each(Vec::clear);
        let earlier_wins = self.earlier_wins.as_ref().expect("a solve of one tier keeps its earlier wins");
        parts.for_each_position(part, |slot, idx| {
            let code = self.bytes.load(idx);
            let at = slot as usize;
            (cells.codes[at], cells.earlier_wins[at], cells.positions[at]) = (code, earlier_wins.load(idx), idx);
            if !self.codes.is_counter(code)
                && let Some(plies) = unpack(code).plies()
            {
                list(&mut cells.layers, slot, plies.0);
            }
        });
        cells.seeded.clone_from(&cells.codes);
        let mut decided = 0;
        let mut longest = 0;
        let mut plies = 0;
        let PartCells { codes, earlier_wins, layers, .. } = &mut *cells;
        while usize::from(plies) < layers.len() {
            let layer = std::mem::take(&mut layers[usize::from(plies)]);
            let (win, loss) = (self.codes.value(Value::Win(Plies(plies)))?, self.codes.value(Value::Loss(Plies(plies)))?);
            // A distance past the cells' limit fails the solve, to be
            // solved again with wider cells.
            let next_win = self.codes.value(Value::Win(Plies(plies + 1))).ok();
            let mut overflow = None;
            for &slot in &layer {
                let code = codes[slot as usize];
                if code != win && code != loss {
                    continue;
                }
                decided += 1;
                longest = plies;
                let child_wins = code == win;
                parts.for_each_parent(part, slot, |parent| {
                    let cell = &mut codes[parent as usize];
                    let decision: (Option<C>, u16) = if child_wins {
                        if *cell != C::MAX {
                            if self.codes.is_counter(*cell) {
                                *cell = C::truncate((*cell).into() + 1);
                            }
                            return;
                        }
                        // Its last move refuted, it loses one ply after its
                        // longest move, which may leave the tier.
                        let after_earlier = earlier_wins[parent as usize].into() as u16;
                        let lost_in = (plies + 1).max(after_earlier);
                        (self.codes.value(Value::Loss(Plies(lost_in))).ok(), lost_in)
                    } else {
                        // Wins are odd codes, shorter ones lower.
                        let betters = |win: C| (*cell).into() % 2 == 1 && *cell > win;
                        if !self.codes.is_counter(*cell) && !next_win.is_some_and(betters) {
                            return;
                        }
                        (next_win, plies + 1)
                    };
                    match decision {
                        (Some(code), plies) => {
                            *cell = code;
                            list(layers, parent, plies);
                        }
                        (None, too_long) => overflow = Some(too_long),
                    }
                });
            }
            if let Some(plies) = overflow {
                return Err(self.codes.too_long(plies));
            }
            layers[usize::from(plies)] = layer;
            plies += 1;
        }
        for ((&code, &seeded), &idx) in cells.codes.iter().zip(&cells.seeded).zip(&cells.positions) {
            if code != seeded {
                self.update(idx, |_| Some(code));
            }
        }
        self.max_plies.fetch_max(longest, std::sync::atomic::Ordering::Relaxed);
        Ok(decided)
    }
}
