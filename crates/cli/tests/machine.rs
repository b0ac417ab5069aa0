//! `solved bench machine`: the limits a solve's time is set against.

use crate::util::Solved;

#[test]
fn bench_machine_measures_every_limit() {
    let solved = Solved::new();
    let report = solved.run(&["--threads", "2", "bench", "machine", "--size-mib", "4", "--json"]).json();
    assert_eq!(report["threads"], 2);
    assert_eq!(report["buffer_bytes"], 4 << 20);
    for rate in [
        "read_bytes_per_s",
        "write_bytes_per_s",
        "update_bytes_per_s",
        "latency_ns",
        "random_loads_per_s",
        "random_updates_per_s",
        "integer_ops_per_s",
    ] {
        assert!(report[rate].as_f64().is_some_and(|r| r > 0.0), "{rate}: {report}");
    }
    let text = solved.run(&["bench", "machine", "--size-mib", "1"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("dependent random load"), "{}", text.stdout);
}

#[test]
fn bench_machine_refuses_a_buffer_of_nothing() {
    let solved = Solved::new();
    solved.run(&["bench", "machine", "--size-mib", "0"]).fails_with("--size-mib");
    // More than the machine has is refused before anything is allocated.
    solved.run(&["bench", "machine", "--size-mib", "1048576"]).fails_with("memory available");
}

#[test]
fn the_kernels_can_be_kept_portable_and_an_unknown_set_is_refused() {
    let solved = Solved::new();
    let args = ["bench", "dots-and-boxes", "--rows", "2", "--cols", "2", "--thread-counts", "1", "--json"];
    for kernels in ["portable", "x86-64-v3"] {
        let run = solved.run_with_env(&args, "SOLVED_KERNELS", kernels);
        assert_eq!(run.code, 0, "{kernels}: {}", run.stderr);
    }
    solved
        .run_with_env(&args, "SOLVED_KERNELS", "avx9000")
        .fails_with("SOLVED_KERNELS must be one of portable, x86-64-v3");
}
