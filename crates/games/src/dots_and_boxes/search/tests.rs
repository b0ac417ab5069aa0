use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use solved_engine::sweep::{self, Margins};
use solved_engine::{Progress, Silent};

use super::super::{Board, Variant};
use super::check::random_positions;
use super::record::{MAX_RECORDED_LINES, RECORDED_LINES, free_lines_named};
use super::{Search, SearchError, check_record};

const VARIANTS: [Variant; 3] = [Variant::American, Variant::Swedish, Variant::Icelandic];

fn swept(board: &Board) -> Margins {
    sweep::solve(board.free_line_count(), &board.groups(), &Silent).unwrap()
}

fn disagreements(
    board: &Board,
    search: &Search,
    margins: &Margins,
    positions: impl Iterator<Item = u64>,
) -> Vec<String> {
    positions
        .filter_map(|drawn| {
            let (searched, swept) = (search.margin(drawn, &Silent).unwrap(), i32::from(margins.get(drawn)));
            (searched != swept)
                .then(|| format!("{}: lines {drawn:#x}: search {searched}, sweep {swept}", board_name(board)))
        })
        .take(5)
        .collect()
}

fn board_name(board: &Board) -> String {
    format!("{}x{} {}", board.rows(), board.cols(), board.variant().id())
}

/// Every position of every board of at most 17 lines: the capture rules
/// the search relies on without proof meet every case these boards have.
#[test]
fn the_search_agrees_with_the_sweep_on_every_position_of_the_small_boards() {
    let mut boards = 0;
    for (rows, cols) in [(1, 1), (1, 2), (1, 3), (1, 4), (2, 2), (1, 5), (2, 3), (3, 3), (2, 4), (3, 4)] {
        for variant in VARIANTS {
            let board = Board::new(rows, cols, variant).unwrap();
            if board.free_line_count() > 17 {
                continue;
            }
            // A small table, so that entries are overwritten often.
            let search = Search::new(&board, 1 << 12);
            let margins = swept(&board);
            assert_eq!(disagreements(&board, &search, &margins, 0..margins.len()), Vec::<String>::new());
            boards += 1;
        }
    }
    assert_eq!(boards, 25, "boards of at most 17 undrawn lines");
}

/// Random positions of boards of 20 to 24 lines, at every stage of the
/// game, and every first line of each.
#[test]
fn the_search_agrees_with_the_sweep_on_random_positions_and_first_lines_of_larger_boards() {
    for (seed, (rows, cols, variant)) in [
        (3, 3, Variant::American),
        (2, 4, Variant::American),
        (3, 4, Variant::Icelandic),
        (4, 4, Variant::Swedish),
        (3, 5, Variant::Swedish),
    ]
    .into_iter()
    .enumerate()
    {
        let board = Board::new(rows, cols, variant).unwrap();
        let margins = swept(&board);
        let search = Search::new(&board, 1 << 22);
        let positions = random_positions(board.free_line_count(), 10_000, 45 + seed as u64);
        assert_eq!(disagreements(&board, &search, &margins, positions.into_iter()), Vec::<String>::new());
        let start = search.start(&Silent).unwrap();
        assert_eq!(start.value, i32::from(margins.get(0)), "{}", board_name(&board));
        for (first, line) in start.first_moves.iter().zip(board.free_lines()) {
            assert_eq!(first.line, *line);
            let bit = board.bit(*line).unwrap();
            assert_eq!(first.score, -i32::from(margins.get(1 << bit)), "{} {line}", board_name(&board));
        }
        assert!(start.nodes > 0);
    }
}

/// The loony endgame's recursion, alone, on every position of three boards
/// of 24 lines that it values.
#[test]
fn every_loony_endgame_of_three_boards_is_valued_as_the_sweep_values_it() {
    for (rows, cols, variant) in [(3, 3, Variant::American), (3, 4, Variant::Icelandic), (4, 4, Variant::Swedish)] {
        let board = Board::new(rows, cols, variant).unwrap();
        let margins = swept(&board);
        let search = Search::new(&board, 1 << 12);
        let (mut valued, mut wrong) = (0u64, Vec::new());
        for drawn in 0..margins.len() {
            if let Some(margin) = search.endgame(drawn) {
                valued += 1;
                if margin != i32::from(margins.get(drawn)) && wrong.len() < 5 {
                    wrong.push(format!("{}: {drawn:#x}: {margin}, sweep {}", board_name(&board), margins.get(drawn)));
                }
            }
        }
        assert_eq!(wrong, Vec::<String>::new());
        assert!(valued > 100, "{}: only {valued} endgames", board_name(&board));
    }
}

