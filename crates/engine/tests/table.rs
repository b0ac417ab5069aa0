//! Table files: round trips, and every way a file can be refused.

use solved_engine::table::{self, HEADER_LEN, Margin, Packed, TableKey};
use solved_engine::{FormatError, PackedValue, Plies, Table, TableError, TableStore, Value};

fn key(positions: u64) -> TableKey {
    TableKey { game: "test".into(), variant: "normal".into(), size: "3x3".into(), index_version: 1, positions }
}

fn sample_values() -> Vec<PackedValue> {
    [Value::Win(Plies(3)), Value::Loss(Plies(0)), Value::Draw, Value::Loss(Plies(38)), Value::Win(Plies(0))]
        .iter()
        .map(|&v| PackedValue::pack(v).unwrap())
        .collect()
}

fn write_sample(dir: &std::path::Path) -> std::path::PathBuf {
    let store = TableStore::new(dir);
    let values = sample_values();
    store.save::<Packed>(&key(values.len() as u64), &[("reachable", 4), ("zugzwangs", 0)], values.as_slice()).unwrap()
}

fn invalid<E>(result: Result<Table<E>, TableError>) -> FormatError {
    match result {
        Err(TableError::Invalid { source, .. }) => source,
        other => panic!("expected an invalid table, got {other:?}"),
    }
}

#[test]
fn a_written_table_reads_back_with_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_sample(dir.path());
    let table = Table::<Packed>::open(&path, &key(5)).unwrap();
    assert_eq!(table.probe(0), Value::Win(Plies(3)));
    assert_eq!(table.probe(3), Value::Loss(Plies(38)));
    let counts = table.header().tally;
    assert_eq!((counts.wins, counts.losses, counts.draws), (2, 2, 1));
    assert_eq!(table.header().fact("reachable"), Some(4));
    assert_eq!(table.header().fact("zugzwangs"), Some(0));
    assert_eq!(table.header().fact("elsewhere"), None);
}

#[test]
fn a_table_of_margins_is_not_read_as_one_of_values() {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let margins: [i8; 4] = [3, -1, 0, 0];
    let path = store.save::<Margin>(&key(4), &[], margins.as_slice()).unwrap();
    let table = Table::<Margin>::open(&path, &key(4)).unwrap();
    assert_eq!((0..4).map(|i| table.probe_margin(i)).collect::<Vec<_>>(), margins);
    let tally = table.header().tally;
    assert_eq!((tally.wins, tally.losses, tally.draws), (1, 1, 2));
    let error = invalid(Table::<Packed>::open(&path, &key(4)));
    assert!(matches!(error, FormatError::Encoding { found: 2, expected: 1, .. }), "{error}");
    assert_eq!(error.to_string(), "table holds encoding 2, not packed values (1)");
}

#[test]
fn only_regular_files_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let path = store.path::<Packed>(&key(5));
    std::fs::create_dir(&path).unwrap();
    let error = Table::<Packed>::open(&path, &key(5)).unwrap_err();
    assert!(matches!(error, TableError::Read { .. }), "{error:?}");
    std::fs::remove_dir(&path).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let error = Table::<Packed>::open(&path, &key(5)).unwrap_err();
        assert!(matches!(&error, TableError::Read { source, .. } if source.to_string().contains("not a regular file")));
    }
}

/// An error with every cause it gives, as the command line prints it.
fn said(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text += &format!(": {next}");
        cause = next.source();
    }
    text
}

/// Makes at `path` one of the things that are not a regular file.
fn make_other(kind: &str, path: &std::path::Path) {
    match kind {
        "pipe" => assert!(std::process::Command::new("mkfifo").arg(path).status().unwrap().success()),
        "directory" => std::fs::create_dir(path).unwrap(),
        "dangling link" => std::os::unix::fs::symlink("/nowhere/at/all", path).unwrap(),
        "looping link" => std::os::unix::fs::symlink(path, path).unwrap(),
        "link to a table" => std::os::unix::fs::symlink(path.with_extension("elsewhere"), path).unwrap(),
        "device" => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        _ => unreachable!(),
    }
}

