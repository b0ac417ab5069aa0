//! What Tic-Tac-Chec answers, as JSON and as text.

use std::fmt::Write;

use serde::Serialize;
use solved_engine::{Plies, Tally, Value};

use super::{
    Color, Direction, DrawingLine, Move, OPENING_POSITIONS, PhaseSummary, Piece, Position, ThreatCensus, Transitions,
    VariantComparison, square_name, squares,
};
use crate::front::{Answer, MoveJson, TallyJson, graded, moves_table};
use crate::text::{columns, thousands};

/// The table's totals from its header, and the empty board's value
/// (`summary`, `GET /api/tic-tac-chec/summary`).
#[derive(Debug, Serialize)]
pub(super) struct Summary {
    game: &'static str,
    pawn: &'static str,
    /// Post-opening and opening positions together, by result.
    #[serde(flatten)]
    all: TallyJson,
    /// The value of the empty board.
    start: Value,
}

impl Summary {
    pub(super) fn new(pawn: &'static str, tally: Tally, start: Value) -> Summary {
        Summary { game: super::INFO.id, pawn, all: tally.into(), start }
    }
}

impl Answer for Summary {
    fn text(&self) -> String {
        format!(
            "Tic-Tac-Chec ({} pawns): {} positions, {} won for the side to move, {} lost, {} drawn\nempty board: {}\n",
            self.pawn,
            thousands(self.all.positions),
            thousands(self.all.wins),
            thousands(self.all.losses),
            thousands(self.all.draws),
            self.start
        )
    }
}

#[derive(Debug, Serialize)]
struct PhaseJson {
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    max_win_distance: Option<u16>,
    max_loss_distance: Option<u16>,
}

impl From<&PhaseSummary> for PhaseJson {
    fn from(phase: &PhaseSummary) -> PhaseJson {
        PhaseJson {
            positions: phase.tally.positions(),
            wins: phase.tally.wins,
            losses: phase.tally.losses,
            draws: phase.tally.draws,
            max_win_distance: phase.longest_win.map(|p| p.0),
            max_loss_distance: phase.longest_loss.map(|p| p.0),
        }
    }
}

#[derive(Debug, Serialize)]
struct PlyJson {
    ply: usize,
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
}

#[derive(Debug, Serialize)]
struct HistogramJson {
    distance: usize,
    result: &'static str,
    post_opening: u64,
    opening: u64,
}

/// A solve: the summary, phase by phase and distance by distance
/// (`solve`).
#[derive(Debug, Serialize)]
pub(super) struct Solved {
    #[serde(flatten)]
    summary: Summary,
    post_opening: PhaseJson,
    opening: PhaseJson,
    opening_plies: Vec<PlyJson>,
    distance_histogram: Vec<HistogramJson>,
    seconds: f64,
    peak_memory_bytes: Option<u64>,
    table: String,
    cached: bool,
    #[serde(skip)]
    phases: Vec<(String, PhaseSummary)>,
}

impl Solved {
    pub(super) fn new(summary: Summary, figures: &super::Summary, seconds: f64, table: String, cached: bool) -> Solved {
        let mut histogram = Vec::new();
        for (distance, counts) in figures.histogram.iter().enumerate() {
            for (result, post, opening) in [("win", counts[0], counts[2]), ("loss", counts[1], counts[3])] {
                if post + opening > 0 {
                    histogram.push(HistogramJson { distance, result, post_opening: post, opening });
                }
            }
        }
        let mut phases = vec![
            ("after the opening (White to move)".to_string(), figures.post_opening),
            ("the opening (plies 0-5)".to_string(), figures.opening),
        ];
        phases.extend(figures.opening_plies.iter().enumerate().map(|(ply, t)| (format!("  ply {ply}"), *t)));
        Solved {
            summary,
            post_opening: (&figures.post_opening).into(),
            opening: (&figures.opening).into(),
            opening_plies: figures
                .opening_plies
                .iter()
                .enumerate()
                .map(|(ply, t)| PlyJson {
                    ply,
                    positions: t.tally.positions(),
                    wins: t.tally.wins,
                    losses: t.tally.losses,
                    draws: t.tally.draws,
                })
                .collect(),
            distance_histogram: histogram,
            seconds,
            peak_memory_bytes: solved_engine::machine::peak_memory_bytes(),
            table,
            cached,
            phases,
        }
    }
}

