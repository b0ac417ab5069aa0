//! Propagation: layer after layer of distance, each decided position's
//! in-unit parents told what it means for them.

use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::SolveError;
use super::unit_solve::{BATCH, Earlier, Layer, STEP_RATHER_THAN_UNINDEX, Scratch, UnitSolve};
use crate::cells::Cell;
use crate::game::Units;
use crate::progress::{Interrupted, Progress};
use crate::value::{Plies, Value};

/// What a position learned of one of its moves.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum Learned {
    /// Nothing new.
    Nothing,
    /// It is won, or won sooner.
    Decided,
    /// Its last move was refuted: it is lost, to be settled (see
    /// [`UnitSolve::settle_losses`]).
    Lost,
}

impl<G: Units, E: Earlier, C: Cell, const SHARED: bool> UnitSolve<'_, G, E, C, SHARED> {
    /// Propagates layer after layer from `first_layer`, calling `layer_done`
    /// with the next layer's distance after each.
    pub(super) fn propagate(
        &self,
        progress: &dyn Progress,
        first_layer: u16,
        layer_done: &mut dyn FnMut(u16) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let chunks = self.chunks();
        let mut plies = first_layer;
        while plies <= self.max_plies.load(Relaxed) {
            let layer = self.layer(plies)?;
            let tasks = chunks.par_iter().enumerate().with_min_len(Self::MIN_CHUNKS_PER_TASK);
            tasks.try_for_each_init(Scratch::default, |scratch, (number, chunk)| {
                if progress.should_stop() {
                    return Err(SolveError::Interrupted(Interrupted));
                }
                if !self.pending.has(number, plies) {
                    return Ok(());
                }
                let mut frontier = std::mem::take(&mut scratch.frontier);
                self.frontier(chunk, layer, &mut scratch.decided, &mut frontier);
                for batch in frontier.chunks(BATCH) {
                    self.propagate_batch(batch, layer, scratch);
                }
                progress.advance(frontier.len() as u64);
                scratch.frontier = frontier;
                self.max_plies.fetch_max(std::mem::take(&mut scratch.max_plies), Relaxed);
                Ok(())
            })?;
            plies += 1;
            layer_done(plies)?;
        }
        Ok(())
    }

    /// The codes of the layer of distance `plies`.
    pub(super) fn layer(&self, plies: u16) -> Result<Layer<C>, SolveError> {
        Ok(Layer {
            plies,
            win: self.codes.value(Value::Win(Plies(plies)))?,
            loss: self.codes.value(Value::Loss(Plies(plies)))?,
            next_win: self.codes.value(Value::Win(Plies(plies + 1))).ok(),
            next_loss: self.codes.value(Value::Loss(Plies(plies + 1))).ok(),
        })
    }

    /// The positions of `chunk` decided at this layer's distance, flagged
    /// when they are wins, into `frontier`. When they are many, stepping
    /// through the chunk finds their positions faster than unindexing each.
    pub(super) fn frontier(
        &self,
        chunk: &Range<u64>,
        layer: Layer<C>,
        decided: &mut Vec<(u64, bool)>,
        frontier: &mut Vec<(u64, bool, G::Position)>,
    ) {
        decided.clear();
        frontier.clear();
        self.cells.for_each_equal(chunk.clone(), [layer.win, layer.loss], |idx, code| {
            decided.push((idx, code == layer.win));
        });
        if self.step_dense_layers && decided.len() as u64 * STEP_RATHER_THAN_UNINDEX >= chunk.end - chunk.start {
            let mut next = decided.iter().peekable();
            let base = self.numbering.base();
            let range = chunk.start - base..decided.last().map_or(chunk.start, |d| d.0 + 1) - base;
            self.game.for_each_in_unit(self.unit, range, |idx, pos| {
                if let Some(&&(at, is_win)) = next.peek().filter(|d| d.0 == base + idx) {
                    frontier.push((at, is_win, pos));
                    next.next();
                }
            });
        } else {
            let base = self.numbering.base();
            let mut wins = decided.iter().map(|d| d.1);
            self.game.unindex_ascending_in_unit(self.unit, decided.iter().map(|d| d.0 - base), |idx, pos| {
                frontier.push((base + idx, wins.next().expect("a flag for every index"), pos));
            });
        }
    }

    /// Tells the parents of `batch` (positions decided at distance `plies`,
    /// flagged when they are wins) what they now know.
    fn propagate_batch(
        &self,
        batch: &[(u64, bool, G::Position)],
        layer: Layer<C>,
        scratch: &mut Scratch<G::Position, C>,
    ) {
        scratch.lost.clear();
        let mut decided = false;
        let positions = batch.iter().map(|&(_, is_win, pos)| (is_win, pos));
        // Every parent of the batch is found, then each one's line asked
        // for, then each told: told as found, each update waited for its
        // line. This pays even on a unit that fits the caches (see
        // `docs/notes/benchmarks.md`).
        scratch.parents.clear();
        let base = self.numbering.base();
        self.game.for_each_parent_of_each(self.unit, positions, |is_win, parent, pos| {
            scratch.parents.push((base + parent, pos, is_win));
        });
        self.cells.touch(scratch.parents.iter().map(|p| p.0));
        for &(parent, pos, child_wins) in &scratch.parents {
            match self.tell(parent, child_wins, layer) {
                Learned::Nothing => {}
                Learned::Decided => decided = true,
                Learned::Lost => {
                    decided = true;
                    scratch.lost.push((parent, pos));
                }
            }
        }
        if decided {
            scratch.max_plies = scratch.max_plies.max(layer.plies + 1);
        }
        let lost = std::mem::take(&mut scratch.lost);
        self.settle_losses(&lost, layer.plies, scratch);
        scratch.lost = lost;
    }

    /// Tells `parent` that one of its moves leads to a position decided
    /// at this layer, won for the side to move there if `child_wins`.
    pub(super) fn tell(&self, parent: u64, child_wins: bool, layer: Layer<C>) -> Learned {
        // Past the longest encodable distance, decisions are stored as draws
        // and the overflow is reported once this layer is done.
        let draw = C::truncate(0);
        let learned = if child_wins {
            match self.refute_move(parent, layer.next_loss.unwrap_or(draw)) {
                true => Learned::Lost,
                false => Learned::Nothing,
            }
        } else {
            match self.win_with(parent, layer.next_win.unwrap_or(draw)) {
                true => Learned::Decided,
                false => Learned::Nothing,
            }
        };
        if learned != Learned::Nothing {
            self.pending.mark(parent, layer.plies + 1);
        }
        learned
    }

    /// `parent` has a move to a win (for the opponent). Returns whether that
    /// was its last in-unit move: it is then a loss, stored as `loss` (one
    /// ply longer than the move) until [`settle_losses`](Self::settle_losses)
    /// has looked at its moves into earlier units.
    fn refute_move(&self, parent: u64, loss: C) -> bool {
        let codes = self.codes;
        let last = codes.counter(1);
        let replaced = self.update(parent, |code| match code {
            code if code == last => Some(loss),
            code if codes.is_counter(code) => Some(codes.count_down(code)),
            _ => None,
        });
        replaced == Some(last)
    }

    /// Gives each position of `lost`, whose last in-unit move was refuted at
    /// distance `plies`, its final distance: one more than its longest move,
    /// which may lead into an earlier unit. Runs before the layer ends, so
    /// no position is propagated with its provisional distance. The longest
    /// move into an earlier unit is read from `earlier_wins` where the
    /// solve keeps it, else found by expanding the position again.
    fn settle_losses(&self, lost: &[(u64, G::Position)], plies: u16, scratch: &mut Scratch<G::Position, C>) {
        if self.earlier_wins.is_some() {
            self.settle_losses_kept(lost.iter().map(|&(idx, _)| idx), plies, scratch);
            return;
        }
        scratch.positions.clear();
        scratch.children.clear();
        for (idx, pos) in lost {
            self.expand_into(*idx, pos, scratch);
        }
        self.earlier.touch(scratch.children.iter().copied());
        for i in 0..scratch.positions.len() {
            let (idx, _, ref children) = scratch.positions[i];
            let earlier = self.earlier_children(idx, &scratch.children[children.clone()]);
            debug_assert!(
                earlier.shortest_loss.is_none() && !earlier.any_draw,
                "a loss with a move that does not lose"
            );
            if let Some(longest) = earlier.longest_win {
                self.settle(idx, longest, plies, scratch);
            }
        }
    }

    /// [`settle_losses`](Self::settle_losses) for the positions numbered
    /// `lost`, from [`earlier_wins`](UnitSolve::earlier_wins), which this
    /// solve keeps.
    pub(super) fn settle_losses_kept(
        &self,
        lost: impl Iterator<Item = u64>,
        plies: u16,
        scratch: &mut Scratch<G::Position, C>,
    ) {
        let earlier_wins = self.earlier_wins.as_ref().expect("the solve keeps its earlier wins");
        for idx in lost {
            let stored: u64 = earlier_wins.load(idx).into();
            if let Some(longest) = (stored as u16).checked_sub(1) {
                self.settle(idx, longest, plies, scratch);
            }
        }
    }

    /// Makes the loss `idx`, refuted at distance `plies`, one ply longer
    /// than its longest move into an earlier unit, a win in `longest`, if
    /// that is longer.
    fn settle(&self, idx: u64, longest: u16, plies: u16, scratch: &mut Scratch<G::Position, C>) {
        if longest > plies {
            let code = self.decide_or_overflow(Value::Loss(Plies(longest + 1)), scratch);
            self.update(idx, |_| Some(code));
            self.pending.mark(idx, longest + 1);
        }
    }

    /// `parent` has a move to a loss (for the opponent), so wins with the
    /// code `win` unless it already wins as fast. Returns whether it changed.
    fn win_with(&self, parent: u64, win: C) -> bool {
        let codes = self.codes;
        let replaced = self.update(parent, |code| {
            let improves = codes.is_counter(code) || codes.wins_later(code, win);
            improves.then_some(win)
        });
        replaced.is_some()
    }
}
