//! Tic-Tac-Chec's endpoint.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use solved_engine::{Table, Value};
use solved_games::tic_tac_chec::{Color, PawnRule, Position, TicTacChec};

use super::{MoveJson, Params, RawQuery, Shared, blocking};
use crate::error::ApiError;

/// What building the tables takes, measured on the 2-core reference
/// machine (docs/benchmarks.md).
const BUILD_COST: &str = "about 5 minutes and 2.5 GB of memory on 2 cores";

/// Where to get the values when there is no table yet.
#[derive(Serialize)]
struct MissingJson {
    message: String,
    command: String,
    takes: &'static str,
}

impl MissingJson {
    fn new(rule: PawnRule) -> MissingJson {
        let flag = if rule == PawnRule::Travel { String::new() } else { format!(" --pawn {}", rule.id()) };
        MissingJson {
            message: format!("the {} table has not been built yet: it takes {BUILD_COST}", rule.id()),
            command: format!("solved solve tic-tac-chec{flag} && solved compact tic-tac-chec{flag}"),
            takes: BUILD_COST,
        }
    }
}

/// The compact copy if there is one (a fifth of the memory), else the
/// table, else nothing: the server never builds them. Blocks: call from a
/// blocking thread.
fn table(state: &Shared, game: &TicTacChec) -> Result<Option<Arc<Table>>, ApiError> {
    match state.existing(&game.compact_key())? {
        Some(table) => Ok(Some(table)),
        None => state.existing(&game.table_key()),
    }
}

#[derive(Serialize)]
pub(crate) struct ProbeJson {
    position: String,
    pawn: &'static str,
    turn: &'static str,
    opening: bool,
    /// Null until the table is built.
    #[serde(flatten)]
    value: Option<Value>,
    over: bool,
    /// Best first once the table is built; in move order before.
    moves: Vec<MoveJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<MissingJson>,
}

/// `GET /api/tic-tac-chec/probe?position=P&pawn=travel|outbound`: the
/// position (the empty board if none) with every move ranked, as
/// `solved probe tic-tac-chec --json`. Without a table the moves come
/// unvalued, with the command that builds it.
pub(crate) async fn probe(State(state): State<Shared>, query: RawQuery) -> Result<Json<ProbeJson>, ApiError> {
    let params = Params::new(query, &["position", "pawn"])?;
    let rule: PawnRule = params.parsed("pawn")?.unwrap_or(PawnRule::Travel);
    let pos: Position = params.parsed("position")?.unwrap_or_else(Position::empty);
    blocking(move || {
        let game = TicTacChec::new(rule);
        let table = table(&state, &game)?;
        let over = pos.is_terminal();
        let (value, moves, missing) = match table {
            Some(table) => {
                let value = table.probe(game.positions().index(&pos));
                let moves = game
                    .ranked_moves(&pos, &table)
                    .into_iter()
                    .map(|(m, v, child)| MoveJson::new(m, Some(v), child))
                    .collect();
                (Some(value), moves, None)
            }
            None => {
                let moves = if over { Vec::new() } else { pos.legal_moves(rule) };
                let moves = moves.into_iter().map(|m| MoveJson::new(m, None, pos.play_unchecked(m))).collect();
                (None, moves, Some(MissingJson::new(rule)))
            }
        };
        Ok(Json(ProbeJson {
            position: pos.to_string(),
            pawn: rule.id(),
            turn: if pos.turn() == Color::White { "white" } else { "black" },
            opening: pos.is_opening(),
            value,
            over,
            moves,
            missing,
        }))
    })
    .await
}

/// The totals the table's header records, and the empty board's value.
#[derive(Serialize)]
pub(crate) struct SummaryJson {
    pawn: &'static str,
    /// Post-opening and opening positions together.
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    /// The value of the empty board.
    start: Value,
}

/// `GET /api/tic-tac-chec/summary?pawn=travel|outbound`: how many
/// positions are won, lost and drawn, read from the table's header (the
/// phase by phase figures of `solved solve tic-tac-chec` need a pass over
/// the whole table). 503 with the command that builds the table if there
/// is none.
pub(crate) async fn summary(State(state): State<Shared>, query: RawQuery) -> Result<Json<SummaryJson>, ApiError> {
    let params = Params::new(query, &["pawn"])?;
    let rule: PawnRule = params.parsed("pawn")?.unwrap_or(PawnRule::Travel);
    blocking(move || {
        let game = TicTacChec::new(rule);
        let Some(table) = table(&state, &game)? else {
            let missing = MissingJson::new(rule);
            return Err(ApiError::not_built(missing.message, missing.command));
        };
        let counts = table.header().counts;
        Ok(Json(SummaryJson {
            pawn: rule.id(),
            positions: table.len(),
            wins: counts.wins,
            losses: counts.losses,
            draws: counts.draws,
            start: table.probe(game.positions().index(&Position::empty())),
        }))
    })
    .await
}
