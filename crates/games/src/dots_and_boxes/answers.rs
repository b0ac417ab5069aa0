//! What Dots and Boxes answers, as JSON and as text: a board's summary, a
//! solve, a probe.

use std::fmt::Write;

use serde::Serialize;

use super::search::SearchedStart;
use super::wilson::Loony;
use super::{Board, Line, LineScore, Player, Position};
use crate::front::Answer;
use crate::levels::{Grade, Worth};
use crate::text::thousands;

/// What the marks after scores mean.
pub(super) const LOONY_KEY: &str =
    "^ after a score: B must make the next loony move; v: A must; no mark: neither can be made to";

/// A loony mark as JSON gives it: `"A"`, `"B"` or null.
fn mark(loony: Option<Loony>) -> Option<&'static str> {
    loony.map(|l| match l {
        Loony::A => "A",
        Loony::B => "B",
    })
}

/// `+3 (A wins by 3)`, `0 (a tie)`, `-2 (B wins by 2)`.
pub(super) fn outcome(score: i32) -> String {
    match score.signum() {
        1 => format!("{score:+} (A wins by {score})"),
        -1 => format!("{score:+} (B wins by {})", -score),
        _ => "0 (a tie)".into(),
    }
}

pub(super) fn describe(board: &Board) -> String {
    format!("Dots and Boxes {}x{} boxes ({})", board.rows(), board.cols(), board.variant().id())
}

#[derive(Debug, Serialize)]
struct FirstMoveJson {
    #[serde(rename = "move")]
    m: String,
    score: i32,
    /// Who must make the next loony move after this line: `"A"`, `"B"`, or
    /// null for neither.
    loony: Option<&'static str>,
    best_replies: usize,
}

/// The value of the empty board and of every first line (`summary`,
/// `GET /api/dots-and-boxes/summary`).
#[derive(Debug, Serialize)]
pub(super) struct Summary {
    game: &'static str,
    rows: u8,
    cols: u8,
    variant: &'static str,
    lines: u32,
    /// Every position of the board: 2^lines.
    positions: u64,
    /// Positions with no box of exactly three sides: what the table stores.
    quiet_positions: u64,
    value: i32,
    first_moves: Vec<FirstMoveJson>,
    best_first_moves: Vec<String>,
    #[serde(skip)]
    board: Board,
    #[serde(skip)]
    start_scores: Vec<LineScore>,
}

impl Summary {
    pub(super) fn new(board: &Board, summary: &super::Summary, start_scores: Vec<LineScore>) -> Summary {
        Summary {
            game: super::INFO.id,
            rows: board.rows(),
            cols: board.cols(),
            variant: board.variant().id(),
            lines: summary.lines,
            positions: 1u64 << summary.lines,
            quiet_positions: summary.quiet_positions,
            value: summary.value,
            first_moves: summary
                .first_moves
                .iter()
                .map(|m| FirstMoveJson {
                    m: m.line.to_string(),
                    score: m.score,
                    loony: mark(m.loony),
                    best_replies: m.best_replies,
                })
                .collect(),
            best_first_moves: summary.best_first_moves().iter().map(Line::to_string).collect(),
            board: board.clone(),
            start_scores,
        }
    }

    /// The text after the first line: `kept` says how the table keeps the
    /// quiet positions, if known.
    fn body(&self, kept: &str) -> String {
        let mut text = String::new();
        let _ =
            writeln!(text, "{} undrawn lines; {} quiet positions{kept}", self.lines, thousands(self.quiet_positions));
        let _ = writeln!(text, "with best play from the start: {}", outcome(self.value));
        text.push_str(&self.board.diagram(&self.board.start(), &self.start_scores));
        let _ =
            writeln!(text, "best first lines ({}): {}", self.best_first_moves.len(), self.best_first_moves.join(", "));
        let _ = writeln!(text, "{LOONY_KEY}");
        text
    }
}

impl Answer for Summary {
    fn text(&self) -> String {
        format!("{}\n{}", describe(&self.board), self.body(""))
    }
}

#[derive(Debug, Serialize)]
struct SearchedMoveJson {
    #[serde(rename = "move")]
    m: String,
    score: i32,
}

