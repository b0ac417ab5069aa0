//! The JSON API: every operation a game serves, under the game's id, with
//! the answer its `--json` gives on the command line.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_games::front::{Building, Game};
use solved_games::info::Supported;
use solved_games::levels::Level;
use solved_games::params::{Field, NoFiles, Params, Scope};

use crate::error::ApiError;
use crate::host::Request;
use crate::state::AppState;

pub(crate) type Shared = Arc<AppState>;

/// `GET /api/games`, `GET /api/levels`, and `GET /api/GAME/PATH` for each
/// operation each of `games` serves.
pub(crate) fn routes(games: &[&'static dyn Game]) -> Router<Shared> {
    let mut router = Router::new().route("/games", get(list)).route("/levels", get(levels));
    for &game in games {
        for supported in game.info().operations {
            let Some(path) = supported.served else { continue };
            let handler = move |state: State<Shared>, query: RawQuery| answer(state, game, supported, query);
            router = router.route(&format!("/{}/{path}", game.info().id), get(handler));
        }
    }
    router
}

#[derive(Serialize)]
struct GameJson {
    id: &'static str,
    name: &'static str,
    about: &'static str,
    /// Whether `GET /api/GAME/puzzle` draws its puzzles.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    puzzles: bool,
}

async fn list(State(state): State<Shared>) -> Json<Vec<GameJson>> {
    let games = state.games().iter().map(|g| g.info());
    Json(
        games
            .map(|g| GameJson {
                id: g.id,
                name: g.name,
                about: g.about,
                puzzles: g.operations.iter().any(|s| s.served == Some("puzzle")),
            })
            .collect(),
    )
}

/// A level of the computer, as the pages offer it.
#[derive(Serialize)]
struct LevelJson {
    name: &'static str,
    policy: &'static str,
}

/// Every level, weakest first, with what it does: the `level` a probe takes.
async fn levels() -> Json<Vec<LevelJson>> {
    Json(Level::ALL.iter().map(|l| LevelJson { name: l.name(), policy: l.policy() }).collect())
}

/// A request's query string as axum hands it over: every pair, in order.
type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The server reads no file a request names.
static NO_FILES: NoFiles = NoFiles;

/// The game's answer to `supported` on the board the query names, worked
/// out on a blocking thread (the game code is CPU-bound); 202 with how far
/// the build has got while a table it needs is built.
async fn answer(
    State(state): State<Shared>,
    game: &'static dyn Game,
    supported: &'static Supported,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let Query(pairs) = query.map_err(|e| ApiError::bad_request(format!("invalid query string: {e}")))?;
    // The fields a query may give: the command line's alone stay there.
    let fields: Vec<Field> = supported.fields.iter().filter(|f| f.scope == Scope::Everywhere).copied().collect();
    let params = Params::new(pairs, &fields, &NO_FILES)?;
    let answered = tokio::task::spawn_blocking(move || {
        game.answer(supported.operation, &params, &Request { state: &state }).map(|answer| Json(answer).into_response())
    })
    .await
    .map_err(|e| ApiError::internal(&e))?;
    match answered {
        Ok(response) => Ok(response),
        Err(error) => match error.chain().find_map(|cause| cause.downcast_ref::<Building>()) {
            Some(building) => Ok((StatusCode::ACCEPTED, Json(building)).into_response()),
            None => Err(error.into()),
        },
    }
}
