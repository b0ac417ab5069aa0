//! The outcome of a position with capturable boxes, from quiet positions
//! only, by an exact search over captures.
//!
//! A box with three sides drawn can be *captured* by drawing its fourth.
//! Two facts cut the search:
//!
//! 1. A *free* capture, one whose line borders the edge or a box with 0, 1
//!    or 3 sides drawn, opens nothing: taking it is always at least as good
//!    as any other move, so it is the only move searched.
//! 2. Otherwise every capturable box's missing side borders a box with two
//!    sides drawn, and some best move either captures a box or declines
//!    one (draws the other undrawn side of the two-sided box, which leaves
//!    both boxes to the opponent: the double-dealing move).
//!
//! Which capturable box to take or decline matters (taking one chain may
//! be better than declining another), so every one is tried; the
//! positions this reaches by taking the same boxes in another order are
//! remembered in a small [`Memo`]. Both facts are checked, margins and who
//! must make the next loony move, against a search of every move on every
//! position of the boards the full sweep solves (the tests here and
//! `verify dots-and-boxes`). A position with no capturable box is quiet,
//! and its outcome is looked up.

use super::layout::Layout;
use super::outcome::Outcome;

impl Layout {
    /// The sides of box `b` drawn in `mask`.
    #[inline]
    fn drawn_sides(&self, mask: u64, b: u8) -> u32 {
        (mask & self.sides()[b as usize]).count_ones()
    }

    /// The boxes with three sides drawn, as a mask of box ids.
    pub fn capturable(&self, mask: u64) -> u64 {
        self.sides().iter().enumerate().filter(|&(_, &s)| (mask & s).count_ones() == 3).fold(0, |m, (b, _)| m | 1 << b)
    }

    /// The box `line` borders other than `b`.
    #[inline]
    fn across(&self, line: u32, b: u8) -> Option<u8> {
        match self.boxes_of(line) {
            [Some(first), second] if first != b => Some(first).or(second),
            [_, second] => second,
        }
    }

    /// The undrawn side of a box with three sides drawn.
    #[inline]
    fn missing_side(&self, mask: u64, b: u8) -> u32 {
        (self.sides()[b as usize] & !mask).trailing_zeros()
    }

    /// Whether the player to move at `mask`, whose capturable boxes are
    /// `capturable`, may decline a capture: some capturable box's missing
    /// side borders a box with two sides, whose other undrawn side takes no
    /// box. A move that takes no box and leaves this is a loony move.
    pub fn offers_decline(&self, mask: u64, capturable: u64) -> bool {
        let mut boxes = capturable;
        while boxes != 0 {
            let b = boxes.trailing_zeros() as u8;
            boxes &= boxes - 1;
            let line = self.missing_side(mask, b);
            let Some(next) = self.across(line, b) else { continue };
            if self.drawn_sides(mask, next) != 2 {
                continue;
            }
            let far = (self.sides()[next as usize] & !mask & !(1 << line)).trailing_zeros();
            if self.across(far, next).is_none_or(|beyond| capturable >> beyond & 1 == 0) {
                return true;
            }
        }
        false
    }

    /// The boxes `line` completes in `mask`, and the capturable boxes after
    /// it is drawn, given those before.
    #[inline]
    fn draw(&self, mask: u64, capturable: u64, line: u32) -> (u32, u64) {
        let mut taken = 0;
        let mut after = capturable;
        for b in self.boxes_of(line).into_iter().flatten() {
            match self.drawn_sides(mask, b) {
                3 => {
                    taken += 1;
                    after &= !(1 << b);
                }
                2 => after |= 1 << b,
                _ => {}
            }
        }
        (taken, after)
    }

