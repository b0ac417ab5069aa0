//! Dots and Boxes' published results, checked against our tables.

use std::time::Instant;

use solved_engine::{Progress, Table, TableError, sweep};

use super::quiet::{QuietOutcomes, QuietTable, agrees_with_sweep};
use super::search::{Search, check_record, search_agrees_with_sweep};
use super::wilson::{Diagram, Loony};
use super::{Board, Scorer, Variant};
use crate::claims::{ClaimCheck, Verdict};
use crate::tables::ObtainError;

/// Wilson's diagrams, copied into the repository (see `data/SOURCES.md`).
const WILSON_3X3: &str = include_str!("data/3x3_american_scores.txt");
const WILSON_3X5: &str = include_str!("data/3x5_american_scores.txt");
const WILSON_4X4: &str = include_str!("data/4x4_american_scores_loony.txt");

/// The 4×5 search's record, as far as it has come (see `data/SOURCES.md`).
pub(super) const RECORD_4X5: &str = include_str!("data/4x5_american_search.json");
const RECORD_4X5_PATH: &str = "crates/games/src/dots_and_boxes/data/4x5_american_search.json";

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

/// A published diagram of a board's first lines, as we check it.
struct DiagramClaim {
    id: &'static str,
    rows: u8,
    cols: u8,
    claim: &'static str,
    published: &'static str,
    diagram: &'static str,
    /// Whether the diagram gives loony marks to check too.
    marks: bool,
}

const FIRST: DiagramClaim = DiagramClaim {
    id: "1",
    rows: 3,
    cols: 3,
    claim: "3x3 American: every one of the 24 first lines scores -3 (B wins 6-3)",
    published: "24 lines, all -3",
    diagram: WILSON_3X3,
    marks: false,
};

/// The boards past one table of every position, whose tables take an hour
/// or more: checked when they are built, never built by `verify`.
const LARGE: [DiagramClaim; 2] = [
    DiagramClaim {
        id: "7",
        rows: 3,
        cols: 5,
        claim: "3x5 American (38 lines): every first line scores -1",
        published: "38 lines, all -1",
        diagram: WILSON_3X5,
        marks: false,
    },
    DiagramClaim {
        id: "8",
        rows: 4,
        cols: 4,
        claim: "4x4 American (40 lines): a tie, with loony marks",
        published: "40 lines, all 0; 0^ but plain 0 at the four lines of the centre dot",
        diagram: WILSON_4X4,
        marks: true,
    },
];

/// The boards whose quiet solve `verify --exhaustive` compares with the
/// full sweep on every position: every board of at most 30 undrawn lines
/// that the sweep solves here and the issue of the quiet solver names.
pub const SWEPT: [(u8, u8, Variant); 9] = [
    (2, 2, Variant::American),
    (2, 3, Variant::American),
    (2, 4, Variant::American),
    (2, 5, Variant::American),
    (3, 3, Variant::American),
    (3, 4, Variant::Icelandic),
    (4, 4, Variant::Swedish),
    (3, 6, Variant::Swedish),
    (3, 5, Variant::Icelandic),
];

/// Checks every published claim. `table` supplies the quiet table of a
/// small board, solving it if need be; `built` that of a large board, if
/// it is there.
///
/// # Errors
///
/// Whatever `table` or `built` fails with.
pub fn verify<E: From<TableError>>(
    mut table: impl FnMut(&QuietTable) -> Result<std::sync::Arc<Table<QuietOutcomes>>, E>,
    mut built: impl FnMut(&QuietTable) -> Result<Option<Table<QuietOutcomes>>, E>,
) -> Result<Vec<ClaimCheck>, E> {
    let quiet = |rows, cols, variant| QuietTable::new(&Board::new(rows, cols, variant).expect("claimed boards fit"));
    let three = quiet(3, 3, Variant::American);
    let three_table = table(&three)?;
    let scorer = Scorer::new(&three, &three_table);
    let summary = scorer.summary()?;
    let mut claims = vec![
        check_diagram(&FIRST, &scorer)?,
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
        let board = quiet(c.rows, c.cols, c.variant);
        let value = Scorer::new(&board, &*table(&board)?).value(&board.board().start())?;
        claims.push(ClaimCheck::new(
            c.id,
            c.claim,
            c.source,
            format!("{:+}", c.value),
            format!("{value:+}"),
            Verdict::of(value == c.value),
        ));
    }
    for c in &LARGE {
        let board = quiet(c.rows, c.cols, Variant::American);
        claims.push(match built(&board)? {
            Some(table) => check_diagram(c, &Scorer::new(&board, &table))?,
            None => {
                let hours = crate::tables::Solvable::cost(&board).seconds / 3600.0;
                ClaimCheck::new(
                    c.id,
                    c.claim,
                    "D. Wilson",
                    c.published,
                    format!(
                        "not checked: the table is not built (`solved solve dots-and-boxes --rows {} --cols {}` builds it, in about {hours:.1} hours)",
                        c.rows, c.cols
                    ),
                    Verdict::NotYetReachable,
                )
            }
        });
    }
    claims.push(check_4x5(RECORD_4X5));
    Ok(claims)
}

