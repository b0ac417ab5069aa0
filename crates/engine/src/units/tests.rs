use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::schedule::SMALL_UNIT;
use super::*;
use crate::game::{DenseIndex, Expansion, Rules, UnitParts};
use crate::naive::solve_naive;
use crate::progress::Silent;
use crate::table::TableKey;
use crate::value::{Plies, Value};

/// A toy with cycles inside units: a heap `h` and a phase `p`; the mover
/// at a heap below `stride` has lost, and the heap shrinks by one or two
/// strides from some phases. Unit `h` is heap `h`.
struct Toy {
    heaps: u64,
    phases: u64,
    /// By how much a heap shrinks: past 1, units `stride` apart read each
    /// other and the ones between are independent.
    stride: u64,
    /// Whether phases follow each other in one long line, which makes
    /// games longer than one byte can count, rather than turn in a cycle.
    long: bool,
    /// Whether a unit is offered as one part (see [`ToyPart`]).
    parted: bool,
}

impl Toy {
    /// The phases of a heap's line (in a long toy).
    fn line(&self) -> u64 {
        self.phases - 2
    }

    fn moves(&self, (h, p): (u64, u64), mut f: impl FnMut((u64, u64))) {
        if self.long {
            // Two phases past the line turn in a cycle of their own (draws).
            if p >= self.line() {
                f((h, 2 * self.line() + 1 - p));
                return;
            }
            // Along the line, the last phase dropping to the next heap, and
            // skipping a phase now and then (a choice of who moves last).
            if p + 1 < self.line() {
                f((h, p + 1));
            } else {
                f((h - self.stride, 0));
            }
            if p % 16 == 5 && p + 2 < self.line() {
                f((h, p + 2));
            }
            return;
        }
        f((h, (p + 1) % self.phases));
        if p % 2 == 1 {
            f((h, (2 * p + 1) % self.phases));
        }
        if p % 3 == 0 {
            f((h - self.stride, (p + h) % self.phases));
        }
        if p % 5 == 0 && h >= 2 * self.stride {
            f((h - 2 * self.stride, p));
        }
    }
}

impl Rules for Toy {
    type Position = (u64, u64);

    fn terminal_value(&self, pos: &(u64, u64)) -> Option<Value> {
        (pos.0 < self.stride).then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, pos: &(u64, u64), f: impl FnMut((u64, u64))) {
        if pos.0 >= self.stride {
            self.moves(*pos, f);
        }
    }
}

impl DenseIndex for Toy {
    fn position_count(&self) -> u64 {
        self.heaps * self.phases
    }

    fn index(&self, pos: &(u64, u64)) -> u64 {
        pos.0 * self.phases + pos.1
    }

    fn unindex(&self, idx: u64) -> (u64, u64) {
        (idx / self.phases, idx % self.phases)
    }
}

impl Units for Toy {
    fn units(&self) -> Vec<Unit> {
        (0..self.heaps)
            .map(|h| {
                let depends_on = [2, 1].iter().filter_map(|k| h.checked_sub(k * self.stride)).map(|d| d as usize);
                Unit { len: self.phases, depends_on: depends_on.collect() }
            })
            .collect()
    }

    fn locate(&self, pos: &(u64, u64)) -> (usize, u64) {
        (pos.0 as usize, pos.1)
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> (u64, u64) {
        (unit as u64, idx)
    }

    fn max_in_unit_moves(&self) -> u8 {
        // A bound, not the most there are: the long toy claims more, which
        // takes counter codes from its byte and brings the byte's longest
        // distance (123) below that of its unit 2.
        if self.long { 6 } else { 2 }
    }

    fn expand(&self, unit: usize, pos: &(u64, u64), mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        if let Some(value) = self.terminal_value(pos) {
            return Expansion::Terminal(value);
        }
        let mut in_unit = 0;
        self.moves(*pos, |child| {
            if child.0 as usize == unit {
                in_unit += 1;
            } else {
                earlier_child(child.0 as usize, child.1);
            }
        });
        Expansion::Moves { in_unit }
    }

    fn for_each_parent(&self, unit: usize, pos: &(u64, u64), mut f: impl FnMut(u64, (u64, u64))) {
        if (unit as u64) < self.stride {
            return;
        }
        for p in 0..self.phases {
            self.moves((pos.0, p), |child| {
                if child == *pos {
                    f(p, (pos.0, p));
                }
            });
        }
    }

    fn parts(&self, unit: usize) -> Option<impl UnitParts + '_> {
        self.parted.then_some(ToyPart { toy: self, unit })
    }
}

/// A toy's unit as one part, phase `p` in slot `2p + 1`: the even slots
/// hold no position.
struct ToyPart<'a> {
    toy: &'a Toy,
    unit: usize,
}

