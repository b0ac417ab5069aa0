//! The progress bar on stderr, and Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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

/// A progress bar on stderr, drawn only when stderr is a terminal.
#[derive(Debug)]
pub struct Bar {
    bar: ProgressBar,
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
        Bar { bar }
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
    }

    fn stage(&self, name: &str) {
        self.bar.set_message(name.to_string());
    }

    fn note(&self, message: &str) {
        self.bar.suspend(|| eprintln!("solved: {message}"));
    }

    fn advance(&self, units: u64) {
        self.bar.inc(units);
    }

    fn should_stop(&self) -> bool {
        interrupted()
    }
}
