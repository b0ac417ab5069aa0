//! Which units are solved when, by which threads, and which solved units
//! stay in memory for the units that read them.
//!
//! The order a game lists its units in is one the solve may follow, but
//! most units read only a few of those before them, so many can be solved
//! at once. A run of consecutive small units (a *segment*) is solved that
//! way: each unit by one thread, with plain loads and stores, started as
//! soon as the units it reads are solved. Split over every thread, a small
//! unit's distance layers hold a few thousand positions each, and at every
//! layer's end one thread waited for the other. A large unit is solved by
//! every thread, alone, which bounds the memory a solve takes by one large
//! unit and its dependencies.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::AcqRel, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::{
    SizeTime, Solvers, Unit, UnitReport, UnitSolveError, UnitStore, Units, longest, solve_in_passes,
    solve_with_dependencies,
};
use crate::game::UnitParts;
use crate::progress::{Interrupted, Progress};
use crate::retrograde::{Ranks, Sharing, SolveError};
use crate::solution::Solution;
use crate::table::TableError;

/// Units below this many positions are solved by one thread each, several
/// at once; larger ones by every thread, one at a time.
pub(super) const SMALL_UNIT: u64 = 1 << 24;

/// The units from `first` on to schedule together: `first` alone if it is
/// large, or else every small unit after it up to the next large one.
pub(super) fn segment_from(units: &[Unit], first: usize) -> Range<usize> {
    if units[first].len >= SMALL_UNIT {
        return first..first + 1;
    }
    let end = units[first..].iter().position(|unit| unit.len >= SMALL_UNIT).map_or(units.len(), |n| first + n);
    first..end
}

/// The class of size of a unit of `len` positions: [`SMALL_UNIT`] for a
/// small one, else the next power of two above `len`.
fn size_class(len: u64) -> u64 {
    if len < SMALL_UNIT { SMALL_UNIT } else { 1 << (u64::BITS - len.leading_zeros()) }
}

/// The memory a solve by units may take (see [`UnitSolver::within`](super::UnitSolver::within)).
#[derive(Copy, Clone, Debug)]
pub(super) struct Memory {
    /// Bytes of finished units kept for the units that read them.
    pub kept: u64,
    /// Bytes of values and working cells held at once.
    pub ceiling: u64,
}

/// A solve by units under way: what it has solved and what it keeps.
pub(super) struct Run<'a, G> {
    game: &'a G,
    units: &'a [Unit],
    store: &'a dyn UnitStore,
    kept: Kept,
    ceiling: u64,
    two_bytes_wide: bool,
    progress: &'a dyn Progress,
    /// Positions of all units.
    total: u64,
    solved: AtomicUsize,
    resumed: AtomicUsize,
    in_passes: AtomicUsize,
    /// Bytes of unit values held beyond those kept: the dependencies read
    /// back for the units being solved, and their values.
    held: AtomicU64,
    peak: AtomicU64,
    /// Positions of the units solved or found stored.
    done: AtomicU64,
    /// Hundredths of the positions for which a stage line was given.
    reported: AtomicU64,
    resuming_noted: AtomicBool,
    by_size: Mutex<Vec<SizeTime>>,
}