impl Answer for Solved {
    fn text(&self) -> String {
        let how = if self.cached { "loaded from" } else { "solved and saved to" };
        let mut text = String::new();
        let _ = writeln!(text, "Tic-Tac-Chec ({} pawns), {how} {}", self.summary.pawn, self.table);
        let mut rows = vec![
            ["", "positions", "wins", "losses", "draws", "longest win", "longest loss"].map(String::from).to_vec(),
        ];
        let longest = |d: Option<Plies>| d.map_or("-".into(), |d| d.to_string());
        for (name, t) in &self.phases {
            rows.push(vec![
                name.clone(),
                thousands(t.tally.positions()),
                thousands(t.tally.wins),
                thousands(t.tally.losses),
                thousands(t.tally.draws),
                longest(t.longest_win),
                longest(t.longest_loss),
            ]);
        }
        text.push_str(&columns(&rows));
        let _ = writeln!(text, "empty board: {}", self.summary.start);
        let _ = writeln!(text, "time: {:.1} s", self.seconds);
        text
    }
}

/// A piece on the board.
#[derive(Debug, Serialize)]
struct PieceJson {
    color: String,
    role: char,
    square: String,
}

/// Each side's pieces in hand and the way its pawn faces.
#[derive(Debug, Serialize)]
struct SideJson {
    hand: Vec<char>,
    pawn: &'static str,
}

/// Where to get the values when there is no table yet.
#[derive(Debug, Serialize)]
pub(super) struct MissingJson {
    pub message: String,
    pub command: String,
    pub takes: &'static str,
}

/// A position with every move, ranked once the table is built
/// (`probe`, `GET /api/tic-tac-chec/probe`).
#[derive(Debug, Serialize)]
pub(super) struct Probe {
    position: String,
    pawn: &'static str,
    to_move: String,
    opening: bool,
    /// The pieces on the board, and each side's hand and pawn direction,
    /// so that a page need not read the notation.
    pieces: Vec<PieceJson>,
    white: SideJson,
    black: SideJson,
    /// Absent until the table is built.
    #[serde(flatten)]
    value: Option<Value>,
    over: bool,
    /// The four squares of the line that won, once the game is over.
    winning_line: Vec<String>,
    /// Best first once the table is built; in move order before.
    moves: Vec<MoveJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<MissingJson>,
    /// The computer's move here for a page, at the level asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
}

impl Probe {
    pub(super) fn new(
        pos: &Position,
        pawn: &'static str,
        value: Option<Value>,
        moves: Vec<(Move, Option<Value>, Position)>,
        missing: Option<MissingJson>,
        choice: Option<String>,
    ) -> Probe {
        let pieces = (0..8)
            .map(Piece::from_slot)
            .filter_map(|piece| {
                let square = pos.square_of(piece)?;
                Some(PieceJson {
                    color: piece.color.to_string(),
                    role: piece.role.letter(),
                    square: square_name(square),
                })
            })
            .collect();
        let side = |color: Color| {
            let hand = (0..8)
                .map(Piece::from_slot)
                .filter(|piece| piece.color == color && pos.square_of(*piece).is_none())
                .map(|piece| piece.role.letter())
                .collect();
            let pawn = match pos.direction(color) {
                Direction::Up => "up",
                Direction::Down => "down",
            };
            SideJson { hand, pawn }
        };
        let moves = moves
            .into_iter()
            .map(|(m, value, child)| match m {
                Move::Place { role, to } => MoveJson::new(m, value, child, None, square_name(to), Some(role.letter())),
                Move::Step { from, to } => {
                    MoveJson::new(m, value, child, Some(square_name(from)), square_name(to), None)
                }
            })
            .collect();
        let moves = graded(moves);
        Probe {
            position: pos.to_string(),
            pawn,
            to_move: pos.turn().to_string(),
            opening: pos.is_opening(),
            pieces,
            white: side(Color::White),
            black: side(Color::Black),
            value,
            over: pos.is_over(),
            winning_line: pos.winning_line().map_or_else(Vec::new, |line| squares(line).map(square_name).collect()),
            moves,
            missing,
            choice,
        }
    }
}

impl Answer for Probe {
    fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "{}  (Tic-Tac-Chec, {} pawns)", self.position, self.pawn);
        match (self.value, &self.missing) {
            (Some(value), _) => {
                let _ = writeln!(text, "{} to move: {value}", self.to_move);
            }
            (None, Some(missing)) => {
                let _ = writeln!(text, "{} to move; {} (`{}`)", self.to_move, missing.message, missing.command);
            }
            (None, None) => {}
        }
        if self.moves.is_empty() {
            text.push_str("the game is over\n");
        } else {
            text.push_str(&moves_table(&self.moves));
        }
        text
    }
}

