//! What Dodgem answers, as JSON and as text: a solve's figures, a probe,
//! the replay of desJardins' record.

use std::fmt::Write;

use serde::Serialize;
use solved_engine::{Distances, Tally, Value};

use super::{Dodgem, Move, Player, Position, RecordMove, Square, UnitFigures, UnitStages};
use crate::front::{Answer, MoveJson, TallyJson, graded, moves_table};
use crate::text::{columns, thousands};

/// What a board's values say of it as a whole (`summary`,
/// `GET /api/dodgem/summary`), the same whether they are kept as one table
/// or as unit files.
#[derive(Debug, Serialize)]
pub(super) struct Summary {
    game: &'static str,
    size: u8,
    variant: &'static str,
    /// Every position, either side to move, by result.
    #[serde(flatten)]
    all: TallyJson,
    start: Value,
    max_win_distance: Option<u16>,
    max_loss_distance: Option<u16>,
    /// A position won in the longest win, and one lost in the longest
    /// loss, Blue to move (see [`DodgemUnits::longest_examples`](super::DodgemUnits::longest_examples)).
    longest_win_position: Option<String>,
    longest_loss_position: Option<String>,
    /// Car placements (with at least one car) lost for either side to move.
    mutual_zugzwang: u64,
}

impl Summary {
    pub(super) fn new(
        game: &Dodgem,
        all: Tally,
        start: Value,
        figures: &UnitFigures,
        longest: [Option<Position>; 2],
    ) -> Summary {
        let [win, loss] = longest.map(|pos| pos.map(|pos| pos.to_string()));
        Summary {
            game: super::INFO.id,
            size: game.size(),
            variant: game.objective().id(),
            all: all.into(),
            start,
            max_win_distance: figures.longest_win.map(|p| p.0),
            max_loss_distance: figures.longest_loss.map(|p| p.0),
            longest_win_position: win,
            longest_loss_position: loss,
            mutual_zugzwang: figures.mutual_zugzwang,
        }
    }

    fn text(&self, reachable: Option<&TallyJson>) -> String {
        let mut text = String::new();
        text.push_str(&tallies(&self.all, reachable));
        let _ = writeln!(text, "start position: {} ({})", self.start, describe(self.start));
        let longest = |p: Option<u16>| p.map_or("none".into(), |p| format!("{p} plies"));
        let _ = writeln!(
            text,
            "longest win: {}, longest loss: {}",
            longest(self.max_win_distance),
            longest(self.max_loss_distance)
        );
        for (name, pos) in [("win", &self.longest_win_position), ("loss", &self.longest_loss_position)] {
            if let Some(pos) = pos {
                let _ = writeln!(text, "  a longest {name}: {pos}");
            }
        }
        let _ = writeln!(text, "placements lost for either side to move: {}", self.mutual_zugzwang);
        text
    }
}

impl Answer for Summary {
    fn text(&self) -> String {
        format!("Dodgem {0}x{0} ({1})\n{2}", self.size, self.variant, self.text(None))
    }
}

/// A solve: the summary, the positions reachable from the start, and where
/// the values are kept (`solve`).
#[derive(Debug, Serialize)]
pub(super) struct Solved {
    #[serde(flatten)]
    pub summary: Summary,
    pub reachable: TallyJson,
    /// Every position, either side to move, by result and distance.
    pub distances: Distances,
    /// For a board kept as unit files.
    #[serde(flatten)]
    pub units: Option<UnitsJson>,
    pub seconds: f64,
    /// The table, for a board kept as one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Whether the table was there already.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached: Option<bool>,
}

/// What a solve by unit files adds.
#[derive(Debug, Serialize)]
pub(super) struct UnitsJson {
    pub units: usize,
    /// Solved by this run, and found solved by an earlier one.
    pub solved_units: usize,
    pub resumed_units: usize,
    /// Solved by this run reading the units they depend on in passes, to
    /// stay within `--memory`.
    pub in_passes_units: usize,
    pub peak_unit_bytes: u64,
    pub stored_bytes: u64,
    pub dir: String,
    /// How long each stage of this run took: a stage resumed from an
    /// earlier run counts only what this run did.
    pub stage_seconds: UnitStages,
    /// The units this run solved, by size: what projects the time of a
    /// solve elsewhere.
    pub by_size: Vec<UnitSizeJson>,
    /// The process's peak resident memory, where the system reports it.
    pub peak_resident_bytes: Option<u64>,
}

/// The units of one size solved, and the wall time they took (see
/// [`SizeTime`](solved_engine::units::SizeTime)).
#[derive(Debug, Serialize)]
pub(super) struct UnitSizeJson {
    /// Each unit has fewer positions; the small units (below 2^24) are
    /// one class, solved several at once.
    pub below: u64,
    pub units: usize,
    pub positions: u64,
    pub seconds: f64,
}

