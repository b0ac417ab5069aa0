use num_traits::ToPrimitive;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::*;

fn board(goal: u64, jumps: &[(u64, u64)], overshoot: Overshoot) -> Board {
    Board::new("test", goal, Numbering::Squares, jumps, overshoot).unwrap()
}

const OVERSHOOTS: [Overshoot; 3] = [Overshoot::Stay, Overshoot::Bounce, Overshoot::Pass];

/// Small random valid boards, jumps chained sometimes.
fn random_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut boards = Vec::new();
    while boards.len() < count {
        let goal = rng.random_range(4..=24u64);
        let jumps: Vec<(u64, u64)> = (0..rng.random_range(0..=goal / 3))
            .map(|_| (rng.random_range(1..goal), rng.random_range(0..=goal)))
            .collect();
        let overshoot = OVERSHOOTS[rng.random_range(0..3)];
        if let Ok(board) = Board::new("random", goal, Numbering::Squares, &jumps, overshoot) {
            boards.push(board);
        }
    }
    boards
}

/// The fewest throws by trying every sequence of rolls, shortest first.
fn fewest_by_exhaustion(board: &Board, longest: u32) -> Option<usize> {
    (1..=longest)
        .find(|&length| {
            (0..6u64.pow(length)).any(|code| {
                let mut at = 0;
                let mut rest = code;
                for _ in 0..length {
                    at = board.step(at, (rest % 6) as u32 + 1);
                    rest /= 6;
                    if at == board.goal() {
                        return true;
                    }
                }
                false
            })
        })
        .map(|l| l as usize)
}

#[test]
fn breadth_first_search_agrees_with_trying_every_roll_sequence() {
    let mut reachable = 0;
    for board in random_boards(150, 1) {
        let shortest = shortest_game(&board);
        let exhaustive = fewest_by_exhaustion(&board, 6);
        match (&shortest, exhaustive) {
            (Some(game), Some(length)) => {
                assert_eq!(game.rolls.len(), length, "{board}");
                let end = game.rolls.iter().fold(0, |at, &roll| board.step(at, roll));
                assert_eq!(end, board.goal(), "the rolls reach the goal: {board}");
                reachable += 1;
            }
            (Some(game), None) => assert!(game.rolls.len() > 6, "{board}"),
            (None, found) => assert_eq!(found, None, "{board}"),
        }
    }
    assert!(reachable > 100);
}