/// The post-opening domain counted (`census`).
#[derive(Debug, Serialize)]
pub(super) struct Census {
    pub game: &'static str,
    pub pawn: &'static str,
    pub positions: u64,
    pub edges: u64,
    pub terminal: u64,
    pub no_move: u64,
    pub max_moves: u32,
    pub opening_positions: u64,
    pub seconds: f64,
}

impl Answer for Census {
    fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "Tic-Tac-Chec, pawn rule {}: the post-opening domain (White to move)", self.pawn);
        let _ = writeln!(text, "positions: {}", thousands(self.positions));
        let _ = writeln!(text, "successor edges: {}", thousands(self.edges));
        let _ = writeln!(text, "terminal positions (a line complete): {}", thousands(self.terminal));
        let _ = writeln!(text, "non-terminal positions with no legal move: {}", thousands(self.no_move));
        let _ = writeln!(text, "most legal moves in one position: {}", self.max_moves);
        let _ = writeln!(text, "opening positions (plies 0 to 5): {}", thousands(OPENING_POSITIONS));
        let _ = writeln!(text, "time: {:.1} s", self.seconds);
        text
    }
}

/// Every solved value checked against its children (`audit`).
#[derive(Debug, Serialize)]
pub(super) struct Audited {
    pub game: &'static str,
    pub pawn: &'static str,
    pub checked: u64,
    pub disagreements: u64,
    pub examples: Vec<String>,
    pub seconds: f64,
}

impl Answer for Audited {
    fn text(&self) -> String {
        let mut text = format!(
            "Tic-Tac-Chec ({} pawns): {} positions checked against their children (plain rules), {} disagree; {:.0} s\n",
            self.pawn,
            thousands(self.checked),
            thousands(self.disagreements),
            self.seconds
        );
        for example in &self.examples {
            let _ = writeln!(text, "  {example}");
        }
        text
    }

    fn holds(&self) -> bool {
        self.disagreements == 0
    }
}

/// The compact copy made and checked (`compact`).
#[derive(Debug, Serialize)]
pub(super) struct Compacted {
    pub game: &'static str,
    pub pawn: &'static str,
    pub positions: u64,
    pub decisive: u64,
    pub table_bytes: u64,
    pub compact_bytes: u64,
    pub verified: bool,
    pub seconds: f64,
    pub path: String,
}

impl Answer for Compacted {
    fn text(&self) -> String {
        format!(
            "compact copy: {} ({:.0} MiB, from {:.0} MiB), {} decisive positions, every entry checked against the table; {:.1} s\n",
            self.path,
            self.compact_bytes as f64 / (1 << 20) as f64,
            self.table_bytes as f64 / (1 << 20) as f64,
            thousands(self.decisive),
            self.seconds
        )
    }
}

#[derive(Debug, Serialize)]
struct LineMoveJson {
    ply: usize,
    #[serde(rename = "move")]
    m: String,
    position: String,
}

#[derive(Debug, Serialize)]
pub(super) struct DrawingLineJson {
    moves: Vec<LineMoveJson>,
    /// The ply after which the repeated position first stood.
    cycle_start: usize,
}

impl From<&DrawingLine> for DrawingLineJson {
    fn from(line: &DrawingLine) -> DrawingLineJson {
        DrawingLineJson {
            moves: line
                .moves
                .iter()
                .enumerate()
                .map(|(i, (m, pos))| LineMoveJson { ply: i + 1, m: m.to_string(), position: pos.to_string() })
                .collect(),
            cycle_start: line.cycle_start,
        }
    }
}

#[derive(Debug, Serialize)]
struct ReplyCountJson {
    replies: usize,
    positions: u64,
}

#[derive(Debug, Serialize)]
pub(super) struct ThreatJson {
    positions: u64,
    mover_can_win_at_once: u64,
    opponent_could_win_at_once: u64,
    /// Drawn positions threatened only by the opponent, by how many replies
    /// keep the draw.
    drawing_replies: Vec<ReplyCountJson>,
}

