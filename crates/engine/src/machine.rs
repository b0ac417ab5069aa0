//! What this machine can do at best, measured with small kernels, so that a
//! solver's time can be set against a limit it cannot beat rather than
//! against another solver: how fast memory streams (read, write, both), how
//! long one dependent load to a random cache line takes, how many
//! independent random loads and atomic updates the cores keep in flight,
//! and how many simple integer operations they retire.
//!
//! Each kernel runs a few times on the current rayon pool and keeps its
//! best time: the machines are noisy, and the best run is the closest to
//! what the hardware allows.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::progress::{Interrupted, Progress};

/// Bytes in a cache line: the unit a random access moves.
pub const CACHE_LINE: usize = 64;

/// How often each kernel runs; the best time counts.
pub const RUNS: usize = 3;

/// Dependent loads timed for the latency.
const CHASED: u64 = 4_000_000;

/// Independent random accesses per thread and run.
const RANDOM_PER_THREAD: u64 = 16_000_000;

/// Steps of each integer stream per thread and run.
const INTEGER_STEPS: u64 = 100_000_000;

/// The measured limits, each the best of a few runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Limits {
    /// Worker threads the kernels ran on.
    pub threads: usize,
    /// The buffer the memory kernels work on, in bytes.
    pub buffer_bytes: u64,
    /// Reading the buffer from start to end, bytes a second.
    pub read_bytes_per_s: f64,
    /// Writing it, bytes a second.
    pub write_bytes_per_s: f64,
    /// Reading and writing back each word, bytes a second (each byte
    /// counted once).
    pub update_bytes_per_s: f64,
    /// One load whose address comes from the load before, to a random cache
    /// line of the buffer, in nanoseconds.
    pub latency_ns: f64,
    /// Independent loads from random cache lines of the buffer (of its
    /// first power of two of lines, so that every line is as likely), a
    /// second, all threads together.
    pub random_loads_per_s: f64,
    /// Independent atomic read-modify-writes at random words of the buffer,
    /// a second, all threads together.
    pub random_updates_per_s: f64,
    /// Simple 64-bit integer operations (the shifts and exclusive ors of
    /// four independent xorshift streams, which the compiler may run partly
    /// in vector lanes), a second, all threads together.
    pub integer_ops_per_s: f64,
    /// The instruction set extensions the processor reports that a kernel
    /// could be dispatched to at run time.
    pub features: Vec<&'static str>,
}

/// The process's peak resident set size, where the system reports it
/// (Linux's `VmHWM`).
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Measures the limits with a buffer of `buffer_bytes` (rounded down to
/// whole cache lines, at least two), on the current rayon pool.
/// `progress` counts the kernels, seven in all.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop between kernels.
pub fn measure(buffer_bytes: u64, progress: &dyn Progress) -> Result<Limits, Interrupted> {
    let lines = (buffer_bytes as usize / CACHE_LINE).max(2);
    let words = lines * CACHE_LINE / 8;
    let threads = rayon::current_num_threads();
    progress.start("machine", 7);
    let mut buffer: Vec<u64> = vec![0; words];
    // Touched before anything is timed, so that no kernel pays for the
    // first use of a page.
    buffer.par_chunks_mut(1 << 16).enumerate().for_each(|(i, chunk)| chunk.fill(i as u64));
    // Small buffers are streamed several times a run, so that a run lasts
    // long enough to time.
    let passes = ((1usize << 28) / (words * 8)).max(1);
    let bytes = (passes * words * 8) as f64;
    let step = |progress: &dyn Progress| {
        progress.advance(1);
        if progress.should_stop() { Err(Interrupted) } else { Ok(()) }
    };

    let read = best(|| {
        for _ in 0..passes {
            let sum = buffer.par_chunks(1 << 16).map(|c| c.iter().fold(0u64, |a, &x| a.wrapping_add(x))).sum::<u64>();
            black_box(sum);
        }
    });
    step(progress)?;
    let write = best(|| {
        for _ in 0..passes {
            buffer.par_chunks_mut(1 << 16).for_each(|c| c.fill(black_box(7)));
        }
    });
    step(progress)?;
    let update = best(|| {
        for _ in 0..passes {
            buffer.par_chunks_mut(1 << 16).for_each(|c| c.iter_mut().for_each(|x| *x = x.wrapping_add(1)));
        }
    });
    step(progress)?;

    link_in_random_cycle(&mut buffer, lines);
    let latency = best(|| {
        black_box(chase(&buffer, CHASED));
    });
    step(progress)?;

    // Random lines come from the largest power of two of them, masked.
    let mask = (1u64 << lines.ilog2()) - 1;
    let random_loads = best(|| {
        let sum: u64 = (0..threads as u64)
            .into_par_iter()
            .map(|t| {
                let mut state = seed(t);
                let mut sum = 0u64;
                for _ in 0..RANDOM_PER_THREAD {
                    let line = (xorshift(&mut state) & mask) as usize;
                    sum = sum.wrapping_add(buffer[line * 8]);
                }
                sum
            })
            .sum();
        black_box(sum);
    });
    step(progress)?;

    let atomics: Vec<AtomicU64> = buffer.into_iter().map(AtomicU64::new).collect();
    let random_updates = best(|| {
        (0..threads as u64).into_par_iter().for_each(|t| {
            let mut state = seed(t);
            for _ in 0..RANDOM_PER_THREAD {
                let line = (xorshift(&mut state) & mask) as usize;
                atomics[line * 8].fetch_or(1, Relaxed);
            }
        });
    });
    drop(atomics);
    step(progress)?;

    let integer = best(|| {
        let sum: u64 = (0..threads as u64).into_par_iter().map(|t| integer_streams(seed(t), INTEGER_STEPS)).sum();
        black_box(sum);
    });
    step(progress)?;

    let per_second = |count: f64, time: Duration| count / time.as_secs_f64();
    let accesses = (threads as u64 * RANDOM_PER_THREAD) as f64;
    Ok(Limits {
        threads,
        buffer_bytes: words as u64 * 8,
        read_bytes_per_s: per_second(bytes, read),
        write_bytes_per_s: per_second(bytes, write),
        update_bytes_per_s: per_second(bytes, update),
        latency_ns: latency.as_secs_f64() * 1e9 / CHASED as f64,
        random_loads_per_s: per_second(accesses, random_loads),
        random_updates_per_s: per_second(accesses, random_updates),
        integer_ops_per_s: per_second((threads as u64 * INTEGER_STEPS * INTEGER_OPS_PER_STEP) as f64, integer),
        features: features(),
    })
}

/// The best of [`RUNS`] runs of `kernel`.
fn best(mut kernel: impl FnMut()) -> Duration {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            kernel();
            start.elapsed()
        })
        .min()
        .expect("at least one run")
}

