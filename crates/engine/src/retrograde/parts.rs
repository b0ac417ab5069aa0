//! A unit solved part by part, for a unit that splits into parts its
//! moves never leave (see [`UnitParts`]).
//!
//! Solving the whole unit numbers every parent by ranking it and updates
//! its cell somewhere in a table of megabytes; in a part, a parent is a
//! slot found by arithmetic and its cell sits in a table the caches hold.
//! A part is seeded and propagated there, and its cells are written to the
//! unit's once, at the end. The rules are those of
//! [`UnitSolve::seed`] and [`UnitSolve::propagate`], layer by layer, so
//! the values come out the same: a child lost in `d` plies makes its
//! parents wins in `d + 1` unless they win sooner, and a parent whose
//! every move is refuted loses one ply after its longest move.

use rayon::prelude::*;

use super::SolveError;
use super::unit_solve::{Earlier, Scratch, UnitSolve};
use crate::cells::Cell;
use crate::game::{UnitParts, Units};
use crate::progress::{Interrupted, Progress};
use crate::value::{Plies, Value};

/// One part's cells while it is solved, and the buffers its seeding
/// fills, reused from part to part.
struct PartCells<P, C> {
    /// The cell of each slot; slots without a position keep a draw, which
    /// nothing reads.
    codes: Vec<C>,
    /// Each slot's longest move into an earlier unit, plus one (see
    /// [`UnitSolve::earlier_wins`]).
    earlier_wins: Vec<C>,
    /// The part's slots with a position, as it expanded them.
    expanded: Vec<u32>,
    /// The runs of `expanded` whose positions' indices follow one another:
    /// the first index and the run's length.
    runs: Vec<(u64, u32)>,
    /// The slots decided at each distance, not yet propagated: wins, then
    /// losses. A slot may be listed at a distance it has since bettered:
    /// it is skipped there.
    layers: Vec<[Vec<u32>; 2]>,
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
            runs: Vec::new(),
            layers: Vec::new(),
            run: Vec::new(),
            scratch: Scratch::default(),
        }
    }
}

/// Lists `slot` as decided at `plies`, a win or a loss.
#[inline(always)]
fn list(layers: &mut Vec<[Vec<u32>; 2]>, slot: u32, plies: u16, wins: bool) {
    let plies = usize::from(plies);
    if layers.len() <= plies {
        add_layers(layers, plies);
    }
    layers[plies][usize::from(!wins)].push(slot);
}

/// Lists up to distance `plies`: rare, so kept out of [`list`]'s way.
#[cold]
#[inline(never)]
fn add_layers(layers: &mut Vec<[Vec<u32>; 2]>, plies: usize) {
    layers.resize_with(plies + 1, Default::default);
}

/// What telling the parents of one layer's positions reads and changes.
struct Told<'a, C> {
    plies: u16,
    codes: &'a mut [C],
    earlier_wins: &'a [C],
    layers: &'a mut Vec<[Vec<u32>; 2]>,
}