impl<'a, G: Units> Run<'a, G> {
    pub(super) fn new(
        game: &'a G,
        units: &'a [Unit],
        store: &'a dyn UnitStore,
        memory: Memory,
        two_bytes_wide: bool,
        progress: &'a dyn Progress,
    ) -> Run<'a, G> {
        Run {
            game,
            units,
            store,
            kept: Kept::new(memory.kept, units),
            ceiling: memory.ceiling,
            two_bytes_wide,
            progress,
            total: units.iter().map(|u| u.len).sum::<u64>().max(1),
            solved: AtomicUsize::new(0),
            resumed: AtomicUsize::new(0),
            in_passes: AtomicUsize::new(0),
            held: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            done: AtomicU64::new(0),
            reported: AtomicU64::new(0),
            resuming_noted: AtomicBool::new(false),
            by_size: Mutex::new(Vec::new()),
        }
    }

    /// What the run did so far.
    pub(super) fn report(&self) -> UnitReport {
        UnitReport {
            solved: self.solved.load(Relaxed),
            resumed: self.resumed.load(Relaxed),
            in_passes: self.in_passes.load(Relaxed),
            peak_bytes: self.peak.load(Relaxed),
            by_size: self.by_size.lock().unwrap_or_else(PoisonError::into_inner).clone(),
        }
    }

    /// Counts the units of `segment` not `stored` before as solved in
    /// `time`, in their class of size (see [`SizeTime`]).
    fn time_segment(&self, segment: Range<usize>, stored: &[bool], time: std::time::Duration) {
        let solved: Vec<u64> = segment.zip(stored).filter(|(_, has)| !**has).map(|(u, _)| self.units[u].len).collect();
        let below = size_class(solved.iter().copied().max().unwrap_or(0));
        let mut by_size = self.by_size.lock().unwrap_or_else(PoisonError::into_inner);
        let at = by_size.partition_point(|class| class.below < below);
        if by_size.get(at).is_none_or(|class| class.below != below) {
            by_size.insert(at, SizeTime { below, ..SizeTime::default() });
        }
        let class = &mut by_size[at];
        class.units += solved.len();
        class.positions += solved.iter().sum::<u64>();
        class.time += time;
    }

    /// Solves the units of `segment` that `store` does not hold, saving
    /// each as soon as it is solved. Every unit before the segment that
    /// they read must be solved. A segment of one unit is solved by every
    /// thread.
    ///
    /// # Errors
    ///
    /// The failure of the lowest-numbered unit that failed; once one has,
    /// no further unit is started, and those solved stay saved.
    pub(super) fn solve(&self, segment: Range<usize>) -> Result<(), UnitSolveError> {
        self.kept.forget_read_only_before(segment.start);
        let mut stored = Vec::with_capacity(segment.len());
        for number in segment.clone() {
            let has = self.store.has(number)?;
            if has {
                self.resumed.fetch_add(1, Relaxed);
                self.progress.advance(2 * self.units[number].len);
                self.kept.solved(number, &self.units[number].depends_on, None);
                self.count_done(number);
            }
            stored.push(has);
        }
        if stored.iter().all(|&has| has) {
            return Ok(());
        }
        if self.resumed.load(Relaxed) > 0 && !self.resuming_noted.swap(true, Relaxed) {
            self.progress.note(&format!(
                "resuming: {} of {} units were solved before",
                self.resumed.load(Relaxed),
                self.units.len()
            ));
        }
        let began = Instant::now();
        if segment.len() == 1 {
            self.solve_unit(segment.start, Sharing::Threads)?;
        } else {
            let together = Segment::new(self.units, segment.clone(), &stored);
            let ready = together.ready_at_start();
            rayon::scope_fifo(|scope| {
                for number in ready {
                    let together = &together;
                    scope.spawn_fifo(move |scope| self.solve_in(together, scope, number));
                }
            });
            together.into_result()?;
        }
        self.time_segment(segment, &stored, began.elapsed());
        Ok(())
    }

    /// Solves unit `number` of `segment`, then starts the units of the
    /// segment that were waiting only for it.
    fn solve_in<'s>(&'s self, segment: &'s Segment, scope: &rayon::ScopeFifo<'s>, number: usize) {
        if segment.has_failed() {
            return;
        }
        match self.solve_unit(number, Sharing::Alone) {
            Ok(()) => {
                for reader in segment.readers_ready_after(number) {
                    scope.spawn_fifo(move |scope| self.solve_in(segment, scope, reader));
                }
            }
            Err(error) => segment.fail(number, error),
        }
    }

    /// Solves and saves unit `number`, whose dependencies are all solved.
    fn solve_unit(&self, number: usize, sharing: Sharing) -> Result<(), UnitSolveError> {
        let unit = &self.units[number];
        let (values, read_back) = match self.passes_for(number) {
            Some(groups) => (self.solve_in_passes(number, &groups, sharing)?, 0),
            None => self.solve_at_once(number, sharing)?,
        };
        let values = Arc::new(values);
        let own = values.size_in_bytes();
        let held = self.held.fetch_add(own, Relaxed) + own;
        self.peak.fetch_max(held + self.kept.bytes(), Relaxed);
        let saved = self.save(number, &values);
        self.held.fetch_sub(read_back + own, Relaxed);
        saved?;
        self.kept.solved(number, &unit.depends_on, Some(values));
        self.solved.fetch_add(1, Relaxed);
        self.count_done(number);
        Ok(())
    }

    /// Solves unit `number` with every unit it reads in memory: its values,
    /// and the bytes read back from the store for it, still counted held.
    fn solve_at_once(&self, number: usize, sharing: Sharing) -> Result<(Solution, u64), UnitSolveError> {
        let unit = &self.units[number];
        let mut read_back = 0;
        let mut dependencies = Vec::with_capacity(unit.depends_on.len());
        for &d in &unit.depends_on {
            let values = match self.kept.get(d) {
                Some(values) => values,
                None => {
                    let values = Arc::new(self.store.load(d, self.units[d].len)?);
                    read_back += values.size_in_bytes();
                    values
                }
            };
            dependencies.push(values);
        }
        self.held.fetch_add(read_back, Relaxed);
        let solved = solve_with_dependencies(
            self.game,
            self.units,
            number,
            &dependencies,
            self.two_bytes_wide,
            Solvers::Here(sharing),
            self.progress,
        );
        drop(dependencies);
        let solved = solved.map_err(|source| {
            self.held.fetch_sub(read_back, Relaxed);
            UnitSolveError::Solve { unit: number, source }
        })?;
        Ok((solved.expect("a unit solved here has its values here"), read_back))
    }

    /// The groups of its dependencies (places in its `depends_on`) that
    /// unit `number` reads one pass at a time, if all at once it would take
    /// more than the ceiling (small units solved together, a few megabytes
    /// each, are counted one at a time). First the kept units it does not
    /// read are let go, and all of them if it is solved in passes.
    fn passes_for(&self, number: usize) -> Option<Vec<Vec<usize>>> {
        let unit = &self.units[number];
        let sizes: Vec<u64> = unit.depends_on.iter().map(|&d| self.units[d].len).collect();
        let own = unit.len + working_bytes(self.game, number, unit.len);
        let need = own + sizes.iter().sum::<u64>();
        if need + self.kept.bytes() <= self.ceiling {
            return None;
        }
        self.kept.forget_all_but(&unit.depends_on);
        if need <= self.ceiling {
            return None;
        }
        self.kept.forget_all_but(&[]);
        let groups = groups(&sizes, self.ceiling.saturating_sub(own));
        if own + sizes.iter().max().copied().unwrap_or(0) > self.ceiling {
            self.progress.note(&format!(
                "unit {number} needs {:.1} GB at the least with the largest unit it reads, past the {:.1} GB asked for",
                (own + sizes.iter().max().copied().unwrap_or(0)) as f64 / 1e9,
                self.ceiling as f64 / 1e9
            ));
        }
        (groups.len() > 1).then_some(groups)
    }

    /// Solves unit `number` reading the units it depends on in `groups`,
    /// one pass each, from the store, as `sharing` says.
    fn solve_in_passes(
        &self,
        number: usize,
        groups: &[Vec<usize>],
        sharing: Sharing,
    ) -> Result<Solution, UnitSolveError> {
        let unit = &self.units[number];
        let largest = groups.iter().map(|g| g.iter().map(|&at| self.units[unit.depends_on[at]].len).sum::<u64>());
        self.peak.fetch_max(unit.len + largest.max().unwrap_or(0), Relaxed);
        self.in_passes.fetch_add(1, Relaxed);
        let load = |d: usize| self.store.load(d, self.units[d].len).map(Arc::new);
        let two_bytes_wide = self.two_bytes_wide;
        solve_in_passes(self.game, self.units, number, (groups, load), two_bytes_wide, sharing, self.progress).map_err(
            |source| match source {
                SolveError::Earlier(error) => UnitSolveError::Store(error),
                source => UnitSolveError::Solve { unit: number, source },
            },
        )
    }

    /// Solves unit `number`, whose dependencies are all stored, with the
    /// other `ranks`, each its slice; rank 0 saves it. Every rank calls it
    /// for the same unit, and all return once it is saved.
    pub(super) fn solve_split(&self, number: usize, ranks: &dyn Ranks) -> Result<(), UnitSolveError> {
        let unit = &self.units[number];
        let dependencies = (unit.depends_on.iter())
            .map(|&d| self.store.load(d, self.units[d].len).map(Arc::new))
            .collect::<Result<Vec<_>, _>>();
        // A rank that cannot read them must not leave the others waiting.
        let dependencies = agreed(ranks, number, dependencies)?;
        let solved = solve_with_dependencies(
            self.game,
            self.units,
            number,
            &dependencies,
            self.two_bytes_wide,
            Solvers::Split(ranks),
            self.progress,
        );
        drop(dependencies);
        let saved = match solved.map_err(|source| UnitSolveError::Solve { unit: number, source })? {
            Some(values) => self.save(number, &values),
            None => Ok(()),
        };
        // No rank goes on (to a unit that reads this one, say) before the
        // unit is saved, or without knowing it was not.
        agreed(ranks, number, saved)?;
        self.solved.fetch_add(1, Relaxed);
        self.count_done(number);
        Ok(())
    }

    /// Stores the solved `values` of unit `number`, with their facts if the
    /// store keeps them.
    fn save(&self, number: usize, values: &Solution) -> Result<(), TableError> {
        let facts = if self.store.keeps_facts() {
            [longest(values), self.game.unit_facts(number, values)].concat()
        } else {
            Vec::new()
        };
        self.store.save(number, values, &facts)
    }

    /// Counts unit `number` done, with a stage line for every hundredth of
    /// the positions, for logs.
    fn count_done(&self, number: usize) {
        let done = self.done.fetch_add(self.units[number].len, Relaxed) + self.units[number].len;
        let hundredths = done * 100 / self.total;
        if self.reported.fetch_max(hundredths, Relaxed) < hundredths {
            self.progress.stage(&format!("unit {} of {}", number + 1, self.units.len()));
        }
    }
}