    /// The undrawn lines of the quiet position `mask` whose drawing leaves
    /// it quiet: those that give no box its third side.
    pub fn quiet_moves(&self, mask: u64) -> u64 {
        let mut undrawn = self.full() & !mask;
        let mut quiet = 0;
        while undrawn != 0 {
            let line = undrawn.trailing_zeros();
            undrawn &= undrawn - 1;
            if self.boxes_of(line).into_iter().flatten().all(|b| self.drawn_sides(mask, b) != 2) {
                quiet |= 1 << line;
            }
        }
        quiet
    }

    /// The outcome of drawing `line` at `mask` (capturable boxes
    /// `capturable`), for the player who draws it.
    #[inline]
    pub fn move_outcome(
        &self,
        mask: u64,
        capturable: u64,
        line: u32,
        quiet: &impl Fn(u64) -> Outcome,
        memo: &mut Memo,
    ) -> Outcome {
        let (taken, after) = self.draw(mask, capturable, line);
        let child = mask | 1 << line;
        let loony = taken == 0 && after != 0 && self.offers_decline(child, after);
        Outcome::of_move(taken, loony, self.search(child, after, quiet, memo))
    }

    /// The outcome of `mask` for the player to move, given the outcomes of
    /// quiet positions.
    pub fn outcome(&self, mask: u64, quiet: &impl Fn(u64) -> Outcome, memo: &mut Memo) -> Outcome {
        self.search(mask, self.capturable(mask), quiet, memo)
    }

    /// The outcome of `mask`, whose capturable boxes are `capturable`.
    fn search(&self, mask: u64, capturable: u64, quiet: &impl Fn(u64) -> Outcome, memo: &mut Memo) -> Outcome {
        if capturable == 0 {
            return quiet(mask);
        }
        let mut boxes = capturable;
        while boxes != 0 {
            let b = boxes.trailing_zeros() as u8;
            boxes &= boxes - 1;
            let line = self.missing_side(mask, b);
            if self.across(line, b).is_none_or(|next| self.drawn_sides(mask, next) != 2) {
                return self.move_outcome(mask, capturable, line, quiet, memo);
            }
        }
        if let Some(outcome) = memo.get(mask) {
            return outcome;
        }
        let mut best = Outcome::WORST;
        let mut boxes = capturable;
        while boxes != 0 {
            let b = boxes.trailing_zeros() as u8;
            boxes &= boxes - 1;
            let line = self.missing_side(mask, b);
            let next = self.across(line, b).expect("a capture that is not free borders a box");
            let decline = (self.sides()[next as usize] & !mask & !(1 << line)).trailing_zeros();
            best = best.max(self.move_outcome(mask, capturable, line, quiet, memo));
            best = best.max(self.move_outcome(mask, capturable, decline, quiet, memo));
        }
        memo.put(mask, best);
        best
    }
}

/// Outcomes of positions with capturable boxes found by earlier searches:
/// a small cache, each position in one slot, the newest kept.
///
/// A position's outcome does not depend on how it was reached, so one memo
/// serves every search of a thread.
#[derive(Clone, Debug)]
pub struct Memo {
    masks: Vec<u64>,
    outcomes: Vec<Outcome>,
}

/// Slots in a memo, a power of two.
const MEMO_SLOTS: usize = 1 << 12;

impl Default for Memo {
    fn default() -> Memo {
        // No position has every line drawn and a capturable box, so the
        // full mask marks an empty slot.
        Memo { masks: vec![u64::MAX; MEMO_SLOTS], outcomes: vec![Outcome::WORST; MEMO_SLOTS] }
    }
}

impl Memo {
    #[inline]
    fn slot(mask: u64) -> usize {
        (mask.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
    }

    #[inline]
    fn get(&self, mask: u64) -> Option<Outcome> {
        let slot = Memo::slot(mask);
        (self.masks[slot] == mask).then(|| self.outcomes[slot])
    }

    #[inline]
    fn put(&mut self, mask: u64, outcome: Outcome) {
        let slot = Memo::slot(mask);
        self.masks[slot] = mask;
        self.outcomes[slot] = outcome;
    }
}
