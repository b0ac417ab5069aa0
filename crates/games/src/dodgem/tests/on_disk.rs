//! Tables and unit files on disk: built once, walked, counted, held to the
//! published figures and audited.

use solved_engine::{AuditReport, Units};

use super::*;

/// Keeps what a computation says for the person waiting.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl solved_engine::Progress for Notes {
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

#[test]
fn a_table_built_by_another_process_meanwhile_is_loaded_not_built_again() {
    use solved_engine::table::Packed;

    use crate::tables::{Provenance, Solvable, obtain};
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let game = game(3, Objective::Normal);
    let notes = Notes::default();
    // This thread plays the other process: it holds the lock and saves the
    // table while the obtain below waits.
    let lock = store.lock_for_building::<Packed>(&game.table_key(), || panic!("free")).unwrap();
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| obtain(&game, &store, &notes));
        while notes.0.lock().unwrap().is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let solution = game.solve_by_units(&Silent).unwrap();
        let facts = game.facts(&solution, &Silent).unwrap();
        store.save::<Packed>(&game.table_key(), &facts, &solution).unwrap();
        drop(lock);
        let (_, provenance) = waiting.join().unwrap().unwrap();
        assert_eq!(provenance, Provenance::Cached);
    });
    let notes = notes.0.into_inner().unwrap();
    assert!(notes[0].starts_with("waiting for another process"), "{notes:?}");
    assert!(notes[1].contains("which the other process built"), "{notes:?}");
}

#[test]
fn reachable_positions_walked_by_units_are_those_of_one_walk_over_the_board() {
    for game in all_games() {
        let values = solved(&game);
        let every = EveryPosition(&game);
        let truth = solved_engine::reachable(&every, &game.start(), &Silent).unwrap();
        let mut expected = solved_engine::Tally::default();
        (0..every.position_count()).filter(|&i| truth.contains(i)).for_each(|i| expected.add(values[i as usize]));
        let dir = tempfile::tempdir().unwrap();
        let files = game.unit_files(&solved_engine::TableStore::new(dir.path()));
        game.solve_to_files(&files, 0, &Silent).unwrap();
        assert_eq!(game.reachable_if_walked(&files).unwrap(), None);
        assert_eq!(game.reachable_by_units(&files, &Silent).unwrap(), expected, "{}x{}", game.size, game.size);
        // The finished walk is read back, not walked again.
        assert!(files.dir().join("reachable.ckpt").is_file());
        assert_eq!(game.reachable_by_units(&files, &Silent).unwrap(), expected);
        assert_eq!(game.reachable_if_walked(&files).unwrap(), Some(expected));
    }
}

/// The solve counts each unit's mutual zugzwangs by its parts.
#[test]
fn every_unit_up_to_6x6_has_parts() {
    for size in 2..=6 {
        let game = game(size, Objective::Normal);
        let index = game.unit_index();
        let without: Vec<usize> = (0..index.units().len()).filter(|&u| index.parts(u).is_none()).collect();
        assert_eq!(without, [0usize; 0], "{size}x{size}: units without parts");
    }
}

#[test]
fn mutual_zugzwangs_counted_part_by_part_are_those_found_position_by_position() {
    for game in all_games() {
        let dir = tempfile::tempdir().unwrap();
        let store = solved_engine::TableStore::new(dir.path());
        game.solve_to_files(&game.unit_files(&store), 0, &Silent).unwrap();
        let by_parts = DodgemUnits::open(&game, &store).unwrap().figures().unwrap().mutual_zugzwang;
        let (table, _) = crate::tables::obtain(&game, &store, &Silent).unwrap();
        let one_by_one = game.mutual_zugzwangs(&table).len() as u64;
        assert_eq!(by_parts, one_by_one, "{0}x{0} {1:?}", game.size, game.objective());
    }
}