/// Barker and Korf's 4×5 tie, as far as the search's record in the
/// repository has come: the record read, every recorded position held to
/// its recorded children, and the start's value once it is recorded.
fn check_4x5(record: &str) -> ClaimCheck {
    let claim = |ours: String, verdict| {
        ClaimCheck::new("9", "4x5 American (49 lines): a tie", "Barker & Korf, AAAI 2012", "0 (a tie)", ours, verdict)
    };
    let board = Board::for_search(4, 5, Variant::American).expect("4x5 is within the search's reach");
    let check = match check_record(&board, record) {
        Ok(check) => check,
        Err(error) => return claim(format!("the search's record is not one: {error}"), Verdict::Disagrees),
    };
    let work = format!(
        "{} positions recorded, {} positions searched in {:.1} hours",
        check.positions,
        crate::text::thousands(check.nodes),
        check.seconds / 3600.0
    );
    if !check.contradictions.is_empty() {
        let some = check.contradictions.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
        return claim(
            format!("the record contradicts itself at {} positions ({some}): {work}", check.contradictions.len()),
            Verdict::Disagrees,
        );
    }
    match check.start {
        (lower, upper) if lower == upper => claim(format!("{lower:+} by search ({work})"), Verdict::of(lower == 0)),
        (lower, upper) => claim(
            format!(
                "under way: the start lies in {lower:+}..={upper:+} so far ({work}; `solved solve dots-and-boxes --rows 4 --cols 5 --record {RECORD_4X5_PATH}` goes on)"
            ),
            Verdict::NotYetReachable,
        ),
    }
}

/// Claim 9 found again (`verify --search-again`): the start's value in
/// the repository's record, tested by the search `make` gives (which knows
/// nothing of that record), made only if the record has the value.
///
/// # Errors
///
/// What making the search failed with; [`SearchError`](super::search::SearchError) if the progress
/// asks to stop or the search's own record cannot be written.
pub(super) fn check_4x5_again(
    make: impl FnOnce() -> anyhow::Result<Search>,
    progress: &dyn Progress,
) -> anyhow::Result<ClaimCheck> {
    let board = Board::for_search(4, 5, Variant::American).expect("4x5 is within the search's reach");
    check_again(&board, RECORD_4X5, 0, make, progress)
}

