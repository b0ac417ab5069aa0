//! The board as the quiet solver sees it: every line a bit of one `u64`,
//! boxes as masks of their sides, and the board's symmetries.
//!
//! The board is cut into *strips* of boxes along its longer side, so that a
//! strip is at most as wide as the board is short: the ranking of quiet
//! positions ([`super::rank`]) works strip by strip, with tables that grow
//! with the strip's width. Lines are numbered in Wilson's order of the board
//! so turned: text row by text row, top to bottom, left to right. Strip `i`
//! is then its top boundary (`width` lines) followed by its cross lines
//! (`width + 1`), and the bottom boundary of the last strip ends the mask.

use solved_engine::BitPermutation;

use super::super::{Board, Line};

/// The most boxes across a strip: the ranking tables hold `2^(3w+1)`
/// entries per strip.
pub const MAX_WIDTH: u32 = 5;

/// A board's lines, boxes and symmetries, in strip order.
#[derive(Clone, Debug)]
pub struct Layout {
    width: u32,
    strips: u32,
    /// Whether strips run down the board's columns (the board is wider than
    /// it is tall).
    turned: bool,
    /// The lines the variant draws.
    forced: u64,
    /// Each box's four sides, strip by strip.
    sides: Vec<u64>,
    /// Each line's one or two boxes.
    boxes_of: Vec<[Option<u8>; 2]>,
    /// The board's symmetries other than the identity that keep the
    /// variant's lines in place.
    symmetries: Vec<BitPermutation>,
    /// For each of the board's free lines (its bit), the layout's bit.
    from_free: Vec<u32>,
}

/// Why a board has no quiet layout.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum LayoutError {
    /// Its shorter side is too long for the ranking tables.
    #[error("the quiet solver handles boards at most {MAX_WIDTH} boxes on their shorter side, not {rows}x{cols}")]
    TooWide {
        /// Boxes down.
        rows: u8,
        /// Boxes across.
        cols: u8,
    },
    /// More lines than a mask holds.
    #[error("a {rows}x{cols} board has {lines} lines; the quiet solver handles at most 64")]
    TooManyLines {
        /// Boxes down.
        rows: u8,
        /// Boxes across.
        cols: u8,
        /// Its lines.
        lines: u32,
    },
}

impl Layout {
    /// The layout of `board`.
    ///
    /// # Errors
    ///
    /// [`LayoutError`] if the board is too wide or has too many lines.
    pub fn new(board: &Board) -> Result<Layout, LayoutError> {
        let (rows, cols) = (u32::from(board.rows()), u32::from(board.cols()));
        let turned = cols > rows;
        let (strips, width) = if turned { (cols, rows) } else { (rows, cols) };
        let error_size = (board.rows(), board.cols());
        if width > MAX_WIDTH {
            return Err(LayoutError::TooWide { rows: error_size.0, cols: error_size.1 });
        }
        let lines = (strips + 1) * width + strips * (width + 1);
        if lines > 64 {
            return Err(LayoutError::TooManyLines { rows: error_size.0, cols: error_size.1, lines });
        }
        let mut layout = Layout {
            width,
            strips,
            turned,
            forced: 0,
            sides: Vec::new(),
            boxes_of: vec![[None; 2]; lines as usize],
            symmetries: Vec::new(),
            from_free: Vec::new(),
        };
        for strip in 0..strips {
            for across in 0..width {
                let (r, c) = (2 * strip, 2 * across);
                let sides = [(r, c + 1), (r + 2, c + 1), (r + 1, c), (r + 1, c + 2)];
                let id = layout.sides.len() as u8;
                let mut mask = 0;
                for (r, c) in sides {
                    let bit = layout.bit_at(r, c);
                    mask |= 1 << bit;
                    let slot = &mut layout.boxes_of[bit as usize];
                    *slot = if slot[0].is_none() { [Some(id), None] } else { [slot[0], Some(id)] };
                }
                layout.sides.push(mask);
            }
        }
        for row in 0..=2 * strips {
            for col in 0..=2 * width {
                if (row + col) % 2 == 1 && board.bit(layout.board_line(row, col)).is_none() {
                    layout.forced |= 1 << layout.bit_at(row, col);
                }
            }
        }
        layout.from_free =
            board.free_lines().iter().map(|&line| layout.bit(line).expect("a board's line is in its layout")).collect();
        layout.symmetries = layout.symmetry_images().into_iter().map(|image| BitPermutation::new(&image)).collect();
        Ok(layout)
    }