/// Working memory a part takes a slot while it is solved: its cell and
/// longest earlier win (a byte each), and its place among those expanded
/// and in the list of its distance (four bytes each) where the slot holds
/// a position. Measured: Dodgem 6×6's unit 3101 solved alone (its largest
/// parts of 120.9 and 50.4 million slots on the two threads) peaked 0.93 GB
/// above its cells and the units it reads, the process included.
const PART_BYTES_PER_SLOT: u64 = 6;

/// What solving `unit` of `len` positions takes beside its cells and the
/// units it reads: the working cells of the parts solved at once, one a
/// thread, or a second cell a position for a unit without parts.
pub(super) fn working_bytes<G: Units>(game: &G, unit: usize, len: u64) -> u64 {
    match game.parts(unit) {
        Some(parts) => {
            let mut slots = parts.slot_counts();
            slots.sort_unstable_by(|a, b| b.cmp(a));
            slots.iter().take(rayon::current_num_threads()).map(|&s| u64::from(s) * PART_BYTES_PER_SLOT).sum()
        }
        None => len,
    }
}

/// The places of `sizes` in groups of at most `room` each, one past it
/// alone: few groups, by first fit from the largest.
fn groups(sizes: &[u64], room: u64) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&at| std::cmp::Reverse(sizes[at]));
    let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
    for at in order {
        match groups.iter_mut().find(|(used, _)| used + sizes[at] <= room) {
            Some((used, group)) => {
                *used += sizes[at];
                group.push(at);
            }
            None => groups.push((sizes[at], vec![at])),
        }
    }
    groups.into_iter().map(|(_, mut group)| (group.sort_unstable(), group).1).collect()
}

