//! The shapes of `--json` output.

use std::fmt::Display;

use serde::Serialize;
use solved_engine::{Tally, Value};

#[derive(Debug, Serialize)]
pub struct TallyJson {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl From<Tally> for TallyJson {
    fn from(tally: Tally) -> TallyJson {
        TallyJson { positions: tally.positions(), wins: tally.wins, losses: tally.losses, draws: tally.draws }
    }
}

#[derive(Debug, Serialize)]
pub struct DodgemSolveJson {
    pub game: &'static str,
    pub size: u8,
    pub variant: &'static str,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub reachable: TallyJson,
    pub start: Value,
    pub max_win_distance: Option<u16>,
    pub max_loss_distance: Option<u16>,
    pub mutual_zugzwang: u64,
    pub seconds: f64,
    pub table: String,
    pub cached: bool,
}

/// A solve of Dodgem by unit files.
#[derive(Debug, Serialize)]
pub struct DodgemUnitsJson {
    pub game: &'static str,
    pub size: u8,
    pub variant: &'static str,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub reachable: TallyJson,
    pub start: Value,
    pub max_win_distance: Option<u16>,
    pub max_loss_distance: Option<u16>,
    pub mutual_zugzwang: u64,
    pub units: usize,
    pub solved_units: usize,
    pub resumed_units: usize,
    pub peak_unit_bytes: u64,
    pub stored_bytes: u64,
    pub seconds: f64,
    pub dir: String,
}

/// A probe of a game whose positions have a value: the position, whose
/// turn it is, its value and every move ranked.
#[derive(Debug, Serialize)]
pub struct ProbeJson {
    pub position: String,
    pub to_move: String,
    #[serde(flatten)]
    pub value: Value,
    pub moves: Vec<MoveJson>,
}

impl ProbeJson {
    pub fn new<M: Display, P: Display>(
        position: &impl Display,
        to_move: &impl Display,
        value: Value,
        ranked: &[(M, Value, P)],
    ) -> ProbeJson {
        ProbeJson {
            position: position.to_string(),
            to_move: to_move.to_string(),
            value,
            moves: ranked
                .iter()
                .map(|(m, v, child)| MoveJson { m: m.to_string(), value: *v, position: child.to_string() })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct MoveJson {
    #[serde(rename = "move")]
    pub m: String,
    #[serde(flatten)]
    pub value: Value,
    pub position: String,
}

#[derive(Debug, Serialize)]
pub struct ClaimJson {
    pub id: String,
    pub claim: String,
    pub source: String,
    pub published: String,
    pub ours: String,
    pub agrees: bool,
    /// Set when the published item is shown to be wrong.
    pub erratum: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct RecordMoveJson {
    pub ply: usize,
    pub written: String,
    pub ours: String,
    pub before: Option<String>,
    pub legal: Option<bool>,
    pub value_before: Option<Value>,
    pub value_after: Option<Value>,
    pub drawing_moves: usize,
    pub problems: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct VerifyJson {
    pub game: &'static str,
    pub claims: Vec<ClaimJson>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub record: Vec<RecordMoveJson>,
    pub all_agree: bool,
}

#[derive(Debug, Serialize, serde::Deserialize)]
pub struct BenchRunJson {
    pub threads: usize,
    pub positions: u64,
    pub seconds: f64,
    pub peak_memory_bytes: Option<u64>,
    /// How long each stage of the solve took.
    pub stages: Vec<StageJson>,
}

#[derive(Debug, Serialize, serde::Deserialize)]
pub struct StageJson {
    pub stage: String,
    pub seconds: f64,
}

#[derive(Debug, Serialize)]
pub struct BenchJson {
    pub game: &'static str,
    pub size: String,
    pub variant: String,
    pub runs: Vec<BenchRunJson>,
    /// The executable timed alternately with this one, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub baseline_runs: Vec<BenchRunJson>,
    /// Each thread count's runs in brief.
    pub summary: Vec<BenchSummaryJson>,
}

#[derive(Debug, Serialize)]
pub struct BenchSummaryJson {
    pub threads: usize,
    pub runs: usize,
    pub fastest_seconds: f64,
    pub median_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_median_seconds: Option<f64>,
    /// The median over the runs of each one's time over the baseline's
    /// run right after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_ratio: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct BoxesFirstMoveJson {
    #[serde(rename = "move")]
    pub m: String,
    pub score: i32,
    /// Who must make the next loony move after this line: `"A"`, `"B"`, or
    /// null for neither.
    pub loony: Option<&'static str>,
    pub best_replies: usize,
}

#[derive(Debug, Serialize)]
pub struct BoxesSolveJson {
    pub game: &'static str,
    pub rows: u8,
    pub cols: u8,
    pub variant: &'static str,
    pub lines: u32,
    /// Every position of the board: 2^lines.
    pub positions: u64,
    /// Positions with no box of exactly three sides: what the table stores.
    pub quiet_positions: u64,
    /// One of each class of symmetric quiet positions: the table's entries.
    pub representatives: u64,
    pub value: i32,
    pub first_moves: Vec<BoxesFirstMoveJson>,
    pub best_first_moves: Vec<String>,
    pub seconds: f64,
    /// The quiet table, which probes read.
    pub table: String,
    /// Its size on disk, compressed.
    pub table_bytes: u64,
    pub cached: bool,
}

#[derive(Debug, Serialize)]
pub struct BoxesLineJson {
    #[serde(rename = "move")]
    pub m: String,
    pub score: i32,
    pub best: bool,
    /// Who must make the next loony move after this line: `"A"` (Wilson's
    /// `v`), `"B"` (`^`), or null for neither.
    pub loony: Option<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct BoxesProbeJson {
    pub to_move: String,
    pub score_so_far: i32,
    pub value: i32,
    pub moves: Vec<BoxesLineJson>,
    /// For a diagram with loony marks: whether they are all ours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagram_marks_agree: Option<bool>,
}

/// An exact rational with its decimal, or infinity.
#[derive(Debug, Serialize)]
pub struct ExactJson {
    pub exact: Option<String>,
    pub decimal: Option<String>,
    pub infinite: bool,
}

#[derive(Debug, Serialize)]
pub struct SnakesDistributionJson {
    pub median: Option<u32>,
    pub mode: Option<u32>,
    pub p90: Option<u32>,
    pub p_min: Option<f64>,
    pub p_min_exact: Option<String>,
    /// The chance the game is still going after the last turn followed.
    pub tail: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmf: Option<Vec<f64>>,
}

#[derive(Debug, Serialize)]
pub struct SnakesSquareJson {
    pub square: u32,
    pub expected_turns: ExactJson,
}

#[derive(Debug, Serialize)]
pub struct SnakesPlayerJson {
    pub player: usize,
    pub chance: f64,
}

#[derive(Debug, Serialize)]
pub struct SnakesSolveJson {
    pub board: String,
    pub goal: u32,
    pub numbering: &'static str,
    pub overshoot: &'static str,
    pub min_throws: Option<usize>,
    pub rolls: Option<Vec<u32>>,
    pub squares: Option<Vec<u32>>,
    pub expected_turns: ExactJson,
    pub distribution: SnakesDistributionJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_square: Option<Vec<SnakesSquareJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<SnakesPlayerJson>>,
    pub seconds: f64,
}

#[derive(Debug, Serialize)]
pub struct SnakesBenchCaseJson {
    pub board: String,
    pub median_seconds: f64,
    pub fastest_seconds: f64,
    pub numerator_digits: usize,
    pub expected_turns: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SnakesBenchJson {
    pub runs: u32,
    pub cases: Vec<SnakesBenchCaseJson>,
}

#[derive(Debug, Serialize)]
pub struct CensusJson {
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

#[derive(Debug, Serialize)]
pub struct PhaseJson {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win_distance: Option<u16>,
    pub max_loss_distance: Option<u16>,
}

#[derive(Debug, Serialize)]
pub struct PlyJson {
    pub ply: usize,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

#[derive(Debug, Serialize)]
pub struct HistogramJson {
    pub distance: usize,
    pub result: &'static str,
    pub post_opening: u64,
    pub opening: u64,
}

#[derive(Debug, Serialize)]
pub struct ChecSolveJson {
    pub game: &'static str,
    pub pawn: &'static str,
    pub post_opening: PhaseJson,
    pub opening: PhaseJson,
    pub opening_plies: Vec<PlyJson>,
    pub distance_histogram: Vec<HistogramJson>,
    pub start: Value,
    pub seconds: f64,
    pub peak_memory_bytes: Option<u64>,
    pub table: String,
    pub cached: bool,
}

#[derive(Debug, Serialize)]
pub struct AuditJson {
    pub game: &'static str,
    pub pawn: &'static str,
    pub checked: u64,
    pub disagreements: u64,
    pub examples: Vec<String>,
    pub seconds: f64,
}

#[derive(Debug, Serialize)]
pub struct CompactJson {
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

#[derive(Debug, Serialize)]
pub struct LineMoveJson {
    pub ply: usize,
    #[serde(rename = "move")]
    pub m: String,
    pub position: String,
}

#[derive(Debug, Serialize)]
pub struct DrawingLineJson {
    pub moves: Vec<LineMoveJson>,
    /// The ply after which the repeated position first stood.
    pub cycle_start: usize,
}

#[derive(Debug, Serialize)]
pub struct ThreatJson {
    pub positions: u64,
    pub mover_can_win_at_once: u64,
    pub opponent_could_win_at_once: u64,
    /// Drawn positions threatened only by the opponent, by how many replies keep the draw.
    pub drawing_replies: Vec<ReplyCountJson>,
}

#[derive(Debug, Serialize)]
pub struct ReplyCountJson {
    pub replies: usize,
    pub positions: u64,
}

#[derive(Debug, Serialize)]
pub struct VariantsJson {
    pub positions: u64,
    pub positions_with_more_moves_under_travel: u64,
    pub extra_moves_under_travel: u64,
    pub positions_with_different_values: u64,
    /// Results after the opening: `post_opening.win.draw` positions are won
    /// under the travel rule and drawn under the outbound one.
    pub post_opening: TransitionsJson,
    pub opening: TransitionsJson,
    pub examples: Vec<VariantExampleJson>,
}

/// How one phase's results move from the travel rule (the field) to the
/// outbound rule (the field's field).
#[derive(Debug, Serialize)]
pub struct TransitionsJson {
    pub win: ResultsJson,
    pub loss: ResultsJson,
    pub draw: ResultsJson,
    /// Won or lost under both rules, at another distance.
    pub distance_only: u64,
}

#[derive(Debug, Serialize)]
pub struct ResultsJson {
    pub win: u64,
    pub loss: u64,
    pub draw: u64,
}

impl From<solved_games::tic_tac_chec::Transitions> for TransitionsJson {
    fn from(t: solved_games::tic_tac_chec::Transitions) -> TransitionsJson {
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
pub struct VariantExampleJson {
    pub position: String,
    pub travel: Value,
    pub outbound: Value,
}

#[derive(Debug, Serialize)]
pub struct ReportJson {
    pub game: &'static str,
    pub pawn: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing_line: Option<DrawingLineJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threats: Option<ThreatJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variants: Option<VariantsJson>,
}
