//! Snakes and Ladders' endpoints.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use num_rational::BigRational;
use serde::Serialize;
use solved_games::registry::Operation;
use solved_games::snakes::{self, Board, analyse, approximate, decimal, fraction};

use super::{RawQuery, Shared, blocking, params};
use crate::error::ApiError;

pub(super) fn routes() -> axum::Router<Shared> {
    Router::new().route("/boards", get(boards)).route("/analyse", get(analyse_board))
}

/// The largest goal analysed here: keeps a request under a second.
const MAX_WEB_GOAL: u64 = 400;
/// Digits after the point in the expectation's decimal.
const DIGITS: usize = 12;
/// The distribution is sent until this much of the chance is covered.
const PMF_COVERAGE: f64 = 0.999;

#[derive(Serialize)]
struct ExactJson {
    exact: Option<String>,
    decimal: Option<String>,
    approximate: Option<f64>,
    infinite: bool,
}

impl ExactJson {
    fn new(value: Option<&BigRational>) -> ExactJson {
        ExactJson {
            exact: value.map(fraction),
            decimal: value.map(|v| decimal(v, DIGITS)),
            approximate: value.map(approximate),
            infinite: value.is_none(),
        }
    }
}

#[derive(Serialize)]
struct DistributionJson {
    median: Option<u32>,
    mode: Option<u32>,
    p90: Option<u32>,
    p_min_exact: Option<String>,
    /// `pmf[t - 1]`: the chance the game ends on turn `t`, until 99.9% is
    /// covered.
    pmf: Vec<f64>,
}

#[derive(Serialize)]
struct AnalysisJson {
    board: String,
    goal: u32,
    numbering: &'static str,
    overshoot: &'static str,
    /// Every jump, `[from, to]`.
    jumps: Vec<[u32; 2]>,
    min_throws: Option<usize>,
    rolls: Option<Vec<u32>>,
    squares: Option<Vec<u32>>,
    expected_turns: ExactJson,
    /// Expected turns from each position (null where the goal may never be
    /// reached).
    per_square: Vec<Option<f64>>,
    distribution: DistributionJson,
}

/// `GET /api/snakes/boards`: the built-in boards' names.
async fn boards() -> Json<&'static [&'static str]> {
    Json(&snakes::BUILT_IN)
}

/// `GET /api/snakes/analyse?board=NAME&overshoot=O` or
/// `?goal=N&numbering=squares|cells&jumps=1:38,16:6&overshoot=O`: what
/// `solved solve snakes --json --per-square` says of the board.
async fn analyse_board(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &snakes::INFO, Operation::Solve)?;
    let board = Board::from_params(&params)?;
    if u64::from(board.goal()) > MAX_WEB_GOAL {
        return Err(ApiError::bad_request(format!(
            "goal {}: the web app analyses boards up to {MAX_WEB_GOAL} (the command line goes further)",
            board.goal()
        )));
    }
    // An analysis takes a fifth of a second of both cores; the same board
    // is asked for again and again.
    let key = format!("snakes {:?}", board.to_params());
    blocking(move || {
        let answer = state.answer(key, || serde_json::to_string(&report(&board)).expect("an analysis serializes"));
        Ok(([(header::CONTENT_TYPE, "application/json")], answer.as_str().to_owned()).into_response())
    })
    .await
}

fn report(board: &Board) -> AnalysisJson {
    let analysis = analyse(board);
    let d = &analysis.distribution;
    let mut covered = 0.0;
    let pmf = d
        .pmf
        .iter()
        .copied()
        .take_while(|&p| {
            let more = covered < PMF_COVERAGE;
            covered += p;
            more
        })
        .collect();
    AnalysisJson {
        board: board.name().into(),
        goal: board.goal(),
        numbering: board.numbering().id(),
        overshoot: board.overshoot().id(),
        jumps: board.jumps().iter().map(|(&from, &to)| [from, to]).collect(),
        min_throws: analysis.shortest.as_ref().map(|s| s.rolls.len()),
        rolls: analysis.shortest.as_ref().map(|s| s.rolls.clone()),
        squares: analysis.shortest.as_ref().map(|s| s.squares.clone()),
        expected_turns: ExactJson::new(analysis.expectation.from_start.as_ref()),
        per_square: analysis.expectation.per_square.iter().map(|e| e.as_ref().map(approximate)).collect(),
        distribution: DistributionJson {
            median: d.median,
            mode: d.mode,
            p90: d.p90,
            p_min_exact: d.p_min.as_ref().map(fraction),
            pmf,
        },
    }
}