impl UnitParts for ToyPart<'_> {
    fn slot_counts(&self) -> Vec<u32> {
        vec![2 * self.toy.phases as u32]
    }

    fn expand(&self, _: usize, first_number: impl Fn(usize) -> u64, mut f: impl FnMut(u32, u64, Expansion, &[u64])) {
        let mut children = Vec::new();
        for p in 0..self.toy.phases {
            children.clear();
            let expansion =
                self.toy.expand(self.unit, &(self.unit as u64, p), |to, at| children.push(first_number(to) + at));
            f(2 * p as u32 + 1, p, expansion, &children);
        }
    }

    fn for_each_parent(&self, _: usize, slot: u32, mut f: impl FnMut(u32)) {
        let pos = (self.unit as u64, u64::from(slot / 2));
        self.toy.for_each_parent(self.unit, &pos, |p, _| f(2 * p as u32 + 1));
    }
}

fn toy() -> Toy {
    Toy { heaps: 40, phases: 3000, stride: 1, long: false, parted: false }
}

/// Games of up to 310 plies: the first units fit a byte, the next
/// overflow the solver's byte but not the stored one, the last need two.
fn long_toy() -> Toy {
    Toy { heaps: 6, phases: 64, stride: 1, long: true, parted: false }
}

fn key() -> TableKey {
    TableKey { game: "toy".into(), variant: "v".into(), size: "40".into(), index_version: 1, positions: 0 }
}

fn every_value(units: &[Solution]) -> Vec<Value> {
    units.iter().flat_map(|u| (0..u.len()).map(|i| u.value(i))).collect()
}

#[test]
fn units_give_the_naive_values_and_distances() {
    let game = toy();
    let store = UnitsInMemory::new(&[3000; 40]);
    // A budget of nothing: every dependency is copied out of the store.
    let report = UnitSolver::new(0).solve(&game, &store, &Silent).unwrap();
    assert_eq!(report.solved, 40);
    let naive = solve_naive(&game);
    let values = every_value(&[store.into_solution()]);
    assert_eq!(values, naive);
    let draws = values.iter().filter(|v| **v == Value::Draw).count();
    let longest = values.iter().filter_map(|v| v.plies()).max().unwrap();
    assert!(draws > 0 && draws < values.len() && longest.0 >= 5, "{draws} draws, longest {longest:?}");
}

/// The same units solved in one table, as a game of tiers is, give the
/// same values: the two ways of solving share one trait.
#[test]
fn units_solved_in_one_table_give_the_naive_values() {
    let game = toy();
    let whole = crate::retrograde::solve(&game, &Silent).unwrap();
    assert_eq!(every_value(&[whole]), solve_naive(&game));
    // A game whose unit moves into one it does not depend on is refused.
    let stray = std::panic::catch_unwind(|| crate::retrograde::solve(&Undeclared(toy()), &Silent));
    assert!(stray.is_err());
}

/// A toy whose units claim no dependencies.
struct Undeclared(Toy);

impl Rules for Undeclared {
    type Position = (u64, u64);

    fn terminal_value(&self, pos: &(u64, u64)) -> Option<Value> {
        self.0.terminal_value(pos)
    }

    fn for_each_child(&self, pos: &(u64, u64), f: impl FnMut((u64, u64))) {
        self.0.for_each_child(pos, f);
    }
}

impl DenseIndex for Undeclared {
    fn position_count(&self) -> u64 {
        self.0.position_count()
    }

    fn index(&self, pos: &(u64, u64)) -> u64 {
        self.0.index(pos)
    }

    fn unindex(&self, idx: u64) -> (u64, u64) {
        self.0.unindex(idx)
    }
}

impl Units for Undeclared {
    fn units(&self) -> Vec<Unit> {
        self.0.units().into_iter().map(|unit| Unit { depends_on: Vec::new(), ..unit }).collect()
    }

