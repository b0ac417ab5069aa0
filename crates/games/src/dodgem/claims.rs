//! Dodgem's published results, checked against our tables.
//!
//! Sources are the ones listed in the spec: *Winning Ways*, GamesCrafters,
//! and the 1996 rec.games.abstract thread (Boll, Fleury, Erickson,
//! desJardins).

use solved_engine::{DenseIndex, Plies, Table, Value};

use super::{Dodgem, Move, Objective, Player, Position};
use crate::claims::ClaimCheck;

/// Erickson's three mutual-zugzwang diagrams (`>` Blue, `^` Red, top rank
/// first), as published.
const ERICKSON: [&str; 3] = [". > >/. . ^/. . .", "> . ./^ . ./. . .", "> > ./. . ^/. . ^"];

/// desJardins' 4×4 record in his transposed notation; `!` marks a move he
/// called the only draw.
const DESJARDINS: &str = "1. d1-d2 a4-b4 2. d2-d3 b4-c4 3. d3-d4 a3-b3 4. c1-c2 c4-c3! 5. b1-b2 a2-a3! \
     6. c2-d2 c3-c2 7. d2-d3 a3-a2 8. d3-c3 a2-a3! 9. b2-a2 b3-b2 10. c3-c4 c2-c1 \
     11. d4-off c1-c2 12. d3-off b2-b3";

/// One ply of desJardins' record, replayed.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordMove {
    /// The ply, from 1.
    pub ply: usize,
    /// The move as he wrote it, with its `!`.
    pub written: String,
    /// The same move in our notation.
    pub ours: String,
    /// The position before the move, or `None` once the replay has stopped.
    pub before: Option<Position>,
    /// Why the move could not be played, if it could not.
    pub illegal: Option<String>,
    /// The position's value for the mover.
    pub value_before: Option<Value>,
    /// The move's value for the mover.
    pub value_after: Option<Value>,
    /// How many moves in the position draw.
    pub drawing_moves: usize,
    /// What is wrong with the move as published, if anything.
    pub problems: Vec<String>,
}

/// desJardins' record, replayed on the 4×4 table.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordCheck {
    /// Every ply, in order.
    pub moves: Vec<RecordMove>,
}

impl RecordCheck {
    /// Every problem found, as `ply: problem`.
    pub fn problems(&self) -> Vec<String> {
        self.moves
            .iter()
            .flat_map(|m| m.problems.iter().map(move |p| format!("ply {} ({}): {p}", m.ply, m.written)))
            .collect()
    }
}

/// Checks every published Dodgem claim. `table` supplies the solved table
/// of a (normal) board size, solving it if need be.
///
/// # Errors
///
/// Whatever `table` fails with.
pub fn verify<E>(mut table: impl FnMut(&Dodgem) -> Result<Table, E>) -> Result<(Vec<ClaimCheck>, RecordCheck), E> {
    let games = [3, 4, 5].map(|n| Dodgem::new(n, Objective::Normal).expect("sizes 3 to 5 exist"));
    let [three, four, five] = &games;
    let t3 = table(three)?;
    let mut claims = three_by_three(three, &t3);
    let t4 = table(four)?;
    let start4 = t4.probe(four.index(&four.start()));
    claims.push(ClaimCheck::new(
        "6",
        "4x4 start position",
        "desJardins 1996-03-18",
        "draw",
        describe(start4),
        start4 == Value::Draw,
    ));
    let corner4 = move_value(four, &t4, "a2-a1");
    claims.push(ClaimCheck::new(
        "7",
        "4x4 after Blue's a2-a1 (his \"b1-a1\")",
        "desJardins 1996-03-20",
        "loss for Blue in 38",
        describe(corner4),
        corner4 == Value::Loss(Plies(38)),
    ));
    let record = replay_record(four, &t4);
    drop(t4);
    let t5 = table(five)?;
    let corner5 = move_value(five, &t5, "a2-a1");
    claims.push(ClaimCheck::new(
        "7",
        "5x5 after Blue's a2-a1",
        "desJardins 1996-03-20",
        "draw",
        describe(corner5),
        corner5 == Value::Draw,
    ));
    let start5 = t5.probe(five.index(&five.start()));
    claims.push(ClaimCheck::new(
        "8",
        "5x5 start position",
        "desJardins 1996-03-20",
        "draw",
        describe(start5),
        start5 == Value::Draw,
    ));
    drop(t5);
    for (game, label) in [(three, "3x3"), (four, "4x4"), (five, "5x5")] {
        let t = table(game)?;
        let broken = mirror_mismatches(game, &t);
        claims.push(ClaimCheck::new(
            "9",
            &format!("{label}: reflecting in the diagonal, colours and turn swapped, keeps value and distance"),
            "follows from the rules",
            "every position",
            format!("{} of {} positions differ", broken, t.len()),
            broken == 0,
        ));
    }
    Ok((claims, record))
}

