//! The dense index of Tic-Tac-Chec positions.
//!
//! # Post-opening positions
//!
//! The domain is every arrangement of the eight pieces with White to move
//! (a Black-to-move position is indexed through [`Position::flipped`]). An
//! arrangement is split into *blocks* by which pawns are on the board and
//! which of the six other pieces are; within a block,
//! `index = pawn_rank × P(free, a) + placement_rank`:
//!
//! - the pawns: each on-board pawn has 24 square-and-direction states (a
//!   pawn on rank 1 faces up, on rank 4 down, on ranks 2–3 either way); both
//!   together have 536 states on distinct squares;
//! - the `a` other pieces on the board, in slot order, as an ordered choice
//!   of squares among the `free` squares the pawns leave: each piece's
//!   square is a digit (its rank among the squares still free), read as a
//!   mixed-radix number, most significant first.
//!
//! # Opening positions
//!
//! After them come the opening positions, ply by ply (0 to 5). A ply fixes
//! how many pieces each side has placed and who moves; a position is which
//! pieces are on the board (a subset of each side's four) and their squares
//! (an ordered choice among all 16), and its pawn directions follow from the
//! squares.

use std::ops::Range;

use solved_engine::{Subsets, binomial, divide_by_radix};

use super::{Color, Direction, HAND, Position, squares, turned};

/// The number of post-opening positions (White to move).
pub const POST_OPENING_POSITIONS: u64 = 2_462_360_745;

/// The number of opening positions (plies 0 to 5).
pub const OPENING_POSITIONS: u64 = 14_236_865;

/// The slots of the six pieces other than pawns, in ranking order.
const OTHERS: [usize; 6] = [1, 2, 3, 5, 6, 7];

/// `P(n, k) = n! / (n − k)!`.
fn arrangements(n: u32, k: u32) -> u64 {
    (0..k).map(|i| u64::from(n - i)).product()
}

/// The square-and-direction states of an on-board pawn, in rank order.
fn pawn_states() -> Vec<(u8, Direction)> {
    (0..16u8)
        .flat_map(|square| {
            [Direction::Up, Direction::Down]
                .into_iter()
                .filter(move |&d| turned(square, d) == d)
                .map(move |d| (square, d))
        })
        .collect()
}

/// Ranks and unranks the positions of both phases.
#[derive(Clone, Debug)]
pub struct TicTacChecIndex {
    states: Vec<(u8, Direction)>,
    /// The state number of a square and direction: `[square][up as 0, down as 1]`.
    state_of: [[u8; 2]; 16],
    /// The rank of an ordered pair of pawn states on distinct squares.
    pair_rank: Vec<u16>,
    pairs: Vec<(u8, u8)>,
    /// Every block, in order: at `[pawns on board as 2 bits][others on
    /// board as 6 bits]`, which is also the order of their starts.
    blocks: Vec<Block>,
    opening_start: [u64; 7],
    /// The `k`-subsets of a side's four roles, at `[k]`: which of them are
    /// on the board in the opening.
    role_subsets: [Subsets; 5],
}

impl TicTacChecIndex {
    /// Builds the tables.
    pub fn new() -> TicTacChecIndex {
        let states = pawn_states();
        let mut state_of = [[u8::MAX; 2]; 16];
        for (i, &(square, direction)) in states.iter().enumerate() {
            state_of[usize::from(square)][direction as usize] = i as u8;
        }
        let mut pair_rank = vec![u16::MAX; 24 * 24];
        let mut pairs = Vec::new();
        for (w, white) in states.iter().enumerate() {
            for (b, black) in states.iter().enumerate() {
                if white.0 != black.0 {
                    pair_rank[w * 24 + b] = pairs.len() as u16;
                    pairs.push((w as u8, b as u8));
                }
            }
        }
        let mut blocks = Vec::new();
        let mut start = 0;
        for pawns in 0..4u8 {
            let (on_board, combos) = match pawns {
                0 => (0, 1),
                1 | 2 => (1, 24),
                _ => (2, pairs.len() as u64),
            };
            for others in 0..64u8 {
                let per_pawn_state = arrangements(16 - on_board, others.count_ones());
                blocks.push(Block { start, per_pawn_state, others });
                start += combos * per_pawn_state;
            }
        }
        assert_eq!(start, POST_OPENING_POSITIONS, "the block sizes add up to the published count");
        let mut opening_start = [start; 7];
        for ply in 0..6u32 {
            let (white, black) = (ply.div_ceil(2), ply / 2);
            let size = binomial(4, white) * binomial(4, black) * arrangements(16, ply);
            opening_start[ply as usize + 1] = opening_start[ply as usize] + size;
        }
        assert_eq!(opening_start[6] - start, OPENING_POSITIONS, "the opening plies add up to the published count");
        let role_subsets = std::array::from_fn(|k| Subsets::new(4, k as u32));
        TicTacChecIndex { states, state_of, pair_rank, pairs, blocks, opening_start, role_subsets }
    }