    fn locate(&self, pos: &(u64, u64)) -> (usize, u64) {
        self.0.locate(pos)
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> (u64, u64) {
        self.0.unindex_in_unit(unit, idx)
    }

    fn max_in_unit_moves(&self) -> u8 {
        self.0.max_in_unit_moves()
    }

    fn expand(&self, unit: usize, pos: &(u64, u64), earlier_child: impl FnMut(usize, u64)) -> Expansion {
        self.0.expand(unit, pos, earlier_child)
    }

    fn for_each_parent(&self, unit: usize, pos: &(u64, u64), f: impl FnMut(u64, (u64, u64))) {
        self.0.for_each_parent(unit, pos, f);
    }
}

/// Solved part by part, units give the values of the naive solver, and
/// so do units whose distances need two bytes.
#[test]
fn units_solved_by_parts_give_the_naive_values() {
    for toy in [toy(), long_toy()] {
        let game = Toy { parted: true, ..toy };
        let lens = vec![game.phases; game.heaps as usize];
        let dir = tempfile::tempdir().unwrap();
        let files = UnitFiles::new(dir.path(), key(), lens.clone());
        UnitSolver::new(0).solve(&game, &files, &Silent).unwrap();
        let loaded: Vec<Solution> = (0..lens.len()).map(|u| files.load(u, game.phases).unwrap()).collect();
        assert_eq!(every_value(&loaded), solve_naive(&game), "long: {}", game.long);
    }
}

/// The files this process has open.
fn open_files() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Units read from files every one of which is probed, again and again,
/// give the values solved while holding few files open: the files held do
/// not grow with the number of units (where many systems allow a process
/// 1,024 open files, and 6×6 has 3,321 units).
#[test]
fn units_probed_from_files_hold_a_bounded_number_open() {
    let game = Toy { heaps: 4 * OPEN_FILES as u64, phases: 40, stride: 1, long: false, parted: false };
    let lens = vec![game.phases; game.heaps as usize];
    let dir = tempfile::tempdir().unwrap();
    let files = UnitFiles::new(dir.path(), key(), lens);
    UnitSolver::new(0).solve(&game, &files, &Silent).unwrap();
    let naive = solve_naive(&game);
    let before = open_files();
    let units = files.open_all().unwrap();
    assert_eq!(units.len(), game.heaps as usize);
    for _ in 0..2 {
        for (idx, expected) in naive.iter().enumerate() {
            let (unit, at) = game.locate(&game.unindex(idx as u64));
            assert_eq!(units.value(unit, at).unwrap(), *expected, "position {idx}");
        }
    }
    // Other tests open files meanwhile: a margin, far below the units.
    let held = open_files().saturating_sub(before);
    assert!(held <= OPEN_FILES + 32, "{held} files held open for {} units", units.len());
}

#[test]
fn small_units_solve_each_once_its_dependencies_are_and_resume() {
    let game = Toy { heaps: 40, phases: 3000, stride: 3, long: false, parted: false };
    let naive = solve_naive(&game);
    let store = UnitsInMemory::new(&[3000; 40]);
    // Units 3 apart read each other: three at a time can be solved at once.
    let report = UnitSolver::new(0).solve(&game, &store, &Silent).unwrap();
    assert_eq!(report.solved, 40);
    assert_eq!(every_value(&[store.into_solution()]), naive);
    // Stopped halfway, a solve leaves the units it finished, in whatever
    // order they were; the next one solves the others.
    let again = UnitsInMemory::new(&[3000; 40]);
    let stop = StopAfter { after: 2 * 3000 * 17 + 100, seen: AtomicU64::new(0) };
    let error = UnitSolver::new(0).solve(&game, &again, &stop).unwrap_err();
    assert!(matches!(error, UnitSolveError::Solve { source: SolveError::Interrupted(_), .. }), "{error}");
    let stored = (0..40).filter(|&u| again.has(u).unwrap()).count();
    assert!((1..40).contains(&stored), "{stored} units stored");
    let report = UnitSolver::new(0).solve(&game, &again, &Silent).unwrap();
    assert_eq!((report.resumed, report.solved), (stored, 40 - stored));
    // Timed by size, the units solved now are one class of small ones.
    let [small] = &report.by_size[..] else { panic!("{:?}", report.by_size) };
    assert_eq!((small.below, small.units, small.positions), (SMALL_UNIT, 40 - stored, 3000 * (40 - stored) as u64));
    assert_eq!(every_value(&[again.into_solution()]), naive);
}

#[test]
fn a_segment_runs_to_the_next_large_unit_and_a_large_unit_is_alone() {
    let unit = |len, depends_on: &[usize]| Unit { len, depends_on: depends_on.to_vec() };
    let units = [unit(10, &[]), unit(10, &[0]), unit(SMALL_UNIT, &[1]), unit(SMALL_UNIT - 1, &[2]), unit(10, &[])];
    assert_eq!(schedule::segment_from(&units, 0), 0..2);
    assert_eq!(schedule::segment_from(&units, 1), 1..2);
    assert_eq!(schedule::segment_from(&units, 2), 2..3);
    assert_eq!(schedule::segment_from(&units, 3), 3..5);
}

/// Stops the solve once it has seen `after` units of progress.
struct StopAfter {
    after: u64,
    seen: AtomicU64,
}

impl Progress for StopAfter {
    fn advance(&self, units: u64) {
        self.seen.fetch_add(units, Relaxed);
    }

