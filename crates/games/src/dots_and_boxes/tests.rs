use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::table::Margin;
use solved_engine::{Silent, Table, TableError, TableStore};

use super::quiet::{QuietOutcomes, QuietTable};
use super::wilson::{Diagram, DiagramError, Loony};
use super::*;

const VARIANTS: [Variant; 3] = [Variant::American, Variant::Swedish, Variant::Icelandic];

/// The full table of `board`, swept into a private store.
fn table(board: &Board) -> Table<Margin> {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    crate::tables::obtain(board, &store, &Silent).unwrap().0
}

/// The quiet table of `board`, solved into a private store.
fn quiet(board: &Board) -> (QuietTable, Table<QuietOutcomes>) {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let quiet = QuietTable::new(board);
    let table = crate::tables::obtain(&quiet, &store, &Silent).unwrap().0;
    (quiet, table)
}

/// The final score A − B with perfect play, by searching the whole game
/// tree from `pos`, carrying the boxes taken: no table, no memo.
fn search(board: &Board, pos: &Position) -> i32 {
    let lines: Vec<Line> = board.undrawn(pos).collect();
    if lines.is_empty() {
        return pos.score_so_far();
    }
    let outcomes = lines.iter().map(|&line| search(board, &board.play(pos, line).unwrap()));
    match pos.turn() {
        Player::A => outcomes.max().unwrap(),
        Player::B => outcomes.min().unwrap(),
    }
}

/// A position reached by random lines from the start, with `left` undrawn.
fn random_position(board: &Board, left: usize, rng: &mut StdRng) -> Position {
    let mut pos = board.start();
    while board.undrawn(&pos).count() > left {
        let lines: Vec<Line> = board.undrawn(&pos).collect();
        pos = board.play(&pos, lines[rng.random_range(0..lines.len())]).unwrap();
    }
    pos
}

#[test]
fn the_table_agrees_with_a_full_game_search() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut tested = 0;
    for (rows, cols) in [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3)] {
        for variant in VARIANTS {
            let board = Board::new(rows, cols, variant).unwrap();
            let (quiet, table) = quiet(&board);
            let scorer = Scorer::new(&quiet, &table);
            for _ in 0..12 {
                let left = rng.random_range(0..=board.free_line_count().min(8) as usize);
                let pos = random_position(&board, left, &mut rng);
                let expected = search(&board, &pos);
                assert_eq!(scorer.value(&pos).unwrap(), expected, "{rows}x{cols} {variant:?} {pos:?}");
                let best = scorer.line_scores(&pos).unwrap().iter().filter(|s| s.best).map(|s| s.score).next();
                assert_eq!(best.unwrap_or(pos.score_so_far()), expected);
                tested += 1;
            }
        }
    }
    assert_eq!(tested, 15 * 12);
}

#[test]
fn every_stored_score_is_the_best_over_its_lines() {
    for (rows, cols, variant) in [(2, 2, Variant::American), (2, 3, Variant::American), (3, 3, Variant::Icelandic)] {
        let board = Board::new(rows, cols, variant).unwrap();
        let table = table(&board);
        let groups = board.groups();
        let full = (1u64 << board.free_line_count()) - 1;
        for state in 0..=full {
            let mut best = None;
            for bit in (0..board.free_line_count()).filter(|b| state >> b & 1 == 0) {
                let child = state | 1 << bit;
                let taken = groups.iter().filter(|&&g| g >> bit & 1 == 1 && child & g == g).count() as i32;
                let future = i32::from(table.probe_margin(child));
                let score = if taken > 0 { taken + future } else { -future };
                best = Some(best.map_or(score, |b: i32| b.max(score)));
            }
            assert_eq!(i32::from(table.probe_margin(state)), best.unwrap_or(0), "state {state:b}");
        }
    }
}

/// The line that `line` becomes under a symmetry of the square text grid
/// of side `n` (`turns` quarter turns, then an optional mirror).
fn transform(line: Line, n: u8, turns: u8, mirror: bool) -> Line {
    let (mut r, mut c) = (line.row(), line.col());
    for _ in 0..turns {
        (r, c) = (c, n - 1 - r);
    }
    if mirror {
        c = n - 1 - c;
    }
    Line::new(r, c).unwrap()
}

