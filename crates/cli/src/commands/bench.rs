//! `solved bench`: time the solver at several thread counts, each in a fresh
//! process so that peak memory is measured per run.

use std::fmt::Write;
use std::process::{Command, ExitCode};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use solved_engine::{Progress, machine};
use solved_games::registry::{Game, arguments};

use super::Request;
use crate::args::BENCH_RUN;
use crate::json::{BenchJson, BenchRunJson, StageJson};
use crate::output;
use crate::progress::Bar;
use crate::text::{columns, count, thousands};

/// Times `game`'s solve once per thread count the request lists, each run
/// in a fresh process given the game's own parameters.
/// How many of a run's slowest stages the report names.
const SLOW_STAGES_SHOWN: usize = 6;

pub(super) fn bench(game: &Game, request: &Request) -> anyhow::Result<ExitCode> {
    let listed = request.params.text("thread-counts").unwrap_or_default();
    let thread_counts = listed
        .split(',')
        .map(|n| n.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect::<Option<Vec<usize>>>()
        .with_context(|| format!("--thread-counts {listed:?}: give positive numbers separated by commas"))?;
    let exe = std::env::current_exe().context("cannot find the solved executable")?;
    let info = game.info();
    let mut runs = Vec::new();
    for threads in thread_counts {
        let output = Command::new(&exe)
            .arg("--data-dir")
            .arg(request.config.store.dir())
            .args(["--threads", &threads.to_string(), BENCH_RUN, info.id])
            .args(arguments(info.fields, &game.to_params()))
            .output()
            .context("cannot start a benchmark run")?;
        if !output.status.success() {
            bail!("benchmark run with {threads} threads failed: {}", String::from_utf8_lossy(&output.stderr).trim());
        }
        runs.push(serde_json::from_slice::<BenchRunJson>(&output.stdout).context("unreadable benchmark run output")?);
    }
    let key = game.table_key().context("only a game with a table has a solve to time")?;
    if request.json {
        output::json(&BenchJson { game: info.id, size: key.size, variant: key.variant, runs })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    // What a solve makes, which for a table of representatives is fewer
    // than the positions its key counts.
    let entries = runs.first().map_or(key.positions, |run| run.positions);
    writeln!(text, "{} {} ({}): {} table entries", info.name, key.size, key.variant, thousands(entries))?;
    let mut rows = vec![vec!["threads".into(), "seconds".into(), "entries/s".into(), "peak memory".into()]];
    for run in &runs {
        rows.push(vec![
            run.threads.to_string(),
            format!("{:.2}", run.seconds),
            thousands((run.positions as f64 / run.seconds) as u64),
            run.peak_memory_bytes.map_or("n/a".into(), |b| format!("{:.0} MB", b as f64 / 1e6)),
        ]);
    }
    text.push_str(&columns(&rows));
    for run in &runs {
        // The longest few, in the order they ran: a solve by units has a
        // stage for every hundredth of its positions.
        let mut slow: Vec<(usize, &StageJson)> =
            run.stages.iter().enumerate().filter(|(_, s)| s.seconds >= 0.5).collect();
        slow.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds));
        slow.truncate(SLOW_STAGES_SHOWN);
        slow.sort_by_key(|&(i, _)| i);
        let slow: Vec<String> = slow.iter().map(|(_, s)| format!("{} {:.1} s", s.stage, s.seconds)).collect();
        if !slow.is_empty() {
            writeln!(
                text,
                "{}, the longest stages of half a second or more: {}",
                count(run.threads as u64, "thread"),
                slow.join("; ")
            )?;
        }
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Times the stages a solve announces, passing everything on to a bar.
struct StageClock {
    bar: Bar,
    began: Instant,
    stages: Mutex<Vec<(String, f64)>>,
}

impl Progress for StageClock {
    fn start(&self, phase: &str, total: u64) {
        self.bar.start(phase, total);
    }

    fn stage(&self, name: &str) {
        self.stages
            .lock()
            .expect("no thread panics holding the clock")
            .push((name.into(), self.began.elapsed().as_secs_f64()));
        self.bar.stage(name);
    }

    fn note(&self, message: &str) {
        self.bar.note(message);
    }

    fn advance(&self, units: u64) {
        self.bar.advance(units);
    }

    fn should_stop(&self) -> bool {
        self.bar.should_stop()
    }
}

/// Solves once in memory (nothing is saved) and prints the timing as JSON.
pub fn run_once(game: &Game) -> anyhow::Result<ExitCode> {
    let clock = StageClock { bar: Bar::new(), began: Instant::now(), stages: Mutex::new(Vec::new()) };
    let Some(solved) = game.solve_in_memory(&clock) else {
        bail!("{} has no table to solve", game.info().name);
    };
    let positions = solved?;
    let seconds = clock.began.elapsed().as_secs_f64();
    let starts = clock.stages.into_inner().expect("no thread panics holding the clock");
    let stages = starts
        .iter()
        .enumerate()
        .map(|(i, (stage, start))| {
            let end = starts.get(i + 1).map_or(seconds, |next| next.1);
            StageJson { stage: stage.clone(), seconds: end - start }
        })
        .collect();
    let run = BenchRunJson {
        threads: rayon::current_num_threads(),
        positions,
        seconds,
        peak_memory_bytes: peak_memory_bytes(),
        stages,
    };
    output::print(&format!("{}\n", serde_json::to_string(&run)?))?;
    Ok(ExitCode::SUCCESS)
}

/// The process's peak resident set size, where the system reports it.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `bench machine`: the limits of this machine, as `solved_engine::machine`
/// measures them.
pub(super) fn machine(buffer_bytes: u64, json: bool) -> anyhow::Result<ExitCode> {
    if let Some(available) = available_memory().filter(|&a| buffer_bytes > a) {
        bail!("--size-mib {}: more than the {} MiB of memory available", buffer_bytes >> 20, available >> 20);
    }
    let limits = machine::measure(buffer_bytes, &Bar::new())?;
    if json {
        output::json(&limits)?;
        return Ok(ExitCode::SUCCESS);
    }
    let gb = |rate: f64| format!("{:.1} GB/s", rate / 1e9);
    let millions = |rate: f64| format!("{:.1} million/s", rate / 1e6);
    let rows = vec![
        vec!["kernel".into(), "best rate".into()],
        vec!["read".into(), gb(limits.read_bytes_per_s)],
        vec!["write".into(), gb(limits.write_bytes_per_s)],
        vec!["read and write back".into(), gb(limits.update_bytes_per_s)],
        vec!["dependent random load".into(), format!("{:.1} ns", limits.latency_ns)],
        vec!["independent random loads".into(), millions(limits.random_loads_per_s)],
        vec!["random atomic updates".into(), millions(limits.random_updates_per_s)],
        vec!["integer operations".into(), format!("{:.1} billion/s", limits.integer_ops_per_s / 1e9)],
        vec!["extensions".into(), limits.features.join(" ")],
    ];
    let mut text = format!(
        "This machine, {} threads, a buffer of {} MiB (best of {} runs each):\n",
        limits.threads,
        limits.buffer_bytes >> 20,
        machine::RUNS
    );
    text.push_str(&columns(&rows));
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The memory Linux says a new program can have without swapping
/// (`MemAvailable`), if it says.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}
