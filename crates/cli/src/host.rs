//! Tables on the command line: read from the store, or solved while the
//! user waits, with a progress bar and, for a long solve, a word first.

use anyhow::Context;
use solved_engine::{Progress, TableStore};
use solved_games::front::{Host, Loaded, NotBuilt, Wanted, Work};
use solved_games::info::Operation;
use solved_games::tables::Provenance;
use solved_games::text::{bytes, duration};

use crate::progress::Bar;

/// A solve expected to take at least this many seconds is announced first,
/// whether or not anyone watches the progress bar.
const ANNOUNCED: f64 = 3.0;

/// What a game gets from the command line while it does one operation.
#[derive(Debug)]
pub struct Terminal<'a> {
    store: &'a TableStore,
    operation: Operation,
    bar: Bar,
}

impl<'a> Terminal<'a> {
    /// For `operation`, with the tables of `store`.
    pub fn new(store: &'a TableStore, operation: Operation) -> Terminal<'a> {
        Terminal { store, operation, bar: Bar::new() }
    }
}

impl Host for Terminal<'_> {
    fn store(&self) -> &TableStore {
        self.store
    }

    fn progress(&self) -> &dyn Progress {
        &self.bar
    }

    fn serves_requests(&self) -> bool {
        false
    }

    /// Solves a missing table at once. A long solve is announced on stderr
    /// with what it takes and, unless the solve is what was asked for, the
    /// command that builds the table on its own.
    fn obtain(&self, wanted: Wanted) -> anyhow::Result<(Loaded, Provenance)> {
        if let Some((loaded, _)) = (wanted.open)(self.store)? {
            return Ok((loaded, Provenance::Cached));
        }
        let (cost, build) = wanted.build.map_err(|message| NotBuilt { message, command: wanted.command.clone() })?;
        let what = &wanted.what;
        if cost.seconds >= ANNOUNCED {
            let (seconds, memory) = (duration(cost.seconds), bytes(cost.bytes));
            match (wanted.work, self.operation) {
                (Work::Build, Operation::Solve) => {
                    eprintln!("solved: solving {what}: about {seconds} and {memory} of memory on two cores");
                }
                (Work::Build, _) => eprintln!(
                    "solved: building {what} first: about {seconds} and {memory} of memory on two cores; `{}` builds it on its own",
                    wanted.command
                ),
                // A search says what it takes itself, as a range: the
                // estimate is rough.
                (Work::Search, _) => {}
            }
        }
        let ((loaded, _), provenance) = build(self.store, &self.bar).with_context(|| format!("cannot get {what}"))?;
        // Where a long build was announced, its end is too; a table built in
        // a moment says nothing, so that a command that then fails (its
        // output refused, say) says one thing: why.
        if provenance == Provenance::Solved && wanted.work == Work::Build && cost.seconds >= ANNOUNCED {
            self.bar.note(&format!("saved {}", wanted.path.display()));
        }
        Ok((loaded, provenance))
    }
}