    /// Every line's image under each symmetry but the identity that keeps
    /// the forced lines forced.
    fn symmetry_images(&self) -> Vec<Vec<u32>> {
        // Each maps a text row and column, given the last row and column.
        type Map = fn(u32, u32, u32, u32) -> (u32, u32);
        let mut maps: Vec<Map> = vec![|r, c, h, _| (h - r, c), |r, c, _, w| (r, w - c), |r, c, h, w| (h - r, w - c)];
        let (h, w) = (2 * self.strips, 2 * self.width);
        if h == w {
            maps.extend::<[Map; 4]>([
                |r, c, _, _| (c, r),
                |r, c, h, _| (h - c, r),
                |r, c, _, w| (c, w - r),
                |r, c, h, w| (h - c, w - r),
            ]);
        }
        let mut images = Vec::new();
        for map in maps {
            let mut image = vec![0; self.line_count() as usize];
            for row in 0..=h {
                for col in (0..=w).filter(|col| (row + col) % 2 == 1) {
                    let (r, c) = map(row, col, h, w);
                    image[self.bit_at(row, col) as usize] = self.bit_at(r, c);
                }
            }
            let permutation = BitPermutation::new(&image);
            if permutation.apply(self.forced) == self.forced {
                images.push(image);
            }
        }
        images
    }

    /// The bit of the line at text row `row` and column `col` of the turned
    /// board: the lines before it in Wilson's order.
    fn bit_at(&self, row: u32, col: u32) -> u32 {
        let before_row = row / 2 * (2 * self.width + 1) + if row % 2 == 1 { self.width } else { 0 };
        before_row + col / 2
    }

    /// The board's line at text row `row` and column `col` of the turned
    /// board.
    fn board_line(&self, row: u32, col: u32) -> Line {
        let (r, c) = if self.turned { (col, row) } else { (row, col) };
        Line::new(r as u8, c as u8).expect("a line's row and column differ in parity")
    }

    /// The layout's bit of `line`, if it is on the board.
    pub fn bit(&self, line: Line) -> Option<u32> {
        let (row, col) = (u32::from(line.row()), u32::from(line.col()));
        let (r, c) = if self.turned { (col, row) } else { (row, col) };
        (r <= 2 * self.strips && c <= 2 * self.width).then(|| self.bit_at(r, c))
    }

    /// The mask of a position given as the board's free lines drawn: the
    /// variant's lines drawn too.
    pub fn mask_of(&self, drawn: u64) -> u64 {
        let mut mask = self.forced;
        let mut rest = drawn;
        while rest != 0 {
            mask |= 1 << self.from_free[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        mask
    }

    /// Boxes across a strip.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Strips.
    pub fn strips(&self) -> u32 {
        self.strips
    }

    /// All lines, the variant's included.
    pub fn line_count(&self) -> u32 {
        (self.strips + 1) * self.width + self.strips * (self.width + 1)
    }

    /// The mask of every line.
    pub fn full(&self) -> u64 {
        u64::MAX >> (64 - self.line_count())
    }

    /// The lines the variant draws.
    pub fn forced(&self) -> u64 {
        self.forced
    }

    /// Each box's sides, by box id.
    pub fn sides(&self) -> &[u64] {
        &self.sides
    }

    /// The boxes `line` (a bit) is a side of.
    #[inline]
    pub fn boxes_of(&self, line: u32) -> [Option<u8>; 2] {
        self.boxes_of[line as usize]
    }

    /// The symmetries, the identity left out.
    pub fn symmetries(&self) -> &[BitPermutation] {
        &self.symmetries
    }

    /// The least image of `mask` under the symmetries: the representative
    /// of its class.
    #[inline]
    pub fn canonical(&self, mask: u64) -> u64 {
        self.symmetries.iter().fold(mask, |least, symmetry| least.min(symmetry.apply(mask)))
    }

    /// Whether `mask` is the least of its class.
    #[inline]
    pub fn is_canonical(&self, mask: u64) -> bool {
        self.symmetries.iter().all(|symmetry| symmetry.apply(mask) >= mask)
    }
}
