//! The working encoding of a cell while its unit is solved: final values
//! and counters side by side, and the rules that read them.

use super::SolveError;
use crate::cells::Cell;
use crate::packed::WideValue;
use crate::value::Value;

/// The working encoding of a cell during a solve.
///
/// Final values use the [`WideValue`] codes (in a byte, the
/// [`PackedValue`](crate::PackedValue) codes); counters use the `counters` highest codes,
/// counter `c` being `C::MAX + 1 - c`, so counting down is adding one.
/// Values whose code would reach the counter codes do not fit.
#[derive(Copy, Clone, Debug)]
pub(super) struct Codes<C> {
    first_counter: u64,
    /// The longest distance that fits, and how many counters there are:
    /// kept rather than worked out, as seeding asks for them a position
    /// at a time.
    limit: u16,
    counters: u16,
    cell: std::marker::PhantomData<C>,
}

impl<C: Cell> Codes<C> {
    pub(super) fn new(max_in_unit_moves: u8) -> Codes<C> {
        // One extra count blocks positions with a drawn earlier child from
        // ever becoming losses.
        let counters = u64::from(max_in_unit_moves) + 1;
        // Counters stay in the top half of the codes, where a scan finds
        // them by their high bit.
        assert!(counters < 128, "too many moves per position for one-byte counters");
        let first_counter = C::MAX.into() + 1 - counters;
        // Win d is 2d + 1 and loss d is 2d + 2; both must stay below the counters.
        let limit = ((first_counter - 3) / 2) as u16;
        Codes { first_counter, limit, counters: counters as u16, cell: std::marker::PhantomData }
    }

    pub(super) fn counters(self) -> u16 {
        self.counters
    }

    pub(super) fn limit(self) -> u16 {
        self.limit
    }

    pub(super) fn first_counter(self) -> C {
        C::truncate(self.first_counter)
    }

    pub(super) fn is_counter(self, code: C) -> bool {
        code.into() >= self.first_counter
    }

    pub(super) fn counter(self, count: u8) -> C {
        debug_assert!(count >= 1 && u16::from(count) <= self.counters());
        C::truncate(C::MAX.into() + 1 - u64::from(count))
    }

    /// The counter `code` with one move fewer to refute; counter 1 (one
    /// move left) has none.
    #[inline(always)]
    pub(super) fn count_down(self, code: C) -> C {
        debug_assert!(self.is_counter(code) && code != self.counter(1));
        C::truncate(code.into() + 1)
    }

    /// As [`count_down`](Self::count_down) for a counter other than 1, and
    /// a final value unchanged, without a branch (for parents of both
    /// kinds that come in no order a predictor could learn).
    #[inline(always)]
    pub(super) fn count_down_any(self, code: C) -> C {
        C::truncate(code.into() + u64::from(self.is_counter(code)))
    }

    /// The error of a distance of `plies` that does not fit.
    pub(super) fn too_long(self, plies: u16) -> SolveError {
        SolveError::DistanceOverflow { plies, limit: self.limit(), counters: self.counters() }
    }

    pub(super) fn value(self, value: Value) -> Result<C, SolveError> {
        let plies = value.plies().unwrap_or_default().0;
        if plies > self.limit() {
            return Err(self.too_long(plies));
        }
        Ok(C::truncate(WideValue::pack(value).expect("limit is below the packing limit").to_code().into()))
    }

    /// The value a final code stands for.
    pub(super) fn unpack(self, code: C) -> Value {
        WideValue::from_code(code.into() as u16).unpack()
    }

    /// The cell that keeps what a position's moves into some earlier units
    /// say until the rest are read (see `passes`): zero for nothing, else
    /// one more than the code of one such child that says as much as all.
    pub(super) fn folded(self, earlier: &EarlierChildren) -> Result<C, SolveError> {
        let Some(code) = earlier.standing_for() else {
            return Ok(C::truncate(0));
        };
        match u64::from(code) < C::MAX.into() {
            true => Ok(C::truncate(u64::from(code) + 1)),
            // Only a win too long for the cells' own values lands here.
            false => Err(self.too_long(plies(code))),
        }
    }

    /// The child's code a [`folded`](Self::folded) cell keeps, if any.
    #[inline(always)]
    pub(super) fn unfold(self, cell: C) -> Option<u16> {
        (cell.into() as u16).checked_sub(1)
    }

    /// Whether `code` is a win that takes longer than the win `than`.
    #[inline(always)]
    pub(super) fn wins_later(self, code: C, than: C) -> bool {
        is_win(code.into() as u16) && code > than
    }
}

