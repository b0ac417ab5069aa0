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
//! A unit of at least `split_from` positions is solved by every rank at
//! once, each a slice of it ([`Ranks`]): the manager waits until every
//! worker is free, tells each to join, and takes its own slice; it saves
//! the unit, and the bytes are again those of one process.
//!
//! A rank that dies takes the job down with it (MPI's default), but every
//! unit already written stays: the next run resumes from them and only the
//! units being solved at the time are solved again.

use std::collections::BTreeSet;

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::{Communicator, CommunicatorCollectives, Destination, Root, Source};

use super::schedule::Run;
use super::{Ranks, Unit, UnitReport, UnitSolveError, UnitStore, Units};
use crate::progress::Progress;
use crate::retrograde::SolveError;

/// A worker's request for a unit, with the unit it finished if any.
const READY: u64 = 0;
/// A worker's report that its unit failed; the manager stops the job.
const FAILED: u64 = 1;
/// The manager's answer: solve this unit.
const SOLVE: u64 = 2;
/// The manager's answer: every unit is stored.
const FINISH: u64 = 3;
/// The manager's call to every worker: solve this unit together, each
/// rank its slice.
const SPLIT: u64 = 4;

/// Solves every unit of `game` that `store` lacks over the ranks of
/// `world`: rank 0 manages, the others solve (with one rank, it solves
/// alone); a unit of at least `split_from` positions by all ranks at once.
/// Every rank must call it with the same arguments. Only the manager
/// reports to `progress` and returns a report; workers return `None`, and
/// listen to `progress` only to stop.
///
/// # Errors
///
/// [`UnitSolveError`] for a unit that fails on this rank or a store that
/// cannot be read; a failure on another rank aborts the job. A split unit
/// stopped (by Ctrl-C) stops every rank.
pub fn solve_over_mpi<G: Units>(
    world: &impl Communicator,
    game: &G,
    store: &dyn UnitStore,
    budget: u64,
    split_from: u64,
    progress: &dyn Progress,
) -> Result<Option<UnitReport>, UnitSolveError> {
    if world.size() == 1 {
        return super::UnitSolver::new(budget).solve(game, store, progress).map(Some);
    }
    let units = game.units();
    let stop_only = StopOnly(progress);
    let run = Run::new(game, &units, store, super::Memory { kept: budget, ceiling: u64::MAX }, false, &stop_only);
    if world.rank() == 0 {
        manage(world, &run, &units, store, split_from, progress).map(Some)
    } else {
        work(world, &run).map(|()| None)
    }
}

fn manage<G: Units>(
    world: &impl Communicator,
    run: &Run<'_, G>,
    units: &[Unit],
    store: &dyn UnitStore,
    split_from: u64,
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
    let mut stored_now = |unit: usize, report: &mut UnitReport, ready: &mut BTreeSet<usize>| {
        stored[unit] = true;
        report.solved += 1;
        progress.advance(2 * units[unit].len);
        for &reader in &readers[unit] {
            missing[reader] -= 1;
            if missing[reader] == 0 && !stored[reader] {
                ready.insert(reader);
            }
        }
    };
    while finished < workers {
        // A unit to split waits until every worker is free, then has them all.
        if let Some(&unit) = ready.first().filter(|&&unit| units[unit].len >= split_from)
            && busy == 0
        {
            for worker in 1..world.size() {
                world.process_at_rank(worker).send(&[SPLIT, unit as u64][..]);
            }
            progress.note(&format!(
                "unit {unit} ({} positions): every one of the {} ranks solves a slice",
                units[unit].len,
                world.size()
            ));
            split(world, run, unit)?;
            ready.remove(&unit);
            stored_now(unit, &mut report, &mut ready);
            continue;
        }
        while let (Some(&worker), Some(&unit)) =
            (idle.last(), ready.first().filter(|&&unit| units[unit].len < split_from))
        {
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
                busy -= 1;
                stored_now(unit as usize, &mut report, &mut ready);
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

fn work<G: Units>(world: &impl Communicator, run: &Run<'_, G>) -> Result<(), UnitSolveError> {
    let manager = world.process_at_rank(0);
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
            &[SPLIT, unit] => split(world, run, unit as usize)?,
            [FINISH, _] => return Ok(()),
            other => panic!("unexpected message {other:?} from the manager"),
        }
    }
}

/// This rank's part of unit `number`, solved by every rank at once. A
/// failure only this rank sees would leave the others waiting for it, so
/// it aborts the job; a stop is seen by all, and all return it.
fn split<G: Units>(world: &impl Communicator, run: &Run<'_, G>, number: usize) -> Result<(), UnitSolveError> {
    match run.solve_split(number, &WorldRanks(world)) {
        Err(error @ UnitSolveError::Solve { source: SolveError::Interrupted(_), .. }) => Err(error),
        Err(error) => {
            eprintln!("solved: unit {number} failed on rank {}: {error}; stopping every rank", world.rank());
            world.abort(2)
        }
        Ok(()) => Ok(()),
    }
}

/// The ranks of a world, solving one unit together.
struct WorldRanks<'a, C>(&'a C);

impl<C: Communicator> Ranks for WorldRanks<'_, C> {
    fn rank(&self) -> usize {
        self.0.rank() as usize
    }

    fn count(&self) -> usize {
        self.0.size() as usize
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        let sent = outgoing.concat();
        // Every offset is below the total, so checking the totals checks them all.
        message_len(sent.len());
        let counts: Vec<i32> = outgoing.iter().map(|words| message_len(words.len())).collect();
        let mut received_counts = vec![0; counts.len()];
        self.0.all_to_all_into(&counts[..], &mut received_counts[..]);
        let starts = |counts: &[i32]| -> Vec<i32> {
            counts.iter().scan(0, |at, &n| Some(std::mem::replace(at, *at + n))).collect()
        };
        let mut received = vec![0u64; message_len(received_counts.iter().map(|&n| n as usize).sum()) as usize];
        let (sent_starts, received_starts) = (starts(&counts), starts(&received_counts));
        self.0.all_to_all_varcount_into(
            &Partition::new(&sent[..], &counts[..], &sent_starts[..]),
            &mut PartitionMut::new(&mut received[..], &received_counts[..], &received_starts[..]),
        );
        received
    }

    fn max(&self, words: &[u64]) -> Vec<u64> {
        let mut largest = vec![0; words.len()];
        self.0.all_reduce_into(words, &mut largest[..], SystemOperation::max());
        largest
    }

    fn or_to_first(&self, words: Vec<u64>) -> Option<Vec<u64>> {
        message_len(words.len());
        let first = self.0.process_at_rank(0);
        if self.0.rank() != 0 {
            first.reduce_into(&words[..], SystemOperation::bitwise_or());
            return None;
        }
        let mut all = vec![0; words.len()];
        first.reduce_into_root(&words[..], &mut all[..], SystemOperation::bitwise_or());
        Some(all)
    }
}

/// A message's length, or an offset in one, as MPI counts it: in one
/// layer a rank sends and receives fewer than 2^31 words, and a unit's
/// cells take fewer, on the boards solved so far. A larger unit would
/// exchange a layer, and gather its cells, in rounds (`docs/dodgem-7x7.md`).
fn message_len(words: usize) -> i32 {
    i32::try_from(words).expect("fewer than 2^31 words in one collective call")
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
