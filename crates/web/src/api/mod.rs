//! The JSON API: probes and summaries of every game.

mod boxes;
mod chec;
mod dodgem;
mod snakes;

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::routing::get;
use serde::Serialize;
use solved_engine::Value;
use solved_games::registry::GAMES;

use crate::error::ApiError;
use crate::state::AppState;

pub(crate) type Shared = Arc<AppState>;

pub(crate) fn routes() -> Router<Shared> {
    Router::new()
        .route("/games", get(games))
        .route("/dodgem/probe", get(dodgem::probe))
        .route("/dodgem/summary", get(dodgem::summary))
        .route("/dots-and-boxes/probe", get(boxes::probe))
        .route("/dots-and-boxes/summary", get(boxes::summary))
        .route("/snakes/boards", get(snakes::boards))
        .route("/snakes/analyse", get(snakes::analyse_board))
        .route("/tic-tac-chec/probe", get(chec::probe))
        .route("/tic-tac-chec/summary", get(chec::summary))
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

/// A request's query parameters, checked by name.
pub(crate) struct Params(HashMap<String, String>);

impl Params {
    /// The parameters, refusing unknown names and names given twice.
    pub(crate) fn new(query: RawQuery, known: &[&str]) -> Result<Params, ApiError> {
        let Query(pairs) = query.map_err(|e| ApiError::bad_request(format!("invalid query string: {e}")))?;
        let mut map = HashMap::new();
        for (name, value) in pairs {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter {name:?} (expected {})",
                    known.join(", ")
                )));
            }
            if map.contains_key(&name) {
                return Err(ApiError::bad_request(format!("parameter {name:?} given twice")));
            }
            map.insert(name, value);
        }
        Ok(Params(map))
    }

    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    pub(crate) fn parsed<T: FromStr>(&self, name: &str) -> Result<Option<T>, ApiError>
    where
        T::Err: std::fmt::Display,
    {
        self.text(name)
            .map(|text| text.parse().map_err(|e| ApiError::bad_request(format!("parameter {name}={text:?}: {e}"))))
            .transpose()
    }

    /// A parameter that must be given, parsed.
    pub(crate) fn required<T: FromStr>(&self, name: &str) -> Result<T, ApiError>
    where
        T::Err: std::fmt::Display,
    {
        self.parsed(name)?.ok_or_else(|| ApiError::bad_request(format!("missing parameter {name:?}")))
    }

    pub(crate) fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.text(name) {
            None | Some("0" | "false" | "") => Ok(false),
            Some("1" | "true") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!("parameter {name}={other:?}: expected true or false"))),
        }
    }
}

/// Runs `work` on a blocking thread: the game code is CPU-bound.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(ApiError::internal)?
}

/// A move with the value it has for the mover and the position it leads to.
#[derive(Serialize)]
pub(crate) struct MoveJson {
    #[serde(rename = "move")]
    m: String,
    #[serde(flatten)]
    value: Option<Value>,
    position: String,
}

impl MoveJson {
    pub(crate) fn new(m: impl ToString, value: Option<Value>, position: impl ToString) -> MoveJson {
        MoveJson { m: m.to_string(), value, position: position.to_string() }
    }
}
