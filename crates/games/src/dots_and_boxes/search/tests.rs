use solved_engine::Silent;
use solved_engine::sweep::{self, Margins};

use super::super::{Board, Variant};
use super::Search;
use super::check::random_positions;

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