/// The start's value as `record` has it, tested again by the search `make`
/// gives and held to `published`.
fn check_again(
    board: &Board,
    record: &str,
    published: i32,
    make: impl FnOnce() -> anyhow::Result<Search>,
    progress: &dyn Progress,
) -> anyhow::Result<ClaimCheck> {
    let claim = |ours: String, verdict| {
        ClaimCheck::new(
            "9b",
            "4x5 American (49 lines): a tie, searched again from nothing",
            "Barker & Korf, AAAI 2012",
            "0 (a tie)",
            ours,
            verdict,
        )
    };
    let check = match check_record(board, record) {
        Ok(check) => check,
        Err(error) => return Ok(claim(format!("the search's record is not one: {error}"), Verdict::Disagrees)),
    };
    // The start's value is the best of the first lines': their bounds are
    // what is searched again.
    let claims: Vec<(u32, i32, i32)> = (0..)
        .zip(&check.first_moves)
        .filter_map(|(bit, (_, bounds))| bounds.map(|(lower, upper)| (bit, lower, upper)))
        .collect();
    let best = |pick: fn(&(u32, i32, i32)) -> i32| claims.iter().map(pick).max();
    let (lower, upper) = (best(|c| c.1), best(|c| c.2));
    let value = match (lower, upper) {
        (Some(lower), Some(upper)) if lower == upper && claims.len() == check.first_moves.len() => lower,
        _ => {
            let (lower, upper) = check.start;
            return Ok(claim(
                format!("not yet: the record's first lines put the start within {lower:+}..={upper:+} only"),
                Verdict::NotYetReachable,
            ));
        }
    };
    let search = make()?;
    let (began, before) = (Instant::now(), search.nodes());
    let held = search.first_lines_hold(&claims, progress)?;
    let work = format!(
        "{} positions in {}",
        crate::text::thousands(search.nodes() - before),
        crate::text::duration(began.elapsed().as_secs_f64())
    );
    let failed: Vec<String> = claims
        .iter()
        .zip(&held)
        .filter(|(_, held)| !**held)
        .map(|(&(bit, lower, upper), _)| format!("{} not in {lower:+}..={upper:+}", check.first_moves[bit as usize].0))
        .collect();
    let exact = claims.iter().filter(|c| c.1 == c.2).count();
    Ok(if failed.is_empty() {
        claim(
            format!(
                "{value:+} again, with every first line's recorded score ({exact} of {} exact; {work})",
                claims.len()
            ),
            Verdict::of(value == published),
        )
    } else {
        claim(format!("the record is wrong: {} ({work})", failed.join("; ")), Verdict::Disagrees)
    })
}

/// Compares every line of the start with Wilson's diagram: its score and,
/// if the diagram has them, its loony mark.
fn check_diagram(claim: &DiagramClaim, scorer: &Scorer<'_>) -> Result<ClaimCheck, TableError> {
    let diagram: Diagram = claim.diagram.parse().expect("Wilson's diagrams parse");
    assert_eq!((diagram.rows, diagram.cols), (claim.rows, claim.cols), "the diagram is of the claimed board");
    let scores = scorer.line_scores(&scorer.board().start())?;
    let mut disagree: Vec<String> = Vec::new();
    for &(line, published) in &diagram.scores {
        let ours = scores.iter().find(|s| s.line == line).expect("every line of the start is scored");
        let mark = |loony: Option<Loony>| loony.map_or("", Loony::symbol);
        let published_mark = diagram.loony.iter().find(|l| l.0 == line).map(|l| l.1);
        if ours.score != published || (claim.marks && ours.loony != published_mark) {
            disagree.push(format!(
                "{line}: {}{} where Wilson has {published}{}",
                ours.score,
                mark(ours.loony),
                mark(published_mark)
            ));
        }
    }
    let ours = if disagree.is_empty() {
        format!("{} lines, all as the diagram{}", scores.len(), if claim.marks { ", marks too" } else { "" })
    } else {
        disagree.join("; ")
    };
    let agrees = disagree.is_empty() && diagram.scores.len() == scores.len();
    Ok(ClaimCheck::new(
        claim.id,
        claim.claim,
        "D. Wilson, analysis results",
        claim.published,
        ours,
        Verdict::of(agrees),
    ))
}

/// Compares the quiet solver with the full sweep on every position of each
/// board of [`SWEPT`], and the search at the start, every first line and
/// random positions of each.
///
/// # Errors
///
/// [`ObtainError`] if `progress` asks to stop.
pub fn verify_against_sweep(progress: &dyn Progress) -> Result<Vec<ClaimCheck>, ObtainError> {
    let mut checks = Vec::new();
    for (i, &(rows, cols, variant)) in SWEPT.iter().enumerate() {
        let board = Board::new(rows, cols, variant).expect("swept boards fit");
        let margins = sweep::solve(board.free_line_count(), &board.groups(), progress)?;
        let wrong = agrees_with_sweep(&board, &margins, progress)?;
        checks.push(ClaimCheck::new(
            &format!("s{}", i + 1),
            &format!("{rows}x{cols} {}: the quiet solver gives the sweep's margin everywhere", variant.id()),
            "the full sweep of this tool",
            format!("all {} positions", 1u64 << board.free_line_count()),
            match wrong {
                None => format!("all {} positions agree", 1u64 << board.free_line_count()),
                Some(drawn) => format!("position {drawn:#x} (free lines drawn) differs"),
            },
            Verdict::of(wrong.is_none()),
        ));
        let wrong = search_agrees_with_sweep(&board, &margins, SEARCH_SAMPLES, i as u64, progress)?;
        checks.push(ClaimCheck::new(
            &format!("s{}-search", i + 1),
            &format!(
                "{rows}x{cols} {}: the search gives the sweep's margin at the start, after every first line and at {SEARCH_SAMPLES} random positions",
                variant.id()
            ),
            "the full sweep of this tool",
            format!("{} positions", SEARCH_SAMPLES as u32 + 1 + board.free_line_count()),
            match wrong {
                None => "all agree".to_string(),
                Some(drawn) => format!("position {drawn:#x} (free lines drawn) differs"),
            },
            Verdict::of(wrong.is_none()),
        ));
    }
    Ok(checks)
}

