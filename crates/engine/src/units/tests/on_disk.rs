//! A solve on disk: the files it holds open, the order of its units, its
//! resumption, and units that read their dependencies in passes.

use super::*;

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