impl From<&solved_engine::units::SizeTime> for UnitSizeJson {
    fn from(class: &solved_engine::units::SizeTime) -> UnitSizeJson {
        let solved_engine::units::SizeTime { below, units, positions, time } = *class;
        UnitSizeJson { below, units, positions, seconds: time.as_secs_f64() }
    }
}

impl Answer for Solved {
    fn text(&self) -> String {
        let mut text = String::new();
        let (size, variant) = (self.summary.size, self.summary.variant);
        match (&self.units, &self.table, self.cached) {
            (Some(units), _, _) => {
                let _ = writeln!(text, "Dodgem {size}x{size} ({variant}), units in {}", units.dir);
                let _ = write!(
                    text,
                    "units: {} solved now, {} found done, {} in all",
                    units.solved_units, units.resumed_units, units.units
                );
                // Said only when it happened: most solves fit their memory.
                if units.in_passes_units > 0 {
                    let _ = write!(text, "; {} read their dependencies in passes", units.in_passes_units);
                }
                text.push('\n');
            }
            (None, Some(path), cached) => {
                let how = if cached == Some(true) { "loaded from" } else { "solved and saved to" };
                let _ = writeln!(text, "Dodgem {size}x{size} ({variant}), {how} {path}");
            }
            (None, None, _) => {
                let _ = writeln!(text, "Dodgem {size}x{size} ({variant})");
            }
        }
        text.push_str(&self.summary.text(Some(&self.reachable)));
        let _ = writeln!(text, "{}", distances_text(&self.distances));
        if let Some(units) = &self.units {
            let values = self.summary.all.positions / 2;
            let ratio = values as f64 / units.stored_bytes.max(1) as f64;
            // A small board's files are mostly headers.
            let size = match ratio >= 1.0 {
                true => format!("{ratio:.1}x smaller than a byte a value"),
                false => "larger than a byte a value: headers outweigh so few".into(),
            };
            let stored = crate::text::bytes(units.stored_bytes);
            let _ = writeln!(text, "on disk: {stored} for {} values ({size})", thousands(values));
        }
        match &self.units {
            Some(UnitsJson { stage_seconds: UnitStages { units, distances, reachable }, .. }) => {
                let _ = writeln!(
                    text,
                    "time: {:.2} s (units {units:.2} s, distances {distances:.2} s, reachable {reachable:.2} s)",
                    self.seconds
                );
            }
            None => {
                let _ = writeln!(text, "time: {:.2} s", self.seconds);
            }
        }
        text
    }
}

/// One line on the distances: how many there are of each result, and
/// where the counts by distance are.
fn distances_text(distances: &Distances) -> String {
    let span = |counts: &std::collections::BTreeMap<u16, u64>| match (counts.keys().next(), counts.keys().next_back()) {
        (Some(first), Some(last)) => format!("{first} to {last} plies ({} distances)", counts.len()),
        _ => "none".into(),
    };
    format!("won in {}, lost in {} (--json counts each)", span(&distances.wins), span(&distances.losses))
}

/// Every position checked against its children by the plain rules
/// (`audit`): the proof that the stored values are the game's.
#[derive(Debug, Serialize)]
pub(super) struct Audited {
    pub game: &'static str,
    pub size: u8,
    pub variant: &'static str,
    /// `units` (read through the unit files) or `table`.
    pub by: &'static str,
    /// Positions checked, either side to move.
    pub checked: u64,
    pub disagreements: u64,
    /// The first few that disagree.
    pub examples: Vec<DisagreementJson>,
    /// Every position checked, by its stored result and distance.
    pub distances: Distances,
    /// This run's time: an audit read back from its record takes none.
    pub seconds: f64,
}

/// A position whose stored value its children contradict.
#[derive(Debug, Serialize)]
pub(super) struct DisagreementJson {
    pub position: String,
    pub stored: Value,
    pub recomputed: Value,
}

impl Answer for Audited {
    fn text(&self) -> String {
        let mut text = format!(
            "Dodgem {0}x{0} ({1}), {2}: {3} positions checked against their children (plain rules), {4} disagree; {5}\n",
            self.size,
            self.variant,
            if self.by == "units" { "unit files" } else { "one table" },
            thousands(self.checked),
            thousands(self.disagreements),
            crate::text::duration(self.seconds),
        );
        for d in &self.examples {
            let _ = writeln!(text, "  {}: stored {}, children say {}", d.position, d.stored, d.recomputed);
        }
        let _ = writeln!(text, "{}", distances_text(&self.distances));
        text
    }

    fn holds(&self) -> bool {
        self.disagreements == 0
    }
}

/// The table of positions by result: all of them, and those reachable
/// from the start.
fn tallies(all: &TallyJson, reachable: Option<&TallyJson>) -> String {
    let row = |label: &str, positions: u64, wins: u64, losses: u64, draws: u64| {
        vec![label.into(), thousands(positions), thousands(wins), thousands(losses), thousands(draws)]
    };
    let mut rows = vec![
        ["", "positions", "wins", "losses", "draws"].map(String::from).to_vec(),
        row("all (either side to move)", all.positions, all.wins, all.losses, all.draws),
    ];
    if let Some(r) = reachable {
        rows.push(row("reachable from the start", r.positions, r.wins, r.losses, r.draws));
    }
    columns(&rows)
}