    fn should_stop(&self) -> bool {
        self.seen.load(Relaxed) >= self.after
    }
}

#[test]
fn an_interrupted_solve_on_disk_resumes_to_the_same_files_within_its_budget() {
    let game = toy();
    let lens = vec![3000; 40];
    let whole = tempfile::tempdir().unwrap();
    let files = UnitFiles::new(whole.path(), key(), lens.clone());
    // A budget of two units: what is not kept is read back from disk.
    UnitSolver::new(6000).solve(&game, &files, &Silent).unwrap();
    let resumed = tempfile::tempdir().unwrap();
    let again = UnitFiles::new(resumed.path(), key(), lens.clone());
    let stop = StopAfter { after: 2 * 3000 * 17 + 100, seen: AtomicU64::new(0) };
    let error = UnitSolver::new(0).solve(&game, &again, &stop).unwrap_err();
    assert!(matches!(error, UnitSolveError::Solve { unit: 17, .. }), "{error}");
    let report = UnitSolver::new(0).solve(&game, &again, &Silent).unwrap();
    assert_eq!((report.resumed, report.solved), (17, 23));
    for unit in 0..40 {
        let (a, b) = (std::fs::read(files.path(unit)).unwrap(), std::fs::read(again.path(unit)).unwrap());
        assert!(a == b, "unit {unit} differs");
    }
    let loaded: Vec<Solution> = (0..40).map(|u| again.load(u, 3000).unwrap()).collect();
    assert_eq!(every_value(&loaded), solve_naive(&game));
    let table = again.open(5).unwrap();
    assert_eq!(table.value(7).unwrap(), solve_naive(&game)[5 * 3000 + 7]);
    // Each unit's header keeps its longest win and loss.
    let unit = &every_value(&loaded[5..6]);
    let longest = |win: bool| {
        unit.iter().filter(|v| matches!(v, Value::Win(_)) == win && **v != Value::Draw).filter_map(|v| v.plies()).max()
    };
    assert_eq!(table.header().fact(LONGEST_WIN), longest(true).map(|p| u64::from(p.0)));
    assert_eq!(table.header().fact(LONGEST_LOSS), longest(false).map(|p| u64::from(p.0)));
    assert!((0..40).any(|u| again.open(u).unwrap().header().fact(LONGEST_WIN).is_some()));
    // A unit file under another unit's name is refused.
    std::fs::copy(again.path(3), again.path(4)).unwrap();
    assert!(again.load(4, 3000).is_err());
}

#[test]
fn units_too_long_for_a_byte_are_solved_and_stored_two_bytes_wide() {
    let game = long_toy();
    let naive = solve_naive(&game);
    let longest = naive.iter().filter_map(|v| v.plies()).max().unwrap();
    assert!(longest.0 > 300, "longest {longest:?}");
    assert!(naive.contains(&Value::Draw));
    let lens = vec![game.phases; game.heaps as usize];
    let dir = tempfile::tempdir().unwrap();
    let files = UnitFiles::new(dir.path(), key(), lens.clone());
    UnitSolver::new(0).solve(&game, &files, &Silent).unwrap();
    let loaded: Vec<Solution> = (0..lens.len()).map(|u| files.load(u, game.phases).unwrap()).collect();
    assert_eq!(every_value(&loaded), naive);
    // Units stay a byte wide while their values fit one.
    let widths: Vec<bool> = (0..lens.len()).map(|u| matches!(files.open(u).unwrap(), UnitTable::Wide(_))).collect();
    assert_eq!(widths, [false, false, false, true, true, true]);
    let longest_in = |unit: usize| (0..game.phases).filter_map(|i| loaded[unit].value(i).plies()).max().unwrap();
    assert!(longest_in(2).0 > 123 && longest_in(2).0 <= 126, "unit 2 reaches {:?}", longest_in(2));
    // Probes read the wide files too, and their headers keep the facts.
    let table = files.open(4).unwrap();
    assert_eq!(table.value(33).unwrap(), naive[4 * 64 + 33]);
    let wins = (0..game.phases).filter_map(|i| match loaded[4].value(i) {
        Value::Win(d) => Some(u64::from(d.0)),
        _ => None,
    });
    assert_eq!(table.header().fact(LONGEST_WIN), wins.max());
    // Stopped in a wide unit and resumed on one thread, with every unit
    // kept: byte for byte the same.
    let again = tempfile::tempdir().unwrap();
    let other = UnitFiles::new(again.path(), key(), lens.clone());
    let stop = StopAfter { after: 2 * 64 * 4 + 10, seen: AtomicU64::new(0) };
    let error = UnitSolver::new(0).solve(&game, &other, &stop).unwrap_err();
    assert!(matches!(error, UnitSolveError::Solve { unit: 3 | 4, .. }), "{error}");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let report = pool.install(|| UnitSolver::new(u64::MAX).solve(&game, &other, &Silent)).unwrap();
    assert!(report.resumed >= 3, "{report:?}");
    for unit in 0..lens.len() {
        assert!(std::fs::read(files.path(unit)).unwrap() == std::fs::read(other.path(unit)).unwrap(), "unit {unit}");
    }
}

/// Counts the work reported.
#[derive(Default)]
struct Counted(AtomicU64);

impl Progress for Counted {
    fn advance(&self, units: u64) {
        self.0.fetch_add(units, Relaxed);
    }
}

#[test]
fn a_unit_solved_twice_counts_its_positions_once() {
    // Each position is counted once when seeded and once when its value
    // is propagated or it is found a draw, whichever way it is solved.
    let game = long_toy();
    for solver in [UnitSolver::new(0), UnitSolver::new(0).two_bytes_wide()] {
        let dir = tempfile::tempdir().unwrap();
        let counted = Counted::default();
        solver.solve(&game, &UnitFiles::new(dir.path(), key(), vec![game.phases; 6]), &counted).unwrap();
        assert_eq!(counted.0.into_inner(), 2 * game.position_count());
    }
}

#[test]
fn a_table_in_memory_refuses_a_unit_too_long_for_a_byte() {
    let game = long_toy();
    let store = UnitsInMemory::new(&[game.phases; 6]);
    let error = UnitSolver::new(0).solve(&game, &store, &Silent).unwrap_err();
    assert!(matches!(error, UnitSolveError::Store(TableError::Write { .. })), "{error}");
    assert!(format!("{:#}", anyhow_like(&error)).contains("126 plies"), "{}", anyhow_like(&error));
}

/// An error and its causes on one line, as the CLI prints them.
fn anyhow_like(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        line += &format!(": {cause}");
        source = cause.source();
    }
    line
}