#[test]
fn symmetric_positions_on_3x3_have_equal_scores() {
    let board = Board::new(3, 3, Variant::American).unwrap();
    let table = table(&board);
    let mut rng = StdRng::seed_from_u64(9);
    for turns in 0..4 {
        for mirror in [false, true] {
            let image: Vec<u32> =
                board.free_lines().iter().map(|&l| board.bit(transform(l, 7, turns, mirror)).unwrap()).collect();
            for _ in 0..20_000 {
                let state: u32 = rng.random_range(0..1 << 24);
                let mapped = (0..24).filter(|b| state >> b & 1 == 1).fold(0u32, |m, b| m | 1 << image[b as usize]);
                assert_eq!(table.probe_margin(state.into()), table.probe_margin(mapped.into()));
            }
        }
    }
}

#[test]
fn line_names_round_trip() {
    let board = Board::new(3, 5, Variant::Icelandic).unwrap();
    for &line in board.free_lines() {
        assert_eq!(line.to_string().parse::<Line>().unwrap(), line);
    }
    assert_eq!("ab".parse::<Line>().unwrap(), Line::new(0, 1).unwrap());
    assert!("ab".parse::<Line>().unwrap().is_horizontal());
    assert!(!"ba".parse::<Line>().unwrap().is_horizontal());
    assert!(matches!("aa".parse::<Line>(), Err(ParseLineError::NotALine(_))));
    for bad in ["", "a", "abc", "A1", "a-"] {
        assert!(matches!(bad.parse::<Line>(), Err(ParseLineError::Shape(_))), "{bad:?}");
    }
}

#[test]
fn move_lists_give_owners_and_turns() {
    let board = Board::new(1, 1, Variant::American).unwrap();
    // A draws three sides, B draws the fourth and takes the box.
    let pos = parse_moves(&board, "ab, ba, bc").unwrap();
    assert_eq!(pos.turn(), Player::B);
    let done = board.play(&pos, "cb".parse().unwrap()).unwrap();
    assert_eq!(done.owners(), [Some(Player::B)]);
    assert_eq!(done.score_so_far(), -1);
    assert_eq!(done.turn(), Player::B, "taking a box keeps the turn");
    assert!(matches!(parse_moves(&board, "ab,ab"), Err(MovesError::Play { number: 2, .. })));
    assert!(matches!(parse_moves(&board, "ab,ax"), Err(MovesError::Play { number: 2, .. })), "off the board");
    assert!(matches!(parse_moves(&board, "ab,bb"), Err(MovesError::Parse { number: 2, .. })));
    let swedish = Board::new(1, 2, Variant::Swedish).unwrap();
    assert_eq!(swedish.free_line_count(), 1);
    assert!(matches!(parse_moves(&swedish, "ab"), Err(MovesError::Play { .. })), "drawn by the variant");
}

#[test]
fn boards_whose_quiet_positions_do_not_fit_are_refused_saying_why() {
    assert_eq!(Board::new(3, 5, Variant::American).unwrap().free_line_count(), 38);
    assert_eq!(Board::new(4, 4, Variant::American).unwrap().free_line_count(), 40);
    let error = Board::new(3, 6, Variant::American).unwrap_err().to_string();
    assert!(error.contains("45 undrawn lines") && error.contains("quiet positions would take"), "{error}");
    let error = Board::new(5, 6, Variant::American).unwrap_err().to_string();
    assert!(error.contains("at most 64"), "{error}");
    let error = Board::new(6, 6, Variant::American).unwrap_err().to_string();
    assert!(error.contains("at most 5 boxes on their shorter side"), "{error}");
    assert_eq!(Board::new(3, 5, Variant::Icelandic).unwrap().free_line_count(), 30);
    assert_eq!(Board::new(3, 5, Variant::Swedish).unwrap().free_line_count(), 22);
    assert!(Board::new(0, 3, Variant::American).is_err());
    assert!(Board::new(13, 1, Variant::Swedish).is_err());
}

/// Wilson's diagrams, copied into the repository (see `data/SOURCES.md`).
const WILSON_3X3: &str = include_str!("data/3x3_american_scores.txt");
const WILSON_3X5: &str = include_str!("data/3x5_american_scores.txt");
const WILSON_4X4_LOONY: &str = include_str!("data/4x4_american_scores_loony.txt");
const WILSON_3X5_SWEDISH: &str = include_str!("data/3x5_swedish_analyze_input.txt");

