//! Dodgem through the command line.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::json;
use solved_engine::TableStore;
use tower::ServiceExt;

use crate::util::Solved;

#[test]
fn solve_3x3_reports_the_published_figures() {
    let solved = Solved::new();
    let report = solved.run(&["solve", "dodgem", "--size", "3", "--json"]).json();
    assert_eq!(report["positions"], 2846);
    assert_eq!(report["wins"].as_u64().unwrap() + report["losses"].as_u64().unwrap(), 2846);
    assert_eq!(report["draws"], 0);
    assert_eq!(report["reachable"], json!({"positions": 1963, "wins": 1123, "losses": 840, "draws": 0}));
    assert_eq!(report["start"], json!({"value": "win", "distance": 19}));
    assert_eq!(report["mutual_zugzwang"], 6);
    assert_eq!(report["cached"], false);
    for key in ["max_win_distance", "max_loss_distance", "seconds"] {
        assert!(report[key].is_number(), "{key}");
    }
    let again = solved.run(&["solve", "dodgem", "--size", "3", "--json"]).json();
    assert_eq!(again["cached"], true);
    assert_eq!(again["reachable"], report["reachable"]);
}

#[test]
fn solve_4x4_start_is_a_draw_and_misere_is_its_own_table() {
    let solved = Solved::new();
    let normal = solved.run(&["solve", "dodgem", "--size", "4", "--json"]).json();
    assert_eq!(normal["positions"], 555_986);
    assert_eq!(normal["start"], json!({"value": "draw", "distance": null}));
    let misere = solved.run(&["solve", "dodgem", "--size", "4", "--misere", "--json"]).json();
    assert_eq!(misere["positions"], 555_986);
    assert_eq!(misere["variant"], "misere");
    assert_ne!(misere["wins"], normal["wins"]);
    let text = solved.run(&["solve", "dodgem", "--size", "4"]);
    assert!(text.stdout.contains("start position: ="), "{}", text.stdout);
}

#[test]
fn probe_ranks_every_move_from_the_movers_side() {
    let solved = Solved::new();
    let report = solved.run(&["probe", "dodgem", "B../B../.RR B", "--json"]).json();
    assert_eq!(report["position"], "B../B../.RR B");
    assert_eq!(report["value"], "win");
    assert_eq!(report["distance"], 19);
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    // The squares a page draws it with come beside these (see the web API).
    let first: serde_json::Map<String, serde_json::Value> = ["move", "value", "distance", "position"]
        .into_iter()
        .map(|key| (key.to_string(), moves[0][key].clone()))
        .collect();
    assert_eq!(
        serde_json::Value::Object(first),
        json!({"move": "a3-b3", "value": "win", "distance": 19, "position": ".B./B../.RR R"})
    );
    assert!(moves[1..].iter().all(|m| m["value"] == "loss"));
    // The move's value counts the move: the child is a win in 18 for Red.
    let child = solved.run(&["probe", "dodgem", ".B./B../.RR R", "--json"]).json();
    assert_eq!(child["value"], "loss");
    assert_eq!(child["distance"], 18);
    let text = solved.run(&["probe", "dodgem", "B../B../.RR B"]);
    assert!(text.stdout.contains("a3-b3  W19"), "{}", text.stdout);
}

#[test]
fn probe_after_moves_matches_the_published_4x4_corner_move() {
    let solved = Solved::new();
    let report = solved.run(&["probe", "dodgem", "--size", "4", "--moves", "a2-a1", "--json"]).json();
    // After Blue's a2-a1, Red wins in 37: the move lost for Blue in 38.
    assert_eq!(report["value"], "win");
    assert_eq!(report["distance"], 37);
}

/// A page that opens a position by its link probes it through the web
/// API: the answer is the command line's, and the computer's choice it
/// adds is a best move.
#[tokio::test]
async fn the_web_api_probes_a_position_as_the_command_line_does() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "4"]);
    let app = solved_web::router(solved_web::AppState::new(TableStore::new(solved.data_dir())));
    // Four plies into a game, Blue to move and winning.
    let position = "B.../.B../.BRR/.R.. B";
    for moves in ["", "b3-c3 d2-d3"] {
        let query = format!("position={}&moves={}", position.replace(' ', "%20"), moves.replace(' ', ","));
        let request = Request::builder().uri(format!("/api/dodgem/probe?{query}")).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let mut served: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let choice = served.as_object_mut().unwrap().remove("choice").unwrap();
        let probed = solved.run(&["probe", "dodgem", position, "--moves", moves, "--json"]).json();
        assert_eq!(served, probed, "{query}");
        let best = &probed["moves"][0];
        let chosen = probed["moves"].as_array().unwrap().iter().find(|m| m["move"] == choice).unwrap();
        assert_eq!((&chosen["value"], &chosen["distance"]), (&best["value"], &best["distance"]), "{query}");
    }
}

