//! A tier solved part by part, for a tier that splits into parts its
//! moves never leave (see [`TierParts`]).
//!
//! Solving the whole tier numbers every parent by ranking it and updates
//! its cell somewhere in a table of megabytes; in a part, a parent is a
//! slot found by arithmetic and its cell sits in a table the caches hold.
//! A part is seeded and propagated there, and its cells are written to the
//! tier's once, at the end. The rules are those of
//! [`TierSolver::seed`] and [`TierSolver::propagate`], layer by layer, so
//! the values come out the same: a child lost in `d` plies makes its
//! parents wins in `d + 1` unless they win sooner, and a parent whose
//! every move is refuted loses one ply after its longest move.

use rayon::prelude::*;

use super::{Earlier, Scratch, TierSolver, unpack};
use crate::bytes::Cell;
use crate::game::{Expansion, TierParts, TieredRetrograde};
use crate::progress::{Interrupted, Progress};
use crate::retrograde::SolveError;
use crate::value::{Plies, Value};

/// One part's cells while it is solved, and the buffers its seeding
/// fills, reused from part to part.
struct PartCells<P, C> {
    /// The cell of each slot; slots without a position keep a draw, which
    /// nothing reads.
    codes: Vec<C>,
    /// Each slot's longest move into an earlier tier, plus one (see
    /// [`TierSolver::earlier_wins`]).
    earlier_wins: Vec<C>,
    /// The part's positions as it expanded them: slot, index, expansion
    /// and the end of its children in `scratch.children`.
    expanded: Vec<(u32, u64, Expansion, usize)>,
    /// The slots decided at each distance, not yet propagated. A slot may
    /// be listed at a distance it has since bettered: it is skipped there.
    layers: Vec<Vec<u32>>,
    /// A run of cells with consecutive indices, written together.
    run: Vec<C>,
    scratch: Scratch<P, C>,
}

impl<P, C> Default for PartCells<P, C> {
    fn default() -> Self {
        PartCells {
            codes: Vec::new(),
            earlier_wins: Vec::new(),
            expanded: Vec::new(),
            layers: Vec::new(),
            run: Vec::new(),
            scratch: Scratch::default(),
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
    /// Seeds and propagates the tier part by part, in parallel with
    /// `SHARED`. The tier's cells must be zero.
    pub(super) fn solve_by_parts(&self, parts: &impl TierParts, progress: &dyn Progress) -> Result<(), SolveError> {
        let slot_counts = parts.slot_counts();
        let solve = |cells: &mut PartCells<G::Position, C>, part: usize| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted(Interrupted));
            }
            let done = self.solve_part(parts, part, slot_counts[part], cells)?;
            progress.advance(done);
            Ok(())
        };
        if SHARED {
            (0..slot_counts.len()).into_par_iter().try_for_each_init(PartCells::default, solve)
        } else {
            let mut cells = PartCells::default();
            (0..slot_counts.len()).try_for_each(|part| solve(&mut cells, part))
        }
    }

    /// Seeds one part, propagates it in `cells` and writes its cells.
    /// Returns the progress made: each position once seeded and once more
    /// if decided.
    fn solve_part(
        &self,
        parts: &impl TierParts,
        part: usize,
        slots: u32,
        cells: &mut PartCells<G::Position, C>,
    ) -> Result<u64, SolveError> {
        let draw = C::truncate(0);
        let slots = slots as usize;
        cells.codes.clear();
        cells.codes.resize(slots, draw);
        cells.earlier_wins.clear();
        cells.earlier_wins.resize(slots, draw);
        cells.layers.iter_mut().for_each(Vec::clear);
        cells.expanded.clear();
        cells.scratch.children.clear();
        let (expanded, children) = (&mut cells.expanded, &mut cells.scratch.children);
        parts.expand(part, children, |slot, idx, expansion, end| expanded.push((slot, idx, expansion, end)));
        debug_assert!(children.iter().all(|c| !self.tier.contains(c)), "expand reported an in-tier child");
        self.earlier.touch(cells.scratch.children.iter().copied());
        let mut first = 0;
        for &(slot, idx, expansion, end) in &cells.expanded {
            let earlier = self.earlier_children(&cells.scratch.children[first..end]);
            first = end;
            let longest_win = earlier.longest_win;
            let code = self.seed_code(idx, expansion, earlier, &mut cells.scratch)?;
            let at = slot as usize;
            cells.codes[at] = code;
            if self.codes.is_counter(code) {
                // A distance that reaches the counter codes overflows when
                // the loss is settled.
                let win = longest_win.map_or(0, |d| d + 1).min(self.codes.limit() + 1);
                cells.earlier_wins[at] = C::truncate(u64::from(win));
            } else if let Some(plies) = unpack(code).plies() {
                list(&mut cells.layers, slot, plies.0);
            }
        }
        let mut decided = 0;
        let mut longest = 0;
        let mut plies = 0;
        let PartCells { codes, earlier_wins, layers, .. } = &mut *cells;
        while usize::from(plies) < layers.len() {
            let layer = std::mem::take(&mut layers[usize::from(plies)]);
            let (win, loss) =
                (self.codes.value(Value::Win(Plies(plies)))?, self.codes.value(Value::Loss(Plies(plies)))?);
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
        // A row of a part holds positions with consecutive indices: each
        // run is ORed into the zero cells a word at a time.
        let mut start = None;
        for &(slot, idx, ..) in &cells.expanded {
            if start.is_some_and(|start| start + cells.run.len() as u64 != idx) {
                self.bytes.or_cells(start.take().expect("a run has a start"), &cells.run);
            }
            if start.is_none() {
                start = Some(idx);
                cells.run.clear();
            }
            cells.run.push(cells.codes[slot as usize]);
        }
        if let Some(start) = start {
            self.bytes.or_cells(start, &cells.run);
        }
        self.max_plies.fetch_max(longest, std::sync::atomic::Ordering::Relaxed);
        Ok(cells.expanded.len() as u64 + decided)
    }
}