#[test]
fn wilsons_3x3_diagram_is_reproduced_line_by_line() {
    let diagram: Diagram = WILSON_3X3.parse().unwrap();
    assert_eq!((diagram.rows, diagram.cols), (3, 3));
    assert!(diagram.drawn.is_empty());
    assert_eq!(diagram.scores.len(), 24);
    let board = Board::new(3, 3, Variant::American).unwrap();
    let pos = board.position_from(&diagram, None).unwrap();
    let (quiet, table) = quiet(&board);
    let ours = Scorer::new(&quiet, &table).line_scores(&pos).unwrap();
    for (line, published) in &diagram.scores {
        let score = ours.iter().find(|s| s.line == *line).unwrap().score;
        assert_eq!(score, *published, "line {line}");
    }
}

#[test]
fn wilsons_other_diagrams_parse_with_their_marks() {
    let wide: Diagram = WILSON_3X5.parse().unwrap();
    assert_eq!((wide.rows, wide.cols, wide.scores.len()), (3, 5, 38));
    assert!(wide.scores.iter().all(|s| s.1 == -1));
    let loony: Diagram = WILSON_4X4_LOONY.parse().unwrap();
    assert_eq!((loony.rows, loony.cols, loony.scores.len()), (4, 4, 40));
    assert_eq!(loony.loony.len(), 36, "all but the four lines at the centre dot");
    assert!(loony.loony.iter().all(|l| l.1 == Loony::B));
    let swedish: Diagram = WILSON_3X5_SWEDISH.parse().unwrap();
    let board = Board::new(3, 5, Variant::Swedish).unwrap();
    assert_eq!(board.position_from(&swedish, None).unwrap(), board.start());
}

#[test]
fn written_diagrams_read_back() {
    let board = Board::new(2, 3, Variant::Icelandic).unwrap();
    let (quiet, table) = quiet(&board);
    let scorer = Scorer::new(&quiet, &table);
    let mut rng = StdRng::seed_from_u64(1);
    for left in [12, 7, 3, 0] {
        let pos = random_position(&board, left, &mut rng);
        let scores = scorer.line_scores(&pos).unwrap();
        let text = board.diagram(&pos, &scores);
        let diagram: Diagram = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let read = board.position_from(&diagram, Some(pos.turn())).unwrap();
        assert_eq!(read, pos, "\n{text}");
        let written: Vec<(Line, i32)> = scores.iter().map(|s| (s.line, s.score)).collect();
        let mut read_scores = diagram.scores.clone();
        read_scores.sort();
        assert_eq!(read_scores, written, "\n{text}");
        let marks: Vec<(Line, Loony)> = scores.iter().filter_map(|s| Some((s.line, s.loony?))).collect();
        let mut read_marks = diagram.loony.clone();
        read_marks.sort_by_key(|m| m.0);
        assert_eq!(read_marks, marks, "\n{text}");
    }
}

#[test]
fn diagrams_are_read_forgivingly() {
    let text = "Wilson's position, 2x2:\n\n\t+-----+ -3  +\tA to move\n\t|  A  |     -3\n\t|     |\n\t#-----#  2^ +   (the last move)\n\t 0v    0     0\n\t+ -3  + -3  +\n\nend\n";
    let diagram: Diagram = text.parse().unwrap();
    assert_eq!((diagram.rows, diagram.cols), (2, 2));
    assert_eq!(diagram.owners, [(BoxAt { row: 0, col: 0 }, Player::A)]);
    assert_eq!(diagram.last, Some("cb".parse().unwrap()));
    assert_eq!(diagram.loony, [("cd".parse().unwrap(), Loony::B), ("da".parse().unwrap(), Loony::A)]);
    let board = Board::new(2, 2, Variant::American).unwrap();
    assert_eq!(board.position_from(&diagram, None), Err(DiagramError::ToMove));
    let pos = board.position_from(&diagram, Some(Player::A)).unwrap();
    assert_eq!(pos.score_so_far(), 1);
}

