//! Bounds on the margins of a search's first few positions, written to a
//! file as each is found, so that a search stopped, killed or carried to
//! another machine goes on from them: 4×5 runs longer than any sitting.
//!
//! A position is recorded once its search ends if it has at most
//! [`RECORDED_LINES`] lines drawn, or at most [`MAX_RECORDED_LINES`] and
//! took [`RECORDED_FROM`] positions to search: a kill loses the searches
//! under way below the last recorded positions, each shorter than a few
//! recorded ones. The file names positions by their lines, not by the
//! search's keys, so that it outlives changes to the search.

use std::collections::BTreeMap;
use std::fs::{File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use solved_engine::TableError;
use solved_engine::table::write_atomically;

use super::super::{Board, Line};
use super::Search;
use super::symmetry::Symmetries;

/// Positions with at most this many lines drawn are recorded, however
/// quickly searched.
pub(super) const RECORDED_LINES: u32 = 3;

/// Positions with more lines drawn than this are never recorded, nor
/// looked up: they are met too often to ask the record each time. (On
/// 4×5 the search of a position with 39 lines left, this many drawn,
/// takes a minute or so.)
pub(super) const MAX_RECORDED_LINES: u32 = 10;

/// Positions of [`RECORDED_LINES`] to [`MAX_RECORDED_LINES`] lines are
/// recorded if their search visited at least this many: about half a
/// minute on one thread.
const RECORDED_FROM: u64 = 1 << 29;

/// The least time between two writes of the record: each is synced to
/// disk, which takes a while, and a kill loses at most this much.
const WRITE_EVERY: Duration = Duration::from_secs(10);

/// What the first line of a record says it is.
const FORMAT: &str = "solved dots-and-boxes search record 1";

/// Why a record cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file cannot be read, locked or written.
    #[error("search record {}: {source}", path.display())]
    Io {
        /// The record.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Another process is searching with the same record.
    #[error("search record {}: another search is writing it; wait for it to end or name another file", path.display())]
    Busy {
        /// The record.
        path: PathBuf,
    },
    /// The file is not a record, or one of another board, or names
    /// positions the board does not have.
    #[error("search record {}: {reason}; it is left as it is", path.display())]
    Invalid {
        /// The record.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing the record failed.
    #[error(transparent)]
    Write(#[from] TableError),
}

/// The file as it is written: a JSON object, one position a line.
#[derive(Debug, Deserialize, Serialize)]
struct RecordFile {
    format: String,
    rows: u8,
    cols: u8,
    variant: String,
    /// Positions visited over every run, as far as the record was written.
    nodes: u64,
    /// Wall time of every run, as far as the record was written.
    seconds: f64,
    positions: Vec<RecordedPosition>,
}

/// The mover's margin at a position lies in `lower..=upper`.
#[derive(Clone, Debug, Deserialize, Serialize)]
struct RecordedPosition {
    /// The lines drawn, in Wilson's notation, separated by commas.
    lines: String,
    lower: i8,
    upper: i8,
}

/// What the record holds, by the search's key of each position: the
/// lines of one position of its class, and the bounds.
#[derive(Debug)]
struct Held {
    bounds: BTreeMap<u64, (u64, i8, i8)>,
    /// Positions visited and seconds spent by the runs before this one.
    nodes_before: u64,
    seconds_before: f64,
    /// The first failure to write, after which nothing more is written.
    failed: Option<String>,
    /// When the file was last written, if it was by this run.
    written: Option<Instant>,
}

/// A search's record, open for this run.
#[derive(Debug)]
pub(super) struct Record {
    /// The file and its lock (held while the record is open, so that two
    /// searches do not write over each other's bounds); none for a record
    /// only read.
    file: Option<(PathBuf, File)>,
    board: Board,
    began: Instant,
    held: Mutex<Held>,
    /// [`RECORDED_FROM`], or less in tests.
    recorded_from: u64,
}

impl Record {
    /// The record at `path` of a search of `board` (empty if there is no
    /// file yet), locked for this process.
    pub(super) fn open(path: &Path, board: &Board, symmetries: &Symmetries) -> Result<Record, RecordError> {
        let io_error = |source| RecordError::Io { path: path.into(), source };
        let lock_path = lock_path(path);
        if let Some(dir) = lock_path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_error)?;
        }
        let lock = File::options().create(true).truncate(false).write(true).open(&lock_path).map_err(io_error)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(RecordError::Busy { path: path.into() }),
            Err(TryLockError::Error(error)) => return Err(io_error(error)),
        }
        let mut held =
            Held { bounds: BTreeMap::new(), nodes_before: 0, seconds_before: 0.0, failed: None, written: None };
        match std::fs::read_to_string(path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(io_error(error)),
            Ok(text) => {
                let read = read(&text, board, symmetries)
                    .map_err(|reason| RecordError::Invalid { path: path.into(), reason })?;
                (held.bounds, held.nodes_before, held.seconds_before) = (read.bounds, read.nodes, read.seconds);
            }
        }
        Ok(Record {
            file: Some((path.into(), lock)),
            board: board.clone(),
            began: Instant::now(),
            held: Mutex::new(held),
            recorded_from: RECORDED_FROM,
        })
    }

    /// The record `text`, only read: what is found is kept in memory.
    pub(super) fn known(text: &str, board: &Board, symmetries: &Symmetries) -> Result<Record, String> {
        let read = read(text, board, symmetries)?;
        let held = Held {
            bounds: read.bounds,
            nodes_before: read.nodes,
            seconds_before: read.seconds,
            failed: None,
            written: None,
        };
        Ok(Record {
            file: None,
            board: board.clone(),
            began: Instant::now(),
            held: Mutex::new(held),
            recorded_from: RECORDED_FROM,
        })
    }

    /// Records positions of more than [`RECORDED_LINES`] lines from
    /// `nodes` visited instead of [`RECORDED_FROM`], so that small boards
    /// have some.
    #[cfg(test)]
    pub(super) fn recording_from(&mut self, nodes: u64) {
        self.recorded_from = nodes;
    }

    /// Whether a search of `drawn` that visited `nodes` positions is worth
    /// recording.
    pub(super) fn worth_keeping(&self, drawn: u64, nodes: u64) -> bool {
        let lines = drawn.count_ones();
        lines <= RECORDED_LINES || (lines <= MAX_RECORDED_LINES && nodes >= self.recorded_from)
    }

    /// The bounds recorded for the position of search key `key`.
    pub(super) fn get(&self, key: u64) -> Option<(i32, i32)> {
        self.held().bounds.get(&key).map(|&(_, lower, upper)| (i32::from(lower), i32::from(upper)))
    }

    /// Positions recorded, positions visited and seconds spent by earlier runs.
    pub(super) fn earlier(&self) -> (usize, u64, f64) {
        let held = self.held();
        (held.bounds.len(), held.nodes_before, held.seconds_before)
    }

    /// Records that the margin of `drawn` (search key `key`) lies in
    /// `lower..=upper`, and writes the file if it was not written in the
    /// last [`WRITE_EVERY`], with `nodes` visited by this run so far. A
    /// failure to write is kept for [`failed`](Self::failed).
    pub(super) fn put(&self, key: u64, drawn: u64, (lower, upper): (i32, i32), nodes: u64) {
        let mut held = self.held();
        if held.failed.is_some() {
            return;
        }
        let entry = held.bounds.entry(key).or_insert((drawn, i8::MIN, i8::MAX));
        entry.1 = entry.1.max(lower as i8);
        entry.2 = entry.2.min(upper as i8);
        if held.written.is_some_and(|written| written.elapsed() < WRITE_EVERY) {
            return;
        }
        match self.write(&held, nodes) {
            Ok(()) => held.written = Some(Instant::now()),
            Err(error) => held.failed = Some(error.to_string()),
        }
    }

    /// Writes the file with `nodes` visited by this run (at the end, to
    /// count them all).
    pub(super) fn finish(&self, nodes: u64) -> Result<(), RecordError> {
        let held = self.held();
        if let (Some(failed), Some((path, _))) = (&held.failed, &self.file) {
            return Err(RecordError::Io { path: path.clone(), source: io::Error::other(failed.clone()) });
        }
        Ok(self.write(&held, nodes)?)
    }

    /// Why the record could not be written, if it could not.
    pub(super) fn failed(&self) -> Option<String> {
        self.held().failed.clone()
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // A thread that panicked while holding the lock left the bounds
        // whole: each change is one assignment.
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self, held: &Held, nodes: u64) -> Result<(), TableError> {
        let Some((path, _)) = &self.file else { return Ok(()) };
        let file = RecordFile {
            format: FORMAT.into(),
            rows: self.board.rows(),
            cols: self.board.cols(),
            variant: self.board.variant().id().into(),
            nodes: held.nodes_before + nodes,
            seconds: held.seconds_before + self.began.elapsed().as_secs_f64(),
            positions: Vec::new(),
        };
        // One position a line, fewest lines first, so that the file reads
        // (and its history diffs) position by position.
        let mut positions: Vec<(u32, String, i8, i8)> = held
            .bounds
            .values()
            .map(|&(drawn, lower, upper)| (drawn.count_ones(), lines_named(&self.board, drawn), lower, upper))
            .collect();
        positions.sort();
        write_atomically(path, |out| {
            let head = serde_json::to_string(&file).map_err(io::Error::other)?;
            let head = head.strip_suffix("[]}").expect("the positions end the object");
            writeln!(out, "{head}[")?;
            for (i, (_, lines, lower, upper)) in positions.into_iter().enumerate() {
                let position = RecordedPosition { lines, lower, upper };
                let comma = if i == 0 { "" } else { "," };
                writeln!(out, "{comma}{}", serde_json::to_string(&position).map_err(io::Error::other)?)?;
            }
            writeln!(out, "]}}")
        })
    }
}