impl<G: Units, E: Earlier, C: Cell, const SHARED: bool> UnitSolve<'_, G, E, C, SHARED> {
    /// Seeds and propagates the unit part by part, in parallel with
    /// `SHARED`. The unit's cells must be zero or folded (see `passes`).
    pub(super) fn solve_by_parts(&self, parts: &impl UnitParts, progress: &dyn Progress) -> Result<(), SolveError> {
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

    /// Refutes a move of each parent of the positions of `won`, which the
    /// side to move wins in `told.plies`: a parent left without moves
    /// loses. Returns how many of `won` still win in `told.plies`.
    fn tell_parents_of_wins(
        &self,
        parts: &impl UnitParts,
        part: usize,
        won: &[u32],
        told: Told<'_, C>,
    ) -> Result<u64, SolveError> {
        let Told { plies, codes, earlier_wins, layers } = told;
        let win = self.codes.value(Value::Win(Plies(plies)))?;
        let last = self.codes.counter(1);
        let mut overflow = None;
        let mut found = 0;
        for &slot in won {
            if codes[slot as usize] != win {
                continue;
            }
            found += 1;
            parts.for_each_parent(part, slot, |parent| {
                let cell = &mut codes[parent as usize];
                if *cell != last {
                    // A counter counts one move fewer, a decided cell stays.
                    *cell = self.codes.count_down_any(*cell);
                    return;
                }
                // Its last move refuted, it loses one ply after its longest
                // move, which may leave the unit.
                let after_earlier = earlier_wins[parent as usize].into() as u16;
                let lost_in = (plies + 1).max(after_earlier);
                match self.codes.value(Value::Loss(Plies(lost_in))) {
                    Ok(lost) => {
                        *cell = lost;
                        list(layers, parent, lost_in, false);
                    }
                    Err(_) => overflow = Some(lost_in),
                }
            });
        }
        match overflow {
            // Solved again with wider cells.
            Some(plies) => Err(self.codes.too_long(plies)),
            None => Ok(found),
        }
    }

    /// Makes each parent of the positions of `lost`, which the side to
    /// move loses in `told.plies`, a win one ply longer unless it wins
    /// sooner. Returns how many of `lost` still lose in `told.plies`.
    fn tell_parents_of_losses(
        &self,
        parts: &impl UnitParts,
        part: usize,
        lost: &[u32],
        told: Told<'_, C>,
    ) -> Result<u64, SolveError> {
        let Told { plies, codes, layers, .. } = told;
        let loss = self.codes.value(Value::Loss(Plies(plies)))?;
        let next_win = self.codes.value(Value::Win(Plies(plies + 1))).ok();
        let mut overflow = false;
        let mut found = 0;
        for &slot in lost {
            if codes[slot as usize] != loss {
                continue;
            }
            found += 1;
            parts.for_each_parent(part, slot, |parent| {
                let cell = &mut codes[parent as usize];
                // Every win fits below a win too long for the cells.
                let wins_later = next_win.is_some_and(|win| self.codes.wins_later(*cell, win));
                if !self.codes.is_counter(*cell) && !wins_later {
                    return;
                }
                match next_win {
                    Some(win) => {
                        *cell = win;
                        list(layers, parent, plies + 1, true);
                    }
                    None => overflow = true,
                }
            });
        }
        match overflow {
            // Solved again with wider cells.
            true => Err(self.codes.too_long(plies + 1)),
            false => Ok(found),
        }
    }

    /// Seeds one part, propagates it in `cells` and writes its cells.
    /// Returns the progress made: each position once seeded and once more
    /// if decided.
    fn solve_part(
        &self,
        parts: &impl UnitParts,
        part: usize,
        slots: u32,
        cells: &mut PartCells<G::Position, C>,
    ) -> Result<u64, SolveError> {
        let draw = C::truncate(0);
        let PartCells { codes, earlier_wins, expanded, runs, layers, run, scratch } = cells;
        codes.clear();
        codes.resize(slots as usize, draw);
        earlier_wins.clear();
        earlier_wins.resize(slots as usize, draw);
        layers.iter_mut().flatten().for_each(Vec::clear);
        expanded.clear();
        runs.clear();
        // Seeded as expanded, while the position's children are at hand,
        // in the game's loop: out of line, the call and the state it
        // reloads cost Dodgem 5×5 about 13 instructions a position.
        let mut failed = None;
        // The run being extended, listed once the next position breaks it.
        let mut current: (u64, u32) = (0, 0);
        let (numbering, base) = (self.numbering, self.numbering.base());
        parts.expand(
            part,
            |to| numbering.first_number(to),
            #[inline(always)]
            |slot, idx, expansion, children| {
                if failed.is_some() {
                    return;
                }
                let idx = base + idx;
                if current.0 + u64::from(current.1) == idx {
                    current.1 += 1;
                } else {
                    if current.1 > 0 {
                        runs.push(current);
                    }
                    current = (idx, 1);
                }
                expanded.push(slot);
                let earlier = self.earlier_children(idx, children);
                let longest_win = earlier.longest_win;
                let code = match self.seed_code(idx, expansion, earlier, scratch) {
                    Ok(code) => code,
                    Err(error) => return failed = Some(error),
                };
                let at = slot as usize;
                (codes[at], earlier_wins[at]) = (code, self.earlier_win(code, longest_win));
                if !self.codes.is_counter(code) {
                    match self.codes.unpack(code) {
                        Value::Win(plies) => list(layers, slot, plies.0, true),
                        Value::Loss(plies) => list(layers, slot, plies.0, false),
                        Value::Draw => {}
                    }
                }
            },
        );
        if let Some(error) = failed {
            return Err(error);
        }
        if current.1 > 0 {
            runs.push(current);
        }
        let mut decided = 0;
        let mut plies = 0;
        while usize::from(plies) < layers.len() {
            let [wins, losses] = std::mem::take(&mut layers[usize::from(plies)]);
            let told = Told { plies, codes: &mut *codes, earlier_wins, layers: &mut *layers };
            let found = self.tell_parents_of_wins(parts, part, &wins, told)?;
            let told = Told { plies, codes: &mut *codes, earlier_wins, layers: &mut *layers };
            decided += found + self.tell_parents_of_losses(parts, part, &losses, told)?;
            layers[usize::from(plies)] = [wins, losses];
            plies += 1;
        }
        // Each run is written to the unit's cells a word at a time.
        let mut rest = &expanded[..];
        for &(first, len) in runs.iter() {
            let (slots, after) = rest.split_at(len as usize);
            rest = after;
            run.clear();
            run.extend(slots.iter().map(|&slot| codes[slot as usize]));
            self.cells.write_cells(first, run);
        }
        Ok(expanded.len() as u64 + decided)
    }
}
