//! Dodgem's endpoints.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use solved_engine::{Table, Value};
use solved_games::dodgem::{Dodgem, Objective, Position};
use solved_games::player::choose;
use solved_games::registry::Game;

use super::{MoveJson, Params, RawQuery, Shared, blocking};
use crate::error::ApiError;
use crate::state::Availability;

#[derive(Serialize)]
pub(crate) struct ProbeJson {
    position: String,
    size: u8,
    turn: &'static str,
    #[serde(flatten)]
    value: Value,
    over: bool,
    moves: Vec<MoveJson>,
    /// The perfect player's move here: a best one, at random among equals.
    choice: Option<String>,
}

/// The game of `size` (or of the position's size), normal or misère.
fn game(params: &Params, pos: Option<&Position>) -> Result<Dodgem, ApiError> {
    let size = match (pos.map(|p| u32::from(p.size())), params.parsed::<u32>("size")?) {
        (Some(of_position), Some(size)) if of_position != size => {
            return Err(ApiError::bad_request(format!(
                "the position is {of_position}x{of_position}, not {size}x{size}"
            )));
        }
        (Some(size), _) | (None, Some(size)) => size,
        (None, None) => params.required("size")?,
    };
    let objective = if params.flag("misere")? { Objective::Misere } else { Objective::Normal };
    Dodgem::new(size, objective).map_err(|e| ApiError::bad_request(e.to_string()))
}

fn table(state: &Shared, game: &Dodgem) -> Result<Arc<Table>, ApiError> {
    match state.table(&Game::Dodgem(game.clone()))? {
        Availability::Ready(table) => Ok(table),
        Availability::Building { phase, done } => {
            let misere = if game.objective() == Objective::Misere { " --misere" } else { "" };
            Err(ApiError::not_built(
                format!(
                    "the {0}x{0} table is being built ({phase}: {1:.0}% done); try again shortly",
                    game.size(),
                    100.0 * done
                ),
                format!("solved solve dodgem --size {}{misere}", game.size()),
            ))
        }
    }
}

/// `GET /api/dodgem/probe?size=N&misere=B&position=P`: the position (the
/// start if none) with every move ranked, as `solved probe dodgem --json`.
pub(crate) async fn probe(State(state): State<Shared>, query: RawQuery) -> Result<Json<ProbeJson>, ApiError> {
    let params = Params::new(query, &["size", "misere", "position"])?;
    let pos = params.parsed::<Position>("position")?;
    let game = game(&params, pos.as_ref())?;
    let pos = pos.unwrap_or_else(|| game.start());
    blocking(move || {
        let table = table(&state, &game)?;
        let value = game.probe(&*table, &pos);
        let ranked = game.ranked_moves(&pos, &table);
        let values: Vec<Value> = ranked.iter().map(|r| r.1).collect();
        let choice = choose(&values, &mut rand::rng()).map(|i| ranked[i].0.to_string());
        let moves = ranked.into_iter().map(|(m, v, child)| MoveJson::new(m, Some(v), child)).collect();
        Ok(Json(ProbeJson {
            position: pos.to_string(),
            size: game.size(),
            turn: pos.turn().name(),
            value,
            over: game.outcome(&pos).is_some(),
            moves,
            choice,
        }))
    })
    .await
}

#[derive(Serialize)]
pub(crate) struct SummaryJson {
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

/// `GET /api/dodgem/summary?size=N&misere=B`: the solve summary.
pub(crate) async fn summary(State(state): State<Shared>, query: RawQuery) -> Result<Json<SummaryJson>, ApiError> {
    let params = Params::new(query, &["size", "misere"])?;
    let game = game(&params, None)?;
    blocking(move || {
        let table = table(&state, &game)?;
        let summary = game.summary(&table).map_err(ApiError::internal)?;
        Ok(Json(SummaryJson {
            size: game.size(),
            variant: game.objective().id(),
            positions: summary.all.positions,
            wins: summary.all.wins,
            losses: summary.all.losses,
            draws: summary.all.draws,
            start: summary.start,
            max_win_distance: summary.max_win.map(|p| p.0),
            max_loss_distance: summary.max_loss.map(|p| p.0),
        }))
    })
    .await
}
