//! The value of a position by alpha-beta search, for boards too large to
//! table every position (4×5 American has 2^49): the weak solve that
//! Barker and Korf first made of 4×5 in 2012.
//!
//! A position is its set of drawn lines: what the mover can still gain over
//! the other does not depend on who took the boxes already closed. The
//! search stores bounds on that margin in a table shared by the threads,
//! one entry for a position and all its mirror images, and settles
//! captures with little or no branching:
//!
//! - a box whose missing side is on the edge of the board, or is also the
//!   missing side of the box beside it, is taken: that line changes nothing
//!   else, so whoever is to move gains by taking it now (by induction on
//!   the lines left);
//! - a box whose missing side leads to a box with three or four sides
//!   still undrawn is taken;
//! - when every box that can be taken leads on to a box with exactly two
//!   undrawn sides (a chain goes on), only those captures and the
//!   declines (drawing that next box's other side, leaving both boxes to
//!   the opponent: Berlekamp's double-dealing move) are tried.
//!
//! The last two rules are not proved here; the tests hold them to the full
//! sweep on every position of the small boards and on thousands of random
//! positions of larger ones.

mod check;
mod endgame;
pub mod estimate;
mod record;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use solved_engine::{Interrupted, Progress};

pub use self::check::search_agrees_with_sweep;
use self::record::{MAX_RECORDED_LINES, Record};
pub use self::record::{RecordCheck, RecordError, check_record};
use self::symmetry::Symmetries;
use self::table::{Bounds, TranspositionTable};
use super::{Board, Line};

/// The most undrawn lines a board may have for the search: a position is
/// one 64-bit word.
pub const MAX_SEARCH_LINES: u32 = 64;

/// A search of one board, its transposition table kept between questions.
#[derive(Debug)]
pub struct Search {
    board: Board,
    /// Every free line.
    all: u64,
    /// Each box as the set of its free sides.
    boxes: Vec<u64>,
    /// For each line, the one or two boxes it is a side of (`NO_BOX` for none).
    boxes_of: Vec<[u8; 2]>,
    /// The lines from the centre of the board out: Barker and Korf are
    /// reported (their paper could not be read here) to have found this
    /// order 17 times faster than left to right on 4×4.
    order: Vec<u32>,
    symmetries: Symmetries,
    table: TranspositionTable,
    /// Where the first positions' bounds are kept between runs, if anywhere.
    record: Option<Record>,
    nodes: AtomicU64,
}

/// Why a search did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// It was asked to stop.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// Its record could not be read or written.
    #[error(transparent)]
    Record(#[from] RecordError),
}

const NO_BOX: u8 = u8::MAX;

/// How often, in positions, a search asks whether to stop.
const CHECK_EVERY: u64 = 1 << 20;

/// One thread's walk through the tree: what it has visited, how much of
/// that it has added to the search's count, and whether it was asked to
/// stop (after which its values mean nothing and nothing more is stored).
struct Walk<'a> {
    nodes: u64,
    counted: u64,
    progress: &'a dyn Progress,
    stopped: bool,
}

/// What the captures on the board leave to try.
enum Captures {
    /// No box can be taken: every line is worth trying.
    None,
    /// Taking this line (worth this many boxes) is best.
    Take(u64, i32),
    /// Every box that can be taken is on a chain: only these lines, each
    /// a capture or the decline of one, need be tried.
    TakeOrDecline(u64),
}

/// A first line and the final score A − B it leads to with perfect play.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct SearchedMove {
    /// The line.
    pub line: Line,
    /// The final score A − B if A draws it first.
    pub score: i32,
}

/// The start of a board, searched.
#[derive(Clone, Debug)]
pub struct SearchedStart {
    /// The final score A − B with perfect play.
    pub value: i32,
    /// Every first line, in Wilson order.
    pub first_moves: Vec<SearchedMove>,
    /// Positions visited by this run, over all threads.
    pub nodes: u64,
    /// What the record held when this run began: positions, and the
    /// positions visited and seconds spent by the runs that wrote it.
    pub recorded: (usize, u64, f64),
}