/// A game for walks forward: like [`Toy`], but with moves inside a heap
/// that reach only some of its phases, so that much of it is never reached.
struct Walker {
    heaps: u64,
    phases: u64,
}

impl Rules for Walker {
    type Position = (u64, u64);

    fn terminal_value(&self, pos: &(u64, u64)) -> Option<Value> {
        (pos.0 == 0 || pos.1 == 1).then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, &(h, p): &(u64, u64), mut f: impl FnMut((u64, u64))) {
        f((h, (p * p + 1) % self.phases));
        if p % 7 == 0 {
            f((h, (p + 3) % self.phases));
        }
        if p % 6 == 0 {
            f((h - 1, (3 * p + 1) % self.phases));
        }
        if p % 10 == 0 && h >= 2 {
            f((h - 2, p / 2));
        }
    }
}

impl DenseIndex for Walker {
    fn position_count(&self) -> u64 {
        self.heaps * self.phases
    }

    fn index(&self, pos: &(u64, u64)) -> u64 {
        pos.0 * self.phases + pos.1
    }

    fn unindex(&self, idx: u64) -> (u64, u64) {
        (idx / self.phases, idx % self.phases)
    }
}

impl ForwardUnits for Walker {
    fn units(&self) -> Vec<Unit> {
        (0..self.heaps)
            .map(|h| Unit { len: self.phases, depends_on: (h.saturating_sub(2)..h).map(|d| d as usize).collect() })
            .collect()
    }

    fn locate(&self, pos: &(u64, u64)) -> (usize, u64) {
        (pos.0 as usize, pos.1)
    }

    fn for_each_in_unit(&self, unit: usize, range: std::ops::Range<u64>, mut f: impl FnMut(u64, (u64, u64))) {
        for p in range {
            f(p, (unit as u64, p));
        }
    }
}

/// Walks `game` from its start, a unit at a time, returning every position
/// reached (by index) and the counts: positions, and the sum of their units.
fn walk(
    game: &Walker,
    checkpoint: Option<&ReachCheckpoint>,
    progress: &dyn Progress,
) -> (Vec<u64>, Result<Vec<u64>, ReachError>) {
    let mut found = Vec::new();
    let counts = reach_by_units(game, &(game.heaps - 1, 5), 2, checkpoint, progress, |unit, set| {
        found.extend(set.par_fold(
            Vec::new,
            |mut v, i| {
                v.push(unit as u64 * game.phases + i);
                v
            },
            |a, b| [a, b].concat(),
        ));
        Ok(vec![set.len(), unit as u64 * set.len()])
    });
    found.sort_unstable();
    (found, counts)
}

#[test]
fn a_walk_by_units_reaches_what_a_walk_over_one_set_does() {
    let game = Walker { heaps: 30, phases: 4099 };
    let truth = crate::reachable::reachable(&game, &(29, 5), &Silent).unwrap();
    let (found, counts) = walk(&game, None, &Silent);
    let expected: Vec<u64> = (0..game.position_count()).filter(|&i| truth.contains(i)).collect();
    // About half of it.
    assert!(expected.len() > 1000 && (expected.len() as u64) < game.position_count() * 6 / 10, "{}", expected.len());
    assert_eq!(found, expected);
    let by_unit: u64 = expected.iter().map(|i| i / game.phases).sum();
    assert_eq!(counts.unwrap(), [expected.len() as u64, by_unit]);
}