/// The units of a segment, each waiting for those of the segment it reads.
struct Segment {
    numbers: Range<usize>,
    /// For each unit, how many units of the segment it reads are unsolved.
    waiting_for: Vec<AtomicUsize>,
    /// For each unit, the units of the segment that read it.
    readers: Vec<Vec<usize>>,
    /// Which units were stored before the segment started.
    stored: Vec<bool>,
    /// The failure of the lowest-numbered unit that failed.
    failed: Mutex<Option<(usize, UnitSolveError)>>,
    any_failed: AtomicBool,
}

impl Segment {
    fn new(units: &[Unit], numbers: Range<usize>, stored: &[bool]) -> Segment {
        let mut readers = vec![Vec::new(); numbers.len()];
        let waiting_for = numbers
            .clone()
            .map(|number| {
                let mut waiting = 0;
                // A stored unit waits for nothing and is started by nothing.
                if !stored[number - numbers.start] {
                    for &d in units[number].depends_on.iter().filter(|&&d| d >= numbers.start) {
                        readers[d - numbers.start].push(number);
                        waiting += usize::from(!stored[d - numbers.start]);
                    }
                }
                AtomicUsize::new(waiting)
            })
            .collect();
        Segment {
            numbers,
            waiting_for,
            readers,
            stored: stored.to_vec(),
            failed: Mutex::new(None),
            any_failed: AtomicBool::new(false),
        }
    }

