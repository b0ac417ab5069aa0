//! What a position is worth to the player to move: the margin of boxes
//! still to come, and who must make the next loony move.
//!
//! A *loony* move is one that lets the opponent keep control by declining
//! the last two boxes of a chain (four of a loop): a move that takes no box
//! and leaves a capturable box whose missing side borders a box with two
//! sides drawn, whose other undrawn side does not take a box (see
//! [`super::capture`]). Who must make the next one is a tie-break within
//! the best margin: among the moves that keep it, the player to move
//! prefers those after which the opponent must make the next loony move,
//! then those after which nobody makes one, and last those that make
//! himself make it. That is how David Wilson's loony marks read (`^`: B
//! must, `v`: A must, no mark: neither is forced to), and it is computed
//! as he describes his own program: the full board has nobody to make one,
//! a loony move makes its player the one, a move that takes a box keeps
//! what follows it, and any other move hands it over.
//!
//! Both are one byte, `4 * margin + who`, with `who` 0 when the player to
//! move must make it, 1 when nobody does and 2 when the opponent must; so
//! the player to move's preference is the order of the bytes, and every
//! move's outcome is one addition.

use std::fmt;

/// Who must make the next loony move, seen from the player to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum NextLoony {
    /// The player to move.
    Mover,
    /// Nobody: the game can end without one.
    Nobody,
    /// The opponent.
    Opponent,
}

/// A position's margin for the player to move and who must make the next
/// loony move, ordered as the player to move prefers them.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Outcome(i8);

/// The largest margin an outcome holds.
pub const MAX_MARGIN: i8 = 31;

impl Outcome {
    /// The full board: nothing to gain, and nobody to make a loony move.
    pub const END: Outcome = Outcome(1);

    /// The least outcome: below every outcome of a move.
    pub const WORST: Outcome = Outcome(i8::MIN);

    /// The outcome `margin` with `next`.
    ///
    /// # Panics
    ///
    /// Panics if `margin` is beyond [`MAX_MARGIN`].
    pub fn new(margin: i8, next: NextLoony) -> Outcome {
        assert!(margin.abs() <= MAX_MARGIN, "margin out of range");
        Outcome(4 * margin + next as i8)
    }

    /// The outcome stored as `byte`.
    #[inline]
    pub fn from_byte(byte: u8) -> Outcome {
        Outcome(byte as i8)
    }

    /// The outcome stored as `byte` in a file, if it is one of a board of
    /// `boxes` boxes: who is one of the three, and the margin at most the
    /// boxes (so that no move's outcome overflows).
    pub fn from_stored(byte: u8, boxes: usize) -> Option<Outcome> {
        let outcome = Outcome::from_byte(byte);
        (byte & 3 != 3 && usize::from(outcome.margin().unsigned_abs()) <= boxes).then_some(outcome)
    }

    /// The outcome as a byte.
    #[inline]
    pub fn to_byte(self) -> u8 {
        self.0 as u8
    }

    /// The margin of boxes still to come for the player to move.
    #[inline]
    pub fn margin(self) -> i8 {
        self.0 >> 2
    }

    /// Who must make the next loony move.
    pub fn next_loony(self) -> NextLoony {
        match self.0 & 3 {
            0 => NextLoony::Mover,
            1 => NextLoony::Nobody,
            _ => NextLoony::Opponent,
        }
    }

    /// The outcome, for its player, of a move that takes `boxes` boxes (0,
    /// 1 or 2), is `loony` or not, and leads to a position worth `child` to
    /// whoever moves there.
    #[inline]
    pub fn of_move(boxes: u32, loony: bool, child: Outcome) -> Outcome {
        if boxes > 0 {
            // The same player moves on, and keeps what follows.
            Outcome(child.0 + 4 * boxes as i8)
        } else if loony {
            Outcome(-(child.0 & !3))
        } else {
            Outcome(2 - child.0)
        }
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Outcome({}, {:?})", self.margin(), self.next_loony())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_outcomes_a_board_can_have_are_read_from_a_file() {
        for byte in 0..=u8::MAX {
            let outcome = Outcome::from_byte(byte);
            let fits = byte & 3 != 3 && outcome.margin().abs() <= 9;
            assert_eq!(Outcome::from_stored(byte, 9), fits.then_some(outcome), "{byte:#04x}");
            // What is read can go through any move without overflowing.
            if fits {
                Outcome::of_move(2, false, outcome);
                Outcome::of_move(0, true, outcome);
                Outcome::of_move(0, false, outcome);
            }
        }
    }

    #[test]
    fn moves_hand_over_keep_or_take_the_next_loony_move() {
        let child = Outcome::new(3, NextLoony::Mover);
        assert_eq!(Outcome::of_move(0, false, child), Outcome::new(-3, NextLoony::Opponent));
        assert_eq!(Outcome::of_move(0, true, child), Outcome::new(-3, NextLoony::Mover));
        assert_eq!(Outcome::of_move(2, false, child), Outcome::new(5, NextLoony::Mover));
        assert_eq!(Outcome::of_move(0, false, Outcome::END), Outcome::new(0, NextLoony::Nobody));
        for margin in -MAX_MARGIN..=MAX_MARGIN {
            for next in [NextLoony::Mover, NextLoony::Nobody, NextLoony::Opponent] {
                let outcome = Outcome::new(margin, next);
                assert_eq!((outcome.margin(), outcome.next_loony()), (margin, next));
                assert_eq!(Outcome::from_byte(outcome.to_byte()), outcome);
                assert_eq!(Outcome::of_move(0, true, outcome).next_loony(), NextLoony::Mover);
            }
        }
    }

    #[test]
    fn the_order_is_the_margin_then_who_must() {
        let worse = Outcome::new(1, NextLoony::Opponent);
        assert!(worse < Outcome::new(2, NextLoony::Mover));
        assert!(Outcome::new(-1, NextLoony::Mover) < Outcome::new(-1, NextLoony::Nobody));
        assert!(Outcome::WORST < Outcome::new(-MAX_MARGIN, NextLoony::Mover));
    }
}
