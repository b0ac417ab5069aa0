//! Tables for a request: each loaded once and kept for every request,
//! small ones built while the request waits, large ones in the background
//! (the request answered with how far the build has got), and the longest
//! left to the command line.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use solved_engine::{Progress, Silent, TableStore};
use solved_games::front::{Answer, Building, Busy, Host, Loaded, NotBuilt, Refused, Wanted, Work};
use solved_games::tables::Provenance;
use solved_games::text::{bytes, duration, thousands};

use crate::budget::AT_ONCE_SECONDS;
use crate::state::{AppState, Job, lock};

/// What a game gets from the server while it answers one request. Blocks:
/// use from a blocking thread.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    pub(crate) state: &'a Arc<AppState>,
}

impl Host for Request<'_> {
    fn store(&self) -> &TableStore {
        self.state.store()
    }

    fn progress(&self) -> &dyn Progress {
        &Silent
    }

    fn serves_requests(&self) -> bool {
        true
    }

    fn obtain(&self, wanted: Wanted) -> anyhow::Result<(Loaded, Provenance)> {
        let state = self.state;
        let Wanted { path, what, work, key, positions, command, detail, open, build, on_request } = wanted;
        if let Some(loaded) = state.load(path.clone(), &open)? {
            return Ok((loaded, Provenance::Cached));
        }
        let (cost, build) = match build {
            Err(message) => anyhow::bail!(NotBuilt { message, command }),
            Ok(_) if !on_request => {
                anyhow::bail!(NotBuilt { message: format!("{what} has not been built on this server"), command })
            }
            Ok(build) => build,
        };
        let budget = state.budget();
        let over = if key.positions > budget.positions {
            Some(format!(
                "{} positions, where this server builds at most {}",
                thousands(key.positions),
                thousands(budget.positions)
            ))
        } else if cost.seconds > budget.seconds {
            Some(format!(
                "{} {}, where this server {} for at most {}",
                work.about(),
                duration(cost.seconds),
                work.verb(),
                duration(budget.seconds)
            ))
        } else if cost.bytes > budget.bytes {
            Some(format!(
                "{} of memory, where this server gives a {} at most {}",
                bytes(cost.bytes),
                work.noun(),
                bytes(budget.bytes)
            ))
        } else {
            None
        };
        match (over, work) {
            (None, _) => {}
            (Some(over), Work::Build) => {
                anyhow::bail!(NotBuilt { message: format!("{what} has not been built; it takes {over}"), command })
            }
            // What the command finds is not kept where the server looks: it
            // is for the person to run, not for the page to wait on.
            (Some(over), Work::Search) => anyhow::bail!(Refused(format!("{what} takes {over}: `{command}` runs it"))),
        }
        if cost.seconds <= AT_ONCE_SECONDS {
            // A turn first, so that a crowd of such requests shares the
            // cores rather than holding every request up.
            let Some(_turn) = state.turns.take() else {
                anyhow::bail!(Busy("the server is building other tables or searching; try again in a moment".into()));
            };
            let loading = state.loading(&path);
            let _loading = lock(&loading);
            if let Some(table) = state.cached(&path) {
                return Ok((table, Provenance::Cached));
            }
            let ((table, bytes), provenance) = build(state.store(), &Silent)?;
            return Ok((state.keep(path, bytes, table), provenance));
        }
        let building = |job: &Job| {
            let (phase, step, done) = job.progress();
            Building {
                building: true,
                work,
                what: what.clone(),
                estimate: cost.seconds,
                phase,
                step,
                done,
                positions,
                command: command.clone(),
                detail: detail.clone(),
            }
        };
        let mut job = lock(&state.job);
        // The builder may have finished since the look above.
        if let Some(table) = state.cached(&path) {
            return Ok((table, Provenance::Cached));
        }
        if let Some(running) = job.as_ref() {
            if running.path != path {
                anyhow::bail!(Busy(
                    "another large table or long search is under way; try again when it is done".into()
                ));
            }
            let failure = lock(&running.failure).take();
            if let Some(failure) = failure {
                // Said once; the next request tries again.
                *job = None;
                anyhow::bail!(failure);
            }
            anyhow::bail!(building(running));
        }
        let running = Arc::new(Job::new(path.clone()));
        *job = Some(running.clone());
        let (state, builder) = (state.clone(), running.clone());
        tracing::info!(table = %path.display(), positions = key.positions, "building");
        std::thread::spawn(move || {
            let began = Instant::now();
            let built = catch_unwind(AssertUnwindSafe(|| build(state.store(), &*builder)));
            let mut job = lock(&state.job);
            let seconds = began.elapsed().as_secs_f64();
            let failure = match built {
                Ok(Ok(((table, bytes), _))) => {
                    tracing::info!(table = %path.display(), seconds, bytes, "built");
                    state.keep(path, bytes, table);
                    *job = None;
                    return;
                }
                Ok(Err(error)) => format!("{error:#}"),
                Err(_) => "building the table failed unexpectedly (see the server's log)".to_string(),
            };
            tracing::warn!(table = %path.display(), seconds, "building failed: {failure}");
            *lock(&builder.failure) = Some(failure);
        });
        anyhow::bail!(building(&running))
    }

    fn remember(
        &self,
        key: String,
        make: &mut dyn FnMut() -> anyhow::Result<Box<dyn Answer>>,
    ) -> anyhow::Result<Box<dyn Answer>> {
        self.state.answer(key, make)
    }
}