/// Random positions of each swept board the search is checked at.
const SEARCH_SAMPLES: usize = 10_000;

#[cfg(test)]
mod tests {
    use solved_engine::Silent;

    use super::*;

    const HEAD: &str = r#"{"format":"solved dots-and-boxes search record 1","rows":4,"cols":5,"variant":"american","nodes":7,"seconds":3600.0,"positions":["#;

    /// The record in the repository reads and holds together; a record
    /// that gives the start a value is held to the tie.
    #[test]
    fn the_4x5_claim_reads_the_record_and_holds_its_start_to_the_tie() {
        assert_ne!(check_4x5(RECORD_4X5).verdict, Verdict::Disagrees, "{}", check_4x5(RECORD_4X5).ours);
        let with_start = |bounds: &str| format!(r#"{HEAD}{{"lines":"",{bounds}}}]}}"#);
        assert_eq!(check_4x5(&with_start(r#""lower":0,"upper":0"#)).verdict, Verdict::Agrees);
        assert_eq!(check_4x5(&with_start(r#""lower":2,"upper":2"#)).verdict, Verdict::Disagrees);
        assert_eq!(check_4x5(&with_start(r#""lower":-2,"upper":2"#)).verdict, Verdict::NotYetReachable);
        let broken = check_4x5("{");
        assert_eq!(broken.verdict, Verdict::Disagrees);
        assert!(broken.ours.contains("not one"), "{}", broken.ours);
    }

    /// The claim searched again, on 3×3 (a win by 3 for B): the record of
    /// a search agrees; with a first line's score made one better, it is
    /// wrong; with only the start's bounds, not yet checked.
    #[test]
    fn the_first_lines_searched_again_are_held_to_the_record_and_to_the_published_value() {
        let board = Board::new(3, 3, Variant::American).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        Search::new(&board, 1 << 16).with_record(&path).unwrap().start(&Silent).unwrap();
        let record = std::fs::read_to_string(&path).unwrap();
        let again = |record: &str, published: i32| {
            check_again(&board, record, published, || Ok(Search::new(&board, 1 << 16)), &Silent).unwrap()
        };
        let found = again(&record, -3);
        assert_eq!(found.verdict, Verdict::Agrees, "{}", found.ours);
        assert!(
            found.ours.starts_with("-3 again, with every first line's recorded score (24 of 24 exact"),
            "{}",
            found.ours
        );
        assert_eq!(again(&record, 0).verdict, Verdict::Disagrees);
        // Line ab's position (B to move) recorded one box better for B: ab is then a worse line for A than it is.
        let entry = record.lines().find(|line| line.contains(r#""lines":"ab","#)).expect("ab is recorded");
        let margin: i32 = entry.split(r#""lower":"#).nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
        let wrong = record.replace(
            entry,
            &entry.replace(
                &format!(r#""lower":{margin},"upper":{margin}"#),
                &format!(r#""lower":{0},"upper":{0}"#, margin + 2),
            ),
        );
        let caught = again(&wrong, -3);
        assert_eq!(caught.verdict, Verdict::Disagrees, "{}", caught.ours);
        assert!(caught.ours.contains("ab not in"), "{}", caught.ours);
        let start_only = r#"{"format":"solved dots-and-boxes search record 1","rows":3,"cols":3,"variant":"american","nodes":7,"seconds":1.0,"positions":[{"lines":"","lower":-3,"upper":-3}]}"#;
        assert_eq!(again(start_only, -3).verdict, Verdict::NotYetReachable);
    }
}