impl Search {
    /// A search of `board` with a transposition table of about
    /// `table_bytes` (16 bytes an entry).
    ///
    /// # Panics
    ///
    /// Panics if the board has more than [`MAX_SEARCH_LINES`] free lines
    /// ([`Board::for_search`] refuses such boards).
    pub fn new(board: &Board, table_bytes: usize) -> Search {
        let lines = board.free_lines();
        assert!(lines.len() as u32 <= MAX_SEARCH_LINES, "a position of the search is one 64-bit word");
        let boxes = board.groups();
        let boxes_of = (0..lines.len())
            .map(|bit| {
                let mut of = [NO_BOX; 2];
                for (slot, b) in of.iter_mut().zip(boxes.iter().enumerate().filter(|(_, mask)| *mask >> bit & 1 == 1)) {
                    *slot = b.0 as u8;
                }
                of
            })
            .collect();
        let (middle_row, middle_col) = (i32::from(board.rows()), i32::from(board.cols()));
        let mut order: Vec<u32> = (0..lines.len() as u32).collect();
        order.sort_by_key(|&bit| {
            let line = lines[bit as usize];
            let (dr, dc) = (i32::from(line.row()) - middle_row, i32::from(line.col()) - middle_col);
            (dr * dr + dc * dc, bit)
        });
        Search {
            board: board.clone(),
            all: if lines.len() == 64 { u64::MAX } else { (1 << lines.len()) - 1 },
            boxes,
            boxes_of,
            order,
            symmetries: Symmetries::of(board),
            table: TranspositionTable::with_bytes(table_bytes),
            record: None,
            nodes: AtomicU64::new(0),
        }
    }

    /// This search, going on from the record at `path` (made if missing)
    /// and adding to it the bounds of the positions it finds long to
    /// search, as it finds them.
    ///
    /// # Errors
    ///
    /// [`RecordError`] if the file cannot be read or locked, or is not a
    /// record of this board.
    pub fn with_record(mut self, path: &Path) -> Result<Search, RecordError> {
        self.record = Some(Record::open(path, &self.board, &self.symmetries)?);
        Ok(self)
    }

    /// This search, taking the bounds of the record `text` as known and
    /// writing nothing.
    ///
    /// # Errors
    ///
    /// Why `text` is not a record of this board.
    pub fn knowing(mut self, text: &str) -> Result<Search, String> {
        self.record = Some(Record::known(text, &self.board, &self.symmetries)?);
        Ok(self)
    }

    /// This search, recording positions from `nodes` visited (see
    /// [`Record::recording_from`]).
    #[cfg(test)]
    fn recording_from(mut self, nodes: u64) -> Search {
        if let Some(record) = &mut self.record {
            record.recording_from(nodes);
        }
        self
    }

