//! Dodgem's endpoints.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use solved_engine::{Plies, Tally, Value};
use solved_games::dodgem::{self, Destination, Dodgem, DodgemUnits, DodgemValues, Player, Position};
use solved_games::player::choose;
use solved_games::registry::{Game, Operation, command_line};
use solved_games::tables::Solvable;

use super::line::perfect_line;
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
    if game.size() > dodgem::MAX_FLAT_SIZE {
        return match units(state, game)? {
            Ok(units) => Ok(Ok(DodgemValues::Units(units))),
            Err(missing) => Err(ApiError::not_built(
                format!(
                    "Dodgem {0}x{0} ({1}) has not been solved on this server ({missing} of its {2} units are \
                     missing); the solve takes about {3:.0} hours on two cores and resumes where it stopped",
                    game.size(),
                    game.objective().id(),
                    game.unit_index().units().len(),
                    game.cost().seconds / 3600.0
                ),
                command(),
            )),
        };
    }
    // A smaller board solved with `--units` is read from its unit files
    // once they are all there; until then its table is built as usual.
    if game.unit_files(state.store()).dir().is_dir()
        && let Ok(units) = units(state, game)?
    {
        return Ok(Ok(DodgemValues::Units(units)));
    }
    Ok(match state.table(game, command)? {
        Availability::Ready(table) => Ok(DodgemValues::Table(table)),
        Availability::Building { phase, step, done } => {
            Err(BuildingJson::new(&Game::Dodgem(game.clone()), phase, step, done).into_response())
        }
    })
}

/// The unit files of a board, or how many of them are missing. Never
/// solved on request: past one table that takes hours, which `solved
/// solve` spends resuming from what it wrote.
fn units(state: &Shared, game: &Dodgem) -> Result<Result<Arc<DodgemUnits>, usize>, ApiError> {
    let files = game.unit_files(state.store());
    // Looked for only until the units are open: then they stay loaded.
    let mut missing = 0;
    // What stays loaded is each unit's header and block list: the values
    // are read a block at a time.
    let opened = state.load(
        files.dir().to_path_buf(),
        |_| 0,
        |store| {
            missing = (0..game.unit_index().units().len()).filter(|&u| !files.path(u).exists()).count();
            if missing > 0 { Ok(None) } else { DodgemUnits::open(game, store).map(Some) }
        },
    )?;
    Ok(opened.ok_or(missing))
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
        let line = perfect_line(start, |pos| {
            if game.is_over(pos) {
                return Ok(None);
            }
            Ok(values.ranked_moves(&game, pos).map_err(unreadable)?.into_iter().next())
        })?;
        Ok(Json(line).into_response())
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

impl SummaryJson {
    fn new(game: &Dodgem, all: Tally, start: Value, longest_win: Option<Plies>, longest_loss: Option<Plies>) -> Self {
        SummaryJson {
            size: game.size(),
            variant: game.objective().id(),
            positions: all.positions(),
            wins: all.wins,
            losses: all.losses,
            draws: all.draws,
            start,
            max_win_distance: longest_win.map(|p| p.0),
            max_loss_distance: longest_loss.map(|p| p.0),
        }
    }
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
                SummaryJson::new(&game, summary.all, summary.start, summary.longest_win, summary.longest_loss)
            }
            Ok(DodgemValues::Units(units)) => {
                let figures = units.figures().map_err(|e| ApiError::internal(&e))?;
                let start = units.value(&game, &game.start()).map_err(|e| ApiError::internal(&e))?;
                SummaryJson::new(&game, units.every_position(), start, figures.longest_win, figures.longest_loss)
            }
            Err(building) => return Ok(building),
        };
        Ok(Json(summary).into_response())
    })
    .await
}