    /// Every index: post-opening positions, then the opening.
    pub fn count(&self) -> u64 {
        self.opening_start[6]
    }

    /// The indices of the post-opening positions.
    pub fn post_opening(&self) -> Range<u64> {
        0..POST_OPENING_POSITIONS
    }

    /// The indices of the opening positions after `ply` plies (0 to 5).
    pub fn opening_ply(&self, ply: usize) -> Range<u64> {
        self.opening_start[ply]..self.opening_start[ply + 1]
    }

    /// The index of `pos` (a Black-to-move post-opening position is indexed
    /// as its flipped, White-to-move, twin).
    pub fn index(&self, pos: &Position) -> u64 {
        if pos.opening {
            return self.index_opening(pos);
        }
        let pos = if pos.turn == Color::Black { pos.flipped() } else { *pos };
        self.index_post(&pos.squares, pos.directions)
    }

    /// The index of the post-opening arrangement `squares` with White to
    /// move and pawn `directions`.
    ///
    /// Kept out of line: when the compiler inlined it into [`index`](Self::index)
    /// and into the parents' loop (after changes elsewhere in the engine), the
    /// opening's seeding took 4.75 s rather than 4.0 s and nothing got faster.
    #[inline(never)]
    pub fn index_post(&self, squares: &[u8; 8], directions: [Direction; 2]) -> u64 {
        let (white_pawn, black_pawn) = (squares[0], squares[4]);
        let pawns = u8::from(white_pawn != HAND) | u8::from(black_pawn != HAND) << 1;
        let state = |square: u8, direction: Direction| self.state_of[usize::from(square)][direction as usize];
        let (pawn_rank, mut free) = match pawns {
            0 => (0, 0xffffu16),
            1 => (u64::from(state(white_pawn, directions[0])), !(1u16 << white_pawn)),
            2 => (u64::from(state(black_pawn, directions[1])), !(1u16 << black_pawn)),
            _ => {
                let w = usize::from(state(white_pawn, directions[0]));
                let b = usize::from(state(black_pawn, directions[1]));
                (u64::from(self.pair_rank[w * 24 + b]), !(1u16 << white_pawn) & !(1u16 << black_pawn))
            }
        };
        // Without a branch on whether a piece is on the board: parents
        // come in every arrangement, and mispredicting cost more than
        // computing a digit to drop. A piece in hand (square 16) has every
        // square below it and clears none.
        const _: () = assert!(HAND == 16);
        let mut others = 0u8;
        let mut placement = 0u64;
        let mut left = u64::from(free.count_ones());
        for (bit, &slot) in OTHERS.iter().enumerate() {
            let square = squares[slot];
            let on_board = square != HAND;
            others |= u8::from(on_board) << bit;
            let digit = u64::from((u32::from(free) & ((1u32 << square) - 1)).count_ones());
            let placed = (placement * left + digit, left - 1);
            (placement, left) = if on_board { placed } else { (placement, left) };
            free &= !(1u32 << square) as u16;
        }
        let block = &self.blocks[usize::from(pawns) * 64 + usize::from(others)];
        block.start + pawn_rank * block.per_pawn_state + placement
    }

    /// The post-opening position (White to move) with index `idx`.
    pub fn unindex_post(&self, idx: u64) -> Position {
        let state = self.pawn_state(idx);
        self.place_others(&state, idx - state.start)
    }