#[test]
fn three_text_rows_between_dot_rows_are_read() {
    let text = "+-----+\n|     |\n|  B  |\n|     |\n+-----+\n|\n|    -1^\n|\n+ 1   +\n";
    let diagram: Diagram = text.parse().unwrap();
    assert_eq!((diagram.rows, diagram.cols), (2, 1));
    assert_eq!(diagram.owners, [(BoxAt { row: 0, col: 0 }, Player::B)]);
    assert_eq!(diagram.scores.len(), 2);
    assert_eq!(diagram.loony, [("dc".parse().unwrap(), Loony::B)]);
    let board = Board::new(2, 1, Variant::American).unwrap();
    let pos = board.position_from(&diagram, Some(Player::B)).unwrap();
    let (quiet, table) = quiet(&board);
    let written = board.diagram(&pos, &Scorer::new(&quiet, &table).line_scores(&pos).unwrap());
    let again: Diagram = written.parse().unwrap();
    assert_eq!(board.position_from(&again, Some(Player::B)).unwrap(), pos);
}

#[test]
fn malformed_diagrams_are_refused_with_a_reason() {
    let board = Board::new(1, 1, Variant::American).unwrap();
    let cases = [
        ("no board here", "no board found"),
        ("+ x +\n\n+   +", "unexpected \"x\""),
        ("+-----+\n|     |\n+-----+", "closed but shows no owner"),
        ("+     +\n   A\n+     +", "shows an owner but is not closed"),
        ("#-----#\n\n#     +", "# dots"),
    ];
    for (text, reason) in cases {
        let error = text.parse::<Diagram>().and_then(|d| board.position_from(&d, None)).unwrap_err().to_string();
        assert!(error.contains(reason), "{text:?}: {error}");
    }
    let wrong_size: Diagram = "+  +  +\n\n+  +  +".parse().unwrap();
    assert!(board.position_from(&wrong_size, None).unwrap_err().to_string().contains("1x2 board, not 1x1"));
    let icelandic = Board::new(1, 1, Variant::Icelandic).unwrap();
    let bare: Diagram = "+   +\n\n+   +".parse().unwrap();
    assert!(matches!(icelandic.position_from(&bare, None), Err(DiagramError::VariantLine(_))));
}

#[test]
fn published_claims_one_to_six_hold_and_the_large_ones_wait_for_their_tables() {
    use crate::claims::Verdict;
    let claims =
        verify(|board| Ok::<_, TableError>(std::sync::Arc::new(quiet(board.board()).1)), |_| Ok(None)).unwrap();
    assert_eq!(claims.len(), 9);
    for claim in &claims[..6] {
        assert_eq!(claim.verdict, Verdict::Agrees, "{claim:?}");
    }
    for claim in &claims[6..8] {
        assert_eq!(claim.verdict, Verdict::NotYetReachable, "{claim:?}");
        assert!(claim.ours.contains("solved solve dots-and-boxes --rows"), "{claim:?}");
    }
    // 4×5 by the search's record, which its own tests cover.
    assert_ne!(claims[8].verdict, Verdict::Disagrees, "{:?}", claims[8]);
    assert!(claims[8].ours.contains("positions recorded"), "{:?}", claims[8]);
}

#[test]
fn the_computer_takes_a_free_box_among_best_lines() {
    let board = Board::new(1, 2, Variant::American).unwrap();
    let (quiet, table) = quiet(&board);
    let scorer = Scorer::new(&quiet, &table);
    let mut rng = StdRng::seed_from_u64(2);
    // Three sides of the left box are drawn; taking it is best.
    let pos = parse_moves(&board, "ab,ba,cb,ad").unwrap();
    let line = scorer.choose(&pos, &mut rng).unwrap();
    let scores = scorer.line_scores(&pos).unwrap();
    assert!(scores.iter().any(|s| s.line == line && s.best));
    assert_eq!(line, "bc".parse().unwrap());
}

proptest::proptest! {
    #[test]
    fn any_line_name_reads_back(row in 0u8..26, col in 0u8..26) {
        let name: String = [char::from(b'a' + row), char::from(b'a' + col)].iter().collect();
        match Line::new(row, col) {
            Some(line) => {
                proptest::prop_assert_eq!(line.to_string(), name.clone());
                proptest::prop_assert_eq!(name.parse::<Line>(), Ok(line));
            }
            None => proptest::prop_assert!(name.parse::<Line>().is_err()),
        }
    }
}
