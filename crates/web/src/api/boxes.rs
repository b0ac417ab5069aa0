//! Dots and Boxes' endpoints.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_engine::Table;
use solved_games::dots_and_boxes::quiet::{QuietOutcomes, QuietTable};
use solved_games::dots_and_boxes::wilson::Loony;
use solved_games::dots_and_boxes::{self, Board, Line, Scorer};
use solved_games::registry::{Game, Operation, command_line};

use super::{BuildingJson, RawQuery, Shared, blocking, params};
use crate::error::ApiError;
use crate::state::Availability;

pub(super) fn routes() -> axum::Router<Shared> {
    Router::new().route("/probe", get(probe)).route("/summary", get(summary))
}

#[derive(Serialize)]
struct LineJson {
    #[serde(rename = "move")]
    m: String,
    score: i32,
    best: bool,
    takes: usize,
    /// Who must make the next loony move after this line: `"A"`, `"B"`, or
    /// null for neither.
    loony: Option<&'static str>,
}

#[derive(Serialize)]
struct ProbeJson {
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
    /// The perfect player's line here.
    choice: Option<String>,
}

/// The solve summary, as `solved solve dots-and-boxes --json` gives it.
#[derive(Serialize)]
struct SummaryJson {
    rows: u8,
    cols: u8,
    variant: &'static str,
    lines: u32,
    /// Every position: 2^lines.
    positions: u64,
    /// Those with no box of exactly three sides, which the table stores.
    quiet_positions: u64,
    value: i32,
    first_moves: Vec<FirstMoveJson>,
    best_first_moves: Vec<String>,
}

#[derive(Serialize)]
struct FirstMoveJson {
    #[serde(rename = "move")]
    m: String,
    score: i32,
    loony: Option<&'static str>,
    best_replies: usize,
}

/// A loony mark as the API gives it.
fn mark(loony: Option<Loony>) -> Option<&'static str> {
    loony.map(|l| match l {
        Loony::A => "A",
        Loony::B => "B",
    })
}

/// The board's quiet table, or the answer saying how far building it has
/// got. Blocks: call from a blocking thread.
fn table(state: &Shared, quiet: &QuietTable) -> Result<Result<Arc<Table<QuietOutcomes>>, Response>, ApiError> {
    let game = Game::DotsAndBoxes(quiet.board().clone());
    Ok(match state.table(quiet, || command_line(Operation::Solve, &game))? {
        Availability::Ready(table) => Ok(table),
        Availability::Building { phase, step, done } => {
            Err(BuildingJson::new(&game, phase, step, done).with_positions(quiet.quiet().count()).into_response())
        }
    })
}

/// `GET /api/dots-and-boxes/probe?rows=R&cols=C&variant=V&moves=ab,ba`:
/// the position after those lines, every undrawn line scored as
/// `solved probe dots-and-boxes --json`, and the computer's line. A table
/// too large to build at once answers 202 with its progress until it is
/// ready.
async fn probe(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &dots_and_boxes::INFO, Operation::Probe)?;
    let dots_and_boxes::ProbeRequest { board, position: pos, .. } = dots_and_boxes::probe_request(&params)?;
    blocking(move || {
        let quiet = QuietTable::new(&board);
        let table = match table(&state, &quiet)? {
            Ok(table) => table,
            Err(building) => return Ok(building),
        };
        let scorer = Scorer::new(&quiet, &table);
        let internal = |e: solved_engine::TableError| ApiError::internal(&e);
        let (rows, cols) = (board.rows(), board.cols());
        let over = board.is_over(&pos);
        let choice =
            if over { None } else { Some(scorer.choose(&pos, &mut rand::rng()).map_err(internal)?.to_string()) };
        let drawn = (0..=2 * rows)
            .flat_map(|row| (0..=2 * cols).filter_map(move |col| Line::new(row, col)))
            .filter(|&line| board.is_drawn(pos.drawn(), line))
            .map(|line| line.to_string())
            .collect();
        let moves = scorer
            .line_scores(&pos)
            .map_err(internal)?
            .into_iter()
            .map(|s| LineJson {
                m: s.line.to_string(),
                score: s.score,
                best: s.best,
                takes: s.takes,
                loony: mark(s.loony),
            })
            .collect();
        Ok(Json(ProbeJson {
            rows,
            cols,
            variant: board.variant().id(),
            drawn,
            owners: pos.owners().iter().map(|o| o.map(|p| p.to_string())).collect(),
            to_move: pos.turn().to_string(),
            score_so_far: pos.score_so_far(),
            value: scorer.value(&pos).map_err(internal)?,
            over,
            moves,
            choice,
        })
        .into_response())
    })
    .await
}

/// `GET /api/dots-and-boxes/summary?rows=R&cols=C&variant=V`: the value of
/// the empty board and of every first line. 202 while the table is built,
/// as for a probe.
async fn summary(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &dots_and_boxes::INFO, Operation::Solve)?;
    let board = Board::from_params(&params)?;
    blocking(move || {
        let quiet = QuietTable::new(&board);
        let table = match table(&state, &quiet)? {
            Ok(table) => table,
            Err(building) => return Ok(building),
        };
        let summary = Scorer::new(&quiet, &table).summary().map_err(|e| ApiError::internal(&e))?;
        Ok(Json(SummaryJson {
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
        })
        .into_response())
    })
    .await
}