/// A seed for thread `t`'s random stream; never zero, which xorshift
/// cannot leave.
fn seed(t: u64) -> u64 {
    0x9E37_79B9_7F4A_7C15 ^ (t + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Links the first word of every cache line to the next line of one cycle
/// through all `lines`, in a random order (shuffled by Fisher and Yates),
/// so that a chase visits every line before it comes back and no
/// prefetcher can guess the next.
fn link_in_random_cycle(buffer: &mut [u64], lines: usize) {
    let mut order: Vec<u64> = (0..lines as u64).collect();
    let mut state = seed(u64::MAX - 1);
    for i in (1..lines).rev() {
        let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    for (i, &line) in order.iter().enumerate() {
        buffer[line as usize * 8] = order[(i + 1) % lines];
    }
}

/// Follows the links for `steps` loads from line 0; returns where it ends.
fn chase(buffer: &[u64], steps: u64) -> u64 {
    let mut line = 0u64;
    for _ in 0..steps {
        line = buffer[line as usize * 8];
    }
    line
}

/// Shifts and exclusive ors in one step of one xorshift stream.
const INTEGER_OPS_PER_STEP: u64 = 4 * 6;

/// Four independent xorshift streams of `steps` steps each, so that the
/// cores can run them side by side.
fn integer_streams(seed: u64, steps: u64) -> u64 {
    let mut s = [seed, seed ^ 1, seed ^ 2, seed ^ 3];
    for _ in 0..steps {
        for state in &mut s {
            xorshift(state);
        }
    }
    s.iter().fold(0, |a, &x| a ^ x)
}

/// The extensions a kernel may be dispatched to on this processor.
fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            found.push("popcnt");
        }
        if std::arch::is_x86_feature_detected!("bmi2") {
            found.push("bmi2");
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            found.push("avx2");
        }
        if std::arch::is_x86_feature_detected!("avx512f") {
            found.push("avx512f");
        }
        if std::arch::is_x86_feature_detected!("avx512bw") {
            found.push("avx512bw");
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    #[test]
    fn the_chase_visits_every_line_before_it_comes_back() {
        let lines = 1000;
        let mut buffer = vec![0u64; lines * 8];
        link_in_random_cycle(&mut buffer, lines);
        let mut seen = vec![false; lines];
        let mut line = 0;
        for _ in 0..lines {
            assert!(!seen[line], "line {line} came back early");
            seen[line] = true;
            line = buffer[line * 8] as usize;
        }
        assert_eq!(line, 0);
    }

    #[test]
    fn every_limit_is_measured() {
        let limits = measure(1 << 20, &Silent).unwrap();
        assert_eq!(limits.buffer_bytes, 1 << 20);
        for rate in [
            limits.read_bytes_per_s,
            limits.write_bytes_per_s,
            limits.update_bytes_per_s,
            limits.random_loads_per_s,
            limits.random_updates_per_s,
            limits.integer_ops_per_s,
        ] {
            assert!(rate.is_finite() && rate > 0.0, "{limits:?}");
        }
        assert!(limits.latency_ns > 0.0 && limits.latency_ns < 1e6, "{limits:?}");
    }
}
