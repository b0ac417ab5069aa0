//! What the command line and the pages say a solve will take, held to what
//! `solved solve` took when `docs/performance.md` was last measured
//! (`docs/performance/`): one place for every figure.

use solved_games::dodgem::{Dodgem, Objective};
use solved_games::dots_and_boxes::quiet::QuietTable;
use solved_games::dots_and_boxes::{Board, Variant};
use solved_games::tables::Solvable;
use solved_games::tic_tac_chec::{PawnRule, TicTacChec};

/// What was measured of `workload`.
fn record(workload: &str) -> serde_json::Value {
    let path = format!("{}/../../docs/performance/{workload}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The seconds `solved solve` took for `workload`, as measured.
fn measured(workload: &str) -> f64 {
    record(workload)["seconds"].as_f64().unwrap_or_else(|| panic!("{workload} has no seconds"))
}

#[test]
fn every_estimate_is_within_a_factor_of_two_of_the_measured_solve() {
    let cases = [
        ("solve-dodgem-5x5", Dodgem::new(5, Objective::Normal).unwrap().cost()),
        ("solve-dots-and-boxes-3x4", QuietTable::new(&Board::new(3, 4, Variant::American).unwrap()).cost()),
        ("solve-dots-and-boxes-3x5-icelandic", QuietTable::new(&Board::new(3, 5, Variant::Icelandic).unwrap()).cost()),
        ("solve-tic-tac-chec", TicTacChec::new(PawnRule::Travel).cost()),
    ];
    for (workload, estimate) in cases {
        let seconds = measured(workload);
        let ratio = estimate.seconds / seconds;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{workload}: estimated {:.1} s, measured {seconds:.1} s",
            estimate.seconds
        );
    }
}

/// The boards the search's estimate scales from, as measured.
#[test]
fn the_search_estimate_starts_from_the_searches_measured() {
    use solved_games::dots_and_boxes::search::estimate::search_seconds;
    for (workload, rows, cols) in
        [("search-dots-and-boxes-3x4", 3, 4), ("search-dots-and-boxes-3x5", 3, 5), ("search-dots-and-boxes-4x4", 4, 4)]
    {
        let lines = Board::for_search(rows, cols, Variant::American).unwrap().free_line_count();
        let (low, high) = search_seconds(lines);
        let seconds = measured(workload);
        assert!(
            low / 2.0 <= seconds && seconds <= high * 2.0,
            "{workload}: estimated {low:.1} to {high:.1} s, measured {seconds:.1} s"
        );
    }
}

/// Each stage of a solve to unit files, held to 6×6's solve from nothing.
#[test]
fn every_stage_of_a_solve_by_units_is_estimated_within_a_factor_of_two() {
    let record = record("solve-dodgem-6x6");
    let stages = Dodgem::new(6, Objective::Normal).unwrap().units_stages();
    for (stage, estimate) in [("units", stages.units), ("reachable", stages.reachable), ("distances", stages.distances)]
    {
        let seconds = record["stage_seconds"][stage].as_f64().unwrap_or_else(|| panic!("no {stage} seconds"));
        let ratio = estimate / seconds;
        assert!((0.5..=2.0).contains(&ratio), "{stage}: estimated {estimate:.0} s, measured {seconds:.0} s");
    }
}