fn three_by_three(game: &Dodgem, table: &Table) -> Vec<ClaimCheck> {
    let summary = game.summary(table);
    let mut claims = vec![ClaimCheck::new(
        "1",
        "3x3 start position",
        "Winning Ways; GamesCrafters",
        "Blue wins in 19 plies",
        describe(summary.start),
        summary.start == Value::Win(Plies(19)),
    )];
    let winning: Vec<String> = game
        .ranked_moves(&game.start(), table)
        .into_iter()
        .filter(|(_, v, _)| matches!(v, Value::Win(_)))
        .map(|(m, ..)| m.to_string())
        .collect();
    claims.push(ClaimCheck::new(
        "2",
        "3x3 winning first moves",
        "Winning Ways; D. Boll 1996",
        "only a3-b3",
        winning.join(", "),
        winning == ["a3-b3"],
    ));
    let r = summary.reachable;
    claims.push(ClaimCheck::new(
        "3",
        "3x3 positions reachable from the start (wins, losses, draws)",
        "GamesCrafters (via Wikipedia)",
        "1963 (1123, 840, 0)",
        format!("{} ({}, {}, {})", r.positions, r.wins, r.losses, r.draws),
        (r.positions, r.wins, r.losses, r.draws) == (1963, 1123, 840, 0),
    ));
    let both_colours = (0..game.position_count())
        .step_by(2)
        .map(|idx| game.unindex(idx))
        .filter(|p| p.cars.blue != 0 && p.cars.red != 0)
        .count();
    claims.push(ClaimCheck::new(
        "4",
        "3x3 placements with a car of each colour, halved for symmetry",
        "M. Fleury 1996-03-04",
        "666 (1332 / 2)",
        format!("{} ({both_colours} / 2)", both_colours / 2),
        both_colours == 1332,
    ));
    let zugzwangs = mutual_zugzwangs(game, table);
    let paired = zugzwangs
        .iter()
        .filter(|&p| {
            let mirror = p.mirrored().with_turn(Player::Blue);
            mirror != *p && zugzwangs.contains(&mirror)
        })
        .count();
    claims.push(ClaimCheck::new(
        "5",
        "3x3 placements lost for whichever side moves (mirror pairs)",
        "J. Erickson 1996-03-04",
        "6 (3 pairs)",
        format!("{} ({} pairs)", zugzwangs.len(), paired / 2),
        zugzwangs.len() == 6 && paired == 6,
    ));
    for (i, diagram) in ERICKSON.iter().enumerate() {
        let pos = erickson_position(diagram);
        let values = [Player::Blue, Player::Red].map(|turn| table.probe(game.index(&pos.with_turn(turn))));
        claims.push(ClaimCheck::new(
            "5",
            &format!("Erickson diagram {} ({diagram})", i + 1),
            "J. Erickson 1996-03-04",
            "lost for either side to move",
            format!("Blue to move {}, Red to move {}", values[0], values[1]),
            values.iter().all(|v| matches!(v, Value::Loss(_))),
        ));
    }
    claims
}