/// Says to stop once it has been asked `calls` times.
#[derive(Debug)]
struct StopAfter {
    calls: AtomicU64,
}

impl Progress for StopAfter {
    fn should_stop(&self) -> bool {
        self.calls.fetch_sub(1, Ordering::Relaxed) <= 1
    }
}

/// The positions a record holds, as sets of drawn lines, with their bounds.
fn recorded(board: &Board, path: &Path) -> Vec<(u64, i32, i32)> {
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let bound = |entry: &serde_json::Value, name: &str| entry[name].as_i64().unwrap() as i32;
    file["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let drawn = free_lines_named(board, entry["lines"].as_str().unwrap()).unwrap();
            (drawn, bound(entry, "lower"), bound(entry, "upper"))
        })
        .collect()
}

/// A search stopped part way goes on from its record to the answer of a
/// search that was not stopped, visiting fewer positions, and every bound
/// the record holds is true: with the first lines recorded, and with every
/// position of up to ten lines whose search visits a thousand or more.
#[test]
fn a_search_stopped_part_way_goes_on_from_its_record_to_the_same_answer() {
    for (rows, cols, variant, recorded_from) in
        [(3, 3, Variant::American, u64::MAX), (2, 4, Variant::Icelandic, u64::MAX), (3, 3, Variant::American, 1000)]
    {
        let board = Board::new(rows, cols, variant).unwrap();
        let name = board_name(&board);
        let margins = swept(&board);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        let whole = Search::new(&board, 1 << 22).start(&Silent).unwrap();
        let stopped = Search::new(&board, 1 << 22).with_record(&path).unwrap().recording_from(recorded_from);
        let stop = StopAfter { calls: AtomicU64::new(3) };
        assert!(matches!(stopped.start(&stop), Err(SearchError::Interrupted(_))), "{name}");
        drop(stopped);
        let bounds = recorded(&board, &path);
        assert!(!bounds.is_empty(), "{name}: nothing recorded");
        let deepest = bounds.iter().map(|&(drawn, _, _)| drawn.count_ones()).max().unwrap();
        if recorded_from == u64::MAX {
            assert!(deepest <= RECORDED_LINES, "{name}: {deepest} lines");
        } else {
            assert!((RECORDED_LINES + 1..=MAX_RECORDED_LINES).contains(&deepest), "{name}: {deepest} lines");
        }
        for &(drawn, lower, upper) in &bounds {
            let margin = i32::from(margins.get(drawn));
            assert!((lower..=upper).contains(&margin), "{name}: {drawn:#x}: {lower}..={upper}, sweep {margin}");
        }
        let resumed = Search::new(&board, 1 << 22)
            .with_record(&path)
            .unwrap()
            .recording_from(recorded_from)
            .start(&Silent)
            .unwrap();
        assert_eq!(resumed.recorded.0, bounds.len(), "{name}");
        assert_eq!((resumed.value, &resumed.first_moves), (whole.value, &whole.first_moves), "{name}");
        assert!(resumed.nodes < whole.nodes, "{name}: {} positions resumed, {} whole", resumed.nodes, whole.nodes);
        // Every first line is recorded now: a third run searches nothing
        // below them.
        let again = Search::new(&board, 1 << 22).with_record(&path).unwrap().start(&Silent).unwrap();
        assert_eq!((again.value, &again.first_moves), (whole.value, &whole.first_moves), "{name}");
        // MTD(f) asks each first line twice, for each side of its value.
        assert!(again.nodes <= 3 * board.free_line_count() as u64, "{name}: {} positions", again.nodes);
        for &(drawn, lower, upper) in &recorded(&board, &path) {
            let margin = i32::from(margins.get(drawn));
            assert!((lower..=upper).contains(&margin), "{name}: {drawn:#x}: {lower}..={upper}, sweep {margin}");
        }
    }
}