#[test]
fn unit_files_are_held_to_the_figures_published_and_a_sample_audit_catches_a_wrong_value() {
    use crate::claims::Verdict;
    let game = game(4, Objective::Normal);
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let files = game.unit_files(&store);
    game.solve_to_files(&files, 0, &Silent).unwrap();
    let units = DodgemUnits::open(&game, &store).unwrap();
    // What 4x4 would publish, from its one table (its own numbering and
    // header figures), not from the unit files.
    let (table, _) = crate::tables::obtain(&game, &store, &Silent).unwrap();
    let summary = game.summary(&table).unwrap();
    let first_moves: Vec<String> =
        game.ranked_moves(&game.start(), &table).iter().map(|(m, v, _)| format!("{m} {v}")).collect();
    let published = claims::OwnResult {
        first_moves: first_moves.join(", "),
        all: summary.all,
        reachable: summary.reachable,
        longest: (summary.longest_win.unwrap(), summary.longest_loss.unwrap()),
        longest_positions: summary.longest_examples.map(|pos| pos.unwrap().to_string()),
        mutual_zugzwangs: summary.mutual_zugzwang,
    };
    // The longest win and loss named by example: the same positions from
    // the table and from the unit files, and of the values named.
    let examples = summary.longest_examples;
    assert_eq!(units.longest_examples(&game).unwrap(), examples);
    let [win, loss] = examples.map(|pos| game.probe(&table, &pos.unwrap()));
    assert_eq!((win, loss), (Value::Win(summary.longest_win.unwrap()), Value::Loss(summary.longest_loss.unwrap())));
    let audit_claim =
        "4x4: every position, either side to move, has the value its children give by the plain rules (solved audit)";
    let verdicts = |published: &claims::OwnResult, reachable, audited: Option<AuditReport>| {
        let solved = claims::SolvedUnits { units: &units, reachable, audited: audited.clone() };
        let claims = claims::from_unit_files(&game, Ok(solved), published, 5000, &Silent).unwrap();
        match audited {
            Some(audit) => assert_eq!(claims.last().unwrap().ours, format!("all {} agree", audit.checked)),
            None => assert_eq!(claims.last().unwrap().ours, "all 5000 agree"),
        }
        claims.into_iter().map(|c| (c.claim, c.verdict)).collect::<Vec<_>>()
    };
    let not_walked = verdicts(&published, None, None);
    let unreached: Vec<&str> = not_walked.iter().filter(|c| c.1 != Verdict::Agrees).map(|c| c.0.as_str()).collect();
    assert_eq!(unreached, ["4x4 positions reachable from the start (wins, losses, draws)", audit_claim]);
    assert_eq!(not_walked[3].1, Verdict::NotYetReachable);
    let walked = game.reachable_by_units(&files, &Silent).unwrap();
    let not_audited = verdicts(&published, Some(walked), None);
    assert!(not_audited.iter().all(|c| c.1 == Verdict::Agrees || c.0 == audit_claim));
    // The full audit, once it has run, stands for the sample.
    assert_eq!(game.audited(&files, &Silent).unwrap(), None);
    let audit = game.audit_units(&files, 0, &Silent).unwrap();
    assert_eq!(game.audited(&files, &Silent).unwrap().as_ref(), Some(&audit));
    assert!(verdicts(&published, Some(walked), Some(audit.clone())).iter().all(|c| c.1 == Verdict::Agrees));
    // Each published figure is held to the files: one wrong, one claim fails.
    let mut wrong = published.clone();
    wrong.mutual_zugzwangs += 1;
    let failed: Vec<String> = verdicts(&wrong, Some(walked), Some(audit))
        .into_iter()
        .filter(|c| c.1 != Verdict::Agrees)
        .map(|c| c.0)
        .collect();
    assert_eq!(failed, ["4x4 placements lost for either side to move"]);
    // One stored value changed: the audit finds it where it was sampled.
    let wrong = 2 * game.unit_index().count() / 5;
    let unit = game.unit_index().unit_at(wrong);
    let victim = Units::unindex_in_unit(&game, unit, wrong - game.unit_index().start(unit));
    let lie = |pos: &Position| {
        let truth = units.value(&game, pos)?;
        let same = Units::locate(&game, pos) == Units::locate(&game, &victim);
        Ok(if same { if truth == Value::Draw { Value::Win(Plies(1)) } else { Value::Draw } } else { truth })
    };
    let report = game.audit_sample(0..game.unit_index().count(), 5, &Silent, lie).unwrap();
    assert_eq!(report.checked, 5);
    assert!(report.examples.iter().any(|d| d.idx == wrong), "{report:?}");
    let missing = claims::from_unit_files(&game, Err("not solved".into()), &published, 5, &Silent).unwrap();
    assert_eq!(missing.len(), 1);
    assert_eq!((missing[0].ours.as_str(), &missing[0].verdict), ("not solved", &Verdict::NotYetReachable));
}