/// Every way of opening a file, each given a pipe, a directory, links and a
/// device where its file belongs: each is refused at once, saying so, and
/// nothing waits (run on a thread with a deadline, so that a hang fails).
#[test]
fn whatever_is_not_a_regular_file_is_refused_at_once_wherever_it_is() {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let kinds = ["pipe", "directory", "dangling link", "looping link", "link to a table", "device"];
        for kind in kinds {
            let dir = tempfile::tempdir().unwrap();
            let store = TableStore::new(dir.path());
            // Where a table belongs, and a real table where the link leads.
            let path = store.path::<Packed>(&key(5));
            std::fs::write(path.with_extension("elsewhere"), b"").unwrap();
            make_other(kind, &path);
            let error = said(&store.open::<Packed>(&key(5)).unwrap_err());
            assert!(error.contains("not a regular file"), "{kind}: {error}");
            // Where a build's lock belongs.
            let lock = dir.path().join(format!(".{}.lock", path.file_name().unwrap().to_string_lossy()));
            make_other(kind, &lock);
            let error = store.lock_for_building::<Packed>(&key(5), || panic!("{kind}: nobody holds it")).unwrap_err();
            let error = said(&error);
            assert!(error.contains("not a regular file"), "{kind}: {error}");
            // Where a checkpoint belongs.
            let checkpoint = store.checkpoint::<Packed>(&key(5));
            make_other(kind, checkpoint.path());
            let error = said(&checkpoint.load(1).unwrap_err());
            assert!(error.contains("not a regular file"), "{kind}: {error}");
            // Where a unit belongs: there, but not a unit.
            let files = solved_engine::units::UnitFiles::new(dir.path().join("units"), key(0), vec![5]);
            std::fs::create_dir(files.dir()).unwrap();
            make_other(kind, &files.path(0));
            let error = said(&solved_engine::units::UnitStore::has(&files, 0).unwrap_err());
            assert!(error.contains("not a regular file"), "{kind}: {error}");
            assert!(said(&files.open(0).unwrap_err()).contains("not a regular file"), "{kind}");
            assert!(std::fs::symlink_metadata(&path).is_ok(), "{kind}: nothing on disk is touched");
        }
        done.send(()).unwrap();
    });
    finished.recv_timeout(std::time::Duration::from_secs(60)).expect("every refusal came at once");
}

#[test]
fn a_missing_table_is_a_miss_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(TableStore::new(dir.path()).open::<Packed>(&key(5)).unwrap().is_none());
}

#[test]
fn every_corrupted_byte_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_sample(dir.path());
    let original = std::fs::read(&path).unwrap();
    for i in 0..original.len() {
        let mut bytes = original.clone();
        bytes[i] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        assert!(Table::<Packed>::open(&path, &key(5)).is_err(), "flipping byte {i} went unnoticed");
    }
    let mut bytes = original.clone();
    bytes[HEADER_LEN + 2] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &key(5))), FormatError::Checksum { .. }));
}

#[test]
fn header_fields_must_match_what_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_sample(dir.path());
    let mut other_variant = key(5);
    other_variant.variant = "misere".into();
    let error = invalid(Table::<Packed>::open(&path, &other_variant));
    assert_eq!(error.to_string(), r#"table is for variant "normal", not "misere""#);
    let mut other_size = key(5);
    other_size.size = "4x4".into();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &other_size)), FormatError::Mismatch { field: "size", .. }));
    assert!(matches!(
        invalid(Table::<Packed>::open(&path, &key(6))),
        FormatError::Mismatch { field: "position count", .. }
    ));
    let mut reordered = key(5);
    reordered.index_version = 2;
    assert!(matches!(
        invalid(Table::<Packed>::open(&path, &reordered)),
        FormatError::Mismatch { field: "index version", .. }
    ));
}

#[test]
fn truncated_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_sample(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &key(5))), FormatError::Length { .. }));
    std::fs::write(&path, &bytes[..10]).unwrap();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &key(5))), FormatError::TooShort { len: 10 }));
    std::fs::write(&path, vec![b'x'; 400]).unwrap();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &key(5))), FormatError::Magic));
    let mut newer = bytes.clone();
    newer[8] = 99;
    std::fs::write(&path, &newer).unwrap();
    assert!(matches!(invalid(Table::<Packed>::open(&path, &key(5))), FormatError::Version { found: 99, .. }));
}

#[test]
fn a_short_payload_leaves_the_old_file_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_sample(dir.path());
    let before = std::fs::read(&path).unwrap();
    let result = table::write::<Packed>(&path, &key(5), &[], [PackedValue::DRAW; 2].as_slice());
    assert!(matches!(result, Err(TableError::Write { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left behind");
}

#[test]
fn tables_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Table<Packed>>();
    assert_send_sync::<Table<Margin>>();
}

#[test]
fn a_second_builder_waits_for_the_first_and_stale_files_go() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let stale = dir.path().join(".test-normal-3x3.tbl.AbCdEf.tmp");
    std::fs::write(&stale, b"left by a killed build").unwrap();
    let first = store.lock_for_building::<Packed>(&key(5), || panic!("nobody holds the lock yet")).unwrap();
    assert!(!stale.exists(), "the lock's holder removes what killed builds left");
    let waited = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let second =
            scope.spawn(|| store.lock_for_building::<Packed>(&key(5), || waited.store(true, Ordering::SeqCst)));
        while !waited.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(!second.is_finished(), "the second waits while the first holds the lock");
        drop(first);
        second.join().unwrap().unwrap();
    });
}