#[test]
fn an_interrupted_walk_by_units_resumes_from_its_checkpoint() {
    let game = Walker { heaps: 30, phases: 4099 };
    let whole = walk(&game, None, &Silent).1.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = ReachCheckpoint {
        file: crate::table::Checkpoint::new(dir.path().join("walk"), key()),
        every: std::time::Duration::ZERO,
    };
    // Stopped in unit 29 - 11, after eleven whole units.
    let stop = StopAfter { after: 4099 * 11, seen: AtomicU64::new(0) };
    let (_, stopped) = walk(&game, Some(&checkpoint), &stop);
    assert!(matches!(stopped, Err(ReachError::Interrupted(_))), "{stopped:?}");
    // A walk under way has no counts to read yet.
    assert_eq!(finished_walk(&game.units(), 2, &checkpoint.file).unwrap(), None);
    let (found, resumed) = walk(&game, Some(&checkpoint), &Silent);
    assert_eq!(resumed.unwrap(), whole);
    // The units walked before are not walked again; the one stopped in is.
    assert_eq!(found.iter().map(|&i| i / game.phases).max(), Some(29 - 11));
    // Finished, the checkpoint keeps the counts: nothing is walked again.
    let (found, again) = walk(&game, Some(&checkpoint), &Silent);
    assert!(found.is_empty());
    assert_eq!(again.unwrap(), whole);
    assert_eq!(finished_walk(&game.units(), 2, &checkpoint.file).unwrap(), Some(whole.clone()));
    // A checkpoint of other units is refused, not overwritten.
    let other = Walker { heaps: 31, phases: 4099 };
    let refused = reach_by_units(&other, &(30, 5), 2, Some(&checkpoint), &Silent, |_, _| Ok(vec![0, 0]));
    assert!(matches!(refused, Err(ReachError::Store(_))), "{refused:?}");
}

/// The toy seen position by position, as walks and audits see a game;
/// with `false`, its units list no units they read.
struct Forward<'a>(&'a Toy, bool);

impl Rules for Forward<'_> {
    type Position = (u64, u64);

    fn terminal_value(&self, pos: &(u64, u64)) -> Option<Value> {
        self.0.terminal_value(pos)
    }

    fn for_each_child(&self, pos: &(u64, u64), f: impl FnMut((u64, u64))) {
        self.0.for_each_child(pos, f);
    }
}

impl ForwardUnits for Forward<'_> {
    fn units(&self) -> Vec<Unit> {
        let mut units = Units::units(self.0);
        if !self.1 {
            units.iter_mut().for_each(|u| u.depends_on.clear());
        }
        units
    }

    fn locate(&self, pos: &(u64, u64)) -> (usize, u64) {
        Units::locate(self.0, pos)
    }

    fn for_each_in_unit(&self, unit: usize, range: std::ops::Range<u64>, f: impl FnMut(u64, (u64, u64))) {
        Units::for_each_in_unit(self.0, unit, range, f);
    }
}

/// The naive values counted by distance.
fn naive_distances(values: &[Value]) -> crate::Distances {
    let mut counter = crate::DistanceCounter::default();
    values.iter().for_each(|&v| counter.add(v, 1));
    counter.finish()
}

/// Games past 300 plies, solved onto disk two bytes wide where they must
/// be, read back every way a solve's values are read: each position
/// probed from its file, a walk forward counting values, and the full
/// audit, all against the naive solver.
#[test]
fn units_past_300_plies_agree_with_the_naive_solver_by_probe_walk_and_audit() {
    let game = long_toy();
    let naive = solve_naive(&game);
    assert!(naive.iter().filter_map(|v| v.plies()).max().unwrap().0 > 300);
    let lens = vec![game.phases; game.heaps as usize];
    let dir = tempfile::tempdir().unwrap();
    let files = UnitFiles::new(dir.path(), key(), lens.clone());
    UnitSolver::new(0).solve(&game, &files, &Silent).unwrap();
    let open = files.open_all().unwrap();
    for idx in 0..game.position_count() {
        let (unit, at) = Units::locate(&game, &game.unindex(idx));
        assert_eq!(open.value(unit, at).unwrap(), naive[idx as usize], "position {idx}");
    }
    // The walk's counts of wins from the start, against a walk over one set.
    let start = (game.heaps - 1, 0);
    let truth = crate::reachable::reachable(&game, &start, &Silent).unwrap();
    let reached_wins =
        (0..game.position_count()).filter(|&i| truth.contains(i) && matches!(naive[i as usize], Value::Win(_)));
    let counted = reach_by_units(&Forward(&game, true), &start, 1, None, &Silent, |unit, set| {
        let values = files.load(unit, game.phases)?;
        Ok(vec![set.par_fold(|| 0, |n, i| n + u64::from(matches!(values.value(i), Value::Win(_))), |a, b| a + b)])
    })
    .unwrap();
    assert_eq!(counted, [reached_wins.count() as u64]);
    let report =
        audit_by_units(&Forward(&game, true), |u| files.load(u, game.phases), |n| n, None, 0, &Silent).unwrap();
    assert_eq!((report.checked, report.disagreements), (game.position_count(), 0));
    assert_eq!(report.distances, naive_distances(&naive));
}

