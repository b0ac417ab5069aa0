//! Dots and Boxes through the command line.

use crate::util::Solved;

const TWO_BY_TWO: [&str; 6] = ["dots-and-boxes", "--rows", "2", "--cols", "2", "--variant"];

fn args<'a>(command: &'a str, variant: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec![command];
    all.extend(TWO_BY_TWO);
    all.push(variant);
    all.extend(rest);
    all
}

#[test]
fn solve_reports_the_value_and_every_first_line() {
    let solved = Solved::new();
    let report = solved.run(&args("solve", "american", &["--json"])).json();
    assert_eq!(report["value"], 2, "Winning Ways: A wins the 4-box game 3-1");
    assert_eq!(report["lines"], 12);
    assert_eq!(report["positions"], 4096);
    let first = report["first_moves"].as_array().unwrap();
    assert_eq!(first.len(), 12);
    assert!(first.iter().all(|m| m["move"].is_string() && m["score"].is_i64() && m["best_replies"].is_u64()));
    let best: Vec<&str> = report["best_first_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let scoring_two: Vec<&str> =
        first.iter().filter(|m| m["score"] == 2).map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(best, scoring_two);
    assert!(report["seconds"].is_number());
}

#[test]
fn solve_3x3_scores_every_first_line_minus_three() {
    let solved = Solved::new();
    let report = solved.run(&["solve", "dots-and-boxes", "--rows", "3", "--cols", "3", "--json"]).json();
    assert_eq!(report["value"], -3);
    assert!(report["first_moves"].as_array().unwrap().iter().all(|m| m["score"] == -3));
}

/// The search (`solve --search`) gives what the table gives, for the start
/// and every first line, on a board with captures declined in best play.
#[test]
fn the_search_scores_every_first_line_as_the_table_does() {
    let solved = Solved::new();
    for variant in ["american", "icelandic"] {
        let board = ["dots-and-boxes", "--rows", "2", "--cols", "3", "--variant", variant, "--json"];
        let tabled = solved.run(&[&["solve"], &board[..]].concat()).json();
        let searched = solved.run(&[&["solve"], &board[..], &["--search"]].concat()).json();
        assert_eq!(searched["method"], "search");
        assert_eq!(searched["value"], tabled["value"], "{variant}");
        let scores = |report: &serde_json::Value| -> Vec<(String, i64)> {
            let moves = report["first_moves"].as_array().unwrap();
            moves.iter().map(|m| (m["move"].as_str().unwrap().to_string(), m["score"].as_i64().unwrap())).collect()
        };
        assert_eq!(scores(&searched), scores(&tabled), "{variant}");
        assert_eq!(searched["best_first_moves"], tabled["best_first_moves"], "{variant}");
        assert!(searched["nodes"].as_u64().unwrap() > 0);
    }
}

/// A search keeps the bounds it finds in a record beside the tables (or
/// where `--record` says) and goes on from it; a record that is not one is
/// refused and kept, and the search's options are refused without it.
#[test]
fn the_search_goes_on_from_its_record() {
    let solved = Solved::new();
    let board = ["solve", "dots-and-boxes", "--rows", "2", "--cols", "3", "--search", "--json"];
    let first = solved.run(&board).json();
    assert_eq!(first["recorded_positions"], 0);
    let record = first["record"].as_str().unwrap();
    assert!(record.ends_with("dots-and-boxes-2x3-american.search.json"), "{record}");
    let again = solved.run(&board).json();
    assert!(again["recorded_positions"].as_u64().unwrap() > 0);
    assert_eq!((&again["value"], &again["first_moves"]), (&first["value"], &first["first_moves"]));
    assert!(again["nodes"].as_u64() < first["nodes"].as_u64());
    assert!(again["total_nodes"].as_u64() > first["nodes"].as_u64());
    let text = solved.run(&board[..7]);
    assert!(text.stdout.contains("going on from"), "{}", text.stdout);

    let elsewhere = solved.data_dir().join("elsewhere.json");
    let path = elsewhere.to_str().unwrap();
    let report = solved.run(&[&board[..], &["--record", path, "--memory", "0.01"]].concat()).json();
    assert_eq!((report["record"].as_str(), &report["recorded_positions"]), (Some(path), &0.into()));
    assert!(std::fs::read_to_string(&elsewhere).unwrap().contains("\"positions\""));

    std::fs::write(&elsewhere, "{}").unwrap();
    solved.run(&[&board[..], &["--record", path]].concat()).fails_with("elsewhere.json");
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "{}");
    solved.run(&[&board[..], &["--memory", "0"]].concat()).fails_with("--memory is a number of gigabytes");
    solved.run(&[&board[..], &["--memory", "lots"]].concat()).fails_with("lots");
    solved.run(&[&board[..6], &["--record", path]].concat()).fails_with("give --search too");
}