/// The start and every first line by search (`solve --search`): no table
/// of every position is kept.
#[derive(Debug, Serialize)]
pub(super) struct Searched {
    game: &'static str,
    rows: u8,
    cols: u8,
    variant: &'static str,
    lines: u32,
    method: &'static str,
    value: i32,
    first_moves: Vec<SearchedMoveJson>,
    best_first_moves: Vec<String>,
    /// Positions visited by this run, over all threads.
    nodes: u64,
    seconds: f64,
    threads: usize,
    /// The file of bounds this run went on from and added to.
    record: String,
    /// Positions the record held when this run began.
    recorded_positions: usize,
    /// Positions visited and seconds spent by every run of the record,
    /// this one included.
    total_nodes: u64,
    total_seconds: f64,
    #[serde(skip)]
    board: Board,
    #[serde(skip)]
    start_scores: Vec<LineScore>,
}

impl Searched {
    pub(super) fn new(
        board: &Board,
        start: &SearchedStart,
        record: &std::path::Path,
        seconds: f64,
        threads: usize,
    ) -> Searched {
        let (recorded_positions, earlier_nodes, earlier_seconds) = start.recorded;
        let best = |score: i32| score == start.value;
        Searched {
            game: super::INFO.id,
            rows: board.rows(),
            cols: board.cols(),
            variant: board.variant().id(),
            lines: board.free_line_count(),
            method: "search",
            value: start.value,
            first_moves: start
                .first_moves
                .iter()
                .map(|m| SearchedMoveJson { m: m.line.to_string(), score: m.score })
                .collect(),
            best_first_moves: start.first_moves.iter().filter(|m| best(m.score)).map(|m| m.line.to_string()).collect(),
            nodes: start.nodes,
            seconds,
            threads,
            record: record.display().to_string(),
            recorded_positions,
            total_nodes: earlier_nodes + start.nodes,
            total_seconds: earlier_seconds + seconds,
            board: board.clone(),
            start_scores: start
                .first_moves
                .iter()
                .map(|m| LineScore { line: m.line, score: m.score, best: best(m.score), takes: 0, loony: None })
                .collect(),
        }
    }
}

impl Answer for Searched {
    fn text(&self) -> String {
        let mut text = format!("{}, by alpha-beta search (no table of every position kept)\n", describe(&self.board));
        let _ = writeln!(text, "{} undrawn lines; with best play from the start: {}", self.lines, outcome(self.value));
        text.push_str(&self.board.diagram(&self.board.start(), &self.start_scores));
        let _ =
            writeln!(text, "best first lines ({}): {}", self.best_first_moves.len(), self.best_first_moves.join(", "));
        let _ = writeln!(
            text,
            "{} positions searched in {:.2} s on {} threads",
            thousands(self.nodes),
            self.seconds,
            self.threads
        );
        if self.recorded_positions > 0 {
            let _ = writeln!(
                text,
                "going on from {} positions recorded in {}: {} positions in {:.2} s over every run",
                thousands(self.recorded_positions as u64),
                self.record,
                thousands(self.total_nodes),
                self.total_seconds
            );
        }
        text
    }
}

/// A solve: the summary, and the table kept (`solve`).
#[derive(Debug, Serialize)]
pub(super) struct Solved {
    #[serde(flatten)]
    pub summary: Summary,
    /// One of each class of symmetric quiet positions: the table's entries.
    pub representatives: u64,
    pub seconds: f64,
    /// The quiet table, which probes read.
    pub table: String,
    /// Its size on disk, compressed.
    pub table_bytes: u64,
    pub cached: bool,
    /// The full sweep's table, where `--sweep` asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_table: Option<String>,
}

impl Answer for Solved {
    fn text(&self) -> String {
        let how = if self.cached { "loaded from" } else { "solved and saved to" };
        let kept = format!(
            ", kept as {} classes of symmetric ones in {:.1} MB",
            thousands(self.representatives),
            self.table_bytes as f64 / 1e6
        );
        let sweep = self.sweep_table.as_ref().map(|path| format!("full sweep: {path}\n")).unwrap_or_default();
        format!(
            "{}, {how} {}\n{sweep}{}time: {:.2} s\n",
            describe(&self.summary.board),
            self.table,
            self.summary.body(&kept),
            self.seconds
        )
    }
}

#[derive(Debug, Serialize)]
struct LineJson {
    #[serde(rename = "move")]
    m: String,
    score: i32,
    best: bool,
    takes: usize,
    /// Who must make the next loony move after this line: `"A"` (Wilson's
    /// `v`), `"B"` (`^`), or null for neither; left out where the search
    /// scored the line, which does not know.
    #[serde(skip_serializing_if = "Option::is_none")]
    loony: Option<Option<&'static str>>,
    /// How good a line it is, as a player's line is marked.
    grade: Grade,
}

