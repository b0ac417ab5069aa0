//! Dodgem's endpoints.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_engine::Value;
use solved_games::dodgem::{self, Destination, Dodgem, DodgemUnits, DodgemValues, Player, Position};
use solved_games::player::choose;
use solved_games::registry::{Game, Operation, command_line};
use solved_games::tables::Solvable;

use super::{BuildingJson, MoveJson, RawQuery, Shared, blocking, params};
use crate::error::ApiError;
use crate::state::Availability;

pub(super) fn routes() -> axum::Router<Shared> {
    Router::new().route("/probe", get(probe)).route("/line", get(line)).route("/summary", get(summary))
}

/// A car on the board.
#[derive(Serialize)]
struct CarJson {
    player: &'static str,
    square: String,
}

#[derive(Serialize)]
struct ProbeJson {
    position: String,
    size: u8,
    to_move: &'static str,
    /// Every car, so that the page need not read the notation.
    cars: Vec<CarJson>,
    #[serde(flatten)]
    value: Value,
    over: bool,
    moves: Vec<MoveJson>,
    /// The perfect player's move here: a best one, at random among equals.
    choice: Option<String>,
}

/// The solved values of `game`, or the answer saying how far building its
/// table has got.
fn values(state: &Shared, game: &Dodgem) -> Result<Result<DodgemValues, Response>, ApiError> {
    let command = || command_line(Operation::Solve, &Game::Dodgem(game.clone()));
    // A board solved with `--units` is read from its unit files.
    if game.size() > dodgem::MAX_FLAT_SIZE || game.unit_files(state.store()).dir().is_dir() {
        return Ok(Ok(DodgemValues::Units(units(state, game, command)?)));
    }
    Ok(match state.table(game, command)? {
        Availability::Ready(table) => Ok(DodgemValues::Table(table)),
        Availability::Building { phase, step, done } => {
            Err(BuildingJson::new(&Game::Dodgem(game.clone()), phase, step, done).into_response())
        }
    })
}

/// The unit files of a board. Never solved on request: past one table that
/// takes hours, which `solved solve` spends resuming from what it wrote.
fn units(state: &Shared, game: &Dodgem, command: impl FnOnce() -> String) -> Result<Arc<DodgemUnits>, ApiError> {
    let files = game.unit_files(state.store());
    let count = game.unit_index().units().len();
    let missing = (0..count).filter(|&u| !files.path(u).exists()).count();
    // What stays loaded is each unit's header and block list: the values
    // are read a block at a time.
    let opened = state.load(
        files.dir().to_path_buf(),
        |_| 0,
        |store| {
            if missing > 0 { Ok(None) } else { DodgemUnits::open(game, store).map(Some) }
        },
    )?;
    opened.ok_or_else(|| {
        let cost = game.cost();
        ApiError::not_built(
            format!(
                "Dodgem {0}x{0} ({1}) has not been solved on this server ({missing} of its {count} units are missing); \
                 the solve takes about {2:.0} hours on two cores and resumes where it stopped",
                game.size(),
                game.objective().id(),
                cost.seconds / 3600.0
            ),
            command(),
        )
    })
}

fn cars(pos: &Position) -> Vec<CarJson> {
    [Player::Blue, Player::Red]
        .into_iter()
        .flat_map(|player| {
            pos.cars(player).map(move |square| CarJson { player: player.name(), square: square.to_string() })
        })
        .collect()
}

/// `GET /api/dodgem/probe?size=N&misere=B&position=P&moves=M`: the
/// position (the start if none) with every move ranked, as
/// `solved probe dodgem --json`, and the computer's choice. 202 while the
/// table is built.
async fn probe(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &dodgem::INFO, Operation::Probe)?;
    let (game, pos) = dodgem::probe_request(&params)?;
    blocking(move || {
        let values = match values(&state, &game)? {
            Ok(values) => values,
            Err(building) => return Ok(building),
        };
        let unreadable = |e: solved_engine::TableError| ApiError::internal(&e);
        let value = values.value(&game, &pos).map_err(unreadable)?;
        let ranked = values.ranked_moves(&game, &pos).map_err(unreadable)?;
        let values: Vec<Value> = ranked.iter().map(|r| r.1).collect();
        let choice = choose(&values, &mut rand::rng()).map(|i| ranked[i].0.to_string());
        let moves = ranked
            .into_iter()
            .map(|(m, v, child)| {
                let to = match m.to {
                    Destination::Square(square) => square.to_string(),
                    Destination::Off => "off".into(),
                };
                MoveJson::new(m, Some(v), child, Some(m.from.to_string()), to, None)
            })
            .collect();
        Ok(Json(ProbeJson {
            position: pos.to_string(),
            size: game.size(),
            to_move: pos.turn().name(),
            cars: cars(&pos),
            value,
            over: game.is_over(&pos),
            moves,
            choice,
        })
        .into_response())
    })
    .await
}