    /// Calls `f` with each of `indices`, which ascend, and its post-opening
    /// position: indices with the same pawns share the work of placing
    /// them.
    pub fn unindex_ascending_post(&self, indices: impl Iterator<Item = u64>, mut f: impl FnMut(u64, Position)) {
        let mut state = None;
        for idx in indices {
            let current = match state {
                Some(current @ PawnState { start, len, .. }) if (start..start + len).contains(&idx) => current,
                _ => *state.insert(self.pawn_state(idx)),
            };
            f(idx, self.place_others(&current, idx - current.start));
        }
    }

    /// The state of the pawns of the post-opening position `idx`, and the
    /// positions that share it.
    fn pawn_state(&self, idx: u64) -> PawnState {
        let number = self.blocks.partition_point(|b| b.start <= idx) - 1;
        let Block { start, per_pawn_state, others } = self.blocks[number];
        let pawn_rank = (idx - start) / per_pawn_state;
        // Built in registers (see `Position::with_square`).
        let pos = Position { opening: false, ..Position::empty() };
        let mut free = 0xffffu16;
        let mut put_pawn = |pos: Position, color: Color, state: usize| {
            let (square, direction) = self.states[state];
            free &= !(1 << square);
            pos.with_square(color as usize * 4, square).with_direction(color, direction)
        };
        let pos = match number / 64 {
            1 => put_pawn(pos, Color::White, pawn_rank as usize),
            2 => put_pawn(pos, Color::Black, pawn_rank as usize),
            3 => {
                let (w, b) = self.pairs[pawn_rank as usize];
                let pos = put_pawn(pos, Color::White, usize::from(w));
                put_pawn(pos, Color::Black, usize::from(b))
            }
            _ => pos,
        };
        let (slots, count) = slots_of(others);
        PawnState { start: start + pawn_rank * per_pawn_state, len: per_pawn_state, pos, free, slots, count }
    }

    /// The position of `state` whose other pieces have the number
    /// `placement` among its placements.
    fn place_others(&self, state: &PawnState, placement: u64) -> Position {
        let slots = &state.slots[..state.count];
        let (mut pos, mut free) = (state.pos, state.free);
        // Digits, least significant first, then squares, most significant first.
        let mut digits = [0u32; 6];
        let n = free.count_ones();
        // At most P(16, 6) < 2^23 placements, radices at most 16.
        let mut placement = placement as u32;
        for i in (0..slots.len()).rev() {
            let radix = n - i as u32;
            let quotient = divide_by_radix(placement, radix);
            digits[i] = placement - quotient * radix;
            placement = quotient;
        }
        for (i, &slot) in slots.iter().enumerate() {
            let square = nth_bit(free, digits[i]);
            pos = pos.with_square(slot, square);
            free &= !(1 << square);
        }
        pos
    }

    fn index_opening(&self, pos: &Position) -> u64 {
        let (white, black) = (pos.on_board(Color::White), pos.on_board(Color::Black));
        let ply = (white + black) as usize;
        let subset = |first: usize| (0..4).filter(|&r| pos.squares[first + r] != HAND).fold(0u64, |m, r| m | 1 << r);
        let rank = |mask: u64| self.role_subsets[mask.count_ones() as usize].rank(mask);
        let (white_rank, black_rank) = (rank(subset(0)), rank(subset(4)));
        let mut free = 0xffffu16;
        let mut placement = 0u64;
        let mut left = 16u64;
        for slot in 0..8 {
            let square = pos.squares[slot];
            if square != HAND {
                placement = placement * left + u64::from((free & ((1u16 << square) - 1)).count_ones());
                left -= 1;
                free &= !(1 << square);
            }
        }
        let per_subset = arrangements(16, ply as u32);
        let subsets = (white_rank * binomial(4, black) + black_rank) as u64;
        self.opening_start[ply] + subsets * per_subset + placement
    }