/// Whether a final code is a win: win `d` is `2d + 1`, loss `d` is
/// `2d + 2` and a draw is zero (see [`WideValue::pack`]), so that the codes
/// of wins and of losses each grow with their distance.
#[inline(always)]
fn is_win(code: u16) -> bool {
    code % 2 == 1
}

/// The distance of the win or loss `code`.
#[inline(always)]
fn plies(code: u16) -> u16 {
    (code - 1) / 2
}

/// What a position's children in earlier units say about it.
#[derive(Default)]
pub(super) struct EarlierChildren {
    pub shortest_loss: Option<u16>,
    pub longest_win: Option<u16>,
    pub any_draw: bool,
}

impl EarlierChildren {
    // Inline, as are `earlier_children` and `seed_code`: seeding calls the
    // three once a position, and out of line their calls, saved registers
    // and results passed through memory cost about 40 instructions a
    // position of Dodgem 5×5, of some 630 (counted by cachegrind).
    //
    // Folded on the codes themselves, not on unpacked values with an
    // optional distance each: the longest win is the largest win's code,
    // none if it stays zero, and the shortest loss the smallest loss's
    // code, none if it stays above every loss.
    #[inline(always)]
    pub(super) fn of(codes: impl IntoIterator<Item = u16>) -> EarlierChildren {
        let (mut longest_win, mut shortest_loss, mut any_draw) = (0, u16::MAX, false);
        for code in codes {
            if is_win(code) {
                longest_win = longest_win.max(code);
            } else if code != 0 {
                shortest_loss = shortest_loss.min(code);
            } else {
                any_draw = true;
            }
        }
        EarlierChildren {
            shortest_loss: (shortest_loss != u16::MAX).then(|| plies(shortest_loss)),
            longest_win: (longest_win != 0).then(|| plies(longest_win)),
            any_draw,
        }
    }

    /// The code of one child that says of its parent all that these do:
    /// the shortest loss, else a draw, else the longest win. Behind a draw
    /// the longest win is never read: the draw keeps the parent's counter
    /// from running out, so the parent never loses.
    fn standing_for(&self) -> Option<u16> {
        match (self.shortest_loss, self.any_draw, self.longest_win) {
            (Some(d), _, _) => Some(2 * d + 2),
            (None, true, _) => Some(0),
            (None, false, Some(d)) => Some(2 * d + 1),
            (None, false, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Plies;

    #[test]
    fn counters_sit_above_every_value_that_fits() {
        let codes = Codes::<u8>::new(12);
        assert_eq!(codes.counters(), 13);
        let largest = codes.value(Value::Loss(Plies(codes.limit()))).unwrap();
        assert!(!codes.is_counter(largest));
        assert!(codes.is_counter(codes.counter(13)));
        assert!(codes.value(Value::Win(Plies(codes.limit() + 1))).is_err());
        let wide = Codes::<u16>::new(12);
        assert_eq!(wide.counters(), 13);
        let largest = wide.value(Value::Loss(Plies(wide.limit()))).unwrap();
        assert!(!wide.is_counter(largest) && wide.is_counter(wide.counter(13)));
        assert!(wide.limit() > 32_000);
    }

    /// What one pass folds into a cell, folded with the children of the
    /// next, says what all the children say at once: the same seed.
    #[test]
    fn children_folded_in_groups_say_what_they_say_together() {
        let codes = Codes::<u8>::new(12);
        let children: Vec<u16> = vec![0, 1, 2, 9, 14, 33, 120, 254];
        // What a seed reads: a loss alone, else the draw, else the longest win.
        let seen = |e: &EarlierChildren| match e.shortest_loss {
            Some(d) => (Some(d), None, false),
            None => (None, e.longest_win.filter(|_| !e.any_draw), e.any_draw),
        };
        for mask in 0u32..1 << 12 {
            let picked: Vec<u16> = (0..4).map(|i| children[(mask >> (3 * i) & 7) as usize]).collect();
            let together = EarlierChildren::of(picked.iter().copied());
            for cut in 0..=picked.len() {
                let first = codes.folded(&EarlierChildren::of(picked[..cut].iter().copied())).unwrap();
                let rest = EarlierChildren::of(picked[cut..].iter().copied().chain(codes.unfold(first)));
                assert_eq!(seen(&rest), seen(&together), "{picked:?} cut at {cut}");
            }
        }
        let longest = Codes::<u8>::new(12).folded(&EarlierChildren::of([255]));
        assert!(matches!(longest, Err(SolveError::DistanceOverflow { plies: 127, .. })));
    }
}