#[test]
fn units_solved_two_bytes_wide_leave_the_same_files() {
    for objective in [Objective::Normal, Objective::Misere] {
        let game = game(4, objective);
        let (narrow, wide) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let narrow = game.unit_files(&solved_engine::TableStore::new(narrow.path()));
        let wide = game.unit_files(&solved_engine::TableStore::new(wide.path()));
        game.solve_to_files(&narrow, 0, &Silent).unwrap();
        solved_engine::units::UnitSolver::new(0).two_bytes_wide().solve(&game, &wide, &Silent).unwrap();
        for unit in 0..game.unit_index().units().len() {
            let (a, b) = (std::fs::read(narrow.path(unit)).unwrap(), std::fs::read(wide.path(unit)).unwrap());
            assert!(a == b, "unit {unit} of 4x4 {objective:?} differs");
        }
    }
}

/// The walk's children (found by the solver's own moves) and the audit's
/// (the plain rules' children, located together, on their own or after
/// the mirror image's) are where each plain child alone is located.
#[test]
fn children_found_for_the_walk_and_located_for_the_audit_are_where_each_alone_is() {
    use solved_engine::units::{ForwardUnits, SiblingMemo};
    for size in 2..=6 {
        let game = game(size, Objective::Normal);
        let every = EveryPosition(&game);
        let units = game.unit_index().units();
        // Every unit of the small boards; a spread of units and positions
        // of 5x5 and 6x6, each compiled for its size.
        let step = if size <= 4 { 1 } else { 7 };
        for unit in (0..units.len()).step_by(step) {
            let len = units[unit].len;
            let picks = if size <= 4 { 0..len } else { 0..len.min(40) };
            let spread = picks.map(|i| if size <= 4 { i } else { i * len / 40 });
            for idx in spread {
                let stored = Units::unindex_in_unit(&game, unit, idx);
                let mut memo = SiblingMemo::default();
                for pos in [stored, game.mirror(&stored)] {
                    if game.terminal_value(&pos).is_some() {
                        continue;
                    }
                    let children: Vec<Position> =
                        game.legal_moves(&pos).into_iter().map(|m| game.play_unchecked(&pos, m)).collect();
                    let mut plain: Vec<(usize, u64)> =
                        children.iter().map(|child| ForwardUnits::locate(&every, child)).collect();
                    // On their own, and one after the other as the audit
                    // takes them: the second's children found among the first's.
                    for memo in [&mut SiblingMemo::default(), &mut memo] {
                        let mut together = Vec::new();
                        every.locate_siblings(&pos, &children, memo, &mut together);
                        assert_eq!(together, plain, "{size}x{size} unit {unit} position {idx}: {pos}");
                    }
                    let mut found = Vec::new();
                    every.for_each_child_located(&pos, |u, i| found.push((u, i)));
                    found.sort_unstable();
                    plain.sort_unstable();
                    assert_eq!(found, plain, "{size}x{size} {pos}");
                }
            }
        }
    }
}

#[test]
fn a_damaged_block_of_a_unit_file_is_found_and_the_unit_named() {
    use crate::claims::Verdict;
    let game = game(4, Objective::Misere);
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let files = game.unit_files(&store);
    game.solve_to_files(&files, 0, &Silent).unwrap();
    let command = "solved solve dodgem --size 4 --misere --units";
    let whole = claims::unit_blocks(&game, &files, command, &Silent).unwrap();
    assert_eq!(whole.verdict, Verdict::Agrees, "{}", whole.ours);
    // The largest unit, one byte flipped inside its blocks, past the header.
    let unit = (0..files.len()).max_by_key(|&u| std::fs::metadata(files.path(u)).unwrap().len()).unwrap();
    let path = files.path(unit);
    let mut bytes = std::fs::read(&path).unwrap();
    let inside = bytes.len() - bytes.len() / 4;
    bytes[inside] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = claims::unit_blocks(&game, &files, command, &Silent).unwrap();
    assert_eq!(damaged.verdict, Verdict::Disagrees);
    assert!(damaged.ours.contains(&format!("first unit {unit} ")), "{}", damaged.ours);
    assert!(damaged.ours.contains(command), "{}", damaged.ours);
}