/// A position and every undrawn line scored (`probe`,
/// `GET /api/dots-and-boxes/probe`).
#[derive(Debug, Serialize)]
pub(super) struct Probe {
    rows: u8,
    cols: u8,
    variant: &'static str,
    /// Every drawn line, the variant's included.
    drawn: Vec<String>,
    /// Each box's owner row by row: `"A"`, `"B"` or null.
    owners: Vec<Option<String>>,
    to_move: String,
    score_so_far: i32,
    value: i32,
    over: bool,
    moves: Vec<LineJson>,
    /// `"search"` where the lines were scored by search, for a board too
    /// large to table; left out where they come from the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'static str>,
    /// The perfect player's line here, for a page.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
    /// For a diagram with loony marks: whether they are all ours.
    #[serde(skip_serializing_if = "Option::is_none")]
    diagram_marks_agree: Option<bool>,
    /// The diagram's marks that differ from ours.
    #[serde(skip)]
    differing: Vec<String>,
    #[serde(skip)]
    board: Board,
    #[serde(skip)]
    pos: Position,
    #[serde(skip)]
    scores: Vec<LineScore>,
}

impl Probe {
    /// `pos` on `board`, worth `value`, its lines scored; `loony` is the
    /// marks of the diagram it came from, if any.
    pub(super) fn new(
        board: &Board,
        pos: &Position,
        value: i32,
        scores: Vec<LineScore>,
        loony: &[(Line, Loony)],
        choice: Option<String>,
    ) -> Probe {
        let (rows, cols) = (board.rows(), board.cols());
        let drawn = (0..=2 * rows)
            .flat_map(|row| (0..=2 * cols).filter_map(move |col| Line::new(row, col)))
            .filter(|&line| board.is_drawn(pos.drawn(), line))
            .map(|line| line.to_string())
            .collect();
        // The diagram's own marks, where it has any, against ours.
        let differing: Vec<String> = scores
            .iter()
            .filter(|s| !loony.is_empty() && loony.iter().find(|l| l.0 == s.line).map(|l| l.1) != s.loony)
            .map(|s| format!("{} (ours {})", s.line, s.loony.map_or("none", Loony::symbol)))
            .collect();
        let sign = if pos.turn() == Player::A { 1 } else { -1 };
        let worths: Vec<Worth> = scores.iter().map(|s| Worth::of_score(sign * s.score, false)).collect();
        Probe {
            rows,
            cols,
            variant: board.variant().id(),
            drawn,
            owners: pos.owners().iter().map(|o| o.map(|p| p.to_string())).collect(),
            to_move: pos.turn().to_string(),
            score_so_far: pos.score_so_far(),
            value,
            over: board.is_over(pos),
            moves: scores
                .iter()
                .zip(Grade::all_of(&worths))
                .map(|(s, grade)| LineJson {
                    m: s.line.to_string(),
                    score: s.score,
                    best: s.best,
                    takes: s.takes,
                    loony: Some(mark(s.loony)),
                    grade,
                })
                .collect(),
            method: None,
            choice,
            diagram_marks_agree: (!loony.is_empty()).then_some(differing.is_empty()),
            differing,
            board: board.clone(),
            pos: pos.clone(),
            scores,
        }
    }
}

impl Probe {
    /// This probe, its lines scored by search: no loony marks are known.
    pub(super) fn searched(mut self) -> Probe {
        self.method = Some("search");
        for line in &mut self.moves {
            line.loony = None;
        }
        self
    }
}

impl Answer for Probe {
    fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} (scores are the final A - B if the line is drawn now; * marks the best)",
            describe(&self.board)
        );
        text.push_str(&self.board.diagram(&self.pos, &self.scores));
        let _ = writeln!(text, "{} to move; score so far {:+}", self.to_move, self.score_so_far);
        if self.over {
            let _ = writeln!(text, "the game is over: {}", outcome(self.value));
        } else {
            let best: Vec<String> = self.scores.iter().filter(|s| s.best).map(|s| s.line.to_string()).collect();
            let _ = writeln!(text, "with best play: {}; best lines: {}", outcome(self.value), best.join(", "));
            if self.method.is_some() {
                text.push_str(
                    "scored by alpha-beta search: the board is too large to table, and no loony marks are known\n",
                );
            } else {
                let _ = writeln!(text, "{LOONY_KEY}");
            }
        }
        match self.diagram_marks_agree {
            Some(true) => text.push_str("the diagram's loony marks agree with ours\n"),
            Some(false) => {
                let _ = writeln!(text, "the diagram's loony marks differ from ours at: {}", self.differing.join(", "));
            }
            None => {}
        }
        text
    }
}