    /// The unsolved units that wait for none, read at once: a unit solved
    /// meanwhile brings its readers' counts to 0 and starts them itself,
    /// and a look taken after that would start them a second time.
    fn ready_at_start(&self) -> Vec<usize> {
        self.numbers
            .clone()
            .filter(|&number| {
                let at = number - self.numbers.start;
                !self.stored[at] && self.waiting_for[at].load(Relaxed) == 0
            })
            .collect()
    }

    /// Notes that `number` is solved; gives the units that waited only for it.
    fn readers_ready_after(&self, number: usize) -> impl Iterator<Item = usize> + '_ {
        self.readers[number - self.numbers.start]
            .iter()
            .copied()
            .filter(|&reader| self.waiting_for[reader - self.numbers.start].fetch_sub(1, AcqRel) == 1)
    }

    fn has_failed(&self) -> bool {
        self.any_failed.load(Relaxed)
    }

    fn fail(&self, number: usize, error: UnitSolveError) {
        let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
        if failed.as_ref().is_none_or(|(first, _)| number < *first) {
            *failed = Some((number, error));
        }
        self.any_failed.store(true, Relaxed);
    }

    fn into_result(self) -> Result<(), UnitSolveError> {
        match self.failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some((_, error)) => Err(error),
            None => Ok(()),
        }
    }
}

/// Solved units kept in memory for the units still to come that read
/// them, within a budget; each is dropped once every unit that reads it is
/// solved.
struct Kept {
    budget: u64,
    /// For each unit, the last unit that reads it.
    last_reader: Vec<usize>,
    state: Mutex<KeptState>,
}

struct KeptState {
    bytes: u64,
    /// For each unit, how many units that read it are not solved yet.
    readers_left: Vec<usize>,
    values: Vec<Option<Arc<Solution>>>,
}

