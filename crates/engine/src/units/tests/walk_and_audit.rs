//! Reading solved units back: walks forward from the start and audits
//! against the plain rules.

use super::*;

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
