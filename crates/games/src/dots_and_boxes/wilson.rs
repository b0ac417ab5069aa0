//! Read and write David Wilson's text diagrams of positions.
//!
//! ```text
//! + -3  + -3  +
//! -3    -3    -3
//! +-----+ -3  +
//! |  A  |     -3
//! #-----#-----+
//! ```
//!
//! Dot rows hold `+` (or `#` for both ends of the last line drawn) and,
//! between two dots, `-----` for a drawn line or the score of an undrawn
//! one. The one or three text rows between dot rows hold `|` at a dot's
//! column for a drawn vertical line, or the line's score near that column,
//! and `A` or `B` inside a taken box. A score may be followed by `^` or `v`,
//! Wilson's loony marks (B or A must make the next loony move), which are
//! read and kept; `*` marks a best line in our own output. Tabs are
//! expanded, and text above, below or to the right of the board is ignored.

use std::fmt::Write as _;
use std::str::FromStr;

use super::{Board, BoxAt, Line, LineScore, Player, Position};

/// Wilson's loony mark on a score: who must make the next loony move
/// (see [`NextLoony`](super::quiet::NextLoony) for how it is computed).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Loony {
    /// `^`: B must make the next loony move.
    B,
    /// `v`: A must make the next loony move.
    A,
}

impl Loony {
    /// `^` or `v`.
    pub fn symbol(self) -> &'static str {
        match self {
            Loony::B => "^",
            Loony::A => "v",
        }
    }
}

/// A diagram as read: what it shows, not yet checked against a board.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Diagram {
    /// Boxes down.
    pub rows: u8,
    /// Boxes across.
    pub cols: u8,
    /// Every line drawn, the variant's included, in Wilson order.
    pub drawn: Vec<Line>,
    /// The scores written on undrawn lines.
    pub scores: Vec<(Line, i32)>,
    /// Loony marks on scores.
    pub loony: Vec<(Line, Loony)>,
    /// Taken boxes and their owners.
    pub owners: Vec<(BoxAt, Player)>,
    /// The line between the two `#` dots, if any.
    pub last: Option<Line>,
}

/// Why a diagram was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum DiagramError {
    /// No two rows of evenly spaced dots.
    #[error("no board found: a diagram needs at least two rows of dots (+ or #), evenly spaced")]
    NoBoard,
    /// Too many boxes to name.
    #[error("a {rows}x{cols} board is too large for Wilson's notation")]
    TooLarge {
        /// Boxes down.
        rows: usize,
        /// Boxes across.
        cols: usize,
    },
    /// Something inside the board that is none of the above.
    #[error("line {line} of the diagram, column {column}: unexpected {text:?}")]
    Unexpected {
        /// The text line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What is there.
        text: String,
    },
    /// `#` dots that do not mark one line.
    #[error("the # dots do not mark the two ends of one line")]
    Last,
    /// The diagram is not of the board asked for.
    #[error("the diagram shows a {found} board, not {expected}")]
    Size {
        /// The diagram's size.
        found: String,
        /// The board's.
        expected: String,
    },
    /// A line the variant draws is not drawn.
    #[error("line {0} is drawn in this variant but not in the diagram")]
    VariantLine(Line),
    /// A complete box without an owner, or a letter in an open box.
    #[error("box at row {row}, column {col} {problem}")]
    Owner {
        /// Its row, from 1.
        row: u8,
        /// Its column, from 1.
        col: u8,
        /// What is wrong.
        problem: &'static str,
    },
    /// Boxes are taken, so the order of moves matters for who moves next.
    #[error("boxes are taken, so who is to move cannot be told from the diagram: say --to-move A or B")]
    ToMove,
}

/// The text layout of a board found in a diagram.
struct Grid {
    first: usize,
    spacing: usize,
    dots: usize,
}