#[test]
fn an_audit_by_units_finds_a_wrong_value_and_resumes_from_its_record() {
    let game = toy();
    let lens = vec![game.phases; game.heaps as usize];
    let dir = tempfile::tempdir().unwrap();
    let files = UnitFiles::new(dir.path(), key(), lens);
    UnitSolver::new(0).solve(&game, &files, &Silent).unwrap();
    let record = files.audit_record(std::time::Duration::ZERO);
    let load = |u: usize| files.load(u, game.phases);
    // Stopped after eleven units, resumed: the same result as in one go.
    let stop = StopAfter { after: 3000 * 11, seen: AtomicU64::new(0) };
    let stopped = audit_by_units(&Forward(&game, true), load, |n| n, Some(&record), 1 << 20, &stop);
    assert!(matches!(stopped, Err(UnitAuditError::Interrupted(_))), "{stopped:?}");
    assert_eq!(finished_audit(&Units::units(&game), &record.file, load, &Silent).unwrap(), None);
    // Carried to units whose values are not those audited, the record
    // vouches for nothing: it is refused, and stays as it was.
    let changed = |u: usize| {
        let mut values = load(u)?;
        if u == 3 {
            values.words_mut()[0] ^= 1;
        }
        Ok(values)
    };
    let refused = audit_by_units(&Forward(&game, true), changed, |n| n, Some(&record), 1 << 20, &Silent);
    let covers_other_values = |e: &TableError| matches!(e, TableError::Invalid { source: crate::table::FormatError::Content { reason }, .. } if reason.contains("other values"));
    assert!(matches!(&refused, Err(UnitAuditError::Store(e)) if covers_other_values(e)), "{refused:?}");
    let resumed = audit_by_units(&Forward(&game, true), load, |n| n, Some(&record), 1 << 20, &Silent).unwrap();
    let whole = audit_by_units(&Forward(&game, true), load, |n| n, None, 1 << 20, &Silent).unwrap();
    assert_eq!(resumed, whole);
    assert_eq!((whole.checked, whole.disagreements), (game.position_count(), 0));
    assert_eq!(whole.distances, naive_distances(&solve_naive(&game)));
    // Finished, the record keeps the result: nothing is audited again, the
    // units are only read to confirm they are the values audited.
    assert_eq!(finished_audit(&Units::units(&game), &record.file, load, &Silent).unwrap(), Some(whole.clone()));
    let loads = AtomicU64::new(0);
    let counting = |u: usize| {
        loads.fetch_add(1, Relaxed);
        load(u)
    };
    let again = audit_by_units(&Forward(&game, true), counting, |n| n, Some(&record), 1 << 20, &Silent).unwrap();
    assert_eq!((again, loads.load(Relaxed)), (whole.clone(), game.heaps));
    // One value made a draw where it is not: the audit names that position.
    let decided = |u: usize| (0..game.phases).rev().find(|&i| load(u).unwrap().value(i) != Value::Draw);
    let (unit, at) = (1..40).rev().find_map(|u| Some((u, decided(u)?))).unwrap();
    let wrong = |u: usize| {
        let mut values = files.load(u, game.phases)?;
        if u == unit {
            values.words_mut()[(at / 8) as usize] &= !(0xff << (8 * (at % 8)));
        }
        Ok(values)
    };
    let report = audit_by_units(&Forward(&game, true), wrong, |n| n, None, 0, &Silent).unwrap();
    assert!(report.disagreements >= 1, "{report:?}");
    assert!(report.examples.iter().any(|d| d.idx == unit as u64 * 3000 + at && d.stored == Value::Draw), "{report:?}");
    // A move into a unit its unit does not list is an error, not a pass.
    let unlisted = audit_by_units(&Forward(&game, false), load, |n| n, None, 0, &Silent);
    assert!(matches!(unlisted, Err(UnitAuditError::Unlisted { unit: 1, reached: 0 })), "{unlisted:?}");
}