impl From<&ThreatCensus> for ThreatJson {
    fn from(census: &ThreatCensus) -> ThreatJson {
        ThreatJson {
            positions: census.positions,
            mover_can_win_at_once: census.mover_threat,
            opponent_could_win_at_once: census.opponent_threat,
            drawing_replies: census
                .drawing_replies
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(replies, &positions)| ReplyCountJson { replies, positions })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
struct ResultsJson {
    win: u64,
    loss: u64,
    draw: u64,
}

/// How one phase's results move from the travel rule (the field) to the
/// outbound rule (the field's field).
#[derive(Debug, Serialize)]
struct TransitionsJson {
    win: ResultsJson,
    loss: ResultsJson,
    draw: ResultsJson,
    /// Won or lost under both rules, at another distance.
    distance_only: u64,
}

impl From<Transitions> for TransitionsJson {
    fn from(t: Transitions) -> TransitionsJson {
        let row = |r: [u64; 3]| ResultsJson { win: r[0], loss: r[1], draw: r[2] };
        TransitionsJson {
            win: row(t.counts[0]),
            loss: row(t.counts[1]),
            draw: row(t.counts[2]),
            distance_only: t.distance_only,
        }
    }
}

#[derive(Debug, Serialize)]
struct VariantExampleJson {
    position: String,
    travel: Value,
    outbound: Value,
}

#[derive(Debug, Serialize)]
pub(super) struct VariantsJson {
    positions: u64,
    positions_with_more_moves_under_travel: u64,
    extra_moves_under_travel: u64,
    positions_with_different_values: u64,
    /// Results after the opening: `post_opening.win.draw` positions are won
    /// under the travel rule and drawn under the outbound one.
    post_opening: TransitionsJson,
    opening: TransitionsJson,
    examples: Vec<VariantExampleJson>,
}

impl From<&VariantComparison> for VariantsJson {
    fn from(comparison: &VariantComparison) -> VariantsJson {
        VariantsJson {
            positions: comparison.positions,
            positions_with_more_moves_under_travel: comparison.positions_with_more_moves,
            extra_moves_under_travel: comparison.extra_moves,
            positions_with_different_values: comparison.different_values,
            post_opening: comparison.post_opening.into(),
            opening: comparison.opening.into(),
            examples: comparison
                .examples
                .iter()
                .map(|(pos, a, b)| VariantExampleJson { position: pos.to_string(), travel: *a, outbound: *b })
                .collect(),
        }
    }
}

/// Reports on the solved game (`report`).
#[derive(Debug, Serialize)]
pub(super) struct Report {
    pub game: &'static str,
    pub pawn: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing_line: Option<DrawingLineJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threats: Option<ThreatJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsJson>,
}

impl Answer for Report {
    fn text(&self) -> String {
        let mut text = String::new();
        if let Some(line) = &self.drawing_line {
            text.push_str(
                "A drawing line from the empty board (always the first drawing move), until a position comes round:\n",
            );
            for m in &line.moves {
                let _ = writeln!(text, "  {:>3}. {:<6} {}", m.ply, m.m, m.position);
            }
            let _ = writeln!(text, "  the position after ply {} comes round again", line.cycle_start);
        }
        if let Some(t) = &self.threats {
            let _ = writeln!(
                text,
                "Threats, over {} positions after the opening without a complete line:",
                thousands(t.positions)
            );
            let _ = writeln!(
                text,
                "  the side to move can complete a line at once: {}",
                thousands(t.mover_can_win_at_once)
            );
            let _ =
                writeln!(text, "  the other side could, were it its turn: {}", thousands(t.opponent_could_win_at_once));
            for r in &t.drawing_replies {
                let _ = writeln!(
                    text,
                    "  drawn, threatened, with {} drawing replies: {}",
                    r.replies,
                    thousands(r.positions)
                );
            }
        }
        if let Some(v) = &self.variants {
            let _ = writeln!(text, "Travel against outbound pawns, over {} positions:", thousands(v.positions));
            let _ = writeln!(
                text,
                "  {} positions have more moves under travel ({} extra moves); {} have another value",
                thousands(v.positions_with_more_moves_under_travel),
                thousands(v.extra_moves_under_travel),
                thousands(v.positions_with_different_values)
            );
            for (phase, transitions) in [("after the opening", &v.post_opening), ("in the opening", &v.opening)] {
                let _ = writeln!(text, "  results {phase}, travel (rows) to outbound (columns), for the side to move:");
                text.push_str(&transitions_table(transitions));
            }
            for e in &v.examples {
                let _ = writeln!(text, "  {}: travel {}, outbound {}", e.position, e.travel, e.outbound);
            }
        }
        text
    }
}

/// One phase's transitions as a table: travel's results down, outbound's
/// across, then the positions whose distance alone changed.
fn transitions_table(t: &TransitionsJson) -> String {
    let mut rows = vec![["travel \\ outbound", "win", "loss", "draw"].map(String::from).to_vec()];
    for (name, row) in [("win", &t.win), ("loss", &t.loss), ("draw", &t.draw)] {
        rows.push(vec![name.into(), thousands(row.win), thousands(row.loss), thousands(row.draw)]);
    }
    let mut text: String = columns(&rows).lines().map(|line| format!("    {line}\n")).collect();
    text.push_str(&format!("    the same result at another distance: {}\n", thousands(t.distance_only)));
    text
}