impl Kept {
    fn new(budget: u64, units: &[Unit]) -> Kept {
        let mut last_reader = vec![0; units.len()];
        let mut readers_left = vec![0; units.len()];
        for (number, unit) in units.iter().enumerate() {
            for &d in &unit.depends_on {
                last_reader[d] = last_reader[d].max(number);
                readers_left[d] += 1;
            }
        }
        let state = KeptState { bytes: 0, readers_left, values: vec![None; units.len()] };
        Kept { budget, last_reader, state: Mutex::new(state) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, KeptState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// The values of `unit`, if kept.
    fn get(&self, unit: usize) -> Option<Arc<Solution>> {
        self.lock().values[unit].clone()
    }

    /// Notes that `unit`, which reads `depends_on`, is solved: drops the
    /// units no unsolved unit reads any more, and keeps its `values` if an
    /// unsolved unit reads them and the budget allows.
    fn solved(&self, unit: usize, depends_on: &[usize], values: Option<Arc<Solution>>) {
        let mut state = self.lock();
        for &d in depends_on {
            state.readers_left[d] -= 1;
            if state.readers_left[d] == 0 {
                state.forget(d);
            }
        }
        if let Some(values) = values {
            let len = values.size_in_bytes();
            if state.readers_left[unit] > 0 && state.bytes + len <= self.budget {
                state.bytes += len;
                state.values[unit] = Some(values);
            }
        }
    }

    /// Drops every kept unit but those of `keep`.
    fn forget_all_but(&self, keep: &[usize]) {
        let mut state = self.lock();
        for unit in 0..state.values.len() {
            if !keep.contains(&unit) {
                state.forget(unit);
            }
        }
    }

    /// Drops the units whose readers all come before `first`: a caller that
    /// solves only some units (a worker of a solve over MPI) never sees
    /// the others solved, but solves no unit before `first` any more.
    fn forget_read_only_before(&self, first: usize) {
        let mut state = self.lock();
        for unit in 0..state.values.len() {
            if self.last_reader[unit] < first {
                state.forget(unit);
            }
        }
    }
}

impl KeptState {
    fn forget(&mut self, unit: usize) {
        if let Some(values) = self.values[unit].take() {
            self.bytes -= values.size_in_bytes();
        }
    }
}

/// `outcome` on this rank, once every one of `ranks` has reached the same
/// point: an error on all if any failed (one that stops the others'
/// part of unit `number` where another rank failed).
pub(super) fn agreed<T>(ranks: &dyn Ranks, number: usize, outcome: Result<T, TableError>) -> Result<T, UnitSolveError> {
    let failed = ranks.max(&[u64::from(outcome.is_err())])[0] == 1;
    let value = outcome?;
    match failed {
        true => Err(UnitSolveError::Solve { unit: number, source: SolveError::Interrupted(Interrupted) }),
        false => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_unit_is_timed_with_those_up_to_twice_its_size() {
        assert_eq!(size_class(1), SMALL_UNIT);
        assert_eq!(size_class(SMALL_UNIT - 1), SMALL_UNIT);
        assert_eq!(size_class(SMALL_UNIT), 2 * SMALL_UNIT);
        assert_eq!(size_class(2 * SMALL_UNIT - 1), 2 * SMALL_UNIT);
        assert_eq!(size_class(3_000_000_000), 1 << 32);
    }

    #[test]
    fn a_segment_starts_each_unsolved_unit_once_what_it_reads_is_solved() {
        let unit = |depends_on: &[usize]| Unit { len: 10, depends_on: depends_on.to_vec() };
        // Unit 5 reads 3, which is stored, and 4, which is not; unit 3 is
        // stored although it reads 2, which is not (a store written by hand).
        let units = [unit(&[]), unit(&[0]), unit(&[0]), unit(&[2]), unit(&[1]), unit(&[3, 4])];
        let segment = Segment::new(&units, 1..6, &[false, false, true, false, false]);
        assert_eq!(segment.ready_at_start(), [1, 2]);
        assert_eq!(segment.readers_ready_after(2).count(), 0, "unit 3 is stored");
        assert_eq!(segment.readers_ready_after(1).collect::<Vec<_>>(), [4]);
        assert_eq!(segment.readers_ready_after(4).collect::<Vec<_>>(), [5]);
    }

    /// The units ready at the start are those of the start, taken before
    /// any unit is solved: a reader a solved unit starts is not among them
    /// (a look taken late started it twice, and a unit solved twice
    /// counted its readers down past zero, in a CI run on two cores).
    #[test]
    fn a_unit_a_solved_unit_starts_is_not_also_ready_at_the_start() {
        let unit = |depends_on: &[usize]| Unit { len: 10, depends_on: depends_on.to_vec() };
        let units = [unit(&[]), unit(&[]), unit(&[0])];
        let segment = Segment::new(&units, 0..3, &[false, false, false]);
        let ready = segment.ready_at_start();
        // Unit 0 is solved on one thread while the other looks at the start.
        assert_eq!(segment.readers_ready_after(0).collect::<Vec<_>>(), [2]);
        assert_eq!(ready, [0, 1], "unit 2 is started by unit 0 alone");
    }
}
