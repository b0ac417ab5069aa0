//! The board's symmetries as permutations of its free lines, so that a
//! position and its mirror images share one entry of the transposition
//! table.

use solved_engine::BitPermutation;

use super::super::{Board, Line};

/// Where a text cell `(row, col)` goes on a grid whose last row and
/// column are `(height, width)`.
type Transform = fn(u8, u8, u8, u8) -> (u8, u8);

/// The symmetries of one board, each a permutation of the free lines'
/// bits. (The quiet table's layout has its own, over every line of the
/// board turned on its side.)
#[derive(Debug)]
pub(super) struct Symmetries {
    permutations: Vec<BitPermutation>,
    /// Each permutation's inverse.
    inverses: Vec<BitPermutation>,
    /// For each box with two or more sides that are sides of no other box
    /// (a corner's two outer lines, say), those sides: which of them are
    /// drawn does not matter, only how many (Barker and Korf's corner
    /// symmetry).
    private: Vec<u64>,
}

impl Symmetries {
    /// The dihedral symmetries of the grid that map the free lines onto
    /// themselves: four on an oblong board, eight on a square one, fewer
    /// where the variant draws lines on some sides only (Icelandic).
    pub(super) fn of(board: &Board) -> Symmetries {
        let (height, width) = (2 * board.rows(), 2 * board.cols());
        let transforms: [Transform; 8] = [
            |r, c, _, _| (r, c),
            |r, c, _, w| (r, w - c),
            |r, c, h, _| (h - r, c),
            |r, c, h, w| (h - r, w - c),
            |r, c, _, _| (c, r),
            |r, c, h, w| (w - c, h - r),
            |r, c, _, w| (w - c, r),
            |r, c, h, _| (c, h - r),
        ];
        let square = height == width;
        let images: Vec<Vec<u32>> = transforms
            .iter()
            .take(if square { 8 } else { 4 })
            .filter_map(|transform| {
                let image: Option<Vec<u32>> = board
                    .free_lines()
                    .iter()
                    .map(|line| {
                        let (row, col) = transform(line.row(), line.col(), height, width);
                        board.bit(Line::new(row, col)?)
                    })
                    .collect();
                image
            })
            .collect();
        let inverse = |image: &Vec<u32>| {
            let mut inverse = vec![0; image.len()];
            for (line, &to) in image.iter().enumerate() {
                inverse[to as usize] = line as u32;
            }
            BitPermutation::new(&inverse)
        };
        let boxes = board.groups();
        let shared = |line: u32| boxes.iter().filter(|&&sides| sides >> line & 1 == 1).count() > 1;
        let private = boxes
            .iter()
            .map(|&sides| {
                (0..64).filter(|&line| sides >> line & 1 == 1 && !shared(line)).fold(0, |m, line| m | 1 << line)
            })
            .filter(|m: &u64| m.count_ones() >= 2)
            .collect();
        Symmetries {
            permutations: images.iter().map(|image| BitPermutation::new(image)).collect(),
            inverses: images.iter().map(inverse).collect(),
            private,
        }
    }

    /// The least image of `drawn` with each box's private sides drawn
    /// from the lowest: the same for every position of its class; and the
    /// symmetry that gives it. (The private sides of the boxes are mapped
    /// onto each other by every symmetry, so the least over the symmetries
    /// is one for the whole class.)
    pub(super) fn canonical(&self, drawn: u64) -> (u64, usize) {
        self.permutations
            .iter()
            .enumerate()
            .map(|(which, p)| (self.private_first(p.apply(drawn)), which))
            .min()
            .unwrap_or((drawn, 0))
    }

    /// `drawn` with as many of each box's private sides drawn, the lowest.
    fn private_first(&self, mut drawn: u64) -> u64 {
        for &sides in &self.private {
            let mut count = (drawn & sides).count_ones();
            drawn &= !sides;
            let mut left = sides;
            while count > 0 {
                drawn |= left & left.wrapping_neg();
                left &= left - 1;
                count -= 1;
            }
        }
        drawn
    }

    /// The image of `line` under symmetry `which`.
    pub(super) fn apply(&self, which: usize, line: u32) -> u32 {
        self.permutations[which].apply(1 << line).trailing_zeros()
    }

    /// The line whose image under symmetry `which` is `line`.
    pub(super) fn undo(&self, which: usize, line: u32) -> u32 {
        self.inverses[which].apply(1 << line).trailing_zeros()
    }
}