#[test]
fn play_with_hints_lets_blue_win_the_3x3_game() {
    let solved = Solved::new();
    solved.run(&["solve", "dodgem", "--size", "3"]);
    let mut session = solved.spawn(&["play", "dodgem", "--size", "3", "--as", "blue", "--hints", "--seed", "7"]);
    let mut plies = 0;
    loop {
        let (text, prompted) = session.read_to_prompt();
        if !prompted {
            assert!(text.contains("Blue wins"), "{text}");
            break;
        }
        // Take the best hinted move: the first of "moves (best first): a3-b3 W19, ...".
        let hints = text.lines().rev().find(|l| l.starts_with("moves (best first): ")).expect("hints are shown");
        let best = hints.trim_start_matches("moves (best first): ").split(' ').next().unwrap();
        session.send(best);
        plies += 2;
        assert!(plies <= 19 + 1, "Blue should win in 19 plies");
    }
    assert_eq!(session.finish(), 0);
}

#[test]
fn play_refuses_an_illegal_move_and_asks_again() {
    let solved = Solved::new();
    let run = solved.run_with_input(&["play", "dodgem", "--size", "3", "--seed", "1"], "b2-b3\nhint\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("there is no car on that square"), "{}", run.stdout);
    assert!(run.stdout.contains("a3-b3 W19"), "{}", run.stdout);
}

#[test]
fn play_ends_quietly_at_end_of_input() {
    let solved = Solved::new();
    let run = solved.run(&["play", "dodgem", "--size", "3", "--as", "red", "--seed", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Blue plays"), "the computer moves first as Blue: {}", run.stdout);
}

#[test]
fn bench_runs_each_thread_count_in_its_own_process() {
    let solved = Solved::new();
    let report = solved.run(&["bench", "dodgem", "--size", "3", "--thread-counts", "1,2", "--json"]).json();
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.iter().map(|r| r["threads"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2]);
    assert!(runs.iter().all(|r| r["positions"] == 1423 && r["seconds"].as_f64().unwrap() >= 0.0));
    let summary = report["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 2);
    assert!(summary.iter().all(|s| s["runs"] == 1 && s["median_ratio"].is_null()), "{summary:?}");
}

#[test]
fn bench_repeats_and_times_a_baseline_run_for_run() {
    let solved = Solved::new();
    // This very executable as its own baseline: the same arguments work.
    let baseline = env!("CARGO_BIN_EXE_solved");
    let args = ["bench", "dodgem", "--size", "3", "--thread-counts", "1", "--repeat", "3", "--baseline", baseline];
    let report = solved.run(&[&args[..], &["--json"]].concat()).json();
    assert_eq!(report["runs"].as_array().unwrap().len(), 3);
    assert_eq!(report["baseline_runs"].as_array().unwrap().len(), 3);
    assert!(report["baseline_runs"].as_array().unwrap().iter().all(|r| r["positions"] == 1423));
    let line = &report["summary"][0];
    assert_eq!((line["threads"].as_u64(), line["runs"].as_u64()), (Some(1), Some(3)));
    let seconds: Vec<f64> = report["runs"].as_array().unwrap().iter().map(|r| r["seconds"].as_f64().unwrap()).collect();
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(line["fastest_seconds"].as_f64(), Some(sorted[0]));
    assert_eq!(line["median_seconds"].as_f64(), Some(sorted[1]));
    assert!(line["median_ratio"].as_f64().is_some_and(|r| r > 0.0), "{line:?}");
    let text = solved.run(&args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("time against baseline"), "{}", text.stdout);
}

/// The unit files of a 4×4 solve by units in `solved`'s data directory.
fn unit_files(solved: &Solved) -> Vec<std::path::PathBuf> {
    let dir = solved.data_dir().join("dodgem-normal-4x4.units");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "tbl")).collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn a_solve_by_units_killed_midway_resumes_to_the_same_files() {
    let whole = Solved::new();
    let report = whole.run(&["solve", "dodgem", "--size", "4", "--units", "--json"]).json();
    assert_eq!((report["positions"].as_u64(), report["units"].as_u64()), (Some(555_986), Some(253)));
    assert_eq!(report["start"], json!({"value": "draw", "distance": null}));
    let flat = whole.run(&["solve", "dodgem", "--size", "4", "--json"]).json();
    for key in ["wins", "losses", "draws", "reachable", "max_win_distance", "max_loss_distance", "mutual_zugzwang"] {
        assert_eq!(report[key], flat[key], "{key}");
    }
    let killed = Solved::new();
    // Each unit file is synced as it is written, so the solve takes long
    // enough to be caught midway; try again in the rare case it was not.
    for _ in 0..5 {
        let mut child = killed
            .command(&["solve", "dodgem", "--size", "4", "--units"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        while unit_files(&killed).len() < 20 && child.try_wait().unwrap().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        std::process::Command::new("kill").args(["-KILL", &child.id().to_string()]).status().unwrap();
        child.wait().unwrap();
        if unit_files(&killed).len() < 253 {
            break;
        }
        std::fs::remove_dir_all(killed.data_dir().join("dodgem-normal-4x4.units")).unwrap();
    }
    let before = unit_files(&killed).len();
    assert!((20..253).contains(&before), "{before} units were written before the kill");
    let resumed = killed.run(&["solve", "dodgem", "--size", "4", "--units", "--json"]).json();
    assert_eq!(resumed["resumed_units"].as_u64().unwrap() as usize, before);
    assert_eq!(resumed["solved_units"].as_u64().unwrap() as usize, 253 - before);
    let (a, b) = (unit_files(&whole), unit_files(&killed));
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap(), "{} differs", b.display());
    }
    let leftovers: Vec<_> = std::fs::read_dir(killed.data_dir().join("dodgem-normal-4x4.units"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// The text of a solve by units counts the units solved, those found done,
/// and, only when there were any, those that read their dependencies in
/// passes: as `--json` counts them.
#[test]
fn a_solve_by_units_says_what_it_solved_found_done_and_read_in_passes() {
    let args = ["solve", "dodgem", "--size", "3", "--units", "--memory", "0"];
    let counted = Solved::new().run(&[&args[..], &["--json"]].concat()).json();
    let (units, passes) = (counted["units"].as_u64().unwrap(), counted["in_passes_units"].as_u64().unwrap());
    assert!(passes > 0 && passes < units, "{counted}");
    let solved = Solved::new();
    let first = solved.run(&args);
    let line = format!(
        "units: {units} solved now, 0 found done, {units} in all; {passes} read their dependencies in passes\n"
    );
    assert!(first.stdout.contains(&line), "{}", first.stdout);
    let again = solved.run(&args);
    assert!(
        again.stdout.contains(&format!("units: 0 solved now, {units} found done, {units} in all\n")),
        "{}",
        again.stdout
    );
}

#[test]
fn probe_and_play_read_unit_files_as_they_read_the_table() {
    let solved = Solved::new();
    // Fewer files than the 4x4 board's 252 units may be open at once.
    const OPEN_FILES: u32 = 128;
    let missing = solved.run(&["probe", "dodgem", "--size", "4", "--units"]);
    missing.fails_with("units of Dodgem 4x4 are not solved yet");
    assert!(missing.stderr.contains("`solved solve dodgem --size 4 --units` solves them"), "{}", missing.stderr);
    let solve = solved.run_with_open_files(&["solve", "dodgem", "--size", "4", "--units"], OPEN_FILES, "");
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    // The start, a position after a few moves, and one with Red to move.
    for moves in ["", "a2-a1", "a2-b2 c1-c2 a3-b3"] {
        let args = ["probe", "dodgem", "--size", "4", "--moves", moves, "--json"];
        let units = solved.run_with_open_files(&[&args[..], &["--units"]].concat(), OPEN_FILES, "").json();
        assert!(units["moves"].as_array().is_some_and(|m| !m.is_empty()), "{units}");
        assert_eq!(units, solved.run(&args).json(), "after {moves:?}");
    }
    let game = ["play", "dodgem", "--size", "4", "--as", "red", "--seed", "5", "--hints"];
    let by_units = solved.run_with_open_files(&[&game[..], &["--units"]].concat(), OPEN_FILES, "hint\nquit\n");
    assert_eq!(by_units.code, 0, "{}", by_units.stderr);
    assert!(by_units.stdout.contains("moves (best first): "), "{}", by_units.stdout);
    assert_eq!(by_units.stdout, solved.run_with_input(&game, "hint\nquit\n").stdout);
}

/// Every puzzle drawn for 4×4 has one move, its answer, that keeps its
/// result, as `probe` values the moves of its position; its line from the
/// start reaches it.
#[test]
fn every_4x4_puzzle_has_one_answer() {
    let solved = Solved::new();
    let drawn = solved.run(&["puzzle", "dodgem", "--size", "4", "--count", "25", "--seed", "11", "--json"]).json();
    let puzzles = drawn["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 25);
    let mut values = std::collections::BTreeSet::new();
    for puzzle in puzzles {
        let position = puzzle["position"].as_str().unwrap();
        let probe = solved.run(&["probe", "dodgem", position, "--json"]).json();
        let kept = puzzle["value"].as_str().unwrap();
        assert_eq!(probe["value"], kept, "{puzzle}");
        let keeping: Vec<&str> = probe["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == kept)
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert_eq!(keeping, [puzzle["answer"].as_str().unwrap()], "{puzzle}");
        assert_eq!(puzzle["distance"], probe["distance"], "{puzzle}");
        let line: Vec<&str> = puzzle["line"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let replayed = solved.run(&["probe", "dodgem", "--size", "4", "--moves", &line.join(" "), "--json"]).json();
        assert_eq!(replayed["position"], position);
        values.insert(kept.to_string());
    }
    assert_eq!(values.len(), 2, "puzzles to win and to draw: {values:?}");
}

/// The audit's interface: every position of either side to move checked,
/// through the one table or the unit files alike, its counts by distance
/// those `solve` gives; a damaged unit fails it.
#[test]
fn audit_checks_every_position_by_table_and_by_units() {
    let solved = Solved::new();
    for misere in [false, true] {
        let mut args = vec!["dodgem", "--size", "3", "--json"];
        if misere {
            args.push("--misere");
        }
        let solve = solved.run(&[&["solve"], &args[..]].concat()).json();
        let table = solved.run(&[&["audit"], &args[..]].concat()).json();
        assert_eq!((table["by"].as_str(), table["checked"].as_u64()), (Some("table"), Some(2846)), "{table}");
        assert_eq!(table["disagreements"], 0);
        assert_eq!(table["distances"], solve["distances"]);
        let draws = solve["distances"]["draws"].as_u64().unwrap();
        let count = |side: &str| -> u64 {
            solve["distances"][side].as_object().unwrap().values().filter_map(|n| n.as_u64()).sum()
        };
        assert_eq!(count("wins") + count("losses") + draws, 2846);
        let longest =
            solve["distances"]["wins"].as_object().unwrap().keys().filter_map(|d| d.parse::<u64>().ok()).max();
        assert_eq!(solve["max_win_distance"].as_u64(), longest);
        args.push("--units");
        solved.run(&[&["solve"], &args[..]].concat()).json();
        let units = solved.run(&[&["audit"], &args[..]].concat()).json();
        assert_eq!(units["by"], "units");
        assert_eq!(
            (&units["checked"], &units["disagreements"], &units["distances"]),
            (&table["checked"], &table["disagreements"], &table["distances"])
        );
        // Read back from its record: the same answer.
        assert_eq!(solved.run(&[&["audit"], &args[..]].concat()).json()["distances"], units["distances"]);
    }
    // A unit file damaged after the audit: a fresh audit names it and fails.
    let dir = solved.data_dir().join("dodgem-normal-3x3.units");
    std::fs::remove_file(dir.join("audit.ckpt")).unwrap();
    let unit = dir.join("unit-00007.unit.tbl");
    let mut bytes = std::fs::read(&unit).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0x40;
    std::fs::write(&unit, bytes).unwrap();
    let damaged = solved.run(&["audit", "dodgem", "--size", "3", "--units", "--json"]);
    assert_ne!(damaged.code, 0);
    assert!(damaged.stderr.contains("unit-00007"), "{}", damaged.stderr);
}
