//! The progress bar on stderr, and Ctrl-C.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use solved_engine::Progress;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set while a person types at a prompt: nothing is being written then.
static AT_PROMPT: AtomicBool = AtomicBool::new(false);

/// Makes the first Ctrl-C ask running solves to stop cleanly (nothing is
/// half-written: tables appear only by rename), and a second one exit at
/// once; at a prompt (see [`at_prompt`]), the first one quits.
pub fn handle_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if AT_PROMPT.load(Ordering::SeqCst) || INTERRUPTED.swap(true, Ordering::SeqCst) {
            eprintln!();
            std::process::exit(130);
        }
        eprintln!("\nsolved: stopping (press Ctrl-C again to quit at once)");
    });
}

/// From now on the process only waits for what a person types: Ctrl-C
/// quits at once, with status 130.
pub fn at_prompt() {
    AT_PROMPT.store(true, Ordering::SeqCst);
}

/// Whether Ctrl-C has been pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// A job run without a terminal (under `nohup`, into a log) says each stage
/// on a line of its own once it has run this long, so that a log of a long
/// solve shows how far it got and a short one stays silent.
const LOGGED_AFTER: Duration = Duration::from_secs(10);

/// Without a terminal, a phase that has said nothing for this long says how
/// far it got: a walk of hours has no stages of its own.
const QUIET_AT_MOST: Duration = Duration::from_secs(60);

/// A progress bar on stderr, drawn only when stderr is a terminal; without
/// one, a long job's stages are written as lines instead.
#[derive(Debug)]
pub struct Bar {
    bar: ProgressBar,
    began: Instant,
    plain: bool,
    /// When the last line was written, in milliseconds after `began`.
    logged_at: AtomicU64,
}

impl Bar {
    pub fn new() -> Bar {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr_with_hz(5));
        bar.set_style(
            ProgressStyle::with_template("{msg:>10} [{bar:40}] {percent:>3}% {elapsed} (eta {eta})")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Bar { bar, began: Instant::now(), plain: !std::io::stderr().is_terminal(), logged_at: AtomicU64::new(0) }
    }

    fn log(&self, what: &str) {
        let elapsed = self.began.elapsed();
        if self.plain && elapsed >= LOGGED_AFTER {
            self.logged_at.store(elapsed.as_millis() as u64, Ordering::Relaxed);
            eprintln!("solved: {:.0} s: {what}", elapsed.as_secs_f64());
        }
    }

    /// Says how far the phase got, if nothing was said for a while.
    fn log_if_quiet(&self) {
        let now = self.began.elapsed().as_millis() as u64;
        let quiet_at_most = QUIET_AT_MOST.as_millis() as u64;
        let quiet = now.saturating_sub(self.logged_at.load(Ordering::Relaxed)) >= quiet_at_most;
        // One thread of several advancing at once writes the line.
        if quiet && self.logged_at.swap(now, Ordering::Relaxed) + quiet_at_most <= now {
            let done = self.bar.position() as f64 / self.bar.length().unwrap_or(0).max(1) as f64;
            self.log(&format!("{} {:.1}%", self.bar.message(), 100.0 * done));
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, phase: &str, total: u64) {
        self.bar.set_message(phase.to_string());
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.log(phase);
    }

    fn stage(&self, name: &str) {
        self.bar.set_message(name.to_string());
        self.log(name);
    }

    fn note(&self, message: &str) {
        self.bar.suspend(|| eprintln!("solved: {message}"));
    }

    fn advance(&self, units: u64) {
        self.bar.inc(units);
        if self.plain {
            self.log_if_quiet();
        }
    }

    fn should_stop(&self) -> bool {
        interrupted()
    }
}
