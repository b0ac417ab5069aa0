//! The values units are solved to: against the naive solver, in one table
//! and by parts, a byte wide and two.

use super::*;

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