    /// The opening position with index `idx`.
    pub fn unindex_opening(&self, idx: u64) -> Position {
        let ply = self.opening_start.partition_point(|&s| s <= idx) - 1;
        let (white, black) = (ply.div_ceil(2) as u32, (ply / 2) as u32);
        let per_subset = arrangements(16, ply as u32);
        let local = idx - self.opening_start[ply];
        let (subsets, mut placement) = (local / per_subset, local % per_subset);
        let (white_rank, black_rank) = (subsets / binomial(4, black), subsets % binomial(4, black));
        let mut slots = [0usize; 8];
        let mut count = 0;
        let unrank = |rank: u64, size: u32| self.role_subsets[size as usize].unrank(rank);
        for (first, mask) in [(0, unrank(white_rank, white)), (4, unrank(black_rank, black))] {
            for role in (0..4).filter(|r| mask >> r & 1 == 1) {
                slots[count] = first + role;
                count += 1;
            }
        }
        let slots = &slots[..count];
        let mut digits = [0u32; 8];
        for i in (0..slots.len()).rev() {
            let radix = 16 - i as u64;
            digits[i] = (placement % radix) as u32;
            placement /= radix;
        }
        let mut pos = Position::empty();
        let mut free = 0xffffu16;
        for (i, &slot) in slots.iter().enumerate() {
            let square = nth_bit(free, digits[i]);
            pos.squares[slot] = square;
            free &= !(1 << square);
        }
        for color in [Color::White, Color::Black] {
            let square = pos.squares[color as usize * 4];
            if square != HAND {
                pos.directions[color as usize] = turned(square, color.home_direction());
            }
        }
        pos.turn = if ply % 2 == 0 { Color::White } else { Color::Black };
        pos
    }

    /// The position with index `idx < count()`.
    pub fn unindex(&self, idx: u64) -> Position {
        if idx < POST_OPENING_POSITIONS { self.unindex_post(idx) } else { self.unindex_opening(idx) }
    }

    /// Where each block of post-opening positions starts.
    #[cfg(test)]
    pub(super) fn block_starts(&self) -> impl Iterator<Item = u64> + '_ {
        self.blocks.iter().map(|block| block.start)
    }

    /// Calls `f` with every post-opening position whose index is in
    /// `range`, in order, stepping from one to the next.
    pub fn for_each_post(&self, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        self.for_each_run(range, |run| run.for_each(&mut f));
    }

    /// Calls `f` with the post-opening positions whose index is in `range`,
    /// in order, as [`Run`]s: the last piece of a placement turns fastest,
    /// so neighbouring positions mostly differ only in where it stands.
    pub fn for_each_run(&self, range: Range<u64>, mut f: impl FnMut(Run)) {
        let mut idx = range.start;
        while idx < range.end {
            let state = self.pawn_state(idx);
            let end = (state.start + state.len).min(range.end);
            let mut pos = self.place_others(&state, idx - state.start);
            let Some((&moving, placed)) = state.slots[..state.count].split_last() else {
                // Only pawns: the pawn state is one position.
                f(Run { first: idx, pos, moving: None, squares: 0 });
                idx += 1;
                continue;
            };
            let mut placement = Placement::of(&pos, state.free, placed);
            // The lowest square the moving piece takes in this run.
            let mut from = pos.squares[moving];
            loop {
                let free = placed.iter().fold(state.free, |free, &slot| free & !(1 << pos.squares[slot]));
                let mut squares = free & !((1u16 << from) - 1);
                let left = end - idx;
                if u64::from(squares.count_ones()) > left {
                    squares &= (1u16 << nth_bit(squares, left as u32)) - 1;
                }
                pos.squares[moving] = squares.trailing_zeros() as u8;
                f(Run { first: idx, pos, moving: Some(moving), squares });
                idx += u64::from(squares.count_ones());
                if idx == end {
                    break;
                }
                // The pawn state's placements end with it, at `end` at the latest.
                let stepped = placement.step(&mut pos, placed);
                debug_assert!(stepped, "placements left at {idx}");
                // The moving piece starts again on the lowest square left.
                from = 0;
            }
        }
    }
}

/// Post-opening positions next to each other in the index that differ only
/// in the square of one piece (see [`TicTacChecIndex::for_each_run`]).
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// The index of the first.
    pub first: u64,
    /// The first position.
    pub pos: Position,
    /// The slot of the piece whose square changes along the run; `None`
    /// when only pawns are on the board, and the run is `pos` alone.
    pub moving: Option<usize>,
    /// The squares the moving piece takes, one position each, in
    /// increasing order: the first is its square in `pos`.
    pub squares: u16,
}