/// A record that cannot be a true one of this board is refused, saying
/// why, and left as it was; so is one another search holds.
#[test]
fn a_record_of_another_board_or_not_a_record_at_all_is_refused_and_kept() {
    let board = Board::new(2, 2, Variant::American).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("record.json");
    let head = r#"{"format":"solved dots-and-boxes search record 1","rows":2,"cols":2,"variant":"american","nodes":5,"seconds":1.0,"positions":["#;
    for (text, says) in [
        ("not json".to_string(), "expected"),
        (head.replace("record 1", "record 9") + "]}", "format"),
        (head.replace("\"rows\":2", "\"rows\":3") + "]}", "it is of 3x2 american, not of 2x2 american"),
        (format!(r#"{head}{{"lines":"ab,zz","lower":0,"upper":0}}]}}"#), "zz"),
        (format!(r#"{head}{{"lines":"ab,ab","lower":0,"upper":0}}]}}"#), "ab twice"),
        (format!(r#"{head}{{"lines":"ab","lower":2,"upper":0}}]}}"#), "lower bound above upper"),
        (
            format!(r#"{head}{{"lines":"ab","lower":2,"upper":4}},{{"lines":"ab","lower":-4,"upper":0}}]}}"#),
            "contradict",
        ),
    ] {
        std::fs::write(&path, &text).unwrap();
        let error = Search::new(&board, 1 << 12).with_record(&path).unwrap_err().to_string();
        assert!(error.contains(says) && error.contains("record.json"), "{text}: {error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    std::fs::remove_file(&path).unwrap();
    let held = Search::new(&board, 1 << 12).with_record(&path).unwrap();
    let error = Search::new(&board, 1 << 12).with_record(&path).unwrap_err().to_string();
    assert!(error.contains("another search is writing it"), "{error}");
    drop(held);
    Search::new(&board, 1 << 12).with_record(&path).unwrap();
}

/// A whole record of a board reads back as the sweep's start and first
/// lines, every position consistent with its children; a false bound put
/// in is caught.
#[test]
fn a_record_read_back_gives_the_sweeps_values_and_a_false_bound_is_caught() {
    let board = Board::new(3, 3, Variant::American).unwrap();
    let margins = swept(&board);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("record.json");
    Search::new(&board, 1 << 22).with_record(&path).unwrap().recording_from(1000).start(&Silent).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let check = check_record(&board, &text).unwrap();
    assert_eq!(check.contradictions, Vec::<String>::new());
    let start = i32::from(margins.get(0));
    assert_eq!(check.start, (start, start));
    assert!(check.positions > 100, "{} positions", check.positions);
    for (bit, (line, bounds)) in check.first_moves.iter().enumerate() {
        let score = -i32::from(margins.get(1 << bit));
        assert_eq!(*bounds, Some((score, score)), "{line}");
    }
    // A first line said to hand A all nine boxes.
    let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = file["positions"].as_array_mut().unwrap().iter_mut().find(|p| p["lines"] == "ab").unwrap();
    (first["lower"], first["upper"]) = ((-9).into(), (-9).into());
    let check = check_record(&board, &file.to_string()).unwrap();
    assert_eq!(check.contradictions, vec!["ab".to_string()]);
    assert_eq!(check.start, (9, 9), "the start, read from the first lines, takes the false bound");
    let other = Board::new(3, 3, Variant::Swedish).unwrap();
    assert!(check_record(&other, &text).unwrap_err().contains("not of 3x3 swedish"));
}

/// Bounds on the first lines tested again: the sweep's scores hold, as
/// bounds and exactly, and a score one off does not, on boards whose first
/// lines take boxes (Swedish 1×2) and whose do not.
#[test]
fn first_lines_tested_again_hold_at_the_sweeps_scores_only() {
    for (rows, cols, variant) in
        [(3, 3, Variant::American), (2, 4, Variant::Icelandic), (1, 2, Variant::Swedish), (2, 3, Variant::Swedish)]
    {
        let board = Board::new(rows, cols, variant).unwrap();
        let truth = Search::new(&board, 1 << 16).line_worths(0, &Silent).unwrap();
        let boxes = board.groups().len() as i32;
        let bits = 0..truth.len() as u32;
        let exact: Vec<(u32, i32, i32)> = bits.clone().zip(&truth).map(|(bit, m)| (bit, m.score, m.score)).collect();
        let search = Search::new(&board, 1 << 16);
        assert!(search.first_lines_hold(&exact, &Silent).unwrap().iter().all(|&held| held), "{}", board_name(&board));
        for (bit, m) in bits.zip(&truth) {
            let claims =
                [(bit, m.score + 1, boxes), (bit, -boxes, m.score - 1), (bit, -boxes, boxes), (bit, m.score, boxes)];
            let held = Search::new(&board, 1 << 16).first_lines_hold(&claims, &Silent).unwrap();
            assert_eq!(held, [false, false, true, true], "{} line {}", board_name(&board), m.line);
        }
    }
}