/// A board too large to table is probed by search, and says so: 2×8
/// American (42 lines) with its 24 horizontal lines drawn, its 18
/// verticals scored.
#[test]
fn a_board_too_large_to_table_is_probed_by_search() {
    let solved = Solved::new();
    let horizontals: Vec<String> =
        ["a", "c", "e"].iter().flat_map(|row| "bdfhjlnp".chars().map(move |col| format!("{row}{col}"))).collect();
    let moves = horizontals.join(",");
    let board = ["probe", "dots-and-boxes", "--rows", "2", "--cols", "8", &moves];
    let report = solved.run(&[&board[..], &["--json"]].concat()).json();
    assert_eq!(report["method"], "search");
    assert_eq!(report["to_move"], "A", "24 lines drawn, no box closed");
    let lines = report["moves"].as_array().unwrap();
    assert_eq!(lines.len(), 18);
    assert!(lines.iter().all(|m| m.get("loony").is_none() && m["score"].is_i64()), "{lines:?}");
    let best = lines.iter().filter(|m| m["best"] == true).collect::<Vec<_>>();
    assert!(!best.is_empty() && best.iter().all(|m| m["score"] == report["value"]));
    assert!(lines.iter().all(|m| m["score"].as_i64() <= report["value"].as_i64()));
    assert_eq!(report["choice"], best[0]["move"]);
    // Each vertical closes no box: the next position's value is the line's score.
    let first = lines[0]["move"].as_str().unwrap();
    let next = solved
        .run(&["probe", "dots-and-boxes", "--rows", "2", "--cols", "8", &format!("{moves},{first}"), "--json"])
        .json();
    assert_eq!(next["value"], lines[0]["score"]);
    let text = solved.run(&board);
    assert!(text.stdout.contains("scored by alpha-beta search"), "{}", text.stdout);
    assert!(text.stderr.contains("too large to table: searching the 18 lines"), "{}", text.stderr);
    solved.run(&[&board[..], &["--level", "3"]].concat()).fails_with("--level plays from the table");
    solved.run(&["probe", "dots-and-boxes", "--rows", "5", "--cols", "5"]).fails_with("60 undrawn lines");
}

#[test]
fn probe_scores_each_line_of_a_move_list_and_of_a_diagram() {
    let solved = Solved::new();
    let report = solved.run(&args("probe", "american", &["ab,ba,bc", "--json"])).json();
    assert_eq!(report["to_move"], "B");
    assert_eq!(report["score_so_far"], 0);
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    let best = moves.iter().filter(|m| m["best"] == true).collect::<Vec<_>>();
    assert!(best.iter().all(|m| m["score"] == report["value"]));
    // B takes the box with cb and moves again.
    let taken = solved.run(&args("probe", "american", &["ab,ba,bc,cb", "--json"])).json();
    assert_eq!((taken["to_move"].as_str(), taken["score_so_far"].as_i64()), (Some("B"), Some(-1)));
    // The same position drawn as a diagram, read back.
    let text = solved.run(&args("probe", "american", &["ab,ba,bc,cb"]));
    let diagram: String = text.stdout.lines().skip(1).take(5).map(|l| format!("{l}\n")).collect();
    assert!(diagram.contains(" B"), "{diagram}");
    let file = solved.data_dir().join("position.txt");
    std::fs::write(&file, &diagram).unwrap();
    let path = file.to_str().unwrap();
    let read = solved.run(&args("probe", "american", &["--diagram", path, "--to-move", "B", "--json"])).json();
    assert_eq!(read["moves"], taken["moves"]);
    solved.run(&args("probe", "american", &["--diagram", path])).fails_with("say --to-move A or B");
}

#[test]
fn verify_reproduces_claims_one_to_six() {
    let solved = Solved::new();
    let run = solved.run(&["verify", "dots-and-boxes", "--json"]);
    let report = run.json();
    assert_eq!(report["all_agree"], true);
    let claims = report["claims"].as_array().unwrap();
    assert!(claims[..6].iter().all(|c| c["agrees"] == true), "{claims:?}");
    let ours = |c: &serde_json::Value| c["ours"].as_str().unwrap().to_string();
    assert!(claims[6..8].iter().all(|c| ours(c).contains("the table is not built")), "{claims:?}");
    // 4×5 from the search's record in the repository, under way or done.
    assert!(ours(&claims[8]).contains("positions recorded"), "{claims:?}");
}

