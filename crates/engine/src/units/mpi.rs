//! The same solve by units spread over processes, through MPI.
//!
//! Rank 0 is the manager: it knows which units are stored already (the
//! solve resumes), hands each worker a unit whose dependencies are all
//! stored, and counts progress. Every other rank is a worker: it solves the
//! unit it is handed exactly as [`UnitSolver`](super::UnitSolver) would,
//! reading the units it depends on from the directory all ranks share and
//! writing its own there atomically, then asks for the next. Each unit is
//! solved by the same code from the same inputs, so the files are the same
//! bytes as a single process writes, whatever the number of ranks.
//!
//! A rank that dies takes the job down with it (MPI's default), but every
//! unit already written stays: the next run resumes from them and only the
//! units being solved at the time are solved again.

use std::collections::BTreeSet;

use mpi::traits::{Communicator, Destination, Source};

use super::schedule::Run;
use super::{Unit, UnitReport, UnitSolveError, UnitStore, Units};
use crate::progress::Progress;

/// A worker's request for a unit, with the unit it finished if any.
const READY: u64 = 0;
/// A worker's report that its unit failed; the manager stops the job.
const FAILED: u64 = 1;
/// The manager's answer: solve this unit.
const SOLVE: u64 = 2;
/// The manager's answer: every unit is stored.
const FINISH: u64 = 3;

/// Solves every unit of `game` that `store` lacks over the ranks of
/// `world`: rank 0 manages, the others solve (with one rank, it solves
/// alone). Every rank must call it with the same game and store. Only the
/// manager reports to `progress` and returns a report; workers return
/// `None`, and listen to `progress` only to stop.
///
/// # Errors
///
/// [`UnitSolveError`] for a unit that fails on this rank or a store that
/// cannot be read; a failure on another rank aborts the job.
pub fn solve_over_mpi<G: Units>(
    world: &impl Communicator,
    game: &G,
    store: &dyn UnitStore,
    budget: u64,
    progress: &dyn Progress,
) -> Result<Option<UnitReport>, UnitSolveError> {
    if world.size() == 1 {
        return super::UnitSolver::new(budget).solve(game, store, progress).map(Some);
    }
    let units = game.units();
    if world.rank() == 0 {
        manage(world, &units, store, progress).map(Some)
    } else {
        work(world, game, &units, store, budget, progress).map(|()| None)
    }
}

fn manage(
    world: &impl Communicator,
    units: &[Unit],
    store: &dyn UnitStore,
    progress: &dyn Progress,
) -> Result<UnitReport, UnitSolveError> {
    let total: u64 = units.iter().map(|u| u.len).sum();
    progress.start("solve", 2 * total);
    let mut report = UnitReport::default();
    let mut stored = vec![false; units.len()];
    let mut readers = vec![Vec::new(); units.len()];
    let mut missing = vec![0usize; units.len()];
    for (number, unit) in units.iter().enumerate() {
        stored[number] = store.has(number)?;
        if stored[number] {
            report.resumed += 1;
            progress.advance(2 * unit.len);
        }
        for &d in &unit.depends_on {
            readers[d].push(number);
        }
    }
    for (number, unit) in units.iter().enumerate() {
        missing[number] = unit.depends_on.iter().filter(|&&d| !stored[d]).count();
    }
    if report.resumed > 0 {
        progress.note(&format!("resuming: {} of {} units were solved before", report.resumed, units.len()));
    }
    // Ready units, lowest first: the order a single process takes.
    let mut ready: BTreeSet<usize> = (0..units.len()).filter(|&u| !stored[u] && missing[u] == 0).collect();
    let mut idle: Vec<i32> = Vec::new();
    let mut busy = 0usize;
    let mut finished = 0;
    let workers = world.size() as usize - 1;
    while finished < workers {
        while let (Some(&worker), Some(&unit)) = (idle.last(), ready.first()) {
            world.process_at_rank(worker).send(&[SOLVE, unit as u64][..]);
            idle.pop();
            ready.remove(&unit);
            busy += 1;
        }
        if ready.is_empty() && busy == 0 {
            for worker in idle.drain(..) {
                world.process_at_rank(worker).send(&[FINISH, 0][..]);
                finished += 1;
            }
            if finished == workers {
                break;
            }
        }
        let (message, status) = receive(&world.any_process());
        match message.as_slice() {
            [READY] => idle.push(status.source_rank()),
            &[READY, unit] => {
                let unit = unit as usize;
                busy -= 1;
                stored[unit] = true;
                report.solved += 1;
                progress.advance(2 * units[unit].len);
                for &reader in &readers[unit] {
                    missing[reader] -= 1;
                    if missing[reader] == 0 && !stored[reader] {
                        ready.insert(reader);
                    }
                }
                idle.push(status.source_rank());
            }
            &[FAILED, unit] => {
                progress.note(&format!("unit {unit} failed on rank {}: stopping", status.source_rank()));
                world.abort(2);
            }
            other => panic!("unexpected message {other:?} from rank {}", status.source_rank()),
        }
    }
    Ok(report)
}

fn work<G: Units>(
    world: &impl Communicator,
    game: &G,
    units: &[Unit],
    store: &dyn UnitStore,
    budget: u64,
    progress: &dyn Progress,
) -> Result<(), UnitSolveError> {
    let manager = world.process_at_rank(0);
    let stop_only = StopOnly(progress);
    let run = Run::new(game, units, store, budget, false, &stop_only);
    manager.send(&[READY][..]);
    loop {
        let (message, _) = receive(&manager);
        match message.as_slice() {
            &[SOLVE, unit] => {
                let unit = unit as usize;
                if let Err(error) = run.solve(unit..unit + 1) {
                    manager.send(&[FAILED, unit as u64][..]);
                    return Err(error);
                }
                manager.send(&[READY, unit as u64][..]);
            }
            [FINISH, _] => return Ok(()),
            other => panic!("unexpected message {other:?} from the manager"),
        }
    }
}

/// The next message from `source`. MPI's blocking receive spins on a
/// core; a rank that waits here (the manager always, a worker when no unit
/// is ready) looks every millisecond instead and leaves the cores to the
/// ranks that solve.
fn receive(source: &impl Source) -> (Vec<u64>, mpi::point_to_point::Status) {
    loop {
        if source.immediate_probe().is_some() {
            return source.receive_vec::<u64>();
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// A worker's progress: it draws nothing (the manager counts), but stops
/// when asked.
struct StopOnly<'a>(&'a dyn Progress);

impl Progress for StopOnly<'_> {
    fn should_stop(&self) -> bool {
        self.0.should_stop()
    }
}
