//! Snakes and Ladders through the command line.

use serde_json::json;

use crate::util::Solved;

#[test]
fn the_example_board_needs_three_throws_and_shows_its_path() {
    let solved = Solved::new();
    let report = solved.run(&["solve", "snakes", "--board", "example-30", "--json"]).json();
    assert_eq!(report["min_throws"], 3);
    assert_eq!(report["rolls"], json!([2, 2, 6]));
    assert_eq!(report["squares"], json!([0, 2, 21, 23, 29]));
    assert_eq!(report["numbering"], "cells");
    assert_eq!(report["expected_turns"]["exact"], "443598785586/30969764303");
    assert!(report["expected_turns"]["decimal"].as_str().unwrap().starts_with("14.3236087"));
    let d = &report["distribution"];
    assert!(d["median"].is_u64() && d["mode"].is_u64() && d["p90"].is_u64());
    assert_eq!(d["p_min_exact"], "7/216");
}

#[test]
fn milton_bradley_gives_an_exact_fraction_the_pmf_and_each_square() {
    let solved = Solved::new();
    let report = solved
        .run(&[
            "solve",
            "snakes",
            "--board",
            "milton-bradley",
            "--pmf",
            "10",
            "--per-square",
            "--players",
            "2",
            "--json",
        ])
        .json();
    assert_eq!(report["min_throws"], 7);
    let exact = report["expected_turns"]["exact"].as_str().unwrap();
    let (numerator, denominator) = exact.split_once('/').unwrap();
    assert_eq!((numerator.len(), denominator.len()), (61, 60));
    let pmf = report["distribution"]["pmf"].as_array().unwrap();
    assert_eq!(pmf.len(), 10);
    assert!(pmf[..6].iter().all(|p| p == 0.0), "no game is shorter than 7 turns");
    assert!(pmf[6].as_f64().unwrap() > 0.0);
    let squares = report["per_square"].as_array().unwrap();
    assert_eq!(squares.len(), 101);
    assert_eq!(squares[100]["expected_turns"]["exact"], "0/1");
    assert_eq!(squares[1]["expected_turns"], squares[38]["expected_turns"], "a ladder's foot is worth its top");
    let chances: f64 = report["players"].as_array().unwrap().iter().map(|p| p["chance"].as_f64().unwrap()).sum();
    assert!((chances - 1.0).abs() < 1e-9);
}

#[test]
fn boards_come_from_files_or_inline_and_overshoot_is_an_option() {
    let solved = Solved::new();
    let file = solved.data_dir().join("board.txt");
    std::fs::write(&file, "# a small board\ngoal 10\nnumbering squares\nladder 2 9\nsnake 8 1\n").unwrap();
    let from_file = solved.run(&["solve", "snakes", "--board", file.to_str().unwrap(), "--json"]).json();
    let inline = solved.run(&["solve", "snakes", "--goal", "10", "--jumps", "2:9,8:1", "--json"]).json();
    assert_eq!(from_file["expected_turns"], inline["expected_turns"]);
    assert_eq!(inline["expected_turns"]["exact"], "86/11");
    let pass =
        solved.run(&["solve", "snakes", "--goal", "10", "--jumps", "2:9,8:1", "--overshoot", "pass", "--json"]).json();
    assert_ne!(pass["expected_turns"], inline["expected_turns"]);
}

#[test]
fn an_unreachable_goal_is_answered() {
    let solved = Solved::new();
    let jumps = "2:0,3:0,4:0,5:0,6:0,7:0";
    let report = solved.run(&["solve", "snakes", "--goal", "8", "--jumps", jumps, "--json"]).json();
    assert_eq!(report["min_throws"], json!(null));
    assert_eq!(report["expected_turns"]["infinite"], true);
    let text = solved.run(&["solve", "snakes", "--goal", "8", "--jumps", jumps]);
    assert!(text.stdout.contains("the goal cannot be reached") && text.stdout.contains("infinite"), "{}", text.stdout);
}

#[test]
fn verify_checks_the_published_figures() {
    let solved = Solved::new();
    let report = solved.run(&["verify", "snakes", "--json"]).json();
    assert_eq!(report["all_agree"], true);
    assert_eq!(report["claims"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_boards_are_refused_with_one_line() {
    let solved = Solved::new();
    let inline = |jumps: &str| ["solve", "snakes", "--goal", "30", "--jumps", jumps].map(String::from);
    let run = |args: [String; 6]| solved.run(&args.each_ref().map(String::as_str));
    run(inline("5:31")).fails_with("leaves the board");
    run(inline("5:2,5:9")).fails_with("two jumps start on 5");
    run(inline("0:9")).fails_with("starts on the start");
    run(inline("30:9")).fails_with("starts on the goal");
    run(inline("5:9,9:5")).fails_with("lead round in a circle");
    run(inline("5-9")).fails_with("not FROM:TO");
    solved.run(&["solve", "snakes", "--board", "ludo"]).fails_with("no built-in board \"ludo\"");
    solved.run(&["solve", "snakes"]).fails_with("give --board");
    solved
        .run(&["solve", "snakes", "--board", "example-30", "--overshoot", "wrap"])
        .fails_with("unknown overshoot rule");
    let file = solved.data_dir().join("bad.txt");
    std::fs::write(&file, "goal 20\nladder 9 3\n").unwrap();
    solved.run(&["solve", "snakes", "--board", file.to_str().unwrap()]).fails_with("ladder 9->3 goes the wrong way");
}
