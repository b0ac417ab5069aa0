//! `solved bench`: time the solver at several thread counts, each in a fresh
//! process so that peak memory is measured per run.

use std::fmt::Write;
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use solved_engine::{Progress, TableKey, machine};
use solved_games::front::Game;
use solved_games::params::Params;
use solved_games::params::arguments;
use solved_games::text::{columns, count, thousands};

use crate::args::BENCH_RUN;
use crate::config::Config;
use crate::output;
use crate::progress::Bar;

/// One timed solve, as a `bench-run` prints it.
#[derive(Debug, Serialize, Deserialize)]
struct BenchRunJson {
    threads: usize,
    positions: u64,
    seconds: f64,
    peak_memory_bytes: Option<u64>,
    /// How long each stage of the solve took.
    stages: Vec<StageJson>,
}

#[derive(Debug, Serialize, Deserialize)]
struct StageJson {
    stage: String,
    seconds: f64,
}

/// Every run of a `bench`, and each thread count's in brief.
#[derive(Debug, Serialize)]
struct BenchJson {
    game: &'static str,
    size: String,
    variant: String,
    runs: Vec<BenchRunJson>,
    /// The executable timed alternately with this one, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    baseline_runs: Vec<BenchRunJson>,
    /// Each thread count's runs in brief.
    summary: Vec<BenchSummaryJson>,
}

#[derive(Debug, Serialize)]
struct BenchSummaryJson {
    threads: usize,
    runs: usize,
    fastest_seconds: f64,
    median_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_median_seconds: Option<f64>,
    /// The median over the runs of each one's time over the baseline's
    /// run right after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    median_ratio: Option<f64>,
}

/// How many of a run's slowest stages the report names.
const SLOW_STAGES_SHOWN: usize = 6;

/// The most output a run may print: a solve by units reports a stage for
/// every hundredth of its positions, a few tens of kilobytes. A baseline
/// that prints on and on is stopped here rather than read into memory.
const MOST_RUN_OUTPUT: u64 = 16 << 20;

/// What is kept of a failed run's error output for the message.
const ERROR_OUTPUT_KEPT: usize = 4096;