/// The longest perfect line given: past it a game that has not ended or
/// come back to a position is cut short.
const MAX_LINE: usize = 500;

#[derive(Serialize)]
struct LineMoveJson {
    #[serde(rename = "move")]
    name: String,
    /// The move's value for its mover.
    #[serde(flatten)]
    value: Value,
}

#[derive(Serialize)]
struct LineJson {
    position: String,
    moves: Vec<LineMoveJson>,
    /// Whether the line comes back to a position it passed (a draw goes
    /// round for ever).
    repeats: bool,
}

/// `GET /api/dodgem/line?size=N&misere=B&position=P&moves=M`: perfect
/// play from the position to the end: each move the best one (the first
/// of the ranking: fastest win, then draw, then slowest loss), until the
/// game ends or a position comes back.
async fn line(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &dodgem::INFO, Operation::Probe)?;
    let (game, start) = dodgem::probe_request(&params)?;
    blocking(move || {
        let values = match values(&state, &game)? {
            Ok(values) => values,
            Err(building) => return Ok(building),
        };
        let unreadable = |e: solved_engine::TableError| ApiError::internal(&e);
        let mut seen = std::collections::HashSet::from([start]);
        let (mut pos, mut moves, mut repeats) = (start, Vec::new(), false);
        while moves.len() < MAX_LINE && !game.is_over(&pos) {
            let ranked = values.ranked_moves(&game, &pos).map_err(unreadable)?;
            let (m, value, child) = ranked.into_iter().next().expect("a game that is not over has a move");
            moves.push(LineMoveJson { name: m.to_string(), value });
            pos = child;
            if !seen.insert(pos) {
                repeats = true;
                break;
            }
        }
        Ok(Json(LineJson { position: start.to_string(), moves, repeats }).into_response())
    })
    .await
}

#[derive(Serialize)]
struct SummaryJson {
    size: u8,
    variant: &'static str,
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    start: Value,
    max_win_distance: Option<u16>,
    max_loss_distance: Option<u16>,
}

/// `GET /api/dodgem/summary?size=N&misere=B`: the solve summary. 202 while
/// the table is built.
async fn summary(State(state): State<Shared>, query: RawQuery) -> Result<Response, ApiError> {
    let params = params(query, &dodgem::INFO, Operation::Solve)?;
    let game = Dodgem::from_params(&params)?;
    blocking(move || {
        let summary = match values(&state, &game)? {
            Ok(DodgemValues::Table(table)) => {
                let summary = game.summary(&table).map_err(|e| ApiError::internal(&e))?;
                SummaryJson {
                    size: game.size(),
                    variant: game.objective().id(),
                    positions: summary.all.positions(),
                    wins: summary.all.wins,
                    losses: summary.all.losses,
                    draws: summary.all.draws,
                    start: summary.start,
                    max_win_distance: summary.longest_win.map(|p| p.0),
                    max_loss_distance: summary.longest_loss.map(|p| p.0),
                }
            }
            Ok(DodgemValues::Units(units)) => {
                // A unit holds one of each mirror pair, Blue to move.
                let tally = units.tally();
                let figures = units.figures().map_err(|e| ApiError::internal(&e))?;
                SummaryJson {
                    size: game.size(),
                    variant: game.objective().id(),
                    positions: 2 * tally.positions(),
                    wins: 2 * tally.wins,
                    losses: 2 * tally.losses,
                    draws: 2 * tally.draws,
                    start: units.value(&game, &game.start()).map_err(|e| ApiError::internal(&e))?,
                    max_win_distance: figures.longest_win.map(|p| p.0),
                    max_loss_distance: figures.longest_loss.map(|p| p.0),
                }
            }
            Err(building) => return Ok(building),
        };
        Ok(Json(summary).into_response())
    })
    .await
}