/// A car on the board.
#[derive(Debug, Serialize)]
struct CarJson {
    player: &'static str,
    square: String,
}

/// A position's value and every move's (`probe`, `GET /api/dodgem/probe`).
#[derive(Debug, Serialize)]
pub(super) struct Probe {
    position: String,
    size: u8,
    to_move: &'static str,
    /// Every car, so that a page need not read the notation.
    cars: Vec<CarJson>,
    #[serde(flatten)]
    value: Value,
    over: bool,
    moves: Vec<MoveJson>,
    /// The computer's move here for a page, at the level asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
    #[serde(skip)]
    pos: Position,
    #[serde(skip)]
    objective: &'static str,
}

impl Probe {
    pub(super) fn new(
        game: &Dodgem,
        pos: &Position,
        value: Value,
        ranked: &[(Move, Value, Position)],
        choice: Option<String>,
    ) -> Probe {
        let moves = ranked
            .iter()
            .map(|(m, v, child)| {
                let to = match m.to {
                    super::Destination::Square(square) => square.to_string(),
                    super::Destination::Off => "off".into(),
                };
                MoveJson::new(m, Some(*v), child, Some(m.from.to_string()), to, None)
            })
            .collect();
        let moves = graded(moves);
        let cars = [Player::Blue, Player::Red]
            .into_iter()
            .flat_map(|player| {
                pos.cars(player).map(move |square| CarJson { player: player.name(), square: square.to_string() })
            })
            .collect();
        Probe {
            position: pos.to_string(),
            size: game.size(),
            to_move: pos.turn().name(),
            cars,
            value,
            over: game.is_over(pos),
            moves,
            choice,
            pos: *pos,
            objective: game.objective().id(),
        }
    }
}

impl Answer for Probe {
    fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "{}  (Dodgem {1}x{1}, {2})", self.position, self.size, self.objective);
        text.push_str(&board(&self.pos));
        let _ = writeln!(text, "{} to move: {} ({})", self.to_move, self.value, describe(self.value));
        if !self.moves.is_empty() {
            text.push_str(&moves_table(&self.moves));
        }
        text
    }
}

/// A move of desJardins' record, replayed.
#[derive(Debug, Serialize)]
pub(super) struct RecordMoveJson {
    ply: usize,
    written: String,
    ours: String,
    before: Option<String>,
    legal: Option<bool>,
    value_before: Option<Value>,
    value_after: Option<Value>,
    drawing_moves: usize,
    problems: Vec<String>,
}

pub(super) fn record_json(record: &[RecordMove]) -> Vec<RecordMoveJson> {
    record
        .iter()
        .map(|m| RecordMoveJson {
            ply: m.ply,
            written: m.written.clone(),
            ours: m.ours.clone(),
            before: m.before.map(|p| p.to_string()),
            legal: m.before.map(|_| m.legal_as_written),
            value_before: m.value_before,
            value_after: m.value_after,
            drawing_moves: m.drawing_moves,
            problems: m.problems.clone(),
        })
        .collect()
}

pub(super) fn record_text(record: &[RecordMove]) -> String {
    let mut text = String::from("desJardins' 4x4 record (his transposed notation, then ours), replayed:\n");
    let mut rows = vec![
        ["ply", "his", "ours", "value before", "move value", "drawing moves", "problems"].map(String::from).to_vec(),
    ];
    for m in record {
        let show = |v: Option<Value>| v.map_or("-".into(), |v| v.to_string());
        let problems = if m.problems.is_empty() { "none".into() } else { m.problems.join("; ") };
        rows.push(vec![
            m.ply.to_string(),
            m.written.clone(),
            m.ours.clone(),
            show(m.value_before),
            show(m.value_after),
            m.drawing_moves.to_string(),
            problems,
        ]);
    }
    text.push_str(&columns(&rows));
    text
}

pub(super) fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("the side to move wins in {d} plies"),
        Value::Loss(d) => format!("the side to move loses in {d} plies"),
        Value::Draw => "a draw with best play".into(),
    }
}

/// The board with coordinates, top rank first.
pub(super) fn board(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..pos.size()).rev() {
        out.push_str(&format!("  {} |", rank + 1));
        for file in 0..pos.size() {
            out.push_str(match pos.car_on(Square::new(file, rank)) {
                Some(Player::Blue) => " B",
                Some(Player::Red) => " R",
                None => " .",
            });
        }
        out.push('\n');
    }
    out.push_str("     ");
    for file in 0..pos.size() {
        out.push(' ');
        out.push(char::from(b'a' + file));
    }
    out.push('\n');
    out
}
