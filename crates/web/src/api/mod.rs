//! The JSON API: probes and summaries of every game, one module per game,
//! each nested under the game's id.

mod boxes;
mod chec;
mod dodgem;
mod line;
mod snakes;

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_engine::Value;
use solved_games::params::{Field, NoFiles, Params, Scope};
use solved_games::registry::{GAMES, Game, GameInfo, Kind, Operation, command_line};

use crate::error::ApiError;
use crate::state::AppState;

pub(crate) type Shared = Arc<AppState>;

pub(crate) fn routes() -> Router<Shared> {
    let mut router = Router::new().route("/games", get(games));
    for game in GAMES {
        let endpoints = match game.kind {
            Kind::Dodgem => dodgem::routes(),
            Kind::DotsAndBoxes => boxes::routes(),
            Kind::Snakes => snakes::routes(),
            Kind::TicTacChec => chec::routes(),
        };
        router = router.nest(&format!("/{}", game.id), endpoints);
    }
    router
}

#[derive(Serialize)]
struct GameJson {
    id: &'static str,
    name: &'static str,
    about: &'static str,
}

async fn games() -> Json<Vec<GameJson>> {
    Json(GAMES.iter().map(|g| GameJson { id: g.id, name: g.name, about: g.about }).collect())
}

/// A request's query string as axum hands it over: every pair, in order.
pub(crate) type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The server reads no file a request names.
static NO_FILES: NoFiles = NoFiles;

/// The query's parameters, checked against the fields `operation` of `game`
/// takes that a query may give, for the game's own parser to read.
pub(crate) fn params(query: RawQuery, game: &GameInfo, operation: Operation) -> Result<Params<'static>, ApiError> {
    let Query(pairs) = query.map_err(|e| ApiError::bad_request(format!("invalid query string: {e}")))?;
    let fields: Vec<Field> = game
        .operation(operation)
        .map_or(&[][..], |s| s.fields)
        .iter()
        .filter(|f| f.scope == Scope::Everywhere)
        .copied()
        .collect();
    Ok(Params::new(pairs, &fields, &NO_FILES)?)
}

/// Runs `work` on a blocking thread: the game code is CPU-bound.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::internal(&e))?
}

/// The answer while a table is being built, the same for every game: 202,
/// how far the build has got, and the command that builds it by hand.
#[derive(Serialize)]
pub(crate) struct BuildingJson {
    building: bool,
    /// The solver's phase under way, which one it is (from 1: a build
    /// may have several, each counted from 0 % again), and the share of it
    /// done.
    phase: String,
    step: u64,
    done: f64,
    /// The table's positions.
    positions: u64,
    /// The command that builds the table from the command line.
    command: String,
    /// For Dots and Boxes: the board's undrawn lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<u32>,
}

impl BuildingJson {
    pub(crate) fn new(game: &Game, phase: String, step: u64, done: f64) -> BuildingJson {
        BuildingJson {
            building: true,
            phase,
            step,
            done,
            positions: game.table_key().map_or(0, |key| key.positions),
            command: command_line(Operation::Solve, game),
            lines: match game {
                Game::DotsAndBoxes(board) => Some(board.free_line_count()),
                _ => None,
            },
        }
    }

    /// The same, for a table of `positions` positions other than the
    /// game's main one.
    pub(crate) fn with_positions(self, positions: u64) -> BuildingJson {
        BuildingJson { positions, ..self }
    }

    pub(crate) fn into_response(self) -> Response {
        (StatusCode::ACCEPTED, Json(self)).into_response()
    }
}

/// A move with the value it has for the mover and the position it leads
/// to, the move's squares given apart so that no page parses notation.
#[derive(Serialize)]
pub(crate) struct MoveJson {
    #[serde(rename = "move")]
    m: String,
    #[serde(flatten)]
    value: Option<Value>,
    position: String,
    /// Where the piece moves from, or `null` for a piece placed from hand.
    from: Option<String>,
    /// Where it goes, or `off` for a car leaving the board.
    to: String,
    /// The piece placed, for a placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<char>,
}

impl MoveJson {
    pub(crate) fn new(
        m: impl ToString,
        value: Option<Value>,
        position: impl ToString,
        from: Option<String>,
        to: String,
        role: Option<char>,
    ) -> MoveJson {
        MoveJson { m: m.to_string(), value, position: position.to_string(), from, to, role }
    }
}