impl Grid {
    /// The dots of a text row, if it is a dot row: `+` or `#` at evenly
    /// spaced columns, at least two, from the first non-blank character.
    fn of_row(row: &[char]) -> Option<Grid> {
        let is_dot = |c: char| c == '+' || c == '#';
        let first = row.iter().position(|&c| c != ' ')?;
        if !is_dot(row[first]) {
            return None;
        }
        let second = first + 1 + row[first + 1..].iter().position(|&c| is_dot(c))?;
        let spacing = second - first;
        let mut dots = 2;
        while row.get(first + dots * spacing).is_some_and(|&c| is_dot(c)) {
            dots += 1;
        }
        Some(Grid { first, spacing, dots })
    }

    fn same_as(&self, other: &Grid) -> bool {
        (self.first, self.spacing, self.dots) == (other.first, other.spacing, other.dots)
    }

    fn column(&self, dot: usize) -> usize {
        self.first + dot * self.spacing
    }

    /// The dot nearest to text column `x`, if `x` is within the board.
    fn nearest_dot(&self, x: usize) -> Option<usize> {
        let half = self.spacing / 2;
        if x + half < self.first || x > self.column(self.dots - 1) + half {
            return None;
        }
        Some(((x + half).saturating_sub(self.first) / self.spacing).min(self.dots - 1))
    }

    /// The box column whose inside holds text column `x`.
    fn box_at(&self, x: usize) -> Option<usize> {
        (x > self.first && x < self.column(self.dots - 1)).then(|| (x - self.first) / self.spacing)
    }
}

/// A score with its marks, like `-3`, `0^` or `5*`.
fn parse_score(token: &str) -> Option<(i32, Option<Loony>)> {
    let digits_end = token.char_indices().skip(1).find(|(_, c)| !c.is_ascii_digit()).map_or(token.len(), |(i, _)| i);
    let score = token[..digits_end].parse().ok()?;
    let loony = match &token[digits_end..] {
        "" | "*" => None,
        "^" | "^*" => Some(Loony::B),
        "v" | "v*" => Some(Loony::A),
        _ => return None,
    };
    Some((score, loony))
}

/// The tokens of a text row: maximal runs without blanks, with columns.
fn tokens(row: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut x = 0;
    while x < row.len() {
        if row[x] == ' ' {
            x += 1;
            continue;
        }
        let start = x;
        while x < row.len() && row[x] != ' ' {
            x += 1;
        }
        out.push((start, row[start..x].iter().collect()));
    }
    out
}