/// Erickson's diagram in our notation, Blue to move.
fn erickson_position(diagram: &str) -> Position {
    let board = diagram.replace(' ', "").replace('>', "B").replace('^', "R");
    format!("{board} B").parse().expect("Erickson's diagrams are well formed")
}

/// Placements (with Blue to move) lost for either side to move.
fn mutual_zugzwangs(game: &Dodgem, table: &Table) -> Vec<Position> {
    (0..game.position_count())
        .step_by(2)
        .filter(|&idx| matches!((table.probe(idx), table.probe(idx + 1)), (Value::Loss(_), Value::Loss(_))))
        .map(|idx| game.unindex(idx))
        .collect()
}

fn move_value(game: &Dodgem, table: &Table, m: &str) -> Value {
    let m: Move = m.parse().expect("claimed moves are well formed");
    let child = game.play(&game.start(), m).expect("claimed moves are legal");
    Value::of_move_into(table.probe(game.index(&child)))
}

fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("win in {d}"),
        Value::Loss(d) => format!("loss in {d}"),
        Value::Draw => "draw".into(),
    }
}

fn mirror_mismatches(game: &Dodgem, table: &Table) -> u64 {
    use rayon::prelude::*;
    (0..game.position_count())
        .into_par_iter()
        .filter(|&idx| table.probe(game.index(&game.unindex(idx).mirrored())) != table.probe(idx))
        .count() as u64
}

/// His square `xy` is our square `yx`: he wrote the board transposed.
fn transpose_move(written: &str) -> String {
    let swap = |square: &str| {
        let mut chars = square.chars();
        match (chars.next(), chars.next()) {
            (Some(file), Some(rank)) if chars.next().is_none() => {
                let file_index = file as u8 - b'a';
                let rank_index = rank as u8 - b'1';
                format!("{}{}", char::from(b'a' + rank_index), char::from(b'1' + file_index))
            }
            _ => square.to_string(),
        }
    };
    let bare = written.trim_end_matches('!');
    match bare.split_once('-') {
        Some((from, to)) => format!("{}-{}", swap(from), swap(to)),
        None => bare.to_string(),
    }
}

fn replay_record(game: &Dodgem, table: &Table) -> RecordCheck {
    let written: Vec<&str> = DESJARDINS.split_whitespace().filter(|w| !w.ends_with('.')).collect();
    let mut pos = Some(game.start());
    let mut moves = Vec::new();
    for (i, &text) in written.iter().enumerate() {
        let ours = transpose_move(text);
        let mut entry = RecordMove {
            ply: i + 1,
            written: text.into(),
            ours: ours.clone(),
            before: pos,
            illegal: None,
            value_before: None,
            value_after: None,
            drawing_moves: 0,
            problems: Vec::new(),
        };
        let Some(current) = pos else {
            entry.problems.push("not replayed: an earlier move was illegal".into());
            moves.push(entry);
            continue;
        };
        let ranked = game.ranked_moves(&current, table);
        entry.value_before = Some(table.probe(game.index(&current)));
        entry.drawing_moves = ranked.iter().filter(|(_, v, _)| *v == Value::Draw).count();
        let played = ours
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|m| game.play(&current, m).map_err(|e| e.reason.to_string()));
        match played {
            Err(reason) => {
                entry.problems.push(format!("illegal move: {reason}"));
                entry.illegal = Some(reason);
                pos = None;
            }
            Ok(child) => {
                let value = Value::of_move_into(table.probe(game.index(&child)));
                entry.value_after = Some(value);
                if value < ranked[0].1 {
                    entry.problems.push(format!("not best play: {value} where {} was possible", ranked[0].1));
                }
                if text.ends_with('!') && !(value == Value::Draw && entry.drawing_moves == 1) {
                    entry.problems.push(format!("marked as the only draw, but {} moves draw", entry.drawing_moves));
                }
                pos = Some(child);
            }
        }
        moves.push(entry);
    }
    RecordCheck { moves }
}
