//! Tic-Tac-Chec's published figures, checked.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::{DenseIndex, Interrupted, Progress, Rules, Value, Values};

use super::{BothColours, PawnRule, Position, TicTacChec, census};
use crate::claims::{ClaimCheck, Verdict};

const SOURCE: &str = "the published solver (2026), via the spec";

/// Checks claim 1 on `table` (of `game`, the travel rule), claim 2 by a
/// census of the domain under both pawn rules, and claim 3 on `table`
/// against the plain rules.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn verify(
    game: &TicTacChec,
    table: &(impl Values + ?Sized),
    progress: &dyn Progress,
) -> Result<Vec<ClaimCheck>, Interrupted> {
    let empty = Position::empty();
    let start = table.probe(game.index.index(&empty));
    let first = game.ranked_moves(&empty, table);
    let drawing = first.iter().filter(|(_, v, _)| *v == Value::Draw).count();
    let mut claims = vec![ClaimCheck::new(
        "1",
        "the empty board is a draw, and every first placement keeps the draw",
        SOURCE,
        "draw; 64 of 64",
        format!("{start}; {drawing} of {}", first.len()),
        Verdict::of(start == Value::Draw && drawing == 64 && first.len() == 64),
    )];
    let figure = |claim: &str, published: u64, ours: u64| {
        ClaimCheck::new("2", claim, SOURCE, published.to_string(), ours.to_string(), Verdict::of(published == ours))
    };
    let travel = census(game, progress)?;
    claims.push(figure("post-opening positions (White to move)", 2_462_360_745, travel.positions));
    let opening: Vec<u64> = (0..6).map(|p| game.index.opening_ply(p).end - game.index.opening_ply(p).start).collect();
    claims.push(ClaimCheck::new(
        "2",
        "opening positions, plies 0 to 5",
        SOURCE,
        "14236865 = 1 + 64 + 3840 + 80640 + 1572480 + 12579840",
        format!(
            "{} = {}",
            opening.iter().sum::<u64>(),
            opening.iter().map(u64::to_string).collect::<Vec<_>>().join(" + ")
        ),
        Verdict::of(opening == [1, 64, 3_840, 80_640, 1_572_480, 12_579_840]),
    ));
    claims.push(figure("successor edges, travel", 28_730_418_180, travel.edges));
    let outbound = census(&TicTacChec::new(PawnRule::Outbound), progress)?;
    claims.push(figure("successor edges, outbound", 28_304_244_300, outbound.edges));
    claims.push(figure("terminal positions (some line complete)", 18_516_912, travel.terminal));
    claims.push(figure("non-terminal positions with no legal move", 0, travel.stuck));
    claims.push(figure("largest number of legal moves in one position", 64, u64::from(travel.max_moves)));
    let wrong = first_against_the_rules(game, table);
    claims.push(ClaimCheck::new(
        "3",
        "the solved values follow from the plain rules, either colour to move, read without the flip",
        "this tool's own check, 200,000 positions drawn at random",
        "every one",
        wrong.as_ref().map_or("every one".into(), |pos| format!("not {pos}")),
        Verdict::of(wrong.is_none()),
    ));
    Ok(claims)
}

/// Positions drawn for the check of the solved values against the rules.
const RULES_SAMPLES: usize = 200_000;

/// The first of [`RULES_SAMPLES`] positions drawn at random (either colour
/// to move) whose value in `table` is not what its children's values say
/// by the plain rules, if any: a Black-to-move position's value is its
/// flipped twin's, and its White-to-move children are read as they stand,
/// so the check goes through the rules the solver never used.
fn first_against_the_rules(game: &TicTacChec, table: &(impl Values + ?Sized)) -> Option<Position> {
    let every = BothColours(game);
    let mut rng = StdRng::seed_from_u64(14);
    (0..RULES_SAMPLES).map(|_| every.unindex(rng.random_range(0..every.position_count()))).find(|pos| {
        let stored = table.probe(game.index(pos));
        let implied = every.terminal_value(pos).unwrap_or_else(|| {
            let mut best = None;
            every.for_each_child(pos, |child| {
                best = best.max(Some(Value::of_move_into(table.probe(game.index(&child)))))
            });
            best.expect("a position that is not over has a move")
        });
        stored != implied
    })
}
