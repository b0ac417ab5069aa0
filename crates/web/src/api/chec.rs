//! Tic-Tac-Chec's endpoints.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Serialize;
use solved_engine::Value;
use solved_engine::compact::Compact;
use solved_engine::table::Packed;
use solved_engine::{DenseIndex, Values};
use solved_games::registry::{Game, Operation, command_line};
use solved_games::tables::Solvable;
use solved_games::tic_tac_chec::{
    self, Color, Direction, Move, Piece, Position, ProbeValues, TicTacChec, square_name, squares,
};

use super::line::{LineJson, perfect_line};
use super::{MoveJson, RawQuery, Shared, blocking, params};
use crate::error::ApiError;

pub(super) fn routes() -> axum::Router<Shared> {
    Router::new().route("/probe", get(probe)).route("/line", get(line)).route("/summary", get(summary))
}

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
    fn new(game: &TicTacChec) -> MissingJson {
        let game_entry = Game::TicTacChec(game.clone());
        let solve = command_line(Operation::Solve, &game_entry);
        let compact = command_line(Operation::Compact, &game_entry);
        MissingJson {
            message: format!("the {} table has not been built yet: it takes {BUILD_COST}", game.rule().id()),
            command: format!("{solve} && {compact}"),
            takes: BUILD_COST,
        }
    }
}

/// The values a probe reads (the game says which), if the tables have been
/// built: the server never builds them. They are kept under the file they
/// came from, so that a compact copy made after the full table was loaded
/// is read next time. Blocks: call from a blocking thread.
fn values(state: &Shared, game: &TicTacChec) -> Result<Option<Arc<ProbeValues>>, ApiError> {
    let key = game.table_key();
    let compact = state.store().path::<Compact>(&key);
    let path = if compact.is_file() { compact } else { state.store().path::<Packed>(&key) };
    state.load(path, ProbeValues::size_in_bytes, |store| game.open_for_probing(store))
}

/// A piece on the board.
#[derive(Serialize)]
struct PieceJson {
    color: String,
    role: char,
    square: String,
}

/// Each side's pieces in hand and the way its pawn faces.
#[derive(Serialize)]
struct SideJson {
    hand: Vec<char>,
    pawn: &'static str,
}

#[derive(Serialize)]
struct ProbeJson {
    position: String,
    pawn: &'static str,
    to_move: String,
    opening: bool,
    /// The pieces on the board, and each side's hand and pawn direction,
    /// so that the page need not read the notation.
    pieces: Vec<PieceJson>,
    white: SideJson,
    black: SideJson,
    /// Null until the table is built.
    #[serde(flatten)]
    value: Option<Value>,
    over: bool,
    /// The four squares of the line that won, once the game is over.
    winning_line: Vec<String>,
    /// Best first once the table is built; in move order before.
    moves: Vec<MoveJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<MissingJson>,
}

fn pieces(pos: &Position) -> Vec<PieceJson> {
    (0..8)
        .map(Piece::from_slot)
        .filter_map(|piece| {
            let square = pos.square_of(piece)?;
            Some(PieceJson { color: piece.color.to_string(), role: piece.role.letter(), square: square_name(square) })
        })
        .collect()
}

fn side(pos: &Position, color: Color) -> SideJson {
    let hand = (0..8)
        .map(Piece::from_slot)
        .filter(|piece| piece.color == color && pos.square_of(*piece).is_none())
        .map(|piece| piece.role.letter())
        .collect();
    let pawn = match pos.direction(color) {
        Direction::Up => "up",
        Direction::Down => "down",
    };
    SideJson { hand, pawn }
}

fn move_json(m: Move, value: Option<Value>, child: Position) -> MoveJson {
    match m {
        Move::Place { role, to } => MoveJson::new(m, value, child, None, square_name(to), Some(role.letter())),
        Move::Step { from, to } => MoveJson::new(m, value, child, Some(square_name(from)), square_name(to), None),
    }
}

/// `GET /api/tic-tac-chec/probe?position=P&pawn=travel|outbound`: the
/// position (the empty board if none) with every move ranked, as
/// `solved probe tic-tac-chec --json`. Without a table the moves come
/// unvalued, with the command that builds it.
async fn probe(State(state): State<Shared>, query: RawQuery) -> Result<Json<ProbeJson>, ApiError> {
    let params = params(query, &tic_tac_chec::INFO, Operation::Probe)?;
    let game = TicTacChec::from_params(&params)?;
    let pos: Position = params.parsed("position")?.unwrap_or_else(Position::empty);
    blocking(move || {
        let over = pos.is_over();
        let (value, moves, missing) = match values(&state, &game)? {
            Some(values) => {
                let value = values.probe(game.index(&pos));
                let moves = game
                    .ranked_moves(&pos, &*values)
                    .into_iter()
                    .map(|(m, v, child)| move_json(m, Some(v), child))
                    .collect();
                (Some(value), moves, None)
            }
            None => {
                let moves = if over { Vec::new() } else { pos.legal_moves(game.rule()) };
                let moves = moves.into_iter().map(|m| move_json(m, None, pos.play_unchecked(m))).collect();
                (None, moves, Some(MissingJson::new(&game)))
            }
        };
        Ok(Json(ProbeJson {
            position: pos.to_string(),
            pawn: game.rule().id(),
            to_move: pos.turn().to_string(),
            opening: pos.is_opening(),
            pieces: pieces(&pos),
            white: side(&pos, Color::White),
            black: side(&pos, Color::Black),
            value,
            over,
            winning_line: pos.winning_line().map_or_else(Vec::new, |line| squares(line).map(square_name).collect()),
            moves,
            missing,
        }))
    })
    .await
}

/// `GET /api/tic-tac-chec/line?position=P&pawn=travel|outbound`: perfect
/// play from the position (the empty board if none) to the end, or until a
/// position comes back. 503 with the command that builds the table if
/// there is none.
async fn line(State(state): State<Shared>, query: RawQuery) -> Result<Json<LineJson>, ApiError> {
    let params = params(query, &tic_tac_chec::INFO, Operation::Probe)?;
    let game = TicTacChec::from_params(&params)?;
    let start: Position = params.parsed("position")?.unwrap_or_else(Position::empty);
    blocking(move || {
        let Some(values) = values(&state, &game)? else {
            let missing = MissingJson::new(&game);
            return Err(ApiError::not_built(missing.message, missing.command));
        };
        let line = perfect_line(start, |pos| {
            Ok(if pos.is_over() { None } else { game.ranked_moves(pos, &*values).into_iter().next() })
        })?;
        Ok(Json(line))
    })
    .await
}

/// The totals the table's header records, and the empty board's value.
#[derive(Serialize)]
struct SummaryJson {
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
async fn summary(State(state): State<Shared>, query: RawQuery) -> Result<Json<SummaryJson>, ApiError> {
    let params = params(query, &tic_tac_chec::INFO, Operation::Solve)?;
    let game = TicTacChec::from_params(&params)?;
    blocking(move || {
        let Some(values) = values(&state, &game)? else {
            let missing = MissingJson::new(&game);
            return Err(ApiError::not_built(missing.message, missing.command));
        };
        let tally = values.tally();
        Ok(Json(SummaryJson {
            pawn: game.rule().id(),
            positions: values.len(),
            wins: tally.wins,
            losses: tally.losses,
            draws: tally.draws,
            start: values.probe(game.index(&Position::empty())),
        }))
    })
    .await
}
