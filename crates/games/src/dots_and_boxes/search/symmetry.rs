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
        let permutations = transforms
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
                Some(BitPermutation::new(&image?))
            })
            .collect();
        Symmetries { permutations }
    }

    /// The least image of `drawn`: the same for every position of its class.
    pub(super) fn canonical(&self, drawn: u64) -> u64 {
        self.permutations.iter().map(|p| p.apply(drawn)).min().unwrap_or(drawn)
    }
}
