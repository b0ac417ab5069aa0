//! `solved bench`: time the solver at several thread counts, each in a fresh
//! process so that peak memory is measured per run.

use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, bail};
use solved_games::registry::Game;

use crate::config::game_args;
use crate::json::{BenchJson, BenchRunJson};
use crate::progress::Bar;
use crate::text::{columns, thousands};

pub fn bench(game: &Game, thread_counts: &[usize], json: bool) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot find the solved executable")?;
    let mut runs = Vec::new();
    for &threads in thread_counts {
        if threads == 0 {
            bail!("thread counts must be at least 1");
        }
        let output = Command::new(&exe)
            .args(["--threads", &threads.to_string(), "bench-run"])
            .args(game_args(game))
            .output()
            .context("cannot start a benchmark run")?;
        if !output.status.success() {
            bail!("benchmark run with {threads} threads failed: {}", String::from_utf8_lossy(&output.stderr).trim());
        }
        runs.push(serde_json::from_slice::<BenchRunJson>(&output.stdout).context("unreadable benchmark run output")?);
    }
    let key = game.table_key();
    if json {
        let report = BenchJson { game: game.info().id, size: key.size, variant: key.variant, runs };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} {} ({}): {} table entries", game.info().name, key.size, key.variant, thousands(key.positions));
    let mut rows = vec![vec!["threads".into(), "seconds".into(), "entries/s".into(), "peak memory".into()]];
    for run in &runs {
        rows.push(vec![
            run.threads.to_string(),
            format!("{:.2}", run.seconds),
            thousands((run.positions as f64 / run.seconds) as u64),
            run.peak_memory_bytes.map_or("n/a".into(), |b| format!("{:.0} MB", b as f64 / 1e6)),
        ]);
    }
    print!("{}", columns(&rows));
    Ok(ExitCode::SUCCESS)
}

/// Solves once in memory (nothing is saved) and prints the timing as JSON.
pub fn run_once(game: &Game) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let positions = game.solve_in_memory(&Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    let run = BenchRunJson {
        threads: rayon::current_num_threads(),
        positions,
        seconds,
        peak_memory_bytes: peak_memory_bytes(),
    };
    println!("{}", serde_json::to_string(&run)?);
    Ok(ExitCode::SUCCESS)
}

/// The process's peak resident set size, where the system reports it.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