impl Run {
    /// Calls `f` with each position of the run and its index, in order.
    pub fn for_each(&self, mut f: impl FnMut(u64, Position)) {
        let Some(slot) = self.moving else {
            return f(self.first, self.pos);
        };
        let mut pos = self.pos;
        for (idx, square) in (self.first..).zip(squares(self.squares)) {
            pos.squares[slot] = square;
            f(idx, pos);
        }
    }
}

/// The positions with the same pieces on the board.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    /// Its positions for each state of the pawns on the board: the
    /// placements of the others.
    per_pawn_state: u64,
    /// Which of [`OTHERS`] are on the board, as bits.
    others: u8,
}

/// The post-opening positions with the same pawns in the same states: a
/// stretch of a block, one position per placement of the other pieces.
#[derive(Clone, Copy, Debug)]
struct PawnState {
    /// The first index.
    start: u64,
    len: u64,
    /// The pawns on the board, every other piece in hand.
    pos: Position,
    /// The squares the pawns leave free.
    free: u16,
    /// The slots of the other pieces on the board, in ranking order.
    slots: [usize; 6],
    count: usize,
}

/// Where the other pieces of a position can still go, for stepping through
/// placements in rank order like an odometer: the last piece's digit turns
/// fastest, so most steps move one piece to the next free square.
struct Placement {
    /// The squares the pawns leave free.
    pawn_free: u16,
    /// For each piece, in slot order, the squares above its own that are
    /// free of the pawns and of the pieces before it: where it goes next.
    above: [u16; 6],
}

impl Placement {
    /// Where the pieces in `slots` of `pos` can go, given the squares the
    /// pawns leave free.
    fn of(pos: &Position, pawn_free: u16, slots: &[usize]) -> Placement {
        let mut above = [0; 6];
        let mut free = pawn_free;
        for (i, &slot) in slots.iter().enumerate() {
            let square = pos.squares[slot];
            above[i] = free & !((2u32 << square) - 1) as u16;
            free &= !(1 << square);
        }
        Placement { pawn_free, above }
    }

    /// Moves the other pieces of `pos` to the next placement in rank order,
    /// or returns `false` if it was the last for its pawns.
    #[inline]
    fn step(&mut self, pos: &mut Position, slots: &[usize]) -> bool {
        let Some(turning) = (0..slots.len()).rev().find(|&i| self.above[i] != 0) else {
            return false;
        };
        let square = self.above[turning].trailing_zeros() as u8;
        self.above[turning] &= self.above[turning] - 1;
        pos.squares[slots[turning]] = square;
        if turning + 1 < slots.len() {
            // The pieces after it start again on the lowest squares left.
            let mut free = self.pawn_free;
            for &slot in &slots[..=turning] {
                free &= !(1 << pos.squares[slot]);
            }
            for (i, &slot) in slots.iter().enumerate().skip(turning + 1) {
                pos.squares[slot] = free.trailing_zeros() as u8;
                free &= free - 1;
                self.above[i] = free;
            }
        }
        true
    }
}

impl Default for TicTacChecIndex {
    fn default() -> Self {
        TicTacChecIndex::new()
    }
}

/// `NTH_IN_BYTE[byte][n]`: where the `n`-th set bit of `byte` is, from 0
/// (0 if it has fewer).
const NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The square of the `n`-th set bit of `mask`, from 0: by bytes, from a
/// table, as a loop over the bits mispredicted its end at every call.
fn nth_bit(mask: u16, n: u32) -> u8 {
    let low = mask as u8;
    let in_low = low.count_ones();
    let (byte, n, offset) = if n < in_low { (low, n, 0) } else { ((mask >> 8) as u8, n - in_low, 8) };
    NTH_IN_BYTE[usize::from(byte)][n as usize & 7] + offset
}

/// The slots of the other pieces on the board, given which are, in order.
fn slots_of(others: u8) -> ([usize; 6], usize) {
    let mut slots = [0; 6];
    let mut count = 0;
    for (bit, &slot) in OTHERS.iter().enumerate() {
        if others >> bit & 1 == 1 {
            slots[count] = slot;
            count += 1;
        }
    }
    (slots, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nth_bit_is_found_in_every_mask() {
        for mask in 0..=u16::MAX {
            for (n, bit) in squares(mask).enumerate() {
                assert_eq!(nth_bit(mask, n as u32), bit, "bit {n} of {mask:#x}");
            }
        }
    }
}
