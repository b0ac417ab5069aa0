//! Faults and hostile input, class by class: each command ends with one
//! line and a clear status, and never hangs, grows without bound, panics or
//! loses what is on disk.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::util::Solved;

/// Sends `signal` (`INT`, `KILL`) to process `pid`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status().unwrap();
    assert!(status.success());
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let solved = Solved::new();
    let cases: [&[&str]; 5] = [
        &["solve", "snakes", "--board", "milton-bradley", "--per-square", "--pmf", "500"],
        &["probe", "dodgem", "B../B../.RR B"],
        &["probe", "dots-and-boxes", "--rows", "2", "--cols", "2", "--json"],
        &["solve", "dodgem", "--size", "3"],
        &["verify", "snakes"],
    ];
    for args in cases {
        let run = solved.run_reading(args, 8);
        assert_eq!(run.code, 0, "{args:?}: {run:?}");
        assert!(!run.stderr.contains("panicked") && !run.stderr.contains("Broken pipe"), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_full_disk_for_the_output_is_one_line_and_a_failure() {
    let solved = Solved::new();
    // On an empty data directory: the table built on the way is not news.
    let run = solved.run_with_files(&["probe", "dodgem", "B../B../.RR B"], "/dev/null", "/dev/full");
    run.fails_with("cannot write the output");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn files_are_read_only_when_they_are_files_of_a_sensible_size() {
    let solved = Solved::new();
    let board = ["--rows", "2", "--cols", "2"];
    for device in ["/dev/zero", "/dev/urandom"] {
        let mut args = vec!["probe", "dots-and-boxes", "--diagram", device];
        args.extend(board);
        solved.run(&args).fails_with("not a regular file");
        solved.run(&["solve", "snakes", "--board", device]).fails_with("not a regular file");
    }
    let huge = solved.data_dir().join("huge.txt");
    std::fs::write(&huge, "+   +\n".repeat(20_000)).unwrap();
    let mut args = vec!["probe", "dots-and-boxes", "--diagram", huge.to_str().unwrap()];
    args.extend(board);
    solved.run(&args).fails_with("larger than");
}

#[test]
fn a_table_that_is_not_a_file_is_refused_at_once() {
    let solved = Solved::new();
    let table = solved.data_dir().join("dodgem-normal-3x3.tbl");
    std::os::unix::fs::symlink("/dev/zero", &table).unwrap();
    solved.run(&["probe", "dodgem", "B../B../.RR B"]).fails_with("not a regular file");
    std::fs::remove_file(&table).unwrap();
    // A pipe would make a reader wait for a writer for ever.
    assert!(Command::new("mkfifo").arg(&table).status().unwrap().success());
    solved.run(&["probe", "dodgem", "B../B../.RR B"]).fails_with("not a regular file");
    assert!(table.exists(), "nothing on disk is touched");
}

#[test]
fn a_pipe_where_a_lock_belongs_is_refused_not_waited_on() {
    let solved = Solved::new();
    let units = solved.data_dir().join("dodgem-normal-3x3.units");
    std::fs::create_dir(&units).unwrap();
    assert!(Command::new("mkfifo").arg(units.join(".lock")).status().unwrap().success());
    solved.run(&["solve", "dodgem", "--size", "3", "--units"]).fails_with("not a regular file (a named pipe)");
    let lock = solved.data_dir().join(".dots-and-boxes-american-3x3.quiet.tbl.lock");
    assert!(Command::new("mkfifo").arg(&lock).status().unwrap().success());
    for command in ["probe", "solve"] {
        solved.run(&[command, "dots-and-boxes", "--rows", "3", "--cols", "3"]).fails_with("not a regular file");
    }
}

#[test]
fn settings_that_mean_nothing_here_are_refused_and_quoted_briefly() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3", "--memory", "1"]).fails_with("--memory is for a solve by units");
    for budget in ["--build-seconds", "--build-memory"] {
        solved.run(&["serve", budget, "nan"]).fails_with("expected a number, 0 or more");
    }
    let huge = "x".repeat(100_000);
    let run = solved.run_with_env(&["probe", "dodgem", "B../B../.RR B"], "SOLVED_KERNELS", &huge);
    run.fails_with("SOLVED_KERNELS must be one of");
    assert!(run.stderr.len() < 300, "{} bytes of error", run.stderr.len());
    // A home that is not there is not made.
    let home = solved.data_dir().join("nonexistent/x");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_solved"))
        .args(["probe", "dodgem", "B../B../.RR B"])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("SOLVED_DATA_DIR")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("is not a directory"), "{run:?}");
    assert!(!solved.data_dir().join("nonexistent").exists());
}

#[test]
fn a_small_solve_by_units_says_what_its_files_take_in_bytes() {
    let solved = Solved::new();
    let run = solved.run(&["solve", "dodgem", "--size", "3", "--units"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run.stdout.lines().find(|l| l.starts_with("on disk:")).unwrap();
    assert!(line.contains(" kB for ") || line.contains(" bytes for "), "{line}");
    assert!(line.contains("larger than a byte a value"), "{line}");
}

#[test]
fn a_finished_solve_by_units_writes_nothing() {
    let solved = Solved::new();
    assert_eq!(solved.run(&["solve", "dodgem", "--size", "3", "--units"]).code, 0);
    let lock = solved.data_dir().join("dodgem-normal-3x3.units/.lock");
    std::fs::remove_file(&lock).unwrap();
    let again = solved.run(&["solve", "dodgem", "--size", "3", "--units", "--json"]).json();
    assert_eq!((again["solved_units"].as_u64(), again["resumed_units"].as_u64()), (Some(0), Some(45)), "{again}");
    assert!(!lock.exists(), "a finished solve takes no lock, so a copy that may not be written to is read");
}

#[test]
fn endless_input_at_the_prompt_ends_the_game() {
    let solved = Solved::new();
    let run = solved.run_with_files(&["play", "dodgem", "--size", "3"], "/dev/zero", "/dev/null");
    run.fails_with("over 1024 bytes");
}

#[test]
fn what_is_asked_for_is_bounded_by_what_is_meaningful() {
    let solved = Solved::new();
    let snakes = |pmf: &str| ["solve", "snakes", "--board", "milton-bradley", "--pmf", pmf, "--json"].map(String::from);
    let run = |args: [String; 7]| solved.run(&args.each_ref().map(String::as_str));
    run(snakes("1000000000000")).fails_with("at most 100000 turns");
    // Beyond the chance left worth counting, nothing is made up.
    let report = run(snakes("100000")).json();
    let listed = report["distribution"]["pmf"].as_array().unwrap().len();
    assert!((100..100_000).contains(&listed), "{listed} turns listed");
    solved.run(&["--threads", "1000000", "solve", "dodgem", "--size", "3"]).fails_with("at most 256");
}

#[test]
fn missing_and_misspelt_arguments_are_named() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem"]).fails_with("--size <N>");
    solved.run(&["probe", "dots-and-boxes", "ab"]).fails_with("--rows <R>");
    solved.run(&["solve", "dots-and-boxes", "--rows", "2"]).fails_with("--cols <C>");
    solved.run(&["probe", "tic-tac-chec"]).fails_with("<POSITION>");
    solved.run(&["solve", "dodgem", "--szie", "4"]).fails_with("'--size'");
    solved.run(&["solve", "dodgen"]).fails_with("'dodgem'");
}

#[test]
fn a_reason_is_given_once_and_bad_input_quoted_briefly() {
    let solved = Solved::new();
    let run = solved.run(&["probe", "dots-and-boxes", "--rows", "2", "--cols", "2", "ab,ab"]);
    run.fails_with("drawn already");
    assert_eq!(run.stderr.matches("drawn already").count(), 1, "{}", run.stderr);
    // 127 KiB: one argument may not reach 128 KiB.
    let long = "x".repeat(127 << 10);
    let cases: [Vec<&str>; 5] = [
        vec!["probe", "dodgem", &long],
        vec!["probe", "dodgem", "--size", "3", "--moves", &long],
        vec!["probe", "dots-and-boxes", "--rows", "2", "--cols", "2", &long],
        vec!["probe", "tic-tac-chec", &long],
        vec!["solve", "snakes", "--goal", "30", "--jumps", &long],
    ];
    for args in cases {
        let run = solved.run(&args);
        assert_eq!(run.code, 2, "{}", &args[1]);
        assert!(run.stderr.len() < 400, "{} bytes of error for {} {}", run.stderr.len(), args[0], args[1]);
    }
}

#[test]
fn lines_off_the_board_are_said_to_be_off_the_board() {
    let solved = Solved::new();
    let board = ["probe", "dots-and-boxes", "--rows", "2", "--cols", "3"];
    for name in ["zz", "ah"] {
        let mut args = board.to_vec();
        args.push(name);
        solved.run(&args).fails_with("is not a line of this board");
    }
    let mut args = board.to_vec();
    args.push("bb");
    solved.run(&args).fails_with("names a dot or the middle of a box");
}

#[test]
fn input_that_reads_but_means_nothing_is_refused() {
    let solved = Solved::new();
    for moves in [",,,", "ab,,,ba, ", "ab,"] {
        solved.run(&["probe", "dots-and-boxes", "--rows", "2", "--cols", "2", moves]).fails_with("is empty");
    }
    let file = solved.data_dir().join("board.txt");
    std::fs::write(&file, "goal 30\nladder 2 9\ngoal 40\n").unwrap();
    solved.run(&["solve", "snakes", "--board", file.to_str().unwrap()]).fails_with("a second goal line");
    solved.run(&["probe", "dodgem", ".../.../... B"]).fails_with("no car on the board");
}

#[test]
fn ctrl_c_at_the_prompt_quits() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3"]);
    let mut session = solved.spawn(&["play", "dodgem", "--size", "3"]);
    let (_, prompted) = session.read_to_prompt();
    assert!(prompted);
    signal(session.id(), "INT");
    assert_eq!(session.finish(), 130);
}

#[test]
fn a_long_solve_says_what_it_takes_before_it_starts() {
    let solved = Solved::new();
    let mut child = solved
        .command(&["probe", "tic-tac-chec", "..../..../..../.... w -- open"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first line comes before any work: read it, then stop the solve.
    let mut stderr = child.stderr.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0];
    while stderr.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    signal(child.id(), "KILL");
    child.wait().unwrap();
    let first = String::from_utf8(first).unwrap();
    assert!(first.starts_with("solved: building the Tic-Tac-Chec 4x4 (travel) table first"), "{first}");
    assert!(first.contains("GB of memory") && first.contains("`solved solve tic-tac-chec`"), "{first}");
}

#[test]
fn what_a_killed_build_left_behind_is_removed_by_the_next() {
    let solved = Solved::new();
    let dir = solved.data_dir();
    let stale = dir.join(".dodgem-normal-3x3.tbl.Xy12Zq.tmp");
    let other = dir.join(".dodgem-normal-4x4.tbl.Xy12Zq.tmp");
    std::fs::write(&stale, "half a table").unwrap();
    std::fs::write(&other, "another table's").unwrap();
    solved.run(&["solve", "dodgem", "--size", "3"]);
    assert!(!stale.exists(), "the 3x3 build's leftover is gone");
    assert!(other.exists(), "another table's is not touched");
    assert!(dir.join("dodgem-normal-3x3.tbl").is_file());
}

#[test]
fn a_baseline_that_is_not_a_solved_is_refused_in_one_line() {
    let solved = Solved::new();
    let bench = |baseline: &str| {
        solved.run(&["bench", "dodgem", "--size", "3", "--thread-counts", "1", "--baseline", baseline])
    };
    let missing = solved.data_dir().join("no-such-solved");
    bench(missing.to_str().unwrap()).fails_with("--baseline");
    bench(solved.data_dir().to_str().unwrap()).fails_with("not a file");
    bench("/dev/zero").fails_with("not a file");
    bench("/bin/false").fails_with("failed");
    bench("/bin/true").fails_with("not the output of a solved benchmark run");
    // An executable that prints without end is stopped, not read whole.
    let endless = solved.data_dir().join("endless.sh");
    // Written by another process: a file this one held open for writing
    // could be inherited by a test forking meanwhile, and not run ("text
    // file busy").
    let script = r#"printf '#!/bin/sh\nexec yes\n' > "$1" && chmod +x "$1""#;
    assert!(Command::new("sh").args(["-c", script, "sh"]).arg(&endless).status().unwrap().success());
    bench(endless.to_str().unwrap()).fails_with("printed more than a benchmark run does");
    solved.run(&["bench", "dodgem", "--size", "3", "--repeat", "0"]).fails_with("--repeat");
}
