//! Bad input: one line on stderr, exit code 2, no panic, nothing lost.

use crate::util::Solved;

#[test]
fn malformed_positions_are_refused() {
    let solved = Solved::new();
    solved.run(&["probe", "dodgem", "B../B..X/.RR B"]).fails_with("invalid position");
    solved.run(&["probe", "dodgem", "B../B../.RR"]).fails_with("side to move");
    solved.run(&["probe", "dodgem", "BBB/B../.RR B"]).fails_with("Blue has 4 cars");
    solved.run(&["probe", "dodgem"]).fails_with("give a position");
}

#[test]
fn wrong_sizes_are_refused() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "7"]).fails_with("board size must be 2 to 6, not 7");
    solved.run(&["solve", "dodgem", "--size", "1"]).fails_with("not 1");
    solved.run(&["probe", "dodgem", "--size", "4", "B../B../.RR B"]).fails_with("3x3 board, not 4x4");
    solved.run(&["solve", "dodgem", "--size", "x"]).fails_with("invalid value 'x'");
}

#[test]
fn illegal_moves_are_refused() {
    let solved = Solved::new();
    solved.run(&["probe", "dodgem", "--size", "3", "--moves", "a3-b3 b1-b3"]).fails_with("move 2: b1-b3 is not legal");
    solved.run(&["probe", "dodgem", "--size", "3", "--moves", "a3b3"]).fails_with("move 1");
}

#[test]
fn unknown_options_and_commands_are_refused() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3", "--bogus"]).fails_with("unexpected argument '--bogus'");
    solved.run(&["solve", "chess"]).fails_with("unrecognized subcommand 'chess'");
    solved.run(&["--threads", "0", "solve", "dodgem", "--size", "3"]).fails_with("--threads must be at least 1");
    solved.run(&["play", "dodgem", "--size", "3", "--level", "expert"]).fails_with("unknown level \"expert\"");
    solved.run(&["match", "dodgem", "--size", "3"]).fails_with("--levels");
    solved.run(&["match", "dodgem", "--size", "3", "--levels", "perfect"]).fails_with("name two levels, as A,B");
    solved.run(&["match", "dodgem", "--size", "3", "--levels", "random,ace"]).fails_with("unknown level \"ace\"");
    let zero = ["match", "dodgem", "--size", "3", "--levels", "random,perfect", "--games", "0"];
    solved.run(&zero).fails_with("a match has at least one game");
}

#[test]
fn a_corrupted_table_is_refused_and_kept() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3"]);
    let path = solved.data_dir().join("dodgem-normal-3x3.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    solved.run(&["probe", "dodgem", "B../B../.RR B"]).fails_with("checksum mismatch");
    solved.run(&["solve", "dodgem", "--size", "3"]).fails_with("delete it to solve again");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the bad file is left for the user to inspect");
}

#[test]
fn a_table_of_another_game_variant_is_refused() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3"]);
    let dir = solved.data_dir();
    std::fs::copy(dir.join("dodgem-normal-3x3.tbl"), dir.join("dodgem-misere-3x3.tbl")).unwrap();
    solved
        .run(&["solve", "dodgem", "--size", "3", "--misere"])
        .fails_with(r#"table is for variant "normal", not "misere""#);
    std::fs::write(dir.join("dodgem-normal-4x4.tbl"), b"not a table").unwrap();
    solved.run(&["solve", "dodgem", "--size", "4"]).fails_with("too short");
}