/// What a record holds: the bounds by the search's key of each position
/// (with the lines of one position of its class), and the positions
/// visited and seconds spent by the runs that wrote it.
struct Contents {
    bounds: BTreeMap<u64, (u64, i8, i8)>,
    nodes: u64,
    seconds: f64,
}

/// The record `text` of a search of `board`, or why it is not one.
fn read(text: &str, board: &Board, symmetries: &Symmetries) -> Result<Contents, String> {
    let file: RecordFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if file.format != FORMAT {
        return Err(format!("its format is {:?}, not {FORMAT:?}", file.format));
    }
    if (file.rows, file.cols, file.variant.as_str()) != (board.rows(), board.cols(), board.variant().id()) {
        return Err(format!(
            "it is of {}x{} {}, not of {}x{} {}",
            file.rows,
            file.cols,
            file.variant,
            board.rows(),
            board.cols(),
            board.variant().id()
        ));
    }
    let mut bounds = BTreeMap::new();
    for position in file.positions {
        let drawn = free_lines_named(board, &position.lines)?;
        if position.lower > position.upper {
            return Err(format!("{}: lower bound above upper", position.lines));
        }
        let (key, _) = symmetries.canonical(drawn);
        let entry = bounds.entry(key).or_insert((drawn, i8::MIN, i8::MAX));
        entry.1 = entry.1.max(position.lower);
        entry.2 = entry.2.min(position.upper);
        if entry.1 > entry.2 {
            return Err(format!("{}: its bounds contradict another entry's", position.lines));
        }
    }
    Ok(Contents { bounds, nodes: file.nodes, seconds: file.seconds })
}