/// Ranks that are threads of this process, for tests: what MPI's ranks
/// do, through a board each posts its words on.
struct ThreadRanks<'a> {
    rank: usize,
    board: &'a Board,
}

struct Board {
    barrier: std::sync::Barrier,
    /// `posted[to][from]`.
    posted: std::sync::Mutex<Vec<Vec<Vec<u64>>>>,
}

impl Board {
    fn new(ranks: usize) -> Board {
        Board {
            barrier: std::sync::Barrier::new(ranks),
            posted: std::sync::Mutex::new(vec![vec![Vec::new(); ranks]; ranks]),
        }
    }
}

impl Ranks for ThreadRanks<'_> {
    fn rank(&self) -> usize {
        self.rank
    }

    fn count(&self) -> usize {
        self.board.posted.lock().unwrap().len()
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        for (to, words) in outgoing.into_iter().enumerate() {
            self.board.posted.lock().unwrap()[to][self.rank] = words;
        }
        self.board.barrier.wait();
        let received = std::mem::take(&mut self.board.posted.lock().unwrap()[self.rank]);
        self.board.posted.lock().unwrap()[self.rank] = vec![Vec::new(); received.len()];
        self.board.barrier.wait();
        received.concat()
    }

    fn max(&self, words: &[u64]) -> Vec<u64> {
        let all = self.exchange(vec![words.to_vec(); self.count()]);
        (0..words.len()).map(|i| all.iter().skip(i).step_by(words.len()).copied().max().unwrap()).collect()
    }

    fn or_to_first(&self, words: Vec<u64>) -> Option<Vec<u64>> {
        let len = words.len();
        let mut outgoing = vec![Vec::new(); self.count()];
        outgoing[0] = words;
        let all = self.exchange(outgoing);
        (self.rank == 0).then(|| (0..len).map(|i| all.iter().skip(i).step_by(len).fold(0, |or, w| or | w)).collect())
    }
}

/// Every unit split over three ranks, each seeding its slice and telling
/// the parents it owns: the same files as one process writes, a byte and
/// two bytes wide (every rank widening when one overflows), whatever the
/// slices (some empty on the smaller units).
#[test]
fn units_split_over_three_ranks_are_the_bytes_one_process_writes() {
    let wide = Toy { heaps: 10, phases: 20_000, stride: 1, long: false, parted: false };
    for game in [toy(), wide, long_toy()] {
        let lens = vec![game.phases; game.heaps as usize];
        let dir = tempfile::tempdir().unwrap();
        let one = UnitFiles::new(dir.path().join("one"), key(), lens.clone());
        UnitSolver::new(0).solve(&game, &one, &Silent).unwrap();
        let split = UnitFiles::new(dir.path().join("split"), key(), lens.clone());
        let board = Board::new(3);
        std::thread::scope(|scope| {
            for rank in 0..3 {
                let (game, split, board) = (&game, &split, &board);
                scope.spawn(move || solve_split(game, split, &ThreadRanks { rank, board }, &Silent).unwrap());
            }
        });
        for unit in 0..lens.len() {
            let (a, b) = (std::fs::read(one.path(unit)).unwrap(), std::fs::read(split.path(unit)).unwrap());
            assert!(a == b, "{} phases: unit {unit}", game.phases);
        }
    }
}

/// Units that would pass the memory asked for read what they depend on a
/// group at a time, one pass over their positions each: the same files,
/// for units with and without parts, a byte wide and two.
#[test]
fn units_read_in_passes_are_the_bytes_of_units_read_at_once() {
    for toy in [toy(), long_toy()] {
        for parted in [false, true] {
            let game = Toy { parted, heaps: toy.heaps.min(12), ..toy };
            let lens = vec![game.phases; game.heaps as usize];
            let (at_once, in_passes) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            let at_once = UnitFiles::new(at_once.path(), key(), lens.clone());
            let in_passes = UnitFiles::new(in_passes.path(), key(), lens.clone());
            UnitSolver::new(0).solve(&game, &at_once, &Silent).unwrap();
            // Room for a unit, its working cells and one unit it reads.
            let room = 2 * game.phases + super::schedule::working_bytes(&game, 2, game.phases);
            let report = UnitSolver::new(u64::MAX).within(room).solve(&game, &in_passes, &Silent).unwrap();
            // Units 0 and 1 read one unit or none, the others two.
            assert_eq!(report.in_passes, lens.len() - 2);
            for unit in 0..lens.len() {
                let (a, b) = (std::fs::read(at_once.path(unit)).unwrap(), std::fs::read(in_passes.path(unit)).unwrap());
                assert!(a == b, "unit {unit}, long {}, parted {parted}", game.long);
            }
        }
    }
}