#[test]
fn play_a_whole_game_against_the_computer() {
    let solved = Solved::new();
    let input = "ab\nba\nbc\ncb\nad\nbe\ncd\nhint\nzz\nab\n".repeat(2);
    let run = solved
        .run_with_input(&["play", "dots-and-boxes", "--rows", "1", "--cols", "2", "--as", "A", "--seed", "4"], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Game over"), "{}", run.stdout);
    assert!(run.stdout.contains("B draws"), "{}", run.stdout);
}

#[test]
fn bad_boards_moves_and_diagrams_are_refused() {
    let solved = Solved::new();
    solved
        .run(&["solve", "dots-and-boxes", "--rows", "5", "--cols", "5"])
        .fails_with("a 5x5 american board has 60 undrawn lines");
    solved
        .run(&["solve", "dots-and-boxes", "--rows", "2", "--cols", "2", "--search", "--sweep"])
        .fails_with("--sweep tables every position, the search none");
    solved
        .run(&["solve", "dots-and-boxes", "--rows", "6", "--cols", "6", "--search"])
        .fails_with("84 undrawn lines: the search takes at most 64");
    solved
        .run(&["solve", "dots-and-boxes", "--rows", "2", "--cols", "2", "--variant", "danish"])
        .fails_with("unknown variant");
    solved.run(&["solve", "dots-and-boxes", "--rows", "0", "--cols", "2"]).fails_with("1 to 12 boxes");
    solved.run(&args("probe", "american", &["ab,ab"])).fails_with("move 2: ab is drawn already");
    solved.run(&args("probe", "american", &["ab,zz"])).fails_with("move 2");
    solved.run(&args("probe", "american", &["ab;ba"])).fails_with("move 1");
    let file = solved.data_dir().join("bad.txt");
    std::fs::write(&file, "+ x +\n\n+   +\n").unwrap();
    solved.run(&args("probe", "american", &["--diagram", file.to_str().unwrap()])).fails_with("unexpected \"x\"");
    solved.run(&args("probe", "american", &["--diagram", "/nonexistent/file"])).fails_with("cannot read diagram");
}

/// Every puzzle drawn for 3×3 has one line, its answer, that reaches the
/// best final score, as `probe` scores the lines of its position; a seed
/// draws the same puzzles again.
#[test]
fn every_3x3_puzzle_has_one_answer() {
    let solved = Solved::new();
    let board = ["dots-and-boxes", "--rows", "3", "--cols", "3"];
    let ask = |seed: &str| {
        let mut command = vec!["puzzle"];
        command.extend(board);
        command.extend(["--count", "20", "--seed", seed, "--json"]);
        solved.run(&command).json()
    };
    let drawn = ask("7");
    let puzzles = drawn["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 20);
    for puzzle in puzzles {
        let mut command = vec!["probe"];
        command.extend(board);
        let position = puzzle["position"].as_str().unwrap();
        command.extend([position, "--json"]);
        let probe = solved.run(&command).json();
        let sign = if probe["to_move"] == "A" { 1 } else { -1 };
        let scores: Vec<(String, i64)> = probe["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].as_str().unwrap().to_string(), sign * m["score"].as_i64().unwrap()))
            .collect();
        let best = scores.iter().map(|s| s.1).max().unwrap();
        let answers: Vec<&str> = scores.iter().filter(|s| s.1 == best).map(|s| s.0.as_str()).collect();
        assert_eq!(answers, [puzzle["answer"].as_str().unwrap()], "{puzzle}");
        assert_eq!(puzzle["score"].as_i64(), Some(best), "{puzzle}");
        assert_eq!(puzzle["line"].as_array().unwrap().len(), position.split(',').count());
    }
    assert_eq!(ask("7"), drawn);
    assert_ne!(ask("8"), drawn);
}

#[test]
fn the_full_sweep_is_written_on_request_for_other_programs_and_has_a_manifest() {
    let solved = Solved::new();
    let report = solved.run(&args("solve", "american", &["--sweep", "--json"])).json();
    let path = std::path::PathBuf::from(report["sweep_table"].as_str().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    // docs/table-format.md: a 296-byte header, then a signed margin a set
    // of drawn lines; nothing drawn is index 0, worth the start's value.
    assert_eq!(bytes[296] as i8, 2);
    assert_eq!(bytes.len(), 296 + 4096 + 8);
    let manifest = solved.run(&args("manifest", "american", &["--sweep", "--json"])).json();
    assert_eq!(
        (manifest["path"].as_str(), manifest["entries"].as_u64()),
        (Some("dots-and-boxes-american-2x2.tbl"), Some(4096))
    );
    assert_eq!(solved.run(&args("manifest", "american", &["--sweep", "--check"])).code, 0);
    let mut spoiled = bytes.clone();
    spoiled[300] ^= 1;
    std::fs::write(&path, spoiled).unwrap();
    // A copy that differs is a disagreement, as in `verify`: exit code 1.
    let checked = solved.run(&args("manifest", "american", &["--sweep", "--check"]));
    assert_eq!(checked.code, 1);
    assert!(checked.stdout.contains("dots-and-boxes-american-2x2.tbl differs (SHA-256)"), "{}", checked.stdout);
    solved
        .run(&["solve", "dots-and-boxes", "--rows", "4", "--cols", "4", "--sweep"])
        .fails_with("the full sweep takes boards of at most 30 undrawn lines; this board has 40");
}
