//! Progress reports from long computations, and how they are stopped.

/// Receives progress from a long computation and may ask it to stop.
///
/// Solvers call [`start`](Self::start) once per phase, then
/// [`advance`](Self::advance) as work completes, and poll
/// [`should_stop`](Self::should_stop) between units of work; when it returns
/// `true` they give up with an `Interrupted` error, leaving nothing half
/// written.
pub trait Progress: Sync {
    /// A phase named `phase` begins, with `total` units of work.
    fn start(&self, phase: &str, total: u64) {
        let _ = (phase, total);
    }

    /// A named stage within the computation begins (for timing; the units
    /// of [`start`](Self::start) run on across stages).
    fn stage(&self, name: &str) {
        let _ = name;
    }

    /// Something the person waiting should know (that the work waits for
    /// another process, say), in a sentence without a final period.
    fn note(&self, message: &str) {
        let _ = message;
    }

    /// `units` more units of the current phase are done.
    fn advance(&self, units: u64) {
        let _ = units;
    }

    /// Whether the computation should stop as soon as it safely can.
    fn should_stop(&self) -> bool {
        false
    }
}

/// Reports nothing and never stops.
#[derive(Copy, Clone, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// A computation stopped because [`Progress::should_stop`] asked it to.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