    /// What the record held when this run began: positions, and the
    /// positions visited and seconds spent by the runs that wrote it
    /// (nothing without a record).
    pub fn recorded(&self) -> (usize, u64, f64) {
        self.record.as_ref().map_or((0, 0, 0.0), Record::earlier)
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// What the player to move can still gain over the other when the free
    /// lines `drawn` are drawn: the value the full sweep stores.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    pub fn margin(&self, drawn: u64, progress: &dyn Progress) -> Result<i32, Interrupted> {
        if progress.should_stop() {
            return Err(Interrupted);
        }
        let mut walk = Walk { nodes: 0, counted: 0, progress, stopped: false };
        let left = self.open_boxes(drawn);
        // MTD(f): tests of "at least beta?" with a null window, each
        // cheaper than one search of the whole window, close in on the
        // value from a guess of a close game. A margin has the parity of
        // the boxes left.
        let (mut lower, mut upper) = (-left, left);
        let mut guess = left % 2;
        while lower < upper && !walk.stopped {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = self.value(drawn, beta - 1, beta, &mut walk);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        self.nodes.fetch_add(walk.nodes - walk.counted, Ordering::Relaxed);
        if walk.stopped { Err(Interrupted) } else { Ok(lower) }
    }

    /// The start and every first line, the distinct first lines (up to the
    /// board's symmetries) searched in parallel.
    ///
    /// # Errors
    ///
    /// [`SearchError`] if `progress` asks to stop or the record cannot be
    /// written.
    pub fn start(&self, progress: &dyn Progress) -> Result<SearchedStart, SearchError> {
        let before = self.nodes();
        let recorded = self.recorded();
        let first_moves = self.line_worths(0, progress)?;
        let value = first_moves.iter().map(|m| m.score).max().unwrap_or(0);
        Ok(SearchedStart { value, first_moves, nodes: self.nodes() - before, recorded })
    }

    /// Which of `claims` hold: each a first line (its bit) and bounds on
    /// the final score A − B it leads to, tested again by searches of a
    /// null window (one for each bound short of the board's), which know
    /// nothing but what this search was given (a record of its own, to go
    /// on after a stop). Testing bounds is cheaper than finding values,
    /// which first needs guesses.
    ///
    /// # Errors
    ///
    /// [`SearchError`] if `progress` asks to stop or the record cannot be
    /// written.
    pub fn first_lines_hold(
        &self,
        claims: &[(u32, i32, i32)],
        progress: &dyn Progress,
    ) -> Result<Vec<bool>, SearchError> {
        let boxes = self.open_boxes(0);
        // Mirror images of one line, claimed alike, are tested once.
        let tested = |&(bit, lower, upper): &(u32, i32, i32)| (self.symmetries.canonical(1 << bit).0, lower, upper);
        let mut distinct: Vec<(u64, i32, i32)> = claims.iter().map(tested).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let bits: Vec<u32> = claims.iter().map(|claim| claim.0).collect();
        progress.start("first lines tested", distinct.len() as u64);
        let held = distinct
            .par_iter()
            .map(|&(class, lower, upper)| {
                let bit = bits.iter().copied().find(|&bit| self.symmetries.canonical(1 << bit).0 == class);
                let taken = bit.map_or(0, |bit| self.completed(0, 1 << bit));
                // A line that takes boxes scores them and the margin after;
                // any other line the margin after, negated.
                let score_is = |bound: i32, at_least: bool| {
                    if taken > 0 {
                        self.test(class, bound - taken, at_least, progress)
                    } else {
                        self.test(class, -bound, !at_least, progress)
                    }
                };
                let held = (lower <= -boxes || score_is(lower, true)?) && (upper >= boxes || score_is(upper, false)?);
                progress.advance(1);
                Ok(((class, lower, upper), held))
            })
            .collect::<Result<Vec<((u64, i32, i32), bool)>, Interrupted>>();
        if let Some(record) = &self.record {
            record.finish(self.nodes())?;
        }
        let held = held?;
        Ok(claims.iter().map(|claim| held.iter().any(|&(c, h)| c == tested(claim) && h)).collect())
    }

    /// Whether the mover's margin at `drawn` is at least `bound` (or, if
    /// not `at_least`, at most it): one search of a null window.
    fn test(&self, drawn: u64, bound: i32, at_least: bool, progress: &dyn Progress) -> Result<bool, Interrupted> {
        let mut walk = Walk { nodes: 0, counted: 0, progress, stopped: false };
        let held = if at_least {
            self.value(drawn, bound - 1, bound, &mut walk) >= bound
        } else {
            self.value(drawn, bound, bound + 1, &mut walk) <= bound
        };
        self.nodes.fetch_add(walk.nodes - walk.counted, Ordering::Relaxed);
        if walk.stopped { Err(Interrupted) } else { Ok(held) }
    }

    /// What [`line_worths`](Self::line_worths) gives, if the record holds
    /// the margin after every line exactly: nothing to search.
    pub fn recorded_line_worths(&self, drawn: u64) -> Option<Vec<SearchedMove>> {
        let record = self.record.as_ref()?;
        (0..self.board.free_lines().len() as u32)
            .filter(|&bit| drawn >> bit & 1 == 0)
            .map(|bit| {
                let child = drawn | 1 << bit;
                let (lower, upper) = record.get(self.symmetries.canonical(child).0)?;
                let taken = self.completed(drawn, 1 << bit);
                let score = if taken > 0 { taken + lower } else { -lower };
                (lower == upper).then(|| SearchedMove { line: self.board.free_lines()[bit as usize], score })
            })
            .collect()
    }

    /// Every undrawn line at `drawn`, in Wilson order, with what drawing
    /// it is worth to the mover: the boxes it takes and the margin after
    /// (at the start, the final score A − B). The distinct positions the
    /// lines lead to (up to the board's symmetries) are searched in
    /// parallel.
    ///
    /// # Errors
    ///
    /// [`SearchError`] if `progress` asks to stop or the record cannot be
    /// written.
    pub fn line_worths(&self, drawn: u64, progress: &dyn Progress) -> Result<Vec<SearchedMove>, SearchError> {
        let lines: Vec<u32> = (0..self.board.free_lines().len() as u32).filter(|&bit| drawn >> bit & 1 == 0).collect();
        let mut classes: Vec<u64> = lines.iter().map(|&bit| self.symmetries.canonical(drawn | 1 << bit).0).collect();
        classes.sort_unstable();
        classes.dedup();
        progress.start("lines searched", classes.len() as u64);
        let margins = classes
            .par_iter()
            .map(|&class| {
                let margin = self.margin(class, progress)?;
                progress.advance(1);
                Ok((class, margin))
            })
            .collect::<Result<Vec<(u64, i32)>, Interrupted>>();
        if let Some(record) = &self.record {
            record.finish(self.nodes())?;
        }
        let margins = margins?;
        Ok(lines
            .iter()
            .map(|&bit| {
                let class = self.symmetries.canonical(drawn | 1 << bit).0;
                let child = margins.iter().find(|(c, _)| *c == class).map_or(0, |&(_, m)| m);
                let taken = self.completed(drawn, 1 << bit);
                let score = if taken > 0 { taken + child } else { -child };
                SearchedMove { line: self.board.free_lines()[bit as usize], score }
            })
            .collect())
    }

    /// Boxes not yet closed.
    fn open_boxes(&self, drawn: u64) -> i32 {
        self.boxes.iter().filter(|&&mask| mask & !drawn != 0).count() as i32
    }

    /// The boxes that drawing `line` (one bit) closes.
    fn completed(&self, drawn: u64, line: u64) -> i32 {
        let open = !drawn & !line;
        self.boxes_of[line.trailing_zeros() as usize]
            .iter()
            .filter(|&&b| b != NO_BOX && self.boxes[usize::from(b)] & open == 0)
            .count() as i32
    }

    /// The box on the other side of `line` from box `b`, if any.
    fn beside(&self, line: u64, b: usize) -> Option<usize> {
        self.boxes_of[line.trailing_zeros() as usize]
            .iter()
            .map(|&o| usize::from(o))
            .find(|&o| o != b && o != usize::from(NO_BOX))
    }

    fn captures(&self, drawn: u64) -> Captures {
        let mut candidates = 0;
        for (b, &mask) in self.boxes.iter().enumerate() {
            let missing = mask & !drawn;
            if missing.count_ones() != 1 {
                continue;
            }
            let Some(next) = self.beside(missing, b) else { return Captures::Take(missing, 1) };
            let beyond = self.boxes[next] & !drawn;
            match beyond.count_ones() {
                1 => return Captures::Take(missing, 2),
                2 => candidates |= beyond,
                _ => return Captures::Take(missing, 1),
            }
        }
        if candidates == 0 { Captures::None } else { Captures::TakeOrDecline(candidates) }
    }

    /// The mover's margin after drawing `line`, within `alpha..beta` as
    /// [`value`](Self::value) is.
    fn after(&self, drawn: u64, line: u64, alpha: i32, beta: i32, walk: &mut Walk) -> i32 {
        let taken = self.completed(drawn, line);
        if taken > 0 {
            taken + self.value(drawn | line, alpha - taken, beta - taken, walk)
        } else {
            -self.value(drawn | line, -beta, -alpha, walk)
        }
    }

    /// The mover's margin at `drawn` if it lies strictly between `alpha`
    /// and `beta`; otherwise a bound on it on the side it fell (fail-soft).
    fn value(&self, drawn: u64, alpha: i32, beta: i32, walk: &mut Walk) -> i32 {
        walk.nodes += 1;
        if walk.nodes.is_multiple_of(CHECK_EVERY) {
            // Counted where the record can read it, every so often.
            self.nodes.fetch_add(walk.nodes - walk.counted, Ordering::Relaxed);
            walk.counted = walk.nodes;
            walk.stopped |= walk.progress.should_stop() || self.record.as_ref().is_some_and(|r| r.failed().is_some());
        }
        if walk.stopped {
            return 0;
        }
        let open = self.all & !drawn;
        if open == 0 {
            return 0;
        }
        match self.captures(drawn) {
            Captures::Take(line, boxes) => return boxes + self.value(drawn | line, alpha - boxes, beta - boxes, walk),
            // Few lines to try, and positions met once: not worth a
            // probe of the table, which misses the cache.
            Captures::TakeOrDecline(candidates) => {
                let mut best = i32::MIN;
                let mut lines = candidates;
                while lines != 0 {
                    let line = lines & lines.wrapping_neg();
                    lines ^= line;
                    best = best.max(self.after(drawn, line, alpha.max(best), beta, walk));
                    if best >= beta {
                        break;
                    }
                }
                return best;
            }
            Captures::None => {}
        }
        if let Some(margin) = self.endgame(drawn) {
            return margin;
        }
        let (key, symmetry) = self.symmetries.canonical(drawn);
        let left = self.open_boxes(drawn);
        let (mut lower, mut upper) = (-left, left);
        let recorded = self.record.as_ref().filter(|_| drawn.count_ones() <= MAX_RECORDED_LINES);
        let visited = walk.nodes;
        if let Some((low, high)) = recorded.and_then(|record| record.get(key)) {
            (lower, upper) = (lower.max(low), upper.min(high));
        }
        let mut first = None;
        if let Some(known) = self.table.get(key) {
            lower = lower.max(i32::from(known.lower));
            upper = upper.min(i32::from(known.upper));
            first = known.best.map(|line| self.symmetries.undo(symmetry, line));
        }
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let (alpha, beta) = (alpha.max(lower), beta.min(upper));
        let first = first.filter(|&line| open >> line & 1 == 1);
        // The line best here before, then lines that hand the opponent no
        // box (most best lines do), from the centre out.
        let gives = |line: u32| {
            self.boxes_of[line as usize]
                .iter()
                .any(|&b| b != NO_BOX && (self.boxes[usize::from(b)] & !drawn).count_ones() == 2)
        };
        let rest = |safe: bool| {
            self.order
                .iter()
                .copied()
                .filter(move |&line| open >> line & 1 == 1 && Some(line) != first && gives(line) != safe)
        };
        let (mut best, mut best_line) = (i32::MIN, None);
        for line in first.into_iter().chain(rest(true)).chain(rest(false)) {
            let margin = self.after(drawn, 1 << line, alpha.max(best), beta, walk);
            if margin > best {
                (best, best_line) = (margin, Some(line));
                if best >= beta {
                    break;
                }
            }
        }
        let bounds = if best <= alpha {
            (lower, best)
        } else if best >= beta {
            (best, upper)
        } else {
            (best, best)
        };
        let line = best_line.map(|line| self.symmetries.apply(symmetry, line));
        let bounds = Bounds { lower: bounds.0 as i8, upper: bounds.1 as i8, best: line };
        if !walk.stopped {
            self.table.put(key, bounds, open.count_ones());
            if let Some(record) = recorded.filter(|record| record.worth_keeping(drawn, walk.nodes - visited)) {
                let nodes = self.nodes() + walk.nodes - walk.counted;
                record.put(key, drawn, (bounds.lower.into(), bounds.upper.into()), nodes);
            }
        }
        best
    }
}