fn expand_tabs(line: &str) -> Vec<char> {
    let mut out = Vec::new();
    for c in line.chars() {
        match c {
            '\t' => out.resize((out.len() / 8 + 1) * 8, ' '),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

impl FromStr for Diagram {
    type Err = DiagramError;

    fn from_str(text: &str) -> Result<Diagram, DiagramError> {
        let rows: Vec<Vec<char>> = text.lines().map(expand_tabs).collect();
        // The board: the first run of alike dot rows, one to three text rows apart.
        let mut dot_rows: Vec<usize> = Vec::new();
        let mut grid: Option<Grid> = None;
        for (i, row) in rows.iter().enumerate() {
            let Some(this) = Grid::of_row(row) else { continue };
            match (&grid, dot_rows.last()) {
                (Some(g), Some(&prev)) if g.same_as(&this) && (2..=4).contains(&(i - prev)) => dot_rows.push(i),
                (Some(_), Some(_)) if dot_rows.len() >= 2 => break,
                _ => {
                    grid = Some(this);
                    dot_rows = vec![i];
                }
            }
        }
        let grid = grid.filter(|_| dot_rows.len() >= 2).ok_or(DiagramError::NoBoard)?;
        let (height, width) = (dot_rows.len() - 1, grid.dots - 1);
        if height > usize::from(super::MAX_SIDE) || width > usize::from(super::MAX_SIDE) {
            return Err(DiagramError::TooLarge { rows: height, cols: width });
        }
        let mut diagram = Diagram { rows: height as u8, cols: width as u8, ..Diagram::default() };
        let unexpected = |line: usize, column: usize, text: &str| DiagramError::Unexpected {
            line: line + 1,
            column: column + 1,
            text: crate::params::quote(text),
        };
        let mut hashes = Vec::new();
        for (k, &r) in dot_rows.iter().enumerate() {
            let row = &rows[r];
            for dot in 0..grid.dots {
                if row[grid.column(dot)] == '#' {
                    hashes.push((2 * k, 2 * dot));
                }
                if dot + 1 == grid.dots {
                    break;
                }
                let line = Line::new(2 * k as u8, 2 * dot as u8 + 1).expect("an odd column on an even row");
                let segment: String =
                    row.get(grid.column(dot) + 1..grid.column(dot + 1).min(row.len())).unwrap_or(&[]).iter().collect();
                let segment = segment.trim();
                if segment.is_empty() {
                    continue;
                }
                if segment.chars().all(|c| c == '-') {
                    diagram.drawn.push(line);
                } else if let Some((score, loony)) = parse_score(segment) {
                    diagram.scores.push((line, score));
                    diagram.loony.extend(loony.map(|l| (line, l)));
                } else {
                    return Err(unexpected(r, grid.column(dot) + 1, segment));
                }
            }
            let Some(&next) = dot_rows.get(k + 1) else { break };
            for (r, row) in rows.iter().enumerate().take(next).skip(r + 1) {
                for (x, token) in tokens(row) {
                    let Some(dot) = grid.nearest_dot(x) else { continue };
                    let vertical = Line::new(2 * k as u8 + 1, 2 * dot as u8).expect("an even column on an odd row");
                    if token.chars().all(|c| matches!(c, '|' | 'A' | 'B')) {
                        for (i, c) in token.chars().enumerate() {
                            match c {
                                '|' => match grid.nearest_dot(x + i) {
                                    Some(d) => diagram
                                        .drawn
                                        .push(Line::new(2 * k as u8 + 1, 2 * d as u8).expect("a vertical line")),
                                    None => return Err(unexpected(r, x + i, "|")),
                                },
                                owner => match grid.box_at(x + i) {
                                    Some(col) => diagram.owners.push((
                                        BoxAt { row: k as u8, col: col as u8 },
                                        if owner == 'A' { Player::A } else { Player::B },
                                    )),
                                    None => return Err(unexpected(r, x + i, &owner.to_string())),
                                },
                            }
                        }
                    } else if let Some((score, loony)) = parse_score(&token) {
                        diagram.scores.push((vertical, score));
                        diagram.loony.extend(loony.map(|l| (vertical, l)));
                    } else {
                        return Err(unexpected(r, x, &token));
                    }
                }
            }
        }
        diagram.drawn.sort();
        diagram.drawn.dedup();
        diagram.owners.sort_by_key(|o| o.0);
        diagram.owners.dedup();
        diagram.last = match hashes.as_slice() {
            [] => None,
            [(r1, c1), (r2, c2)] if r1 == r2 && c2 - c1 == 2 => Line::new(*r1 as u8, *c1 as u8 + 1),
            [(r1, c1), (r2, c2)] if c1 == c2 && r2 - r1 == 2 => Line::new(*r1 as u8 + 1, *c1 as u8),
            _ => return Err(DiagramError::Last),
        };
        Ok(diagram)
    }
}

impl Board {
    /// The position a diagram shows on this board. Who is to move comes
    /// from `to_move`; without it, only a diagram with no box taken says
    /// (by the number of lines drawn, as every move then passed the turn).
    ///
    /// # Errors
    ///
    /// [`DiagramError`] if the diagram is of another size, lacks a line the
    /// variant draws, shows an owner in an open box or none in a closed one,
    /// or needs `to_move` and has none.
    pub fn position_from(&self, diagram: &Diagram, to_move: Option<Player>) -> Result<Position, DiagramError> {
        if (diagram.rows, diagram.cols) != (self.rows, self.cols) {
            return Err(DiagramError::Size {
                found: format!("{}x{}", diagram.rows, diagram.cols),
                expected: format!("{}x{}", self.rows, self.cols),
            });
        }
        let mut pos = self.start();
        for &line in &diagram.drawn {
            if let Some(bit) = self.bit(line) {
                pos.drawn |= 1 << bit;
            }
        }
        for b in self.boxes() {
            for side in b.sides() {
                if self.bit(side).is_none() && !diagram.drawn.contains(&side) {
                    return Err(DiagramError::VariantLine(side));
                }
            }
        }
        for b in self.boxes() {
            let closed = b.sides().iter().all(|&side| self.is_drawn(pos.drawn, side));
            let nobodys = b.sides().iter().all(|&side| self.bit(side).is_none());
            let owner = diagram.owners.iter().find(|o| o.0 == b).map(|o| o.1);
            let problem = match (closed && !nobodys, owner) {
                (true, None) => "is closed but shows no owner (A or B)",
                (false, Some(_)) => "shows an owner but is not closed",
                _ => "",
            };
            if !problem.is_empty() {
                return Err(DiagramError::Owner { row: b.row + 1, col: b.col + 1, problem });
            }
            pos.owners[usize::from(b.row) * usize::from(self.cols) + usize::from(b.col)] = owner;
        }
        pos.last = diagram.last;
        pos.turn = match to_move {
            Some(player) => player,
            None if diagram.owners.is_empty() => {
                if pos.drawn.count_ones().is_multiple_of(2) {
                    Player::A
                } else {
                    Player::B
                }
            }
            None => return Err(DiagramError::ToMove),
        };
        Ok(pos)
    }

    /// `pos` as a Wilson diagram, with `scores` written on the undrawn
    /// lines (each followed by its loony mark, then `*` for a best line) and
    /// `#` at the ends of the last line drawn.
    pub fn diagram(&self, pos: &Position, scores: &[LineScore]) -> String {
        const SPACING: usize = 6;
        let score_of = |line: Line| scores.iter().find(|s| s.line == line);
        let marks = |line: Line| {
            let loony = score_of(line).and_then(|s| s.loony).map_or("", Loony::symbol);
            format!("{loony}{}", mark(score_of(line)))
        };
        let (height, width) = (2 * self.rows, 2 * self.cols);
        let last_ends: Vec<(u8, u8)> = pos.last.map_or(Vec::new(), |l| {
            if l.is_horizontal() {
                vec![(l.row, l.col - 1), (l.row, l.col + 1)]
            } else {
                vec![(l.row - 1, l.col), (l.row + 1, l.col)]
            }
        });
        let mut out = String::new();
        for row in 0..=height {
            let mut text = String::new();
            for col in 0..=width {
                let at = usize::from(col / 2) * SPACING;
                match (row % 2, col % 2) {
                    (0, 0) => {
                        text.push(if last_ends.contains(&(row, col)) { '#' } else { '+' });
                    }
                    (0, _) => {
                        let line = Line { row, col };
                        if self.is_drawn(pos.drawn, line) {
                            text.push_str("-----");
                        } else {
                            let _ = write!(text, "{:>3}{:<2}", shown(score_of(line)), marks(line));
                        }
                    }
                    (_, 0) => {
                        let line = Line { row, col };
                        pad(&mut text, at);
                        if self.is_drawn(pos.drawn, line) {
                            text.push('|');
                        } else {
                            let _ = write!(text, "{}{}", shown(score_of(line)), marks(line));
                        }
                    }
                    _ => {
                        let b = usize::from(row / 2) * usize::from(self.cols) + usize::from(col / 2);
                        if let Some(owner) = pos.owners[b] {
                            pad(&mut text, at + 3);
                            let _ = write!(text, " {owner}");
                        }
                    }
                }
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
        out
    }
}

fn shown(score: Option<&LineScore>) -> String {
    score.map_or(String::new(), |s| s.score.to_string())
}

fn mark(score: Option<&LineScore>) -> &'static str {
    if score.is_some_and(|s| s.best) { "*" } else { "" }
}

fn pad(text: &mut String, column: usize) {
    while text.chars().count() < column {
        text.push(' ');
    }
    if text.chars().count() > column && !text.ends_with(' ') {
        text.push(' ');
    }
}
