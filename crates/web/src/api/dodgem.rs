//! Dodgem's endpoints.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_engine::table::Packed;
use solved_engine::{Table, Value};
use solved_games::dodgem::{self, Destination, Dodgem, Player, Position};
use solved_games::player::choose;
use solved_games::registry::{Game, Operation, command_line};

use super::{BuildingJson, MoveJson, RawQuery, Shared, blocking, params};
use crate::error::ApiError;
use crate::state::Availability;

pub(super) fn routes() -> axum::Router<Shared> {
    Router::new().route("/probe", get(probe)).route("/summary", get(summary))
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

/// The table of `game`, or the answer saying how far building it has got.
fn table(state: &Shared, game: &Dodgem) -> Result<Result<Arc<Table<Packed>>, Response>, ApiError> {
    Ok(match state.table(game, || command_line(Operation::Solve, &Game::Dodgem(game.clone())))? {
        Availability::Ready(table) => Ok(table),
        Availability::Building { phase, done } => {
            Err(BuildingJson::new(&Game::Dodgem(game.clone()), phase, done).into_response())
        }
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
        let table = match table(&state, &game)? {
            Ok(table) => table,
            Err(building) => return Ok(building),
        };
        let value = game.probe(&*table, &pos);
        let ranked = game.ranked_moves(&pos, &*table);
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
        let table = match table(&state, &game)? {
            Ok(table) => table,
            Err(building) => return Ok(building),
        };
        let summary = game.summary(&table).map_err(|e| ApiError::internal(&e))?;
        Ok(Json(SummaryJson {
            size: game.size(),
            variant: game.objective().id(),
            positions: summary.all.positions(),
            wins: summary.all.wins,
            losses: summary.all.losses,
            draws: summary.all.draws,
            start: summary.start,
            max_win_distance: summary.longest_win.map(|p| p.0),
            max_loss_distance: summary.longest_loss.map(|p| p.0),
        })
        .into_response())
    })
    .await
}