/// A record read back and held to the rule every true margin keeps: a
/// position's margin is the best of what its lines lead to.
#[derive(Clone, Debug)]
pub struct RecordCheck {
    /// Positions recorded.
    pub positions: usize,
    /// Positions visited and seconds spent by the runs that wrote it.
    pub nodes: u64,
    /// Seconds spent by the runs that wrote it.
    pub seconds: f64,
    /// What the record says of the start's value (final score A − B):
    /// it lies in `lower..=upper`.
    pub start: (i32, i32),
    /// Each first line, in Wilson order, and the bounds on the final score
    /// it leads to, where recorded.
    pub first_moves: Vec<(Line, Option<(i32, i32)>)>,
    /// Positions whose bounds their recorded children contradict, by their
    /// lines.
    pub contradictions: Vec<String>,
}

/// Reads `text`, the record of a search of `board`, and checks every
/// recorded position against its recorded children: its margin is at
/// least what any line leads to, and at most the best of them when all
/// are recorded.
///
/// # Errors
///
/// Why `text` is not a record of `board`.
pub fn check_record(board: &Board, text: &str) -> Result<RecordCheck, String> {
    let search = Search::new(board, 16);
    let contents = read(text, board, &search.symmetries)?;
    let bounds = |drawn: u64| {
        contents.bounds.get(&search.symmetries.canonical(drawn).0).map(|&(_, l, u)| (i32::from(l), i32::from(u)))
    };
    // The bounds on what drawing `line` at `drawn` is worth to the mover.
    let after = |drawn: u64, line: u64| {
        let taken = search.completed(drawn, line);
        bounds(drawn | line).map(|(l, u)| if taken > 0 { (taken + l, taken + u) } else { (-u, -l) })
    };
    let mut contradictions = Vec::new();
    for &(drawn, lower, upper) in contents.bounds.values() {
        let (lower, upper) = (i32::from(lower), i32::from(upper));
        let open = search.all & !drawn;
        let lines = (0..64).map(|bit| 1u64 << bit).filter(|&line| open & line != 0);
        let children: Vec<Option<(i32, i32)>> = lines.map(|line| after(drawn, line)).collect();
        let least = children.iter().flatten().map(|&(l, _)| l).max();
        let most =
            children.iter().map(|c| c.map(|(_, u)| u)).collect::<Option<Vec<i32>>>().and_then(|u| u.into_iter().max());
        if least.is_some_and(|least| least > upper) || most.is_some_and(|most| most < lower) {
            contradictions.push(lines_named(board, drawn));
        }
    }
    let first_moves: Vec<(Line, Option<(i32, i32)>)> =
        board.free_lines().iter().enumerate().map(|(bit, &line)| (line, after(0, 1 << bit))).collect();
    // The search records the first lines, not the start: its value is the
    // best of theirs.
    let boxes = search.open_boxes(0);
    let (mut lower, mut upper) = bounds(0).unwrap_or((-boxes, boxes));
    lower = lower.max(first_moves.iter().filter_map(|(_, b)| b.map(|(l, _)| l)).max().unwrap_or(-boxes));
    if let Some(most) = first_moves.iter().map(|(_, b)| b.map(|(_, u)| u)).collect::<Option<Vec<i32>>>() {
        upper = upper.min(most.into_iter().max().unwrap_or(boxes));
    }
    Ok(RecordCheck {
        positions: contents.bounds.len(),
        nodes: contents.nodes,
        seconds: contents.seconds,
        start: (lower, upper),
        first_moves,
        contradictions,
    })
}

/// The lock file beside the record `path`.
fn lock_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.lock"))
}

/// The free lines of `board` set in `drawn`, by name.
fn lines_named(board: &Board, drawn: u64) -> String {
    let lines = board.free_lines();
    (0..lines.len())
        .filter(|&bit| drawn >> bit & 1 == 1)
        .map(|bit| lines[bit].to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The set of free lines of `board` that `text` names.
pub(super) fn free_lines_named(board: &Board, text: &str) -> Result<u64, String> {
    let lines = board.free_lines();
    let mut drawn = 0u64;
    for name in text.split(',').filter(|name| !name.is_empty()) {
        let line: Line = board.line_named(name).map_err(|e| format!("{text}: {e}"))?;
        let bit =
            lines.iter().position(|&l| l == line).ok_or_else(|| format!("{text}: {name} is drawn before the game"))?;
        if drawn >> bit & 1 == 1 {
            return Err(format!("{text}: {name} twice"));
        }
        drawn |= 1 << bit;
    }
    Ok(drawn)
}
