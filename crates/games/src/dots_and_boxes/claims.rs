//! Dots and Boxes' published results, checked against our tables.

use solved_engine::Table;
use solved_engine::table::Margin;

use super::{Board, BoardError, MAX_FREE_LINES, Variant};
use crate::claims::{ClaimCheck, Verdict};

/// A published value of a board's start, as we check it.
struct StartClaim {
    id: &'static str,
    rows: u8,
    cols: u8,
    variant: Variant,
    value: i32,
    source: &'static str,
    claim: &'static str,
}

const CLAIMS: [StartClaim; 4] = [
    StartClaim {
        id: "3",
        rows: 2,
        cols: 2,
        variant: Variant::American,
        value: 2,
        source: "Winning Ways, the 4-box game",
        claim: "2x2 American: A wins 3-1",
    },
    StartClaim {
        id: "4",
        rows: 2,
        cols: 3,
        variant: Variant::American,
        value: -2,
        source: "D. Wilson",
        claim: "2x3 American",
    },
    StartClaim {
        id: "5",
        rows: 3,
        cols: 5,
        variant: Variant::Swedish,
        value: 5,
        source: "D. Wilson",
        claim: "3x5 Swedish",
    },
    StartClaim {
        id: "6",
        rows: 3,
        cols: 4,
        variant: Variant::Icelandic,
        value: 4,
        source: "D. Wilson",
        claim: "3x4 Icelandic",
    },
];

/// The boards still out of reach, with their published values: more than
/// 30 undrawn lines.
const LATER: [(&str, u8, u8, &str, &str); 3] = [
    ("7", 3, 5, "every first line scores -1", "D. Wilson"),
    ("8", 4, 4, "tie, 0", "D. Wilson"),
    ("9", 4, 5, "tie", "Barker & Korf, AAAI 2012"),
];

/// Checks every published claim. `table` supplies the solved table of a
/// board, solving it if need be.
///
/// # Errors
///
/// Whatever `table` fails with.
pub fn verify<E>(mut table: impl FnMut(&Board) -> Result<Table<Margin>, E>) -> Result<Vec<ClaimCheck>, E> {
    let board = |rows, cols, variant| Board::new(rows, cols, variant).expect("claimed boards fit");
    let three = board(3, 3, Variant::American);
    let summary = three.summary(&table(&three)?);
    let scores: Vec<i32> = summary.first_moves.iter().map(|m| m.score).collect();
    let all_minus_three = scores.len() == 24 && scores.iter().all(|&s| s == -3);
    let mut claims = vec![
        ClaimCheck::new(
            "1",
            "3x3 American: every first line scores -3 (B wins 6-3)",
            "D. Wilson, analysis results",
            "24 lines, all -3",
            describe_scores(&scores),
            Verdict::of(all_minus_three),
        ),
        ClaimCheck::new(
            "2",
            "3x3 American: B can force at least a 1-box win",
            "E. Berlekamp, The Dots-and-Boxes Game, p. 9",
            "at most -1",
            summary.value.to_string(),
            Verdict::of(summary.value <= -1),
        ),
    ];
    for c in &CLAIMS {
        let b = board(c.rows, c.cols, c.variant);
        let value = b.summary(&table(&b)?).value;
        claims.push(ClaimCheck::new(
            c.id,
            c.claim,
            c.source,
            format!("{:+}", c.value),
            format!("{value:+}"),
            Verdict::of(value == c.value),
        ));
    }
    for (id, rows, cols, published, source) in LATER {
        let reason = match Board::new(rows, cols, Variant::American) {
            Err(BoardError::TooManyLines { lines, .. }) => format!("{lines} undrawn lines, over {MAX_FREE_LINES}"),
            Err(error) => error.to_string(),
            Ok(_) => "within reach: add the claim".into(),
        };
        claims.push(ClaimCheck::new(
            id,
            &format!("{rows}x{cols} American"),
            source,
            published,
            format!("not yet reachable: {reason}"),
            Verdict::NotYetReachable,
        ));
    }
    Ok(claims)
}

fn describe_scores(scores: &[i32]) -> String {
    let mut distinct: Vec<i32> = scores.to_vec();
    distinct.sort();
    distinct.dedup();
    let list: Vec<String> = distinct.iter().map(|s| format!("{s:+}")).collect();
    format!("{} lines, scores {}", scores.len(), list.join(", "))
}