/// Times `game`'s solve of the table `key` on the board `params` name in
/// a fresh process for each thread count they list, `--repeat` times each;
/// with `--baseline`, that executable's solve right after each run, so
/// that a slow moment of the machine falls on both alike.
pub(super) fn bench(
    game: &dyn Game,
    params: &Params,
    key: TableKey,
    config: &Config,
    json: bool,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<ExitCode> {
    let listed = params.text("thread-counts").unwrap_or_default();
    let mut thread_counts = listed
        .split(',')
        .map(|n| n.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect::<Option<Vec<usize>>>()
        .with_context(|| format!("--thread-counts {listed:?}: give positive numbers separated by commas"))?;
    // A count given twice is timed once, not summed up twice.
    let mut seen = std::collections::HashSet::new();
    thread_counts.retain(|&n| seen.insert(n));
    let repeat = params.number::<usize>("repeat")?.unwrap_or(1);
    if repeat == 0 {
        bail!("--repeat 0: give at least 1 run");
    }
    let this = std::env::current_exe().context("cannot find the solved executable")?;
    // Made absolute, so that the file checked is the one run: a bare name
    // would be looked for on the PATH.
    let baseline = match params.text("baseline") {
        Some(given) => {
            let path = std::fs::canonicalize(given).with_context(|| format!("--baseline {given}"))?;
            if !path.is_file() {
                bail!("--baseline {given}: not a file");
            }
            Some(path)
        }
        None => None,
    };
    let info = game.info();
    let board = arguments(info.fields, &game.board(params)?);
    let timed = |exe: &Path, threads: usize| -> anyhow::Result<BenchRunJson> {
        let mut command = Command::new(exe);
        command
            .arg("--data-dir")
            .arg(config.store.dir())
            .args(["--threads", &threads.to_string(), BENCH_RUN, info.id])
            .args(&board);
        let stdout = bounded_output(command, exe)?;
        serde_json::from_slice::<BenchRunJson>(&stdout)
            .with_context(|| format!("{}: not the output of a solved benchmark run", exe.display()))
    };
    let (mut runs, mut baseline_runs) = (Vec::new(), Vec::new());
    for &threads in &thread_counts {
        for _ in 0..repeat {
            runs.push(timed(&this, threads)?);
            if let Some(path) = &baseline {
                baseline_runs.push(timed(path, threads)?);
            }
        }
    }
    let summary: Vec<BenchSummaryJson> = thread_counts
        .iter()
        .map(|&threads| {
            let ours: Vec<&BenchRunJson> = runs.iter().filter(|r| r.threads == threads).collect();
            let theirs: Vec<&BenchRunJson> = baseline_runs.iter().filter(|r| r.threads == threads).collect();
            let seconds = |runs: &[&BenchRunJson]| runs.iter().map(|r| r.seconds).collect::<Vec<f64>>();
            let ratios: Vec<f64> = ours.iter().zip(&theirs).map(|(a, b)| a.seconds / b.seconds).collect();
            BenchSummaryJson {
                threads,
                runs: ours.len(),
                fastest_seconds: seconds(&ours).into_iter().fold(f64::INFINITY, f64::min),
                median_seconds: median(seconds(&ours)).expect("at least one run a thread count"),
                baseline_median_seconds: median(seconds(&theirs)),
                median_ratio: median(ratios),
            }
        })
        .collect();
    if json {
        output::json(
            out,
            &BenchJson {
                game: info.id,
                size: key.size,
                variant: key.variant,
                runs,
                baseline: baseline.map(|p| p.display().to_string()),
                baseline_runs,
                summary,
            },
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    // What a solve makes, which for a table of representatives is fewer
    // than the positions its key counts.
    let entries = runs.first().map_or(key.positions, |run| run.positions);
    writeln!(text, "{} {} ({}): {} table entries", info.name, key.size, key.variant, thousands(entries))?;
    let mut header: Vec<String> =
        ["threads", "runs", "fastest s", "median s", "entries/s", "peak memory"].map(String::from).into();
    if baseline.is_some() {
        header.extend(["baseline median s".into(), "time against baseline".into()]);
    }
    let mut rows = vec![header];
    for line in &summary {
        let peak = runs.iter().filter(|r| r.threads == line.threads).filter_map(|r| r.peak_memory_bytes).max();
        let mut row = vec![
            line.threads.to_string(),
            line.runs.to_string(),
            format!("{:.2}", line.fastest_seconds),
            format!("{:.2}", line.median_seconds),
            thousands((entries as f64 / line.median_seconds) as u64),
            peak.map_or("n/a".into(), |b| format!("{:.0} MB", b as f64 / 1e6)),
        ];
        if baseline.is_some() {
            row.push(line.baseline_median_seconds.map_or("n/a".into(), |s| format!("{s:.2}")));
            row.push(line.median_ratio.map_or("n/a".into(), |r| format!("{r:.3}")));
        }
        rows.push(row);
    }
    text.push_str(&columns(&rows));
    if baseline.is_some() {
        writeln!(text, "time against baseline: the median of each run's time over the baseline's right after it")?;
    }
    for line in &summary {
        // The longest few stages of the fastest run, in the order they
        // ran: a solve by units has a stage for every hundredth of its
        // positions.
        let Some(run) = runs.iter().find(|r| r.threads == line.threads && r.seconds == line.fastest_seconds) else {
            continue;
        };
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
    output::print(out, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// The middle of `values` (the mean of the two middle ones for an even
/// count), if there are any.
fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    match values.len() {
        0 => None,
        n if n % 2 == 1 => Some(values[middle]),
        _ => Some((values[middle - 1] + values[middle]) / 2.0),
    }
}

/// Runs `command` (the executable `exe`) to its end and returns what it
/// printed, or an error with the start of its error output if it failed.
/// Output past [`MOST_RUN_OUTPUT`] stops it: an executable named by
/// `--baseline` need not be a `solved` that ends.
fn bounded_output(mut command: Command, exe: &Path) -> anyhow::Result<Vec<u8>> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    let mut errors = child.stderr.take().expect("error output piped");
    // Read on a thread of its own, so that neither pipe fills while the
    // other is read; all of it is drained, only the start kept.
    let error_reader = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let _ = (&mut errors).take(ERROR_OUTPUT_KEPT as u64).read_to_end(&mut kept);
        let _ = std::io::copy(&mut errors, &mut std::io::sink());
        kept
    });
    let mut stdout = Vec::new();
    let read = child.stdout.take().expect("output piped").take(MOST_RUN_OUTPUT + 1).read_to_end(&mut stdout);
    let failure = match read {
        Err(error) => Some(format!("cannot read its output: {error}")),
        Ok(_) if stdout.len() as u64 > MOST_RUN_OUTPUT => Some("printed more than a benchmark run does".into()),
        Ok(_) => None,
    };
    if let Some(failure) = failure {
        let _ = child.kill();
        let _ = child.wait();
        bail!("{}: {failure}, stopped", exe.display());
    }
    let status = child.wait().with_context(|| format!("waiting for {}", exe.display()))?;
    let errors = error_reader.join().unwrap_or_default();
    if !status.success() {
        // One line, as every error of the command line is.
        let errors = String::from_utf8_lossy(&errors);
        let said: Vec<&str> = errors.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let said = if said.is_empty() { String::new() } else { format!(": {}", said.join("; ")) };
        bail!("benchmark run of {} failed ({status}){said}", exe.display());
    }
    Ok(stdout)
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

/// Solves the board `params` name once in memory (nothing is saved) and
/// prints the timing as JSON.
pub fn run_once(game: &dyn Game, params: &Params, out: &mut dyn std::io::Write) -> anyhow::Result<ExitCode> {
    let Some(timed) = game.timed_solve(params)? else {
        bail!("{} has no table to solve", game.info().name);
    };
    let clock = StageClock { bar: Bar::new(), began: Instant::now(), stages: Mutex::new(Vec::new()) };
    let positions = (timed.solve)(&clock)?;
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
        peak_memory_bytes: machine::peak_memory_bytes(),
        stages,
    };
    output::print(out, &format!("{}\n", serde_json::to_string(&run)?))?;
    Ok(ExitCode::SUCCESS)
}

/// `bench machine`: the limits of this machine, as `solved_engine::machine`
/// measures them.
pub(super) fn machine(buffer_bytes: u64, json: bool, out: &mut dyn std::io::Write) -> anyhow::Result<ExitCode> {
    if let Some(available) = available_memory().filter(|&a| buffer_bytes > a) {
        bail!("--size-mib {}: more than the {} MiB of memory available", buffer_bytes >> 20, available >> 20);
    }
    let limits = machine::measure(buffer_bytes, &Bar::new())?;
    if json {
        output::json(out, &limits)?;
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
    output::print(out, &text)?;
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