/// The expectation by an independent dense solve of `(I − P) E = 1` in
/// floating point, over the positions from which the goal is certain.
fn expectation_by_floats(board: &Board) -> f64 {
    let n = board.goal() as usize;
    let mut a = vec![vec![0.0f64; n + 1]; n];
    for (at, row) in a.iter_mut().enumerate() {
        row[at] += 1.0;
        for roll in 1..=FACES {
            let next = board.step(at as u32, roll) as usize;
            if next != n {
                row[next] -= 1.0 / 6.0;
            }
        }
        row[n] = 1.0;
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap();
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    a[0][n] / a[0][0]
}

#[test]
fn the_exact_expectation_agrees_with_a_floating_point_solve() {
    let mut finite = 0;
    for board in random_boards(120, 2) {
        let Some(exact) = expected_turns(&board).from_start else { continue };
        let float = expectation_by_floats(&board);
        let exact = exact.to_f64().unwrap();
        assert!((exact - float).abs() <= 1e-8 * exact.max(1.0), "{exact} vs {float}: {board}");
        finite += 1;
    }
    assert!(finite > 80);
    let milton = built_in("milton-bradley", Overshoot::Stay).unwrap();
    let exact = expected_turns(&milton).from_start.unwrap().to_f64().unwrap();
    assert!((exact - expectation_by_floats(&milton)).abs() < 1e-9 * exact);
}

#[test]
fn the_exact_expectation_agrees_with_a_seeded_monte_carlo_run() {
    let board = built_in("milton-bradley", Overshoot::Stay).unwrap();
    let exact = expected_turns(&board).from_start.unwrap().to_f64().unwrap();
    let mut rng = StdRng::seed_from_u64(42);
    let games = 100_000;
    let lengths: Vec<f64> = (0..games)
        .map(|_| {
            let (mut at, mut turns) = (0, 0);
            while at != board.goal() {
                at = board.step(at, rng.random_range(1..=FACES));
                turns += 1;
            }
            f64::from(turns)
        })
        .collect();
    let mean = lengths.iter().sum::<f64>() / f64::from(games);
    let variance = lengths.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / f64::from(games - 1);
    let standard_error = (variance / f64::from(games)).sqrt();
    // Five standard errors: a false alarm about once in 1.7 million seeds.
    assert!((mean - exact).abs() < 5.0 * standard_error, "mean {mean}, exact {exact}, se {standard_error}");
}

#[test]
fn the_length_distribution_accounts_for_all_the_chance() {
    for board in random_boards(40, 3).into_iter().chain(BUILT_IN.map(|n| built_in(n, Overshoot::Stay).unwrap())) {
        let analysis = analyse(&board);
        let d = &analysis.distribution;
        let total: f64 = d.pmf.iter().sum();
        assert!((total + d.tail - 1.0).abs() < 1e-9, "{total} + {} for {board}", d.tail);
        if let Some(shortest) = &analysis.shortest {
            let first = d.pmf.iter().position(|&p| p > 0.0).unwrap() + 1;
            assert_eq!(first, shortest.rolls.len(), "no game is shorter than the shortest");
            let exact = d.p_min.as_ref().unwrap().to_f64().unwrap();
            assert!((exact - d.pmf[first - 1]).abs() < 1e-12);
        }
    }
}

#[test]
fn the_race_chances_of_several_players_add_up_and_favour_the_first() {
    let board = built_in("milton-bradley", Overshoot::Stay).unwrap();
    let chances = win_chances(&analyse(&board).distribution, 3);
    assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{chances:?}");
    assert!(chances[0] > chances[1] && chances[1] > chances[2]);
    assert_eq!(win_chances(&analyse(&board).distribution, 1).len(), 1);
}

#[test]
fn the_published_figures_hold() {
    let example = built_in("example-30", Overshoot::Stay).unwrap();
    assert_eq!((example.goal(), example.numbering()), (29, Numbering::Cells));
    let game = shortest_game(&example).unwrap();
    assert_eq!(game.rolls.len(), 3);
    assert_eq!(game.squares, [0, 2, 21, 23, 29], "ladders are shown");
    for name in ["milton-bradley", "milton-bradley-47"] {
        assert_eq!(shortest_game(&built_in(name, Overshoot::Stay).unwrap()).unwrap().rolls.len(), 7);
    }
    let claims = verify();
    assert!(claims.iter().all(|c| c.verdict == crate::claims::Verdict::Agrees), "{claims:?}");
}

#[test]
fn bad_boards_are_refused_saying_why() {
    let cases: [(&[(u64, u64)], &str); 6] = [
        (&[(5, 31)], "leaves the board"),
        (&[(5, 2), (5, 9)], "two jumps start on 5"),
        (&[(0, 9)], "starts on the start"),
        (&[(30, 9)], "starts on the goal"),
        (&[(5, 9), (9, 12), (12, 5)], "circle"),
        (&[(7, 7)], "circle"),
    ];
    for (jumps, reason) in cases {
        let error = Board::new("bad", 30, Numbering::Squares, jumps, Overshoot::Stay).unwrap_err().to_string();
        assert!(error.contains(reason), "{jumps:?}: {error}");
    }
    assert!(Board::new("bad", 0, Numbering::Squares, &[], Overshoot::Stay).is_err());
    assert!(matches!("sideways".parse::<Overshoot>(), Err(BoardError::Overshoot(_))));
}

#[test]
fn an_unreachable_goal_gets_an_answer_not_a_hang() {
    // Every square from 2 to 7 sends the token back to 0.
    let stuck = board(8, &[(2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0)], Overshoot::Stay);
    let analysis = analyse(&stuck);
    assert_eq!(analysis.shortest, None);
    assert_eq!(analysis.expectation.from_start, None);
    assert_eq!((analysis.distribution.median, analysis.distribution.tail), (None, 1.0));
    // The goal is one roll away, but a trap on 5 can catch the token too.
    let trap = board(20, &[(1, 20), (6, 5), (7, 5), (8, 5), (9, 5), (10, 5), (11, 5)], Overshoot::Stay);
    let analysis = analyse(&trap);
    assert_eq!(analysis.shortest.unwrap().rolls, [1]);
    assert_eq!(analysis.expectation.from_start, None, "the trap makes it infinite");
    assert_eq!(analysis.expectation.per_square[12].as_ref().map(|e| e.to_f64().unwrap() > 0.0), Some(true));
}

#[test]
fn board_files_round_trip_and_complain_precisely() {
    let milton = built_in("milton-bradley", Overshoot::Stay).unwrap();
    let text = milton.to_string();
    let read = parse_board("milton-bradley", &text, Overshoot::Stay).unwrap();
    assert_eq!(read, milton);
    let error = parse_board("x", "goal 30\n# fine\nladder 9 3\n", Overshoot::Stay).unwrap_err();
    assert_eq!(error.to_string(), "ladder 9->3 goes the wrong way");
    let error = parse_board("x", "goal 30\nstairs 1 2\n", Overshoot::Stay).unwrap_err();
    assert!(error.to_string().starts_with("line 2:"), "{error}");
    assert!(parse_board("x", "ladder 1 2\n", Overshoot::Stay).unwrap_err().to_string().contains("no goal"));
    assert_eq!(parse_jumps("1:38, 16:6").unwrap(), [(1, 38), (16, 6)]);
    assert!(parse_jumps("1-38").is_err());
}

#[test]
fn generated_boards_are_valid_and_repeatable() {
    let a = generate(300, 60, 7, Overshoot::Stay);
    assert_eq!(a, generate(300, 60, 7, Overshoot::Stay));
    assert_eq!(a.jumps().len(), 60);
    assert!(expected_turns(&a).from_start.is_some());
}

proptest::proptest! {
    #[test]
    fn any_generated_board_reads_back_from_its_file(goal in 7u32..400, jumps in 0usize..40, seed: u64) {
        let board = generate(goal, jumps.min(goal as usize / 4), seed, Overshoot::Bounce);
        let again = parse_board(board.name(), &board.to_string(), Overshoot::Bounce).unwrap();
        proptest::prop_assert_eq!(again, board);
    }
}
