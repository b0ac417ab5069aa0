//! What the server may spend on tables built on request, and how long a
//! request may take.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long any request may take before it is answered 504: a build that
/// takes longer runs in the background and its requests are answered 202
/// at once, so only a table slow to read from disk comes near it.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// Builds estimated to take at most this long run while their request
/// waits; longer ones run in the background, one at a time.
pub const AT_ONCE_SECONDS: f64 = 1.0;

/// How many builds run while their requests wait, at once: one per core
/// of the machine measured. More requests for such builds wait their turn.
const AT_ONCE: usize = 2;

/// How long a request waits for its turn to build at once before it is
/// told the server is busy.
const TURN: Duration = Duration::from_secs(10);

/// What one table built on request may cost, by its estimate: larger ones
/// are answered with the command that builds them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Budget {
    /// The most positions (none for 0).
    pub positions: u64,
    /// The most seconds of both cores.
    pub seconds: f64,
    /// The most bytes of memory.
    pub bytes: u64,
}

impl Default for Budget {
    /// Two minutes and 3 GB: every table the pages offer up to Dodgem 5×5
    /// and Dots and Boxes 3×5, not Tic-Tac-Chec's (2.6 GB, which `solved
    /// solve` builds with a checkpoint) nor anything taking hours.
    fn default() -> Budget {
        Budget { positions: u64::MAX, seconds: 120.0, bytes: 3_000_000_000 }
    }
}

/// Turns to build while a request waits: at most [`AT_ONCE`] at a time.
#[derive(Debug, Default)]
pub(crate) struct Turns {
    taken: Mutex<usize>,
    freed: Condvar,
}

/// A turn taken: given back when dropped.
#[derive(Debug)]
pub(crate) struct Turn<'a>(&'a Turns);

impl Turns {
    /// The count of turns taken: whole between any two statements, so a
    /// panic elsewhere leaves nothing to fear.
    fn taken(&self) -> MutexGuard<'_, usize> {
        self.taken.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A turn, waiting for one at most [`TURN`]; `None` if none came.
    pub(crate) fn take(&self) -> Option<Turn<'_>> {
        let until = Instant::now() + TURN;
        let mut taken = self.taken();
        while *taken >= AT_ONCE {
            let left = until.checked_duration_since(Instant::now())?;
            taken = self.freed.wait_timeout(taken, left).unwrap_or_else(PoisonError::into_inner).0;
        }
        *taken += 1;
        Some(Turn(self))
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.0.taken() -= 1;
        self.0.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_shared_out_and_given_back() {
        let turns = Turns::default();
        let held: Vec<Turn<'_>> = (0..AT_ONCE).map(|_| turns.take().unwrap()).collect();
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| turns.take().is_some());
            std::thread::sleep(Duration::from_millis(50));
            drop(held);
            assert!(waiting.join().unwrap(), "a turn given back goes to the request waiting");
        });
        assert_eq!(*turns.taken(), 0);
    }
}
